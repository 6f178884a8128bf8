// Ground truth for the JavaScript and TypeScript call-graph suites: run a case under Node and
// record which function called which.
//
// Usage (Node 20, after `npm ci` in this folder):
//   node trace.mjs <case>.case            print the graph recorded by running the case
//   node trace.mjs <case>.case --check    exit 1 when it differs from the case's `=== callgraph`
//   node trace.mjs <case>.case --record   write the recorded graph into the case (when writing it)
//   node trace.mjs --all <dir> --check    check every `*.case` under <dir>
//
// A case is `# …` comment lines, then files (`--- path` starts one), then `=== callgraph` and
// the expected graph `{"caller": ["callee", ...]}`, every module and function of the case a key.
// The case is written to a temporary folder and its entry (`main.js`, `main.ts`, or the file
// named by a comment line `# entry: path`) is run in a fresh Node process.
//
// How names are given (the naming rules shared with the resolver, see README "Code canvas"):
// every source file is parsed with TypeScript's compiler API and each function gets its
// qualified name: the file's path without extension, then the `.`-joined names of the
// declarations around it (functions, classes, bound class expressions and object literals,
// namespaces, `module.exports`/`exports.x`, assignments without declaration, `X.prototype.m`).
// Functions bound to no name (callbacks, IIFEs, AMD factories, methods of object literals that
// are not bound) get no name: they are transparent.
//
// How calls are observed: each named function gets `__jscg_enter("<name>")` as its first
// statement, then the file is transpiled to CommonJS (ES2022) and loaded by Node's CommonJS
// loader, whose hooks also give cases what they need at run time: `.ts`/`.tsx`/`.mts`/`.cts`
// files, `index` resolution, `.js` specifiers naming `.ts` files, `tsconfig.json` (or
// `jsconfig.json`) `compilerOptions.paths`/`baseUrl`, also from the configs it `extends`, a
// minimal AMD `define`/`require([deps], factory)`, and decorators (legacy ones when the case's
// tsconfig sets `experimentalDecorators`). On entry, V8's structured stack frames are read: the
// caller is the first frame below the entered function that lies in a case file, mapped by its
// position in the transpiled text to the innermost named function around it (the module when
// there is none). So:
// - frames of builtins and node internals are skipped: `arr.map(f)` is called by `map`'s
//   caller, `emitter.emit('x')` runs listeners for the scope that calls `emit`, `fn.call`,
//   `bind`, getters, setters and tagged templates are called by the scope that triggers them;
// - an anonymous function's calls are its enclosing named scope's (it is transparent);
// - callbacks run later by the event loop (`then`/`catch`/`finally`, `setTimeout`,
//   `setInterval`, `setImmediate`, `process.nextTick`, `queueMicrotask`) are called by the
//   scope that registered them: those builtins are wrapped to remember it;
// - after `await`, the resumed async function is its own frame, so calls after an `await` are
//   the async function's;
// - default constructors, class field initializers and static blocks are not scopes: a frame
//   in a class body but in none of its methods is skipped, so `new C()` with an inherited
//   constructor is the call of the scope that runs `new`; an `extends` expression (a mixin
//   call) is the call of the scope that defines the class;
// - decorators are called by the module (the decorating helpers run at its top level).
// Loading a module is not a call. Only edges between the case's own modules and functions are
// recorded: files under `node_modules` are run uninstrumented and their frames skipped.
//
// The oracle's own tests are `selftest/*.case`, whose graphs are written by hand from these
// rules (`node trace.mjs --all selftest --check`, run by `make jscg`).
//
// An assignment's function is named in the scope that declares the target's variable, not
// where the assignment is made: `function enable() { onSave = () => … }` with `let onSave` at
// the top is `main.onSave`, as is `obj.p = …` inside a function for a top-level `obj`; the
// scope of an anonymous function that declares it (an IIFE's parameter `$`) is its enclosing
// named scope; an undeclared target, and `exports.x`, are the module's.
//
// Where the shared rules are silent, the oracle names: `X.prototype.m = function` as `X.m`,
// `obj.p = function` (obj a plain name, not `this`) as `obj.p`, private methods with their `#`
// (`C.#check`), members of `export default { … }` under `default`, `export = function` as
// `exports`; methods of an object literal or a class expression bound to no name are
// transparent, like anonymous functions.
//
// Limits, which the cases respect: everything runs as CommonJS, so no top-level `await` and no
// `import.meta`; a generator's body runs for the scope that iterates it, so cases iterate a
// generator where they make it; only what runs is recorded, so each case runs every edge it
// makes plausible (a comparator handed to `sort` of one element is never called).
//
// What cannot be observed is added by hand in a case with a comment line
// `# hand: <caller> -> <callee>` saying so, which --check adds to what it records.

