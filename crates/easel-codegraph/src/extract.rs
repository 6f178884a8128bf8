//! Per-file extraction: run the language's query over the syntax tree and keep the facts the
//! resolver needs (definitions with their scopes, call sites, imports, bindings, returns).
//!
//! The facts of a file depend on nothing but its bytes and its path, so they are what the
//! cache keeps (by content hash) and what is computed in parallel.

use crate::budget::{Budget, Failure};
use crate::lang::Lang;
use crate::sniff::SkipReason;
use serde::{Deserialize, Serialize};
use std::sync::OnceLock;
use streaming_iterator::StreamingIterator;
use tree_sitter::{Node, Parser, Query, QueryCursor, QueryCursorOptions};

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
}

impl AssignFact {
    /// `target = value`, with no declared type and no literal written in place.
    fn plain(scope: Option<u32>, target: Vec<String>, value: Option<Vec<Seg>>, line: u32) -> Self {
        AssignFact {
            scope,
            target,
            value,
            type_name: None,
            elements: Vec::new(),
            line,
        }
    }
}

impl CallSite {
    /// A call with no arguments to follow, made where the code says (`maybe` false): the
    /// implicit calls (decorators, special methods, callbacks, properties) start from here.
    fn bare(scope: Option<u32>, callee: Vec<Seg>, text: String, line: u32) -> CallSite {
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
        }
    }
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
        }
    }
}

struct Compiled {
    query: Query,
    idx: Captures,
}

/// Capture indices by role; a query need not use them all.
#[derive(Default)]
struct Captures {
    class: Option<u32>,
    class_name: Option<u32>,
    class_base: Option<u32>,
    class_body: Option<u32>,
    namespace: Option<u32>,
    func: Option<u32>,
    func_name: Option<u32>,
    func_params: Option<u32>,
    func_body: Option<u32>,
    func_receiver: Option<u32>,
    func_static: Option<u32>,
    func_self: Option<u32>,
    lambda: Option<u32>,
    lambda_name: Option<u32>,
    scope: Option<u32>,
    impl_: Option<u32>,
    impl_type: Option<u32>,
    impl_trait: Option<u32>,
    call: Option<u32>,
    call_decorator: Option<u32>,
    call_maybe: Option<u32>,
    prop: Option<u32>,
    import: Option<u32>,
    assign: Option<u32>,
    assign_left: Option<u32>,
    assign_right: Option<u32>,
    assign_type: Option<u32>,
    bind: Option<u32>,
    global: Option<u32>,
    ret: Option<u32>,
    ret_value: Option<u32>,
    iter: Option<u32>,
    iter_left: Option<u32>,
    iter_right: Option<u32>,
    package: Option<u32>,
    export_default: Option<u32>,
    except: Option<u32>,
    except_type: Option<u32>,
    except_name: Option<u32>,
    with: Option<u32>,
}

impl Captures {
    fn of(q: &Query) -> Captures {
        let i = |n: &str| q.capture_index_for_name(n);
        Captures {
            class: i("class"),
            class_name: i("class.name"),
            class_base: i("class.base"),
            class_body: i("class.body"),
            namespace: i("namespace"),
            func: i("func"),
            func_name: i("func.name"),
            func_params: i("func.params"),
            func_body: i("func.body"),
            func_receiver: i("func.receiver"),
            func_static: i("func.static"),
            func_self: i("func.self"),
            lambda: i("lambda"),
            lambda_name: i("lambda.name"),
            scope: i("scope"),
            impl_: i("impl"),
            impl_type: i("impl.type"),
            impl_trait: i("impl.trait"),
            call: i("call"),
            call_decorator: i("call.decorator"),
            call_maybe: i("call.maybe"),
            prop: i("prop"),
            import: i("import"),
            assign: i("assign"),
            assign_left: i("assign.left"),
            assign_right: i("assign.right"),
            assign_type: i("assign.type"),
            bind: i("bind"),
            global: i("global"),
            ret: i("return"),
            ret_value: i("return.value"),
            iter: i("iter"),
            iter_left: i("iter.left"),
            iter_right: i("iter.right"),
            package: i("package"),
            export_default: i("export.default"),
            except: i("except"),
            except_type: i("except.type"),
            except_name: i("except.name"),
            with: i("with"),
        }
    }
}

static COMPILED: [OnceLock<Result<Compiled, String>>; 12] = [const { OnceLock::new() }; 12];

fn slot(lang: Lang) -> &'static OnceLock<Result<Compiled, String>> {
    &COMPILED[Lang::ALL.iter().position(|l| *l == lang).unwrap_or(0)]
}

fn compiled(lang: Lang) -> Result<&'static Compiled, String> {
    slot(lang)
        .get_or_init(|| {
            let query = Query::new(&lang.grammar(), lang.query_source())
                .map_err(|e| format!("queries/{}.scm: {e}", lang.name()))?;
            let idx = Captures::of(&query);
            Ok(Compiled { query, idx })
        })
        .as_ref()
        .map_err(Clone::clone)
}

/// Compiles a language's query ahead of the first file of that language.
pub(crate) fn prepare(lang: Lang) {
    let _ = compiled(lang);
}

/// Compile a language's query file (used by tests and `easel code` diagnostics).
pub fn check_query(lang: Lang) -> Result<(), String> {
    compiled(lang).map(|_| ())
}

/// Extract the facts of one file. Bytes that are not UTF-8 are read as Latin-1 (see
/// [`crate::sniff`]); a file whose parse or query runs over its time budget fails.
pub fn extract(lang: Lang, path: &str, src: &[u8]) -> Result<FileFacts, String> {
    extract_within(lang, path, src).map_err(|f| match f {
        Failure::Skip(r) => format!("{path}: {}", r.describe()),
        Failure::Error(e) => e,
    })
}

/// [`extract`], telling a file skipped for its budget from other failures.
pub(crate) fn extract_within(lang: Lang, path: &str, src: &[u8]) -> Result<FileFacts, Failure> {
    thread_local! {
        static PARSER: std::cell::RefCell<Parser> = std::cell::RefCell::new(Parser::new());
    }
    let src: &[u8] = &crate::sniff::readable(src);
    let budget = Budget::for_size(src.len());
    let parse = || {
        PARSER.with(|p| {
            let mut p = p.borrow_mut();
            p.set_language(&lang.grammar())
                .map_err(|e| format!("grammar for {}: {e}", lang.name()))?;
            budget.parse(&mut p, src).map_err(|f| match f {
                Failure::Error(e) => Failure::Error(format!("{path}: {e}")),
                skip => skip,
            })
        })
    };
    // Compiling a language's query takes several milliseconds (tree-sitter analyses it against
    // the whole grammar): the first file of a language is parsed meanwhile, on another core.
    let (c, tree) = match slot(lang).get() {
        Some(c) => (c.as_ref().map_err(Clone::clone), parse()),
        None => {
            let (tree, c) = rayon::join(parse, || compiled(lang));
            (c, tree)
        }
    };
    let (c, tree) = (c.map_err(Failure::Error)?, tree?);
    let mut x = Extractor {
        lang,
        src,
        facts: FileFacts {
            path: path.to_string(),
            lang,
            lines: count_lines(src),
            package: None,
            defs: Vec::new(),
            calls: Vec::new(),
            imports: Vec::new(),
            assigns: Vec::new(),
            binds: Vec::new(),
            globals: Vec::new(),
            returns: Vec::new(),
            literals: Vec::new(),
            default_export: None,
            cond_blocks: Vec::new(),
        },
        pending: Vec::new(),
        lits: Default::default(),
        lex_parent: Vec::new(),
    };
    let mut cursor = QueryCursor::new();
    let mut progress = budget.query_progress();
    let mut matches = cursor.matches_with_options(
        &c.query,
        tree.root_node(),
        src,
        QueryCursorOptions::new().progress_callback(&mut progress),
    );
    while let Some(m) = matches.next() {
        let get = |idx: Option<u32>| -> Option<Node> {
            let idx = idx?;
            m.captures().iter().find(|c| c.index == idx).map(|c| c.node)
        };
        let all = |idx: Option<u32>| -> Vec<Node> {
            match idx {
                Some(idx) => m
                    .captures()
                    .iter()
                    .filter(|c| c.index == idx)
                    .map(|c| c.node)
                    .collect(),
                None => Vec::new(),
            }
        };
        let k = &c.idx;
        if let Some(n) = get(k.class).or_else(|| get(k.namespace)) {
            let is_ns = get(k.namespace).is_some();
            let name = get(k.class_name).map(|n| x.text(n)).unwrap_or_default();
            let bases = all(k.class_base)
                .into_iter()
                .filter_map(|b| x.segs(b))
                .collect();
            let body = get(k.class_body).unwrap_or(n);
            x.add_def(n, body, DefKind::Class, name, bases, None, false);
            if let Some(d) = x.facts.defs.last_mut() {
                d.is_namespace = is_ns;
            }
        } else if let Some(n) = get(k.func) {
            let name_node = get(k.func_name);
            let mut name = name_node.map(|n| x.text(n)).unwrap_or_default();
            let mut receiver = get(k.func_receiver).map(|r| strip_generics(&x.text(r)));
            if let Some(pos) = name.rfind("::") {
                receiver = Some(strip_generics(&name[..pos]));
                name = name[pos + 2..].to_string();
            }
            let body = get(k.func_body).unwrap_or(n);
            let mut params = get(k.func_params).map(|p| x.params(p)).unwrap_or_default();
            let mut types = get(k.func_params)
                .map(|p| x.param_types(p))
                .unwrap_or_default();
            if let Some(s) = get(k.func_self) {
                params.insert(0, x.text(s));
                types.insert(0, None);
            }
            x.add_def(n, body, DefKind::Func, name, Vec::new(), receiver, false);
            if lang == Lang::Python
                && let Some(p) = get(k.func_params)
            {
                x.pending.push(Pending::Params(n.start_byte() as u32, p));
            }
            let is_static = get(k.func_static).is_some();
            let returns = ["return_type", "result", "returns", "type"]
                .iter()
                .find_map(|f| n.child_by_field_name(f))
                .and_then(|t| x.type_segs(t, 0));
            if let Some(d) = x.facts.defs.last_mut() {
                d.params = params;
                d.param_types = types;
                d.return_type = returns;
                if is_static {
                    d.is_classmethod = true;
                }
            }
        } else if let (Some(n), Some(name)) = (get(k.lambda), get(k.lambda_name)) {
            let name = x.text(name);
            let params = n
                .child_by_field_name("parameters")
                .map(|p| x.params(p))
                .or_else(|| n.child_by_field_name("parameter").map(|p| vec![x.text(p)]))
                .unwrap_or_default();
            let body = n.child_by_field_name("body").unwrap_or(n);
            x.add_def(n, body, DefKind::Func, name, Vec::new(), None, true);
            if let Some(d) = x.facts.defs.last_mut() {
                d.params = params;
            }
        } else if let Some(n) = get(k.scope) {
            let params = n
                .child_by_field_name("parameters")
                .map(|p| x.params(p))
                .or_else(|| n.child_by_field_name("parameter").map(|p| vec![x.text(p)]))
                .unwrap_or_default();
            let body = n.child_by_field_name("body").unwrap_or(n);
            x.add_def(
                n,
                body,
                DefKind::Scope,
                "<scope>".into(),
                Vec::new(),
                None,
                true,
            );
            if let Some(d) = x.facts.defs.last_mut() {
                d.params = params;
            }
            if lang == Lang::Python {
                x.pending
                    .push(Pending::LambdaBody(n.start_byte() as u32, body));
            }
        } else if let Some(n) = get(k.impl_) {
            let name = get(k.impl_type)
                .map(|t| strip_generics(&x.text(t)))
                .unwrap_or_default();
            let bases = get(k.impl_trait)
                .and_then(|t| x.segs(t))
                .into_iter()
                .collect();
            x.add_def(n, n, DefKind::Impl, name, bases, None, false);
        } else if let Some(n) = get(k.call) {
            x.pending.push(Pending::Call(n));
        } else if let Some(n) = get(k.call_maybe) {
            x.pending.push(Pending::Maybe(n));
        } else if let Some(n) = get(k.prop) {
            x.pending.push(Pending::Prop(n));
        } else if let Some(n) = get(k.call_decorator) {
            x.pending.push(Pending::Decorator(n));
        } else if let Some(n) = get(k.import) {
            x.pending.push(Pending::Import(n));
        } else if let Some(n) = get(k.assign) {
            x.pending.push(Pending::Assign {
                node: n,
                left: get(k.assign_left),
                right: get(k.assign_right),
                ty: get(k.assign_type),
            });
        } else if let Some(n) = get(k.bind) {
            x.pending.push(Pending::Bind(n));
        } else if let Some(n) = get(k.global) {
            x.pending.push(Pending::Global(n));
        } else if let (Some(n), Some(l), Some(r)) =
            (get(k.iter), get(k.iter_left), get(k.iter_right))
        {
            x.pending.push(Pending::Iter(n, l, r));
        } else if let Some(n) = get(k.ret) {
            x.pending.push(Pending::Return(n, get(k.ret_value)));
        } else if let Some(n) = get(k.package) {
            if x.facts.package.is_none() {
                x.facts.package = Some(x.text(n));
            }
        } else if let Some(n) = get(k.export_default) {
            x.facts.default_export = Some(x.text(n));
        } else if let (Some(n), Some(name)) = (get(k.except), get(k.except_name)) {
            x.pending.push(Pending::Except(n, all(k.except_type), name));
        } else if let Some(n) = get(k.except) {
            // `except E as e` (Python): the `as` part, found here rather than by the query.
            let mut c = n.walk();
            let aliased = n.named_children(&mut c).find(|c| c.kind() == "as_pattern");
            if let Some(a) = aliased
                && let Some(name) = a.child_by_field_name("alias")
                && let Some(ty) = a.named_child(0).filter(|t| t.id() != name.id())
            {
                x.pending.push(Pending::Except(n, vec![ty], name));
            }
        } else if let Some(n) = get(k.with) {
            // `with X() as x` binds `x` (Python).
            if let Some(v) = n.child_by_field_name("value")
                && v.kind() == "as_pattern"
                && let Some(alias) = v.child_by_field_name("alias")
            {
                x.pending.push(Pending::Bind(alias));
            }
            x.pending.push(Pending::With(n));
        }
    }
    drop(matches);
    if budget.is_over() {
        return Err(Failure::Skip(SkipReason::QueryBudget));
    }
    if x.facts.defs.is_empty() {
        x.generic_defs(tree.root_node(), Some(&budget))?;
        if budget.is_over() {
            return Err(Failure::Skip(SkipReason::QueryBudget));
        }
    }
    x.finish_defs();
    x.finish_pending();
    if lang == Lang::Python {
        cond_blocks(tree.root_node(), &mut x.facts.cond_blocks);
        x.operator_dunders(tree.root_node());
    }
    x.facts.literals = x.lits.into_inner().0;
    Ok(x.facts)
}

