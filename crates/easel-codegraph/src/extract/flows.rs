//! How JavaScript and TypeScript functions flow through assignments and collections: a
//! function assigned to a variable is named where the variable is declared, functions stored in
//! a collection nested in a field of `this` (registries keyed by type) or registered on an
//! emitter are called by the code that runs what the collection holds. (A flat collection field,
//! `this.items.push(f)`, is followed by the resolver: `resolve/fields.rs`, `field_adds`.)

use super::*;

impl<'s, 't> Extractor<'s, 't> {
    /// Functions assigned to a variable (or a property of one) are named in the scope that
    /// declares the variable, wherever the assignment is made: the function is what the
    /// variable holds, called from wherever it is visible (`function enable() { onSave = ...
    /// }` with a top-level `let onSave` is the module's `onSave`; an undeclared one too).
    pub(super) fn home_assigned(&mut self) {
        for (f, name) in std::mem::take(&mut self.assigned) {
            let Some(d) = self.def_at(f, &[DefKind::Func, DefKind::Class]) else {
                continue;
            };
            let Some(parent) = self.facts.defs[d as usize].parent else {
                continue;
            };
            let home = self.declaring_scope(f, &name);
            if home != Some(parent) {
                self.facts.defs[d as usize].parent = home;
                self.facts.defs[d as usize].written_in = Some(parent);
            }
        }
    }

    /// The definition whose scope declares `name` as seen from `n` (a parameter, a `let`,
    /// `const` or `var` of an enclosing block, a function or class declared there), `None` for
    /// the module or an undeclared name.
    fn declaring_scope(&self, n: Node, name: &str) -> Option<u32> {
        let src = self.src;
        let is =
            |x: Node| x.kind() == "identifier" && src.get(x.byte_range()) == Some(name.as_bytes());
        let mut cur = n.parent();
        while let Some(a) = cur {
            match a.kind() {
                "function_declaration"
                | "function_expression"
                | "arrow_function"
                | "method_definition"
                | "generator_function_declaration"
                | "generator_function" => {
                    let declares = a
                        .field(Field::PARAMETERS)
                        .map(|ps| {
                            named_parts(ps).into_iter().any(|p| {
                                let p = js_param_name(p);
                                is(p)
                            })
                        })
                        .unwrap_or(false)
                        || a.field(Field::PARAMETER).is_some_and(is);
                    if declares {
                        let body = a.field(Field::BODY).unwrap_or(a);
                        return self.scope_of(body.start_byte() as u32 + 1);
                    }
                }
                "statement_block" | "program" | "class_static_block" => {
                    let declares = named_parts(a).into_iter().any(|s| match s.kind() {
                        "lexical_declaration" | "variable_declaration" => named_parts(s)
                            .into_iter()
                            .filter(|d| d.kind() == "variable_declarator")
                            .any(|d| d.field(Field::NAME).is_some_and(is)),
                        "function_declaration"
                        | "class_declaration"
                        | "generator_function_declaration" => s.field(Field::NAME).is_some_and(is),
                        _ => false,
                    });
                    if declares {
                        return if a.kind() == "program" {
                            None
                        } else {
                            self.scope_of(a.start_byte() as u32 + 1)
                        };
                    }
                }
                _ => {}
            }
            cur = a.parent();
        }
        None
    }
}

/// The name a parameter binds (`x`, `x = 1`, TypeScript's `x: T`), else the node itself.
fn js_param_name(p: Node) -> Node {
    let p = match p.kind() {
        "required_parameter" | "optional_parameter" => p.field(Field::PATTERN).unwrap_or(p),
        _ => p,
    };
    match p.kind() {
        "assignment_pattern" => p.field(Field::LEFT).unwrap_or(p),
        _ => p,
    }
}

