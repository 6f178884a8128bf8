//! Calls: from a call site's callee to the definitions it reaches, constructors, property
//! accesses, builtins and callbacks, and the value of an expression.

use super::*;

/// A special method called by an operator, a subscript, a builtin or a `with` statement
/// (extraction gives these no text).
pub(super) fn is_implicit_dunder(call: &crate::extract::CallSite) -> bool {
    call.text.is_empty()
        && matches!(call.callee.last(), Some(Seg::Name(n)) if n.len() > 4 && n.starts_with("__") && n.ends_with("__"))
}

impl<'a> Resolver<'a> {
    /// Whether an unresolved call names a builtin of the language that the file does not
    /// shadow: a binding of the name in any enclosing scope (a local function, an import, a
    /// parameter) means the call is to that, whatever it is.
    pub(super) fn calls_builtin(&self, fi: FileId, call: &crate::extract::CallSite) -> bool {
        let Some(Seg::Name(head)) = call.callee.first() else {
            return false;
        };
        let lang = self.lang(fi);
        if !crate::builtins::is_builtin(lang, head, call.text.ends_with('!')) {
            return false;
        }
        let f = &self.files[fi as usize];
        let ix = &self.idx[fi as usize];
        let mut cur = call.scope;
        while let Some(d) = cur {
            if ix.bindings.contains_key(&(Some(d), head.clone())) {
                return false;
            }
            cur = f.defs[d as usize].parent;
        }
        !ix.bindings.contains_key(&(None, head.clone()))
    }

    /// Whether call `o` of file `fi` is the builtin or standard function that calls the
    /// function it is given (see `extract::callback_arg`): `map` not shadowed by a name of
    /// the file, `reduce` imported from `functools`, `.sort` of something no class of the
    /// repository provides.
    pub(super) fn calls_back(&self, fi: FileId, o: u32) -> bool {
        let Some(outer) = self.call_site(fi, o) else {
            return false;
        };
        // A component is run by the JSX factory when that is a function of the repository
        // (which the factory's own calls then show), else by the library, for the scope
        // writing the element.
        if outer.jsx != 0 {
            return self.call_targets(fi, outer).is_none();
        }
        if self.lang(fi).is_js_family() {
            // `setTimeout(f)` and `new Promise(f)` of the host, or a method no code of the
            // repository provides (`arr.map(f)`, `p.then(f)`, `emitter.on('x', f)`).
            return match outer.callee.as_slice() {
                [Seg::Name(n)] if outer.is_new && n == "Promise" => {
                    self.call_targets(fi, outer).is_none()
                }
                [Seg::Name(_)] => self.calls_builtin(fi, outer),
                _ => self.call_targets(fi, outer).is_none() && !self.literal_method(fi, outer),
            };
        }
        match outer.callee.as_slice() {
            // `map`, `sorted`, ... and the builtins that call special methods (`len`, `str`).
            [Seg::Name(_)] if self.calls_builtin(fi, outer) => true,
            [.., Seg::Name(n)] if n == "sort" && outer.callee.len() >= 2 => {
                self.call_targets(fi, outer).is_none()
            }
            _ => self
                .external_name(fi, outer)
                .is_some_and(|n| STDLIB_CALLBACKS.contains(&n.as_str())),
        }
    }

    /// Whether `outer` calls a method written in an object literal of the repository that no
    /// name binds (`createStore()` returning `{ subscribe(fn) {...} }`, then
    /// `store.subscribe(render)`): code of the repository, not a library, so the function
    /// handed over is not called where it is handed over.
    fn literal_method(&self, fi: FileId, outer: &crate::extract::CallSite) -> bool {
        let [recv @ .., Seg::Name(m)] = outer.callee.as_slice() else {
            return false;
        };
        if recv.is_empty() {
            return false;
        }
        reset_budget();
        self.eval(fi, outer.scope, recv, Some(outer.line), 0)
            .iter()
            .any(|v| match v {
                Val::Lit(f, id) if self.lang(*f).is_js_family() => {
                    self.literal_parts(*f, *id).3.iter().any(|(k, v)| {
                        k == m
                            && match v.as_deref() {
                                None => true,
                                Some([Seg::Lambda(d)]) => {
                                    self.files[*f as usize].defs[*d as usize].kind == DefKind::Scope
                                }
                                _ => false,
                            }
                    })
                }
                _ => false,
            })
    }

    /// Whether a callback's value may be a function, class or method of the repository.
    pub(super) fn may_be_function(&self, fi: FileId, call: &crate::extract::CallSite) -> bool {
        reset_budget();
        self.eval(fi, call.scope, &call.callee, Some(call.line), 0)
            .iter()
            .any(|v| matches!(v, Val::Func(_) | Val::Bound(_) | Val::Class(_)))
    }

