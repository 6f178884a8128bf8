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

use crate::deps::{
    Dep, DepKey, FileId, LazyPerFile, Ref, Table, merge, record, tag, tracked, tracked_merged,
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

/// A value put into a container: the scope and line of the change, and the value.
type Added = (Option<DefId>, u32, Vec<Seg>);

/// Per-file lookup tables.
struct FileIndex {
    /// (scope, name) → bindings in source order.
    bindings: HashMap<(Option<DefId>, String), Vec<Binding>>,
    /// Class → attribute → assignments `self.attr = ...` in its methods.
    inst_attrs: HashMap<(DefId, String), Vec<u32>>,
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
    param_memo: MemoTable<(Ref, u32), Vec<Val>>,
    mro_memo: MemoTable<Ref, Vec<Ref>>,
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
    /// Per file, the calls that decorate a definition (from the file's [`Summary`]).
    decorators: Vec<Vec<u32>>,
    /// Per file, the keys of the tables built from facts that the file adds entries to.
    contrib: Vec<Vec<Dep>>,
}

/// What one file adds to the global tables built from its definitions and calls: entries
/// (table tag, key, definition or [`NO_DEF`]) and the calls that decorate a definition. Kept
/// in the resolution state, so that a re-init builds the tables without decoding the facts of
/// unchanged files. Made by [`summarize`], put into the tables by [`Resolver::add_entry`].
#[derive(serde::Serialize, serde::Deserialize, Default, Clone, Debug, PartialEq)]
pub(crate) struct Summary {
    entries: Vec<(u8, String, DefId)>,
    decorators: Vec<u32>,
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

/// One file's [`Summary`], from its facts.
pub(crate) fn summarize(f: &FileFacts) -> Summary {
    let mut entries = Vec::new();
    for (d, def) in f.defs.iter().enumerate() {
        let d = d as DefId;
        match def.kind {
            DefKind::Class => entries.push((tag::GLOBAL_CLASSES, def.name.clone(), d)),
            DefKind::Func if f.lang == Lang::Ruby && def.parent.is_none() => {
                entries.push((tag::RUBY_TOP, def.name.clone(), d));
            }
            DefKind::Func
                if matches!(f.lang, Lang::C | Lang::Cpp)
                    && def.parent.is_none()
                    && def.receiver.is_none() =>
            {
                entries.push((tag::GLOBAL_FUNCS, def.name.clone(), d));
            }
            _ => {}
        }
    }
    if f.lang == Lang::Python {
        let mut used: Vec<&str> = py_used_names(f).into_iter().collect();
        used.sort_unstable();
        entries.extend(
            used.into_iter()
                .map(|n| (tag::PY_USED, n.to_string(), NO_DEF)),
        );
        entries.extend(
            f.defs
                .iter()
                .filter(|d| prop_kind(d) != 0)
                .map(|d| (tag::PY_PROPS, d.name.clone(), NO_DEF)),
        );
        // `mod.attr = v` where `mod` is a name an import binds (in any scope): the entry's
        // "definition" is the assignment's index.
        let imported: HashSet<&str> = f
            .imports
            .iter()
            .filter_map(|imp| match &imp.kind {
                ImportKind::Module { alias: Some(a), .. } => Some(a.as_str()),
                ImportKind::Module { path, alias: None } => path.split('.').next(),
                ImportKind::From { name, alias, .. } => Some(alias.as_deref().unwrap_or(name)),
                ImportKind::Star { .. } => None,
            })
            .collect();
        for (i, a) in f.assigns.iter().enumerate() {
            if let [obj, attr] = a.target.as_slice()
                && !attr.starts_with('[')
                && imported.contains(obj.as_str())
            {
                entries.push((tag::PY_MOD_ATTRS, attr.clone(), i as DefId));
            }
        }
    }
    let decorators = f
        .calls
        .iter()
        .enumerate()
        .filter(|(_, c)| c.decorates.is_some())
        .map(|(ci, _)| ci as u32)
        .collect();
    Summary {
        entries,
        decorators,
    }
}

/// Adds `v` under `k`, noting that the file contributes to key `k` in `out`.
fn push_entry<K: std::hash::Hash + Eq + DepKey, V>(
    t: &mut Table<K, Vec<V>>,
    k: K,
    v: V,
    out: &mut Vec<Dep>,
) {
    out.push(t.dep_of(&k));
    t.map.entry(k).or_default().push(v);
}

/// Adds name `k` to a set of names, noting the contribution in `out`.
fn set_entry(t: &mut Table<String, ()>, k: &str, out: &mut Vec<Dep>) {
    let k = k.to_string();
    out.push(t.dep_of(&k));
    t.map.entry(k).or_insert(());
}

/// A memoized value and what computing it read.
type Memo<T> = (T, std::sync::Arc<[Dep]>);

/// Memoized values shared by the resolver's threads.
type MemoTable<K, T> = std::sync::RwLock<HashMap<K, Memo<T>>>;

/// One file's import targets (per import) and what working them out read.
pub(crate) type ImportTargets = (Vec<Vec<FileId>>, Vec<Dep>);

/// One file's classes and their direct bases, and what working them out read.
pub(crate) type FileBases = (Vec<(DefId, Vec<Ref>)>, Vec<Dep>);

const MAX_DEPTH: u32 = 10;

thread_local! {
    /// Set when an evaluation reads a parameter: only such calls can gain targets in the
    /// second pass.
    static PARAM_TOUCHED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
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
const MAX_PARAM_VALS: usize = 16;

fn family(l: Lang) -> u8 {
    match l {
        Lang::C | Lang::Cpp => 1,
        Lang::Java => 2,
        Lang::CSharp => 3,
        Lang::Ruby => 4,
        Lang::TypeScript | Lang::Tsx | Lang::JavaScript => 5,
        Lang::Go => 6,
        Lang::Rust => 7,
        Lang::Python => 8,
        Lang::Bash => 9,
    }
}

fn dir_of(path: &str) -> &str {
    path.rfind('/').map(|i| &path[..i]).unwrap_or("")
}

fn stem_path(path: &str) -> &str {
    let file_start = path.rfind('/').map(|i| i + 1).unwrap_or(0);
    match path[file_start..].rfind('.') {
        Some(i) if i > 0 => &path[..file_start + i],
        _ => path,
    }
}

/// The dotted module name of a Python file, and whether it is a package's `__init__`.
/// The dotted module names of a Python file: the name it has on its source root (the folder
/// above its topmost package, so `packages/a/src/pkg/m.py` is `pkg.m`, and a `src/` folder that
/// is not a package is a source root), then other names it can be imported by (its whole path).
/// Also whether it is a package's `__init__`.
fn python_names(path: &str, init_dirs: &HashSet<&str>) -> (String, bool, Vec<String>) {
    let stem = stem_path(path);
    let dir = dir_of(path);
    let (full, is_init) = dotted_module(stem);
    let no_src = stem.strip_prefix("src/").map(|p| dotted_module(p).0);
    let mut root = None;
    if !dir.is_empty() && init_dirs.contains(dir) {
        let mut top = dir;
        loop {
            let parent = dir_of(top);
            if parent.is_empty() || parent == top || !init_dirs.contains(parent) {
                break;
            }
            top = parent;
        }
        root = Some(dir_of(top));
    }
    let primary = match root {
        Some(r) if !r.is_empty() => dotted_module(&stem[r.len() + 1..]).0,
        Some(_) => full.clone(),
        None => no_src.clone().unwrap_or_else(|| full.clone()),
    };
    let mut aliases = Vec::new();
    for a in [Some(full), no_src].into_iter().flatten() {
        if a != primary && !aliases.contains(&a) {
            aliases.push(a);
        }
    }
    (primary, is_init, aliases)
}

fn dotted_module(p: &str) -> (String, bool) {
    let mut name = p.replace('/', ".");
    let is_init = name == "__init__" || name.ends_with(".__init__");
    if is_init {
        name.truncate(name.len().saturating_sub("__init__".len()));
        if name.ends_with('.') {
            name.pop();
        }
    }
    (name, is_init)
}

fn rust_module(path: &str) -> String {
    let p = match path.rfind("src/") {
        Some(i) => &path[i + 4..],
        None => path,
    };
    let p = stem_path(p);
    let mut parts: Vec<&str> = p.split('/').collect();
    if let Some(last) = parts.last()
        && matches!(*last, "lib" | "main" | "mod")
    {
        parts.pop();
    }
    let mut s = String::from("crate");
    for part in parts {
        if !part.is_empty() {
            s.push_str("::");
            s.push_str(part);
        }
    }
    s
}

impl<'a> Resolver<'a> {
    /// Resolves everything: the whole pipeline of a build without a previous state.
    pub(crate) fn new(files: &'a Files<'a>) -> Resolver<'a> {
        let summaries: Vec<Summary> = (0..files.len())
            .into_par_iter()
            .map(|fi| summarize(files.get(fi)))
            .collect();
        let mut r = Resolver::index(files, &summaries);
        let bases: Vec<FileBases> = (0..files.len() as FileId)
            .into_par_iter()
            .map(|fi| r.file_bases(fi))
            .collect();
        r.set_bases(&bases);
        let imports: Vec<ImportTargets> = (0..files.len() as FileId)
            .into_par_iter()
            .map(|fi| r.file_imports(fi))
            .collect();
        r.set_imports(imports);
        r
    }

    /// Builds the global tables from the files' paths and heads and their summaries (one per
    /// file, in file order); indexes files on first use; resolves nothing yet.
    pub(crate) fn index(files: &'a Files<'a>, summaries: &[Summary]) -> Resolver<'a> {
        let init_dirs = init_dirs(files);
        let dirs = init_dirs.clone();
        let mut r = Resolver {
            files: TrackedFiles(files),
            idx: LazyPerFile::new(files.len(), move |i| build_index(files.get(i), &dirs)),
            py_modules: Table::new(tag::PY_MODULES),
            by_path: Table::new(tag::BY_PATH),
            by_dir: Table::new(tag::BY_DIR),
            rust_modules: Table::new(tag::RUST_MODULES),
            global_classes: Table::new(tag::GLOBAL_CLASSES),
            global_funcs: Table::new(tag::GLOBAL_FUNCS),
            packages: Table::new(tag::PACKAGES),
            def_ids: LazyPerFile::new(files.len(), move |i| def_ids(files.get(i))),
            subclasses: Table::new(tag::SUBCLASSES),
            callers: Table::new(tag::CALLERS),
            param_flow: false,
            param_memo: std::sync::RwLock::new(HashMap::new()),
            import_targets: Vec::new(),
            ruby_top: Table::new(tag::RUBY_TOP),
            mro_memo: std::sync::RwLock::new(HashMap::new()),
            parts_memo: std::sync::RwLock::new(HashMap::new()),
            py_packages: Table::new(tag::PY_PACKAGES),
            py_used: Table::new(tag::PY_USED),
            py_props: Table::new(tag::PY_PROPS),
            py_mod_attrs: Table::new(tag::PY_MOD_ATTRS),
            decorators: Vec::with_capacity(files.len()),
            contrib: Vec::with_capacity(files.len()),
        };
        for (i, sm) in summaries.iter().enumerate().take(files.len()) {
            let mut out = Vec::new();
            let path = files.path(i);
            let lang = files.lang(i);
            let package = files.package(i);
            let i = i as FileId;
            out.push(r.by_path.dep_of(&path));
            r.by_path.map.insert(path, i);
            push_entry(&mut r.by_dir, dir_of(path), i, &mut out);
            match lang {
                Lang::Python => {
                    // The same file under its other names, for repos that import `src.pkg`.
                    let (q, _, aliases) = python_names(path, &init_dirs);
                    for name in std::iter::once(q).chain(aliases) {
                        // A package name exists while any module below it does.
                        let mut rest = name.as_str();
                        while let Some((head, _)) = rest.rsplit_once('.') {
                            out.push(head.dep(tag::PY_PACKAGES));
                            r.py_packages.map.entry(head.to_string()).or_insert(());
                            rest = head;
                        }
                        push_entry(&mut r.py_modules, name, i, &mut out);
                    }
                }
                Lang::Rust => push_entry(&mut r.rust_modules, rust_module(path), i, &mut out),
                Lang::Java | Lang::CSharp => {
                    if let Some(p) = package {
                        push_entry(&mut r.packages, p.to_string(), i, &mut out);
                    }
                }
                _ => {}
            }
            for e in &sm.entries {
                r.add_entry(i, lang, e, &mut out);
            }
            r.decorators.push(sm.decorators.clone());
            r.contrib.push(out);
        }
        r
    }

    /// Puts one entry of file `fi`'s [`Summary`] into its table, noting the key in `out`.
    /// A table built from facts is registered here and in [`summarize`].
    fn add_entry(&mut self, fi: FileId, lang: Lang, e: &(u8, String, DefId), out: &mut Vec<Dep>) {
        let (t, k, d) = e;
        let rf = Ref { file: fi, def: *d };
        match *t {
            tag::GLOBAL_CLASSES => {
                push_entry(&mut self.global_classes, (family(lang), k.clone()), rf, out)
            }
            tag::RUBY_TOP => push_entry(&mut self.ruby_top, k.clone(), rf, out),
            tag::GLOBAL_FUNCS => push_entry(&mut self.global_funcs, k.clone(), rf, out),
            tag::PY_USED => set_entry(&mut self.py_used, k, out),
            tag::PY_PROPS => set_entry(&mut self.py_props, k, out),
            tag::PY_MOD_ATTRS => push_entry(&mut self.py_mod_attrs, k.clone(), rf, out),
            _ => {}
        }
    }

    /// The table keys each file adds entries to, as stable hashes: what a change of the file
    /// can change for lookups made from other files.
    pub(crate) fn contributions(&self) -> Vec<Vec<u64>> {
        self.contrib.iter().map(|deps| self.stable(deps)).collect()
    }

    /// Dependencies in this run's numbering as hashes that mean the same in every run.
    pub(crate) fn stable(&self, deps: &[Dep]) -> Vec<u64> {
        let files = self.files.untracked();
        let mut out: Vec<u64> = deps
            .iter()
            .map(|d| match *d {
                Dep::File(f) => crate::deps::file_key(files.path(f as usize)),
                Dep::Body(f) => crate::deps::body_key(files.path(f as usize)),
                Dep::Key(h) => h,
                Dep::RefKey(t, r) => crate::deps::ref_key(t, files.path(r.file as usize), r.def),
                Dep::Stable(h) => h,
            })
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The direct bases of every class of file `fi`, and what working them out read.
    pub(crate) fn file_bases(&self, fi: FileId) -> FileBases {
        tracked(|| {
            self.files
                .untracked()
                .get(fi as usize)
                .defs
                .iter()
                .enumerate()
                .filter(|(_, d)| d.kind == DefKind::Class && d.merged_into.is_none())
                .map(|(d, _)| {
                    reset_budget();
                    let c = Ref {
                        file: fi,
                        def: d as DefId,
                    };
                    (d as DefId, self.bases(c, 0))
                })
                .collect()
        })
    }

    /// Fills the subclass table from the bases of every file (in file order).
    pub(crate) fn set_bases(&mut self, all: &[FileBases]) {
        for (fi, (classes, _)) in all.iter().enumerate() {
            for (d, bases) in classes {
                let c = Ref {
                    file: fi as FileId,
                    def: *d,
                };
                for b in bases {
                    self.subclasses.map.entry(*b).or_default().push(c);
                }
            }
        }
    }

    /// The files each import of file `fi` brings in, and what working them out read.
    pub(crate) fn file_imports(&self, fi: FileId) -> ImportTargets {
        tracked(|| {
            (0..self.files.untracked().get(fi as usize).imports.len())
                .map(|ii| {
                    reset_budget();
                    self.import_files_uncached(fi, ii as u32, 0)
                })
                .collect()
        })
    }

    /// Import targets do not change during resolution: they are worked out once.
    pub(crate) fn set_imports(&mut self, all: Vec<ImportTargets>) {
        self.import_targets = all.into_iter().map(Some).collect();
    }

    /// Call `ci` of file `f`: a read of the file's calls, not of what other files see of it.
    fn call_site(&self, f: FileId, ci: u32) -> Option<&CallSite> {
        record(Dep::Body(f));
        self.files
            .untracked()
            .get(f as usize)
            .calls
            .get(ci as usize)
    }

    fn def(&self, r: Ref) -> &crate::extract::Def {
        &self.files[r.file as usize].defs[r.def as usize]
    }

    fn lang(&self, f: FileId) -> Lang {
        record(Dep::File(f));
        self.files.untracked().lang(f as usize)
    }

    pub(crate) fn module_id(&self, f: FileId) -> String {
        record(Dep::File(f));
        self.files.untracked().path(f as usize).to_string()
    }

    fn node_id(&self, r: Ref) -> String {
        self.def_ids[r.file as usize][r.def as usize].clone()
    }

    /// The nodes of file `fi` and their CONTAINS edges: a function of the file alone.
    pub(crate) fn file_nodes(&self, fi: FileId) -> (Vec<Node>, Vec<Edge>) {
        let mut nodes = Vec::new();
        let mut edges = Vec::new();
        {
            let fi = fi as usize;
            let f = self.files.untracked().get(fi);
            let ix = self.idx.untracked(fi);
            let mid = self.module_id(fi as FileId);
            nodes.push(Node {
                id: mid.clone(),
                kind: NodeKind::Module,
                name: f.path.rsplit('/').next().unwrap_or(&f.path).to_string(),
                qualname: ix.qualname.clone(),
                file: f.path.clone(),
                lang: f.lang,
                start_line: 1,
                end_line: f.lines.max(1),
            });
            for (d, def) in f.defs.iter().enumerate() {
                if def.merged_into.is_some() || matches!(def.kind, DefKind::Impl | DefKind::Scope) {
                    continue;
                }
                let rf = Ref {
                    file: fi as FileId,
                    def: d as DefId,
                };
                let id = self.node_id(rf);
                nodes.push(Node {
                    id: id.clone(),
                    kind: if def.kind == DefKind::Class {
                        NodeKind::Class
                    } else {
                        NodeKind::Func
                    },
                    name: def.name.clone(),
                    qualname: self.qualname(rf),
                    file: f.path.clone(),
                    lang: f.lang,
                    start_line: def.start_line,
                    end_line: def.end_line,
                });
                let parent = match self.visible_parent(rf) {
                    Some(p) => self.node_id(Ref {
                        file: rf.file,
                        def: p,
                    }),
                    None => mid.clone(),
                };
                edges.push(Edge {
                    from: parent,
                    to: id,
                    kind: EdgeKind::Contains,
                });
            }
        }
        (nodes, edges)
    }

    fn visible_parent(&self, r: Ref) -> Option<DefId> {
        let defs = &self.files[r.file as usize].defs;
        let mut p = defs[r.def as usize].parent;
        while let Some(pi) = p {
            let pd = &defs[pi as usize];
            if let Some(m) = pd.merged_into {
                return Some(m);
            }
            if pd.kind != DefKind::Impl && pd.kind != DefKind::Scope {
                return Some(pi);
            }
            p = pd.parent;
        }
        None
    }

    fn qualname(&self, r: Ref) -> String {
        let f = &self.files[r.file as usize];
        let sep = f.lang.sep();
        fn part(d: &crate::extract::Def, lang: Lang) -> std::borrow::Cow<'_, str> {
            if d.lambda_no > 0 && lang == Lang::Python {
                format!("<lambda{}>", d.lambda_no).into()
            } else {
                d.name.as_str().into()
            }
        }
        let mut parts = vec![part(&f.defs[r.def as usize], f.lang)];
        let mut p = self.visible_parent(r);
        while let Some(pi) = p {
            parts.push(part(&f.defs[pi as usize], f.lang));
            p = self.visible_parent(Ref {
                file: r.file,
                def: pi,
            });
        }
        parts.reverse();
        let prefix = &self.idx[r.file as usize].def_prefix;
        let local = parts.join(sep);
        if prefix.is_empty() {
            local
        } else {
            format!("{prefix}{sep}{local}")
        }
    }

    /// All edges but CONTAINS, and the unresolved calls, for one file.
    fn file_edges(&self, fi: FileId, first: &[Pass1]) -> FileEdges {
        let f = &self.files[fi as usize];
        let mut edges = Vec::new();
        let mut unresolved = Vec::new();
        let mut builtin_calls = Vec::new();
        let mid = self.module_id(fi);
        // Imports.
        for (ii, _) in f.imports.iter().enumerate() {
            for target in self.import_files(fi, ii as u32, 0) {
                if target != fi {
                    edges.push(Edge {
                        from: mid.clone(),
                        to: self.module_id(target),
                        kind: EdgeKind::Import,
                    });
                }
            }
        }
        // Inheritance.
        for (d, def) in f.defs.iter().enumerate() {
            if def.kind != DefKind::Class || def.merged_into.is_some() {
                continue;
            }
            let rf = Ref {
                file: fi,
                def: d as DefId,
            };
            for base in self.bases(rf, 0) {
                edges.push(Edge {
                    from: self.node_id(rf),
                    to: self.node_id(base),
                    kind: EdgeKind::Inherits,
                });
            }
        }
        // Calls.
        for (ci, call) in f.calls.iter().enumerate() {
            let caller = self.caller_of(fi, call.scope);
            let targets = match first.get(ci) {
                Some(Pass1::Resolved(t)) => Some(t.clone()),
                Some(Pass1::Unresolved) => None,
                Some(Pass1::Partial(t)) => {
                    let mut all = t.clone();
                    for x in self.call_targets(fi, call).unwrap_or_default() {
                        if !all.contains(&x) {
                            all.push(x);
                        }
                    }
                    Some(all)
                }
                _ => self.call_targets(fi, call),
            };
            match targets {
                Some(ts) => {
                    for (t, _) in ts {
                        edges.push(Edge {
                            from: caller.clone(),
                            to: self.node_id(t),
                            kind: EdgeKind::Call,
                        });
                    }
                }
                // `raise KeyError` constructs a builtin exception without parentheses.
                None if call.maybe => {
                    if f.lang == Lang::Python
                        && !call.text.is_empty()
                        && self.calls_builtin(fi, call)
                    {
                        builtin_calls.push(Unresolved {
                            from: caller.clone(),
                            name: call.text.clone(),
                            line: call.line,
                            external: None,
                        });
                    }
                }
                None => {
                    let u = Unresolved {
                        from: caller.clone(),
                        name: call.text.clone(),
                        line: call.line,
                        external: self.external_name(fi, call),
                    };
                    if self.calls_builtin(fi, call) {
                        builtin_calls.push(u);
                    } else {
                        unresolved.push(u);
                    }
                }
            }
        }
        // Every edge and unresolved call starts in this file, so duplicates are local.
        let mut seen = HashSet::new();
        edges.retain(|e| seen.insert((e.from.clone(), e.to.clone(), e.kind)));
        let mut seen_u = HashSet::new();
        unresolved.retain(|u| seen_u.insert((u.from.clone(), u.name.clone())));
        let mut seen_b = HashSet::new();
        builtin_calls.retain(|u| seen_b.insert((u.from.clone(), u.name.clone())));
        (edges, unresolved, builtin_calls)
    }

    /// Whether an unresolved call names a builtin of the language that the file does not
    /// shadow: a binding of the name in any enclosing scope (a local function, an import, a
    /// parameter) means the call is to that, whatever it is.
    fn calls_builtin(&self, fi: FileId, call: &crate::extract::CallSite) -> bool {
        let Some(Seg::Name(head)) = call.callee.first() else {
            return false;
        };
        let lang = self.lang(fi);
        if !crate::builtins::is_builtin(lang, head, call.text.ends_with('!')) {
            return false;
        }
        let f = &self.files[fi as usize];
        let ix = &self.idx[fi as usize];
        let mut cur = call.scope;
        while let Some(d) = cur {
            if ix.bindings.contains_key(&(Some(d), head.clone())) {
                return false;
            }
            cur = f.defs[d as usize].parent;
        }
        !ix.bindings.contains_key(&(None, head.clone()))
    }

    /// Whether call `o` of file `fi` is the builtin or standard function that calls the
    /// function it is given (see `extract::callback_arg`): `map` not shadowed by a name of
    /// the file, `reduce` imported from `functools`, `.sort` of something no class of the
    /// repository provides.
    fn calls_back(&self, fi: FileId, o: u32) -> bool {
        let Some(outer) = self.call_site(fi, o) else {
            return false;
        };
        match outer.callee.as_slice() {
            // `map`, `sorted`, ... and the builtins that call special methods (`len`, `str`).
            [Seg::Name(_)] if self.calls_builtin(fi, outer) => true,
            [.., Seg::Name(n)] if n == "sort" && outer.callee.len() >= 2 => {
                self.call_targets(fi, outer).is_none()
            }
            _ => self
                .external_name(fi, outer)
                .is_some_and(|n| STDLIB_CALLBACKS.contains(&n.as_str())),
        }
    }

    /// The full dotted name of a call into a module outside the repository, through the import
    /// that binds the callee's first name (`np.linalg.norm()` → `numpy.linalg.norm`).
    fn external_name(&self, fi: FileId, call: &crate::extract::CallSite) -> Option<String> {
        if self.lang(fi) != Lang::Python {
            return None;
        }
        let names: Vec<&str> = call
            .callee
            .iter()
            .map(|s| match s {
                Seg::Name(n) => Some(n.as_str()),
                _ => None,
            })
            .collect::<Option<_>>()?;
        let (head, rest) = names.split_first()?;
        let f = &self.files[fi as usize];
        let ix = &self.idx[fi as usize];
        let key = |d: Option<DefId>| (d, head.to_string());
        let mut cur = call.scope;
        let mut found = None;
        while let Some(d) = cur {
            if ix.globals.contains(&key(Some(d))) {
                break;
            }
            if let Some(b) = ix.bindings.get(&key(Some(d))) {
                found = Some(b);
                break;
            }
            cur = f.defs[d as usize].parent;
        }
        let bs = found.or_else(|| ix.bindings.get(&key(None)))?;
        let b = bs
            .iter()
            .rev()
            .find(|b| b.line <= call.line)
            .or(bs.last())?;
        let BindKind::Import(i) = b.kind else {
            return None;
        };
        let base = match &f.imports[i as usize].kind {
            ImportKind::Module { path, alias } => {
                if !self.import_val(fi, i, 0).is_empty() {
                    return None;
                }
                match alias {
                    Some(_) => path.clone(),
                    None => head.to_string(),
                }
            }
            ImportKind::From {
                path,
                level: 0,
                name,
                ..
            } => {
                if !self.py_module_val(path, Some(fi)).is_empty() {
                    return None;
                }
                format!("{path}.{name}")
            }
            _ => return None,
        };
        let mut out = base;
        for r in rest {
            out.push('.');
            out.push_str(r);
        }
        Some(out)
    }

    /// The node that makes a call in this scope: the innermost function, else the module.
    fn caller_of(&self, fi: FileId, scope: Option<DefId>) -> String {
        let defs = &self.files[fi as usize].defs;
        let mut cur = scope;
        while let Some(d) = cur {
            if defs[d as usize].kind == DefKind::Func {
                return self.node_id(Ref { file: fi, def: d });
            }
            cur = defs[d as usize].parent;
        }
        self.module_id(fi)
    }

    /// `Some(targets)` when the call is understood (possibly with no edge, as for a class
    /// without a constructor), `None` when it stays unresolved.
    fn call_targets(
        &self,
        fi: FileId,
        call: &crate::extract::CallSite,
    ) -> Option<Vec<(Ref, bool)>> {
        if let Some(o) = call.via
            && !self.calls_back(fi, o)
        {
            return None;
        }
        reset_budget();
        if call.prop != 0 {
            return self.prop_targets(fi, call);
        }
        let segs = &call.callee;
        if segs.is_empty() {
            return None;
        }
        let lang = self.lang(fi);
        // Ruby `Foo.new` constructs.
        if lang == Lang::Ruby && segs.len() >= 2 && segs.last() == Some(&Seg::Name("new".into())) {
            let vals = self.eval(fi, call.scope, &segs[..segs.len() - 1], Some(call.line), 0);
            let classes: Vec<Ref> = vals
                .iter()
                .filter_map(|v| match v {
                    Val::Class(c) => Some(*c),
                    _ => None,
                })
                .collect();
            if classes.is_empty() {
                return None;
            }
            return Some(
                classes
                    .into_iter()
                    .filter_map(|c| self.constructor(c))
                    .map(|r| (r, true))
                    .collect(),
            );
        }
        let mut vals = self.eval(fi, call.scope, segs, Some(call.line), 0);
        if call.maybe {
            vals.retain(|v| matches!(v, Val::Func(_) | Val::Bound(_) | Val::Class(_)));
            // Python looks special methods up on the type of an instance: `C[k]` on a class
            // is not `C.__getitem__`.
            if lang == Lang::Python && is_implicit_dunder(call) {
                vals.retain(|v| matches!(v, Val::Bound(_)));
            }
        }
        if vals.is_empty() {
            return None;
        }
        let mut out = Vec::new();
        let mut understood = false;
        for v in vals {
            match v {
                Val::Func(r) => {
                    understood = true;
                    out.push((r, false));
                }
                Val::Bound(r) => {
                    understood = true;
                    out.push((r, true));
                }
                Val::Class(c) => {
                    understood = true;
                    // Python makes the object with `__new__` (when a class of the repository
                    // defines one) before `__init__` sets it up.
                    if lang == Lang::Python
                        && let Some(new) = self
                            .class_member(c, "__new__", 0, false)
                            .into_iter()
                            .find_map(|v| match v {
                                Val::Func(r) | Val::Bound(r) => Some(r),
                                _ => None,
                            })
                    {
                        out.push((new, true));
                    }
                    if let Some(ctor) = self.constructor(c) {
                        out.push((ctor, true));
                    }
                }
                // `super(...)` in a constructor: the nearest base constructor.
                // Python: the next `__init__` in the MRO of each class `self` can be.
                Val::Super(c) if lang == Lang::Python => {
                    understood = true;
                    for v in self.super_member(c, "__init__", 0) {
                        if let Val::Bound(r) | Val::Func(r) = v {
                            out.push((r, true));
                        }
                    }
                }
                Val::Super(c) => {
                    understood = true;
                    if let Some(ctor) = self
                        .mro(c, 0)
                        .into_iter()
                        .skip(1)
                        .find_map(|k| self.constructor(k))
                    {
                        out.push((ctor, true));
                    }
                }
                Val::Instance(c) | Val::SelfOf(c) if lang == Lang::Python => {
                    if let Some(r) = self
                        .class_member(c, "__call__", 0, false)
                        .into_iter()
                        .find_map(|v| match v {
                            Val::Func(r) | Val::Bound(r) => Some(r),
                            _ => None,
                        })
                    {
                        understood = true;
                        out.push((r, true));
                    }
                }
                _ => {}
            }
        }
        if !understood {
            return None;
        }
        out.sort_by_key(|(r, b)| (r.file, r.def, *b));
        out.dedup();
        Some(out)
    }

    /// The getter (or setter) an attribute access runs: the property of that name in the
    /// first class of the MRO of the object's class that defines the name.
    fn prop_targets(
        &self,
        fi: FileId,
        call: &crate::extract::CallSite,
    ) -> Option<Vec<(Ref, bool)>> {
        let (Seg::Name(p), obj) = call.callee.split_last()? else {
            return None;
        };
        if obj.is_empty() || !self.py_props.contains_key(p) {
            return None;
        }
        let mut out = Vec::new();
        for v in self.eval(fi, call.scope, obj, Some(call.line), 0) {
            let (Val::Instance(c) | Val::SelfOf(c)) = v else {
                continue;
            };
            for k in self.mro(c, 0) {
                let Some(bs) = self.idx[k.file as usize]
                    .bindings
                    .get(&(Some(k.def), p.clone()))
                else {
                    continue;
                };
                let defs = &self.files[k.file as usize].defs;
                for b in bs {
                    if let BindKind::Def(d) = b.kind
                        && prop_kind(&defs[d as usize]) == call.prop
                    {
                        out.push((
                            Ref {
                                file: k.file,
                                def: d,
                            },
                            true,
                        ));
                    }
                }
                break;
            }
        }
        if out.is_empty() {
            return None;
        }
        out.sort_by_key(|(r, b)| (r.file, r.def, *b));
        out.dedup();
        Some(out)
    }

    fn constructor(&self, c: Ref) -> Option<Ref> {
        let lang = self.lang(c.file);
        if let Some(name) = lang.constructor_name() {
            return self
                .class_member(c, name, 0, false)
                .into_iter()
                .find_map(|v| match v {
                    Val::Func(r) | Val::Bound(r) => Some(r),
                    _ => None,
                });
        }
        if lang.constructor_is_class_name() {
            let name = self.def(c).name.clone();
            // Constructors are not inherited: only the class's own.
            let (c, b) = self.class_parts(c).into_iter().find_map(|p| {
                let b = self.idx[p.file as usize]
                    .bindings
                    .get(&(Some(p.def), name.clone()))?;
                Some((p, b))
            })?;
            return b.iter().rev().find_map(|b| match b.kind {
                BindKind::Def(d)
                    if self.files[c.file as usize].defs[d as usize].kind == DefKind::Func =>
                {
                    Some(Ref {
                        file: c.file,
                        def: d,
                    })
                }
                _ => None,
            });
        }
        None
    }

    /// Evaluate a dotted expression in a scope.
    fn eval(
        &self,
        fi: FileId,
        scope: Option<DefId>,
        segs: &[Seg],
        line: Option<u32>,
        depth: u32,
    ) -> Vec<Val> {
        if depth > MAX_DEPTH || segs.is_empty() || !spend() {
            return Vec::new();
        }
        let mut vals = match &segs[0] {
            Seg::Name(n) => self.lookup(fi, scope, n, line, depth),
            Seg::Super => match self.enclosing_class(fi, scope) {
                Some(c) => vec![Val::Super(c)],
                None => Vec::new(),
            },
            Seg::Lit(i) => vec![Val::Lit(fi, LitId::Expr(*i))],
            Seg::Lambda(d) => vec![Val::Func(Ref { file: fi, def: *d })],
            Seg::Call | Seg::Index(_) | Seg::Iter | Seg::Get(_) | Seg::Pop(_) => Vec::new(),
        };
        for seg in &segs[1..] {
            if vals.is_empty() {
                break;
            }
            let mut next = Vec::new();
            for v in &vals {
                match seg {
                    Seg::Name(n) => next.extend(self.member(v, n, depth + 1)),
                    Seg::Call => next.extend(self.call_result(v, depth + 1)),
                    Seg::Index(k) => next.extend(self.element(v, k, depth + 1)),
                    Seg::Iter => next.extend(self.iterate(v, depth + 1)),
                    Seg::Get(k) => {
                        if matches!(v, Val::Lit(..)) {
                            next.extend(self.element(v, k, depth + 1));
                        } else {
                            for m in self.member(v, "get", depth + 1) {
                                next.extend(self.call_result(&m, depth + 1));
                            }
                        }
                    }
                    Seg::Pop(k) => {
                        if matches!(v, Val::Lit(..)) {
                            next.extend(self.element(v, k, depth + 1));
                        } else {
                            for m in self.member(v, "pop", depth + 1) {
                                next.extend(self.call_result(&m, depth + 1));
                            }
                        }
                    }
                    // `super(C, obj)`: after `C` in the MRO of what `obj` can be (C's used
                    // subclasses stand for it).
                    Seg::Super => {
                        if let Val::Class(c) = v
                            && self.lang(c.file) == Lang::Python
                        {
                            next.push(Val::Super(*c));
                        }
                    }
                    Seg::Lit(_) | Seg::Lambda(_) => {}
                }
            }
            dedup(&mut next);
            if next.len() > MAX_VALS {
                return Vec::new();
            }
            vals = next;
        }
        vals
    }

    fn enclosing_class(&self, fi: FileId, scope: Option<DefId>) -> Option<Ref> {
        let defs = &self.files[fi as usize].defs;
        let mut cur = scope;
        while let Some(d) = cur {
            let def = &defs[d as usize];
            if def.kind == DefKind::Class && !def.is_namespace {
                return Some(Ref { file: fi, def: d });
            }
            if let Some(m) = def.merged_into {
                return Some(Ref { file: fi, def: m });
            }
            cur = def.parent;
        }
        None
    }

    /// Look a bare name up from a scope.
    fn lookup(
        &self,
        fi: FileId,
        scope: Option<DefId>,
        name: &str,
        line: Option<u32>,
        depth: u32,
    ) -> Vec<Val> {
        let f = &self.files[fi as usize];
        let ix = &self.idx[fi as usize];
        let lang = f.lang;
        // The receiver keywords.
        match name {
            "this" | "self" if lang != Lang::Python => {
                if let Some(c) = self.enclosing_class(fi, scope) {
                    if lang == Lang::Ruby && self.in_class_method(fi, scope) {
                        return vec![Val::Class(c)];
                    }
                    return vec![Val::SelfOf(c)];
                }
                if name == "self" && lang == Lang::Rust {
                    return Vec::new();
                }
            }
            "Self" if lang == Lang::Rust => {
                if let Some(c) = self.enclosing_class(fi, scope) {
                    return vec![Val::Class(c)];
                }
            }
            "crate" if lang == Lang::Rust => {
                return self.rust_module_val("crate").into_iter().collect();
            }
            _ => {}
        }
        let mut cur = scope;
        let mut origin = true;
        while let Some(d) = cur {
            let def = &f.defs[d as usize];
            if ix.globals.contains(&(Some(d), name.to_string())) {
                cur = None;
                origin = false;
                break;
            }
            let is_class = def.kind == DefKind::Class || def.kind == DefKind::Impl;
            let class_visible = !is_class || origin || lang != Lang::Python;
            if class_visible {
                if def.kind == DefKind::Func
                    && matches!(lang, Lang::Python | Lang::Go)
                    && def.params.first().map(String::as_str) == Some(name)
                    && !def.is_static
                    && !def.is_lambda
                    && let Some(p) = def.parent
                    && f.defs[p as usize].kind == DefKind::Class
                {
                    let c = Ref { file: fi, def: p };
                    return if def.is_classmethod {
                        // `cls` is the class a class method is called on: any subclass used.
                        let ks = self.dispatch_classes(c);
                        if ks.len() > MAX_VALS {
                            vec![Val::Class(c)]
                        } else {
                            ks.into_iter().map(Val::Class).collect()
                        }
                    } else {
                        vec![Val::SelfOf(c)]
                    };
                }
                if let Some(bs) = ix.bindings.get(&(Some(d), name.to_string())) {
                    return self.eval_bindings(fi, bs, if origin { line } else { None }, depth);
                }
                if is_class && lang.implicit_this() && !origin {
                    let c = Ref {
                        file: fi,
                        def: def.merged_into.unwrap_or(d),
                    };
                    let v = self.class_member(c, name, depth + 1, true);
                    if !v.is_empty() {
                        return v;
                    }
                }
            }
            cur = def.parent;
            origin = false;
        }
        let _ = cur;
        // Module scope, and what other modules assign to this module's attribute.
        let foreign = self.assigned_from_outside(fi, name, depth);
        if let Some(bs) = ix.bindings.get(&(None, name.to_string())) {
            let mut out = self.eval_bindings(fi, bs, if origin { line } else { None }, depth);
            if !foreign.is_empty() {
                out.extend(foreign);
                dedup(&mut out);
            }
            return out;
        }
        if !foreign.is_empty() {
            return foreign;
        }
        self.lookup_outside(fi, name, depth)
    }

    fn in_class_method(&self, fi: FileId, scope: Option<DefId>) -> bool {
        let defs = &self.files[fi as usize].defs;
        let mut cur = scope;
        while let Some(d) = cur {
            let def = &defs[d as usize];
            if def.kind == DefKind::Func {
                return def.is_classmethod;
            }
            cur = def.parent;
        }
        true
    }

    /// Names not bound in the file: star imports and the language's global rules.
    fn lookup_outside(&self, fi: FileId, name: &str, depth: u32) -> Vec<Val> {
        let f = &self.files[fi as usize];
        let ix = &self.idx[fi as usize];
        for &si in &ix.stars {
            for target in self.import_files(fi, si, depth + 1) {
                if target == fi {
                    continue;
                }
                let v = self.module_member(target, name, depth + 1, true);
                if !v.is_empty() {
                    return v;
                }
            }
        }
        let lang = f.lang;
        if lang.package_is_folder() {
            if let Some(sibs) = self.by_dir.get(dir_of(&f.path)) {
                for &s in sibs {
                    if s != fi && self.lang(s) == lang {
                        let v = self.module_member(s, name, depth + 1, false);
                        if !v.is_empty() {
                            return v;
                        }
                    }
                }
            }
            return Vec::new();
        }
        if matches!(lang, Lang::Java | Lang::CSharp)
            && let Some(pkg) = &f.package
            && let Some(files) = self.packages.get(pkg)
        {
            let mut found = Vec::new();
            for &s in files {
                if s != fi {
                    found.extend(self.top_class(s, name));
                }
            }
            if found.len() == 1 {
                return found;
            }
        }
        // Languages with one global namespace for classes (or functions in C): a unique
        // definition is the one the linker or the runtime will use.
        if matches!(
            lang,
            Lang::Java | Lang::CSharp | Lang::Ruby | Lang::Cpp | Lang::C
        ) {
            if let Some(cands) = self.global_classes.get(&(family(lang), name.to_string()))
                && cands.len() == 1
            {
                return vec![Val::Class(cands[0])];
            }
            if matches!(lang, Lang::C | Lang::Cpp)
                && let Some(cands) = self.global_funcs.get(name)
                && cands.len() == 1
            {
                return vec![Val::Func(cands[0])];
            }
        }
        if lang == Lang::Ruby {
            // Top-level Ruby methods are private methods of Object: callable from anywhere
            // once loaded; take a unique one.
            return match self.ruby_top.get(name).map(Vec::as_slice) {
                Some([only]) if only.file != fi => vec![Val::Func(*only)],
                _ => Vec::new(),
            };
        }
        Vec::new()
    }

    fn top_class(&self, fi: FileId, name: &str) -> Vec<Val> {
        self.idx[fi as usize]
            .bindings
            .get(&(None, name.to_string()))
            .map(|bs| {
                bs.iter()
                    .filter_map(|b| match b.kind {
                        BindKind::Def(d)
                            if self.files[fi as usize].defs[d as usize].kind == DefKind::Class =>
                        {
                            Some(Val::Class(Ref { file: fi, def: d }))
                        }
                        _ => None,
                    })
                    .collect()
            })
            .unwrap_or_default()
    }

    fn eval_bindings(&self, fi: FileId, bs: &[Binding], line: Option<u32>, depth: u32) -> Vec<Val> {
        let hidden = |b: &Binding| {
            let BindKind::Assign(a) = b.kind else {
                return false;
            };
            IN_RHS.with(|s| s.borrow().contains(&(fi, a)))
                || ARGS_AT.with(|s| s.borrow().contains(&(fi, b.line)))
        };
        let busy = (IN_RHS.with(|s| !s.borrow().is_empty())
            || ARGS_AT.with(|s| !s.borrow().is_empty()))
            && bs.iter().any(hidden);
        let kept: Vec<Binding>;
        let bs = if busy {
            kept = bs.iter().filter(|b| !hidden(b)).copied().collect();
            &kept[..]
        } else {
            bs
        };
        let reaching = reaching_bindings(bs, line);
        if let [b] = reaching {
            return self.eval_binding(fi, *b, depth);
        }
        let mut out = Vec::new();
        for b in reaching {
            out.extend(self.eval_binding(fi, *b, depth));
        }
        dedup(&mut out);
        out
    }

    fn eval_binding(&self, fi: FileId, b: Binding, depth: u32) -> Vec<Val> {
        if depth > MAX_DEPTH {
            return Vec::new();
        }
        let f = &self.files[fi as usize];
        match b.kind {
            BindKind::Def(d) => {
                let r = Ref { file: fi, def: d };
                match f.defs[d as usize].kind {
                    DefKind::Class | DefKind::Impl => vec![Val::Class(r)],
                    DefKind::Func => self.decorated(r, depth + 1),
                    DefKind::Scope => Vec::new(),
                }
            }
            BindKind::Import(i) => self.import_val(fi, i, depth + 1),
            BindKind::Assign(idx) => {
                let a = &f.assigns[idx as usize];
                if let Some(t) = &a.type_name {
                    let vals = self.eval(fi, a.scope, t, Some(a.line), depth + 1);
                    let inst: Vec<Val> = vals
                        .into_iter()
                        .filter_map(|v| match v {
                            Val::Class(c) => Some(Val::Instance(c)),
                            _ => None,
                        })
                        .collect();
                    if !inst.is_empty() {
                        return inst;
                    }
                }
                if !a.elements.is_empty() || matches!(a.value.as_deref(), Some([Seg::Lit(_)])) {
                    return vec![Val::Lit(fi, LitId::Assign(idx))];
                }
                match &a.value {
                    // A value assigned on the line it is read from is the previous one.
                    Some(v) => {
                        IN_RHS.with(|s| s.borrow_mut().push((fi, idx)));
                        let out =
                            self.eval(fi, a.scope, v, Some(a.line.saturating_sub(1)), depth + 1);
                        IN_RHS.with(|s| s.borrow_mut().pop());
                        out
                    }
                    None => Vec::new(),
                }
            }
            BindKind::Param(d, i) => {
                // A declared type says what the parameter is.
                let def = &f.defs[d as usize];
                if let Some(Some(t)) = def.param_types.get(i as usize) {
                    let inst: Vec<Val> = self
                        .eval(fi, def.parent, t, None, depth + 1)
                        .into_iter()
                        .filter_map(|v| match v {
                            Val::Class(c) => Some(Val::Instance(c)),
                            _ => None,
                        })
                        .collect();
                    if !inst.is_empty() {
                        return inst;
                    }
                }
                PARAM_TOUCHED.with(|t| t.set(true));
                let r = Ref { file: fi, def: d };
                if def.star == Some(i) {
                    return vec![Val::Args(r, i)];
                }
                if def.kwstar == Some(i) {
                    return vec![Val::Kwargs(r, i)];
                }
                self.param_values(r, i, depth + 1)
            }
            BindKind::Unknown => Vec::new(),
        }
    }

    /// The values a parameter takes: the arguments at every call site that reaches the
    /// function (second pass only).
    fn param_values(&self, f: Ref, i: u32, depth: u32) -> Vec<Val> {
        if !self.param_flow || depth > MAX_DEPTH {
            return Vec::new();
        }
        if let Ok(m) = self.param_memo.read()
            && let Some((v, deps)) = m.get(&(f, i))
        {
            merge(deps);
            return v.clone();
        }
        let (out, deps) = tracked_merged(|| self.compute_param_values(f, i, depth));
        if let Ok(mut m) = self.param_memo.write() {
            m.insert((f, i), (out.clone(), deps.into()));
        }
        out
    }

    fn compute_param_values(&self, f: Ref, i: u32, depth: u32) -> Vec<Val> {
        let sites: &[(FileId, u32, bool)] = self.callers.get(&f).map_or(&[], Vec::as_slice);
        if sites.len() > 32 {
            return Vec::new();
        }
        let def = self.def(f);
        let Some(pname) = def.params.get(i as usize) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        // The default is a value unless every call site passes the argument.
        let mut defaulted = sites.is_empty();
        for &(cf, ci, bound) in sites {
            let Some(call) = self.call_site(cf, ci) else {
                continue;
            };
            if let Some(d) = call.decorates {
                // The first parameter after the bound one (a decorator class's `__init__`
                // binds `self`).
                if i == u32::from(bound) {
                    // A decorator receives what the decorators below it made of the function.
                    let target = Ref { file: cf, def: d };
                    let pos = self
                        .def(target)
                        .decorators
                        .iter()
                        .position(|s| *s == call.callee)
                        .unwrap_or(0);
                    out.extend(self.decorated_below(target, pos + 1, depth + 1));
                }
                continue;
            }
            let arg = match call.kwargs.iter().find(|(k, _)| k == pname) {
                Some((_, v)) => Some(v.as_ref()),
                None => {
                    let shift = u32::from(bound);
                    if i < shift {
                        // A function called as a method (assigned to a class): its first
                        // parameter is the receiver, `obj` of `obj.m(...)`.
                        if !self.def(f).parent.is_some_and(|p| {
                            self.files[f.file as usize].defs[p as usize].kind == DefKind::Class
                        }) && let [recv @ .., Seg::Name(_)] = call.callee.as_slice()
                            && !recv.is_empty()
                        {
                            out.extend(self.eval(cf, call.scope, recv, Some(call.line), depth + 1));
                        }
                        continue;
                    }
                    let pos = (i - shift) as usize;
                    call.args.get(pos).map(Option::as_ref)
                }
            };
            match arg {
                Some(Some(a)) => out.extend(hiding_line(cf, call.line, || {
                    self.eval(cf, call.scope, a, Some(call.line), depth + 1)
                })),
                Some(None) => {}
                None => {
                    defaulted |= !call.spread;
                    // `f(**opts)`: the item of `opts` named as the parameter, if it has one.
                    if let Some(d) = &call.kwsplat {
                        let key = format!("'{pname}");
                        // With several dicts (`**a, **b`), the default applies only when none
                        // has the key.
                        let mut found = Vec::new();
                        for v in self.eval(cf, call.scope, d, Some(call.line), depth + 1) {
                            found.extend(self.element(&v, &key, depth + 1));
                        }
                        defaulted |= found.is_empty();
                        out.extend(found);
                    }
                }
            }
        }
        if defaulted && let Some(Some(v)) = def.defaults.get(i as usize) {
            out.extend(self.eval(f.file, def.parent, v, Some(def.start_line), depth + 1));
        }
        dedup(&mut out);
        // Every call site adds its argument: a union wider than one value per site is normal.
        if out.len() > MAX_PARAM_VALS {
            out.clear();
        }
        out
    }

    /// The arguments a `*args` (`kw` false, from position `i` on) or a `**kwargs` parameter
    /// collects at the call sites of `f`: those at position `at` or under keyword `key`, or
    /// all of them.
    fn packed_args(&self, f: Ref, i: u32, kw: bool, key: Option<&str>, depth: u32) -> Vec<Val> {
        if !self.param_flow || depth > MAX_DEPTH {
            return Vec::new();
        }
        let sites: &[(FileId, u32, bool)] = self.callers.get(&f).map_or(&[], Vec::as_slice);
        if sites.len() > 32 {
            return Vec::new();
        }
        let params = &self.def(f).params;
        let mut out = Vec::new();
        for &(cf, ci, bound) in sites {
            let Some(call) = self.call_site(cf, ci) else {
                continue;
            };
            if call.decorates.is_some() {
                continue;
            }
            let args: Vec<&Option<Vec<Seg>>> = if kw {
                call.kwargs
                    .iter()
                    .filter(|(k, _)| {
                        !params.contains(k)
                            && key.is_none_or(|w| w.strip_prefix('\'').unwrap_or(w) == k)
                    })
                    .map(|(_, v)| v)
                    .collect()
            } else {
                let from = (i - u32::from(bound).min(i)) as usize;
                let rest = call.args.get(from..).unwrap_or(&[]);
                match key.and_then(|k| k.parse::<usize>().ok()) {
                    Some(k) => rest.get(k).into_iter().collect(),
                    None if key.is_some() => Vec::new(),
                    None => rest.iter().collect(),
                }
            };
            for a in args.into_iter().flatten() {
                out.extend(self.eval(cf, call.scope, a, Some(call.line), depth + 1));
            }
        }
        dedup(&mut out);
        if out.len() > MAX_PARAM_VALS {
            out.clear();
        }
        out
    }

    /// A function's value after its decorators: itself when they return it, the wrapper
    /// when a decorator defined here returns a nested function.
    fn decorated(&self, r: Ref, depth: u32) -> Vec<Val> {
        self.decorated_below(r, 0, depth)
    }

    /// The function's value after the decorators from position `from` inward (decorators are
    /// listed outermost first and applied innermost first).
    fn decorated_below(&self, r: Ref, from: usize, depth: u32) -> Vec<Val> {
        let def = self.def(r);
        let mut cur = Val::Func(r);
        for dec in def.decorators.iter().skip(from).rev() {
            let vals = self.eval(r.file, def.parent, dec, Some(def.start_line), depth + 1);
            // A class as decorator: the name is now an instance of it, made with the function
            // as the constructor's argument (calling it calls `__call__`).
            if let [Val::Class(k)] = vals.as_slice()
                && self.lang(k.file) == Lang::Python
            {
                cur = Val::Instance(*k);
                continue;
            }
            let [Val::Func(d)] = vals.as_slice() else {
                continue;
            };
            let dd = self.def(*d);
            let mut wrapper = None;
            for ret in &self.files[d.file as usize].returns {
                if ret.scope != Some(d.def) || ret.yields {
                    continue;
                }
                let Some(v) = &ret.value else { continue };
                if let [Seg::Name(n)] = v.as_slice()
                    && dd.params.first() == Some(n)
                {
                    continue;
                }
                let rv = self.eval(d.file, Some(d.def), v, None, depth + 1);
                // The decorator returns a function of its own (a wrapper defined inside it, or
                // another function): calls to the decorated name reach that one.
                if let [Val::Func(w)] = rv.as_slice()
                    && *w != r
                {
                    wrapper = Some(*w);
                }
            }
            if let Some(w) = wrapper {
                cur = Val::Func(w);
            }
        }
        vec![cur]
    }

    /// The elements of a literal as written, whether it is a dict, and for one assigned to a
    /// name, that name and its scope (where later changes to it are looked up).
    #[allow(clippy::type_complexity)]
    fn literal_parts(
        &self,
        f: FileId,
        id: LitId,
    ) -> (
        Option<DefId>,
        u32,
        bool,
        &[(String, Option<Vec<Seg>>)],
        Option<String>,
    ) {
        let facts = &self.files[f as usize];
        match id {
            LitId::Assign(a) => {
                let fa = &facts.assigns[a as usize];
                let name = (fa.target.len() == 1).then(|| fa.target[0].clone());
                if let Some([Seg::Lit(i)]) = fa.value.as_deref()
                    && let Some(l) = facts.literals.get(*i as usize)
                {
                    return (fa.scope, fa.line, l.dict, &l.elements, name);
                }
                (fa.scope, fa.line, false, &fa.elements, name)
            }
            LitId::Expr(i) => match facts.literals.get(i as usize) {
                Some(l) => (l.scope, l.line, l.dict, &l.elements, None),
                None => (None, 0, false, &[], None),
            },
        }
    }

    /// Values put into a named literal after it was made, at no literal key.
    fn literal_adds(&self, f: FileId, scope: Option<DefId>, name: &str, depth: u32) -> Vec<Val> {
        let mut out = Vec::new();
        if let Some(adds) = self.idx[f as usize]
            .elem_adds
            .get(&(scope, name.to_string()))
        {
            for (s, line, v) in adds {
                out.extend(self.eval(f, *s, v, Some(*line), depth + 1));
            }
        }
        out
    }

    /// `container[key]` for a literal container.
    fn element(&self, v: &Val, key: &str, depth: u32) -> Vec<Val> {
        // A key known only at run time: any value the container holds.
        if key == "*" {
            return match v {
                Val::Args(r, i) => self.packed_args(*r, *i, false, None, depth + 1),
                Val::Kwargs(r, i) => self.packed_args(*r, *i, true, None, depth + 1),
                Val::Lit(f, id) => self.literal_values(*f, *id, depth + 1),
                _ => Vec::new(),
            };
        }
        // `xs[lo:hi]` (constant bounds): the elements at those positions of a sequence written
        // in place and never added to; any element otherwise.
        if let Some((lo, hi)) = key.split_once(':') {
            let bound = |s: &str, missing: usize| {
                if s.is_empty() {
                    Ok(missing)
                } else {
                    s.parse::<usize>()
                }
            };
            let (Ok(lo), Ok(hi)) = (bound(lo, 0), bound(hi, usize::MAX)) else {
                return self.element(v, "*", depth + 1);
            };
            let Val::Lit(f, id) = v else {
                return self.element(v, "*", depth + 1);
            };
            let (scope, line, dict, elements, name) = self.literal_parts(*f, *id);
            let added = name.as_ref().is_some_and(|n| {
                let ix = &self.idx[*f as usize];
                ix.elem_adds.contains_key(&(scope, n.clone()))
                    || ix.elem_keyed.contains_key(&(scope, n.clone()))
            });
            if dict || added || elements.iter().any(|(k, _)| k.parse::<usize>().is_err()) {
                return self.element(v, "*", depth + 1);
            }
            let mut out = Vec::new();
            for (k, e) in elements {
                if let (Ok(i), Some(segs)) = (k.parse::<usize>(), e)
                    && lo <= i
                    && i < hi
                {
                    out.extend(self.eval(*f, scope, segs, Some(line), depth + 1));
                }
            }
            dedup(&mut out);
            return out;
        }
        // `xs[-1]` of a sequence written in place and never added to: counted from its end.
        if let Some(back) = key.strip_prefix('-').and_then(|k| k.parse::<usize>().ok())
            && let Val::Lit(f, id) = v
        {
            let (scope, _, dict, elements, name) = self.literal_parts(*f, *id);
            let added = name.as_ref().is_some_and(|n| {
                let ix = &self.idx[*f as usize];
                ix.elem_adds.contains_key(&(scope, n.clone()))
                    || ix.elem_keyed.contains_key(&(scope, n.clone()))
            });
            if dict {
                return Vec::new();
            }
            if added || elements.iter().any(|(k, _)| k == "*") || back == 0 {
                return self.literal_values(*f, *id, depth + 1);
            }
            // Elements that are no dotted expression were dropped: the length is the highest
            // position kept, unless the last ones were dropped (then the answer is unknown,
            // and every kept value stays possible).
            let len = elements
                .iter()
                .filter_map(|(k, _)| k.parse::<usize>().ok())
                .max()
                .map_or(0, |m| m + 1);
            return match len.checked_sub(back) {
                Some(i) => self.element(v, &i.to_string(), depth + 1),
                None => Vec::new(),
            };
        }
        match v {
            Val::Args(r, i) => return self.packed_args(*r, *i, false, Some(key), depth + 1),
            Val::Kwargs(r, i) => return self.packed_args(*r, *i, true, Some(key), depth + 1),
            _ => {}
        }
        let Val::Lit(f, id) = v else {
            return Vec::new();
        };
        let (f, id) = (*f, *id);
        let (scope, line, _, elements, name) = self.literal_parts(f, id);
        let ix = &self.idx[f as usize];
        if let Some(name) = &name
            && let Some(sets) = ix.elem_assigns.get(&(scope, name.clone(), key.to_string()))
            && let Some(&last) = sets.last()
        {
            let set = &self.files[f as usize].assigns[last as usize];
            return match &set.value {
                Some(v) => self.eval(f, set.scope, v, Some(set.line), depth + 1),
                None => Vec::new(),
            };
        }
        if let Some((_, e)) = elements.iter().find(|(k, _)| k == key) {
            return match e {
                Some(segs) => self.eval(f, scope, segs, Some(line), depth + 1),
                None => Vec::new(),
            };
        }
        // No element under that key as written: it is one of those put in at keys or
        // positions not known statically.
        let mut out = Vec::new();
        for (k, e) in elements {
            let Some(segs) = e else { continue };
            if k == "*" {
                out.extend(self.eval(f, scope, segs, Some(line), depth + 1));
            } else if k == "**" {
                // `{**base, ...}`: the key may come from `base`.
                for merged in self.eval(f, scope, segs, Some(line), depth + 1) {
                    out.extend(self.element(&merged, key, depth + 1));
                }
            }
        }
        if let Some(name) = &name {
            out.extend(self.literal_adds(f, scope, name, depth));
        }
        dedup(&mut out);
        out
    }

    /// Every value a literal holds: as written, set by key, or added later.
    fn literal_values(&self, f: FileId, id: LitId, depth: u32) -> Vec<Val> {
        let (scope, line, _, elements, name) = self.literal_parts(f, id);
        let mut out = Vec::new();
        for (k, e) in elements {
            let Some(segs) = e else { continue };
            let vals = self.eval(f, scope, segs, Some(line), depth + 1);
            if k == "**" {
                for merged in vals {
                    out.extend(self.element(&merged, "*", depth + 1));
                }
            } else {
                out.extend(vals);
            }
        }
        if let Some(name) = &name {
            let facts = &self.files[f as usize];
            let keyed = self.idx[f as usize]
                .elem_keyed
                .get(&(scope, name.clone()))
                .map_or(&[][..], Vec::as_slice);
            for &a in keyed {
                let set = &facts.assigns[a as usize];
                if let Some(v) = &set.value {
                    out.extend(self.eval(f, set.scope, v, Some(set.line), depth + 1));
                }
            }
            out.extend(self.literal_adds(f, scope, name, depth));
        }
        dedup(&mut out);
        out
    }

    /// The values a loop over `v` binds: what a generator yields, a literal's elements.
    fn iterate(&self, v: &Val, depth: u32) -> Vec<Val> {
        if depth > MAX_DEPTH {
            return Vec::new();
        }
        let mut out = Vec::new();
        match v {
            Val::Gen(r) => {
                for ret in &self.files[r.file as usize].returns {
                    if ret.yields
                        && ret.scope == Some(r.def)
                        && let Some(val) = &ret.value
                    {
                        out.extend(self.eval(r.file, Some(r.def), val, None, depth + 1));
                    }
                }
            }
            // Iterating over a dict gives its keys, not what they map to.
            Val::Lit(f, id) if !self.literal_parts(*f, *id).2 => {
                out = self.literal_values(*f, *id, depth);
            }
            Val::LitValues(f, id) => out = self.literal_values(*f, *id, depth),
            Val::Args(r, i) => out = self.packed_args(*r, *i, false, None, depth + 1),
            // An iterable class: what its `__iter__` gives (a generator, or an iterator whose
            // `__next__` returns the values).
            Val::Instance(c) | Val::SelfOf(c) if self.lang(c.file) == Lang::Python => {
                for m in self.bind_methods(self.class_member(*c, "__iter__", depth, false), false) {
                    for it in self.call_result(&m, depth + 1) {
                        match &it {
                            Val::Gen(_) => out.extend(self.iterate(&it, depth + 1)),
                            Val::Instance(k) | Val::SelfOf(k) => {
                                let next = self.class_member(*k, "__next__", depth, false);
                                for n in self.bind_methods(next, false) {
                                    out.extend(self.call_result(&n, depth + 1));
                                }
                            }
                            _ => {}
                        }
                    }
                }
            }
            _ => {}
        }
        dedup(&mut out);
        out
    }

    fn call_result(&self, v: &Val, depth: u32) -> Vec<Val> {
        if depth > MAX_DEPTH {
            return Vec::new();
        }
        match v {
            Val::Class(c) => vec![Val::Instance(*c)],
            Val::LitMethod(f, id, View::Values) => vec![Val::LitValues(*f, *id)],
            Val::LitMethod(f, id, View::Copy) => vec![Val::Lit(*f, *id)],
            Val::Func(r) | Val::Bound(r) => {
                let rets = &self.files[r.file as usize].returns;
                if rets.iter().any(|x| x.yields && x.scope == Some(r.def)) {
                    return vec![Val::Gen(*r)];
                }
                let mut out = Vec::new();
                for ret in rets {
                    if ret.scope == Some(r.def)
                        && let Some(val) = &ret.value
                    {
                        out.extend(self.eval(r.file, Some(r.def), val, None, depth + 1));
                    }
                }
                if out.is_empty()
                    && let Some(t) = &self.def(*r).return_type
                {
                    // No return value we can follow: the declared type says what it is.
                    out = self
                        .eval(r.file, Some(r.def), t, None, depth + 1)
                        .into_iter()
                        .filter_map(|v| match v {
                            Val::Class(c) => Some(Val::Instance(c)),
                            _ => None,
                        })
                        .collect();
                }
                dedup(&mut out);
                out
            }
            _ => Vec::new(),
        }
    }

    fn member(&self, v: &Val, name: &str, depth: u32) -> Vec<Val> {
        if depth > MAX_DEPTH {
            return Vec::new();
        }
        // `x.__class__` (and `type(x)`): the class of an instance; for `self`, its class or
        // any used subclass.
        if name == "__class__" {
            match v {
                Val::Instance(c) if self.lang(c.file) == Lang::Python => {
                    return vec![Val::Class(*c)];
                }
                Val::SelfOf(c) if self.lang(c.file) == Lang::Python => {
                    let ks = self.dispatch_classes(*c);
                    return if ks.len() > MAX_VALS {
                        vec![Val::Class(*c)]
                    } else {
                        ks.into_iter().map(Val::Class).collect()
                    };
                }
                _ => {}
            }
        }
        match v {
            Val::Module(m) => {
                let mut out = self.module_member(*m, name, depth, true);
                if out.is_empty() && self.lang(*m) == Lang::Python {
                    let q = format!("{}.{}", self.idx[*m as usize].qualname, name);
                    out.extend(self.py_module_val(&q, Some(*m)));
                }
                if out.is_empty() && self.lang(*m) == Lang::Rust {
                    let q = format!("{}::{}", rust_module(&self.files[*m as usize].path), name);
                    out.extend(self.rust_module_val(&q));
                }
                out
            }
            Val::Namespace(p) => self.py_module_val(&format!("{p}.{name}"), None),
            Val::GoPkg(dir) => {
                let mut out = Vec::new();
                if let Some(files) = self.by_dir.get(dir.as_str()) {
                    for &f in files {
                        if self.lang(f) == Lang::Go {
                            out.extend(self.module_member(f, name, depth, false));
                        }
                    }
                }
                out
            }
            Val::Class(c) => {
                if name == "new" && self.lang(c.file) == Lang::Ruby {
                    // `Foo.new(...)` makes an instance, as calling a class does elsewhere.
                    return vec![Val::Class(*c)];
                }
                let v = self.class_member(*c, name, depth, false);
                if v.is_empty() {
                    return self.outer_attr(*c, name, false, depth);
                }
                self.bind_methods(v, true)
            }
            // `self` in a Python method: an instance of the class or of any subclass that is
            // used, each with its own overrides.
            Val::SelfOf(c) if self.lang(c.file) == Lang::Python => {
                let ks = self.dispatch_classes(*c);
                if ks == [*c] {
                    return self.instance_member(v, *c, name, depth);
                }
                let mut out = Vec::new();
                for k in ks {
                    out.extend(self.instance_member(&Val::SelfOf(k), k, name, depth));
                }
                dedup(&mut out);
                if out.len() > MAX_VALS {
                    // Too many to follow: the class's own, as before subclasses are known.
                    return self.instance_member(v, *c, name, depth);
                }
                out
            }
            Val::Instance(c) | Val::SelfOf(c) => self.instance_member(v, *c, name, depth),
            Val::Super(c) => self.super_member(*c, name, depth),
            // A JavaScript object literal's properties are its elements.
            Val::Lit(f, _) if self.lang(*f).is_js_family() => self.element(v, name, depth + 1),
            // `f.call(x)` on a Ruby lambda runs it with the same arguments.
            Val::Func(r)
                if name == "call" && self.lang(r.file) == Lang::Ruby && self.def(*r).is_lambda =>
            {
                vec![v.clone()]
            }
            Val::Lit(f, id) if self.lang(*f) == Lang::Python => match name {
                "values" => vec![Val::LitMethod(*f, *id, View::Values)],
                "copy" => vec![Val::LitMethod(*f, *id, View::Copy)],
                _ => Vec::new(),
            },
            Val::Func(_)
            | Val::Bound(_)
            | Val::Lit(..)
            | Val::LitMethod(..)
            | Val::LitValues(..)
            | Val::Args(..)
            | Val::Kwargs(..)
            | Val::Gen(_) => Vec::new(),
        }
    }

    /// A member read through an instance of `c` (`v` is `Instance(c)` or `SelfOf(c)`).
    fn instance_member(&self, v: &Val, c: Ref, name: &str, depth: u32) -> Vec<Val> {
        let mut out = self.bind_methods(self.class_member(c, name, depth, false), false);
        if out.is_empty() {
            out = self.instance_attr(c, name, depth);
        }
        if out.is_empty() {
            out = self.outer_attr(c, name, true, depth);
        }
        if out.is_empty() && matches!(v, Val::SelfOf(_)) && !self.declares(c, name, depth) {
            // Not defined by the class or its bases: `self` is then an instance of a
            // subclass that defines it.
            let mut seen = HashSet::new();
            let mut stack: Vec<Ref> = self.subclasses.get(&c).cloned().unwrap_or_default();
            while let Some(s) = stack.pop() {
                if !seen.insert(s) || seen.len() > 64 {
                    continue;
                }
                let mut v = self.bind_methods(self.own_member(s, name, depth), false);
                if v.is_empty() {
                    v = self.own_instance_attr(s, name, depth);
                }
                if v.is_empty() {
                    stack.extend(self.subclasses.get(&s).cloned().unwrap_or_default());
                }
                out.extend(v);
            }
            dedup(&mut out);
        }
        out
    }

    /// An attribute set from outside the class, in the class's file: `Tool.run = helper` (a
    /// method of the class from then on: bound when read through an instance) or, read through
    /// an instance, `box.fn = f` on an instance of it.
    fn outer_attr(&self, c: Ref, name: &str, instance: bool, depth: u32) -> Vec<Val> {
        if self.lang(c.file) != Lang::Python || depth > MAX_DEPTH {
            return Vec::new();
        }
        let Some(sets) = self.idx[c.file as usize].outer_attrs.get(name) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for &a in sets {
            let fa = &self.files[c.file as usize].assigns[a as usize];
            let (Some(obj), Some(value)) = (fa.target.first(), &fa.value) else {
                continue;
            };
            let objs = self.eval(
                c.file,
                fa.scope,
                &[Seg::Name(obj.clone())],
                Some(fa.line),
                depth + 1,
            );
            let on_class = objs.contains(&Val::Class(c));
            let on_instance = instance
                && objs
                    .iter()
                    .any(|o| matches!(o, Val::Instance(k) | Val::SelfOf(k) if *k == c));
            if !on_class && !on_instance {
                continue;
            }
            let vals = self.eval(c.file, fa.scope, value, Some(fa.line), depth + 1);
            out.extend(vals.into_iter().map(|v| match v {
                Val::Func(r) if on_class && instance && !self.def(r).is_lambda => Val::Bound(r),
                v => v,
            }));
        }
        dedup(&mut out);
        out
    }

    /// The values other code gives a Python module's top-level name with `mod.attr = v`
    /// (`import helpers; helpers.handler = f`): each assignment of the `py_mod_attrs` table
    /// under `name` whose object is module `m`. When it runs is not known, so these add to the
    /// module's own bindings rather than replace them.
    fn assigned_from_outside(&self, m: FileId, name: &str, depth: u32) -> Vec<Val> {
        if depth > MAX_DEPTH || self.lang(m) != Lang::Python {
            return Vec::new();
        }
        let Some(sets) = self.py_mod_attrs.get(name) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for &Ref { file: af, def: ai } in sets {
            // Its own right side (`helpers.f = wrap(helpers.f)`) sees the values before it.
            if IN_RHS.with(|s| s.borrow().contains(&(af, ai))) {
                continue;
            }
            let fa = &self.files[af as usize].assigns[ai as usize];
            let Some(obj) = fa.target.first() else {
                continue;
            };
            let objs = self.eval(
                af,
                fa.scope,
                &[Seg::Name(obj.clone())],
                Some(fa.line),
                depth + 1,
            );
            if !objs.contains(&Val::Module(m)) {
                continue;
            }
            let b = Binding {
                line: fa.line,
                kind: BindKind::Assign(ai),
                cond: None,
            };
            out.extend(self.eval_binding(af, b, depth + 1));
        }
        dedup(&mut out);
        out
    }

    /// A top-level name of a module, as another module sees it.
    fn module_member(&self, m: FileId, name: &str, depth: u32, with_stars: bool) -> Vec<Val> {
        let f = &self.files[m as usize];
        if name == "default"
            && f.lang.is_js_family()
            && let Some(d) = &f.default_export
        {
            return self.module_member(m, &d.clone(), depth + 1, with_stars);
        }
        let foreign = self.assigned_from_outside(m, name, depth + 1);
        if let Some(bs) = self.idx[m as usize].bindings.get(&(None, name.to_string())) {
            let mut out = self.eval_bindings(m, bs, None, depth + 1);
            if !foreign.is_empty() {
                out.extend(foreign);
                dedup(&mut out);
            }
            return out;
        }
        if !foreign.is_empty() {
            return foreign;
        }
        if with_stars && depth < MAX_DEPTH {
            for &si in &self.idx[m as usize].stars {
                for target in self.import_files(m, si, depth + 1) {
                    if target != m {
                        let v = self.module_member(target, name, depth + 2, true);
                        if !v.is_empty() {
                            return v;
                        }
                    }
                }
            }
        }
        Vec::new()
    }

    fn own_member(&self, c: Ref, name: &str, depth: u32) -> Vec<Val> {
        for part in self.class_parts(c) {
            if let Some(bs) = self.idx[part.file as usize]
                .bindings
                .get(&(Some(part.def), name.to_string()))
            {
                return self.eval_bindings(part.file, bs, None, depth + 1);
            }
        }
        Vec::new()
    }

    /// A class defined in pieces: Go methods in other files of the package, C++ methods
    /// defined outside the class (`Foo::bar` in a `.cpp`), Rust `impl` blocks in other files.
    fn class_parts(&self, c: Ref) -> Vec<Ref> {
        if !matches!(
            self.lang(c.file),
            Lang::Go | Lang::Cpp | Lang::C | Lang::Rust | Lang::CSharp
        ) {
            return vec![c];
        }
        if let Ok(m) = self.parts_memo.read()
            && let Some((v, deps)) = m.get(&c)
        {
            merge(deps);
            return v.clone();
        }
        let (v, deps) = tracked_merged(|| self.compute_class_parts(c));
        if let Ok(mut m) = self.parts_memo.write() {
            m.insert(c, (v.clone(), deps.into()));
        }
        v
    }

    fn compute_class_parts(&self, c: Ref) -> Vec<Ref> {
        let f = &self.files[c.file as usize];
        let mut parts = vec![c];
        let def = &f.defs[c.def as usize];
        match f.lang {
            Lang::Go => {
                let dir = dir_of(&f.path);
                if let Some(cands) = self.global_classes.get(&(family(f.lang), def.name.clone())) {
                    parts.extend(
                        cands.iter().copied().filter(|k| {
                            *k != c && dir_of(&self.files[k.file as usize].path) == dir
                        }),
                    );
                }
            }
            Lang::Cpp | Lang::C | Lang::Rust | Lang::CSharp => {
                if let Some(cands) = self.global_classes.get(&(family(f.lang), def.name.clone()))
                    && cands.len() <= 4
                {
                    let q = self.qualname(c);
                    parts.extend(
                        cands
                            .iter()
                            .copied()
                            .filter(|k| *k != c && self.qualname(*k) == q),
                    );
                }
            }
            _ => {}
        }
        parts
    }

    fn class_member(&self, c: Ref, name: &str, depth: u32, _implicit: bool) -> Vec<Val> {
        for k in self.mro(c, depth) {
            let v = self.own_member(k, name, depth);
            if !v.is_empty() {
                return v;
            }
        }
        Vec::new()
    }

    /// Whether the class or one of its bases binds `name` (a method, a class attribute, a field,
    /// an instance attribute), whatever its value: then it is not a subclass's to provide.
    fn declares(&self, c: Ref, name: &str, depth: u32) -> bool {
        self.mro(c, depth).into_iter().any(|k| {
            self.class_parts(k).into_iter().any(|p| {
                let ix = &self.idx[p.file as usize];
                ix.bindings.contains_key(&(Some(p.def), name.to_string()))
                    || ix.inst_attrs.contains_key(&(p.def, name.to_string()))
            })
        })
    }

    /// Methods read through an instance get their first parameter bound; through the class,
    /// only class methods do.
    fn bind_methods(&self, vals: Vec<Val>, via_class: bool) -> Vec<Val> {
        vals.into_iter()
            .map(|v| match v {
                Val::Func(r) => {
                    let d = self.def(r);
                    let is_method = d.parent.is_some_and(|p| {
                        let pd = &self.files[r.file as usize].defs[p as usize];
                        pd.kind == DefKind::Class || pd.kind == DefKind::Impl
                    });
                    let binds = if via_class {
                        d.is_classmethod
                    } else {
                        !d.is_static
                    };
                    if is_method && binds && !d.is_lambda {
                        Val::Bound(r)
                    } else {
                        Val::Func(r)
                    }
                }
                v => v,
            })
            .collect()
    }

    fn own_instance_attr(&self, k: Ref, name: &str, depth: u32) -> Vec<Val> {
        let mut out = Vec::new();
        if let Some(assigns) = self.idx[k.file as usize]
            .inst_attrs
            .get(&(k.def, name.to_string()))
        {
            for &a in assigns {
                out.extend(self.eval_binding(
                    k.file,
                    Binding {
                        line: 0,
                        kind: BindKind::Assign(a),
                        cond: None,
                    },
                    depth + 1,
                ));
            }
        }
        out
    }

    fn instance_attr(&self, c: Ref, name: &str, depth: u32) -> Vec<Val> {
        let mut out = Vec::new();
        for k in self.mro(c, depth) {
            if let Some(assigns) = self.idx[k.file as usize]
                .inst_attrs
                .get(&(k.def, name.to_string()))
            {
                for &a in assigns {
                    out.extend(self.eval_binding(
                        k.file,
                        Binding {
                            line: 0,
                            kind: BindKind::Assign(a),
                            cond: None,
                        },
                        depth + 1,
                    ));
                }
                if !out.is_empty() {
                    break;
                }
            }
        }
        dedup(&mut out);
        out
    }

    /// The classes whose instances `self` (or `cls`) can be in a Python method of class `c`:
    /// `c` and its subclasses whose name some call names or passes (a class never named in a
    /// call is never instantiated, nor reached as `cls`). `c` alone when none is, or when the
    /// hierarchy is too big to say.
    fn dispatch_classes(&self, c: Ref) -> Vec<Ref> {
        if self.lang(c.file) != Lang::Python {
            return vec![c];
        }
        let used = |k: Ref| self.py_used.contains_key(self.def(k).name.as_str());
        let mut out = Vec::new();
        let mut seen = HashSet::new();
        let mut stack: Vec<Ref> = self.subclasses.get(&c).cloned().unwrap_or_default();
        stack.reverse();
        while let Some(s) = stack.pop() {
            if !seen.insert(s) {
                continue;
            }
            if seen.len() > 64 {
                return vec![c];
            }
            if used(s) {
                out.push(s);
            }
            let mut more = self.subclasses.get(&s).cloned().unwrap_or_default();
            more.reverse();
            stack.extend(more);
        }
        if out.is_empty() || used(c) {
            out.insert(0, c);
        }
        out
    }

    /// What `super()` in class `c` gives `name` as: the next class after `c` that defines it
    /// in the MRO of each class `self` can be an instance of.
    fn super_member(&self, c: Ref, name: &str, depth: u32) -> Vec<Val> {
        let mut out = Vec::new();
        for k in self.dispatch_classes(c) {
            let mro = self.mro(k, depth);
            let Some(pos) = mro.iter().position(|x| *x == c) else {
                continue;
            };
            for k in mro.iter().skip(pos + 1) {
                let v = self.own_member(*k, name, depth);
                if !v.is_empty() {
                    out.extend(self.bind_methods(v, false));
                    break;
                }
            }
        }
        dedup(&mut out);
        out
    }

    /// Direct bases that are classes of this repository.
    fn bases(&self, c: Ref, depth: u32) -> Vec<Ref> {
        if depth > MAX_DEPTH {
            return Vec::new();
        }
        let def = self.def(c);
        let mut out = Vec::new();
        for b in &def.bases {
            for v in self.eval(c.file, def.parent, b, Some(def.start_line), depth + 1) {
                if let Val::Class(k) = v
                    && k != c
                {
                    out.push(k);
                }
            }
        }
        out
    }

    /// Method resolution order: C3 linearization, falling back to depth-first order when the
    /// hierarchy has no consistent linearization.
    fn mro(&self, c: Ref, depth: u32) -> Vec<Ref> {
        if let Ok(m) = self.mro_memo.read()
            && let Some((v, deps)) = m.get(&c)
        {
            merge(deps);
            return v.clone();
        }
        let (v, deps) = tracked_merged(|| self.compute_mro(c, depth));
        // Deep in a chain of lookups, bases may have been cut short by the depth limit.
        if depth <= 2
            && let Ok(mut m) = self.mro_memo.write()
        {
            m.insert(c, (v.clone(), deps.into()));
        }
        v
    }

    fn compute_mro(&self, c: Ref, depth: u32) -> Vec<Ref> {
        self.c3(c, depth, &mut Vec::new()).unwrap_or_else(|| {
            let mut out = vec![c];
            let mut i = 0;
            while i < out.len() && out.len() < 64 {
                for b in self.bases(out[i], depth + 1) {
                    if !out.contains(&b) {
                        out.push(b);
                    }
                }
                i += 1;
            }
            out
        })
    }

    fn c3(&self, c: Ref, depth: u32, stack: &mut Vec<Ref>) -> Option<Vec<Ref>> {
        if stack.contains(&c) || stack.len() > 32 {
            return None;
        }
        stack.push(c);
        let bases = self.bases(c, depth);
        let mut seqs: Vec<Vec<Ref>> = Vec::new();
        for b in &bases {
            seqs.push(self.c3(*b, depth, stack)?);
        }
        seqs.push(bases);
        stack.pop();
        let mut out = vec![c];
        loop {
            seqs.retain(|s| !s.is_empty());
            if seqs.is_empty() {
                return Some(out);
            }
            let head = seqs
                .iter()
                .map(|s| s[0])
                .find(|h| !seqs.iter().any(|s| s[1..].contains(h)))?;
            out.push(head);
            for s in &mut seqs {
                if s[0] == head {
                    s.remove(0);
                }
            }
        }
    }

    // ---- imports ----

    fn import_val(&self, fi: FileId, ii: u32, depth: u32) -> Vec<Val> {
        let f = &self.files[fi as usize];
        let imp = &f.imports[ii as usize];
        match (&imp.kind, f.lang) {
            (ImportKind::Module { path, alias }, Lang::Python) => {
                if alias.is_some() {
                    self.py_module_val(path, None)
                } else {
                    // `import a.b` binds `a`.
                    let first = path.split('.').next().unwrap_or(path);
                    self.py_module_val(first, None)
                }
            }
            (
                ImportKind::From {
                    path, level, name, ..
                },
                Lang::Python,
            ) => {
                let Some(base) = self.py_base(fi, path, *level) else {
                    return Vec::new();
                };
                let mut out = Vec::new();
                for v in self.py_module_val(&base, Some(fi)) {
                    if let Val::Module(m) = v {
                        out.extend(self.module_member(m, name, depth + 1, true));
                    }
                }
                if out.is_empty() {
                    out = self.py_module_val(&format!("{base}.{name}"), Some(fi));
                }
                out
            }
            (ImportKind::Module { .. }, Lang::Go) => self
                .import_files(fi, ii, depth + 1)
                .first()
                .map(|&t| vec![Val::GoPkg(dir_of(&self.files[t as usize].path).to_string())])
                .unwrap_or_default(),
            (ImportKind::Module { .. }, _) => self
                .import_files(fi, ii, depth + 1)
                .into_iter()
                .map(Val::Module)
                .collect(),
            (ImportKind::From { path, name, .. }, Lang::Java) => {
                let mut out = Vec::new();
                if let Some(files) = self.packages.get(path) {
                    for &t in files {
                        out.extend(self.top_class(t, name));
                    }
                }
                out
            }
            (ImportKind::From { path, name, .. }, Lang::Rust) => {
                let mut out = Vec::new();
                for v in self.rust_path_val(fi, path, depth + 1) {
                    out.extend(self.member(&v, name, depth + 1));
                }
                if out.is_empty() && name == "self" {
                    out = self.rust_path_val(fi, path, depth + 1);
                }
                out
            }
            (ImportKind::From { name, .. }, _) => {
                let mut out = Vec::new();
                for t in self.import_files(fi, ii, depth + 1) {
                    out.extend(self.module_member(t, name, depth + 1, true));
                }
                out
            }
            (ImportKind::Star { .. }, _) => Vec::new(),
        }
    }

    fn rust_module_val(&self, q: &str) -> Option<Val> {
        let files = self.rust_modules.get(q)?;
        (files.len() == 1).then(|| Val::Module(files[0]))
    }

    fn rust_path_val(&self, fi: FileId, path: &str, depth: u32) -> Vec<Val> {
        if depth > MAX_DEPTH {
            return Vec::new();
        }
        let own = rust_module(&self.files[fi as usize].path);
        let mut parts = path.split("::");
        let Some(first) = parts.next() else {
            return Vec::new();
        };
        let start = match first {
            "crate" => "crate".to_string(),
            "self" => own,
            "super" => own
                .rsplit_once("::")
                .map(|p| p.0.to_string())
                .unwrap_or(own),
            other => {
                // A name in scope (a module declared with `mod`) or an external crate.
                let q = format!("{own}::{other}");
                if self.rust_modules.contains_key(&q) {
                    q
                } else {
                    return Vec::new();
                }
            }
        };
        let mut vals: Vec<Val> = self.rust_module_val(&start).into_iter().collect();
        for p in parts {
            let mut next = Vec::new();
            for v in &vals {
                next.extend(self.member(v, p, depth + 1));
            }
            vals = next;
        }
        vals
    }

    /// The absolute module a Python import names.
    fn py_base(&self, fi: FileId, path: &str, level: u32) -> Option<String> {
        if level == 0 {
            return Some(path.to_string());
        }
        let ix = &self.idx[fi as usize];
        let mut parts: Vec<&str> = if ix.qualname.is_empty() {
            Vec::new()
        } else {
            ix.qualname.split('.').collect()
        };
        // A module's package is its name minus the last part; a package is its own.
        let drop = if ix.is_init { level - 1 } else { level };
        for _ in 0..drop {
            parts.pop()?;
        }
        if !path.is_empty() {
            parts.push(path);
        }
        Some(parts.join("."))
    }

    fn py_module_val(&self, q: &str, near: Option<FileId>) -> Vec<Val> {
        if let Some(files) = self.py_modules.get(q) {
            if files.len() == 1 {
                return vec![Val::Module(files[0])];
            }
            if let Some(n) = near {
                // The same name in two places: the one closest to the importer.
                let here = &self.files[n as usize].path;
                let best = files
                    .iter()
                    .max_by_key(|&&f| common_prefix(&self.files[f as usize].path, here));
                if let Some(&b) = best {
                    return vec![Val::Module(b)];
                }
            }
            return Vec::new();
        }
        if self.py_packages.contains_key(q) {
            return vec![Val::Namespace(q.to_string())];
        }
        Vec::new()
    }

    /// The repository files an import statement brings in.
    fn import_files(&self, fi: FileId, ii: u32, depth: u32) -> Vec<FileId> {
        if let Some(Some((targets, deps))) = self.import_targets.get(fi as usize)
            && let Some(t) = targets.get(ii as usize)
        {
            record(Dep::File(fi));
            merge(deps);
            return t.clone();
        }
        self.import_files_uncached(fi, ii, depth)
    }

    fn import_files_uncached(&self, fi: FileId, ii: u32, depth: u32) -> Vec<FileId> {
        if depth > MAX_DEPTH {
            return Vec::new();
        }
        let f = &self.files[fi as usize];
        let imp = &f.imports[ii as usize];
        let lang = f.lang;
        let (path, level) = match &imp.kind {
            ImportKind::Module { path, .. } => (path.as_str(), 0),
            ImportKind::From { path, level, .. } => (path.as_str(), *level),
            ImportKind::Star { path, level } => (path.as_str(), *level),
        };
        match lang {
            Lang::Python => {
                let Some(base) = self.py_base(fi, path, level) else {
                    return Vec::new();
                };
                let mut out = Vec::new();
                match &imp.kind {
                    ImportKind::From { name, .. } => {
                        if let [Val::Module(m)] = self
                            .py_module_val(&format!("{base}.{name}"), Some(fi))
                            .as_slice()
                        {
                            out.push(*m);
                        } else if let [Val::Module(m)] =
                            self.py_module_val(&base, Some(fi)).as_slice()
                        {
                            out.push(*m);
                        }
                    }
                    _ => {
                        if let [Val::Module(m)] = self.py_module_val(&base, Some(fi)).as_slice() {
                            out.push(*m);
                        }
                    }
                }
                out
            }
            l if l.is_js_family() => {
                if !path.starts_with('.') {
                    return Vec::new();
                }
                let joined = normalize(&format!("{}/{}", dir_of(&f.path), path));
                let exts = [
                    "",
                    ".ts",
                    ".tsx",
                    ".js",
                    ".jsx",
                    ".mjs",
                    ".cjs",
                    "/index.ts",
                    "/index.tsx",
                    "/index.js",
                    "/index.jsx",
                ];
                for e in exts {
                    let cand = format!("{joined}{e}");
                    if let Some(&t) = self.by_path.get(cand.as_str()) {
                        return vec![t];
                    }
                }
                // `./a.js` written for a TypeScript source `./a.ts`.
                if let Some(stem) = joined.strip_suffix(".js") {
                    for e in [".ts", ".tsx"] {
                        if let Some(&t) = self.by_path.get(format!("{stem}{e}").as_str()) {
                            return vec![t];
                        }
                    }
                }
                Vec::new()
            }
            Lang::Go => {
                // The longest folder of the repository whose path ends the import path.
                let mut best: Option<(&str, usize)> = None;
                // A scan of every folder: any folder added or removed can change the answer.
                record(Dep::Key(crate::deps::all_paths_key()));
                let all = self.files.untracked();
                for (dir, files) in &self.by_dir.map {
                    if !files.iter().any(|&x| all.lang(x as usize) == Lang::Go) {
                        continue;
                    }
                    let ok = if dir.is_empty() {
                        false
                    } else {
                        path == *dir || path.ends_with(&format!("/{dir}"))
                    };
                    if ok && best.is_none_or(|b| dir.len() > b.1) {
                        best = Some((dir, dir.len()));
                    }
                }
                best.and_then(|(d, _)| self.by_dir.get(d))
                    .map(|v| {
                        v.iter()
                            .copied()
                            .filter(|&x| self.lang(x) == Lang::Go)
                            .collect()
                    })
                    .unwrap_or_default()
            }
            Lang::Java => {
                let mut out = Vec::new();
                match &imp.kind {
                    ImportKind::From { path, name, .. } => {
                        if let Some(files) = self.packages.get(path) {
                            for &t in files {
                                if !self.top_class(t, name).is_empty() {
                                    out.push(t);
                                }
                            }
                        }
                    }
                    ImportKind::Star { path, .. } => {
                        if let Some(files) = self.packages.get(path) {
                            out.extend(files.iter().copied());
                        }
                    }
                    _ => {}
                }
                out
            }
            Lang::CSharp => self.packages.get(path).cloned().unwrap_or_default(),
            Lang::Rust => {
                let mut out = Vec::new();
                let full = match &imp.kind {
                    ImportKind::From { path, name, .. } if !path.is_empty() => {
                        format!("{path}::{name}")
                    }
                    ImportKind::From { name, .. } => name.clone(),
                    _ => path.to_string(),
                };
                let mut p = full.as_str();
                loop {
                    if let Some(Val::Module(m)) = self.rust_path_val(fi, p, depth + 1).first() {
                        out.push(*m);
                        break;
                    }
                    match p.rsplit_once("::") {
                        Some((a, _)) => p = a,
                        None => break,
                    }
                }
                out
            }
            Lang::C | Lang::Cpp | Lang::Ruby | Lang::Bash => {
                let mut cands: Vec<String> = Vec::new();
                let with_ext = |p: &str| -> Vec<String> {
                    if lang == Lang::Ruby && !p.ends_with(".rb") {
                        vec![format!("{p}.rb")]
                    } else {
                        vec![p.to_string()]
                    }
                };
                if level > 0 || lang == Lang::Bash {
                    for c in with_ext(path) {
                        cands.push(normalize(&format!("{}/{}", dir_of(&f.path), c)));
                    }
                }
                for c in with_ext(path) {
                    cands.push(normalize(&c));
                }
                for c in &cands {
                    if let Some(&t) = self.by_path.get(c.as_str()) {
                        return vec![t];
                    }
                }
                // Include paths we do not know: a unique file with that suffix.
                let want = with_ext(path).pop().unwrap_or_default();
                let suffix = format!("/{}", want.trim_start_matches("./"));
                record(Dep::Key(crate::deps::all_paths_key()));
                let found: Vec<FileId> = self
                    .files
                    .untracked()
                    .paths()
                    .enumerate()
                    .filter(|(_, p)| p.ends_with(&suffix))
                    .map(|(i, _)| i as FileId)
                    .collect();
                if found.len() == 1 { found } else { Vec::new() }
            }
            _ => Vec::new(),
        }
    }

    /// Resolves everything and assembles the graph.
    pub(crate) fn into_graph(self) -> Graph {
        let n = self.files.len() as FileId;
        let mut r = self;
        let first: Vec<Vec<Pass1>> = (0..n)
            .into_par_iter()
            .map(|fi| r.file_pass1(fi).0)
            .collect();
        r.set_pass1(&first);
        let per_file: Vec<FileEdges> = (0..n)
            .into_par_iter()
            .map(|fi| r.file_pass2(fi, &first[fi as usize]).0)
            .collect();
        let mut graph = Graph::default();
        for fi in 0..n {
            let (nodes, contains) = r.file_nodes(fi);
            graph.nodes.extend(nodes);
            graph.edges.extend(contains);
        }
        for (e, u, b) in per_file {
            graph.edges.extend(e);
            graph.unresolved.extend(u);
            graph.builtin_calls.extend(b);
        }
        graph
    }

    /// The first pass over the calls of file `fi`: everything that does not depend on
    /// parameter values; and what it read.
    pub(crate) fn file_pass1(&self, fi: FileId) -> (Vec<Pass1>, Vec<Dep>) {
        tracked(|| {
            self.files[fi as usize]
                .calls
                .iter()
                .map(|c| {
                    PARAM_TOUCHED.with(|t| t.set(false));
                    let t = self.call_targets(fi, c);
                    if t.is_none() && !PARAM_TOUCHED.with(|t| t.get()) {
                        // Final: nothing a parameter could change.
                        return Pass1::Unresolved;
                    }
                    match t {
                        Some(t) if PARAM_TOUCHED.with(|t| t.get()) => Pass1::Partial(t),
                        Some(t) => Pass1::Resolved(t),
                        None => Pass1::Retry,
                    }
                })
                .collect()
        })
    }

    /// The call sites that reach each function, from the first pass of every file; turns on
    /// the flow of arguments into parameters for the second pass.
    pub(crate) fn set_pass1(&mut self, first: &[Vec<Pass1>]) {
        for (fi, calls) in first.iter().enumerate() {
            for (ci, t) in calls.iter().enumerate() {
                let Some(t) = t.targets() else { continue };
                for (r, bound) in t {
                    self.callers
                        .map
                        .entry(*r)
                        .or_default()
                        .push((fi as FileId, ci as u32, *bound));
                }
            }
        }
        // Decorators are calls with the decorated function as their argument.
        for (fi, decorators) in self.decorators.iter().enumerate() {
            for &ci in decorators {
                let Some(t) = first
                    .get(fi)
                    .and_then(|c| c.get(ci as usize))
                    .and_then(Pass1::targets)
                else {
                    continue;
                };
                for (r, _) in t {
                    self.callers
                        .map
                        .entry(*r)
                        .or_default()
                        .push((fi as FileId, ci, false));
                }
            }
        }
        self.param_flow = true;
    }

    /// The second pass for file `fi`: its edges but CONTAINS, unresolved and builtin calls;
    /// and what it read (beyond the file's own first pass, `first`).
    pub(crate) fn file_pass2(&self, fi: FileId, first: &[Pass1]) -> (FileEdges, Vec<Dep>) {
        tracked(|| self.file_edges(fi, first))
    }
}

/// `1` for a `@property` (or `cached_property`) getter, `2` for a `@name.setter`, else `0`.
fn prop_kind(d: &crate::extract::Def) -> u8 {
    if d.kind != DefKind::Func {
        return 0;
    }
    for dec in &d.decorators {
        match dec.as_slice() {
            [Seg::Name(p)] | [Seg::Name(_), Seg::Name(p)]
                if p == "property" || p == "cached_property" =>
            {
                return 1;
            }
            [Seg::Name(n), Seg::Name(s)] if *n == d.name && s == "setter" => return 2,
            _ => {}
        }
    }
    0
}

/// The bindings of a name (in source order) that may reach a read at `line` (`None`: after
/// the scope's last statement): the last one before the read, and, while that one sits in a
/// block the read is not in (a branch, a loop body, a `try`), the ones before it too, down
/// to one that is not in such a block. So `if c: h = a` / `else: h = b` gives both, while a
/// straight `x = a; x = b` gives `b` alone.
fn reaching_bindings(bs: &[Binding], line: Option<u32>) -> &[Binding] {
    let l = line.unwrap_or(u32::MAX);
    let end = match line {
        Some(l) => bs.iter().rposition(|b| b.line <= l).map(|i| i + 1),
        None => None,
    }
    .unwrap_or(bs.len());
    let mut start = end;
    while start > 0 {
        start -= 1;
        match bs[start].cond {
            Some((s, e)) if !(s <= l && l <= e) => continue,
            _ => break,
        }
    }
    &bs[start..end]
}

/// A special method called by an operator, a subscript, a builtin or a `with` statement
/// (extraction gives these no text).
fn is_implicit_dunder(call: &crate::extract::CallSite) -> bool {
    call.text.is_empty()
        && matches!(call.callee.last(), Some(Seg::Name(n)) if n.len() > 4 && n.starts_with("__") && n.ends_with("__"))
}

/// The names a Python file writes in its callees and arguments.
fn py_used_names(f: &FileFacts) -> HashSet<&str> {
    let mut out = HashSet::new();
    // An attribute access names no class that it would instantiate.
    for c in f.calls.iter().filter(|c| c.prop == 0) {
        let args = c.args.iter().flatten();
        let kwargs = c.kwargs.iter().filter_map(|(_, v)| v.as_ref());
        for segs in std::iter::once(&c.callee).chain(args).chain(kwargs) {
            for s in segs {
                if let Seg::Name(n) = s {
                    out.insert(n.as_str());
                }
            }
        }
    }
    out
}

fn common_prefix(a: &str, b: &str) -> usize {
    a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count()
}

fn normalize(p: &str) -> String {
    let mut out: Vec<&str> = Vec::new();
    for part in p.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                out.pop();
            }
            x => out.push(x),
        }
    }
    out.join("/")
}