impl<'s, 't> Extractor<'s, 't> {
    /// A function stored in a collection nested in a field of `this` (`this.byType[t].push(fn)`,
    /// `(this.byType[t] ||= []).push(fn)`, `this.map.get(t).add(fn)`): recorded as a value of
    /// that field, a mapping to sequences holding it, so that the methods reading the field
    /// (`this.byType[t].forEach`, loops over `this.map.get(t)`) call what was stored, as
    /// registries keyed by type do. A flat collection (`this.items.push(fn)`) is the resolver's:
    /// `field_adds` in `resolve/fields.rs` keeps each adder call and evaluates its arguments.
    pub(super) fn this_store(
        &mut self,
        call: Node,
        f: Node,
        scope: Option<u32>,
        args: &[Option<Vec<Seg>>],
    ) {
        if f.kind() != "member_expression" {
            return;
        }
        let Some(m) = f.field(Field::PROPERTY) else {
            return;
        };
        let stored = match self.src.get(m.byte_range()) {
            Some(b"push" | b"add" | b"unshift") => args.first(),
            Some(b"set") => args.get(1),
            _ => return,
        };
        let Some(Some(value)) = stored else { return };
        let Some(mut obj) = f.field(Field::OBJECT) else {
            return;
        };
        // `(this.byType[t] ||= []).push(fn)`, `(this.x[t] = this.x[t] || []).push(fn)`.
        if obj.kind() == "parenthesized_expression"
            && let Some(inner) = obj.named_child(0)
            && matches!(
                inner.kind(),
                "augmented_assignment_expression" | "assignment_expression"
            )
            && let Some(l) = inner.field(Field::LEFT)
        {
            obj = l;
        }
        let Some(segs) = self.segs(obj) else { return };
        // `(handlers[name] ||= []).push(fn)` on a table a name holds: `fn` is in one of the
        // sequences the table holds.
        if let [Seg::Name(n), Seg::Index(_)] = segs.as_slice()
            && n != "this"
        {
            let seq = self.holding_any(call, value.clone());
            let line = call.start_position().row as u32 + 1;
            self.facts.assigns.push(AssignFact::plain(
                scope,
                vec![n.clone(), "[*]".into()],
                Some(vec![Seg::Lit(seq)]),
                line,
            ));
            return;
        }
        let field = match segs.as_slice() {
            [Seg::Name(t), Seg::Name(field), Seg::Index(_)] if t == "this" => field.clone(),
            // `this.map.get(type).add(fn)`: a collection kept in a map the class holds.
            [Seg::Name(t), Seg::Name(field), Seg::Name(get), Seg::Call]
                if t == "this" && get == "get" =>
            {
                field.clone()
            }
            _ => return,
        };
        let seq = self.holding_any(call, value.clone());
        let held = self.add_literal(
            usize::MAX / 512 - call.start_byte(),
            call,
            vec![("*".into(), Some(vec![Seg::Lit(seq)]))],
        );
        let line = call.start_position().row as u32 + 1;
        self.facts.assigns.push(AssignFact::plain(
            scope,
            vec!["this".into(), field],
            Some(vec![Seg::Lit(held)]),
            line,
        ));
    }
}

/// The event call `ci` registers or fires, when one is noted for it.
fn event_at(events: &[(u32, String)], ci: u32) -> Option<&str> {
    let i = events.binary_search_by_key(&ci, |(c, _)| *c).ok()?;
    Some(events[i].1.as_str())
}

/// Whether firing event `fired` may run a listener of event `listened` (`None`: no string
/// literal names it): unless both are named, and differently. An event named at run time
/// ([`ANY_EVENT`]) may be any.
pub(crate) fn may_run(listened: Option<&str>, fired: Option<&str>) -> bool {
    match (listened, fired) {
        (Some(l), Some(f)) => l == f || f == ANY_EVENT,
        _ => true,
    }
}

/// Whether a call registers a listener on an emitter (`x.on('done', f)`).
pub(super) fn registers_listener(callee: &[Seg]) -> bool {
    matches!(callee, [_, .., Seg::Name(m)] if LISTEN_METHODS.contains(&m.as_str()) || m == "prependOnceListener")
}