import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);
const ts = require("typescript");

const SOURCE_EXT = /\.(?:[cm]?[jt]s|[jt]sx)$/;
const MARK = "__jscg_enter";
const AMD_REQUIRE = "__jscg_amd_require";

// ---------------------------------------------------------------------------------------------
// Case files

function readCase(file) {
  const files = [];
  const expected = [];
  const comments = [];
  let cur = null;
  let inJson = false;
  for (const line of fs.readFileSync(file, "utf8").split("\n")) {
    if (line.startsWith("--- ")) {
      cur = { path: line.slice(4).trim(), lines: [] };
      files.push(cur);
      inJson = false;
    } else if (line.trim() === "=== callgraph") {
      inJson = true;
    } else if (inJson) {
      expected.push(line);
    } else if (cur) {
      cur.lines.push(line);
    } else if (line.startsWith("#")) {
      comments.push(line.slice(1).trim());
    }
  }
  return {
    files: files.map((f) => ({ path: f.path, text: f.lines.join("\n") })),
    expected: expected.join("\n").trim(),
    comments,
  };
}

function isPackage(file) {
  return file.split(/[\\/]/).includes("node_modules");
}

function moduleName(rel) {
  return rel.replace(/\\/g, "/").replace(SOURCE_EXT, "");
}

// ---------------------------------------------------------------------------------------------
// Naming: qualified names of the functions of one file

function unwrap(e) {
  while (
    e &&
    (ts.isParenthesizedExpression(e) ||
      ts.isAsExpression(e) ||
      ts.isSatisfiesExpression(e) ||
      ts.isNonNullExpression(e) ||
      ts.isTypeAssertionExpression(e))
  ) {
    e = e.expression;
  }
  return e;
}

function propName(name) {
  if (!name) return null;
  if (ts.isIdentifier(name) || ts.isPrivateIdentifier(name)) return name.text;
  if (ts.isStringLiteral(name) || ts.isNumericLiteral(name)) return name.text;
  return null; // computed: not known before running
}

// The dotted path of an assignment target, or null when it is not a plain name chain.
// `module.exports` and `exports` are the module itself; `X.prototype.m` is `X.m`; `this.x` is
// not named (the spec excludes it).
function targetPath(e) {
  const parts = [];
  e = unwrap(e);
  while (ts.isPropertyAccessExpression(e)) {
    parts.unshift(e.name.text);
    e = unwrap(e.expression);
  }
  if (!ts.isIdentifier(e)) return null;
  parts.unshift(e.text);
  if (parts[0] === "module" && parts[1] === "exports") {
    return parts.length === 2 ? { exports: true, path: [] } : { path: parts.slice(2), module: true };
  }
  if (parts[0] === "module") return null;
  if (parts[0] === "exports") return { path: parts.slice(1), module: true };
  return { path: parts.filter((p, i) => !(p === "prototype" && i > 0)) };
}

function isFunctionLike(e) {
  return e && (ts.isFunctionExpression(e) || ts.isArrowFunction(e));
}