fn dedup(v: &mut Vec<Val>) {
    let mut seen = HashSet::new();
    v.retain(|x| seen.insert(x.clone()));
}

fn def_ids(f: &FileFacts) -> Vec<String> {
    let mut counts: HashMap<String, u32> = HashMap::new();
    let mut locals: Vec<String> = Vec::with_capacity(f.defs.len());
    for (i, d) in f.defs.iter().enumerate() {
        let mut parts = vec![d.name.as_str()];
        let mut p = visible_parent_of(f, i as DefId);
        while let Some(pi) = p {
            parts.push(f.defs[pi as usize].name.as_str());
            p = visible_parent_of(f, pi);
        }
        parts.reverse();
        let local = parts.join(".");
        let n = counts.entry(local.clone()).or_insert(0);
        *n += 1;
        let id = if *n == 1 {
            format!("{}:{}", f.path, local)
        } else {
            format!("{}:{}#{}", f.path, local, n)
        };
        locals.push(id);
    }
    // A merged `impl` block shares its type's node.
    for (i, d) in f.defs.iter().enumerate() {
        if let Some(m) = d.merged_into {
            locals[i] = locals[m as usize].clone();
        }
    }
    locals
}

fn visible_parent_of(f: &FileFacts, d: DefId) -> Option<DefId> {
    let mut p = f.defs[d as usize].parent;
    while let Some(pi) = p {
        let pd = &f.defs[pi as usize];
        if let Some(m) = pd.merged_into {
            return Some(m);
        }
        if pd.kind != DefKind::Impl && pd.kind != DefKind::Scope {
            return Some(pi);
        }
        p = pd.parent;
    }
    None
}