    /// The full dotted name of a call into a module outside the repository, through the import
    /// that binds the callee's first name (`np.linalg.norm()` → `numpy.linalg.norm`).
    pub(super) fn external_name(
        &self,
        fi: FileId,
        call: &crate::extract::CallSite,
    ) -> Option<String> {
        if self.lang(fi) != Lang::Python {
            return None;
        }
        let names: Vec<&str> = call
            .callee
            .iter()
            .map(|s| match s {
                Seg::Name(n) => Some(n.as_str()),
                _ => None,
            })
            .collect::<Option<_>>()?;
        let (head, rest) = names.split_first()?;
        let f = &self.files[fi as usize];
        let ix = &self.idx[fi as usize];
        let key = |d: Option<DefId>| (d, head.to_string());
        let mut cur = call.scope;
        let mut found = None;
        while let Some(d) = cur {
            if ix.globals.contains(&key(Some(d))) {
                break;
            }
            if let Some(b) = ix.bindings.get(&key(Some(d))) {
                found = Some(b);
                break;
            }
            cur = f.defs[d as usize].parent;
        }
        let bs = found.or_else(|| ix.bindings.get(&key(None)))?;
        let b = bs
            .iter()
            .rev()
            .find(|b| b.line <= call.line)
            .or(bs.last())?;
        let BindKind::Import(i) = b.kind else {
            return None;
        };
        let base = match &f.imports[i as usize].kind {
            ImportKind::Module { path, alias } => {
                if !self.import_val(fi, i, 0).is_empty() {
                    return None;
                }
                match alias {
                    Some(_) => crate::extract::amd_module_id(path)
                        .unwrap_or(path)
                        .to_string(),
                    None => head.to_string(),
                }
            }
            ImportKind::From {
                path,
                level: 0,
                name,
                ..
            } => {
                if !self.py_module_val(path, Some(fi)).is_empty() {
                    return None;
                }
                format!("{path}.{name}")
            }
            _ => return None,
        };
        let mut out = base;
        for r in rest {
            out.push('.');
            out.push_str(r);
        }
        Some(out)
    }

    /// The node that makes a call in this scope: the innermost function, else the module.
    pub(super) fn caller_of(&self, fi: FileId, scope: Option<DefId>) -> String {
        let defs = &self.files[fi as usize].defs;
        let mut cur = scope;
        while let Some(d) = cur {
            if defs[d as usize].kind == DefKind::Func {
                return self.node_id(Ref { file: fi, def: d });
            }
            cur = defs[d as usize].parent;
        }
        self.module_id(fi)
    }