/// The query of the generic fallback: any node with a `name` field.
pub const GENERIC_QUERY: &str = "(_ name: (_) @name) @node";

fn generic_query(lang: Lang) -> Result<&'static Query, String> {
    static CELLS: [OnceLock<Result<Query, String>>; 12] = [const { OnceLock::new() }; 12];
    let slot = Lang::ALL.iter().position(|l| *l == lang).unwrap_or(0);
    CELLS[slot]
        .get_or_init(|| Query::new(&lang.grammar(), GENERIC_QUERY).map_err(|e| e.to_string()))
        .as_ref()
        .map_err(Clone::clone)
}

/// Definitions found by the generic fallback alone: nodes with a `name` field whose kind
/// says class-like (`class`, `struct`, `interface`, `enum`, `trait`, `module`) or
/// function-like (`function`, `method`, `constructor`).
pub fn generic_definitions(lang: Lang, src: &[u8]) -> Result<Vec<(DefKind, String, u32)>, String> {
    let mut p = Parser::new();
    p.set_language(&lang.grammar()).map_err(|e| e.to_string())?;
    let tree = p.parse(src, None).ok_or("the parser gave up")?;
    let mut x = Extractor {
        lang,
        src,
        facts: FileFacts {
            path: String::new(),
            lang,
            lines: 0,
            package: None,
            defs: Vec::new(),
            calls: Vec::new(),
            imports: Vec::new(),
            assigns: Vec::new(),
            binds: Vec::new(),
            globals: Vec::new(),
            returns: Vec::new(),
            literals: Vec::new(),
            default_export: None,
            cond_blocks: Vec::new(),
        },
        pending: Vec::new(),
        lits: Default::default(),
        lex_parent: Vec::new(),
    };
    x.generic_defs(tree.root_node(), None)?;
    Ok(x.facts
        .defs
        .into_iter()
        .map(|d| (d.kind, d.name, d.start_line))
        .collect())
}

fn count_lines(src: &[u8]) -> u32 {
    let n = src.iter().filter(|b| **b == b'\n').count() as u32;
    if src.last().is_some_and(|b| *b != b'\n') {
        n + 1
    } else {
        n
    }
}

/// `Foo<T>` → `Foo`, `*Foo` → `Foo`, `&mut Foo` → `Foo`, `a::Foo` stays.
fn strip_generics(s: &str) -> String {
    let s = s.trim().trim_start_matches(['*', '&']).trim();
    let s = s.strip_prefix("mut ").unwrap_or(s).trim();
    let end = s.find(['<', '[', '(']).unwrap_or(s.len());
    s[..end].trim().to_string()
}

