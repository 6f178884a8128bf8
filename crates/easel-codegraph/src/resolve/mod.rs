//! Call resolution without a language server.
//!
//! Names are looked up the way the language does it: the function's own scope, enclosing
//! functions, the class body where the language allows it, the module, star imports, then the
//! language's global rules (a Go package's other files, a Java package, C's single namespace).
//! A name's value is followed through imports, simple assignments, constructor calls, return
//! values and decorators. When any step is unknown (a parameter, a loop variable, a library)
//! the call stays unresolved with the callee as written: nothing is guessed.
//!
//! # The rules, construct by construct
//!
//! - Never guess a call target. A call is an edge only when the resolver can follow the callee
//!   through scopes, imports, assignments, constructors, return values, decorators, declared
//!   parameter and return types, literal containers (Python: written anywhere in an expression,
//!   filled later by `x[k] = v` / `x.append(v)`, read by key, `.get`, `.values()`, loops), loops
//!   over generators and iterable classes (and, in Python, `for k, v in d.items()` /
//!   `enumerate(xs)`), default values, `*args` / `**kwargs`, the class and its bases (C3 MRO for
//!   Python; `self` of a base reaches what only subclasses define), Python's `with X() as x`
//!   (`__enter__`/`__exit__` are calls, `x` is what `__enter__` returns), conditional expressions
//!   (both branches), decorator classes (the name becomes an instance; `__init__` receives the
//!   function), builtins that call what they are given (`map`, `filter`, `sorted`/`min`/`max`/
//!   `list.sort` with `key=`, `functools.reduce`, `itertools.takewhile`/`dropwhile`/`filterfalse`/
//!   `starmap`/`groupby`/`accumulate`: a call with `via` set, kept only when the outer
//!   call really is that builtin; `partial(f, ...)` is `f`), attributes set from outside a class in
//!   its file (`Tool.run = helper`, `box.fn = f`; the receiver of such a method flows into its first
//!   parameter), a Python module's top-level name assigned from anywhere (`import helpers;
//!   helpers.handler = f`: the `py_mod_attrs` table holds, by attribute name, assignments whose
//!   object is a name an import binds; a read of the module's name checks that the object is that
//!   module and adds the value to the module's own bindings, as the order across modules is not
//!   known), Python containers read with a key known only at run time (any value the container
//!   holds), `xs[-1]`, `pop()`, `dict(k=f)`, `d.update(...)`, starred targets, `@property` getters
//!   and setters (an attribute access is a conditional call, probed against the `py_props` table
//!   of property names first), `f(**opts)` binding keyword parameters to the items of `opts` (a
//!   literal, or a forwarded `**kwargs`), the dotted calls in a constant string given to
//!   `exec`/`eval` (parsed with tree-sitter, made where `exec` runs), comprehensions (literal
//!   containers holding what their body gives), `xs.extend(ys)`, `d.setdefault(k, []).append(v)`,
//!   Python's implicit special-method calls (operators, comparisons, `in`, subscripts, `del`,
//!   f-string fields, and `len`/`str`/`print`/`iter`/`next`/... on an instance of a repository class
//!   that defines the method: a call with no text, kept only when it reaches such a method), every
//!   binding that can reach a use (a binding inside an `if`/loop/`try`/`match` block the use is not
//!   in does not hide the ones before it; `FileFacts::cond_blocks`; `global x; x = f` in a function
//!   adds to the module's `x` without hiding it), an assignment's right side read with the bindings
//!   before it (`fn = g if c else fn`), `(x := v)`, slices (`xs[1:]`: the elements between constant
//!   bounds of a literal never added to, else any), `d.get(k, default)` / `getattr(o, "n", default)`
//!   (either), `super(C, obj)` (after `C` in the MRO), `type(x)` / `x.__class__` (the class; for
//!   `self`, its used subclasses too), `f(**a, **b)` (keys from every dict), or the arguments at
//!   every call site that reaches a parameter (a second pass, run only for calls that read a
//!   parameter, also those the first pass resolved partly: `Pass1::Partial`); otherwise it is kept in `unresolved` with the callee as written, or in
//!   `builtin_calls` when it names a builtin of the language that the file does not bind itself.
//!
//! - Python dynamic dispatch: `self.m()` / `cls.m()` in class C, and `super()` in C, follow the MRO
//!   of C and of each subclass of C whose name appears in some call's callee or arguments
//!   (`py_used`, a table with the names each file contributes: a class never named in a call is
//!   never instantiated nor reached as `cls`); C itself counts when it is named, or when no
//!   subclass is. Too many candidates (over 64 classes, or more values than `MAX_VALS`) fall back
//!   to C alone. `super()` is also a call of `<builtin>.super`.
//!
//! - A Python lambda in a `def`'s header (a default value) belongs to the scope around the `def`
//!   (`main.<lambdaN>`, numbered there): `Def::parent` follows where code runs, while `scope_of`
//!   walks the lexical nesting.