impl<'s, 't> Extractor<'s, 't> {
    /// Whether a value is an anonymous function written in place (`(x) => ...`).
    pub(super) fn anonymous_lambda(&self, v: &[Seg]) -> bool {
        matches!(v, [Seg::Lambda(d)]
            if self.facts.defs.get(*d as usize).is_some_and(|d| d.kind == DefKind::Scope))
    }
}

/// Methods of an event emitter that register a listener (the function is the last argument).
const LISTEN_METHODS: &[&str] = &[
    "on",
    "once",
    "addListener",
    "prependListener",
    "addEventListener",
];

/// The event noted for a firing call whose event is named at run time: a name no string
/// literal of a program gives.
pub(crate) const ANY_EVENT: &str = "\u{1}any";

/// Methods of an event emitter that run the listeners of an event.
const FIRE_METHODS: &[&str] = &["emit", "dispatchEvent"];

impl<'s, 't> Extractor<'s, 't> {
    /// Notes the event a call about to be pushed registers a listener for or fires, when a
    /// string literal names it (`x.on('done', f)`, `this.emit('done')`,
    /// `this.dispatchEvent(new Event('done'))`): the resolver matches listeners registered on
    /// an instance of an emitter class with the methods of that class firing the same event.
    pub(super) fn note_event(&mut self, callee: &[Seg], args: Option<Node>) {
        let [_, .., Seg::Name(m)] = callee else {
            return;
        };
        let fires = FIRE_METHODS.contains(&m.as_str());
        if !fires && !LISTEN_METHODS.contains(&m.as_str()) && m != "prependOnceListener" {
            return;
        }
        let Some(first) = args.and_then(|a| a.named_child(0)) else {
            return;
        };
        let name = match first.kind() {
            "string" => self.literal_key(first),
            // `new Event('change')`, `new CustomEvent('change', { detail })`.
            "new_expression" if fires => first
                .field(Field::ARGUMENTS)
                .and_then(|a| a.named_child(0))
                .filter(|s| s.kind() == "string")
                .and_then(|s| self.literal_key(s)),
            _ => None,
        };
        // An event named at run time (`this.emit(payload.type)`) may be any of them.
        let name = if fires && name.is_none() {
            Some(ANY_EVENT.to_string())
        } else {
            name
        };
        if let Some(name) = name {
            let ci = self.facts.calls.len() as u32;
            self.facts.events.push((ci, name));
        }
    }

    /// A listener registered on an emitter a class holds (`this.ee.on('x', fn)`) is run by the
    /// methods of that class that emit on it (`this.ee.emit('x')`), not by the registration:
    /// the listener is stored as a value of the field (as [`Self::this_store`] does) and each
    /// emitting method calls what it holds. Without such a method the registration stays the
    /// call.
    pub(super) fn own_emitters(&mut self) {
        self.name_emitters();
        let calls = &self.facts.calls;
        let field_of = |c: &CallSite, names: &[&str]| match c.callee.as_slice() {
            [Seg::Name(t), Seg::Name(f), Seg::Name(m)]
                if t == "this" && names.contains(&m.as_str()) =>
            {
                Some(f.clone())
            }
            _ => None,
        };
        let mut regs = Vec::new();
        for (i, c) in calls.iter().enumerate() {
            if let Some(o) = c.via
                && let Some(f) = field_of(&calls[o as usize], LISTEN_METHODS)
            {
                regs.push((i, f));
            }
        }
        if regs.is_empty() {
            return;
        }
        let class_of = |s: Option<u32>| {
            let mut cur = s;
            while let Some(d) = cur {
                let def = &self.facts.defs[d as usize];
                if def.kind == DefKind::Class && !def.is_namespace {
                    return Some(d);
                }
                cur = def.parent;
            }
            None
        };
        let emits: Vec<(Option<u32>, Option<u32>, String, u32)> = calls
            .iter()
            .filter_map(|c| {
                let f = field_of(c, &["emit", "dispatchEvent"])?;
                Some((class_of(c.scope), c.scope, f, c.line))
            })
            .collect();
        let mut new_calls = Vec::new();
        let mut new_assigns = Vec::new();
        for (i, f) in regs {
            let reg = &self.facts.calls[i];
            let class = class_of(reg.scope);
            if class.is_none() {
                continue;
            }
            let mut found = false;
            let key = format!("{f}:listeners");
            for (c, scope, ef, line) in &emits {
                if *c == class && *ef == f {
                    found = true;
                    new_calls.push(CallSite {
                        maybe: true,
                        ..CallSite::bare(
                            *scope,
                            vec![Seg::Name("this".into()), Seg::Name(key.clone()), Seg::Iter],
                            String::new(),
                            *line,
                        )
                    });
                }
            }
            if found {
                let held = self.holding_any_at(i, reg.callee.clone());
                new_assigns.push(AssignFact::plain(
                    reg.scope,
                    vec!["this".into(), key],
                    Some(vec![Seg::Lit(held)]),
                    reg.line,
                ));
                self.facts.calls[i].callee.clear();
            }
        }
        self.facts.calls.extend(new_calls);
        self.facts.assigns.extend(new_assigns);
    }

