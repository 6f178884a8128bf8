//! Assignments and bindings: plain, destructured and starred targets, `setattr`, loops and
//! `with` items.

use super::*;

impl<'t> Extractor<'_, 't> {
    /// `setattr(obj, "name", f)` with a constant name is `obj.name = f`.
    pub(super) fn setattr_assign(&mut self, n: Node) {
        let (Some(f), Some(args)) = (n.field(Field::FUNCTION), n.field(Field::ARGUMENTS)) else {
            return;
        };
        if f.kind() != "identifier" || self.str(f) != "setattr" {
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

    /// `Object.assign(this, { repo, clock: now })` in a method sets the fields `this.repo` and
    /// `this.clock` to the literal's values (later objects override earlier ones, so each is
    /// one more value of the field).
    pub(super) fn assign_to_this(&mut self, scope: Option<u32>, line: u32, args: Node) {
        let parts = named_parts(args);
        let Some((target, sources)) = parts.split_first() else {
            return;
        };
        if target.kind() != "this" {
            return;
        }
        for src in sources {
            if src.kind() != "object" {
                continue;
            }
            for (k, v) in self.elements(*src) {
                if k == "**" || k.is_empty() {
                    continue;
                }
                self.facts.assigns.push(AssignFact::plain(
                    scope,
                    vec!["this".to_string(), k],
                    v,
                    line,
                ));
            }
        }
    }

    /// `d.setdefault(k, []).append(v)` puts a list holding `v` into `d` at a key not known
    /// statically: recorded as `d[*] = [v]`, with a literal made for the list.
    pub(super) fn setdefault_add(&mut self, n: Node) {
        let Some(f) = n.field(Field::FUNCTION) else {
            return;
        };
        let (Some(inner), Some(m)) = (f.field(Field::OBJECT), f.field(Field::ATTRIBUTE)) else {
            return;
        };
        let how = self.text(m);
        if inner.kind() != "call" || !matches!(how.as_str(), "append" | "add" | "extend") {
            return;
        }
        let Some(sf) = inner.field(Field::FUNCTION) else {
            return;
        };
        let (Some(obj), Some(sm)) = (sf.field(Field::OBJECT), sf.field(Field::ATTRIBUTE)) else {
            return;
        };
        if obj.kind() != "identifier" || self.str(sm) != "setdefault" {
            return;
        }
        let Some(args) = n.field(Field::ARGUMENTS) else {
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

    /// `for k, v in d.items():` binds `v` to the dict's values, `for i, v in enumerate(xs):`
    /// to the elements of `xs`.
    pub(super) fn pair_loop(&mut self, n: Node, left: Node, right: Node) {
        let names = named_parts(left);
        let [_, second] = names.as_slice() else {
            return;
        };
        if second.kind() != "identifier" {
            return;
        }
        let (Some(f), Some(args)) = (right.field(Field::FUNCTION), right.field(Field::ARGUMENTS))
        else {
            return;
        };
        let args = named_parts(args);
        let value = match (f.kind(), args.as_slice()) {
            ("attribute", [])
                if f.field(Field::ATTRIBUTE)
                    .is_some_and(|a| self.str(a) == "items") =>
            {
                f.field(Field::OBJECT)
                    .and_then(|o| self.segs(o))
                    .map(|mut v| {
                        v.extend([Seg::Name("values".into()), Seg::Call, Seg::Iter]);
                        v
                    })
            }
            ("identifier", [xs]) if self.str(f) == "enumerate" => self.segs(*xs).map(|mut v| {
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
    pub(super) fn with_item(&mut self, n: Node) {
        let Some(v) = n.field(Field::VALUE) else {
            return;
        };
        let (expr, alias) = if v.kind() == "as_pattern" {
            (v.named_child(0), v.field(Field::ALIAS))
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

    pub(super) fn assign(
        &mut self,
        node: Node,
        left: Option<Node>,
        right: Option<Node>,
        ty: Option<Node>,
    ) {
        let scope = self.scope_of(node.start_byte() as u32);
        let line = node.start_position().row as u32 + 1;
        let Some(left) = left else { return };
        if matches!(node.kind(), "required_parameter" | "optional_parameter")
            && self.param_property(node, left, ty, line)
        {
            return;
        }
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
            right = r.field(Field::RIGHT);
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
                        "pair_pattern" => match (ch.field(Field::KEY), ch.field(Field::VALUE)) {
                            // `const { utils: { join } } = require('./m')`: the names
                            // inside take their parts of the module's member.
                            (Some(k), Some(v))
                                if matches!(v.kind(), "object_pattern" | "array_pattern") =>
                            {
                                let key = require_key(&path);
                                self.facts.imports.push(ImportFact {
                                    scope,
                                    line,
                                    kind: ImportKind::Module {
                                        path: path.clone(),
                                        alias: Some(key.clone()),
                                    },
                                });
                                let value = vec![Seg::Name(key), Seg::Name(self.text(k))];
                                self.destructure(scope, line, v, value, 1);
                                continue;
                            }
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
        // `const { a, b: c } = obj`, `[f, g] = fns`: each name takes its part of the value.
        if self.lang.is_js_family()
            && matches!(left.kind(), "object_pattern" | "array_pattern")
            && let Some(value) = right.and_then(|r| self.segs(r))
        {
            self.destructure(scope, line, left, value, 0);
            return;
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
            let obj = left.field(Field::VALUE)?;
            if self.lang != Lang::Python || left.kind() != "subscript" || obj.kind() != "identifier"
            {
                return None;
            }
            Some(vec![self.text(obj), "[*]".to_string()])
        });
        // CommonJS: `module.exports = v` binds the module's value, `exports`, and
        // `exports.x = v` / `module.exports.x = v` its exported name `x` (as `exports.x`, a
        // name no code can shadow or read bare), wherever they run. Functions and classes
        // assigned there are definitions named `x`; `exports.x = void 0` binds nothing.
        let (target, scope) = match target {
            Some(t) if self.lang.is_js_family() => match cjs_export(&t) {
                Some(t) => {
                    let known = right
                        .is_some_and(|r| self.segs(r).is_some() || !self.elements(r).is_empty());
                    if !known {
                        return;
                    }
                    (Some(t), None)
                }
                None => (Some(t), scope),
            },
            t => (t, scope),
        };
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
                self.keyed_field_store(left, scope, &target, value.as_ref(), line);
                self.facts.assigns.push(AssignFact {
                    scope,
                    target,
                    value,
                    type_name,
                    elements,
                    line,
                    default: None,
                });
            }
            // `entry(ctor).prefix = v`, `rows[i].name = v`: a property is set, no name is
            // bound (`entry` is still the function).
            _ if self.lang.is_js_family()
                && matches!(left.kind(), "member_expression" | "subscript_expression") => {}
            _ => {
                // Tuple targets and the like: every name in them is bound to something unknown.
                for id in identifiers(left) {
                    let name = self.text(id);
                    self.facts.binds.push(BindFact { scope, name, line });
                }
            }
        }
    }

    /// A TypeScript parameter property (`constructor(readonly left: Expr)`): the constructor
    /// sets `this.left` to its argument, a value of the declared type.
    fn param_property(&mut self, param: Node, name: Node, ty: Option<Node>, line: u32) -> bool {
        let Some(ctor) = param
            .parent()
            .and_then(|ps| ps.parent())
            .and_then(|m| self.def_at(m, &[DefKind::Func]))
        else {
            return false;
        };
        let name = self.text(name);
        self.facts.assigns.push(AssignFact {
            type_name: ty.and_then(|t| self.type_segs(t, 0)),
            ..AssignFact::plain(
                Some(ctor),
                vec!["this".into(), name.clone()],
                Some(vec![Seg::Name(name)]),
                line,
            )
        });
        true
    }

    /// The list a starred target collects: elements `before..len - after` of the value. For a
    /// literal written in place they are known one by one; otherwise any element of the value
    /// may be in it.
    pub(super) fn starred_rest(
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
}

/// The module-level name a CommonJS export assignment binds: `module.exports` is `exports`,
/// `exports.x` and `module.exports.x` are `exports.x` (see [`cjs_export_key`]).
fn cjs_export(target: &[String]) -> Option<Vec<String>> {
    match target {
        [m, e] if m == "module" && e == "exports" => Some(vec![e.clone()]),
        [e, x] if e == "exports" => Some(vec![cjs_export_key(x)]),
        [m, e, x] if m == "module" && e == "exports" => Some(vec![cjs_export_key(x)]),
        _ => None,
    }
}

/// The binding of a CommonJS `exports.x`: other modules read `x` there first.
pub(crate) fn cjs_export_key(name: &str) -> String {
    format!("exports.{name}")
}

impl<'s, 't> Extractor<'s, 't> {
    /// JavaScript `this.handlers[name] = fn` (a method keeping a function in a table the
    /// instance holds, by a key known at run time or written): recorded as a value of the
    /// field, a table holding `fn` at that key, so that the methods reading
    /// `this.handlers[key]` (of the class or, through an instance, of any code) get it.
    fn keyed_field_store(
        &mut self,
        left: Node,
        scope: Option<u32>,
        target: &[String],
        value: Option<&Vec<Seg>>,
        line: u32,
    ) {
        if !self.lang.is_js_family() {
            return;
        }
        let ([t, field, key], Some(value)) = (target, value) else {
            return;
        };
        let Some(key) = key.strip_prefix('[').and_then(|k| k.strip_suffix(']')) else {
            return;
        };
        if t != "this" {
            return;
        }
        let held = self.add_literal(
            usize::MAX / 2048 - left.start_byte(),
            left,
            vec![(key.to_string(), Some(value.clone()))],
        );
        self.facts.assigns.push(AssignFact::plain(
            scope,
            vec!["this".into(), field.clone()],
            Some(vec![Seg::Lit(held)]),
            line,
        ));
    }
}