// Walks one file and returns [{node, name}] for each named function, plus named classes.
function nameFunctions(sf, modName) {
  const named = [];
  // The named scope each visited node's code belongs to: where a declaration found in it names.
  const scopeAt = new Map();
  // Inside an assignment's value: a name given again is a variable holding another function.
  let assigning = 0;

  // The named scope that declares `name` as seen from `node` (a parameter, `var`/`let`/`const`,
  // a function or a class of an enclosing function or block); an undeclared name is the
  // module's.
  function declaringScope(node, name, modName) {
    for (let a = node.parent; a; a = a.parent) {
      if (ts.isFunctionLike(a) && a.parameters?.some((p) => declares(p.name, name))) {
        return scopeAt.get(a.body) ?? scopeAt.get(a) ?? modName;
      }
      if ((ts.isBlock(a) || ts.isSourceFile(a) || ts.isModuleBlock(a)) && blockDeclares(a, name, ts.isSourceFile(a) || ts.isFunctionLike(a.parent))) {
        return scopeAt.get(a) ?? modName;
      }
    }
    return modName;
  }

  function declares(binding, name) {
    if (!binding) return false;
    if (ts.isIdentifier(binding)) return binding.text === name;
    if (ts.isObjectBindingPattern(binding) || ts.isArrayBindingPattern(binding)) {
      return binding.elements.some((e) => !ts.isOmittedExpression(e) && declares(e.name, name));
    }
    return false;
  }

  // A block declares a name with `let`/`const`/`function`/`class` among its statements, and a
  // function's body also with `var` anywhere in it outside nested functions (hoisting).
  function blockDeclares(block, name, hoists) {
    const decl = (list) => list.declarations.some((d) => declares(d.name, name));
    for (const s of block.statements) {
      if (ts.isVariableStatement(s) && decl(s.declarationList)) return true;
      if ((ts.isFunctionDeclaration(s) || ts.isClassDeclaration(s)) && s.name?.text === name) return true;
      if (ts.isImportDeclaration(s) && s.importClause) {
        const c = s.importClause;
        if (c.name?.text === name) return true;
        const b = c.namedBindings;
        if (b && ts.isNamespaceImport(b) && b.name.text === name) return true;
        if (b && ts.isNamedImports(b) && b.elements.some((e) => e.name.text === name)) return true;
      }
    }
    if (!hoists) return false;
    let found = false;
    const walk = (n) => {
      if (found || ts.isFunctionLike(n) || ts.isClassLike(n)) return;
      if (ts.isVariableDeclarationList(n) && !(n.flags & ts.NodeFlags.BlockScoped) && decl(n)) found = true;
      else ts.forEachChild(n, walk);
    };
    block.statements.forEach(walk);
    return found;
  }
  const join = (scope, n) => `${scope}.${n}`;

  function fn(node, name) {
    named.push({ node, name, assigned: assigning > 0 });
    visitChildren(node, name);
  }

  // A value bound to `name` in `scope`: functions, classes and object literals take it.
  function bound(value, name, scope, opts = {}) {
    const v = unwrap(value);
    if (isFunctionLike(v)) {
      if (opts.exportsItself && !name) return fn(v, join(scope, "exports"));
      return fn(v, name);
    }
    if (v && ts.isClassExpression(v)) {
      if (opts.exportsItself && !name) return classBody(v, join(scope, "exports"));
      return classBody(v, name);
    }
    if (v && ts.isObjectLiteralExpression(v)) {
      // `module.exports = { a() {} }` names its members in the module itself.
      return objectBody(v, opts.exportsItself && !name ? scope : name);
    }
    visit(value, scope);
  }

  function objectBody(obj, scope) {
    for (const p of obj.properties) {
      const n = propName(p.name);
      if (ts.isMethodDeclaration(p) || ts.isGetAccessorDeclaration(p) || ts.isSetAccessorDeclaration(p)) {
        if (n === null) visit(p, scope);
        else fn(p, join(scope, n));
      } else if (ts.isPropertyAssignment(p) && n !== null) {
        bound(p.initializer, join(scope, n), scope);
      } else {
        visit(p, scope);
      }
    }
  }

  function classBody(cls, name) {
    for (const m of cls.members) {
      if (ts.isConstructorDeclaration(m)) {
        if (m.body) fn(m, join(name, "constructor"));
        else visit(m, name);
        continue;
      }
      const n = propName(m.name);
      if (
        (ts.isMethodDeclaration(m) || ts.isGetAccessorDeclaration(m) || ts.isSetAccessorDeclaration(m)) &&
        m.body &&
        n !== null
      ) {
        fn(m, join(name, n));
      } else if (ts.isPropertyDeclaration(m) && m.initializer && n !== null) {
        const v = unwrap(m.initializer);
        if (isFunctionLike(v)) fn(v, join(name, n));
        else visit(m, name);
      } else {
        visit(m, name);
      }
    }
    for (const d of ts.getDecorators?.(cls) ?? []) visit(d, name);
    if (cls.heritageClauses) cls.heritageClauses.forEach((h) => visit(h, name));
  }

  function visitChildren(node, scope) {
    ts.forEachChild(node, (c) => visit(c, scope));
  }

  function visit(node, scope) {
    if (!node) return;
    scopeAt.set(node, scope);
    if (ts.isFunctionDeclaration(node)) {
      if (!node.body) return; // an overload signature
      const isDefault = node.modifiers?.some((m) => m.kind === ts.SyntaxKind.DefaultKeyword);
      const n = node.name ? node.name.text : isDefault ? "default" : null;
      return n ? fn(node, join(scope, n)) : visitChildren(node, scope);
    }
    if (ts.isClassDeclaration(node)) {
      const isDefault = node.modifiers?.some((m) => m.kind === ts.SyntaxKind.DefaultKeyword);
      const n = node.name ? node.name.text : isDefault ? "default" : null;
      return n ? classBody(node, join(scope, n)) : visitChildren(node, scope);
    }
    if (ts.isFunctionExpression(node) && node.name) {
      return fn(node, join(scope, node.name.text)); // a named expression bound to nothing
    }
    if (ts.isClassExpression(node) && node.name) {
      return classBody(node, join(scope, node.name.text));
    }
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer) {
      return bound(node.initializer, join(scope, node.name.text), scope);
    }
    if (ts.isExportAssignment(node)) {
      if (node.isExportEquals) return bound(node.expression, null, scope, { exportsItself: true });
      const v = unwrap(node.expression);
      if (isFunctionLike(v) || (v && (ts.isClassExpression(v) || ts.isObjectLiteralExpression(v)))) {
        return bound(node.expression, join(scope, "default"), scope);
      }
      return visit(node.expression, scope);
    }
    if (
      ts.isBinaryExpression(node) &&
      node.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
      !ts.isObjectLiteralExpression(node.left) &&
      !ts.isArrayLiteralExpression(node.left)
    ) {
      const t = targetPath(node.left);
      if (t) {
        if (t.exports) return bound(node.right, null, scope, { exportsItself: true });
        // Named where the target's variable is declared: the function is what that variable
        // holds, wherever the assignment is made (exports are the module's own).
        const home = t.module ? modName : declaringScope(node, t.path[0], modName);
        assigning++;
        try {
          return bound(node.right, [home, ...t.path].join("."), scope);
        } finally {
          assigning--;
        }
      }
      visit(node.left, scope);
      return visit(node.right, scope);
    }
    if (ts.isModuleDeclaration(node) && node.body) {
      let inner = scope;
      let n = node;
      while (n && ts.isModuleDeclaration(n)) {
        inner = join(inner, ts.isIdentifier(n.name) ? n.name.text : n.name.text);
        if (n.body && ts.isModuleDeclaration(n.body)) n = n.body;
        else break;
      }
      return visit(n.body, inner);
    }
    visitChildren(node, scope);
  }

  visit(sf, modName);
  return named;
}