mod calls;
mod classes;
mod containers;
mod emit;
mod field_inits;
mod fields;
mod handoffs;
mod imports;
mod index;
mod listeners;
mod mixins;
mod renderers;
mod scope;
mod summary;

pub(crate) use imports::normalize;

use classes::*;
use containers::*;
use index::*;
use scope::*;

pub(crate) use emit::{PARAM_ROUNDS, Round, with_round};
pub(crate) use index::init_dirs;
pub(crate) use summary::{Summary, same_interface, summarize};

use crate::deps::{
    Dep, DepKey, FileId, LazyPerFile, Ref, Table, merge, merge_imports_of, record, tag, tracked,
    tracked_merged,
};
use crate::extract::{CallSite, DefKind, FileFacts, ImportKind, Seg};
use crate::files::{Files, TrackedFiles};
use crate::lang::Lang;
use crate::model::{Edge, EdgeKind, Graph, Node, NodeKind, Unresolved};
use foldhash::{HashMap, HashMapExt, HashSet, HashSetExt};
use rayon::prelude::*;

/// One file's edges (all but CONTAINS), unresolved calls and builtin calls.
pub(crate) type FileEdges = (Vec<Edge>, Vec<Unresolved>, Vec<Unresolved>);

/// The outcome of the first pass for one call site.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(crate) enum Pass1 {
    Resolved(Vec<(Ref, bool)>),
    Unresolved,
    /// Unresolved, but a parameter was involved: the second pass tries again.
    Retry,
    /// Resolved, but a parameter was involved (`g = f if c else param`): its arguments may
    /// add targets, so the second pass resolves it again.
    Partial(Vec<(Ref, bool)>),
}

/// What may give a call the first pass left open (`Pass1::Retry`, `Pass1::Partial`) more
/// targets once parameters take arguments: the functions whose parameters (or `this`) its
/// evaluation read, as only their call sites give those values; `Always` when it also read
/// what parameter flow works out again whatever the call sites are (a default value, the
/// JSX table). A file's are kept beside its first pass, one per open call in order, not in
/// it: every build decodes the first pass of every file from the kept state, and most calls
/// are not open. A call none of whose functions has from 1 to [`MAX_SITES`] call sites resolves
/// as in the first pass, so later passes skip it: in a library most exported functions have
/// no caller inside it, and its helpers too many.
/// One file's first pass: each call's outcome, and a [`Redo`] for each call left open.
pub(crate) type FirstPass = (Vec<Pass1>, Vec<Redo>);

#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(crate) enum Redo {
    Always,
    One(Ref),
    Many(Box<[Ref]>),
}

impl Redo {
    /// The functions, unless `Always`.
    pub(crate) fn fns(&self) -> Option<&[Ref]> {
        match self {
            Redo::Always => None,
            Redo::One(f) => Some(std::slice::from_ref(f)),
            Redo::Many(fs) => Some(fs),
        }
    }
}

