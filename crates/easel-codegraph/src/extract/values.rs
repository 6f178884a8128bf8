//! JavaScript and TypeScript values that carry functions: object literals bound to a name,
//! functions bound without a declaration of their own, destructuring, and the callbacks that
//! builtins and libraries run.

use super::*;

/// Methods of builtins and of common libraries that run the function they are given, by the
/// argument position it takes (`arr.map(f)`, `p.then(f, g)`, `em.on('x', f)`): the scope
/// that hands the function over calls it.
const CALLBACK_METHODS: &[(&str, &[usize])] = &[
    ("map", &[0]),
    ("forEach", &[0]),
    ("filter", &[0]),
    ("reduce", &[0]),
    ("reduceRight", &[0]),
    ("some", &[0]),
    ("every", &[0]),
    ("find", &[0]),
    ("findIndex", &[0]),
    ("findLast", &[0]),
    ("findLastIndex", &[0]),
    ("flatMap", &[0]),
    ("sort", &[0]),
    ("toSorted", &[0]),
    ("then", &[0, 1]),
    ("catch", &[0]),
    ("finally", &[0]),
    ("on", &[1]),
    ("once", &[1]),
    ("addListener", &[1]),
    ("prependListener", &[1]),
    ("addEventListener", &[1]),
    ("subscribe", &[0]),
    ("replace", &[1]),
    ("replaceAll", &[1]),
    ("from", &[1]),
    ("nextTick", &[0]),
];

/// Global functions that run the function they are given.
const CALLBACK_FUNCS: &[(&str, &[usize])] = &[
    ("setTimeout", &[0]),
    ("setInterval", &[0]),
    ("setImmediate", &[0]),
    ("queueMicrotask", &[0]),
    ("requestAnimationFrame", &[0]),
    ("requestIdleCallback", &[0]),
];

/// The argument positions of a JavaScript call that hold a function the callee runs.
pub(super) fn js_callback_positions(callee: &[Seg], is_new: bool) -> &'static [usize] {
    match callee {
        // `new Promise((resolve) => ...)`, `new Promise(executor)`.
        [Seg::Name(n)] if is_new && n == "Promise" => &[0],
        [Seg::Name(n)] => CALLBACK_FUNCS
            .iter()
            .find(|(f, _)| f == n)
            .map_or(&[], |(_, p)| *p),
        [_, .., Seg::Name(m)] => CALLBACK_METHODS
            .iter()
            .find(|(f, _)| f == m)
            .map_or(&[], |(_, p)| *p),
        _ => &[],
    }
}