// ---------------------------------------------------------------------------------------------
// Instrumentation: a recording call at each named function's entry

function bodyInsertPoint(body) {
  // After the directive prologue, so "use strict" stays a directive.
  let pos = body.getStart() + 1;
  for (const s of body.statements) {
    if (ts.isExpressionStatement(s) && ts.isStringLiteral(s.expression)) pos = s.end;
    else break;
  }
  return pos;
}

function instrument(fileName, text, modName) {
  const sf = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, scriptKind(fileName));
  const named = nameFunctions(sf, modName);
  const edits = [];
  for (const { node, name } of named) {
    const q = JSON.stringify(name);
    const body = node.body;
    if (!body) continue;
    if (ts.isBlock(body)) {
      edits.push({ pos: bodyInsertPoint(body), text: `${MARK}(${q});` });
    } else {
      edits.push({ pos: body.getStart(), text: `(${MARK}(${q}), (` });
      edits.push({ pos: body.end, text: "))", after: true });
    }
  }
  // Apply from the end; at one position, closing text goes before opening text.
  edits.sort((a, b) => b.pos - a.pos || (a.after ? 1 : 0) - (b.after ? 1 : 0));
  let out = text;
  for (const e of edits) out = out.slice(0, e.pos) + e.text + out.slice(e.pos);
  return out;
}

function scriptKind(fileName) {
  if (/\.tsx$/.test(fileName)) return ts.ScriptKind.TSX;
  if (/\.[cm]?ts$/.test(fileName)) return ts.ScriptKind.TS;
  if (/\.jsx$/.test(fileName)) return ts.ScriptKind.JSX;
  return ts.ScriptKind.JS;
}

// Names every function of all files: the graph's keys.
function allNames(root, files) {
  const keys = new Map();
  const dup = [];
  for (const f of files) {
    if (!SOURCE_EXT.test(f.path) || /\.d\.[cm]?ts$/.test(f.path) || isPackage(f.path)) continue;
    const mod = moduleName(f.path);
    keys.set(mod, true);
    const sf = ts.createSourceFile(f.path, f.text, ts.ScriptTarget.Latest, true, scriptKind(f.path));
    const seen = new Set();
    for (const { node, name, assigned } of nameFunctions(sf, mod)) {
      // A getter and its setter share the property's name, and so do the functions a
      // variable is assigned over time.
      const accessor = ts.isGetAccessorDeclaration(node) || ts.isSetAccessorDeclaration(node);
      if (seen.has(name) && !accessor && !assigned && !dup.includes(name)) dup.push(name);
      seen.add(name);
      keys.set(name, true);
    }
  }
  return { keys: [...keys.keys()], dup };
}