    /// `Some(targets)` when the call is understood (possibly with no edge, as for a class
    /// without a constructor), `None` when it stays unresolved.
    pub(super) fn call_targets(
        &self,
        fi: FileId,
        call: &crate::extract::CallSite,
    ) -> Option<Vec<(Ref, bool)>> {
        // A JavaScript callback is rarely a function of the repository (a parameter, a value
        // passed along): what it is, is cheaper to ask first than whether the outer call runs it.
        // A JSX element's component receives its props whoever runs it, so it stays a target
        // (its parameters get the props); whether it is an edge of the writing scope is
        // decided when edges are made ([`Resolver::file_edges`]).
        if let Some(o) = call.via
            && call.jsx != crate::extract::JSX_COMPONENT
        {
            if self.lang(fi).is_js_family() && !self.may_be_function(fi, call) {
                return None;
            }
            if !self.calls_back(fi, o) || self.fired_elsewhere(fi, o) {
                return None;
            }
        }
        reset_budget();
        if call.prop != 0 {
            return self.prop_targets(fi, call);
        }
        let segs = &call.callee;
        if segs.is_empty() {
            return None;
        }
        let lang = self.lang(fi);
        // Ruby `Foo.new` constructs.
        if lang == Lang::Ruby && segs.len() >= 2 && segs.last() == Some(&Seg::Name("new".into())) {
            let vals = self.eval(fi, call.scope, &segs[..segs.len() - 1], Some(call.line), 0);
            let classes: Vec<Ref> = vals
                .iter()
                .filter_map(|v| match v {
                    Val::Class(c) => Some(*c),
                    _ => None,
                })
                .collect();
            if classes.is_empty() {
                return None;
            }
            return Some(
                classes
                    .into_iter()
                    .filter_map(|c| self.constructor(c))
                    .map(|r| (r, true))
                    .collect(),
            );
        }
        let (mut vals, getters) =
            super::fields::noting_getters(|| self.eval(fi, call.scope, segs, Some(call.line), 0));
        if call.maybe {
            vals.retain(|v| matches!(v, Val::Func(_) | Val::Bound(_) | Val::Class(_)));
            // Python looks special methods up on the type of an instance: `C[k]` on a class
            // is not `C.__getitem__`.
            if lang == Lang::Python && is_implicit_dunder(call) {
                vals.retain(|v| matches!(v, Val::Bound(_)));
            }
        }
        let mut out: Vec<(Ref, bool)> = getters.into_iter().map(|r| (r, true)).collect();
        let mut understood = !out.is_empty();
        if vals.is_empty() {
            return if understood {
                Some(out)
            } else if lang.is_js_family() {
                self.rendered_components(fi, call)
                    .or_else(|| self.fired_listeners(fi, call))
            } else {
                None
            };
        }
        for v in vals {
            match v {
                Val::Func(r) => {
                    understood = true;
                    out.push((r, false));
                }
                Val::Bound(r) => {
                    understood = true;
                    out.push((r, true));
                }
                Val::Class(c) => {
                    understood = true;
                    // Python makes the object with `__new__` (when a class of the repository
                    // defines one) before `__init__` sets it up.
                    if lang == Lang::Python
                        && let Some(new) = self
                            .class_member(c, "__new__", 0, false)
                            .into_iter()
                            .find_map(|v| match v {
                                Val::Func(r) | Val::Bound(r) => Some(r),
                                _ => None,
                            })
                    {
                        out.push((new, true));
                    }
                    if let Some(ctor) = self.constructor(c) {
                        out.push((ctor, true));
                    }
                    if call.is_new && lang.is_js_family() {
                        out.extend(self.field_init_targets(c));
                    }
                    // A class component rendered by a library: its `render` runs too.
                    if call.jsx == crate::extract::JSX_COMPONENT {
                        out.extend(
                            self.class_member(c, "render", 0, false)
                                .into_iter()
                                .filter_map(|v| match v {
                                    Val::Func(r) | Val::Bound(r) => Some((r, true)),
                                    _ => None,
                                }),
                        );
                    }
                }
                // `super(...)` in a constructor: the nearest base constructor.
                // Python: the next `__init__` in the MRO of each class `self` can be.
                Val::Super(c) if lang == Lang::Python => {
                    understood = true;
                    for v in self.super_member(c, "__init__", 0) {
                        if let Val::Bound(r) | Val::Func(r) = v {
                            out.push((r, true));
                        }
                    }
                }
                Val::Super(c) => {
                    understood = true;
                    if let Some(ctor) = self
                        .mro(c, 0)
                        .into_iter()
                        .skip(1)
                        .find_map(|k| self.constructor(k))
                    {
                        out.push((ctor, true));
                    }
                }
                Val::Instance(c) | Val::SelfOf(c) if lang == Lang::Python => {
                    if let Some(r) = self
                        .class_member(c, "__call__", 0, false)
                        .into_iter()
                        .find_map(|v| match v {
                            Val::Func(r) | Val::Bound(r) => Some(r),
                            _ => None,
                        })
                    {
                        understood = true;
                        out.push((r, true));
                    }
                }
                _ => {}
            }
        }
        if !understood {
            return None;
        }
        out.sort_by_key(|(r, b)| (r.file, r.def, *b));
        out.dedup();
        Some(out)
    }

