//! The language queries: compiled once per process, run over a file's syntax tree within its
//! time budget, their captures handed to the extractor.

use super::*;

pub(super) struct Compiled {
    pub(super) query: Query,
    pub(super) idx: Captures,
}

/// Capture indices by role; a query need not use them all.
#[derive(Default)]
pub(super) struct Captures {
    pub(super) class: Option<u32>,
    pub(super) class_name: Option<u32>,
    pub(super) class_base: Option<u32>,
    pub(super) class_body: Option<u32>,
    pub(super) namespace: Option<u32>,
    pub(super) func: Option<u32>,
    pub(super) func_name: Option<u32>,
    pub(super) func_params: Option<u32>,
    pub(super) func_body: Option<u32>,
    pub(super) func_receiver: Option<u32>,
    pub(super) func_static: Option<u32>,
    pub(super) func_self: Option<u32>,
    pub(super) lambda: Option<u32>,
    pub(super) lambda_name: Option<u32>,
    pub(super) scope: Option<u32>,
    pub(super) impl_: Option<u32>,
    pub(super) impl_type: Option<u32>,
    pub(super) impl_trait: Option<u32>,
    pub(super) call: Option<u32>,
    pub(super) call_decorator: Option<u32>,
    pub(super) call_maybe: Option<u32>,
    pub(super) prop: Option<u32>,
    pub(super) import: Option<u32>,
    pub(super) assign: Option<u32>,
    pub(super) assign_left: Option<u32>,
    pub(super) assign_right: Option<u32>,
    pub(super) assign_type: Option<u32>,
    pub(super) bind: Option<u32>,
    pub(super) bind_for: Option<u32>,
    pub(super) global: Option<u32>,
    pub(super) ret: Option<u32>,
    pub(super) ret_value: Option<u32>,
    pub(super) iter: Option<u32>,
    pub(super) iter_left: Option<u32>,
    pub(super) iter_right: Option<u32>,
    pub(super) package: Option<u32>,
    pub(super) export_default: Option<u32>,
    pub(super) except: Option<u32>,
    pub(super) except_type: Option<u32>,
    pub(super) except_name: Option<u32>,
    pub(super) with: Option<u32>,
    pub(super) object: Option<u32>,
    pub(super) class_expr: Option<u32>,
}

pub(super) static COMPILED: [OnceLock<Result<Compiled, String>>; 12] =
    [const { OnceLock::new() }; 12];

pub(super) fn slot(lang: Lang) -> &'static OnceLock<Result<Compiled, String>> {
    &COMPILED[Lang::ALL.iter().position(|l| *l == lang).unwrap_or(0)]
}

pub(super) fn compiled(lang: Lang) -> Result<&'static Compiled, String> {
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

/// Compiles a language's query ahead of the first file of that language. JavaScript and
/// TypeScript files are read by a walk of our own, which needs no query (compiling theirs
/// cost 4% of a cold build), only its table of kind ids.
pub(crate) fn prepare(lang: Lang) {
    if lang.is_js_family() {
        walk::prepare(lang);
    } else {
        let _ = compiled(lang);
    }
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
    extract_by(lang, path, src, !lang.is_js_family())
}

/// [`extract`] through the language's query even for JavaScript and TypeScript, which
/// [`extract`] reads by a walk of its own (`walk.rs`): the two must give the same facts, and
/// `tests/walk.rs` compares them.
#[doc(hidden)]
pub fn extract_by_query(lang: Lang, path: &str, src: &[u8]) -> Result<FileFacts, String> {
    extract_by(lang, path, src, true).map_err(|f| match f {
        Failure::Skip(r) => format!("{path}: {}", r.describe()),
        Failure::Error(e) => e,
    })
}