impl Pass1 {
    /// The targets found in the first pass.
    pub(crate) fn targets(&self) -> Option<&[(Ref, bool)]> {
        match self {
            Pass1::Resolved(t) | Pass1::Partial(t) => Some(t),
            Pass1::Unresolved | Pass1::Retry => None,
        }
    }
}
type DefId = u32;

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Val {
    Module(FileId),
    /// A Python package folder without `__init__.py`, by dotted name.
    Namespace(String),
    /// A Go package: the folder's path.
    GoPkg(String),
    Func(Ref),
    Class(Ref),
    Instance(Ref),
    /// `self`/`this` inside a method of this class: an instance of it or of a subclass.
    SelfOf(Ref),
    /// A method reached through an instance (or a class method through its class): the
    /// first parameter is already bound.
    Bound(Ref),
    /// `super()` inside this class.
    Super(Ref),
    /// A literal dict, list, tuple, set, object or array.
    Lit(FileId, LitId),
    /// `d.values` or `d.copy` of a literal, not called yet.
    LitMethod(FileId, LitId, View),
    /// What `d.values()` gives: iterating over it gives the literal's values.
    LitValues(FileId, LitId),
    /// What calling a generator function gives.
    Gen(Ref),
    /// The tuple a `*args` parameter (index) of the function collects.
    Args(Ref, u32),
    /// The dict a `**kwargs` parameter (index) of the function collects.
    Kwargs(Ref, u32),
    /// A TypeScript array (or set) declared of this class or interface (`Step[]`,
    /// `Array<Step>`): its elements are instances of it.
    Many(Ref),
    /// JavaScript: the collection field (name) of instances of the class holds, as filled by
    /// the class's methods (`this.items.push(v)`).
    FieldAdds(Ref, String),
    /// A method of such a collection, not called yet: calling it gives one of its values
    /// (`pop`, `get`, `find`: `true`) or a collection of them (`filter`, `values`: `false`).
    FieldOp(Ref, String, bool),
    /// The same for an array declared of a class (`Many`).
    ManyOp(Ref, bool),
}

/// Where a literal container was written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum LitId {
    /// The value of this assignment (whose target names it, so later `x[k] = v` and
    /// `x.append(v)` add to it).
    Assign(u32),
    /// An expression elsewhere: [`FileFacts::literals`].
    Expr(u32),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum View {
    Values,
    Copy,
    /// A JavaScript `Map`'s `get` on a collection held by `this`: calling it gives a value.
    Get,
}

#[derive(Debug, Clone, Copy)]
enum BindKind {
    Def(DefId),
    Import(u32),
    Assign(u32),
    /// Parameter `index` of function `def`.
    Param(DefId, u32),
    Unknown,
}

#[derive(Debug, Clone, Copy)]
struct Binding {
    line: u32,
    kind: BindKind,
    /// The innermost Python block holding the binding that may be skipped or left early
    /// (lines): a read outside it also sees the bindings before it.
    cond: Option<(u32, u32)>,
}

/// Per-file lookup tables.
struct FileIndex {
    /// (scope, name) → bindings in source order.
    bindings: HashMap<(Option<DefId>, String), Vec<Binding>>,
    /// Class → attribute → assignments `self.attr = ...` in its methods.
    inst_attrs: HashMap<(DefId, String), Vec<u32>>,
    /// JavaScript: class → field → calls that put values into the collection the field holds
    /// (`this.items.push(v)`, `this.byId.set(k, v)`; see `fields`).
    field_adds: HashMap<(DefId, String), Vec<u32>>,
    /// JavaScript: class without a written constructor → the calls in its instance field
    /// initialisers (see `field_inits`).
    field_inits: HashMap<DefId, Vec<u32>>,
    /// JavaScript: class → field → the methods it calls on the field's value handing itself
    /// over, with the position of `this` (see `handoffs`).
    field_handoffs: HashMap<(DefId, String), Vec<(String, u32)>>,
    /// JavaScript: class name → the calls `Object.assign(Name.prototype, A, B)` of the file,
    /// which copy the methods of `A` and `B` onto the class (see `mixins`).
    proto_mixins: HashMap<String, Vec<u32>>,
    /// JavaScript: first parameters of the file's top-level functions (a JSX factory's
    /// `type`; see `renderers`).
    first_params: HashSet<String>,
    /// (scope, name, key) → assignments `name[key] = ...`.
    elem_assigns: HashMap<(Option<DefId>, String, String), Vec<u32>>,
    /// (scope, name) → values put into `name` at places no literal key names: `name[k] = v`,
    /// `name.append(v)`, `name.add(v)`, `name.insert(i, v)` (scope and line of the change).
    elem_adds: HashMap<(Option<DefId>, String), Vec<Added>>,
    /// (scope, name) → every assignment `name[key] = ...`, whatever the key.
    elem_keyed: HashMap<(Option<DefId>, String), Vec<u32>>,
    /// Python attribute name → assignments `obj.attr = ...` whose object is not the `self` of a
    /// method (`Tool.run = helper`, `box.fn = f`): what `obj` is is worked out when read.
    outer_attrs: HashMap<String, Vec<u32>>,
    /// Scope → names declared global/nonlocal there.
    globals: HashSet<(Option<DefId>, String)>,
    stars: Vec<u32>,
    /// A JavaScript module that binds `exports` or some `exports.x` at its top level
    /// (CommonJS, TypeScript `export =`, an AMD factory's value): only these are looked up
    /// that way.
    cjs: bool,
    /// Function → its `return` and `yield` statements (indices into the file's returns, in
    /// source order): a function's returns are looked up for every call of it, and a bundle
    /// has thousands.
    returns: HashMap<DefId, Vec<u32>>,
    /// A JavaScript file with a function named by a property path (`App.util.pad = function`):
    /// only these look a dotted callee up under its whole path.
    dotted: bool,
    /// Module qualname (also the prefix of definition qualnames).
    qualname: String,
    def_prefix: String,
    is_init: bool,
}