/// The folders that are Python packages (they hold an `__init__.py`).
pub(crate) fn init_dirs<'a>(files: &'a Files<'_>) -> HashSet<&'a str> {
    files
        .paths()
        .filter(|p| *p == "__init__.py" || p.ends_with("/__init__.py"))
        .map(dir_of)
        .collect()
}

/// The scope whose binding of `name` a use in `scope` sees, by the file's own facts (where a
/// list that code appends to was made): the innermost enclosing scope that assigns, imports,
/// defines or takes `name` as a parameter, else the module.
fn binding_scope(
    f: &FileFacts,
    bindings: &HashMap<(Option<DefId>, String), Vec<Binding>>,
    scope: Option<DefId>,
    name: &str,
) -> Option<DefId> {
    let mut cur = scope;
    while let Some(d) = cur {
        let def = &f.defs[d as usize];
        if def.kind != DefKind::Class && bindings.contains_key(&(Some(d), name.to_string())) {
            return Some(d);
        }
        cur = def.parent;
    }
    None
}

/// The scope a `global` or `nonlocal` name declared in `scope` lives in: the nearest enclosing
/// function that assigns or takes it, else the module.
fn outer_binding_scope(f: &FileFacts, scope: Option<DefId>, name: &str) -> Option<DefId> {
    let mut cur = scope.and_then(|d| f.defs[d as usize].parent);
    while let Some(d) = cur {
        let def = &f.defs[d as usize];
        if def.kind == DefKind::Func
            && (def.params.iter().any(|p| p == name)
                || f.assigns
                    .iter()
                    .any(|a| a.scope == Some(d) && a.target.len() == 1 && a.target[0] == name))
        {
            return Some(d);
        }
        cur = def.parent;
    }
    None
}

