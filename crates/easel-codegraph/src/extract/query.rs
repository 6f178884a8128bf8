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
            let name = get(k.class_name).map(|n| x.text(n)).unwrap_or_default();
            let bases = all(k.class_base)
                .into_iter()
                .filter_map(|b| x.segs(b))
                .collect();
            let body = get(k.class_body).unwrap_or(n);
            if lang.is_js_family() {
                x.name_fields(body);
            }
            let name_node = get(k.class_name);
            // TypeScript `namespace A.B { }` is `namespace A { namespace B { } }`: `A` spans
            // the whole declaration, `B` starts at its name.
            let nested = name_node.filter(|m| is_ns && m.kind() == "nested_identifier");
            if let Some(m) = nested {
                let mut parts = Vec::new();
                nested_parts(m, &mut parts);
                for (i, p) in parts.iter().enumerate() {
                    let at = if i == 0 { n } else { *p };
                    x.add_def(
                        at,
                        body,
                        DefKind::Class,
                        x.text(*p),
                        Vec::new(),
                        None,
                        false,
                    );
                    if let Some(d) = x.facts.defs.last_mut() {
                        d.is_namespace = true;
                        d.end_byte = n.end_byte() as u32;
                        d.end_line = n.end_position().row as u32 + 1;
                    }
                }
                continue;
            }
            x.add_def(n, body, DefKind::Class, name, bases, None, false);
            if let Some(d) = x.facts.defs.last_mut() {
                d.is_namespace = is_ns;
                d.is_interface = n.kind() == "interface_declaration";
                d.is_abstract = n.kind() == "abstract_class_declaration";
            }
        } else if let Some(n) = get(k.func) {
            let name_node = get(k.func_name);
            let mut name = name_node.map(|n| x.text(n)).unwrap_or_default();
            let mut receiver = get(k.func_receiver).map(|r| strip_generics(x.str(r)));
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
            // A method of an object literal bound to no name (an argument, a return value)
            // is transparent, as an anonymous function is.
            let kind = if lang.is_js_family()
                && n.kind() == "method_definition"
                && unbound_object_method(n)
            {
                DefKind::Scope
            } else {
                DefKind::Func
            };
            x.add_def(n, body, kind, name, Vec::new(), receiver, false);
            if lang == Lang::Python
                && let Some(p) = get(k.func_params)
            {
                x.pending.push(Pending::Params(n.start_byte() as u32, p));
            }
            if lang.is_js_family()
                && let Some(p) = get(k.func_params)
                && js_params_special(p)
            {
                x.pending.push(Pending::JsParams(n.start_byte() as u32, p));
            }
            let is_static = get(k.func_static).is_some()
                || (lang.is_js_family() && n.kind() == "method_definition" && js_static(n));
            let returns = [
                Field::RETURN_TYPE,
                Field::RESULT,
                Field::RETURNS,
                Field::TYPE,
            ]
            .iter()
            .find_map(|f| n.field(*f))
            .and_then(|t| x.type_segs(t, 0));
            let accessor = if lang.is_js_family() && n.kind() == "method_definition" {
                js_accessor(n)
            } else {
                0
            };
            if let Some(d) = x.facts.defs.last_mut() {
                d.params = params;
                d.param_types = types;
                d.return_type = returns;
                d.accessor = accessor;
                if is_static {
                    d.is_classmethod = true;
                }
            }
        } else if let (Some(n), Some(name)) = (get(k.lambda), get(k.lambda_name)) {
            // `{ 'quoted': () => ... }` is named by the key's text.
            let name = if name.kind() == "string" {
                unquote(x.str(name))
            } else {
                x.text(name)
            };
            let params = n
                .field(Field::PARAMETERS)
                .map(|p| x.params(p))
                .or_else(|| n.field(Field::PARAMETER).map(|p| vec![x.text(p)]))
                .unwrap_or_default();
            let body = n.field(Field::BODY).unwrap_or(n);
            x.add_def(n, body, DefKind::Func, name, Vec::new(), None, true);
            if lang.is_js_family()
                && let Some(p) = n.field(Field::PARAMETERS)
                && js_params_special(p)
            {
                x.pending.push(Pending::JsParams(n.start_byte() as u32, p));
            }
            if let Some(d) = x.facts.defs.last_mut() {
                d.params = params;
            }
            if n.kind() == "arrow_function" {
                x.pending.push(Pending::ArrowBody(n));
            }
        } else if let Some(n) = get(k.scope)
            && lang.is_js_family()
        {
            x.function_value(n);
            if n.kind() == "arrow_function" {
                x.pending.push(Pending::ArrowBody(n));
            }
        } else if let Some(n) = get(k.scope) {
            let params = n
                .field(Field::PARAMETERS)
                .map(|p| x.params(p))
                .or_else(|| n.field(Field::PARAMETER).map(|p| vec![x.text(p)]))
                .unwrap_or_default();
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
            if lang.is_js_family() && n.kind() == "export_statement" {
                x.default_export_def(n);
            }
            x.pending.push(Pending::Import(n));
        } else if let Some(n) = get(k.assign)
            // `private readonly x: T` matches as `private` and as `readonly`: one field.
            && !matches!(x.pending.last(), Some(Pending::Assign { node, .. }) if node.id() == n.id())
        {
            // `const t = { ... } satisfies T` binds the literal itself.
            let right =
                get(k.assign_right).map(|r| if lang.is_js_family() { js_unwrap(r) } else { r });
            if lang.is_js_family()
                && let (Some(l), Some(r)) = (get(k.assign_left), right)
            {
                x.name_value(l, r, n.kind() == "assignment_expression");
                if n.kind() == "assignment_expression" {
                    x.cjs_export_defs(l, r);
                }
            }
            x.pending.push(Pending::Assign {
                node: n,
                left: get(k.assign_left),
                right,
                ty: get(k.assign_type),
            });
        } else if let Some(n) = get(k.bind) {
            if let Some(f) = get(k.bind_for) {
                x.for_loops.insert(n.id(), f);
            }
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
    if budget.is_over() {
        return Err(Failure::Skip(SkipReason::QueryBudget));
    }
    x.apply_renames();
    if x.facts.defs.is_empty() {
        x.generic_defs(tree.root_node(), Some(&budget))?;
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

/// The names of a TypeScript `A.B.C` (a `nested_identifier`), outermost first.
fn nested_parts<'t>(n: Node<'t>, out: &mut Vec<Node<'t>>) {
    match (n.field(Field::OBJECT), n.field(Field::PROPERTY)) {
        (Some(o), Some(p)) => {
            nested_parts(o, out);
            out.push(p);
        }
        _ => out.push(n),
    }
}