/// Everything the resolver reads, shared by all threads.
///
/// Every read of a file's facts and every probe of a global table is noted (see
/// [`crate::deps`]), so that an incremental build can tell which results an edit can change.
pub(crate) struct Resolver<'a> {
    files: TrackedFiles<'a>,
    /// Each file's index, built on first use.
    idx: LazyPerFile<'a, FileIndex>,
    /// Python dotted module name → files.
    py_modules: Table<String, Vec<FileId>>,
    /// Path (relative, `/`) → file.
    by_path: Table<&'a str, FileId>,
    /// Folder → files in it.
    by_dir: Table<&'a str, Vec<FileId>>,
    /// Rust module path (`crate::a::b`) → files.
    rust_modules: Table<String, Vec<FileId>>,
    /// Language family → class name → classes (for languages whose classes are global).
    global_classes: Table<(u8, String), Vec<Ref>>,
    /// C and C++ top-level functions by name.
    global_funcs: Table<String, Vec<Ref>>,
    /// Java package / C# namespace → files.
    packages: Table<String, Vec<FileId>>,
    /// Node ids of definitions, per file, made on first use.
    def_ids: LazyPerFile<'a, Vec<String>>,
    /// Class → classes that name it as a base.
    subclasses: Table<Ref, Vec<Ref>>,
    /// Function → the call sites that reach it (file, call index, first parameter bound).
    callers: Table<Ref, Vec<(FileId, u32, bool)>>,
    /// Whether parameters take the values of the arguments at their call sites (second pass).
    param_flow: bool,
    mro_memo: MemoTable<Ref, Vec<Ref>>,
    /// JSX factory → its elements' components, per pass (see `renderers`).
    jsx_memo: MemoTable<bool, std::sync::Arc<HashMap<Ref, Vec<Val>>>>,
    parts_memo: MemoTable<Ref, Vec<Ref>>,
    /// Ruby methods defined at the top level of a file, by name.
    ruby_top: Table<String, Vec<Ref>>,
    /// Files each import brings in, per file and import, and what working them out read.
    import_targets: Vec<Option<ImportTargets>>,
    /// Dotted names that are packages (prefixes of module names).
    py_packages: Table<String, ()>,
    /// Python names written in a callee or an argument somewhere: a class whose name is in no
    /// call is never instantiated (nor reached as `cls`), which bounds dynamic dispatch.
    py_used: Table<String, ()>,
    /// Python names of `@property` getters and setters: an attribute of another name is never
    /// a call, so most attribute accesses cost one probe.
    py_props: Table<String, ()>,
    /// Python attribute name → assignments `mod.attr = v` (file, assignment index) whose
    /// `mod` is a name some import of the file binds: a possible value of `attr` in the
    /// module `mod` turns out to be, worked out when read.
    py_mod_attrs: Table<String, Vec<Ref>>,
    /// [`tag::JS_EVENTS`]: by `on <event>` / `fire <event>`, the calls (a [`Ref`] whose
    /// `def` is the call's index) registering or firing it.
    js_events: Table<String, Vec<Ref>>,
    /// Per file, the calls that decorate a definition (from the file's [`Summary`]).
    decorators: Vec<Vec<u32>>,
    /// Per file, the keys of the tables built from facts that the file adds entries to.
    contrib: Vec<Vec<Dep>>,
}