    /// The getter (or setter) an attribute access runs: the property of that name in the
    /// first class of the MRO of the object's class that defines the name.
    pub(super) fn prop_targets(
        &self,
        fi: FileId,
        call: &crate::extract::CallSite,
    ) -> Option<Vec<(Ref, bool)>> {
        let (Seg::Name(p), obj) = call.callee.split_last()? else {
            return None;
        };
        if obj.is_empty() || !self.py_props.contains_key(p) {
            return None;
        }
        let mut out = Vec::new();
        let js = self.lang(fi).is_js_family();
        for v in self.eval(fi, call.scope, obj, Some(call.line), 0) {
            // Each class to look the accessor up in, and how many of its MRO to skip.
            let starts: Vec<(Ref, usize)> = match v {
                // `this.x` in a JavaScript class: the class's own or any subclass's accessor
                // (a base may declare it abstract).
                Val::SelfOf(c) if js => {
                    let ks = self.dispatch_classes(c);
                    if ks.len() > MAX_VALS {
                        vec![(c, 0)]
                    } else {
                        ks.into_iter().map(|k| (k, 0)).collect()
                    }
                }
                Val::Instance(c) | Val::SelfOf(c) => vec![(c, 0)],
                // `super.x`: the accessor of a base.
                Val::Super(c) if js => vec![(c, 1)],
                // A JavaScript class's static accessors.
                Val::Class(c) if js => vec![(c, 0)],
                // `const o = { get x() {} }`: the literal's accessors, by key.
                Val::Lit(f, id) if js => {
                    let (scope, line, _, elements, _) = self.literal_parts(f, id);
                    for (_, e) in elements.iter().filter(|(k, _)| k == p) {
                        let Some(segs) = e else { continue };
                        for x in self.eval(f, scope, segs, Some(line), 1) {
                            if let Val::Func(r) = x
                                && prop_kind(self.def(r)) == call.prop
                            {
                                out.push((r, true));
                            }
                        }
                    }
                    continue;
                }
                _ => continue,
            };
            for (c, skip) in starts {
                for k in self.mro(c, 0).into_iter().skip(skip) {
                    let Some(bs) = self.idx[k.file as usize]
                        .bindings
                        .get(&(Some(k.def), p.clone()))
                    else {
                        continue;
                    };
                    let defs = &self.files[k.file as usize].defs;
                    for b in bs {
                        if let BindKind::Def(d) = b.kind
                            && prop_kind(&defs[d as usize]) == call.prop
                        {
                            let r = Ref {
                                file: k.file,
                                def: d,
                            };
                            // A decorated JavaScript accessor runs what its decorators made of it.
                            if js && !defs[d as usize].decorators.is_empty() {
                                out.extend(self.decorated(r, 1).into_iter().filter_map(
                                    |v| match v {
                                        Val::Func(w) => Some((w, true)),
                                        _ => None,
                                    },
                                ));
                            } else {
                                out.push((r, true));
                            }
                        }
                    }
                    break;
                }
            }
        }
        if out.is_empty() {
            return None;
        }
        out.sort_by_key(|(r, b)| (r.file, r.def, *b));
        out.dedup();
        Some(out)
    }

    pub(super) fn constructor(&self, c: Ref) -> Option<Ref> {
        let lang = self.lang(c.file);
        if let Some(name) = lang.constructor_name() {
            return self
                .class_member(c, name, 0, false)
                .into_iter()
                .find_map(|v| match v {
                    Val::Func(r) | Val::Bound(r) => Some(r),
                    _ => None,
                });
        }
        if lang.constructor_is_class_name() {
            let name = self.def(c).name.clone();
            // Constructors are not inherited: only the class's own.
            let (c, b) = self.class_parts(c).into_iter().find_map(|p| {
                let b = self.idx[p.file as usize]
                    .bindings
                    .get(&(Some(p.def), name.clone()))?;
                Some((p, b))
            })?;
            return b.iter().rev().find_map(|b| match b.kind {
                BindKind::Def(d)
                    if self.files[c.file as usize].defs[d as usize].kind == DefKind::Func =>
                {
                    Some(Ref {
                        file: c.file,
                        def: d,
                    })
                }
                _ => None,
            });
        }
        None
    }

    /// Whether `v` is a function whose declared return type is its one type parameter.
    fn returns_type_argument(&self, v: &Val) -> bool {
        match v {
            Val::Func(r) | Val::Bound(r) => {
                matches!(self.def(*r).return_type.as_deref(), Some([Seg::Typed(_)]))
            }
            _ => false,
        }
    }

