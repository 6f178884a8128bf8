//! Literal containers and default values: lists, tuples, dicts and sets as facts the resolver
//! reads by key.

use super::*;

impl<'t> Extractor<'_, 't> {
    /// The index of the function definition that starts at byte `start`.
    pub(super) fn func_def_at(&self, start: u32) -> Option<usize> {
        self.facts
            .defs
            .iter()
            .position(|d| d.start_byte == start && d.kind == DefKind::Func)
    }

    /// Default values and the star parameters of the Python function starting at `start`.
    pub(super) fn defaults(&mut self, start: u32, p: Node) {
        let Some(d) = self.func_def_at(start) else {
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
                && [Field::NAME, Field::PATTERN, Field::LEFT]
                    .iter()
                    .find_map(|f| ch.field(*f))
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
                ch.field(Field::VALUE)
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
    pub(super) fn literal(&self, n: Node) -> u32 {
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
        let dict = matches!(
            n.kind(),
            "dictionary" | "dictionary_comprehension" | "object"
        );
        self.add_container(n.start_byte(), n, dict, elements)
    }

    /// The two values of a conditional expression as a literal pair (recorded once, under a
    /// key no literal node has: the pair starts where its first value does).
    pub(super) fn either(&self, n: Node) -> Option<u32> {
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
    pub(super) fn slice_key(&self, slice: Node) -> String {
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

    /// `Object.values(x)` and `Object.entries(x)` in JavaScript: a sequence holding any value
    /// of `x` (for `entries`, pairs whose second element is one), so that a loop over it, or
    /// `forEach`, reaches every function a table of handlers holds.
    pub(super) fn object_view(&self, call: Node) -> Option<u32> {
        let f = call.field(Field::FUNCTION)?;
        if f.kind() != "member_expression" {
            return None;
        }
        let obj = f.field(Field::OBJECT)?;
        let prop = f.field(Field::PROPERTY)?;
        if self.src.get(obj.byte_range())? != b"Object" {
            return None;
        }
        let entries = match self.src.get(prop.byte_range())? {
            b"values" => false,
            b"entries" => true,
            _ => return None,
        };
        let args = call.field(Field::ARGUMENTS)?;
        let mut segs = self.segs(args.named_child(0)?)?;
        segs.push(Seg::Index("*".into()));
        if entries {
            let pair = self.add_literal(
                usize::MAX / 64 - call.start_byte(),
                call,
                vec![("1".into(), Some(segs))],
            );
            segs = vec![Seg::Lit(pair)];
        }
        Some(self.holding_any(call, segs))
    }

    /// `new Map(entries)` and `new Set(values)` in JavaScript: a collection holding the values
    /// (the second element of each entry of a map), read by `get`, `forEach` and loops.
    pub(super) fn js_collection(&self, n: Node, ctor: Node) -> Option<u32> {
        let map = match self.src.get(ctor.byte_range())? {
            b"Map" | b"WeakMap" => true,
            b"Set" | b"WeakSet" => false,
            _ => return None,
        };
        let args = n.field(Field::ARGUMENTS)?;
        // `const m = new Map()`: empty, filled later (`m.set(k, f)`). (A class field's map is
        // filled through `this`: its values are the field's, see `field_adds` in
        // `resolve/fields.rs`.)
        let Some(first) = args.named_child(0) else {
            let field = n.parent().is_some_and(|p| {
                matches!(p.kind(), "field_definition" | "public_field_definition")
            });
            return (!field)
                .then(|| self.add_literal(usize::MAX / 1024 - n.start_byte(), n, Vec::new()));
        };
        let mut segs = self.segs(first)?;
        segs.push(Seg::Iter);
        if map {
            segs.push(Seg::Index("1".into()));
        }
        Some(self.add_literal(
            usize::MAX / 1024 - n.start_byte(),
            n,
            vec![("*".into(), Some(segs))],
        ))
    }

    /// A literal sequence of these elements, made for node `n` (recorded once under `key`,
    /// which no literal node uses).
    pub(super) fn add_literal(
        &self,
        key: usize,
        n: Node,
        elements: Vec<(String, Option<Vec<Seg>>)>,
    ) -> u32 {
        self.add_container(key, n, false, elements)
    }

    /// A literal container made for node `n`, recorded once under `key`.
    pub(super) fn add_container(
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
    pub(super) fn holding_any(&self, n: Node, value: Vec<Seg>) -> u32 {
        let key = usize::MAX / 4 - n.start_byte();
        self.add_literal(key, n, vec![("*".into(), Some(value))])
    }

    /// `a` or `b`, as a literal pair recorded under `key` (see [`Self::either`]).
    pub(super) fn pair(&self, key: usize, n: Node, a: Node, b: Node) -> u32 {
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
    pub(super) fn builtin_view<'n>(&self, call: Node<'n>) -> Option<(Node<'n>, Option<Seg>)> {
        let f = call.field(Field::FUNCTION)?;
        if f.kind() != "identifier" && self.str(f) != "functools.partial" {
            return None;
        }
        let args = call.field(Field::ARGUMENTS)?;
        if args.kind() != "argument_list" {
            return None;
        }
        let a = named_parts(args);
        match (self.str(f), a.as_slice()) {
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
    pub(super) fn with_default(&self, call: Node) -> Option<u32> {
        let f = call.field(Field::FUNCTION)?;
        let args = call.field(Field::ARGUMENTS)?;
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
            ("attribute", [key, default]) if self.str(f.field(Field::ATTRIBUTE)?) == "get" => {
                let mut found = self.segs(f.field(Field::OBJECT)?)?;
                found.push(Seg::Get(
                    self.literal_key(*key).unwrap_or_else(|| "*".into()),
                ));
                (Some(found), *default)
            }
            ("identifier", [obj, name, default]) if self.str(f) == "getattr" => {
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
    pub(super) fn get_key(&self, call: Node) -> Option<String> {
        let f = call.field(Field::FUNCTION)?;
        if f.kind() != "attribute" || self.str(f.field(Field::ATTRIBUTE)?) != "get" {
            return None;
        }
        let args = call.field(Field::ARGUMENTS)?;
        self.literal_key(args.named_child(0)?)
    }

    /// The callees of the calls in the constant string given to `exec` / `eval` (parsed as
    /// Python): dotted names only, since the string's nodes are not this file's bytes.
    pub(super) fn constant_code(&self, args: Node) -> Option<Vec<Vec<Seg>>> {
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
            let Some(f) = c.field(Field::FUNCTION) else {
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
    pub(super) fn pop_key(&self, call: Node) -> Option<String> {
        let f = call.field(Field::FUNCTION)?;
        if f.kind() != "attribute" || self.str(f.field(Field::ATTRIBUTE)?) != "pop" {
            return None;
        }
        let args = call.field(Field::ARGUMENTS)?;
        Some(match args.named_child(0) {
            None => "-1".into(),
            Some(k) => self.literal_key(k).unwrap_or_else(|| "*".into()),
        })
    }

    /// `dict(k=f)` or `dict([("k", f)])`: a literal dict (recorded once per call node).
    pub(super) fn dict_call(&self, call: Node) -> Option<u32> {
        let f = call.field(Field::FUNCTION)?;
        if f.kind() != "identifier" || self.str(f) != "dict" {
            return None;
        }
        if let Some(&i) = self.lits.borrow().1.get(&call.start_byte()) {
            return Some(i);
        }
        let args = call.field(Field::ARGUMENTS)?;
        let mut elements = Vec::new();
        let mut cur = args.walk();
        for a in args.named_children(&mut cur) {
            match a.kind() {
                "keyword_argument" => {
                    let (Some(k), Some(v)) = (a.field(Field::NAME), a.field(Field::VALUE)) else {
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
    pub(super) fn elements(&self, n: Node) -> Vec<(String, Option<Vec<Seg>>)> {
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
                    // `{ run() {} }` and `{ a }` (JavaScript): the method, the local `a`.
                    if ch.kind() == "method_definition"
                        && let Some(name) = ch.field(Field::NAME)
                    {
                        // A method of a literal no name binds is no node, but still a value.
                        let d = self.def_at(ch, &[DefKind::Func, DefKind::Scope]);
                        out.push((unquote(self.str(name)), d.map(|d| vec![Seg::Lambda(d)])));
                        continue;
                    }
                    if ch.kind() == "shorthand_property_identifier" {
                        let name = self.text(ch);
                        out.push((name.clone(), Some(vec![Seg::Name(name)])));
                        continue;
                    }
                    if ch.kind() != "pair" {
                        continue;
                    }
                    let (Some(k), Some(v)) = (ch.field(Field::KEY), ch.field(Field::VALUE)) else {
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
                if let Some(b) = n.field(Field::BODY) {
                    out.push(("*".into(), self.segs(b)));
                }
            }
            "dictionary_comprehension" => {
                if let Some(v) = n.field(Field::BODY).and_then(|b| b.field(Field::VALUE)) {
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
    pub(super) fn literal_key(&self, k: Node) -> Option<String> {
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
                    && self.str(k).starts_with('-') =>
            {
                Some(squash(self.str(k)))
            }
            _ => None,
        }
    }
}