/// For each line (index = line number), the innermost of [`FileFacts::cond_blocks`] holding
/// it (`u32::MAX` for none). Blocks nest, so painting outer blocks before the blocks inside
/// them leaves the innermost on every line; the work is the lines times the nesting depth.
fn innermost_cond_blocks(f: &FileFacts) -> Vec<u32> {
    if f.cond_blocks.is_empty() {
        return Vec::new();
    }
    let mut order: Vec<u32> = (0..f.cond_blocks.len() as u32).collect();
    order.sort_by_key(|&i| {
        let (s, e) = f.cond_blocks[i as usize];
        (s, std::cmp::Reverse(e))
    });
    let last = f.cond_blocks.iter().map(|b| b.1).max().unwrap_or(0);
    let mut out = vec![u32::MAX; last as usize + 1];
    for i in order {
        let (s, e) = f.cond_blocks[i as usize];
        for slot in out.iter_mut().take(e as usize + 1).skip(s as usize) {
            *slot = i;
        }
    }
    out
}

/// Whether a file's index is built from call `c` (`xs.append(f)` puts `f` into `xs`): such
/// calls are part of what other files see of the file ([`same_interface`]).
fn index_reads_call(f: &FileFacts, c: &CallSite) -> bool {
    f.lang == Lang::Python && matches!(c.callee.as_slice(), [Seg::Name(_), Seg::Name(_)])
}