enum Pending<'t> {
    Call(Node<'t>),
    Decorator(Node<'t>),
    Maybe(Node<'t>),
    /// A Python attribute that is not called: a property's getter or setter may run.
    Prop(Node<'t>),
    Import(Node<'t>),
    Assign {
        node: Node<'t>,
        left: Option<Node<'t>>,
        right: Option<Node<'t>>,
        ty: Option<Node<'t>>,
    },
    Bind(Node<'t>),
    Global(Node<'t>),
    Return(Node<'t>, Option<Node<'t>>),
    Iter(Node<'t>, Node<'t>, Node<'t>),
    Except(Node<'t>, Vec<Node<'t>>, Node<'t>),
    /// A function's parameter list, read once definitions are final.
    Params(u32, Node<'t>),
    /// A Python lambda's body: the value it returns.
    LambdaBody(u32, Node<'t>),
    /// A Python `with` item.
    With(Node<'t>),
}

struct Extractor<'s, 't> {
    lang: Lang,
    src: &'s [u8],
    facts: FileFacts,
    pending: Vec<Pending<'t>>,
    /// Literals met while reading expressions, and their index by start byte: an expression
    /// can be read more than once and must name the same literal each time.
    lits: std::cell::RefCell<(Vec<LitFact>, std::collections::HashMap<usize, u32>)>,
    /// Each definition's innermost enclosing definition by bytes (which `Def::parent` is not
    /// for a Python lambda in a function's header): what `scope_of` walks.
    lex_parent: Vec<Option<u32>>,
}

const IDENT_KINDS: &[&str] = &[
    "identifier",
    "type_identifier",
    "field_identifier",
    "property_identifier",
    "private_property_identifier",
    "shorthand_property_identifier",
    "package_identifier",
    "namespace_identifier",
    "constant",
    "simple_identifier",
    "word",
    "command_name",
    "primitive_type",
    "predefined_type",
];

impl<'s, 't> Extractor<'s, 't> {
    fn text(&self, n: Node) -> String {
        n.utf8_text(self.src).unwrap_or_default().to_string()
    }

    #[allow(clippy::too_many_arguments)]
    fn add_def(
        &mut self,
        node: Node,
        scope: Node,
        kind: DefKind,
        name: String,
        bases: Vec<Vec<Seg>>,
        receiver: Option<String>,
        is_lambda: bool,
    ) {
        if name.is_empty() {
            return;
        }
        let mut decorators = Vec::new();
        let mut is_static = false;
        let mut is_classmethod = false;
        if self.lang == Lang::Python
            && let Some(p) = node.parent()
            && p.kind() == "decorated_definition"
        {
            let mut cur = p.walk();
            for ch in p.named_children(&mut cur) {
                if ch.kind() == "decorator"
                    && let Some(e) = ch.named_child(0)
                    && let Some(segs) = self.segs(e)
                {
                    match segs.as_slice() {
                        [Seg::Name(n)] if n == "staticmethod" => is_static = true,
                        [Seg::Name(n)] if n == "classmethod" => is_classmethod = true,
                        _ => {}
                    }
                    decorators.push(segs);
                }
            }
        }
        // Ruby `def self.name` is a class method.
        if self.lang == Lang::Ruby && node.kind() == "singleton_method" {
            is_classmethod = true;
        }
        self.facts.defs.push(Def {
            kind,
            name,
            start_line: node.start_position().row as u32 + 1,
            end_line: node.end_position().row as u32 + 1,
            start_byte: node.start_byte() as u32,
            end_byte: node.end_byte() as u32,
            scope_start: scope.start_byte() as u32,
            scope_end: scope.end_byte() as u32,
            parent: None,
            bases,
            decorators,
            params: Vec::new(),
            param_types: Vec::new(),
            return_type: None,
            is_lambda,
            receiver,
            merged_into: None,
            is_static,
            is_classmethod,
            is_namespace: false,
            defaults: Vec::new(),
            star: None,
            kwstar: None,
            lambda_no: 0,
        });
    }

    fn generic_defs(&mut self, root: Node<'t>, budget: Option<&Budget>) -> Result<(), String> {
        let q = generic_query(self.lang)?;
        let mut cursor = QueryCursor::new();
        let mut found = Vec::new();
        let unlimited = Budget::unlimited();
        let mut progress = budget.unwrap_or(&unlimited).query_progress();
        let mut it = cursor.matches_with_options(
            q,
            root,
            self.src,
            QueryCursorOptions::new().progress_callback(&mut progress),
        );
        while let Some(m) = it.next() {
            let (mut node, mut name) = (None, None);
            for c in m.captures() {
                if c.index == 0 {
                    name = Some(c.node);
                } else {
                    node = Some(c.node);
                }
            }
            let (Some(node), Some(name)) = (node, name) else {
                continue;
            };
            let k = node.kind();
            let kind = if ["class", "struct", "interface", "enum", "trait", "module"]
                .iter()
                .any(|w| k.contains(w))
            {
                DefKind::Class
            } else if ["function", "method", "constructor"]
                .iter()
                .any(|w| k.contains(w))
            {
                DefKind::Func
            } else {
                continue;
            };
            found.push((node, kind, self.text(name)));
        }
        for (node, kind, name) in found {
            let body = node.child_by_field_name("body").unwrap_or(node);
            self.add_def(node, body, kind, name, Vec::new(), None, false);
        }
        Ok(())
    }

    fn params(&self, p: Node) -> Vec<String> {
        let mut out = Vec::new();
        let mut cur = p.walk();
        for ch in p.named_children(&mut cur) {
            if ch.kind() == "comment" {
                continue;
            }
            if IDENT_KINDS.contains(&ch.kind()) {
                out.push(self.text(ch));
                continue;
            }
            let named = ["name", "pattern", "left"]
                .iter()
                .find_map(|f| ch.child_by_field_name(f))
                .filter(|n| n.kind() == "identifier");
            if let Some(n) = named.or_else(|| first_identifier(ch)) {
                out.push(self.text(n));
            }
        }
        out
    }

    /// The declared types of the parameters, aligned with [`Extractor::params`].
    fn param_types(&self, p: Node) -> Vec<Option<Vec<Seg>>> {
        let mut out = Vec::new();
        let mut cur = p.walk();
        for ch in p.named_children(&mut cur) {
            if ch.kind() == "comment" {
                continue;
            }
            if IDENT_KINDS.contains(&ch.kind()) {
                out.push(None);
                continue;
            }
            let named = ["name", "pattern", "left"]
                .iter()
                .find_map(|f| ch.child_by_field_name(f))
                .filter(|n| n.kind() == "identifier");
            if named.or_else(|| first_identifier(ch)).is_none() {
                continue;
            }
            out.push(
                ch.child_by_field_name("type")
                    .and_then(|t| self.type_segs(t, 0)),
            );
        }
        out
    }

    /// A type as segments: `Item`, `pkg.Item`, `&mut Item`, `*Item`, `: Item`, `Item<T>`.
    fn type_segs(&self, t: Node, depth: u32) -> Option<Vec<Seg>> {
        if depth > 8 {
            return None;
        }
        match t.kind() {
            "type_annotation" | "type" | "pointer_type" | "nullable_type" => {
                self.type_segs(t.named_child(0)?, depth + 1)
            }
            "reference_type" => self.type_segs(t.child_by_field_name("type")?, depth + 1),
            "generic_type" => {
                let inner = t
                    .child_by_field_name("type")
                    .or_else(|| t.child_by_field_name("name"))
                    .or_else(|| t.named_child(0))?;
                self.type_segs(inner, depth + 1)
            }
            _ => self.segs(t),
        }
    }

    /// A dotted expression as segments, or `None` when it is not one.
    /// The callee of `receiver.name(...)` (Java's method invocations, Ruby's calls): the
    /// receiver's segments followed by the name, and the call as written. `None` without a name.
    fn receiver_call(
        &self,
        n: Node,
        receiver_field: &str,
        name_field: &str,
    ) -> Option<(Option<Vec<Seg>>, String)> {
        let receiver = n.child_by_field_name(receiver_field);
        let name = n.child_by_field_name(name_field)?;
        let mut segs = match receiver {
            Some(o) => self.segs(o),
            None => Some(Vec::new()),
        };
        if let Some(s) = segs.as_mut() {
            s.push(Seg::Name(self.text(name)));
        }
        let text = match receiver {
            Some(o) => format!("{}.{}", self.text(o), self.text(name)),
            None => self.text(name),
        };
        Some((segs, text))
    }

    fn segs(&self, n: Node) -> Option<Vec<Seg>> {
        let mut out = Vec::new();
        self.segs_into(n, &mut out, 0)?;
        Some(out)
    }

    fn segs_into(&self, n: Node, out: &mut Vec<Seg>, depth: u32) -> Option<()> {
        if depth > 64 {
            return None;
        }
        let k = n.kind();
        let field = |f: &str| n.child_by_field_name(f);
        match k {
            "this" | "self" => out.push(Seg::Name(k.to_string())),
            "super" => out.push(Seg::Super),
            "base" if self.lang == Lang::CSharp => out.push(Seg::Super),
            "this_expression" => out.push(Seg::Name("this".into())),
            "base_expression" => out.push(Seg::Super),
            _ if IDENT_KINDS.contains(&k) => out.push(Seg::Name(self.text(n))),
            "subscript" | "subscript_expression" => {
                let obj = field("value").or_else(|| field("object"))?;
                let key = field("subscript").or_else(|| field("index"))?;
                // Python `xs[1:]`: a new sequence holding some of the elements (those between
                // constant bounds, else any of them), at positions not known statically.
                if self.lang == Lang::Python && key.kind() == "slice" {
                    let mut any = self.segs(obj)?;
                    any.push(Seg::Index(self.slice_key(key)));
                    out.push(Seg::Lit(self.holding_any(n, any)));
                    return Some(());
                }
                self.segs_into(obj, out, depth + 1)?;
                // Python: a key known only at run time may be any of the container's keys.
                let key = match self.literal_key(key) {
                    Some(k) => k,
                    None if self.lang == Lang::Python && key.kind() != "slice" => "*".into(),
                    None => return None,
                };
                out.push(Seg::Index(key));
            }
            "attribute" => {
                self.segs_into(field("object")?, out, depth + 1)?;
                out.push(Seg::Name(self.text(field("attribute")?)));
            }
            "member_expression" => {
                self.segs_into(field("object")?, out, depth + 1)?;
                out.push(Seg::Name(self.text(field("property")?)));
            }
            "selector_expression" => {
                self.segs_into(field("operand")?, out, depth + 1)?;
                out.push(Seg::Name(self.text(field("field")?)));
            }
            "field_expression" => {
                let obj = field("value").or_else(|| field("argument"))?;
                self.segs_into(obj, out, depth + 1)?;
                out.push(Seg::Name(self.text(field("field")?)));
            }
            "scoped_identifier" | "scoped_type_identifier" => {
                if let Some(p) = field("path") {
                    self.segs_into(p, out, depth + 1)?;
                } else if let Some(s) = field("scope") {
                    self.segs_into(s, out, depth + 1)?;
                }
                out.push(Seg::Name(self.text(field("name")?)));
            }
            "qualified_identifier" | "scope_resolution" => {
                if let Some(s) = field("scope") {
                    self.segs_into(s, out, depth + 1)?;
                }
                let name = field("name")?;
                self.segs_into(name, out, depth + 1)?;
            }
            "member_access_expression" => {
                self.segs_into(field("expression")?, out, depth + 1)?;
                out.push(Seg::Name(self.text(field("name")?)));
            }
            "field_access" => {
                self.segs_into(field("object")?, out, depth + 1)?;
                out.push(Seg::Name(self.text(field("field")?)));
            }
            "qualified_name" => {
                self.segs_into(field("qualifier")?, out, depth + 1)?;
                out.push(Seg::Name(self.text(field("name")?)));
            }
            "qualified_type" => {
                self.segs_into(field("package")?, out, depth + 1)?;
                out.push(Seg::Name(self.text(field("name")?)));
            }
            "generic_name" | "generic_type" | "template_type" | "template_function" => {
                let inner = field("name").or_else(|| n.named_child(0))?;
                self.segs_into(inner, out, depth + 1)?;
            }
            "generic_function" => {
                self.segs_into(field("function")?, out, depth + 1)?;
            }
            "parenthesized_expression" | "non_null_expression" | "await" | "await_expression" => {
                self.segs_into(n.named_child(0)?, out, depth + 1)?;
            }
            // `(x := v)` is `v`.
            "named_expression" if self.lang == Lang::Python => {
                self.segs_into(field("value")?, out, depth + 1)?;
            }
            "pointer_expression" | "unary_expression" | "reference_expression" => {
                let inner = field("argument")
                    .or_else(|| field("operand"))
                    .or_else(|| field("value"))?;
                self.segs_into(inner, out, depth + 1)?;
            }
            "dictionary"
            | "list"
            | "tuple"
            | "set"
            | "expression_list"
            | "list_comprehension"
            | "set_comprehension"
            | "dictionary_comprehension"
            | "generator_expression"
                if self.lang == Lang::Python =>
            {
                out.push(Seg::Lit(self.literal(n)));
            }
            // `a if c else b` is either: a pair whose elements iterating gives.
            "conditional_expression" if self.lang == Lang::Python => {
                out.push(Seg::Lit(self.either(n)?));
                out.push(Seg::Iter);
            }
            // `a + b` is what `a.__add__(b)` returns (nothing known unless `a` is an
            // instance of a class of the repository that defines it).
            "binary_operator" if self.lang == Lang::Python => {
                let d = binary_dunder(field("operator")?.kind())?;
                self.segs_into(field("left")?, out, depth + 1)?;
                out.push(Seg::Name(d.to_string()));
                out.push(Seg::Call);
            }
            "lambda" if self.lang == Lang::Python => {
                let d = self.facts.defs.iter().position(|d| {
                    d.start_byte == n.start_byte() as u32 && d.kind == DefKind::Func
                })?;
                out.push(Seg::Lambda(d as u32));
            }
            "call" if self.lang == Lang::Python => {
                let f = field("function")?;
                if f.kind() == "identifier" && self.text(f) == "super" {
                    // `super(Mid, self)`: the lookup starts after `Mid` (a class, then `Super`).
                    if let Some(args) = field("arguments")
                        && let Some(cls) = args.named_child(0)
                        && matches!(cls.kind(), "identifier" | "attribute")
                        && args.named_child_count() == 2
                    {
                        self.segs_into(cls, out, depth + 1)?;
                    }
                    out.push(Seg::Super);
                } else if let Some(l) = self.with_default(n) {
                    out.push(Seg::Lit(l));
                    out.push(Seg::Iter);
                } else if let Some(key) = self.get_key(n) {
                    self.segs_into(f.child_by_field_name("object")?, out, depth + 1)?;
                    out.push(Seg::Get(key));
                } else if let Some(key) = self.pop_key(n) {
                    self.segs_into(f.child_by_field_name("object")?, out, depth + 1)?;
                    out.push(Seg::Pop(key));
                } else if let Some(l) = self.dict_call(n) {
                    out.push(Seg::Lit(l));
                } else if let Some((arg, seg)) = self.builtin_view(n) {
                    self.segs_into(arg, out, depth + 1)?;
                    out.extend(seg);
                } else {
                    self.segs_into(f, out, depth + 1)?;
                    out.push(Seg::Call);
                }
            }
            "call" if self.lang == Lang::Ruby => {
                if let Some(r) = field("receiver") {
                    self.segs_into(r, out, depth + 1)?;
                }
                out.push(Seg::Name(self.text(field("method")?)));
                out.push(Seg::Call);
            }
            "explicit_constructor_invocation" => {
                self.segs_into(field("constructor")?, out, depth + 1)?;
            }
            "call_expression" | "invocation_expression" => {
                self.segs_into(field("function")?, out, depth + 1)?;
                out.push(Seg::Call);
            }
            "method_invocation" => {
                if let Some(o) = field("object") {
                    self.segs_into(o, out, depth + 1)?;
                }
                out.push(Seg::Name(self.text(field("name")?)));
                out.push(Seg::Call);
            }
            "new_expression" => {
                let t = field("constructor").or_else(|| field("type"))?;
                self.segs_into(t, out, depth + 1)?;
                out.push(Seg::Call);
            }
            "object_creation_expression" => {
                self.segs_into(field("type")?, out, depth + 1)?;
                out.push(Seg::Call);
            }
            "composite_literal" | "struct_expression" => {
                let t = field("type").or_else(|| field("name"))?;
                self.segs_into(t, out, depth + 1)?;
                out.push(Seg::Call);
            }
            _ => return None,
        }
        Some(())
    }

    /// Default values and the star parameters of the Python function starting at `start`.
    fn defaults(&mut self, start: u32, p: Node) {
        let Some(d) = self
            .facts
            .defs
            .iter()
            .position(|d| d.start_byte == start && d.kind == DefKind::Func)
        else {
            return;
        };
        let mut defaults = Vec::new();
        let (mut star, mut kwstar) = (None, None);
        let mut cur = p.walk();
        let mut i = 0u32;
        for ch in p.named_children(&mut cur) {
            if ch.kind() == "comment" {
                continue;
            }
            // Only the parameters `params` lists (a bare `*` or `/` is none).
            if !IDENT_KINDS.contains(&ch.kind())
                && ["name", "pattern", "left"]
                    .iter()
                    .find_map(|f| ch.child_by_field_name(f))
                    .filter(|n| n.kind() == "identifier")
                    .or_else(|| first_identifier(ch))
                    .is_none()
            {
                continue;
            }
            match ch.kind() {
                "list_splat_pattern" => star = Some(i),
                "dictionary_splat_pattern" => kwstar = Some(i),
                _ => {}
            }
            defaults.push(
                ch.child_by_field_name("value")
                    .filter(|_| ch.kind().ends_with("default_parameter"))
                    .and_then(|v| self.segs(v)),
            );
            i += 1;
        }
        let def = &mut self.facts.defs[d];
        def.defaults = defaults;
        def.star = star;
        def.kwstar = kwstar;
    }

    /// The index of a literal container, recorded on first sight.
    fn literal(&self, n: Node) -> u32 {
        if let Some(&i) = self.lits.borrow().1.get(&n.start_byte()) {
            return i;
        }
        // Elements that are no dotted expression (numbers, strings, calls with arguments) are
        // never a value the resolver follows: big data tables cost nothing.
        let mut elements = self.elements(n);
        // The last element of a sequence stays, whatever it is: it gives the length, which
        // indexes from the end (`xs[-1]`) need.
        let last = elements.len().saturating_sub(1);
        let mut i = 0;
        elements.retain(|(_, v)| {
            i += 1;
            v.is_some() || i - 1 == last
        });
        let dict = matches!(n.kind(), "dictionary" | "dictionary_comprehension");
        self.add_container(n.start_byte(), n, dict, elements)
    }

    /// The two values of a conditional expression as a literal pair (recorded once, under a
    /// key no literal node has: the pair starts where its first value does).
    fn either(&self, n: Node) -> Option<u32> {
        let key = usize::MAX - n.start_byte();
        if let Some(&i) = self.lits.borrow().1.get(&key) {
            return Some(i);
        }
        let branches = named_parts(n);
        let [a, _cond, b] = branches.as_slice() else {
            return None;
        };
        Some(self.pair(key, n, *a, *b))
    }

    /// `lo:hi` for a slice with integer bounds (either may be missing) and no step; `*`
    /// (any element) otherwise.
    fn slice_key(&self, slice: Node) -> String {
        let mut parts = vec![String::new()];
        let mut cur = slice.walk();
        for ch in slice.children(&mut cur) {
            match ch.kind() {
                ":" => parts.push(String::new()),
                "integer" => {
                    if let Some(p) = parts.last_mut() {
                        *p = self.text(ch);
                    }
                }
                "comment" => {}
                _ => return "*".into(),
            }
        }
        match parts.as_slice() {
            [lo, hi] => format!("{lo}:{hi}"),
            _ => "*".into(),
        }
    }

    /// A literal sequence of these elements, made for node `n` (recorded once under `key`,
    /// which no literal node uses).
    fn add_literal(&self, key: usize, n: Node, elements: Vec<(String, Option<Vec<Seg>>)>) -> u32 {
        self.add_container(key, n, false, elements)
    }

    /// A literal container made for node `n`, recorded once under `key`.
    fn add_container(
        &self,
        key: usize,
        n: Node,
        dict: bool,
        elements: Vec<(String, Option<Vec<Seg>>)>,
    ) -> u32 {
        if let Some(&i) = self.lits.borrow().1.get(&key) {
            return i;
        }
        let lit = LitFact {
            scope: self.scope_of(n.start_byte() as u32),
            line: n.start_position().row as u32 + 1,
            dict,
            elements,
        };
        let mut l = self.lits.borrow_mut();
        let i = l.0.len() as u32;
        l.0.push(lit);
        l.1.insert(key, i);
        i
    }

    /// A literal sequence holding `value` at positions not known statically (recorded once,
    /// under a key no literal node and no pair uses).
    fn holding_any(&self, n: Node, value: Vec<Seg>) -> u32 {
        let key = usize::MAX / 4 - n.start_byte();
        self.add_literal(key, n, vec![("*".into(), Some(value))])
    }

    /// `a` or `b`, as a literal pair recorded under `key` (see [`Self::either`]).
    fn pair(&self, key: usize, n: Node, a: Node, b: Node) -> u32 {
        if let Some(&i) = self.lits.borrow().1.get(&key) {
            return i;
        }
        let elements: Vec<(String, Option<Vec<Seg>>)> = [a, b]
            .iter()
            .enumerate()
            .filter_map(|(i, x)| Some((i.to_string(), Some(self.segs(*x)?))))
            .collect();
        self.add_literal(key, n, elements)
    }

    /// Builtins whose result is a view of their argument: `getattr(x, "name")` is `x.name`,
    /// `next(x)` one value of iterating over `x`, `iter(x)` what iterating gives as `x` does.
    fn builtin_view<'n>(&self, call: Node<'n>) -> Option<(Node<'n>, Option<Seg>)> {
        let f = call.child_by_field_name("function")?;
        if f.kind() != "identifier" && self.text(f) != "functools.partial" {
            return None;
        }
        let args = call.child_by_field_name("arguments")?;
        if args.kind() != "argument_list" {
            return None;
        }
        let a = named_parts(args);
        match (self.text(f).as_str(), a.as_slice()) {
            ("getattr", [obj, name]) if name.kind() == "string" => {
                let key = self.literal_key(*name)?;
                let key = key.strip_prefix('\'').unwrap_or(&key).to_string();
                Some((*obj, Some(Seg::Name(key))))
            }
            ("next", [it]) => Some((*it, Some(Seg::Iter))),
            // `type(x)` is `x.__class__`: the class of an instance.
            ("type", [x]) if x.kind() != "keyword_argument" => {
                Some((*x, Some(Seg::Name("__class__".into()))))
            }
            // `partial(f, ...)` is called as `f` is (with some arguments bound).
            ("partial" | "functools.partial", [f, ..]) if f.kind() != "keyword_argument" => {
                Some((*f, None))
            }
            ("iter", [it]) => Some((*it, None)),
            _ => None,
        }
    }

    /// `d.get(key, default)` and `getattr(obj, name, default)`: either what the lookup finds
    /// (any value of `d` for a key known only at run time; nothing followed for an attribute
    /// name known only at run time) or the default, as a literal pair.
    fn with_default(&self, call: Node) -> Option<u32> {
        let f = call.child_by_field_name("function")?;
        let args = call.child_by_field_name("arguments")?;
        if args.kind() != "argument_list" {
            return None;
        }
        let a = named_parts(args);
        if a.iter().any(|x| {
            matches!(
                x.kind(),
                "keyword_argument" | "list_splat" | "dictionary_splat"
            )
        }) {
            return None;
        }
        let (found, default) = match (f.kind(), a.as_slice()) {
            ("attribute", [key, default])
                if self.text(f.child_by_field_name("attribute")?) == "get" =>
            {
                let mut found = self.segs(f.child_by_field_name("object")?)?;
                found.push(Seg::Get(
                    self.literal_key(*key).unwrap_or_else(|| "*".into()),
                ));
                (Some(found), *default)
            }
            ("identifier", [obj, name, default]) if self.text(f) == "getattr" => {
                let found = match self.literal_key(*name) {
                    Some(k) if name.kind() == "string" => {
                        let k = k.strip_prefix('\'').unwrap_or(&k).to_string();
                        self.segs(*obj).map(|mut v| {
                            v.push(Seg::Name(k));
                            v
                        })
                    }
                    _ => None,
                };
                (found, *default)
            }
            _ => return None,
        };
        let default = self.segs(default);
        let elements: Vec<(String, Option<Vec<Seg>>)> = [found, default]
            .into_iter()
            .enumerate()
            .filter_map(|(i, v)| Some((i.to_string(), Some(v?))))
            .collect();
        Some(self.add_literal(usize::MAX / 8 - call.start_byte(), call, elements))
    }

    /// The key of `x.get("key")` (or `x.get("key", default)`).
    fn get_key(&self, call: Node) -> Option<String> {
        let f = call.child_by_field_name("function")?;
        if f.kind() != "attribute" || self.text(f.child_by_field_name("attribute")?) != "get" {
            return None;
        }
        let args = call.child_by_field_name("arguments")?;
        self.literal_key(args.named_child(0)?)
    }

    /// Innermost definition whose scope holds `byte`.
    fn scope_of(&self, byte: u32) -> Option<u32> {
        let defs = &self.facts.defs;
        let i = defs.partition_point(|d| d.start_byte <= byte);
        let mut cur = if i == 0 { None } else { Some(i as u32 - 1) };
        while let Some(c) = cur {
            let d = &defs[c as usize];
            if d.scope_start <= byte && byte < d.scope_end.max(d.scope_start + 1) {
                return Some(c);
            }
            cur = match self.lex_parent.get(c as usize) {
                Some(&p) if self.lang == Lang::Python => p,
                _ => d.parent,
            };
        }
        None
    }

    fn finish_defs(&mut self) {
        let defs = &mut self.facts.defs;
        // A named lambda is also an anonymous scope: the named definition sorts first and wins.
        defs.sort_by(|a, b| {
            a.start_byte
                .cmp(&b.start_byte)
                .then(b.end_byte.cmp(&a.end_byte))
                .then((a.kind == DefKind::Scope).cmp(&(b.kind == DefKind::Scope)))
        });
        // The same node can be captured by two patterns; keep it once.
        // A node matched once per base class keeps all of its bases.
        defs.dedup_by(|b, a| {
            let same = a.start_byte == b.start_byte
                && a.end_byte == b.end_byte
                && (a.kind == b.kind || b.kind == DefKind::Scope);
            if same {
                for base in std::mem::take(&mut b.bases) {
                    if !a.bases.contains(&base) {
                        a.bases.push(base);
                    }
                }
            }
            same
        });
        let mut stack: Vec<u32> = Vec::new();
        for i in 0..defs.len() {
            while let Some(&top) = stack.last() {
                if defs[top as usize].end_byte > defs[i].start_byte
                    && defs[i].end_byte <= defs[top as usize].end_byte
                {
                    break;
                }
                stack.pop();
            }
            // Python: a definition in a function's header (a lambda as a default value) is
            // made where the `def` runs, in the enclosing scope, not in the function.
            let start = defs[i].start_byte;
            self.lex_parent.push(stack.last().copied());
            defs[i].parent = if self.lang == Lang::Python {
                stack.iter().rev().copied().find(|&t| {
                    let t = &defs[t as usize];
                    t.kind != DefKind::Func || (t.scope_start <= start && start < t.scope_end)
                })
            } else {
                stack.last().copied()
            };
            stack.push(i as u32);
        }
        if self.lang == Lang::Python {
            // An anonymous lambda is a function of its own, named the way call-graph tools
            // name it: `<lambdaN>`, counting every lambda of the enclosing scope in order.
            let mut counts: std::collections::HashMap<Option<u32>, u32> = Default::default();
            for d in defs.iter_mut() {
                if !d.is_lambda || !matches!(d.kind, DefKind::Func | DefKind::Scope) {
                    continue;
                }
                let n = counts.entry(d.parent).or_insert(0);
                *n += 1;
                d.lambda_no = *n;
                if d.kind == DefKind::Scope {
                    d.kind = DefKind::Func;
                    d.name = format!("<lambda{n}>");
                }
            }
        }
        self.attach_methods();
        self.break_cycles();
    }

    /// Rust `impl` blocks, Go receivers and C++ `Foo::bar` definitions: the method belongs to
    /// the type it names, when that type is defined in the same file.
    fn attach_methods(&mut self) {
        let n = self.facts.defs.len();
        for i in 0..n {
            let d = &self.facts.defs[i];
            if d.kind == DefKind::Impl {
                let (name, parent) = (d.name.clone(), d.parent);
                let target = (0..n).find(|&j| {
                    let t = &self.facts.defs[j];
                    t.kind == DefKind::Class && t.name == name && t.parent == parent
                });
                if let Some(t) = target {
                    let bases = self.facts.defs[i].bases.clone();
                    self.facts.defs[t].bases.extend(bases);
                    self.facts.defs[i].merged_into = Some(t as u32);
                    for j in 0..n {
                        if self.facts.defs[j].parent == Some(i as u32) {
                            self.facts.defs[j].parent = Some(t as u32);
                        }
                    }
                } else {
                    self.facts.defs[i].kind = DefKind::Class;
                }
            } else if d.kind == DefKind::Func
                && let Some(recv) = d.receiver.clone()
            {
                let short = recv.rsplit("::").next().unwrap_or(&recv).to_string();
                let (start, end) = (d.start_byte, d.end_byte);
                // Not a type declared inside the method itself.
                let target = (0..n).find(|&j| {
                    let t = &self.facts.defs[j];
                    t.kind == DefKind::Class
                        && t.name == short
                        && j != i
                        && !(start <= t.start_byte && t.end_byte <= end)
                });
                match target {
                    Some(t) => self.facts.defs[i].parent = Some(t as u32),
                    None => {
                        // A type defined elsewhere: an implicit class node in this file.
                        let mut c = self.facts.defs[i].clone();
                        c.kind = DefKind::Class;
                        c.name = short;
                        c.receiver = None;
                        c.params.clear();
                        c.scope_start = c.start_byte;
                        c.scope_end = c.start_byte;
                        c.merged_into = None;
                        self.facts.defs.push(c);
                        let t = self.facts.defs.len() - 1;
                        self.facts.defs[i].parent = Some(t as u32);
                    }
                }
            }
        }
    }

    /// Re-parenting must never make a definition its own ancestor (every walk up the parents
    /// relies on it); a definition caught in a cycle is moved to the top level.
    fn break_cycles(&mut self) {
        let n = self.facts.defs.len();
        for i in 0..n {
            let mut cur = self.facts.defs[i].parent;
            let mut steps = 0;
            while let Some(p) = cur {
                steps += 1;
                if p as usize == i || steps > n {
                    self.facts.defs[i].parent = None;
                    break;
                }
                cur = self.facts.defs.get(p as usize).and_then(|d| d.parent);
            }
        }
    }

    fn finish_pending(&mut self) {
        let pending = std::mem::take(&mut self.pending);
        for p in pending {
            match p {
                Pending::Call(n) => self.call(n),
                Pending::Decorator(n) => {
                    if let Some(segs) = self.segs(n) {
                        let scope = self.scope_of(n.start_byte() as u32);
                        let decorates = n
                            .parent()
                            .and_then(|d| d.parent())
                            .and_then(|dd| dd.child_by_field_name("definition"))
                            .and_then(|def| {
                                self.facts
                                    .defs
                                    .iter()
                                    .position(|x| x.start_byte == def.start_byte() as u32)
                            })
                            .map(|i| i as u32);
                        self.facts.calls.push(CallSite {
                            scope,
                            callee: segs,
                            text: self.text(n),
                            line: n.start_position().row as u32 + 1,
                            is_new: false,
                            args: Vec::new(),
                            kwargs: Vec::new(),
                            spread: false,
                            decorates,
                            maybe: false,
                            via: None,
                            prop: 0,
                            kwsplat: None,
                        });
                    }
                }
                Pending::Import(n) => self.import(n),
                Pending::Prop(n) => self.prop(n),
                Pending::Maybe(n) => {
                    let scope = self.scope_of(n.start_byte() as u32);
                    let name = self.text(n);
                    self.facts.calls.push(CallSite {
                        maybe: true,
                        ..CallSite::bare(
                            scope,
                            vec![Seg::Name(name.clone())],
                            name,
                            n.start_position().row as u32 + 1,
                        )
                    });
                }
                Pending::Assign {
                    node,
                    left,
                    right,
                    ty,
                } => self.assign(node, left, right, ty),
                Pending::Bind(n) => {
                    let scope = self.scope_of(n.start_byte() as u32);
                    let line = n.start_position().row as u32 + 1;
                    for id in identifiers(n) {
                        let name = self.text(id);
                        self.facts.binds.push(BindFact { scope, name, line });
                    }
                }
                Pending::Global(n) => {
                    let scope = self.scope_of(n.start_byte() as u32);
                    let line = n.start_position().row as u32 + 1;
                    let name = self.text(n);
                    self.facts.globals.push(BindFact { scope, name, line });
                }
                Pending::Return(n, v) => {
                    let scope = self.scope_of(n.start_byte() as u32);
                    let mut value = v.and_then(|v| self.segs(v));
                    let yields = n.kind() == "yield";
                    // `yield from g` yields what iterating over `g` gives.
                    if yields
                        && self.lang == Lang::Python
                        && n.child(1).is_some_and(|c| c.kind() == "from")
                        && let Some(v) = value.as_mut()
                    {
                        v.push(Seg::Iter);
                    }
                    self.facts.returns.push(ReturnFact {
                        scope,
                        value,
                        yields,
                    });
                }
                Pending::Except(n, types, name) => {
                    let scope = self.scope_of(n.start_byte() as u32);
                    let line = n.start_position().row as u32 + 1;
                    // `except (A, B) as e`: one of the classes, constructed.
                    let value = match types.as_slice() {
                        [t] => self.segs(*t).map(|mut v| {
                            if matches!(v.as_slice(), [Seg::Lit(_)]) {
                                v.push(Seg::Iter);
                            }
                            v.push(Seg::Call);
                            v
                        }),
                        _ => None,
                    };
                    self.facts.assigns.push(AssignFact::plain(
                        scope,
                        vec![self.text(name)],
                        value,
                        line,
                    ));
                }
                Pending::Params(start, p) => self.defaults(start, p),
                Pending::With(n) => self.with_item(n),
                Pending::LambdaBody(start, body) => {
                    let d = self
                        .facts
                        .defs
                        .iter()
                        .position(|d| d.start_byte == start && d.kind == DefKind::Func);
                    if let Some(d) = d {
                        let value = self.segs(body);
                        self.facts.returns.push(ReturnFact {
                            scope: Some(d as u32),
                            value,
                            yields: false,
                        });
                    }
                }
                Pending::Iter(n, left, right) if left.kind() != "identifier" => {
                    self.pair_loop(n, left, right)
                }
                Pending::Iter(n, left, right) => {
                    let scope = self.scope_of(n.start_byte() as u32);
                    let line = n.start_position().row as u32 + 1;
                    if let Some(mut value) = self.segs(right) {
                        // The loop calls `__iter__` on what it iterates, then `__next__` on the
                        // iterator: edges only when those are methods of a known class.
                        let mut iter = value.clone();
                        iter.push(Seg::Name("__iter__".into()));
                        let mut next = iter.clone();
                        next.extend([Seg::Call, Seg::Name("__next__".into())]);
                        for callee in [iter, next] {
                            self.facts.calls.push(CallSite {
                                maybe: true,
                                ..CallSite::bare(scope, callee, String::new(), line)
                            });
                        }
                        value.push(Seg::Iter);
                        self.facts.assigns.push(AssignFact::plain(
                            scope,
                            vec![self.text(left)],
                            Some(value),
                            line,
                        ));
                    }
                }
            }
        }
        // Parameters are local bindings of unknown value.
        for (i, d) in self.facts.defs.iter().enumerate() {
            for p in &d.params {
                self.facts.binds.push(BindFact {
                    scope: Some(i as u32),
                    name: p.clone(),
                    line: d.start_line,
                });
            }
        }
    }

    fn call(&mut self, n: Node) {
        let line = n.start_position().row as u32 + 1;
        let scope = self.scope_of(n.start_byte() as u32);
        let field = |f: &str| n.child_by_field_name(f);
        let (callee, text, is_new) = match n.kind() {
            "new_expression" | "object_creation_expression" => {
                let Some(t) = field("constructor").or_else(|| field("type")) else {
                    return;
                };
                (self.segs(t), self.text(t), true)
            }
            "method_invocation" => {
                let Some((segs, text)) = self.receiver_call(n, "object", "name") else {
                    return;
                };
                (segs, text, false)
            }
            "call" if self.lang == Lang::Ruby => {
                let Some((segs, text)) = self.receiver_call(n, "receiver", "method") else {
                    return;
                };
                (segs, text, false)
            }
            "command" => {
                let Some(name) = field("name") else { return };
                let t = self.text(name);
                (Some(vec![Seg::Name(t.clone())]), t, false)
            }
            // C# `: base(...)` and `: this(...)` before a constructor's body.
            "constructor_initializer" => {
                let t = self.text(n);
                let t = t.trim_start_matches(':').trim_start();
                if t.starts_with("base") {
                    (Some(vec![Seg::Super]), "base".to_string(), false)
                } else {
                    (
                        Some(vec![Seg::Name("this".into())]),
                        "this".to_string(),
                        false,
                    )
                }
            }
            // A JSX element renders a component, a call of it; `<div>` and `<my-widget>` are
            // the host's own elements, not code of the repository.
            "jsx_self_closing_element" | "jsx_opening_element" => {
                let Some(name) = field("name") else { return };
                let t = self.text(name);
                if !t.starts_with(|c: char| c.is_ascii_uppercase()) && !t.contains('.') {
                    return;
                }
                (self.segs(name), t, false)
            }
            "macro_invocation" => {
                let Some(m) = field("macro") else { return };
                let t = self.text(m);
                (self.segs(m), format!("{t}!"), false)
            }
            _ => {
                let Some(f) = field("function").or_else(|| n.named_child(0)) else {
                    return;
                };
                // `super()` is a call of the builtin (call-graph tools list it); what is called
                // through it is resolved from `Seg::Super`.
                if self.lang == Lang::Python && f.kind() == "identifier" && self.text(f) == "super"
                {
                    let t = self.text(f);
                    (Some(vec![Seg::Name(t.clone())]), t, false)
                } else {
                    (self.segs(f), self.text(f), false)
                }
            }
        };
        let text = squash(&text);
        let callee = callee.unwrap_or_default();
        let (args, kwargs, spread) = match field("arguments") {
            Some(a) => self.arguments(a),
            None => (Vec::new(), Vec::new(), false),
        };
        let callback = if self.lang == Lang::Python {
            callback_arg(&text, &args, &kwargs).cloned()
        } else {
            None
        };
        let outer = self.facts.calls.len() as u32;
        let code = if self.lang == Lang::Python && matches!(text.as_str(), "exec" | "eval") {
            field("arguments").and_then(|a| self.constant_code(a))
        } else {
            None
        };
        let kwsplat = if self.lang == Lang::Python {
            field("arguments").and_then(|a| {
                let mut cur = a.walk();
                let splats: Vec<Node> = a
                    .named_children(&mut cur)
                    .filter(|c| c.kind() == "dictionary_splat")
                    .collect();
                match splats.as_slice() {
                    [] => None,
                    [one] => self.segs(one.named_child(0)?),
                    // `f(**base, **extra)`: each dict gives keys, so the items are looked up
                    // in any of them (a sequence holding the dicts, iterated).
                    many => {
                        let elements = many
                            .iter()
                            .enumerate()
                            .map(|(i, d)| {
                                (i.to_string(), d.named_child(0).and_then(|x| self.segs(x)))
                            })
                            .collect();
                        let lit = self.add_literal(usize::MAX / 16 - a.start_byte(), a, elements);
                        Some(vec![Seg::Lit(lit), Seg::Iter])
                    }
                }
            })
        } else {
            None
        };
        self.facts.calls.push(CallSite {
            scope,
            callee,
            text,
            line,
            is_new,
            args,
            kwargs,
            spread,
            decorates: None,
            maybe: false,
            via: None,
            prop: 0,
            kwsplat,
        });
        // `exec("setup()")`: the calls in the string are made where exec runs. Kept only when
        // they resolve (`maybe`), since the name may mean the builtin `exec` of no one's code.
        for callee in code.unwrap_or_default() {
            let text = callee
                .iter()
                .filter_map(|s| match s {
                    Seg::Name(n) => Some(n.as_str()),
                    _ => None,
                })
                .collect::<Vec<_>>()
                .join(".");
            self.facts.calls.push(CallSite {
                maybe: true,
                ..CallSite::bare(scope, callee, text, line)
            });
        }
        if let Some(cb) = callback {
            self.facts.calls.push(CallSite {
                maybe: true,
                via: Some(outer),
                ..CallSite::bare(scope, cb, String::new(), line)
            });
        }
        if self.lang == Lang::Python {
            self.builtin_dunders(n, outer);
            self.setdefault_add(n);
            self.setattr_assign(n);
        }
    }

    /// `obj.name` not called: reads call a `@property` getter, assignments its setter
    /// (`obj.name += 1` both). Kept only when one is what it reaches.
    fn prop(&mut self, n: Node) {
        let Some(parent) = n.parent() else { return };
        let is = |f: &str| {
            parent
                .child_by_field_name(f)
                .is_some_and(|c| c.id() == n.id())
        };
        let kinds: &[u8] = match parent.kind() {
            "call" if is("function") => return,
            "decorator" => return,
            "assignment" if is("left") => &[2],
            "augmented_assignment" if is("left") => &[1, 2],
            "pattern_list" | "tuple_pattern" | "delete_statement" => return,
            _ => &[1],
        };
        let Some(callee) = self.segs(n) else { return };
        let scope = self.scope_of(n.start_byte() as u32);
        let line = n.start_position().row as u32 + 1;
        for &prop in kinds {
            self.facts.calls.push(CallSite {
                maybe: true,
                prop,
                ..CallSite::bare(scope, callee.clone(), String::new(), line)
            });
        }
    }

    /// `setattr(obj, "name", f)` with a constant name is `obj.name = f`.
    fn setattr_assign(&mut self, n: Node) {
        let (Some(f), Some(args)) = (
            n.child_by_field_name("function"),
            n.child_by_field_name("arguments"),
        ) else {
            return;
        };
        if f.kind() != "identifier" || self.text(f) != "setattr" {
            return;
        }
        let a = named_parts(args);
        let [obj, name, value] = a.as_slice() else {
            return;
        };
        if name.kind() != "string" || name.named_child_count() > 3 {
            return;
        }
        let attr = unquote(
            self.text(*name)
                .trim_start_matches(|c: char| c.is_ascii_alphabetic()),
        );
        if attr.is_empty() || !attr.chars().all(|c| c.is_alphanumeric() || c == '_') {
            return;
        }
        let Some(mut target) = self.segs(*obj).and_then(|s| {
            s.into_iter()
                .map(|s| match s {
                    Seg::Name(n) => Some(n),
                    _ => None,
                })
                .collect::<Option<Vec<_>>>()
        }) else {
            return;
        };
        target.push(attr);
        self.facts.assigns.push(AssignFact::plain(
            self.scope_of(n.start_byte() as u32),
            target,
            self.segs(*value),
            n.start_position().row as u32 + 1,
        ));
    }

    /// `d.setdefault(k, []).append(v)` puts a list holding `v` into `d` at a key not known
    /// statically: recorded as `d[*] = [v]`, with a literal made for the list.
    fn setdefault_add(&mut self, n: Node) {
        let Some(f) = n.child_by_field_name("function") else {
            return;
        };
        let (Some(inner), Some(m)) = (
            f.child_by_field_name("object"),
            f.child_by_field_name("attribute"),
        ) else {
            return;
        };
        let how = self.text(m);
        if inner.kind() != "call" || !matches!(how.as_str(), "append" | "add" | "extend") {
            return;
        }
        let Some(sf) = inner.child_by_field_name("function") else {
            return;
        };
        let (Some(obj), Some(sm)) = (
            sf.child_by_field_name("object"),
            sf.child_by_field_name("attribute"),
        ) else {
            return;
        };
        if obj.kind() != "identifier" || self.text(sm) != "setdefault" {
            return;
        }
        let Some(args) = n.child_by_field_name("arguments") else {
            return;
        };
        let mut cur = args.walk();
        let Some(Some(mut v)) = args
            .named_children(&mut cur)
            .find(|c| c.kind() != "comment")
            .map(|a| self.segs(a))
        else {
            return;
        };
        if how == "extend" {
            v.push(Seg::Iter);
        }
        let scope = self.scope_of(n.start_byte() as u32);
        let line = n.start_position().row as u32 + 1;
        let lit = {
            let mut l = self.lits.borrow_mut();
            l.0.push(LitFact {
                scope,
                line,
                dict: false,
                elements: vec![("*".into(), Some(v))],
            });
            l.0.len() as u32 - 1
        };
        self.facts.assigns.push(AssignFact::plain(
            scope,
            vec![self.text(obj), "[*]".into()],
            Some(vec![Seg::Lit(lit)]),
            line,
        ));
    }

    /// `len(x)` calls `x.__len__`, `str(x)` and `print(x)` call `x.__str__`, ...: calls kept
    /// only when the outer call is the builtin (`via`) and `x` is an instance of a class that
    /// defines the method (see `resolve`).
    fn builtin_dunders(&mut self, n: Node, outer: u32) {
        let Some(f) = n.child_by_field_name("function") else {
            return;
        };
        if f.kind() != "identifier" {
            return;
        }
        let name = self.text(f);
        let (dunder, all) = match name.as_str() {
            "len" => ("__len__", false),
            "str" => ("__str__", false),
            "print" => ("__str__", true),
            "repr" => ("__repr__", false),
            "iter" => ("__iter__", false),
            "next" => ("__next__", false),
            "hash" => ("__hash__", false),
            "abs" => ("__abs__", false),
            "reversed" => ("__reversed__", false),
            "format" => ("__format__", false),
            "int" => ("__int__", false),
            "float" => ("__float__", false),
            "bool" => ("__bool__", false),
            _ => return,
        };
        let Some(a) = n.child_by_field_name("arguments") else {
            return;
        };
        let mut cur = a.walk();
        let args: Vec<Node> = a
            .named_children(&mut cur)
            .filter(|c| c.kind() != "comment")
            .take_while(|c| !matches!(c.kind(), "list_splat" | "dictionary_splat"))
            .filter(|c| c.kind() != "keyword_argument")
            .collect();
        let take = if all { args.len() } else { args.len().min(1) };
        for arg in &args[..take] {
            self.push_dunder(n, *arg, dunder, Some(outer));
        }
    }

    /// A call of special method `name` on the value of `recv`, made implicitly by the
    /// expression `at` (an operator, a subscript, a builtin): kept only when it resolves to a
    /// method of a class of the repository reached through an instance.
    fn push_dunder(&mut self, at: Node, recv: Node, name: &str, via: Option<u32>) {
        let Some(mut callee) = self.segs(recv) else {
            return;
        };
        callee.push(Seg::Name(name.to_string()));
        self.facts.calls.push(CallSite {
            maybe: true,
            via,
            ..CallSite::bare(
                self.scope_of(at.start_byte() as u32),
                callee,
                String::new(),
                at.start_position().row as u32 + 1,
            )
        });
    }

    /// Python operators, subscripts and f-string fields call special methods of their
    /// operands: `a + b` is `a.__add__(b)`, `k in c` is `c.__contains__(k)`, `d[k] = v` is
    /// `d.__setitem__(k, v)`.
    fn operator_dunders(&mut self, root: Node) {
        let mut stack = vec![root];
        while let Some(n) = stack.pop() {
            let mut cur = n.walk();
            stack.extend(n.named_children(&mut cur));
            match n.kind() {
                "binary_operator" => {
                    let (Some(l), Some(op)) = (
                        n.child_by_field_name("left"),
                        n.child_by_field_name("operator"),
                    ) else {
                        continue;
                    };
                    let Some(d) = binary_dunder(op.kind()) else {
                        continue;
                    };
                    self.push_dunder(n, l, d, None);
                }
                "unary_operator" => {
                    let (Some(a), Some(op)) = (
                        n.child_by_field_name("argument"),
                        n.child_by_field_name("operator"),
                    ) else {
                        continue;
                    };
                    let d = match op.kind() {
                        "-" => "__neg__",
                        "+" => "__pos__",
                        "~" => "__invert__",
                        _ => continue,
                    };
                    self.push_dunder(n, a, d, None);
                }
                "comparison_operator" => {
                    // Operands are the named children, operators the tokens between them;
                    // `a < b < c` compares each neighbouring pair.
                    let mut cur = n.walk();
                    let parts: Vec<Node> = n
                        .children(&mut cur)
                        .filter(|c| c.kind() != "comment")
                        .collect();
                    let mut i = 1;
                    while i + 1 < parts.len() {
                        let (l, op, r) = (parts[i - 1], parts[i], parts[i + 1]);
                        let pair = match op.kind() {
                            "==" => Some((l, "__eq__")),
                            "!=" => Some((l, "__ne__")),
                            "<" => Some((l, "__lt__")),
                            "<=" => Some((l, "__le__")),
                            ">" => Some((l, "__gt__")),
                            ">=" => Some((l, "__ge__")),
                            "in" | "not in" => Some((r, "__contains__")),
                            _ => None,
                        };
                        if let Some((recv, d)) = pair {
                            self.push_dunder(n, recv, d, None);
                        }
                        i += 2;
                    }
                }
                "subscript" => {
                    let Some(v) = n.child_by_field_name("value") else {
                        continue;
                    };
                    let mut p = n.parent();
                    let mut child = n;
                    // Targets may sit in a tuple or list of targets.
                    while let Some(q) = p
                        && matches!(
                            q.kind(),
                            "pattern_list" | "tuple_pattern" | "expression_list"
                        )
                    {
                        child = q;
                        p = q.parent();
                    }
                    let is_left =
                        |q: Node| q.child_by_field_name("left").map(|l| l.id()) == Some(child.id());
                    match p {
                        Some(q) if q.kind() == "assignment" && is_left(q) => {
                            self.push_dunder(n, v, "__setitem__", None);
                        }
                        Some(q) if q.kind() == "augmented_assignment" && is_left(q) => {
                            self.push_dunder(n, v, "__getitem__", None);
                            self.push_dunder(n, v, "__setitem__", None);
                        }
                        Some(q) if q.kind() == "delete_statement" => {
                            self.push_dunder(n, v, "__delitem__", None);
                        }
                        Some(q) if q.kind() == "for_statement" && is_left(q) => {
                            self.push_dunder(n, v, "__setitem__", None);
                        }
                        _ => self.push_dunder(n, v, "__getitem__", None),
                    }
                }
                "interpolation" => {
                    let Some(e) = n.child_by_field_name("expression") else {
                        continue;
                    };
                    let conv = n
                        .child_by_field_name("type_conversion")
                        .map(|c| self.text(c))
                        .unwrap_or_default();
                    // `format(x, "")` of a class without `__format__` is `str(x)`.
                    let d = if conv == "!r" { "__repr__" } else { "__str__" };
                    self.push_dunder(n, e, d, None);
                }
                _ => {}
            }
        }
    }

    /// `for k, v in d.items():` binds `v` to the dict's values, `for i, v in enumerate(xs):`
    /// to the elements of `xs`.
    fn pair_loop(&mut self, n: Node, left: Node, right: Node) {
        let names = named_parts(left);
        let [_, second] = names.as_slice() else {
            return;
        };
        if second.kind() != "identifier" {
            return;
        }
        let (Some(f), Some(args)) = (
            right.child_by_field_name("function"),
            right.child_by_field_name("arguments"),
        ) else {
            return;
        };
        let args = named_parts(args);
        let value = match (f.kind(), args.as_slice()) {
            ("attribute", [])
                if f.child_by_field_name("attribute")
                    .is_some_and(|a| self.text(a) == "items") =>
            {
                f.child_by_field_name("object")
                    .and_then(|o| self.segs(o))
                    .map(|mut v| {
                        v.extend([Seg::Name("values".into()), Seg::Call, Seg::Iter]);
                        v
                    })
            }
            ("identifier", [xs]) if self.text(f) == "enumerate" => self.segs(*xs).map(|mut v| {
                v.push(Seg::Iter);
                v
            }),
            _ => None,
        };
        if let Some(value) = value {
            self.facts.assigns.push(AssignFact::plain(
                self.scope_of(n.start_byte() as u32),
                vec![self.text(*second)],
                Some(value),
                n.start_position().row as u32 + 1,
            ));
        }
    }

    /// `with X() as x:` calls `X().__enter__` and, on the way out, `__exit__`; `x` is what
    /// `__enter__` returns.
    fn with_item(&mut self, n: Node) {
        let Some(v) = n.child_by_field_name("value") else {
            return;
        };
        let (expr, alias) = if v.kind() == "as_pattern" {
            (v.named_child(0), v.child_by_field_name("alias"))
        } else {
            (Some(v), None)
        };
        let Some(segs) = expr.and_then(|e| self.segs(e)) else {
            return;
        };
        let scope = self.scope_of(n.start_byte() as u32);
        let line = n.start_position().row as u32 + 1;
        for m in ["__enter__", "__exit__"] {
            let mut callee = segs.clone();
            callee.push(Seg::Name(m.into()));
            self.facts.calls.push(CallSite {
                maybe: true,
                ..CallSite::bare(scope, callee, String::new(), line)
            });
        }
        if let Some(a) = alias
            && let [id] = identifiers(a).as_slice()
            && self.text(*id) == self.text(a)
        {
            let mut value = segs;
            value.extend([Seg::Name("__enter__".into()), Seg::Call]);
            self.facts.assigns.push(AssignFact::plain(
                scope,
                vec![self.text(*id)],
                Some(value),
                line,
            ));
        }
    }

    #[allow(clippy::type_complexity)]
    fn arguments(&self, a: Node) -> (Vec<Option<Vec<Seg>>>, Vec<(String, Option<Vec<Seg>>)>, bool) {
        let mut args = Vec::new();
        let mut kwargs = Vec::new();
        let mut spread = false;
        let mut cur = a.walk();
        for ch in a.named_children(&mut cur) {
            match ch.kind() {
                "comment" => {}
                "keyword_argument" => {
                    if let (Some(k), Some(v)) = (
                        ch.child_by_field_name("name"),
                        ch.child_by_field_name("value"),
                    ) {
                        kwargs.push((self.text(k), self.segs(v)));
                    }
                }
                "list_splat"
                | "dictionary_splat"
                | "spread_element"
                | "splat_argument"
                | "hash_splat_argument" => spread = true,
                "argument" => {
                    // C# wraps each argument.
                    args.push(ch.named_child(0).and_then(|v| self.segs(v)));
                }
                _ => args.push(self.segs(ch)),
            }
        }
        (args, kwargs, spread)
    }

    fn assign(&mut self, node: Node, left: Option<Node>, right: Option<Node>, ty: Option<Node>) {
        let scope = self.scope_of(node.start_byte() as u32);
        let line = node.start_position().row as u32 + 1;
        let Some(left) = left else { return };
        // `x := a if c else b` parses as `(x := a) if c else b` (the walrus has no precedence
        // in the grammar), but Python binds `x` to the whole conditional: either branch.
        if node.kind() == "named_expression"
            && let Some(p) = node.parent()
            && p.kind() == "conditional_expression"
            && p.named_child(0).is_some_and(|c| c.id() == node.id())
            && let (Some(a), Some(b)) = (right, p.named_child(2))
        {
            // Under a key neither literal nodes (small) nor `either` pairs (near the top) use.
            let pair = self.pair(usize::MAX / 2 - node.start_byte(), node, a, b);
            self.facts.assigns.push(AssignFact::plain(
                scope,
                vec![self.text(left)],
                Some(vec![Seg::Lit(pair), Seg::Iter]),
                line,
            ));
            return;
        }
        // `a = b = f`: both names get the innermost value.
        let mut right = right;
        while let Some(r) = right
            && r.kind() == "assignment"
            && self.lang == Lang::Python
        {
            right = r.child_by_field_name("right");
        }
        // `a, b = f, g`: element by element.
        if let Some(r) = right
            && matches!(left.kind(), "pattern_list" | "tuple_pattern")
            && matches!(r.kind(), "expression_list" | "tuple")
            && left.named_child_count() == r.named_child_count()
            && !(0..left.named_child_count() as u32).any(|i| {
                left.named_child(i)
                    .is_some_and(|c| c.kind() == "list_splat_pattern")
            })
        {
            for i in 0..left.named_child_count() as u32 {
                if let (Some(l), Some(v)) = (left.named_child(i), r.named_child(i)) {
                    self.assign(node, Some(l), Some(v), None);
                }
            }
            return;
        }
        // `a, b = pair()`: each name takes one element of the value.
        if self.lang == Lang::Python
            && let Some(r) = right
            && matches!(left.kind(), "pattern_list" | "tuple_pattern")
            && let Some(value) = self.segs(r)
        {
            let targets = named_parts(left);
            let n_targets = targets.len();
            let mut starred = false;
            for (i, ch) in targets.into_iter().enumerate() {
                // `head, *rest = xs`: `rest` is a list of the remaining elements.
                if ch.kind() == "list_splat_pattern"
                    && let Some(id) = ch.named_child(0).filter(|c| c.kind() == "identifier")
                {
                    starred = true;
                    let lit = self.starred_rest(ch, r, &value, i, n_targets - i - 1);
                    self.facts.assigns.push(AssignFact::plain(
                        scope,
                        vec![self.text(id)],
                        Some(vec![Seg::Lit(lit)]),
                        line,
                    ));
                    continue;
                }
                if ch.kind() != "identifier" {
                    for id in identifiers(ch) {
                        let name = self.text(id);
                        self.facts.binds.push(BindFact { scope, name, line });
                    }
                    continue;
                }
                let mut v = value.clone();
                // Targets after a starred one count from the end.
                if starred {
                    v.push(Seg::Index(format!("-{}", n_targets - i)));
                } else {
                    v.push(Seg::Index(i.to_string()));
                }
                self.facts.assigns.push(AssignFact::plain(
                    scope,
                    vec![self.text(ch)],
                    Some(v),
                    line,
                ));
            }
            return;
        }
        // `const x = require('./m')` is an import.
        if self.lang.is_js_family()
            && let Some(r) = right
            && let Some(path) = self.require_path(r)
        {
            if left.kind() == "identifier" {
                self.facts.imports.push(ImportFact {
                    scope,
                    line,
                    kind: ImportKind::Module {
                        path,
                        alias: Some(self.text(left)),
                    },
                });
                return;
            }
            if left.kind() == "object_pattern" {
                let mut cur = left.walk();
                for ch in left.named_children(&mut cur) {
                    let (name, alias) = match ch.kind() {
                        "shorthand_property_identifier_pattern" => (self.text(ch), None),
                        "pair_pattern" => match (
                            ch.child_by_field_name("key"),
                            ch.child_by_field_name("value"),
                        ) {
                            (Some(k), Some(v)) => (self.text(k), Some(self.text(v))),
                            _ => continue,
                        },
                        _ => continue,
                    };
                    self.facts.imports.push(ImportFact {
                        scope,
                        line,
                        kind: ImportKind::From {
                            path: path.clone(),
                            level: 0,
                            name,
                            alias,
                        },
                    });
                }
                return;
            }
        }
        let target = self.segs(left).and_then(|s| {
            s.into_iter()
                .map(|s| match s {
                    Seg::Name(n) => Some(n),
                    // `table["k"] = f` sets one element of `table`.
                    Seg::Index(k) => Some(format!("[{k}]")),
                    _ => None,
                })
                .collect::<Option<Vec<_>>>()
        });
        // `table[key] = f` with a key known only at run time: `f` is in `table` somewhere.
        let target = target.or_else(|| {
            let obj = left.child_by_field_name("value")?;
            if self.lang != Lang::Python || left.kind() != "subscript" || obj.kind() != "identifier"
            {
                return None;
            }
            Some(vec![self.text(obj), "[*]".to_string()])
        });
        match target {
            Some(target) if !target.is_empty() => {
                let value = right.and_then(|r| self.segs(r));
                let type_name = ty.and_then(|t| self.type_segs(t, 0));
                // A Python literal is kept once, in `literals`, which the value names.
                let elements = if matches!(value.as_deref(), Some([Seg::Lit(_)])) {
                    Vec::new()
                } else {
                    right.map(|r| self.elements(r)).unwrap_or_default()
                };
                self.facts.assigns.push(AssignFact {
                    scope,
                    target,
                    value,
                    type_name,
                    elements,
                    line,
                });
            }
            _ => {
                // Tuple targets and the like: every name in them is bound to something unknown.
                for id in identifiers(left) {
                    let name = self.text(id);
                    self.facts.binds.push(BindFact { scope, name, line });
                }
            }
        }
    }

    /// The list a starred target collects: elements `before..len - after` of the value. For a
    /// literal written in place they are known one by one; otherwise any element of the value
    /// may be in it.
    fn starred_rest(
        &self,
        star: Node,
        right: Node,
        value: &[Seg],
        before: usize,
        after: usize,
    ) -> u32 {
        let key = usize::MAX / 2 - star.start_byte();
        if let Some(&i) = self.lits.borrow().1.get(&key) {
            return i;
        }
        let elements: Vec<(String, Option<Vec<Seg>>)> =
            if matches!(right.kind(), "expression_list" | "tuple" | "list") {
                let all = named_parts(right);
                let end = all.len().saturating_sub(after);
                all.get(before..end)
                    .unwrap_or(&[])
                    .iter()
                    .enumerate()
                    .map(|(i, c)| (i.to_string(), self.segs(*c)))
                    .filter(|(_, v)| v.is_some())
                    .collect()
            } else {
                let mut v = value.to_vec();
                v.push(Seg::Index("*".into()));
                vec![("*".into(), Some(v))]
            };
        self.add_literal(key, star, elements)
    }

    /// The callees of the calls in the constant string given to `exec` / `eval` (parsed as
    /// Python): dotted names only, since the string's nodes are not this file's bytes.
    fn constant_code(&self, args: Node) -> Option<Vec<Vec<Seg>>> {
        if args.named_child_count() != 1 {
            return None;
        }
        let arg = args.named_child(0)?;
        if arg.kind() != "string" {
            return None;
        }
        let mut cur = arg.walk();
        // An f-string's value is not constant.
        if arg
            .named_children(&mut cur)
            .any(|c| c.kind() == "interpolation")
        {
            return None;
        }
        let t = self.text(arg);
        let t = t.trim_start_matches(|c: char| c.is_ascii_alphabetic());
        let code = unquote(t);
        if code.len() > 4096 {
            return None;
        }
        let mut p = Parser::new();
        p.set_language(&self.lang.grammar()).ok()?;
        let tree = p.parse(code.as_bytes(), None)?;
        let mut calls = Vec::new();
        collect_kind(tree.root_node(), "call", &mut calls);
        let mut out = Vec::new();
        for c in calls {
            let Some(f) = c.child_by_field_name("function") else {
                continue;
            };
            let Ok(name) = f.utf8_text(code.as_bytes()) else {
                continue;
            };
            let dotted = name.split('.').all(|p| {
                !p.is_empty()
                    && !p.starts_with(|c: char| c.is_ascii_digit())
                    && p.chars().all(|c| c.is_alphanumeric() || c == '_')
            });
            if dotted && matches!(f.kind(), "identifier" | "attribute") {
                out.push(name.split('.').map(|p| Seg::Name(p.to_string())).collect());
            }
        }
        Some(out)
    }

    /// The key of `x.pop(key)`: `-1` for `x.pop()` (the last element), `*` for a key not
    /// known statically.
    fn pop_key(&self, call: Node) -> Option<String> {
        let f = call.child_by_field_name("function")?;
        if f.kind() != "attribute" || self.text(f.child_by_field_name("attribute")?) != "pop" {
            return None;
        }
        let args = call.child_by_field_name("arguments")?;
        Some(match args.named_child(0) {
            None => "-1".into(),
            Some(k) => self.literal_key(k).unwrap_or_else(|| "*".into()),
        })
    }

    /// `dict(k=f)` or `dict([("k", f)])`: a literal dict (recorded once per call node).
    fn dict_call(&self, call: Node) -> Option<u32> {
        let f = call.child_by_field_name("function")?;
        if f.kind() != "identifier" || self.text(f) != "dict" {
            return None;
        }
        if let Some(&i) = self.lits.borrow().1.get(&call.start_byte()) {
            return Some(i);
        }
        let args = call.child_by_field_name("arguments")?;
        let mut elements = Vec::new();
        let mut cur = args.walk();
        for a in args.named_children(&mut cur) {
            match a.kind() {
                "keyword_argument" => {
                    let (Some(k), Some(v)) = (
                        a.child_by_field_name("name"),
                        a.child_by_field_name("value"),
                    ) else {
                        continue;
                    };
                    elements.push((format!("'{}", self.text(k)), self.segs(v)));
                }
                "list" | "tuple" => {
                    let mut c2 = a.walk();
                    for pair in a.named_children(&mut c2) {
                        if pair.kind() != "tuple" || pair.named_child_count() != 2 {
                            continue;
                        }
                        let (Some(k), Some(v)) = (pair.named_child(0), pair.named_child(1)) else {
                            continue;
                        };
                        let key = self.literal_key(k).unwrap_or_else(|| "*".into());
                        elements.push((key, self.segs(v)));
                    }
                }
                "comment" => {}
                // `dict(other)`, `dict(**kw)`: contents not followed.
                _ => return None,
            }
        }
        elements.retain(|(_, v)| v.is_some());
        Some(self.add_container(call.start_byte(), call, true, elements))
    }

    /// The elements of a literal container, by key.
    fn elements(&self, n: Node) -> Vec<(String, Option<Vec<Seg>>)> {
        let mut out = Vec::new();
        match n.kind() {
            "dictionary" | "object" => {
                let mut cur = n.walk();
                for ch in n.named_children(&mut cur) {
                    // `{**base, "k": f}`, `{...base, k: f}`: every item of `base` is in it.
                    if matches!(ch.kind(), "dictionary_splat" | "spread_element") {
                        if let Some(inner) = ch.named_child(0) {
                            out.push(("**".into(), self.segs(inner)));
                        }
                        continue;
                    }
                    if ch.kind() != "pair" {
                        continue;
                    }
                    let (Some(k), Some(v)) = (
                        ch.child_by_field_name("key"),
                        ch.child_by_field_name("value"),
                    ) else {
                        continue;
                    };
                    match self.literal_key(k) {
                        Some(key) => out.push((key, self.segs(v))),
                        None if self.lang == Lang::Python => out.push(("*".into(), self.segs(v))),
                        None => {}
                    }
                }
            }
            // A comprehension holds what its body gives, for each value of its loop variables
            // (bound where the comprehension is), at keys not known statically.
            "list_comprehension" | "set_comprehension" | "generator_expression" => {
                if let Some(b) = n.child_by_field_name("body") {
                    out.push(("*".into(), self.segs(b)));
                }
            }
            "dictionary_comprehension" => {
                if let Some(v) = n
                    .child_by_field_name("body")
                    .and_then(|b| b.child_by_field_name("value"))
                {
                    out.push(("*".into(), self.segs(v)));
                }
            }
            "list" | "tuple" | "array" | "set" | "expression_list" => {
                let mut cur = n.walk();
                let mut splat = false;
                for (i, ch) in n
                    .named_children(&mut cur)
                    .filter(|c| c.kind() != "comment")
                    .enumerate()
                {
                    // After `*xs` the positions are not known statically.
                    splat |= matches!(ch.kind(), "list_splat" | "spread_element");
                    let key = if splat {
                        "*".to_string()
                    } else {
                        i.to_string()
                    };
                    out.push((key, self.segs(ch)));
                }
            }
            _ => {}
        }
        out
    }

    /// A string, number or bare property name used as a key.
    fn literal_key(&self, k: Node) -> Option<String> {
        match k.kind() {
            "string" => {
                let t = self.text(k);
                let t = t.trim_start_matches(|c: char| c.is_ascii_alphabetic());
                // Python tells `d["1"]` from `d[1]`; JavaScript's keys are strings either way.
                if self.lang == Lang::Python {
                    Some(format!("'{}", unquote(t)))
                } else {
                    Some(unquote(t))
                }
            }
            "integer" | "number" | "property_identifier" => Some(self.text(k)),
            // `xs[-1]`: counted from the end.
            "unary_operator"
                if self.lang == Lang::Python
                    && k.named_child(0).is_some_and(|c| c.kind() == "integer")
                    && self.text(k).starts_with('-') =>
            {
                Some(squash(&self.text(k)))
            }
            _ => None,
        }
    }

    fn require_path(&self, n: Node) -> Option<String> {
        if n.kind() != "call_expression" {
            return None;
        }
        let f = n.child_by_field_name("function")?;
        if self.text(f) != "require" {
            return None;
        }
        let args = n.child_by_field_name("arguments")?;
        let s = args.named_child(0)?;
        if s.kind() != "string" {
            return None;
        }
        Some(unquote(&self.text(s)))
    }

    fn import(&mut self, n: Node) {
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
                            if let (Some(p), Some(a)) = (
                                ch.child_by_field_name("name"),
                                ch.child_by_field_name("alias"),
                            ) {
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
                let Some(m) = n.child_by_field_name("module_name") else {
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
                        "aliased_import" => match (
                            ch.child_by_field_name("name"),
                            ch.child_by_field_name("alias"),
                        ) {
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
                let Some(src) = n.child_by_field_name("source") else {
                    return;
                };
                let path = unquote(&self.text(src));
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
                                    let Some(name) = spec.child_by_field_name("name") else {
                                        continue;
                                    };
                                    any = true;
                                    out.push(ImportKind::From {
                                        path: path.clone(),
                                        level: 0,
                                        name: self.text(name),
                                        alias: spec
                                            .child_by_field_name("alias")
                                            .map(|a| self.text(a)),
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
            (Lang::Go, _) => {
                let mut specs = Vec::new();
                collect_kind(n, "import_spec", &mut specs);
                for spec in specs {
                    let Some(p) = spec.child_by_field_name("path") else {
                        continue;
                    };
                    let path = unquote(&self.text(p));
                    let alias = spec.child_by_field_name("name").map(|a| self.text(a));
                    match alias.as_deref() {
                        Some(".") => out.push(ImportKind::Star { path, level: 0 }),
                        Some("_") => {}
                        _ => out.push(ImportKind::Module { path, alias }),
                    }
                }
            }
            (Lang::Rust, "mod_item") => {
                if let Some(name) = n.child_by_field_name("name") {
                    let name = self.text(name);
                    out.push(ImportKind::Module {
                        path: format!("self::{name}"),
                        alias: Some(name),
                    });
                }
            }
            (Lang::Rust, _) => {
                if let Some(arg) = n.child_by_field_name("argument") {
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
                if let Some(p) = n.child_by_field_name("path") {
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
                    .child_by_field_name("method")
                    .map(|m| self.text(m))
                    .unwrap_or_default();
                if let Some(args) = n.child_by_field_name("arguments")
                    && let Some(s) = args.named_child(0)
                {
                    let path = unquote(&self.text(s));
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
                if let Some(arg) = n.child_by_field_name("argument") {
                    let path = unquote(&self.text(arg));
                    out.push(ImportKind::Star { path, level: 1 });
                }
            }
            _ => {}
        }
        for kind in out {
            self.facts.imports.push(ImportFact { scope, line, kind });
        }
    }

    fn rust_use(&self, n: Node, prefix: String, out: &mut Vec<ImportKind>) {
        let join = |p: &str, s: &str| {
            if p.is_empty() {
                s.to_string()
            } else {
                format!("{p}::{s}")
            }
        };
        match n.kind() {
            "scoped_identifier" | "identifier" | "crate" | "self" | "super" => {
                let full = join(&prefix, &self.text(n));
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
                if let (Some(p), Some(a)) = (
                    n.child_by_field_name("path"),
                    n.child_by_field_name("alias"),
                ) {
                    let full = join(&prefix, &self.text(p));
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
                    .child_by_field_name("path")
                    .map(|p| join(&prefix, &self.text(p)))
                    .unwrap_or(prefix);
                if let Some(list) = n.child_by_field_name("list") {
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
                    .map(|p| join(&prefix, &self.text(p)))
                    .unwrap_or(prefix);
                out.push(ImportKind::Star { path: p, level: 0 });
            }
            _ => {}
        }
    }
}

/// The function a Python builtin or standard function calls with what it is given:
/// `map(f, xs)`, `filter(f, xs)`, `functools.reduce(f, xs)`, `sorted(xs, key=f)`,
/// `min`/`max(..., key=f)`, `xs.sort(key=f)`, `itertools.takewhile(f, xs)` and its kin. The resolver keeps the call only when the outer
/// call really is that builtin (not shadowed, not a method of a class of the repository).
fn callback_arg<'a>(
    text: &str,
    args: &'a [Option<Vec<Seg>>],
    kwargs: &'a [(String, Option<Vec<Seg>>)],
) -> Option<&'a Vec<Seg>> {
    let key = || {
        kwargs
            .iter()
            .find(|(k, _)| k == "key")
            .and_then(|(_, v)| v.as_ref())
    };
    let named = |k: &str| {
        kwargs
            .iter()
            .find(|(n, _)| n == k)
            .and_then(|(_, v)| v.as_ref())
    };
    match text {
        "map" | "filter" => args.first()?.as_ref(),
        "sorted" | "min" | "max" => key(),
        _ if text.ends_with(".sort") => key(),
        // Standard-library functions, however they were imported (`itertools.takewhile`,
        // `from itertools import takewhile`, `it.takewhile`): the resolver checks which.
        _ => match text.rsplit('.').next().unwrap_or(text) {
            "reduce" | "takewhile" | "dropwhile" | "filterfalse" | "starmap" => {
                args.first()?.as_ref()
            }
            "groupby" => key().or_else(|| args.get(1)?.as_ref()),
            "accumulate" => named("func").or_else(|| args.get(1)?.as_ref()),
            _ => None,
        },
    }
}

fn squash(s: &str) -> String {
    let mut out: String = s.split_whitespace().collect::<Vec<_>>().join("");
    if out.len() > 120 {
        let mut cut = 120;
        while !out.is_char_boundary(cut) {
            cut -= 1;
        }
        out.truncate(cut);
    }
    out
}

fn unquote(s: &str) -> String {
    s.trim()
        .trim_matches(|c| c == '"' || c == '\'' || c == '`')
        .to_string()
}

fn first_identifier(n: Node) -> Option<Node> {
    if n.kind() == "identifier" {
        return Some(n);
    }
    let mut cur = n.walk();
    for ch in n.named_children(&mut cur) {
        if let Some(id) = first_identifier(ch) {
            return Some(id);
        }
    }
    None
}

/// Python blocks that may be skipped or left early (see [`FileFacts::cond_blocks`]). Only
/// statements are walked: expressions hold no blocks.
fn cond_blocks(n: Node, out: &mut Vec<(u32, u32)>) {
    let mut cur = n.walk();
    for ch in n.named_children(&mut cur) {
        match ch.kind() {
            "block" => {
                // `with` bodies and `finally` always run; function and class bodies are
                // scopes of their own.
                if matches!(
                    n.kind(),
                    "if_statement"
                        | "elif_clause"
                        | "else_clause"
                        | "for_statement"
                        | "while_statement"
                        | "try_statement"
                        | "except_clause"
                        | "except_group_clause"
                        | "case_clause"
                ) {
                    out.push((
                        ch.start_position().row as u32 + 1,
                        ch.end_position().row as u32 + 1,
                    ));
                }
                cond_blocks(ch, out);
            }
            "if_statement"
            | "elif_clause"
            | "else_clause"
            | "for_statement"
            | "while_statement"
            | "try_statement"
            | "except_clause"
            | "except_group_clause"
            | "finally_clause"
            | "with_statement"
            | "match_statement"
            | "case_clause"
            | "function_definition"
            | "class_definition"
            | "decorated_definition" => cond_blocks(ch, out),
            _ => {}
        }
    }
}

/// The special method a Python binary operator calls on its left operand.
fn binary_dunder(op: &str) -> Option<&'static str> {
    Some(match op {
        "+" => "__add__",
        "-" => "__sub__",
        "*" => "__mul__",
        "/" => "__truediv__",
        "//" => "__floordiv__",
        "%" => "__mod__",
        "**" => "__pow__",
        "@" => "__matmul__",
        "&" => "__and__",
        "|" => "__or__",
        "^" => "__xor__",
        "<<" => "__lshift__",
        ">>" => "__rshift__",
        _ => return None,
    })
}

fn identifiers(n: Node) -> Vec<Node> {
    let mut out = Vec::new();
    collect_kind(n, "identifier", &mut out);
    out
}

fn collect_kind<'t>(n: Node<'t>, kind: &str, out: &mut Vec<Node<'t>>) {
    if n.kind() == kind {
        out.push(n);
        return;
    }
    let mut cur = n.walk();
    for ch in n.named_children(&mut cur) {
        collect_kind(ch, kind, out);
    }
}

/// A node's named children without comments (which the grammars put anywhere).
fn named_parts(n: Node<'_>) -> Vec<Node<'_>> {
    let mut cur = n.walk();
    n.named_children(&mut cur)
        .filter(|c| c.kind() != "comment")
        .collect()
}