/// A TypeScript expression without what only changes its type (`x satisfies T`, `x as const`,
/// `<T>x`, `x!`) and without parentheses: the value it evaluates to.
pub(super) fn js_unwrap(n: Node<'_>) -> Node<'_> {
    let mut n = n;
    for _ in 0..8 {
        let inner = match n.kind() {
            "satisfies_expression"
            | "as_expression"
            | "non_null_expression"
            | "parenthesized_expression" => n.named_child(0),
            "type_assertion" => n.named_child(n.named_child_count().saturating_sub(1) as u32),
            _ => None,
        };
        match inner {
            Some(i) if i.kind() != "comment" => n = i,
            _ => break,
        }
    }
    n
}

/// A JavaScript method written in an object literal that no binding names: the literal (or
/// the outermost literal holding it by key) is not the value of a declaration, an assignment
/// or an export, but an argument, a return value, an element.
pub(super) fn unbound_object_method(m: Node) -> bool {
    let mut obj = match m.parent() {
        Some(p) if p.kind() == "object" => p,
        _ => return false,
    };
    loop {
        let Some(p) = obj.parent() else { return false };
        match p.kind() {
            "pair" => match p.parent() {
                Some(o) if o.kind() == "object" => obj = o,
                _ => return false,
            },
            "parenthesized_expression" | "satisfies_expression" | "as_expression" => obj = p,
            "arguments" | "return_statement" | "array" | "arrow_function" | "spread_element" => {
                return true;
            }
            _ => return false,
        }
    }
}

/// The object or array pattern a JavaScript parameter destructures (`{ cb }`, `[a, b] = []`,
/// TypeScript's `{ cb }: Opts`).
pub(super) fn js_pattern(p: Node) -> Option<Node> {
    let mut n = p;
    for _ in 0..3 {
        match n.kind() {
            "object_pattern" | "array_pattern" => return Some(n),
            "assignment_pattern" => n = n.field(Field::LEFT)?,
            "required_parameter" | "optional_parameter" => n = n.field(Field::PATTERN)?,
            _ => return None,
        }
    }
    None
}

/// `1` for a getter (`get x()`), `2` for a setter (`set x(v)`), else `0`: the keyword is
/// an unnamed child before the name.
pub(super) fn js_accessor(m: Node) -> u8 {
    let mut cur = m.walk();
    for ch in m.children(&mut cur) {
        match ch.kind() {
            "get" | "static get" => return 1,
            "set" => return 2,
            // TypeScript `protected get x()`, `override set x(v)`.
            "decorator" | "accessibility_modifier" | "override_modifier" => {}
            _ if ch.is_named() => return 0,
            _ => {}
        }
    }
    0
}

/// Whether a JavaScript method is `static` (the keyword is an unnamed child before the name,
/// after TypeScript's `public`/`private`).
pub(super) fn js_static(m: Node) -> bool {
    let mut cur = m.walk();
    for ch in m.children(&mut cur) {
        match ch.kind() {
            "static" | "static get" => return true,
            "decorator" | "accessibility_modifier" | "override_modifier" => {}
            _ if ch.is_named() => return false,
            _ => {}
        }
    }
    false
}

/// Whether a parameter list needs more than its names: a destructured parameter, a default
/// value or a rest parameter.
pub(super) fn js_params_special(params: Node) -> bool {
    named_parts(params).into_iter().any(|c| {
        js_pattern(c).is_some()
            || matches!(c.kind(), "assignment_pattern" | "rest_pattern")
            || c.field(Field::VALUE).is_some()
            || c.field(Field::PATTERN)
                .is_some_and(|p| p.kind() == "rest_pattern")
    })
}

/// Which JavaScript property accesses met by the query are no reads: callees (`a.b()`) and
/// what `new` constructs; and which are writes (`a.b = v`). The object of a longer chain is
/// read (`this.items.length` runs the `items` getter).
/// Worked out from the nodes above them, which the query met too, since asking a node for its
/// parent walks down from the root.
pub(super) fn js_prop_roles(
    pending: &[Pending],
) -> (foldhash::HashSet<usize>, foldhash::HashSet<usize>) {
    use foldhash::HashSetExt;
    let mut skip = foldhash::HashSet::new();
    let mut writes = foldhash::HashSet::new();
    for p in pending {
        match p {
            Pending::Call(c) => {
                if let Some(f) = c
                    .field(Field::FUNCTION)
                    .or_else(|| c.field(Field::CONSTRUCTOR))
                {
                    skip.insert(f.id());
                }
            }
            Pending::Assign {
                node,
                left: Some(l),
                ..
            } if node.kind() == "assignment_expression" => {
                writes.insert(l.id());
            }
            _ => {}
        }
    }
    (skip, writes)
}

/// A key written as a name, a string or a number (not computed).
pub(super) fn plain_key(k: Node) -> bool {
    matches!(k.kind(), "property_identifier" | "string" | "number")
}

/// Array methods whose callback takes the elements, by the callback parameter that does.
const ELEMENT_CALLBACKS: &[(&str, &[usize])] = &[
    ("forEach", &[0]),
    ("map", &[0]),
    ("filter", &[0]),
    ("some", &[0]),
    ("every", &[0]),
    ("find", &[0]),
    ("findIndex", &[0]),
    ("findLast", &[0]),
    ("flatMap", &[0]),
    ("reduce", &[1]),
    ("reduceRight", &[1]),
    // A comparator takes two elements.
    ("sort", &[0, 1]),
    ("toSorted", &[0, 1]),
];

impl<'t> Extractor<'_, 't> {
    /// A JSX element's attributes as the props object its component receives
    /// (`<Button onPress={save} />` is `Button({ onPress: save })`); `None` when there are none
    /// or a spread (`{...props}`) makes them unknown.
    pub(super) fn jsx_props(&self, el: Node) -> Option<Vec<Seg>> {
        let mut elements = Vec::new();
        for a in named_parts(el) {
            match a.kind() {
                "jsx_attribute" => {
                    let parts = named_parts(a);
                    let (Some(k), Some(v)) = (parts.first(), parts.get(1)) else {
                        continue;
                    };
                    if v.kind() != "jsx_expression" {
                        continue;
                    }
                    let value = v.named_child(0).and_then(|e| self.segs(e));
                    if value.is_some() {
                        elements.push((self.text(*k), value));
                    }
                }
                "jsx_expression" => return None,
                _ => {}
            }
        }
        if elements.is_empty() {
            return None;
        }
        Some(vec![Seg::Lit(self.add_container(
            usize::MAX / 32 - el.start_byte(),
            el,
            true,
            elements,
        ))])
    }

    /// A JavaScript property read (`kind` 1) or write (2): a call only if a getter or setter
    /// of that name is what it reaches.
    /// Which property reads and writes may run an accessor, so become call sites: those
    /// named like one of the file's own accessors, and those whose object the resolver can
    /// type: `this`, `super`, a name bound by an import (another module's accessors) or to
    /// what a call returns (`new C()`, `require(...)`, a factory). Reads of other objects
    /// (parameters, literals, builtins) are left out: they are most reads and seldom typed.
    pub(super) fn js_accessor_reads(
        &mut self,
        props: &[Node<'t>],
        accessors: &foldhash::HashSet<String>,
        skip: &foldhash::HashSet<usize>,
        writes: &foldhash::HashSet<usize>,
    ) {
        if props.is_empty() {
            return;
        }
        let mut typed: foldhash::HashSet<&str> = foldhash::HashSet::default();
        for i in &self.facts.imports {
            match &i.kind {
                ImportKind::From { name, alias, .. } => {
                    typed.insert(alias.as_deref().unwrap_or(name));
                }
                ImportKind::Module { alias: Some(a), .. } => {
                    typed.insert(a);
                }
                _ => {}
            }
        }
        // Parameters with a declared type (`cart: Cart`).
        for d in &self.facts.defs {
            for (p, t) in d.params.iter().zip(&d.param_types) {
                if t.is_some() {
                    typed.insert(p);
                }
            }
        }
        // In source order, so `const cart = Cart.shared` is typed once `Cart` is.
        for a in &self.facts.assigns {
            let typed_value = a.value.as_ref().is_some_and(|v| {
                v.last() == Some(&Seg::Call)
                    || matches!(v.first(), Some(Seg::Name(r)) if v.len() > 1 && typed.contains(r.as_str()))
            });
            if let [t] = a.target.as_slice()
                && (a.type_name.is_some() || typed_value)
            {
                typed.insert(t);
            }
        }
        let typed: foldhash::HashSet<String> = typed.into_iter().map(str::to_string).collect();
        for &n in props {
            if skip.contains(&n.id()) {
                continue;
            }
            let named = n
                .field(Field::PROPERTY)
                .is_some_and(|p| accessors.contains(self.str(p)));
            // The root of a chain decides: `Settings.instance.volume` is typed as `Settings` is,
            // and so is a property read on what a call gives (`sheet.get("A1").display`).
            let mut root = n.field(Field::OBJECT);
            while let Some(o) = root
                && matches!(
                    o.kind(),
                    "member_expression" | "non_null_expression" | "call_expression"
                )
            {
                root = if o.kind() == "call_expression" {
                    o.field(Field::FUNCTION)
                } else {
                    o.field(Field::OBJECT).or_else(|| o.named_child(0))
                };
            }
            let typed_object = root.is_some_and(|o| match o.kind() {
                "this" | "super" => true,
                "identifier" => typed.contains(self.str(o)),
                _ => false,
            });
            if named || typed_object {
                let kind = if writes.contains(&n.id()) { 2 } else { 1 };
                self.js_prop(n, kind);
            }
        }
    }

    /// ES5 inheritance: `Child.prototype = Object.create(Parent.prototype)`,
    /// `util.inherits(Child, Parent)` and `Object.setPrototypeOf(Child.prototype,
    /// Parent.prototype)` make the constructor function `Parent` a base of `Child`.
    pub(super) fn es5_inherits(&mut self, call: Node) {
        let Some(f) = call.field(Field::FUNCTION) else {
            return;
        };
        let (object, method) = match f.kind() {
            "member_expression" => (f.field(Field::OBJECT), f.field(Field::PROPERTY)),
            "identifier" => (None, Some(f)),
            _ => return,
        };
        let Some(method) = method.map(|m| self.str(m)) else {
            return;
        };
        if !matches!(method, "create" | "inherits" | "setPrototypeOf") {
            return;
        }
        let on_object = object.is_some_and(|o| self.str(o) == "Object");
        let Some(args) = call.field(Field::ARGUMENTS) else {
            return;
        };
        let args = named_parts(args);
        let name = |n: Option<&Node>| {
            n.filter(|n| n.kind() == "identifier")
                .map(|n| self.str(*n).to_string())
        };
        let proto_of = |n: Option<&Node>| {
            let n = n.filter(|n| n.kind() == "member_expression")?;
            if n.field(Field::PROPERTY).map(|p| self.str(p)) != Some("prototype") {
                return None;
            }
            name(n.field(Field::OBJECT).as_ref())
        };
        let (child, base) = match method {
            "inherits" => (name(args.first()), name(args.get(1))),
            "setPrototypeOf" if on_object => (proto_of(args.first()), proto_of(args.get(1))),
            "create" if on_object => {
                let child = call
                    .parent()
                    .filter(|a| a.kind() == "assignment_expression")
                    .filter(|a| a.field(Field::RIGHT).is_some_and(|r| r.id() == call.id()))
                    .and_then(|a| proto_of(a.field(Field::LEFT).as_ref()));
                (child, proto_of(args.first()))
            }
            _ => return,
        };
        let (Some(child), Some(base)) = (child, base) else {
            return;
        };
        // The constructor of that name in the scope of the statement, else any of the file.
        let scope = self.scope_of(call.start_byte() as u32);
        let is_ctor = |d: &Def| {
            d.name == child && matches!(d.kind, DefKind::Func | DefKind::Class) && !d.is_lambda
        };
        let defs = &self.facts.defs;
        let Some(i) = defs
            .iter()
            .position(|d| is_ctor(d) && d.parent == scope)
            .or_else(|| defs.iter().position(is_ctor))
        else {
            return;
        };
        let d = &mut self.facts.defs[i];
        if d.kind == DefKind::Func {
            d.has_proto = true;
        }
        d.bases.push(vec![Seg::Name(base)]);
    }

    pub(super) fn js_prop(&mut self, n: Node, kind: u8) {
        let Some(callee) = self.segs(n) else { return };
        let (scope, field_init) = self.field_init_scope(n, self.scope_of(n.start_byte() as u32));
        let line = n.start_position().row as u32 + 1;
        self.facts.calls.push(CallSite {
            maybe: true,
            prop: kind,
            field_init,
            ..CallSite::bare(scope, callee, String::new(), line)
        });
    }

    /// `fns.forEach((fn) => fn())`: the callback written in place takes the elements of
    /// the array it is called on.
    pub(super) fn element_callback(&mut self, callee: &[Seg], args: Node) {
        let [recv @ .., Seg::Name(m)] = callee else {
            return;
        };
        let Some(&(_, positions)) = ELEMENT_CALLBACKS.iter().find(|(n, _)| n == m) else {
            return;
        };
        if recv.is_empty() {
            return;
        }
        let Some(cb) = named_parts(args).into_iter().next() else {
            return;
        };
        if !matches!(cb.kind(), "arrow_function" | "function_expression") {
            return;
        }
        let Some(d) = self.def_at(cb, &[DefKind::Scope, DefKind::Func]) else {
            return;
        };
        for &pos in positions {
            let def = &self.facts.defs[d as usize];
            let Some(p) = def.params.get(pos).cloned() else {
                continue;
            };
            let line = def.start_line;
            let mut value = recv.to_vec();
            value.push(Seg::Iter);
            // A pattern (`([name, fn]) => fn()`): its names take the parts of each element.
            if p.starts_with('{') {
                let pattern = cb
                    .field(Field::PARAMETERS)
                    .and_then(|ps| named_parts(ps).into_iter().nth(pos))
                    .and_then(js_pattern);
                if let Some(pattern) = pattern {
                    self.destructure(Some(d), line, pattern, value, 0);
                }
                continue;
            }
            self.facts
                .assigns
                .push(AssignFact::plain(Some(d), vec![p], Some(value), line));
        }
    }

    /// `for (const f of fns)`: `f` takes the values of `fns` (a `for ... in` takes keys, which
    /// are no functions). Whether the binding was made here.
    pub(super) fn for_of(&mut self, n: Node) -> bool {
        let Some(p) = self.for_loops.get(&n.id()).copied() else {
            return false;
        };
        if p.kind() != "for_in_statement"
            || p.field(Field::OPERATOR).map(|o| o.kind()) != Some("of")
            || p.field(Field::LEFT).is_none_or(|l| l.id() != n.id())
        {
            return false;
        }
        let Some(mut value) = p.field(Field::RIGHT).and_then(|r| self.segs(r)) else {
            return false;
        };
        value.push(Seg::Iter);
        let scope = self.scope_of(n.start_byte() as u32);
        let line = n.start_position().row as u32 + 1;
        match n.kind() {
            "identifier" => {
                self.facts.assigns.push(AssignFact::plain(
                    scope,
                    vec![self.text(n)],
                    Some(value),
                    line,
                ));
                true
            }
            "object_pattern" | "array_pattern" => {
                self.destructure(scope, line, n, value, 0);
                true
            }
            _ => false,
        }
    }

    /// `(function (fn) { fn(); })(log)`: an immediately invoked function's parameters are its
    /// arguments.
    pub(super) fn iife_args(&mut self, f: Node, args: &[Option<Vec<Seg>>]) {
        let mut f = f;
        while f.kind() == "parenthesized_expression" {
            match f.named_child(0) {
                Some(inner) => f = inner,
                None => return,
            }
        }
        if !matches!(f.kind(), "function_expression" | "arrow_function") || args.is_empty() {
            return;
        }
        let Some(d) = self.def_at(f, &[DefKind::Scope, DefKind::Func]) else {
            return;
        };
        let params = self.facts.defs[d as usize].params.clone();
        // Bound where the parameters are, so that every read in the body sees the argument.
        let line = self.facts.defs[d as usize].start_line;
        for (p, a) in params.into_iter().zip(args) {
            if let Some(a) = a
                && !p.starts_with('{')
            {
                self.facts
                    .assigns
                    .push(AssignFact::plain(Some(d), vec![p], Some(a.clone()), line));
            }
        }
    }

    /// A function's parameters beyond plain names: the names destructured ones bind (each
    /// read from the parameter standing for the pattern, `{0}` for the first), default
    /// values (`cb = helper`), and a rest parameter (`...fns`) collecting the arguments.
    pub(super) fn js_params(&mut self, start: u32, params: Node) {
        let Some(d) = self.func_def_at(start) else {
            return;
        };
        let line = self.facts.defs[d].start_line;
        let mut defaults = Vec::new();
        let mut star = None;
        for ch in named_parts(params) {
            let i = defaults.len();
            if IDENT_KINDS.contains(&ch.kind()) {
                defaults.push(None);
                continue;
            }
            let default = ch
                .field(Field::VALUE)
                .or_else(|| {
                    (ch.kind() == "assignment_pattern")
                        .then(|| ch.field(Field::RIGHT))
                        .flatten()
                })
                .and_then(|v| self.segs(v));
            if let Some(p) = js_pattern(ch) {
                let value = vec![Seg::Name(format!("{{{i}}}"))];
                self.destructure(Some(d as u32), line, p, value, 0);
                defaults.push(default);
                continue;
            }
            let named = [Field::NAME, Field::PATTERN, Field::LEFT]
                .iter()
                .find_map(|f| ch.field(*f))
                .filter(|n| n.kind() == "identifier")
                .or_else(|| first_identifier(ch));
            if named.is_none() {
                continue;
            }
            let rest = ch.kind() == "rest_pattern"
                || ch
                    .field(Field::PATTERN)
                    .is_some_and(|p| p.kind() == "rest_pattern");
            if rest {
                star = Some(i as u32);
            }
            defaults.push(default);
        }
        let def = &mut self.facts.defs[d];
        if defaults.len() == def.params.len() {
            def.defaults = defaults;
            def.star = star;
        }
    }

    /// `name = <function, class or object literal>` (a declaration or an assignment to a plain
    /// name): the value is named after it.
    pub(super) fn name_value(&mut self, left: Node, right: Node<'t>, assigned: bool) {
        let is_fn = matches!(right.kind(), "arrow_function" | "function_expression");
        if left.kind() == "member_expression" {
            if is_fn && assigned {
                self.name_property_function(left, right);
            }
            return;
        }
        if left.kind() != "identifier" {
            return;
        }
        match right.kind() {
            "arrow_function" | "function_expression" => {
                let name = self.text(left);
                if assigned {
                    self.assigned.push((right, name.clone()));
                }
                self.renames
                    .insert((right.start_byte() as u32, right.end_byte() as u32), name);
            }
            "object" => {
                let name = self.text(left);
                self.object_names.insert(right.id(), name);
            }
            _ => {}
        }
    }

    /// `obj.p = function`, `App.util.pad = function`: named by the target's path (`obj.p`);
    /// `T.prototype.m = function` is the method `m` of `T`. `this.x`, `module.exports` and
    /// `exports.x` are named elsewhere (or not at all).
    fn name_property_function(&mut self, left: Node, right: Node<'t>) {
        let Some(path) = self.property_path(left) else {
            return;
        };
        let head = path[0].clone();
        let key = (right.start_byte() as u32, right.end_byte() as u32);
        if let [t, p, m] = path.as_slice()
            && p == "prototype"
        {
            self.proto.insert(key, t.clone());
            self.renames.insert(key, m.clone());
            return;
        }
        let name = path
            .iter()
            .enumerate()
            .filter(|(i, p)| !(*i > 0 && p.as_str() == "prototype"))
            .map(|(_, p)| p.as_str())
            .collect::<Vec<_>>()
            .join(".");
        self.assigned.push((right, head));
        self.renames.insert(key, name);
    }

    /// The names of an assignment target `a.b.c` (`a` a plain name, not `module`/`exports`).
    fn property_path(&self, left: Node) -> Option<Vec<String>> {
        let mut path = Vec::new();
        let mut cur = left;
        while cur.kind() == "member_expression" {
            let p = cur.field(Field::PROPERTY)?;
            if p.kind() != "property_identifier" || path.len() > 8 {
                return None;
            }
            path.push(self.text(p));
            cur = cur.field(Field::OBJECT)?;
        }
        if cur.kind() != "identifier" {
            return None;
        }
        let head = self.text(cur);
        if matches!(head.as_str(), "module" | "exports") {
            return None;
        }
        path.push(head);
        path.reverse();
        Some(path)
    }

    /// An object literal: bound to a name, a container for its methods, its keys naming the
    /// functions and the literals they hold (`obj.inner.f`).
    pub(super) fn object_literal(&mut self, n: Node) {
        let Some(name) = self.object_names.get(&n.id()).cloned() else {
            // Bound to no name (returned, passed along), its methods are anonymous functions:
            // transparent, their calls belonging to the named scope around them. TypeScript's
            // `export = { load() {} }` is the module's own `load`, as CommonJS's is.
            let methods: Vec<Node> = named_parts(n)
                .into_iter()
                .filter(|m| m.kind() == "method_definition")
                .collect();
            if methods.is_empty() || n.parent().is_some_and(|p| self.exported_literal(p)) {
                return;
            }
            for m in methods {
                if let Some(d) = self.def_at(m, &[DefKind::Func]) {
                    self.facts.defs[d as usize].kind = DefKind::Scope;
                }
            }
            return;
        };
        self.add_def(n, n, DefKind::Class, name, Vec::new(), None, false);
        if let Some(d) = self.facts.defs.last_mut() {
            d.is_namespace = true;
            d.is_object = true;
        }
        for pair in named_parts(n) {
            if pair.kind() != "pair" {
                continue;
            }
            let (Some(k), Some(v)) = (pair.field(Field::KEY), pair.field(Field::VALUE)) else {
                continue;
            };
            if !plain_key(k) {
                continue;
            }
            let key = unquote(&self.text(k));
            let v = js_unwrap(v);
            match v.kind() {
                "object" => {
                    self.object_names.insert(v.id(), key);
                }
                "arrow_function" | "function_expression" => {
                    self.renames
                        .insert((v.start_byte() as u32, v.end_byte() as u32), key);
                }
                _ => {}
            }
        }
    }

    /// Whether an object literal under `p` is the module's value (`export = {…}`,
    /// `module.exports = {…}`): its methods are the module's own functions.
    fn exported_literal(&self, p: Node) -> bool {
        match p.kind() {
            "export_statement" => true,
            "assignment_expression" => p.field(Field::LEFT).is_some_and(|l| {
                self.src.get(l.byte_range()) == Some(b"module.exports".as_slice())
            }),
            _ => false,
        }
    }

    /// Class fields holding functions (`run = () => ...`): methods of that name.
    pub(super) fn name_fields(&mut self, body: Node) {
        for f in named_parts(body) {
            let name = match f.kind() {
                "field_definition" => f.field(Field::PROPERTY),
                "public_field_definition" => f.field(Field::NAME),
                _ => None,
            };
            if let (Some(name), Some(v)) = (name, f.field(Field::VALUE))
                && matches!(v.kind(), "arrow_function" | "function_expression")
            {
                let name = self.text(name);
                self.renames
                    .insert((v.start_byte() as u32, v.end_byte() as u32), name);
            }
        }
    }

    /// An arrow function or function expression: anonymous (a scope whose calls belong to the
    /// named scope around it) unless a binding names it later ([`Self::apply_renames`]) or it
    /// has a name of its own (`on('x', function handler() {})`).
    pub(super) fn function_value(&mut self, n: Node<'t>) {
        let own = (n.kind() == "function_expression")
            .then(|| n.field(Field::NAME))
            .flatten()
            .map(|k| self.text(k));
        let params = self.fn_params(n);
        let types = n
            .field(Field::PARAMETERS)
            .map(|p| self.param_types(p))
            .unwrap_or_default();
        let body = n.field(Field::BODY).unwrap_or(n);
        let (kind, name) = match own {
            Some(name) => (DefKind::Func, name),
            None => (DefKind::Scope, "<scope>".to_string()),
        };
        self.add_def(n, body, kind, name, Vec::new(), None, true);
        if let Some(d) = self.facts.defs.last_mut() {
            d.params = params;
            d.param_types = types;
        }
        if let Some(p) = n.field(Field::PARAMETERS)
            && js_params_special(p)
        {
            self.pending
                .push(Pending::JsParams(n.start_byte() as u32, p));
        }
        if n.kind() == "arrow_function" {
            self.pending.push(Pending::ArrowBody(n));
        }
    }

    /// Names the object literals and function values that bindings met during the query
    /// name (outer literals first: they name the literals inside them).
    pub(super) fn apply_renames(&mut self) {
        let mut objects = std::mem::take(&mut self.objects);
        objects.sort_by_key(|o| o.start_byte());
        for o in objects {
            self.object_literal(o);
        }
        if self.renames.is_empty() {
            return;
        }
        for d in &mut self.facts.defs {
            if !d.is_lambda || !matches!(d.kind, DefKind::Func | DefKind::Scope) {
                continue;
            }
            if let Some(name) = self.renames.get(&(d.start_byte, d.end_byte)) {
                d.kind = DefKind::Func;
                d.name = name.clone();
                d.receiver = self.proto.get(&(d.start_byte, d.end_byte)).cloned();
            }
        }
    }

    /// A class expression: named after its binding (`let X = class Y {}` is `X`), else by its
    /// own name (`return class Widget {}`); an anonymous one bound to nothing is no node.
    pub(super) fn class_expression(&mut self, n: Node<'t>) {
        let Some(p) = n.parent() else { return };
        let is = |f: Field| p.field(f).is_some_and(|c| c.id() == n.id());
        let bound = match p.kind() {
            "variable_declarator" if is(Field::VALUE) => p.field(Field::NAME),
            "assignment_expression" if is(Field::RIGHT) => p.field(Field::LEFT),
            _ => None,
        }
        .filter(|b| b.kind() == "identifier");
        // `registry.Note = class extends Base {}` is `registry.Note`.
        let path = match p.kind() {
            "assignment_expression" if bound.is_none() && is(Field::RIGHT) => p
                .field(Field::LEFT)
                .filter(|l| l.kind() == "member_expression")
                .and_then(|l| self.property_path(l))
                .filter(|p| !p.iter().any(|x| x == "prototype")),
            _ => None,
        };
        let name = match (&path, bound.or_else(|| n.field(Field::NAME))) {
            (Some(path), _) => path.join("."),
            (None, Some(name)) => self.text(name),
            (None, None) => ANON_CLASS.to_string(),
        };
        if let Some(path) = &path {
            self.assigned.push((n, path[0].clone()));
        } else if bound.is_some() && p.kind() == "assignment_expression" {
            self.assigned.push((n, name.clone()));
        }
        let Some(body) = n.field(Field::BODY) else {
            return;
        };
        let mut bases = Vec::new();
        let mut cur = n.walk();
        for h in n.named_children(&mut cur) {
            if h.kind() != "class_heritage" {
                continue;
            }
            for part in named_parts(h) {
                match part.kind() {
                    "extends_clause" => {
                        if let Some(v) = part.field(Field::VALUE) {
                            bases.extend(self.js_bases(v));
                        }
                    }
                    "implements_clause" => {
                        bases.extend(named_parts(part).into_iter().filter_map(|t| self.segs(t)))
                    }
                    _ => bases.extend(self.js_bases(part)),
                }
            }
        }
        self.name_fields(body);
        self.add_def(n, body, DefKind::Class, name, bases, None, false);
    }

    /// The definition made for a node (a function or class written as a value), if any.
    /// What a `return` (or an arrow's expression body) gives: an anonymous function written
    /// there is a value too (`return function (particle) { ... }`, `(g) => (p) => ...`), so
    /// that where the result is called gives its parameters their arguments; elsewhere an
    /// anonymous function is no value the resolver follows.
    pub(super) fn returned(&self, v: Node) -> Option<Vec<Seg>> {
        let mut n = v;
        while n.kind() == "parenthesized_expression" {
            n = n.named_child(0)?;
        }
        if self.lang.is_js_family()
            && matches!(n.kind(), "arrow_function" | "function_expression")
            && let Some(d) = self.def_at(n, &[DefKind::Scope])
        {
            return Some(vec![Seg::Lambda(d)]);
        }
        self.segs(v)
    }

    /// The bases a JavaScript `extends` value gives: the value, and for a mixin applied to a
    /// base (`extends Serializable(Timestamped(Entity))`), the base it is applied to after
    /// it, so that the class's methods and `super` reach `Entity`'s through the mixins.
    pub(super) fn js_bases(&self, v: Node) -> Vec<Vec<Seg>> {
        let mut out = Vec::new();
        let mut cur = Some(v);
        while let Some(b) = cur.take() {
            out.extend(self.segs(b));
            // Only a name, a path or another mixin's call is a base: reading anything else
            // here (`makeClass({ ... })`) would make its literals and functions too early.
            if b.kind() == "call_expression"
                && out.len() < 8
                && let Some(a) = b.field(Field::ARGUMENTS)
            {
                cur = named_parts(a)
                    .into_iter()
                    .find(|x| x.kind() != "comment")
                    .filter(|x| {
                        matches!(
                            x.kind(),
                            "identifier" | "member_expression" | "call_expression"
                        )
                    });
            }
        }
        out
    }

    pub(super) fn def_at(&self, n: Node, kinds: &[DefKind]) -> Option<u32> {
        let start = n.start_byte() as u32;
        let defs = &self.facts.defs;
        let i = defs.partition_point(|d| d.start_byte < start);
        defs[i..]
            .iter()
            .take_while(|d| d.start_byte == start)
            .position(|d| d.end_byte == n.end_byte() as u32 && kinds.contains(&d.kind))
            .map(|j| (i + j) as u32)
    }
}