    /// Evaluate a dotted expression in a scope.
    pub(super) fn eval(
        &self,
        fi: FileId,
        scope: Option<DefId>,
        segs: &[Seg],
        line: Option<u32>,
        depth: u32,
    ) -> Vec<Val> {
        if depth > MAX_DEPTH || segs.is_empty() || !spend() {
            return Vec::new();
        }
        let mut vals = match &segs[0] {
            Seg::Name(n) => self.lookup(fi, scope, n, line, depth),
            Seg::Super => match self.enclosing_class(fi, scope) {
                Some(c) => vec![Val::Super(c)],
                None => Vec::new(),
            },
            Seg::Lit(i) => vec![Val::Lit(fi, LitId::Expr(*i))],
            Seg::Lambda(d) => {
                let r = Ref { file: fi, def: *d };
                match self.files[fi as usize]
                    .defs
                    .get(*d as usize)
                    .map(|x| x.kind)
                {
                    Some(DefKind::Class) => vec![Val::Class(r)],
                    _ => vec![Val::Func(r)],
                }
            }
            Seg::Call | Seg::Index(_) | Seg::Iter | Seg::Get(_) | Seg::Pop(_) | Seg::Typed(_) => {
                Vec::new()
            }
        };
        // `module.exports.clean(s)` (or `exports.clean`) inside a CommonJS module: its own
        // export, whatever `module.exports` itself was set to.
        if let Seg::Name(n) = &segs[0]
            && n == "exports"
            && segs.len() > 1
            && self.idx[fi as usize].cjs
            && !vals.contains(&Val::Module(fi))
        {
            vals.push(Val::Module(fi));
        }
        // `App.util.pad = function` names a function `App.util.pad` where `App` is declared:
        // the same path read where that binding is visible is that function.
        let mut segs = segs;
        if self.idx[fi as usize].dotted
            && let Some(n) = segs[1..]
                .iter()
                .position(|s| !matches!(s, Seg::Name(_)))
                .map_or(Some(segs.len()), |i| (i > 0).then_some(i + 1))
            && n >= 2
        {
            let path: Vec<&str> = segs[..n]
                .iter()
                .filter_map(|s| match s {
                    Seg::Name(x) => Some(x.as_str()),
                    _ => None,
                })
                .collect();
            let mut whole = self.lookup(fi, scope, &path.join("."), line, depth);
            // Assigned in the same scope after the read, it is not there yet: `const
            // original = descriptor.value; descriptor.value = function () { original() }`.
            if let Some(l) = line {
                whole.retain(|v| match v {
                    Val::Func(r) | Val::Class(r) if r.file == fi => {
                        let d = self.def(*r);
                        !(d.parent == scope && d.start_line > l && d.name.contains('.'))
                    }
                    _ => true,
                });
            }
            if whole
                .iter()
                .any(|v| matches!(v, Val::Func(_) | Val::Class(_)))
            {
                vals = whole;
                segs = &segs[n - 1..];
            }
        }
        // A JavaScript method read on an instance of one known class: a fluent `return this`
        // in it is that instance, not whichever subclass `this` may be elsewhere.
        let js = self.lang(fi).is_js_family();
        let mut owner: Option<Ref> = None;
        for (at, seg) in segs.iter().enumerate().skip(1) {
            if vals.is_empty() {
                break;
            }
            // `useContext<Theme>()` of a function returning its type parameter: a `Theme`.
            if let (Seg::Call, Some(Seg::Typed(t))) = (seg, segs.get(at + 1))
                && vals.iter().all(|v| self.returns_type_argument(v))
            {
                vals = self.typed_vals(fi, scope, t, line, depth + 1);
                owner = None;
                continue;
            }
            let receiver = match (seg, vals.as_slice()) {
                (Seg::Name(_), [Val::Instance(c)]) if js => Some(*c),
                _ => None,
            };
            let mut next = Vec::new();
            for v in &vals {
                match seg {
                    Seg::Name(n) => next.extend(self.member(v, n, depth + 1)),
                    Seg::Call if let Some(c) = owner => {
                        let mro = self.mro(c, depth + 1);
                        next.extend(self.call_result(v, depth + 1).into_iter().map(|r| match r {
                            Val::SelfOf(k) if mro.contains(&k) => Val::Instance(c),
                            r => r,
                        }))
                    }
                    Seg::Call => next.extend(self.call_result(v, depth + 1)),
                    Seg::Index(k) => next.extend(self.element(v, k, depth + 1)),
                    Seg::Iter => next.extend(self.iterate(v, depth + 1)),
                    Seg::Get(k) => {
                        if matches!(v, Val::Lit(..)) {
                            next.extend(self.element(v, k, depth + 1));
                        } else {
                            for m in self.member(v, "get", depth + 1) {
                                next.extend(self.call_result(&m, depth + 1));
                            }
                        }
                    }
                    Seg::Pop(k) => {
                        if matches!(v, Val::Lit(..)) {
                            next.extend(self.element(v, k, depth + 1));
                        } else {
                            for m in self.member(v, "pop", depth + 1) {
                                next.extend(self.call_result(&m, depth + 1));
                            }
                        }
                    }
                    // `super(C, obj)`: after `C` in the MRO of what `obj` can be (C's used
                    // subclasses stand for it).
                    Seg::Super => {
                        if let Val::Class(c) = v
                            && self.lang(c.file) == Lang::Python
                        {
                            next.push(Val::Super(*c));
                        }
                    }
                    Seg::Lit(_) | Seg::Lambda(_) => {}
                    // Read with the call before it.
                    Seg::Typed(_) => next.push(v.clone()),
                }
            }
            dedup(&mut next);
            if self.too_many(&mut next, MAX_VALS) {
                return Vec::new();
            }
            vals = next;
            owner = receiver;
        }
        vals
    }
}