impl Summary {
    /// Whether `self` and `other` differ at most in the names the file's calls use
    /// ([`tag::PY_USED`]), the one part of a summary made from calls alone besides the
    /// decorators: a file that kept its interface ([`same_interface`]) and its decorator
    /// calls then changes the tables only under the names it started or stopped using.
    pub(crate) fn same_but_used_names(&self, other: &Summary) -> bool {
        let rest = |s: &Summary| {
            s.entries
                .iter()
                .filter(|e| e.0 != tag::PY_USED)
                .cloned()
                .collect::<Vec<_>>()
        };
        self.decorators == other.decorators && rest(self) == rest(other)
    }
}

/// The definition of an entry that names none (sets of names).
const NO_DEF: DefId = DefId::MAX;

/// Runs `f`, one resolution unit, with a memo of parameter values of its own.
fn unit<T>(f: impl FnOnce() -> T) -> T {
    PARAM_MEMO.with(|m| m.borrow_mut().clear());
    ATTR_MEMO.with(|m| m.borrow_mut().clear());
    let out = f();
    PARAM_MEMO.with(|m| m.borrow_mut().clear());
    ATTR_MEMO.with(|m| m.borrow_mut().clear());
    out
}

/// A memoized value and what computing it read.
type Memo<T> = (T, std::sync::Arc<[Dep]>);

/// Memoized values shared by the resolver's threads.
type MemoTable<K, T> = std::sync::RwLock<HashMap<K, Memo<T>>>;

/// One file's import targets (per import) and what working them out read.
pub(crate) type ImportTargets = (Vec<Vec<FileId>>, Vec<Dep>);

/// One file's classes and their direct bases, and what working them out read.
pub(crate) type FileBases = (Vec<(DefId, Vec<Ref>)>, Vec<Dep>);

/// How deep one evaluation may go (12: a JavaScript function reached through barrels of
/// barrels inside an argument takes that many steps).
const MAX_DEPTH: u32 = 12;

/// A memoized instance attribute: its name, values and what computing them read.
type AttrMemo = (String, Memo<Vec<Val>>);

/// A function's parameter, by position.
type ParamKey = (Ref, u32);

