//! Import statements of every language, as the import facts the resolver follows.

use super::*;

impl<'t> Extractor<'_, 't> {
    /// The module `require('./m')` or a dynamic `import('./m')` loads.
    pub(super) fn require_path(&self, n: Node) -> Option<String> {
        if n.kind() != "call_expression" {
            return None;
        }
        let f = n.field(Field::FUNCTION)?;
        if f.kind() != "import" && self.src.get(f.byte_range()) != Some(b"require".as_slice()) {
            return None;
        }
        let args = n.field(Field::ARGUMENTS)?;
        let s = args.named_child(0)?;
        if s.kind() != "string" {
            return None;
        }
        Some(unquote(self.str(s)))
    }

    /// Module systems written as calls: `require('./m')` used in place (`require('./m').f()`)
    /// is an import under a name no code can write, which [`Extractor::segs`] gives that call;
    /// AMD `define([deps], factory)` and `require([deps], callback)` bind each dependency to
    /// the factory's parameter, and a module's value is what its `define` factory returns.
    pub(super) fn js_module_call(&mut self, n: Node, scope: Option<u32>, line: u32) {
        if let Some(path) = self.require_path(n) {
            if n.parent()
                .is_some_and(|p| p.kind() != "variable_declarator")
            {
                self.facts.imports.push(ImportFact {
                    scope,
                    line,
                    kind: ImportKind::Module {
                        alias: Some(require_key(&path)),
                        path,
                    },
                });
            }
            return;
        }
        let Some(f) = n.field(Field::FUNCTION) else {
            return;
        };
        let is_define = match self.src.get(f.byte_range()) {
            Some(b"define") => true,
            Some(b"require" | b"requirejs") => false,
            _ => return,
        };
        let Some(args) = n.field(Field::ARGUMENTS) else {
            return;
        };
        let parts = named_parts(args);
        let deps: Vec<Option<String>> = parts
            .iter()
            .find(|a| a.kind() == "array")
            .map(|a| {
                named_parts(*a)
                    .into_iter()
                    .map(|s| (s.kind() == "string").then(|| unquote(self.str(s))))
                    .collect()
            })
            .unwrap_or_default();
        let Some(factory) = parts
            .iter()
            .rev()
            .find(|a| matches!(a.kind(), "function_expression" | "arrow_function"))
        else {
            return;
        };
        let start = factory.start_byte() as u32;
        let Some(fd) = self
            .facts
            .defs
            .iter()
            .position(|d| d.start_byte == start && d.kind == DefKind::Scope)
        else {
            return;
        };
        let fline = self.facts.defs[fd].start_line;
        let params = self.facts.defs[fd].params.clone();
        for (dep, param) in deps.into_iter().zip(params) {
            let Some(path) = dep else { continue };
            if matches!(path.as_str(), "require" | "exports" | "module") {
                continue;
            }
            // A loader plugin (`text!x.html`) or a URL is no module of the repository.
            let path = if path.starts_with(['.', '/']) || path.contains(['!', ':']) {
                path
            } else {
                format!("{AMD_ID_PREFIX}{path}")
            };
            self.facts.imports.push(ImportFact {
                scope: Some(fd as u32),
                line: fline,
                kind: ImportKind::Module {
                    path,
                    alias: Some(param),
                },
            });
        }
        if !is_define || scope.is_some() {
            return;
        }
        // The module's value: what the factory returns at its top level.
        let Some(body) = factory.field(Field::BODY) else {
            return;
        };
        // A factory with a body: what its call returns, read inside it (`var api = {…};
        // return api;` names a local of the factory).
        if body.kind() == "statement_block" {
            self.facts.assigns.push(AssignFact {
                scope: None,
                target: vec!["exports".into()],
                value: Some(vec![Seg::Lambda(fd as u32), Seg::Call]),
                type_name: None,
                elements: Vec::new(),
                line,
                default: None,
            });
            return;
        }
        if let Some(v) = Some(body) {
            let value = self.segs(v);
            let elements = self.elements(v);
            self.facts.assigns.push(AssignFact {
                scope: None,
                target: vec!["exports".into()],
                value,
                type_name: None,
                elements,
                line,
                default: None,
            });
        }
    }

    pub(super) fn import(&mut self, n: Node) {
        let scope = self.scope_of(n.start_byte() as u32);
        let line = n.start_position().row as u32 + 1;
        let mut out: Vec<ImportKind> = Vec::new();
        match (self.lang, n.kind()) {
            (Lang::Python, "import_statement") => {
                let mut cur = n.walk();
                for ch in n.children_by_field_name("name", &mut cur) {
                    match ch.kind() {
                        "dotted_name" => out.push(ImportKind::Module {
                            path: self.text(ch),
                            alias: None,
                        }),
                        "aliased_import" => {
                            if let (Some(p), Some(a)) =
                                (ch.field(Field::NAME), ch.field(Field::ALIAS))
                            {
                                out.push(ImportKind::Module {
                                    path: self.text(p),
                                    alias: Some(self.text(a)),
                                });
                            }
                        }
                        _ => {}
                    }
                }
            }
            (Lang::Python, "import_from_statement") => {
                let Some(m) = n.field(Field::MODULE_NAME) else {
                    return;
                };
                let (path, level) = if m.kind() == "relative_import" {
                    let mut level = 0;
                    let mut path = String::new();
                    let mut cur = m.walk();
                    for ch in m.named_children(&mut cur) {
                        match ch.kind() {
                            "import_prefix" => level = self.text(ch).matches('.').count() as u32,
                            "dotted_name" => path = self.text(ch),
                            _ => {}
                        }
                    }
                    (path, level)
                } else {
                    (self.text(m), 0)
                };
                let mut cur = n.walk();
                let mut any = false;
                for ch in n.children_by_field_name("name", &mut cur) {
                    any = true;
                    let (name, alias) = match ch.kind() {
                        "aliased_import" => match (ch.field(Field::NAME), ch.field(Field::ALIAS)) {
                            (Some(p), Some(a)) => (self.text(p), Some(self.text(a))),
                            _ => continue,
                        },
                        _ => (self.text(ch), None),
                    };
                    out.push(ImportKind::From {
                        path: path.clone(),
                        level,
                        name,
                        alias,
                    });
                }
                if !any {
                    let mut cur = n.walk();
                    if n.named_children(&mut cur)
                        .any(|c| c.kind() == "wildcard_import")
                    {
                        out.push(ImportKind::Star { path, level });
                    }
                }
            }
            (l, "import_statement") if l.is_js_family() => {
                let mut cur = n.walk();
                let required = n
                    .named_children(&mut cur)
                    .find(|c| c.kind() == "import_require_clause");
                // TypeScript `import x = require('./m')`: `x` is what the module exports.
                if let Some(r) = required {
                    if let (Some(id), Some(src)) = (first_identifier(r), r.field(Field::SOURCE)) {
                        out.push(ImportKind::Module {
                            path: unquote(self.str(src)),
                            alias: Some(self.text(id)),
                        });
                    }
                    for kind in out {
                        self.facts.imports.push(ImportFact { scope, line, kind });
                    }
                    return;
                }
                let Some(src) = n.field(Field::SOURCE) else {
                    return;
                };
                let path = unquote(self.str(src));
                let mut any = false;
                let mut cur = n.walk();
                for clause in n.named_children(&mut cur) {
                    if clause.kind() != "import_clause" {
                        continue;
                    }
                    let mut c2 = clause.walk();
                    for ch in clause.named_children(&mut c2) {
                        match ch.kind() {
                            "identifier" => {
                                any = true;
                                out.push(ImportKind::From {
                                    path: path.clone(),
                                    level: 0,
                                    name: "default".into(),
                                    alias: Some(self.text(ch)),
                                });
                            }
                            "namespace_import" => {
                                if let Some(id) = first_identifier(ch) {
                                    any = true;
                                    out.push(ImportKind::Module {
                                        path: path.clone(),
                                        alias: Some(self.text(id)),
                                    });
                                }
                            }
                            "named_imports" => {
                                let mut c3 = ch.walk();
                                for spec in ch.named_children(&mut c3) {
                                    if spec.kind() != "import_specifier" {
                                        continue;
                                    }
                                    let Some(name) = spec.field(Field::NAME) else {
                                        continue;
                                    };
                                    any = true;
                                    out.push(ImportKind::From {
                                        path: path.clone(),
                                        level: 0,
                                        name: self.text(name),
                                        alias: spec.field(Field::ALIAS).map(|a| self.text(a)),
                                    });
                                }
                            }
                            _ => {}
                        }
                    }
                }
                if !any {
                    out.push(ImportKind::Star { path, level: 0 });
                }
            }
            (l, "export_statement") if l.is_js_family() => self.export(n, scope, line, &mut out),
            (Lang::Go, _) => {
                let mut specs = Vec::new();
                collect_kind(n, "import_spec", &mut specs);
                for spec in specs {
                    let Some(p) = spec.field(Field::PATH) else {
                        continue;
                    };
                    let path = unquote(self.str(p));
                    let alias = spec.field(Field::NAME).map(|a| self.text(a));
                    match alias.as_deref() {
                        Some(".") => out.push(ImportKind::Star { path, level: 0 }),
                        Some("_") => {}
                        _ => out.push(ImportKind::Module { path, alias }),
                    }
                }
            }
            (Lang::Rust, "mod_item") => {
                if let Some(name) = n.field(Field::NAME) {
                    let name = self.text(name);
                    out.push(ImportKind::Module {
                        path: format!("self::{name}"),
                        alias: Some(name),
                    });
                }
            }
            (Lang::Rust, _) => {
                if let Some(arg) = n.field(Field::ARGUMENT) {
                    self.rust_use(arg, String::new(), &mut out);
                }
            }
            (Lang::Java, _) => {
                let star = {
                    let mut cur = n.walk();
                    n.children(&mut cur).any(|c| c.kind() == "asterisk")
                };
                if let Some(p) = n.named_child(0) {
                    let full = self.text(p);
                    if star {
                        out.push(ImportKind::Star {
                            path: full,
                            level: 0,
                        });
                    } else if let Some((pkg, name)) = full.rsplit_once('.') {
                        out.push(ImportKind::From {
                            path: pkg.to_string(),
                            level: 0,
                            name: name.to_string(),
                            alias: None,
                        });
                    }
                }
            }
            (Lang::C | Lang::Cpp, _) => {
                if let Some(p) = n.field(Field::PATH) {
                    let t = self.text(p);
                    let path = t.trim_matches(['"', '<', '>']).to_string();
                    out.push(ImportKind::Star {
                        path,
                        level: u32::from(p.kind() == "string_literal"),
                    });
                }
            }
            (Lang::Ruby, _) => {
                let method = n
                    .field(Field::METHOD)
                    .map(|m| self.text(m))
                    .unwrap_or_default();
                if let Some(args) = n.field(Field::ARGUMENTS)
                    && let Some(s) = args.named_child(0)
                {
                    let path = unquote(self.str(s));
                    out.push(ImportKind::Star {
                        path,
                        level: u32::from(method == "require_relative"),
                    });
                }
            }
            (Lang::CSharp, _) => {
                let mut cur = n.walk();
                if let Some(p) = n
                    .named_children(&mut cur)
                    .find(|c| matches!(c.kind(), "qualified_name" | "identifier"))
                {
                    out.push(ImportKind::Star {
                        path: self.text(p),
                        level: 0,
                    });
                }
            }
            (Lang::Bash, _) => {
                if let Some(arg) = n.field(Field::ARGUMENT) {
                    let path = unquote(self.str(arg));
                    out.push(ImportKind::Star { path, level: 1 });
                }
            }
            _ => {}
        }
        for kind in out {
            self.facts.imports.push(ImportFact { scope, line, kind });
        }
    }

    /// An `export` statement: re-exports from another module are imports under the exported
    /// name (`export { a as b } from`, `export * from`, `export * as ns from`); a local
    /// `export { a as b }` binds `b` to `a` (`default` sets the default export); TypeScript's
    /// `export = x` is the module's CommonJS value, `exports`.
    /// The value an export statement gives `name` (`export default new Service()`, TypeScript's
    /// `export = x`), recorded as an assignment; `always` keeps one that carries nothing known.
    fn export_value(&mut self, scope: Option<u32>, name: &str, v: Node, line: u32, always: bool) {
        let value = self.segs(v);
        let elements = self.elements(v);
        if always || value.is_some() || !elements.is_empty() {
            self.facts.assigns.push(AssignFact {
                scope,
                target: vec![name.into()],
                value,
                type_name: None,
                elements,
                line,
                default: None,
            });
        }
    }

    fn export(&mut self, n: Node, scope: Option<u32>, line: u32, out: &mut Vec<ImportKind>) {
        let source = n.field(Field::SOURCE).map(|s| unquote(self.str(s)));
        let mut cur = n.walk();
        let mut clause = None;
        let mut ns = None;
        let mut assigned = None;
        let mut after_eq = false;
        for ch in n.children(&mut cur) {
            match ch.kind() {
                "export_clause" => clause = Some(ch),
                "namespace_export" => ns = Some(ch),
                "=" => after_eq = true,
                _ if after_eq && ch.is_named() && assigned.is_none() => assigned = Some(ch),
                _ => {}
            }
        }
        // `export default new Service()`, `export default { ... }`: a value named `default`
        // (functions and classes are definitions of that name, identifiers name what is
        // exported).
        if let Some(v) = n.field(Field::VALUE)
            && !matches!(
                v.kind(),
                "identifier"
                    | "function_expression"
                    | "arrow_function"
                    | "generator_function"
                    | "class"
            )
        {
            self.export_value(scope, "default", v, line, false);
            return;
        }
        if let Some(v) = assigned {
            self.export_value(scope, "exports", v, line, true);
            return;
        }
        let Some(path) = source else {
            let Some(clause) = clause else {
                return;
            };
            let mut c2 = clause.walk();
            for spec in clause.named_children(&mut c2) {
                let (Some(name), Some(alias)) = (spec.field(Field::NAME), spec.field(Field::ALIAS))
                else {
                    continue;
                };
                let (name, alias) = (unquote(self.str(name)), unquote(self.str(alias)));
                if alias == "default" {
                    self.facts.default_export = Some(name);
                } else if alias != name {
                    self.facts.assigns.push(AssignFact::plain(
                        scope,
                        vec![alias],
                        Some(vec![Seg::Name(name)]),
                        line,
                    ));
                }
            }
            return;
        };
        if let Some(ns) = ns {
            if let Some(id) = ns.named_child(0) {
                out.push(ImportKind::Module {
                    path,
                    alias: Some(unquote(self.str(id))),
                });
            }
            return;
        }
        let Some(clause) = clause else {
            out.push(ImportKind::Star { path, level: 0 });
            return;
        };
        let mut c2 = clause.walk();
        for spec in clause.named_children(&mut c2) {
            let Some(name) = spec.field(Field::NAME) else {
                continue;
            };
            out.push(ImportKind::From {
                path: path.clone(),
                level: 0,
                name: unquote(self.str(name)),
                alias: spec.field(Field::ALIAS).map(|a| unquote(self.str(a))),
            });
        }
    }

    pub(super) fn rust_use(&self, n: Node, prefix: String, out: &mut Vec<ImportKind>) {
        let join = |p: &str, s: &str| {
            if p.is_empty() {
                s.to_string()
            } else {
                format!("{p}::{s}")
            }
        };
        match n.kind() {
            "scoped_identifier" | "identifier" | "crate" | "self" | "super" => {
                let full = join(&prefix, self.str(n));
                let (path, name) = match full.rsplit_once("::") {
                    Some((p, nm)) => (p.to_string(), nm.to_string()),
                    None => (String::new(), full.clone()),
                };
                out.push(ImportKind::From {
                    path,
                    level: 0,
                    name,
                    alias: None,
                });
            }
            "use_as_clause" => {
                if let (Some(p), Some(a)) = (n.field(Field::PATH), n.field(Field::ALIAS)) {
                    let full = join(&prefix, self.str(p));
                    let (path, name) = match full.rsplit_once("::") {
                        Some((p, nm)) => (p.to_string(), nm.to_string()),
                        None => (String::new(), full.clone()),
                    };
                    out.push(ImportKind::From {
                        path,
                        level: 0,
                        name,
                        alias: Some(self.text(a)),
                    });
                }
            }
            "scoped_use_list" => {
                let p = n
                    .field(Field::PATH)
                    .map(|p| join(&prefix, self.str(p)))
                    .unwrap_or(prefix);
                if let Some(list) = n.field(Field::LIST) {
                    self.rust_use(list, p, out);
                }
            }
            "use_list" => {
                let mut cur = n.walk();
                for ch in n.named_children(&mut cur) {
                    self.rust_use(ch, prefix.clone(), out);
                }
            }
            "use_wildcard" => {
                let p = n
                    .named_child(0)
                    .map(|p| join(&prefix, self.str(p)))
                    .unwrap_or(prefix);
                out.push(ImportKind::Star { path: p, level: 0 });
            }
            _ => {}
        }
    }
}

/// The name an import of `require('./m')` written in place binds: not an identifier, so no
/// code can shadow it.
pub(super) fn require_key(path: &str) -> String {
    format!("require({path})")
}