fn extract_by(lang: Lang, path: &str, src: &[u8], query: bool) -> Result<FileFacts, Failure> {
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
    if !query {
        let tree = parse()?;
        let mut x = Extractor::new(lang, src, path.to_string(), count_lines(src));
        walk::walk(&mut x, tree.root_node(), &budget);
        return finish(x, &tree, &budget);
    }
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
    let mut x = Extractor::new(lang, src, path.to_string(), count_lines(src));
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
            let bases = all(k.class_base);
            x.on_class(n, is_ns, get(k.class_name), &bases, get(k.class_body));
        } else if let Some(n) = get(k.func) {
            let parts = FuncParts {
                name: get(k.func_name),
                receiver: get(k.func_receiver),
                params: get(k.func_params),
                body: get(k.func_body),
                self_: get(k.func_self),
                is_static: get(k.func_static).is_some(),
            };
            x.on_func(n, parts);
        } else if let (Some(n), Some(name)) = (get(k.lambda), get(k.lambda_name)) {
            x.on_lambda(n, name);
        } else if let Some(n) = get(k.scope)
            && lang.is_js_family()
        {
            x.function_value(n);
        } else if let Some(n) = get(k.scope) {
            let params = x.fn_params(n);
            let body = n.field(Field::BODY).unwrap_or(n);
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
                .map(|t| strip_generics(x.str(t)))
                .unwrap_or_default();
            let bases = get(k.impl_trait)
                .and_then(|t| x.segs(t))
                .into_iter()
                .collect();
            x.add_def(n, n, DefKind::Impl, name, bases, None, false);
        } else if let Some(n) = get(k.object) {
            x.objects.push(n);
        } else if let Some(n) = get(k.class_expr) {
            x.class_expression(n);
        } else if let Some(n) = get(k.call) {
            x.pending.push(Pending::Call(n));
        } else if let Some(n) = get(k.call_maybe) {
            x.pending.push(Pending::Maybe(n));
        } else if let Some(n) = get(k.prop) {
            x.pending.push(Pending::Prop(n));
        } else if let Some(n) = get(k.call_decorator) {
            x.pending.push(Pending::Decorator(n));
        } else if let Some(n) = get(k.import) {
            x.on_import(n);
        } else if let Some(n) = get(k.assign) {
            x.on_assign(
                n,
                get(k.assign_left),
                get(k.assign_right),
                get(k.assign_type),
            );
        } else if let Some(n) = get(k.bind) {
            x.on_bind(n, get(k.bind_for));
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
                && let Some(name) = a.field(Field::ALIAS)
                && let Some(ty) = a.named_child(0).filter(|t| t.id() != name.id())
            {
                x.pending.push(Pending::Except(n, vec![ty], name));
            }
        } else if let Some(n) = get(k.with) {
            // `with X() as x` binds `x` (Python).
            if let Some(v) = n.field(Field::VALUE)
                && v.kind() == "as_pattern"
                && let Some(alias) = v.field(Field::ALIAS)
            {
                x.pending.push(Pending::Bind(alias));
            }
            x.pending.push(Pending::With(n));
        }
    }
    drop(matches);
    finish(x, &tree, &budget)
}

/// What follows the matches: the definitions and pending reads made final.
fn finish<'t>(
    mut x: Extractor<'_, 't>,
    tree: &'t tree_sitter::Tree,
    budget: &Budget,
) -> Result<FileFacts, Failure> {
    let lang = x.lang;
    if budget.is_over() {
        return Err(Failure::Skip(SkipReason::QueryBudget));
    }
    x.apply_renames();
    if x.facts.defs.is_empty() {
        x.generic_defs(tree.root_node(), Some(budget))?;
        if budget.is_over() {
            return Err(Failure::Skip(SkipReason::QueryBudget));
        }
    }
    x.finish_defs();
    x.finish_pending();
    if lang.is_js_family() {
        x.own_emitters();
    }
    if lang == Lang::Python {
        cond_blocks(tree.root_node(), &mut x.facts.cond_blocks);
        x.operator_dunders(tree.root_node());
    }
    x.facts.literals = x.lits.into_inner().0;
    Ok(x.facts)
}

/// The query of the generic fallback: any node with a `name` field.
pub const GENERIC_QUERY: &str = "(_ name: (_) @name) @node";

pub(super) fn generic_query(lang: Lang) -> Result<&'static Query, String> {
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
    let mut x = Extractor::new(lang, src, String::new(), 0);
    x.generic_defs(tree.root_node(), None)?;
    Ok(x.facts
        .defs
        .into_iter()
        .map(|d| (d.kind, d.name, d.start_line))
        .collect())
}

pub(super) fn count_lines(src: &[u8]) -> u32 {
    let n = src.iter().filter(|b| **b == b'\n').count() as u32;
    if src.last().is_some_and(|b| *b != b'\n') {
        n + 1
    } else {
        n
    }
}

impl Captures {
    pub(super) fn of(q: &Query) -> Captures {
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
            bind_for: i("bind.for"),
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
            object: i("object"),
            class_expr: i("class.expr"),
        }
    }
}