thread_local! {
    /// Set when an evaluation reads a parameter: only such calls can gain targets in the
    /// second pass.
    static PARAM_TOUCHED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// In the first pass, what the current call's evaluation read that parameter flow may
    /// answer differently ([`Redo`]): the functions, and whether anything else (`true`).
    static REDO: std::cell::RefCell<(Vec<Ref>, bool)> =
        const { std::cell::RefCell::new((Vec::new(), false)) };
    /// The parameters whose values this thread is computing, and those of them asked for
    /// again inside their own computation (a recursive call passing its parameter on): a
    /// value computed while such a question went unanswered is not memoized, so that the
    /// memo holds only what any thread would compute.
    static PARAMS_OPEN: std::cell::RefCell<(Vec<ParamKey>, Vec<ParamKey>)> =
        const { std::cell::RefCell::new((Vec::new(), Vec::new())) };
    /// The values of the parameters asked for in the current resolution unit (one file's
    /// pass): kept for the unit alone, so that a value cut short by the depth limit or the
    /// step budget in one unit is never what another unit reads. Shared between threads, the
    /// memo made the graph depend on which thread asked first.
    /// The values of the instance attributes read in the current resolution unit once
    /// parameters take arguments, by class, name and the depth they were asked at (a value
    /// asked for deeper is cut shorter), as [`PARAM_MEMO`]: every `this.x` read in a file's
    /// methods evaluates the assignments to `x` again otherwise.
    static ATTR_MEMO: std::cell::RefCell<HashMap<(Ref, u32), Vec<AttrMemo>>> =
        std::cell::RefCell::new(HashMap::default());
    static PARAM_MEMO: std::cell::RefCell<HashMap<ParamKey, Memo<Vec<Val>>>> =
        std::cell::RefCell::new(HashMap::default());
    /// Evaluation steps left for the current question (one call site, one class's bases):
    /// the depth limit bounds each chain, this bounds their number, so adversarial code
    /// cannot make resolution exponential. Running out means "unknown".
    static BUDGET: std::cell::Cell<u32> = const { std::cell::Cell::new(STEP_BUDGET) };
    /// Assignments whose right side is being evaluated: a name read there is the binding
    /// before it (`fn = g if c else fn`), never the assignment itself, even when the read sits
    /// in a literal or conditional expression evaluated at the assignment's own line.
    static IN_RHS: std::cell::RefCell<Vec<(FileId, u32)>> = const { std::cell::RefCell::new(Vec::new()) };
    /// Lines of call sites whose arguments are being evaluated for a parameter: an assignment
    /// on that line receives the call's result (`task = announce(task)`), so the argument is
    /// the binding before it.
    static ARGS_AT: std::cell::RefCell<Vec<(FileId, u32)>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Notes, in the first pass, that the evaluation read a parameter or `this` of function `f`
/// (`None`: something else parameter flow answers differently, [`Redo::Always`]).
fn note_redo(f: Option<Ref>) {
    REDO.with(|r| {
        let mut r = r.borrow_mut();
        match f {
            Some(f) => r.0.push(f),
            None => r.1 = true,
        }
    });
}

/// Runs `f` with assignments on line `line` of file `fi` hidden from name lookups.
fn hiding_line<T>(fi: FileId, line: u32, f: impl FnOnce() -> T) -> T {
    ARGS_AT.with(|s| s.borrow_mut().push((fi, line)));
    let out = f();
    ARGS_AT.with(|s| s.borrow_mut().pop());
    out
}

const STEP_BUDGET: u32 = 20_000;

/// Python standard-library functions that call the function they are given (see
/// `extract::callback_arg` for which argument).
const STDLIB_CALLBACKS: &[&str] = &[
    "functools.reduce",
    "itertools.takewhile",
    "itertools.dropwhile",
    "itertools.filterfalse",
    "itertools.starmap",
    "itertools.groupby",
    "itertools.accumulate",
];

fn reset_budget() {
    BUDGET.with(|b| b.set(STEP_BUDGET));
}

fn spend() -> bool {
    BUDGET.with(|b| {
        let left = b.get();
        if left == 0 {
            false
        } else {
            b.set(left - 1);
            true
        }
    })
}
const MAX_VALS: usize = 6;
/// A function with more call sites than this is a utility called from everywhere: its
/// parameters, `this` and packed arguments take no values from them.
const MAX_SITES: usize = 32;
const MAX_PARAM_VALS: usize = 16;

fn dedup(v: &mut Vec<Val>) {
    let mut seen = HashSet::new();
    v.retain(|x| seen.insert(x.clone()));
}

impl<'a> Resolver<'a> {
    /// Whether `vals` are more than `max` to follow. Anonymous functions written as arguments
    /// (no nodes: their calls are their scope's) are dropped first, so that the functions a
    /// value may be are kept as when anonymous ones were no values.
    fn too_many(&self, vals: &mut Vec<Val>, max: usize) -> bool {
        if vals.len() <= max {
            return false;
        }
        vals.retain(|v| !matches!(v, Val::Func(r) if self.def(*r).kind == DefKind::Scope));
        vals.len() > max
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn facts(src: &str) -> FileFacts {
        crate::extract::extract(Lang::Python, "m.py", src.as_bytes()).unwrap()
    }

    #[test]
    fn calls_added_or_lines_moved_keep_the_interface() {
        let base = "xs = []\n\ndef f():\n    pass\n\ndef check(x):\n    xs.append(x)\n    return bool(x)\n";
        // A call before the others: the indices of the calls after it move (`bool(x)` calls
        // `x.__bool__` through it), what other files see does not.
        let call = base.replace("    pass\n", "    print()\n");
        assert!(same_interface(&facts(base), &facts(&call)));
        // A line inside a function: every line below it moves, in order.
        let line = base.replace("    pass\n", "    pass\n    pass\n");
        assert!(same_interface(&facts(base), &facts(&line)));
        // What the index is built from, or a new definition, is what other files see.
        let appended = base.replace("xs.append(x)", "xs.append(f)");
        assert!(!same_interface(&facts(base), &facts(&appended)));
        let defined = format!("{base}\ndef g():\n    pass\n");
        assert!(!same_interface(&facts(base), &facts(&defined)));
    }
}
