//! Literal containers: lists, tuples, dicts and sets written in the code, what is added to
//! them later, and what reading, iterating or calling their elements gives.

use super::*;

/// Whether a file's index is built from call `c` (`xs.append(f)` puts `f` into `xs`): such
/// calls are part of what other files see of the file ([`same_interface`]).
pub(super) fn index_reads_call(f: &FileFacts, c: &CallSite) -> bool {
    if c.field_init
        || (f.lang.is_js_family()
            && (super::handoffs::is_handoff(c) || super::mixins::mixin_target(c).is_some()))
    {
        return true;
    }
    match c.callee.as_slice() {
        [Seg::Name(_), Seg::Name(_)] if f.lang == Lang::Python => true,
        // JavaScript `hooks.push(fn)`, `routes.set(k, fn)`.
        [Seg::Name(_), Seg::Name(m)] | [Seg::Lit(_), Seg::Iter, Seg::Name(m)]
            if f.lang.is_js_family() =>
        {
            matches!(m.as_str(), "push" | "unshift" | "add" | "set")
        }
        _ => false,
    }
}

/// The names a JavaScript `c ? a : b` (or `a || b`) written as a receiver may be, when both
/// are plain names: literal `i` of the file, the pair made for it.
pub(super) fn either_names(f: &FileFacts, i: u32) -> Vec<&String> {
    let Some(l) = f.literals.get(i as usize) else {
        return Vec::new();
    };
    let names: Vec<&String> = l
        .elements
        .iter()
        .filter_map(|(_, v)| match v.as_deref() {
            Some([Seg::Name(n)]) => Some(n),
            _ => None,
        })
        .collect();
    if names.len() == l.elements.len() {
        names
    } else {
        Vec::new()
    }
}

impl<'a> Resolver<'a> {
    /// The elements of a literal as written, whether it is a dict, and for one assigned to a
    /// name, that name and its scope (where later changes to it are looked up).
    #[allow(clippy::type_complexity)]
    pub(super) fn literal_parts(
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
    pub(super) fn literal_adds(
        &self,
        f: FileId,
        scope: Option<DefId>,
        name: &str,
        depth: u32,
    ) -> Vec<Val> {
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
    pub(super) fn element(&self, v: &Val, key: &str, depth: u32) -> Vec<Val> {
        // A JavaScript module as a table (`commands[name]()` on a `require`d module): a
        // constant key is that export; any key, any value of what `module.exports` is.
        if let Val::Module(m) = v
            && self.lang(*m).is_js_family()
        {
            if key != "*" {
                return self.module_member(*m, key, depth + 1, true);
            }
            let mut out = Vec::new();
            for w in self.js_module_value(*m, depth + 1) {
                if !matches!(w, Val::Module(_)) {
                    out.extend(self.element(&w, key, depth + 1));
                }
            }
            return out;
        }
        // A key known only at run time: any value the container holds.
        if key == "*" {
            return match v {
                Val::Args(r, i) => self.packed_args(*r, *i, false, None, depth + 1),
                Val::Kwargs(r, i) => self.packed_args(*r, *i, true, None, depth + 1),
                Val::Lit(f, id) => self.literal_values(*f, *id, depth + 1),
                Val::Many(c) => vec![Val::Instance(*c)],
                Val::FieldAdds(c, f) => self.field_values(*c, f, depth),
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
            Val::Many(c) => return vec![Val::Instance(*c)],
            Val::FieldAdds(c, f) => return self.field_values(*c, f, depth),
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
    pub(super) fn literal_values(&self, f: FileId, id: LitId, depth: u32) -> Vec<Val> {
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
    pub(super) fn iterate(&self, v: &Val, depth: u32) -> Vec<Val> {
        if depth > MAX_DEPTH {
            return Vec::new();
        }
        let mut out = Vec::new();
        match v {
            Val::Gen(r) => {
                for ret in self.returns_of(*r) {
                    if ret.yields
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
            Val::Many(c) => out.push(Val::Instance(*c)),
            Val::FieldAdds(c, f) => out = self.field_values(*c, f, depth),
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

    pub(super) fn call_result(&self, v: &Val, depth: u32) -> Vec<Val> {
        if depth > MAX_DEPTH {
            return Vec::new();
        }
        match v {
            Val::Class(c) => vec![Val::Instance(*c)],
            Val::LitMethod(f, id, View::Values) => vec![Val::LitValues(*f, *id)],
            Val::LitMethod(f, id, View::Copy) => vec![Val::Lit(*f, *id)],
            Val::LitMethod(f, id, View::Get) => self.element(&Val::Lit(*f, *id), "*", depth + 1),
            Val::FieldOp(c, f, true) => self.field_values(*c, f, depth),
            Val::FieldOp(c, f, false) => vec![Val::FieldAdds(*c, f.clone())],
            Val::ManyOp(c, true) => vec![Val::Instance(*c)],
            Val::ManyOp(c, false) => vec![Val::Many(*c)],
            Val::Func(r) | Val::Bound(r) => {
                if self.returns_of(*r).any(|x| x.yields) {
                    return vec![Val::Gen(*r)];
                }
                let mut out = Vec::new();
                for ret in self.returns_of(*r) {
                    if let Some(val) = &ret.value {
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
                // `new T()` of a constructor function with prototype methods.
                if self.def(*r).has_proto {
                    out.push(Val::Instance(*r));
                }
                dedup(&mut out);
                out
            }
            _ => Vec::new(),
        }
    }
}