    /// A listener registered on an emitter bound at the top of the file (`bus.on('x', f)` with
    /// `const bus = new EventEmitter()`) is run by the functions of the file that emit on it
    /// (`bus.emit('x')`), when the listener is itself a top-level name (so that it means the
    /// same there).
    fn name_emitters(&mut self) {
        let top = |facts: &FileFacts, n: &str| {
            facts
                .defs
                .iter()
                .any(|d| d.parent.is_none() && d.name == n && d.kind != DefKind::Scope)
                || facts
                    .assigns
                    .iter()
                    .any(|a| a.scope.is_none() && a.target.len() == 1 && a.target[0] == n)
                || facts.imports.iter().any(|i| {
                    i.scope.is_none()
                        && matches!(&i.kind, ImportKind::From { name, alias, .. }
                            if alias.as_deref().unwrap_or(name) == n)
                })
        };
        let calls = &self.facts.calls;
        let recv = |c: &CallSite, names: &[&str]| match c.callee.as_slice() {
            [Seg::Name(r), Seg::Name(m)] if names.contains(&m.as_str()) => Some(r.clone()),
            _ => None,
        };
        let mut moved = Vec::new();
        for (i, c) in calls.iter().enumerate() {
            let Some(o) = c.via else { continue };
            let Some(r) = recv(&calls[o as usize], LISTEN_METHODS) else {
                continue;
            };
            let Some(Seg::Name(head)) = c.callee.first() else {
                continue;
            };
            if !top(&self.facts, &r) || !top(&self.facts, head) {
                continue;
            }
            let listened = event_at(&self.facts.events, o);
            let emits: Vec<(Option<u32>, u32, u32)> = calls
                .iter()
                .enumerate()
                .filter(|(_, e)| recv(e, &["emit", "dispatchEvent"]).as_ref() == Some(&r))
                .filter(|(j, _)| may_run(listened, event_at(&self.facts.events, *j as u32)))
                .map(|(j, e)| (e.scope, e.line, j as u32))
                .collect();
            if !emits.is_empty() {
                moved.push((i, emits));
            }
        }
        for (i, emits) in moved {
            let callee = std::mem::take(&mut self.facts.calls[i].callee);
            // Kept only when that `emit` is the library's (an emitter class of the repository
            // runs its listeners itself).
            for (scope, line, j) in emits {
                self.facts.calls.push(CallSite {
                    maybe: true,
                    via: Some(j),
                    ..CallSite::bare(scope, callee.clone(), String::new(), line)
                });
            }
        }
    }

    /// A literal sequence holding `value`, made for call site `i` (no node at hand).
    fn holding_any_at(&self, i: usize, value: Vec<Seg>) -> u32 {
        let c = &self.facts.calls[i];
        let lit = LitFact {
            scope: c.scope,
            line: c.line,
            dict: false,
            elements: vec![("*".into(), Some(value))],
        };
        let mut l = self.lits.borrow_mut();
        l.0.push(lit);
        (l.0.len() - 1) as u32
    }
}
