//! The facts of one file: what extraction keeps and the cache stores (definitions with their
//! scopes, call sites, imports, assignments, bindings, returns and literals).

use super::*;

/// One step of a dotted expression: `a.b().c` is `[Name a, Name b, Call, Name c]`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Seg {
    Name(String),
    Call,
    /// Python's `super()`, Java's and JavaScript's `super`.
    Super,
    /// A subscript with a literal key: `table["a"]`, `items[0]`.
    Index(String),
    /// One of the values iterating over the expression gives (`for x in <expr>`).
    Iter,
    /// A literal dict, list, tuple or set written in place: [`FileFacts::literals`] index.
    /// (Python string keys, here and in `Index`, start with `'`: `d["1"]` is not `d[1]`.)
    Lit(u32),
    /// An anonymous function written in place (a Python lambda): its definition's index.
    Lambda(u32),
    /// `.get(key)` with a literal key: an element of a literal dict, else a method call.
    Get(String),
    /// `.pop(key)` (`*` for no key or one not known statically): an element of a literal,
    /// else a method call.
    Pop(String),
    /// TypeScript: the explicit type argument of the call before it (`useContext<Theme>()`).
    /// As a function's declared return type, alone: it returns its one type parameter, so a
    /// call of it with a type argument gives an instance of that type.
    Typed(Vec<Seg>),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum DefKind {
    Class,
    Func,
    /// A Rust `impl` block: its methods belong to the type it names.
    Impl,
    /// An anonymous function (a lambda, an arrow callback): a scope for its parameters, not a
    /// node of the graph; its calls belong to the enclosing function.
    Scope,
}

/// A class-like or function-like definition.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Def {
    pub kind: DefKind,
    pub name: String,
    pub start_line: u32,
    pub end_line: u32,
    pub start_byte: u32,
    pub end_byte: u32,
    /// Bytes whose code runs inside this definition's scope (the body of a function: default
    /// arguments and decorators run in the enclosing scope).
    pub scope_start: u32,
    pub scope_end: u32,
    pub parent: Option<u32>,
    pub bases: Vec<Vec<Seg>>,
    pub decorators: Vec<Vec<Seg>>,
    pub params: Vec<String>,
    /// The declared type of each parameter, where it has one (`item: Item`, `Item item`).
    pub param_types: Vec<Option<Vec<Seg>>>,
    /// The declared return type, where there is one.
    pub return_type: Option<Vec<Seg>>,
    pub is_lambda: bool,
    /// The type a Go method's receiver or a C++ out-of-class method names (`Foo::bar`).
    pub receiver: Option<String>,
    /// Set when this `impl` block was merged into the type it names.
    pub merged_into: Option<u32>,
    /// The first parameter is not the instance (`@staticmethod`, or no parameter).
    pub is_static: bool,
    /// The first parameter is the class (`@classmethod`, Ruby `def self.x`).
    pub is_classmethod: bool,
    /// A Ruby `module` or a namespace: a container, not a class with instances.
    pub is_namespace: bool,
    /// Default values of the parameters, aligned with `params` (Python).
    #[serde(default)]
    pub defaults: Vec<Option<Vec<Seg>>>,
    /// The positions of `*args` and `**kwargs` among `params`.
    #[serde(default)]
    pub star: Option<u32>,
    #[serde(default)]
    pub kwstar: Option<u32>,
    /// A Python lambda's number among the lambdas of its scope, from 1 (0 for the rest): its
    /// qualified name is `<lambdaN>`, as Python's own `__qualname__` says `<lambda>`, even
    /// when it is bound to a name.
    #[serde(default)]
    pub lambda_no: u32,
    /// A JavaScript object literal bound to a name (`const obj = { run() {} }`): a container
    /// naming its methods (`obj.run`), whose value is the literal itself, not a class.
    #[serde(default)]
    pub is_object: bool,
    /// A JavaScript accessor: `1` for `get x()`, `2` for `set x(v)`, else `0`.
    #[serde(default)]
    pub accessor: u8,
    /// A TypeScript interface: a shape that object literals and classes may have, with no code.
    #[serde(default)]
    pub is_interface: bool,
    /// A TypeScript abstract class: never itself what an object is.
    #[serde(default)]
    pub is_abstract: bool,
    /// A JavaScript constructor function with methods on its prototype
    /// (`T.prototype.m = function`): `new T()` is an instance whose methods they are.
    #[serde(default)]
    pub has_proto: bool,
    /// JavaScript: the scope a function is written in, when it is named in another (one
    /// assigned to a variable declared further out): its code still sees that scope's names.
    #[serde(default)]
    pub written_in: Option<u32>,
}

