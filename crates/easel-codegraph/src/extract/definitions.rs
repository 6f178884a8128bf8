//! Definitions: classes, functions and methods with their scopes and parents, and the pending
//! nodes read once every definition of the file is known.

use super::*;

/// Python blocks that may be skipped or left early (see [`FileFacts::cond_blocks`]). Only
/// statements are walked: expressions hold no blocks.
pub(super) fn cond_blocks(n: Node, out: &mut Vec<(u32, u32)>) {
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

impl<'t> Extractor<'_, 't> {
    /// `export default function () {}`, `export default () => ...`, `export default class
    /// {}`: definitions named `default`.
    pub(super) fn default_export_def(&mut self, n: Node) {
        let Some(v) = n.field(Field::VALUE) else {
            return;
        };
        let mut cur = n.walk();
        if n.children(&mut cur).any(|c| c.kind() == "default") {
            // `export default { install() {} }` names its methods `default.install`.
            if v.kind() == "object" {
                self.object_names.insert(v.id(), "default".into());
                return;
            }
            self.value_def(v, "default".into());
        }
    }

    /// CommonJS exports written as functions or classes: `module.exports = function` is
    /// `exports`, `exports.x = ...` and `module.exports.x = ...` are `x`, and the functions of
    /// `module.exports = { x: function () {} }` are `x`.
    pub(super) fn cjs_export_defs(&mut self, left: Node, right: Node) {
        if left.kind() != "member_expression" {
            return;
        }
        let (Some(obj), Some(prop)) = (left.field(Field::OBJECT), left.field(Field::PROPERTY))
        else {
            return;
        };
        let src = self.src;
        let text = |n: Node| src.get(n.byte_range()).unwrap_or_default();
        let name = match (text(obj), text(prop)) {
            (b"module", b"exports") => "exports".to_string(),
            (b"exports" | b"module.exports", _) => self.text(prop),
            _ => return,
        };
        if right.kind() == "object" && name == "exports" {
            for pair in named_parts(right) {
                if pair.kind() != "pair" {
                    continue;
                }
                if let (Some(k), Some(v)) = (pair.field(Field::KEY), pair.field(Field::VALUE))
                    && matches!(k.kind(), "property_identifier" | "string")
                {
                    self.value_def(v, unquote(self.str(k)));
                }
            }
            return;
        }
        self.value_def(right, name);
    }

    /// A function or class written as a value, defined under `name` (anything else is not a
    /// definition).
    fn value_def(&mut self, v: Node, name: String) {
        match v.kind() {
            "function_expression" | "arrow_function" | "generator_function" => {
                let params = self.fn_params(v);
                let body = v.field(Field::BODY).unwrap_or(v);
                self.add_def(v, body, DefKind::Func, name, Vec::new(), None, true);
                if let Some(d) = self.facts.defs.last_mut() {
                    d.params = params;
                }
            }
            "class" => {
                let mut bases = Vec::new();
                let mut cur = v.walk();
                for h in v.named_children(&mut cur) {
                    if h.kind() != "class_heritage" {
                        continue;
                    }
                    // JavaScript: `extends X`; TypeScript: an `extends_clause` with a value.
                    let base = h.named_child(0).map(|c| c.field(Field::VALUE).unwrap_or(c));
                    if let Some(b) = base {
                        bases.extend(self.js_bases(b));
                    }
                }
                let body = v.field(Field::BODY).unwrap_or(v);
                self.add_def(v, body, DefKind::Class, name, bases, None, false);
            }
            _ => {}
        }
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn add_def(
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
            is_object: false,
            has_proto: false,
            written_in: None,
            accessor: 0,
            is_interface: false,
            is_abstract: false,
        });
    }

    pub(super) fn generic_defs(
        &mut self,
        root: Node<'t>,
        budget: Option<&Budget>,
    ) -> Result<(), String> {
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
            let body = node.field(Field::BODY).unwrap_or(node);
            self.add_def(node, body, kind, name, Vec::new(), None, false);
        }
        Ok(())
    }

    /// Innermost definition whose scope holds `byte`.
    pub(super) fn scope_of(&self, byte: u32) -> Option<u32> {
        let defs = &self.facts.defs;
        let i = defs.partition_point(|d| d.start_byte <= byte);
        let mut cur = if i == 0 { None } else { Some(i as u32 - 1) };
        while let Some(c) = cur {
            let d = &defs[c as usize];
            if d.scope_start <= byte && byte < d.scope_end.max(d.scope_start + 1) {
                return Some(c);
            }
            cur = match self.lex_parent.get(c as usize) {
                // A JavaScript function assigned to an outer variable is named there, but the
                // code after it is still in the function around it.
                Some(&p) if self.lang == Lang::Python || self.lang.is_js_family() => p,
                _ => d.parent,
            };
        }
        None
    }

    pub(super) fn finish_defs(&mut self) {
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
        if self.lang.is_js_family() {
            self.home_assigned();
        }
        self.attach_methods();
        if self.lang.is_js_family() {
            self.anon_class_methods();
        }
        self.break_cycles();
    }

    /// The methods of a class expression bound to no name are anonymous functions: their calls
    /// belong to the named scope around the class.
    fn anon_class_methods(&mut self) {
        let anon: Vec<bool> = self.facts.defs.iter().map(Def::is_anon_class).collect();
        if !anon.contains(&true) {
            return;
        }
        for d in &mut self.facts.defs {
            if d.kind == DefKind::Func && d.parent.is_some_and(|p| anon[p as usize]) {
                d.kind = DefKind::Scope;
            }
        }
    }

    /// Rust `impl` blocks, Go receivers and C++ `Foo::bar` definitions: the method belongs to
    /// the type it names, when that type is defined in the same file.
    pub(super) fn attach_methods(&mut self) {
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
                // JavaScript's `T.prototype.m = function`: `T` may be a constructor function.
                let js = self.lang.is_js_family();
                let target = (0..n).find(|&j| {
                    let t = &self.facts.defs[j];
                    (t.kind == DefKind::Class || (js && t.kind == DefKind::Func))
                        && t.name == short
                        && j != i
                        && !(start <= t.start_byte && t.end_byte <= end)
                });
                match target {
                    Some(t) => {
                        self.facts.defs[i].parent = Some(t as u32);
                        if self.facts.defs[t].kind == DefKind::Func {
                            self.facts.defs[t].has_proto = true;
                        }
                    }
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
    pub(super) fn break_cycles(&mut self) {
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

    pub(super) fn finish_pending(&mut self) {
        let pending = std::mem::take(&mut self.pending);
        // JavaScript property accesses are followed only under the names of the file's own
        // accessors: most files define none, and then cost nothing here.
        let accessors: foldhash::HashSet<&str> = if self.lang.is_js_family() {
            self.facts
                .defs
                .iter()
                .filter(|d| d.accessor != 0)
                .map(|d| d.name.as_str())
                .collect()
        } else {
            Default::default()
        };
        let accessors: foldhash::HashSet<String> =
            accessors.into_iter().map(str::to_string).collect();
        let js_props = self.lang.is_js_family().then(|| js_prop_roles(&pending));
        // Decided once the file's imports and bindings are known (below).
        let mut props = Vec::new();
        for p in pending {
            match p {
                Pending::Prop(n) if js_props.is_some() => props.push(n),
                Pending::Call(n) => {
                    if self.lang.is_js_family() {
                        self.es5_inherits(n);
                    }
                    self.call(n)
                }
                Pending::Decorator(n) => {
                    if let Some(segs) = self.segs(n) {
                        let scope = self.scope_of(n.start_byte() as u32);
                        let decorated = if self.lang.is_js_family() {
                            n.parent().and_then(js_decorated)
                        } else {
                            n.parent()
                                .and_then(|d| d.parent())
                                .and_then(|dd| dd.field(Field::DEFINITION))
                        };
                        let decorates = decorated
                            .and_then(|def| {
                                self.facts
                                    .defs
                                    .iter()
                                    .position(|x| x.start_byte == def.start_byte() as u32)
                            })
                            .map(|i| i as u32);
                        // A JavaScript method's decorators make its value (a standard decorator
                        // returns the method that replaces it), as Python's do: listed
                        // outermost first, in source order.
                        // A decorator factory's call (`@Injectable(TOKEN)`) is a call of its own;
                        // what it returns is called with the class (or, on a constructor's
                        // parameter, `@Inject(TOKEN)`, with the class too) by the scope defining
                        // it. A method's factory decorators are left as they were: what the
                        // method is then called through is not followed.
                        let factory = n.kind() == "call_expression";
                        let on_method = decorates
                            .is_some_and(|d| self.facts.defs[d as usize].kind != DefKind::Class);
                        if factory && on_method {
                            continue;
                        }
                        if self.lang.is_js_family()
                            && !factory
                            && let Some(d) = decorates
                            && self.facts.defs[d as usize].kind == DefKind::Func
                        {
                            self.facts.defs[d as usize].decorators.push(segs.clone());
                        }
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
                            jsx: 0,
                            field_init: false,
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
                Pending::Bind(n) if self.lang.is_js_family() && self.for_of(n) => {}
                Pending::Bind(n) => {
                    let mut scope = self.scope_of(n.start_byte() as u32);
                    let mut line = n.start_position().row as u32 + 1;
                    // A TypeScript parameter is its function's, though written before the body
                    // an arrow's scope spans: `(c) => c.get()` at the top must not hide a
                    // top-level `c`. Outside that span, it is bound where the function starts.
                    let function = n
                        .parent()
                        .filter(|p| matches!(p.kind(), "required_parameter" | "optional_parameter"))
                        .and_then(|p| p.parent())
                        .filter(|ps| ps.kind() == "formal_parameters")
                        .and_then(|ps| ps.parent());
                    // The parameters of a signature without a body (`abstract read(key: string)`,
                    // an interface's method, a function type `(c: Container) => T`) are read
                    // nowhere: bound in the class or function around them, they hid its own
                    // names (`this.key()` in the class with that abstract `read`).
                    if function.is_some_and(|f| {
                        f.kind().ends_with("signature")
                            || matches!(f.kind(), "function_type" | "constructor_type")
                    }) {
                        continue;
                    }
                    if let Some(owner) =
                        function.and_then(|f| self.def_at(f, &[DefKind::Func, DefKind::Scope]))
                        && scope != Some(owner)
                    {
                        scope = Some(owner);
                        line = self.facts.defs[owner as usize].start_line;
                    }
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
                    let mut value = v.and_then(|v| self.returned(v));
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
                Pending::JsParams(start, p) => self.js_params(start, p),
                Pending::ArrowBody(n) => {
                    if let Some(body) = n.field(Field::BODY)
                        && body.kind() != "statement_block"
                        && let Some(d) = self.def_at(n, &[DefKind::Func, DefKind::Scope])
                    {
                        let value = self.returned(body);
                        self.facts.returns.push(ReturnFact {
                            scope: Some(d),
                            value,
                            yields: false,
                        });
                    }
                }
                Pending::LambdaBody(start, body) => {
                    if let Some(d) = self.func_def_at(start) {
                        let value = self.returned(body);
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
        if let Some((skip, writes)) = &js_props {
            self.js_accessor_reads(&props, &accessors, skip, writes);
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
}

/// The definition a JavaScript or TypeScript decorator (the `decorator` node) applies to: the
/// method or class it is part of (JavaScript's grammar), or the method it precedes in a class
/// body (TypeScript's).
fn js_decorated(dec: Node<'_>) -> Option<Node<'_>> {
    let p = dec.parent()?;
    if p.kind() != "class_body" {
        return Some(p);
    }
    let mut next = dec.next_named_sibling();
    while let Some(n) = next {
        match n.kind() {
            "decorator" | "comment" => next = n.next_named_sibling(),
            _ => return Some(n),
        }
    }
    None
}