/// Whether two versions of a file look the same from other files: the same facts but the
/// call sites (the calls its index is built from included), the line count, the byte offsets
/// of definitions, and the line numbers themselves as long as they keep their order.
///
/// Resolving another file reads a file's calls only through [`Resolver::call_site`] (a
/// [`Dep::Body`]), so a result that did not read them holds for both versions. Of positions,
/// resolution compares a file's line numbers with each other (a binding before a read, a
/// read inside a block) and never with another file's, nor puts them into its results; so a
/// line added inside a function, which moves everything below it, changes nothing another
/// file's results can see. Whatever else `FileFacts` holds counts.
pub(crate) fn same_interface(a: &FileFacts, b: &FileFacts) -> bool {
    fn outside(f: &FileFacts) -> Option<Vec<u8>> {
        let mut v = f.clone_without_calls();
        v.calls = f
            .calls
            .iter()
            .filter(|c| index_reads_call(f, c))
            .map(|c| CallSite {
                // An index into all the calls, which a call added before it moves; only
                // resolving the call itself reads it, and only this file does that.
                via: c.via.map(|_| 0),
                ..c.clone()
            })
            .collect();
        v.lines = 0;
        for d in &mut v.defs {
            (d.start_byte, d.end_byte, d.scope_start, d.scope_end) = (0, 0, 0, 0);
        }
        renumber_lines(&mut v);
        postcard::to_stdvec(&v).ok()
    }
    match (outside(a), outside(b)) {
        (Some(x), Some(y)) => x == y,
        _ => false,
    }
}