/// The name of a JavaScript class expression bound to no name (`(Base) => class extends Base
/// {}`): no node, its methods anonymous functions, yet a class whose members are looked up.
pub const ANON_CLASS: &str = "<class>";

impl Def {
    /// A class expression bound to no name ([`ANON_CLASS`]).
    pub fn is_anon_class(&self) -> bool {
        self.kind == DefKind::Class && self.name == ANON_CLASS
    }
}

/// A call site.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CallSite {
    /// Innermost definition whose scope holds the call; `None` for top-level code.
    pub scope: Option<u32>,
    pub callee: Vec<Seg>,
    /// The callee as written, for unresolved calls.
    pub text: String,
    pub line: u32,
    /// `new X()`: the callee is a class.
    pub is_new: bool,
    /// Positional arguments as dotted expressions, `None` for anything else.
    pub args: Vec<Option<Vec<Seg>>>,
    /// Keyword arguments.
    pub kwargs: Vec<(String, Option<Vec<Seg>>)>,
    /// A `*args` or `**kwargs` argument: positions after it are unknown.
    pub spread: bool,
    /// For a decorator applied to a definition: that definition, the implicit argument.
    pub decorates: Option<u32>,
    /// A bare name that is a call only if it names a function (Ruby `setup`, which may
    /// also be a local variable): kept only when it resolves to one.
    pub maybe: bool,
    /// A call made by the callee of another call (index into `calls`): `map(f, xs)` calls
    /// `f`. Kept only when that outer call is the builtin or library function that does so.
    #[serde(default)]
    pub via: Option<u32>,
    /// A Python attribute read (`1`) or write (`2`) that is a call only if a `@property`
    /// getter (or its setter) of that name is what it reaches.
    #[serde(default)]
    pub prop: u8,
    /// Python `f(**opts)`: the dict whose items bind keyword parameters.
    #[serde(default)]
    pub kwsplat: Option<Vec<Seg>>,
    /// A JSX element's call: of its factory ([`JSX_FACTORY`], [`JSX_PRAGMA`]), or of its
    /// component ([`JSX_COMPONENT`]); `0` for the rest.
    #[serde(default)]
    pub jsx: u8,
    /// JavaScript: a call in an instance field's initialiser of a class that writes no
    /// constructor (`heap = new MinHeap()`). Its scope is the class; it is made by whoever
    /// runs `new C()` (see `Resolver::field_init_targets`).
    #[serde(default)]
    pub field_init: bool,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum ImportKind {
    /// `import a.b` (binds `a`), `import a.b as c` (binds `c` to `a.b`), `import * as ns from`.
    Module { path: String, alias: Option<String> },
    /// `from a import b as c`, `import { b as c } from 'a'`, `use a::b as c`.
    From {
        path: String,
        level: u32,
        name: String,
        alias: Option<String>,
    },
    /// `from a import *`, `#include "a.h"`, `require_relative 'a'`, `using A;`, `source a.sh`.
    Star { path: String, level: u32 },
}

/// How an AMD dependency without `./` (`define(["app/util"], …)`) is written in an import's
/// path: RequireJS looks it up from its baseUrl, a folder the file does not name, so the
/// resolver tries the file's folders ([`amd_module_id`]) where a plain specifier would be a
/// package.
pub(crate) const AMD_ID_PREFIX: &str = "amd:";

/// The module id of an AMD dependency written with [`AMD_ID_PREFIX`].
pub(crate) fn amd_module_id(path: &str) -> Option<&str> {
    path.strip_prefix(AMD_ID_PREFIX)
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ImportFact {
    pub scope: Option<u32>,
    pub line: u32,
    pub kind: ImportKind,
}

/// `target = value`, or a declaration with a type (`Foo x;`).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct AssignFact {
    pub scope: Option<u32>,
    pub target: Vec<String>,
    pub value: Option<Vec<Seg>>,
    /// A declared type: the value is an instance of it.
    pub type_name: Option<Vec<Seg>>,
    /// For a literal dict, list, tuple, object or array value: its elements by key (`"0"`,
    /// `"1"`, ... for sequences).
    pub elements: Vec<(String, Option<Vec<Seg>>)>,
    pub line: u32,
    /// JavaScript destructuring with a default (`{ keyFn = clientKey } = opts`): what the
    /// name holds when the value has no such part.
    #[serde(default)]
    pub default: Option<Vec<Seg>>,
}