// ---------------------------------------------------------------------------------------------
// The child: load the case under the hooks and record edges

function runChild(root, entry, outFile) {
  const Module = require("node:module");
  const compilerOptions = readCompilerOptions(root);
  const transpiled = new Map(); // file -> {scopes, classes, lineStarts}
  const edges = new Set();
  const asyncStack = [];
  const oracleUrl = import.meta.url;
  const oraclePath = fileURLToPath(import.meta.url);

  function scopeTable(file, out) {
    const sf = ts.createSourceFile(file, out, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
    const scopes = [];
    const classes = [];
    const functions = [];
    const markOf = (e) => {
      e = unwrap(e);
      if (e && ts.isCallExpression(e) && ts.isIdentifier(e.expression) && e.expression.text === MARK) {
        const a = e.arguments[0];
        return a && ts.isStringLiteral(a) ? a.text : null;
      }
      return null;
    };
    const walk = (n) => {
      if (ts.isFunctionLike(n) && n.body) {
        let name = null;
        if (ts.isBlock(n.body)) {
          for (const s of n.body.statements) {
            if (ts.isExpressionStatement(s) && (name = markOf(s.expression))) break;
          }
        } else {
          const b = unwrap(n.body);
          if (ts.isBinaryExpression(b) && b.operatorToken.kind === ts.SyntaxKind.CommaToken) {
            name = markOf(b.left);
          }
        }
        if (name) scopes.push({ start: n.getStart(), end: n.end, name });
        functions.push({ start: n.getStart(), end: n.end });
      }
      // The `extends` expression is run by the scope that defines the class, not by the class
      // body: only what follows the heritage clauses counts as the body.
      if (ts.isClassLike(n)) {
        const h = n.heritageClauses;
        const heritage = h?.length ? { start: h.pos, end: h.end } : null;
        classes.push({ start: n.getStart(), end: n.end, heritage });
      }
      ts.forEachChild(n, walk);
    };
    walk(sf);
    return { scopes, classes, functions, lineStarts: sf.getLineStarts() };
  }

  function compile(module, filename) {
    const text = fs.readFileSync(filename, "utf8");
    // A package's functions are not the case's: they are run, never recorded.
    const instrumented = isPackage(filename)
      ? text
      : instrument(filename, text, moduleName(path.relative(root, filename)));
    let out = ts.transpileModule(instrumented, {
      // .mjs/.mts would keep their ESM syntax: everything here runs as CommonJS.
      fileName: filename.replace(/\.m([jt]s)$/, ".$1").replace(/\.c([jt]s)$/, ".$1"),
      compilerOptions: {
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.CommonJS,
        esModuleInterop: true,
        experimentalDecorators: !!compilerOptions.experimentalDecorators,
        jsx: ts.JsxEmit.React,
        sourceMap: false,
      },
    }).outputText;
    // The module's own `require` only takes one argument: AMD's `require([deps], callback)`
    // needs the two (put after the directive prologue so "use strict" stays one).
    const prologue = /^(?:\s*(?:"use strict"|'use strict');?)?/.exec(out)[0];
    out = `${prologue}require = ${AMD_REQUIRE}(require, module);${out.slice(prologue.length)}`;
    transpiled.set(filename, scopeTable(filename, out));
    amdStack.push(module);
    try {
      module._compile(out, filename, "commonjs");
    } finally {
      amdStack.pop();
    }
  }
  for (const ext of [".js", ".mjs", ".cjs", ".jsx", ".ts", ".mts", ".cts", ".tsx"]) {
    Module._extensions[ext] = compile;
  }

  // Resolution: tsconfig paths/baseUrl, then `.js` naming `.ts`.
  const origResolve = Module._resolveFilename;
  const baseUrl = compilerOptions.baseUrl;
  const paths = compilerOptions.paths ?? {};
  Module._resolveFilename = function (request, parent, ...rest) {
    const tryOne = (r) => {
      try {
        return origResolve.call(this, r, parent, ...rest);
      } catch {
        return null;
      }
    };
    const bare = !request.startsWith(".") && !path.isAbsolute(request) && !request.startsWith("node:");
    const candidates = [];
    if (bare) {
      for (const [pat, targets] of Object.entries(paths)) {
        const star = pat.indexOf("*");
        let matched = null;
        if (star < 0 && pat === request) matched = "";
        else if (star >= 0 && request.startsWith(pat.slice(0, star)) && request.endsWith(pat.slice(star + 1))) {
          matched = request.slice(star, request.length - (pat.length - star - 1));
        }
        if (matched === null) continue;
        for (const t of targets) {
          const base = baseUrl ?? compilerOptions.pathsBase;
          candidates.push(path.resolve(base, t.replace("*", matched)));
        }
      }
    }
    for (const c of [...candidates, request]) {
      const r = tryOne(c) ?? tryOne(c.replace(/\.js$/, ".ts")) ?? tryOne(c.replace(/\.js$/, ".tsx"))
        ?? tryOne(c.replace(/\.mjs$/, ".mts")) ?? tryOne(c.replace(/\.cjs$/, ".cts"));
      if (r) return r;
    }
    if (bare && baseUrl) {
      const r = tryOne(path.join(baseUrl, request)) ?? tryOne(path.join(baseUrl, request).replace(/\.js$/, ".ts"));
      if (r) return r;
    }
    return origResolve.call(this, request, parent, ...rest);
  };

  // Minimal AMD: `define([deps], factory)` in a file being loaded sets its exports;
  // `require([deps], callback)` loads the deps and calls back at once.
  const amdStack = [];
  function amdDeps(module, deps) {
    return deps.map((d) => {
      if (d === "require") return (ids, cb) => amdRequire(module, ids, cb);
      if (d === "exports") return module.exports;
      if (d === "module") return module;
      const spec = d.startsWith(".") ? d : path.join(baseUrl ?? root, d);
      return module.require(spec);
    });
  }
  function amdRequire(module, ids, cb) {
    if (!Array.isArray(ids)) return module.require(ids);
    const values = amdDeps(module, ids);
    return cb ? cb(...values) : undefined;
  }
  globalThis.define = function define(...args) {
    const module = amdStack[amdStack.length - 1];
    if (typeof args[0] === "string") args.shift();
    const [deps, factory] = Array.isArray(args[0]) ? args : [["require", "exports", "module"], args[0]];
    const result = typeof factory === "function" ? factory(...amdDeps(module, deps)) : factory;
    if (result !== undefined) module.exports = result;
  };
  globalThis.define.amd = {};
  globalThis[AMD_REQUIRE] = (req, module) => {
    const amd = (id, cb) => (Array.isArray(id) ? amdRequire(module, id, cb) : req(id));
    return Object.assign(amd, req);
  };
  const origRequire = Module.prototype.require;

  function frames(skip) {
    const prep = Error.prepareStackTrace;
    const limit = Error.stackTraceLimit;
    Error.prepareStackTrace = (_, cs) => cs;
    Error.stackTraceLimit = 500;
    const holder = {};
    Error.captureStackTrace(holder, skip);
    const cs = holder.stack;
    Error.prepareStackTrace = prep;
    Error.stackTraceLimit = limit;
    return cs;
  }

  // The named scope at a frame's position, or undefined to skip the frame.
  function scopeAt(file, line, col) {
    const t = transpiled.get(file);
    if (!t) return undefined;
    const offset = t.lineStarts[line - 1] + col - 1;
    let best = null;
    for (const s of t.scopes) {
      if (s.start <= offset && offset < s.end && (!best || s.start >= best.start)) best = s;
    }
    const inner = (list) => {
      let b = null;
      for (const x of list) if (x.start <= offset && offset < x.end && (!b || x.start >= b.start)) b = x;
      return b;
    };
    const cls = inner(t.classes);
    const func = inner(t.functions);
    // In a class body but in none of its functions: a default constructor, a field
    // initializer or a static block; the frame below is the scope that made it run.
    const inHeritage = cls?.heritage && cls.heritage.start <= offset && offset < cls.heritage.end;
    if (cls && (!func || cls.start > func.start) && !inHeritage) return undefined;
    return best ? best.name : moduleName(path.relative(root, file));
  }

  function callerOf(cs) {
    for (const f of cs) {
      const file = f.getFileName();
      if (!file) continue;
      if (file === oracleUrl || file === oraclePath) {
        if (f.getFunctionName() === "__jscgLater" && asyncStack.length) {
          return asyncStack[asyncStack.length - 1];
        }
        continue;
      }
      if (!file.startsWith(root + path.sep) || isPackage(file)) continue;
      const s = scopeAt(file, f.getLineNumber(), f.getColumnNumber());
      if (s !== undefined) return s;
    }
    return null;
  }

  globalThis[MARK] = function enter(name) {
    const cs = frames(enter);
    const caller = callerOf(cs.slice(1)); // cs[0] is the entered function itself
    if (caller !== null) edges.add(JSON.stringify([caller, name]));
    else process.stderr.write(`jscg: no caller found for ${name}\n`);
  };

  // Callbacks the event loop runs later are called by the scope that registered them.
  function later(fn, registrar) {
    if (typeof fn !== "function") return fn;
    return function __jscgLater(...args) {
      asyncStack.push(registrar);
      try {
        return fn.apply(this, args);
      } finally {
        asyncStack.pop();
      }
    };
  }
  function registrar(skip) {
    return callerOf(frames(skip));
  }
  const origThen = Promise.prototype.then;
  Promise.prototype.then = function then(a, b) {
    const r = registrar(then);
    return origThen.call(this, later(a, r), later(b, r));
  };
  for (const [obj, key] of [
    [globalThis, "setTimeout"],
    [globalThis, "setInterval"],
    [globalThis, "setImmediate"],
    [globalThis, "queueMicrotask"],
    [process, "nextTick"],
  ]) {
    const orig = obj[key];
    obj[key] = function scheduled(fn, ...rest) {
      return orig.call(this, later(fn, registrar(scheduled)), ...rest);
    };
  }

  process.on("exit", () => {
    fs.writeFileSync(outFile, JSON.stringify([...edges].map((e) => JSON.parse(e))));
  });
  origRequire.call(new Module(path.join(root, "__jscg_entry__.js")), path.join(root, entry));
}

// The case root's `tsconfig.json` (else `jsconfig.json`), with what it `extends` merged in the
// way `tsc` merges it: `baseUrl` is made absolute against the config that sets it, and `paths`
// without a `baseUrl` resolve against the config that declares them.
function readCompilerOptions(root) {
  const file = ["tsconfig.json", "jsconfig.json"]
    .map((f) => path.join(root, f))
    .find((f) => fs.existsSync(f));
  if (!file) return {};
  const { config } = ts.readConfigFile(file, ts.sys.readFile);
  const opts = ts.parseJsonConfigFileContent(config ?? {}, ts.sys, root, undefined, file).options;
  return {
    ...opts,
    baseUrl: opts.baseUrl ? path.resolve(opts.baseUrl) : null,
    pathsBase: opts.pathsBasePath ?? root,
  };
}

// ---------------------------------------------------------------------------------------------
// The parent: write the case, run it, build the graph, compare

function entryOf(c) {
  for (const line of c.comments) {
    const m = /^entry:\s*(\S+)/.exec(line);
    if (m) return m[1];
  }
  for (const e of ["main.ts", "main.js", "main.mjs", "main.mts", "main.cjs", "main.tsx"]) {
    if (c.files.some((f) => f.path === e)) return e;
  }
  throw new Error("no entry: add main.js or main.ts, or a comment line `# entry: path`");
}

// Runs a child and resolves with its exit status and stderr (never rejects).
function runNode(args, cwd) {
  return new Promise((resolve) => {
    // The time limit only guards against a case that never ends (an interval left running);
    // a case takes well under a second of CPU.
    execFile(process.execPath, args, { cwd, encoding: "utf8", timeout: 120000, maxBuffer: 1 << 26 }, (err, _out, stderr) => {
      resolve({ status: err ? (err.code ?? 1) : 0, stderr: stderr ?? "" });
    });
  });
}

async function trace(caseFile) {
  const c = readCase(caseFile);
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "jscg-")));
  try {
    for (const f of c.files) {
      const full = path.join(root, f.path);
      fs.mkdirSync(path.dirname(full), { recursive: true });
      fs.writeFileSync(full, `${f.text.replace(/\n+$/, "")}\n`);
    }
    const outFile = path.join(root, "__jscg_edges__.json");
    const child = await runNode(
      ["--stack-trace-limit=500", fileURLToPath(import.meta.url), "--child", root, entryOf(c), outFile],
      root,
    );
    if (child.status !== 0 || !fs.existsSync(outFile)) {
      throw new Error(`the case did not run (status ${child.status}):\n${child.stderr}`);
    }
    const problems = child.stderr
      .split("\n")
      .filter((l) => l.startsWith("jscg:"));
    const { keys, dup } = allNames(root, c.files);
    const graph = Object.fromEntries(keys.sort().map((k) => [k, new Set()]));
    const add = (a, b) => {
      if (!(a in graph)) problems.push(`jscg: caller ${a} is not a key`);
      if (!(b in graph)) problems.push(`jscg: callee ${b} is not a key`);
      (graph[a] ??= new Set()).add(b);
    };
    for (const [a, b] of JSON.parse(fs.readFileSync(outFile, "utf8"))) add(a, b);
    for (const line of c.comments) {
      const m = /^hand:\s*(\S+)\s*->\s*(\S+)/.exec(line);
      if (m) add(m[1], m[2]);
    }
    for (const d of dup) problems.push(`jscg: two functions are named ${d}`);
    const sorted = {};
    for (const k of Object.keys(graph).sort()) sorted[k] = [...graph[k]].sort();
    return { graph: sorted, expected: c.expected, problems, text: JSON.stringify(sorted, null, 2) };
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

// Checks, records or prints one case; returns whether it passed and what to say.
async function check(caseFile, mode) {
  const r = await trace(caseFile);
  const say = r.problems.map((p) => `${caseFile}: ${p}\n`);
  const done = (ok, out = "") => ({ ok, err: say.join(""), out });
  if (mode === "record") {
    const text = fs.readFileSync(caseFile, "utf8");
    const i = text.indexOf("\n=== callgraph");
    const head = i >= 0 ? text.slice(0, i).replace(/\n+$/, "") : text.replace(/\n+$/, "");
    fs.writeFileSync(caseFile, `${head}\n\n=== callgraph\n${r.text}\n`);
    return done(true);
  }
  if (mode !== "check") return done(true, `${r.text}\n`);
  let want;
  try {
    want = JSON.parse(r.expected);
  } catch (e) {
    say.push(`${caseFile}: the case's callgraph is not JSON: ${e.message}\n`);
    return done(false);
  }
  const norm = (g) =>
    JSON.stringify(Object.fromEntries(Object.keys(g).sort().map((k) => [k, [...g[k]].sort()])));
  if (norm(want) === norm(r.graph) && r.problems.length === 0) return done(true);
  const edges = (g) => new Set(Object.entries(g).flatMap(([k, vs]) => vs.map((v) => `${k} -> ${v}`)));
  const [w, g] = [edges(want), edges(r.graph)];
  const lines = [`${caseFile}: the recorded graph differs from the case's`];
  for (const e of g) if (!w.has(e)) lines.push(`  recorded, not in the case: ${e}`);
  for (const e of w) if (!g.has(e)) lines.push(`  in the case, not recorded: ${e}`);
  const [wk, gk] = [Object.keys(want), Object.keys(r.graph)];
  for (const k of gk) if (!wk.includes(k)) lines.push(`  key missing from the case: ${k}`);
  for (const k of wk) if (!gk.includes(k)) lines.push(`  key in the case that is no function: ${k}`);
  say.push(`${lines.join("\n")}\n`);
  return done(false);
}

function casesUnder(dir) {
  const out = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...casesUnder(p));
    else if (e.name.endsWith(".case")) out.push(p);
  }
  return out.sort();
}