/// Replaces every line number in `f` by its rank among them (from 1; 0 stays 0), which keeps
/// their order and equalities.
fn renumber_lines(f: &mut FileFacts) {
    fn each(f: &mut FileFacts, mut g: impl FnMut(&mut u32)) {
        for d in &mut f.defs {
            g(&mut d.start_line);
            g(&mut d.end_line);
        }
        f.calls.iter_mut().for_each(|c| g(&mut c.line));
        f.imports.iter_mut().for_each(|i| g(&mut i.line));
        f.assigns.iter_mut().for_each(|a| g(&mut a.line));
        f.binds.iter_mut().for_each(|b| g(&mut b.line));
        f.globals.iter_mut().for_each(|b| g(&mut b.line));
        f.literals.iter_mut().for_each(|l| g(&mut l.line));
        for (a, b) in &mut f.cond_blocks {
            g(a);
            g(b);
        }
    }
    let mut seen = Vec::new();
    each(f, |l| seen.push(*l));
    seen.retain(|&l| l != 0);
    seen.sort_unstable();
    seen.dedup();
    each(f, |l| {
        if let Ok(i) = seen.binary_search(l) {
            *l = i as u32 + 1;
        }
    });
}

fn build_index(f: &FileFacts, init_dirs: &HashSet<&str>) -> FileIndex {
    let mut bindings: HashMap<(Option<DefId>, String), Vec<Binding>> = HashMap::new();
    let mut push = |scope: Option<DefId>, name: String, b: Binding| {
        bindings.entry((scope, name)).or_default().push(b);
    };
    // Priority at the same line: unknown < assignment < import < definition.
    for (i, d) in f.defs.iter().enumerate() {
        if (d.kind == DefKind::Impl && d.merged_into.is_some()) || d.kind == DefKind::Scope {
            continue;
        }
        let scope = visible_parent_of(f, i as DefId);
        push(
            scope,
            d.name.clone(),
            Binding {
                line: d.start_line,
                kind: BindKind::Def(i as DefId),
                cond: None,
            },
        );
    }
    for (i, imp) in f.imports.iter().enumerate() {
        let name = match (&imp.kind, f.lang) {
            (ImportKind::Module { alias: Some(a), .. }, _) => a.clone(),
            (ImportKind::Module { path, alias: None }, Lang::Python) => {
                path.split('.').next().unwrap_or(path).to_string()
            }
            (ImportKind::Module { path, alias: None }, Lang::Go) => {
                path.rsplit('/').next().unwrap_or(path).to_string()
            }
            (ImportKind::Module { .. }, _) => continue,
            (ImportKind::From { name, alias, .. }, _) => {
                if name == "self" && f.lang == Lang::Rust {
                    match &imp.kind {
                        ImportKind::From { path, .. } => alias.clone().unwrap_or_else(|| {
                            path.rsplit("::").next().unwrap_or(path).to_string()
                        }),
                        _ => continue,
                    }
                } else {
                    alias.clone().unwrap_or_else(|| name.clone())
                }
            }
            (ImportKind::Star { .. }, _) => continue,
        };
        push(
            imp.scope,
            name,
            Binding {
                line: imp.line,
                kind: BindKind::Import(i as u32),
                cond: None,
            },
        );
    }
    let mut inst_attrs: HashMap<(DefId, String), Vec<u32>> = HashMap::new();
    let mut outer_attrs: HashMap<String, Vec<u32>> = HashMap::new();
    let mut elem_assigns: HashMap<(Option<DefId>, String, String), Vec<u32>> = HashMap::new();
    let mut elem_adds: HashMap<(Option<DefId>, String), Vec<Added>> = HashMap::new();
    let mut pending_adds = Vec::new();
    let mut elem_keyed: HashMap<(Option<DefId>, String), Vec<u32>> = HashMap::new();
    let declared: HashSet<(Option<DefId>, &str)> = f
        .globals
        .iter()
        .map(|g| (g.scope, g.name.as_str()))
        .collect();
    for (i, a) in f.assigns.iter().enumerate() {
        if a.target.len() == 1 {
            // `global x; x = f` (or `nonlocal`) binds the name where it lives.
            let scope = if declared.contains(&(a.scope, a.target[0].as_str())) {
                outer_binding_scope(f, a.scope, &a.target[0])
            } else {
                a.scope
            };
            push(
                scope,
                a.target[0].clone(),
                Binding {
                    line: a.line,
                    kind: BindKind::Assign(i as u32),
                    cond: None,
                },
            );
        } else if a.target.len() == 2 && a.target[1] == "[*]" {
            if let Some(v) = &a.value {
                pending_adds.push((a.scope, a.target[0].clone(), a.line, v.clone()));
            }
        } else if a.target.len() == 2 && a.target[1].starts_with('[') {
            let key = a.target[1]
                .trim_start_matches('[')
                .trim_end_matches(']')
                .to_string();
            elem_assigns
                .entry((a.scope, a.target[0].clone(), key))
                .or_default()
                .push(i as u32);
            elem_keyed
                .entry((a.scope, a.target[0].clone()))
                .or_default()
                .push(i as u32);
        } else if a.target.len() == 2 && a.scope.is_none() {
            if f.lang == Lang::Python {
                outer_attrs
                    .entry(a.target[1].clone())
                    .or_default()
                    .push(i as u32);
            }
        } else if a.target.len() == 2
            && let Some(s) = a.scope
        {
            // `self.x = ...` in a method (or a function nested in one) of a class.
            let mut cur = Some(s);
            let mut class = None;
            while let Some(c) = cur {
                let d = &f.defs[c as usize];
                if d.kind == DefKind::Class {
                    class = Some(c);
                    break;
                }
                if let Some(m) = d.merged_into {
                    class = Some(m);
                    break;
                }
                let p = d.parent.and_then(|p| {
                    let pd = &f.defs[p as usize];
                    pd.merged_into.or(Some(p))
                });
                if let Some(pc) = p
                    && f.defs[pc as usize].kind == DefKind::Class
                {
                    let is_self = match f.lang {
                        Lang::Python => d.params.first() == Some(&a.target[0]),
                        _ => matches!(a.target[0].as_str(), "this" | "self"),
                    };
                    if is_self {
                        class = Some(pc);
                    }
                    break;
                }
                cur = d.parent;
            }
            if let Some(c) = class {
                inst_attrs
                    .entry((c, a.target[1].clone()))
                    .or_default()
                    .push(i as u32);
            } else if f.lang == Lang::Python {
                outer_attrs
                    .entry(a.target[1].clone())
                    .or_default()
                    .push(i as u32);
            }
        }
    }
    for b in &f.binds {
        let kind = match b.scope {
            Some(d)
                if f.defs[d as usize].start_line == b.line
                    && f.defs[d as usize].params.contains(&b.name) =>
            {
                let i = f.defs[d as usize]
                    .params
                    .iter()
                    .position(|p| p == &b.name)
                    .unwrap_or(0);
                BindKind::Param(d, i as u32)
            }
            _ => BindKind::Unknown,
        };
        push(
            b.scope,
            b.name.clone(),
            Binding {
                line: b.line,
                kind,
                cond: None,
            },
        );
    }
    if f.lang == Lang::Python {
        for c in f.calls.iter().filter(|c| index_reads_call(f, c)) {
            let [Seg::Name(n), Seg::Name(m)] = c.callee.as_slice() else {
                continue;
            };
            let arg = match m.as_str() {
                "append" | "add" | "appendleft" => c.args.first().cloned().flatten(),
                "insert" => c.args.get(1).cloned().flatten(),
                // `xs.extend(ys)` adds each value of `ys`.
                "extend" => c.args.first().cloned().flatten().map(|mut v| {
                    v.push(Seg::Iter);
                    v
                }),
                // `d.update({"k": f})`, `d.update(k=f)`: values at keys the reads do not see
                // (a key read later that the literal lacks may be any of them).
                "update" => {
                    let owner = binding_scope(f, &bindings, c.scope, n);
                    let mut vals: Vec<&Vec<Seg>> =
                        c.kwargs.iter().filter_map(|(_, v)| v.as_ref()).collect();
                    if let Some(Some(a)) = c.args.first()
                        && let [Seg::Lit(i)] = a.as_slice()
                        && let Some(l) = f.literals.get(*i as usize)
                    {
                        vals.extend(l.elements.iter().filter_map(|(_, v)| v.as_ref()));
                    }
                    for v in vals {
                        elem_adds.entry((owner, n.clone())).or_default().push((
                            c.scope,
                            c.line,
                            v.clone(),
                        ));
                    }
                    None
                }
                _ => None,
            };
            if let Some(v) = arg {
                // The list lives in the scope that binds the name.
                let owner = binding_scope(f, &bindings, c.scope, n);
                elem_adds
                    .entry((owner, n.clone()))
                    .or_default()
                    .push((c.scope, c.line, v.clone()));
            }
        }
    }
    for (scope, name, line, v) in pending_adds {
        let owner = binding_scope(f, &bindings, scope, &name);
        elem_adds
            .entry((owner, name))
            .or_default()
            .push((scope, line, v));
    }
    let rank = |k: &BindKind| match k {
        BindKind::Unknown | BindKind::Param(..) => 0,
        BindKind::Assign(_) => 1,
        BindKind::Import(_) => 2,
        BindKind::Def(_) => 3,
    };
    let inner = innermost_cond_blocks(f);
    for ((scope, _), v) in bindings.iter_mut() {
        v.sort_by(|a, b| a.line.cmp(&b.line).then(rank(&a.kind).cmp(&rank(&b.kind))));
        for b in v.iter_mut() {
            b.cond = inner
                .get(b.line as usize)
                .and_then(|&i| f.cond_blocks.get(i as usize))
                .copied();
            // `global x; x = f` in a function: it runs whenever the function is called, so it
            // adds a value without hiding the bindings before it (reads outside the function
            // see all of them).
            if let BindKind::Assign(a) = b.kind
                && let Some(s) = f.assigns[a as usize].scope
                && *scope != Some(s)
                && let Some(d) = f.defs.get(s as usize)
            {
                b.cond = Some((d.start_line, d.end_line));
            }
        }
    }
    let globals = f
        .globals
        .iter()
        .map(|g| (g.scope, g.name.clone()))
        .collect();
    let stars = f
        .imports
        .iter()
        .enumerate()
        .filter(|(_, i)| matches!(i.kind, ImportKind::Star { .. }))
        .map(|(i, _)| i as u32)
        .collect();
    let (qualname, is_init, def_prefix) = match f.lang {
        Lang::Python => {
            let (q, init, _) = python_names(&f.path, init_dirs);
            (q.clone(), init, q)
        }
        Lang::Rust => {
            let q = rust_module(&f.path);
            (q.clone(), false, q)
        }
        Lang::Java | Lang::CSharp => {
            let stem = stem_path(&f.path)
                .rsplit('/')
                .next()
                .unwrap_or("")
                .to_string();
            match &f.package {
                Some(p) => (format!("{p}.{stem}"), false, p.clone()),
                None => (stem, false, String::new()),
            }
        }
        Lang::Go => {
            let dir = dir_of(&f.path);
            let pkg = if dir.is_empty() {
                f.package.clone().unwrap_or_default()
            } else {
                dir.to_string()
            };
            (stem_path(&f.path).to_string(), false, pkg)
        }
        Lang::C | Lang::Cpp | Lang::Ruby | Lang::Bash => {
            (stem_path(&f.path).to_string(), false, String::new())
        }
        _ => {
            let q = stem_path(&f.path).to_string();
            (q.clone(), false, q)
        }
    };
    FileIndex {
        bindings,
        inst_attrs,
        elem_assigns,
        elem_adds,
        elem_keyed,
        outer_attrs,
        globals,
        stars,
        qualname,
        def_prefix,
        is_init,
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