/// A name bound to something unknown (a parameter, a loop variable).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct BindFact {
    pub scope: Option<u32>,
    pub name: String,
    pub line: u32,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ReturnFact {
    pub scope: Option<u32>,
    pub value: Option<Vec<Seg>>,
    /// A `yield`: the function makes a generator of these values.
    pub yields: bool,
}

/// A literal container written in place (an argument, a return value, an element).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct LitFact {
    pub scope: Option<u32>,
    pub line: u32,
    /// A dict: iterating over it gives its keys, not its values.
    pub dict: bool,
    /// Elements by key (`"0"`, `"1"`, ... for sequences; `*` for a key not known statically).
    pub elements: Vec<(String, Option<Vec<Seg>>)>,
}

/// Everything the resolver needs to know about one file.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct FileFacts {
    /// Path relative to the repository root, with `/`.
    pub path: String,
    pub lang: Lang,
    pub lines: u32,
    /// Java `package`, C# `namespace`, Go `package`.
    pub package: Option<String>,
    pub defs: Vec<Def>,
    pub calls: Vec<CallSite>,
    pub imports: Vec<ImportFact>,
    pub assigns: Vec<AssignFact>,
    pub binds: Vec<BindFact>,
    /// Names declared `global`/`nonlocal` in a scope: they are not local there.
    pub globals: Vec<BindFact>,
    pub returns: Vec<ReturnFact>,
    /// Python literal containers that appear inside expressions ([`Seg::Lit`]).
    #[serde(default)]
    pub literals: Vec<LitFact>,
    /// JavaScript `export default name`.
    pub default_export: Option<String>,
    /// Python blocks that may not run, or not run to the end, on the way to what follows
    /// them (bodies of `if`/`elif`/`else`, loops, `try`/`except`, `match` arms), as line
    /// ranges: a name bound in one of them does not replace the earlier bindings for a later
    /// read outside it.
    #[serde(default)]
    pub cond_blocks: Vec<(u32, u32)>,
    /// JavaScript calls that register a listener or fire an event named by a string literal
    /// (`x.on('done', f)`, `this.emit('done')`, `this.dispatchEvent(new Event('done'))`): the
    /// call's index and the event's name.
    #[serde(default)]
    pub events: Vec<(u32, String)>,
}

impl AssignFact {
    /// `target = value`, with no declared type and no literal written in place.
    pub(super) fn plain(
        scope: Option<u32>,
        target: Vec<String>,
        value: Option<Vec<Seg>>,
        line: u32,
    ) -> Self {
        AssignFact {
            scope,
            target,
            value,
            type_name: None,
            elements: Vec::new(),
            line,
            default: None,
        }
    }
}

impl CallSite {
    /// A callee's written text from its names (`React.createElement`).
    pub(super) fn dotted(callee: &[Seg]) -> String {
        callee
            .iter()
            .filter_map(|s| match s {
                Seg::Name(n) => Some(n.as_str()),
                _ => None,
            })
            .collect::<Vec<_>>()
            .join(".")
    }

    /// A call with no arguments to follow, made where the code says (`maybe` false): the
    /// implicit calls (decorators, special methods, callbacks, properties) start from here.
    pub(super) fn bare(scope: Option<u32>, callee: Vec<Seg>, text: String, line: u32) -> CallSite {
        CallSite {
            scope,
            callee,
            text,
            line,
            is_new: false,
            args: Vec::new(),
            kwargs: Vec::new(),
            spread: false,
            decorates: None,
            maybe: false,
            via: None,
            prop: 0,
            kwsplat: None,
            jsx: 0,
            field_init: false,
        }
    }
}

impl FileFacts {
    /// A copy without the call sites (the largest part of most files' facts).
    pub(crate) fn clone_without_calls(&self) -> FileFacts {
        FileFacts {
            path: self.path.clone(),
            lang: self.lang,
            lines: self.lines,
            package: self.package.clone(),
            defs: self.defs.clone(),
            calls: Vec::new(),
            imports: self.imports.clone(),
            assigns: self.assigns.clone(),
            binds: self.binds.clone(),
            globals: self.globals.clone(),
            returns: self.returns.clone(),
            literals: self.literals.clone(),
            default_export: self.default_export.clone(),
            cond_blocks: self.cond_blocks.clone(),
            events: self.events.clone(),
        }
    }
}
