//! What one match of a pattern adds to a file's facts, by the pattern's role: shared by the
//! query walk (`query.rs`, every language) and the walk of our own over JavaScript and
//! TypeScript trees (`walk.rs`), so that both read a match the same way.

use super::*;

impl<'s, 't> Extractor<'s, 't> {
    /// A class, interface, enum or namespace (`is_ns`) at `n`, named by `name`, with its
    /// `bases` in source order.
    pub(super) fn on_class(
        &mut self,
        n: Node<'t>,
        is_ns: bool,
        name: Option<Node<'t>>,
        bases: &[Node<'t>],
        body: Option<Node<'t>>,
    ) {
        let lang = self.lang;
        let name_text = name.map(|n| self.text(n)).unwrap_or_default();
        let bases = if lang.is_js_family() {
            bases.iter().flat_map(|b| self.js_bases(*b)).collect()
        } else {
            bases.iter().filter_map(|b| self.segs(*b)).collect()
        };
        let body = body.unwrap_or(n);
        if lang.is_js_family() {
            self.name_fields(body);
        }
        // TypeScript `namespace A.B { }` is `namespace A { namespace B { } }`: `A` spans
        // the whole declaration, `B` starts at its name.
        let nested = name.filter(|m| is_ns && m.kind() == "nested_identifier");
        if let Some(m) = nested {
            let mut parts = Vec::new();
            nested_parts(m, &mut parts);
            for (i, p) in parts.iter().enumerate() {
                let at = if i == 0 { n } else { *p };
                self.add_def(
                    at,
                    body,
                    DefKind::Class,
                    self.text(*p),
                    Vec::new(),
                    None,
                    false,
                );
                if let Some(d) = self.facts.defs.last_mut() {
                    d.is_namespace = true;
                    d.end_byte = n.end_byte() as u32;
                    d.end_line = n.end_position().row as u32 + 1;
                }
            }
            return;
        }
        self.add_def(n, body, DefKind::Class, name_text, bases, None, false);
        if let Some(d) = self.facts.defs.last_mut() {
            d.is_namespace = is_ns;
            d.is_interface = n.kind() == "interface_declaration";
            d.is_abstract = n.kind() == "abstract_class_declaration";
        }
    }

    /// A function or method declared at `n`.
    pub(super) fn on_func(&mut self, n: Node<'t>, parts: FuncParts<'t>) {
        let lang = self.lang;
        let mut name = parts.name.map(|n| self.text(n)).unwrap_or_default();
        let mut receiver = parts.receiver.map(|r| strip_generics(self.str(r)));
        if let Some(pos) = name.rfind("::") {
            receiver = Some(strip_generics(&name[..pos]));
            name = name[pos + 2..].to_string();
        }
        let body = parts.body.unwrap_or(n);
        let mut params = parts.params.map(|p| self.params(p)).unwrap_or_default();
        let mut types = parts
            .params
            .map(|p| self.param_types(p))
            .unwrap_or_default();
        if let Some(s) = parts.self_ {
            params.insert(0, self.text(s));
            types.insert(0, None);
        }
        let is_method = lang.is_js_family() && n.kind() == "method_definition";
        // A method of an object literal bound to no name (an argument, a return value)
        // is transparent, as an anonymous function is.
        let kind = if is_method && unbound_object_method(n) {
            DefKind::Scope
        } else {
            DefKind::Func
        };
        self.add_def(n, body, kind, name, Vec::new(), receiver, false);
        if lang == Lang::Python
            && let Some(p) = parts.params
        {
            self.pending.push(Pending::Params(n.start_byte() as u32, p));
        }
        if lang.is_js_family()
            && let Some(p) = parts.params
            && js_params_special(p)
        {
            self.pending
                .push(Pending::JsParams(n.start_byte() as u32, p));
        }
        let is_static = parts.is_static || (is_method && js_static(n));
        let returns = [
            Field::RETURN_TYPE,
            Field::RESULT,
            Field::RETURNS,
            Field::TYPE,
        ]
        .iter()
        .find_map(|f| n.field(*f))
        .and_then(|t| self.type_segs(t, 0))
        .map(|r| self.returns_type_parameter(n, r));
        let accessor = if is_method { js_accessor(n) } else { 0 };
        if let Some(d) = self.facts.defs.last_mut() {
            d.params = params;
            d.param_types = types;
            d.return_type = returns;
            d.accessor = accessor;
            if is_static {
                d.is_classmethod = true;
            }
        }
    }

    /// A function value `n` bound to the name `name` (`const f = () => ...`).
    pub(super) fn on_lambda(&mut self, n: Node<'t>, name: Node<'t>) {
        // `{ 'quoted': () => ... }` is named by the key's text.
        let name = if name.kind() == "string" {
            unquote(self.str(name))
        } else {
            self.text(name)
        };
        let params = self.fn_params(n);
        let body = n.field(Field::BODY).unwrap_or(n);
        self.add_def(n, body, DefKind::Func, name, Vec::new(), None, true);
        if self.lang.is_js_family()
            && let Some(p) = n.field(Field::PARAMETERS)
            && js_params_special(p)
        {
            self.pending
                .push(Pending::JsParams(n.start_byte() as u32, p));
        }
        if let Some(d) = self.facts.defs.last_mut() {
            d.params = params;
        }
        if self.lang.is_js_family() && n.kind() == "arrow_function" {
            self.pending.push(Pending::ArrowBody(n));
        }
    }

    /// An import, or a JavaScript `export` statement without a declaration.
    pub(super) fn on_import(&mut self, n: Node<'t>) {
        if self.lang.is_js_family() && n.kind() == "export_statement" {
            self.default_export_def(n);
        }
        self.pending.push(Pending::Import(n));
    }

    /// A binding `n` of `left` to `right` (typed `ty`).
    pub(super) fn on_assign(
        &mut self,
        n: Node<'t>,
        left: Option<Node<'t>>,
        right: Option<Node<'t>>,
        ty: Option<Node<'t>>,
    ) {
        // `private readonly x: T` matches as `private` and as `readonly`: one field.
        if matches!(self.pending.last(), Some(Pending::Assign { node, .. }) if node.id() == n.id())
        {
            return;
        }
        let js = self.lang.is_js_family();
        // `const t = { ... } satisfies T` binds the literal itself.
        let right = right.map(|r| if js { js_unwrap(r) } else { r });
        if js && let (Some(l), Some(r)) = (left, right) {
            let assigned = n.kind() == "assignment_expression";
            self.name_value(l, r, assigned);
            if assigned {
                self.cjs_export_defs(l, r);
            }
        }
        self.pending.push(Pending::Assign {
            node: n,
            left,
            right,
            ty,
        });
    }

    /// A name bound at `n`; `for_loop` is the `for ... in/of` loop that binds it.
    pub(super) fn on_bind(&mut self, n: Node<'t>, for_loop: Option<Node<'t>>) {
        if let Some(f) = for_loop {
            self.for_loops.insert(n.id(), f);
        }
        self.pending.push(Pending::Bind(n));
    }
}

/// The parts of a function's match.
#[derive(Default)]
pub(super) struct FuncParts<'t> {
    pub(super) name: Option<Node<'t>>,
    pub(super) receiver: Option<Node<'t>>,
    pub(super) params: Option<Node<'t>>,
    pub(super) body: Option<Node<'t>>,
    pub(super) self_: Option<Node<'t>>,
    pub(super) is_static: bool,
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