async function main(argv) {
  if (argv[0] === "--child") return runChild(argv[1], argv[2], argv[3]);
  const mode = argv.includes("--check") ? "check" : argv.includes("--record") ? "record" : "print";
  const rest = argv.filter((a) => !a.startsWith("--"));
  const files = argv.includes("--all") ? rest.flatMap(casesUnder) : rest;
  if (files.length === 0) {
    process.stderr.write("usage: node trace.mjs <case>.case [--check|--record] | --all <dir> --check\n");
    process.exit(2);
  }
  // Cases run in parallel, one Node process each, as many at a time as there are cores;
  // what they say is printed in the cases' order.
  const results = new Array(files.length);
  let next = 0;
  const worker = async () => {
    while (next < files.length) {
      const i = next++;
      try {
        results[i] = await check(files[i], mode);
      } catch (e) {
        results[i] = { ok: false, err: `${files[i]}: ${e.message}\n`, out: "" };
      }
    }
  };
  const width = Math.max(1, Math.min(os.availableParallelism?.() ?? os.cpus().length, files.length));
  await Promise.all(Array.from({ length: width }, worker));
  let failed = 0;
  for (const r of results) {
    process.stdout.write(r.out);
    process.stderr.write(r.err);
    if (!r.ok) failed++;
  }
  if (files.length > 1) process.stderr.write(`${files.length - failed} of ${files.length} cases pass\n`);
  process.exit(failed ? 1 : 0);
}

main(process.argv.slice(2));
