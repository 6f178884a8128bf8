//! Names in scope: a name's bindings in its function, the enclosing ones, the class body and
//! the module, which of them reach a use, and the values of parameters and decorators.

use super::*;

/// The bindings of a name (in source order) that may reach a read at `line` (`None`: after
/// the scope's last statement): the last one before the read, and, while that one sits in a
/// block the read is not in (a branch, a loop body, a `try`), the ones before it too, down
/// to one that is not in such a block. So `if c: h = a` / `else: h = b` gives both, while a
/// straight `x = a; x = b` gives `b` alone.
pub(super) fn reaching_bindings(bs: &[Binding], line: Option<u32>) -> &[Binding] {
    let l = line.unwrap_or(u32::MAX);
    let end = match line {
        Some(l) => bs.iter().rposition(|b| b.line <= l).map(|i| i + 1),
        None => None,
    }
    .unwrap_or(bs.len());
    let mut start = end;
    while start > 0 {
        start -= 1;
        match bs[start].cond {
            Some((s, e)) if !(s <= l && l <= e) => continue,
            _ => break,
        }
    }
    &bs[start..end]
}

/// The scope whose binding of `name` a use in `scope` sees, by the file's own facts (where a
/// list that code appends to was made): the innermost enclosing scope that assigns, imports,
/// defines or takes `name` as a parameter, else the module.
pub(super) fn binding_scope(
    f: &FileFacts,
    bindings: &HashMap<(Option<DefId>, String), Vec<Binding>>,
    scope: Option<DefId>,
    name: &str,
) -> Option<DefId> {
    let mut cur = scope;
    while let Some(d) = cur {
        let def = &f.defs[d as usize];
        if def.kind != DefKind::Class && bindings.contains_key(&(Some(d), name.to_string())) {
            return Some(d);
        }
        cur = def.parent;
    }
    None
}

/// The scope a `global` or `nonlocal` name declared in `scope` lives in: the nearest enclosing
/// function that assigns or takes it, else the module.
pub(super) fn outer_binding_scope(
    f: &FileFacts,
    scope: Option<DefId>,
    name: &str,
) -> Option<DefId> {
    let mut cur = scope.and_then(|d| f.defs[d as usize].parent);
    while let Some(d) = cur {
        let def = &f.defs[d as usize];
        if def.kind == DefKind::Func
            && (def.params.iter().any(|p| p == name)
                || f.assigns
                    .iter()
                    .any(|a| a.scope == Some(d) && a.target.len() == 1 && a.target[0] == name))
        {
            return Some(d);
        }
        cur = def.parent;
    }
    None
}

impl<'a> Resolver<'a> {
    pub(super) fn enclosing_class(&self, fi: FileId, scope: Option<DefId>) -> Option<Ref> {
        let defs = &self.files[fi as usize].defs;
        let mut cur = scope;
        while let Some(d) = cur {
            let def = &defs[d as usize];
            if (def.kind == DefKind::Class && !def.is_namespace) || def.has_proto {
                return Some(Ref { file: fi, def: d });
            }
            if let Some(m) = def.merged_into {
                return Some(Ref { file: fi, def: m });
            }
            cur = def.parent;
        }
        None
    }

    /// For `this` in a method of an object literal bound to a name (`const obj = { run() {
    /// this.go() } }`): the scope the outermost literal's name is bound in, and the path to
    /// the literal from it (`obj`, `obj.inner`).
    pub(super) fn object_of(
        &self,
        fi: FileId,
        scope: Option<DefId>,
    ) -> Option<(Option<DefId>, Vec<Seg>)> {
        let defs = &self.files[fi as usize].defs;
        let mut o = defs[self.innermost_func(fi, scope)? as usize].parent?;
        if !defs[o as usize].is_object {
            return None;
        }
        let mut path = Vec::new();
        loop {
            let od = &defs[o as usize];
            path.push(Seg::Name(od.name.clone()));
            match od.parent {
                Some(p) if defs[p as usize].is_object => o = p,
                outer => {
                    path.reverse();
                    return Some((outer, path));
                }
            }
        }
    }

    /// `this` in a top-level function a CommonJS module exports (`module.exports = { f() {
    /// this.g() } }`, `exports.f = function`): it is called as `mod.f()`, so `this` is the
    /// module's exports.
    fn cjs_export_this(&self, fi: FileId, scope: Option<DefId>, depth: u32) -> Option<Vec<Val>> {
        if !self.idx[fi as usize].cjs {
            return None;
        }
        let defs = &self.files[fi as usize].defs;
        let d = self.innermost_func(fi, scope)?;
        let def = &defs[d as usize];
        if def.parent.is_some() || def.has_proto {
            return None;
        }
        let path = [Seg::Name("exports".into()), Seg::Name(def.name.clone())];
        let me = Val::Func(Ref { file: fi, def: d });
        if !self.eval(fi, None, &path, None, depth + 1).contains(&me) {
            return None;
        }
        Some(self.js_module_value(fi, depth + 1))
    }

    /// Look a bare name up from a scope.
    pub(super) fn lookup(
        &self,
        fi: FileId,
        scope: Option<DefId>,
        name: &str,
        line: Option<u32>,
        depth: u32,
    ) -> Vec<Val> {
        let f = &self.files[fi as usize];
        let ix = &self.idx[fi as usize];
        let lang = f.lang;
        // The receiver keywords.
        match name {
            "this" | "self" if lang != Lang::Python => {
                if lang.is_js_family()
                    && let Some((outer, path)) = self.object_of(fi, scope)
                {
                    let mut out = self.eval(fi, outer, &path, None, depth + 1);
                    out.extend(self.this_given(fi, scope, depth));
                    out.extend(self.this_of_mixin(fi, scope));
                    dedup(&mut out);
                    return out;
                }
                if let Some(c) = self.enclosing_class(fi, scope) {
                    if lang == Lang::Ruby && self.in_class_method(fi, scope).unwrap_or(true) {
                        return vec![Val::Class(c)];
                    }
                    // `this` in a JavaScript static method is the class it is called on: the
                    // class or any subclass (`static create() { return new this(); }`).
                    if lang.is_js_family() && self.in_class_method(fi, scope) == Some(true) {
                        let ks = self.dispatch_classes(c);
                        return if ks.len() > MAX_VALS {
                            vec![Val::Class(c)]
                        } else {
                            ks.into_iter().map(Val::Class).collect()
                        };
                    }
                    return vec![Val::SelfOf(c)];
                }
                if name == "this"
                    && lang.is_js_family()
                    && let Some(v) = self.cjs_export_this(fi, scope, depth)
                {
                    return v;
                }
                if name == "self" && lang == Lang::Rust {
                    return Vec::new();
                }
            }
            "Self" if lang == Lang::Rust => {
                if let Some(c) = self.enclosing_class(fi, scope) {
                    return vec![Val::Class(c)];
                }
            }
            "crate" if lang == Lang::Rust => {
                return self.rust_module_val("crate").into_iter().collect();
            }
            _ => {}
        }
        let mut cur = scope;
        let mut origin = true;
        while let Some(d) = cur {
            let def = &f.defs[d as usize];
            if ix.globals.contains(&(Some(d), name.to_string())) {
                cur = None;
                origin = false;
                break;
            }
            let is_class = def.kind == DefKind::Class || def.kind == DefKind::Impl;
            // A JavaScript class's or object literal's members are never bare names; a
            // TypeScript namespace's are, inside it (`namespace N { f(); function f() {} }`).
            let class_visible = if lang.is_js_family() {
                !is_class || (def.is_namespace && !def.is_object)
            } else {
                !is_class || origin || lang != Lang::Python
            };
            if class_visible {
                if def.kind == DefKind::Func
                    && matches!(lang, Lang::Python | Lang::Go)
                    && def.params.first().map(String::as_str) == Some(name)
                    && !def.is_static
                    && !def.is_lambda
                    && let Some(p) = def.parent
                    && f.defs[p as usize].kind == DefKind::Class
                {
                    let c = Ref { file: fi, def: p };
                    return if def.is_classmethod {
                        // `cls` is the class a class method is called on: any subclass used.
                        let ks = self.dispatch_classes(c);
                        if ks.len() > MAX_VALS {
                            vec![Val::Class(c)]
                        } else {
                            ks.into_iter().map(Val::Class).collect()
                        }
                    } else {
                        vec![Val::SelfOf(c)]
                    };
                }
                if let Some(bs) = ix.bindings.get(&(Some(d), name.to_string())) {
                    return self.eval_bindings(fi, bs, if origin { line } else { None }, depth);
                }
                // The other declarations of a TypeScript namespace share its exports.
                if def.is_namespace && lang.is_js_family() {
                    for p in self
                        .namespace_parts(Ref { file: fi, def: d })
                        .into_iter()
                        .skip(1)
                    {
                        if let Some(bs) = ix.bindings.get(&(Some(p.def), name.to_string())) {
                            return self.eval_bindings(fi, bs, None, depth);
                        }
                    }
                }
                if is_class && lang.implicit_this() && !origin {
                    let c = Ref {
                        file: fi,
                        def: def.merged_into.unwrap_or(d),
                    };
                    let v = self.class_member(c, name, depth + 1, true);
                    if !v.is_empty() {
                        return v;
                    }
                }
            }
            // A function named where its variable is declared still sees the names of the
            // scope it is written in.
            cur = def.written_in.or(def.parent);
            origin = false;
        }
        let _ = cur;
        // Module scope, and what other modules assign to this module's attribute.
        let foreign = self.assigned_from_outside(fi, name, depth);
        if let Some(bs) = ix.bindings.get(&(None, name.to_string())) {
            let mut out = self.eval_bindings(fi, bs, if origin { line } else { None }, depth);
            if !foreign.is_empty() {
                out.extend(foreign);
                dedup(&mut out);
            }
            return out;
        }
        if !foreign.is_empty() {
            return foreign;
        }
        // CommonJS `exports` in a module that never replaced it: the module's own names.
        if name == "exports" && lang.is_js_family() {
            return vec![Val::Module(fi)];
        }
        self.lookup_outside(fi, name, depth)
    }

    /// The innermost function around `scope` (blocks and arrows are not); `None` at the top
    /// of a file.
    pub(super) fn innermost_func(&self, fi: FileId, scope: Option<DefId>) -> Option<DefId> {
        let defs = &self.files[fi as usize].defs;
        let mut cur = scope;
        while let Some(d) = cur {
            if defs[d as usize].kind == DefKind::Func {
                return Some(d);
            }
            cur = defs[d as usize].parent;
        }
        None
    }

    /// Whether the innermost function around `scope` is a class or static method; `None` at
    /// the top of a file.
    fn in_class_method(&self, fi: FileId, scope: Option<DefId>) -> Option<bool> {
        self.innermost_func(fi, scope)
            .map(|d| self.files[fi as usize].defs[d as usize].is_classmethod)
    }

    /// Names not bound in the file: star imports and the language's global rules.
    pub(super) fn lookup_outside(&self, fi: FileId, name: &str, depth: u32) -> Vec<Val> {
        let f = &self.files[fi as usize];
        let ix = &self.idx[fi as usize];
        for &si in &ix.stars {
            for target in self.import_files(fi, si, depth + 1) {
                if target == fi {
                    continue;
                }
                let v = self.module_member(target, name, depth + 1, true);
                if !v.is_empty() {
                    return v;
                }
            }
        }
        let lang = f.lang;
        if lang.package_is_folder() {
            if let Some(sibs) = self.by_dir.get(dir_of(&f.path)) {
                for &s in sibs {
                    if s != fi && self.lang(s) == lang {
                        let v = self.module_member(s, name, depth + 1, false);
                        if !v.is_empty() {
                            return v;
                        }
                    }
                }
            }
            return Vec::new();
        }
        if matches!(lang, Lang::Java | Lang::CSharp)
            && let Some(pkg) = &f.package
            && let Some(files) = self.packages.get(pkg)
        {
            let mut found = Vec::new();
            for &s in files {
                if s != fi {
                    found.extend(self.top_class(s, name));
                }
            }
            if found.len() == 1 {
                return found;
            }
        }
        // Languages with one global namespace for classes (or functions in C): a unique
        // definition is the one the linker or the runtime will use.
        if matches!(
            lang,
            Lang::Java | Lang::CSharp | Lang::Ruby | Lang::Cpp | Lang::C
        ) {
            if let Some(cands) = self.global_classes.get(&(family(lang), name.to_string()))
                && cands.len() == 1
            {
                return vec![Val::Class(cands[0])];
            }
            if matches!(lang, Lang::C | Lang::Cpp)
                && let Some(cands) = self.global_funcs.get(name)
                && cands.len() == 1
            {
                return vec![Val::Func(cands[0])];
            }
        }
        if lang == Lang::Ruby {
            // Top-level Ruby methods are private methods of Object: callable from anywhere
            // once loaded; take a unique one.
            return match self.ruby_top.get(name).map(Vec::as_slice) {
                Some([only]) if only.file != fi => vec![Val::Func(*only)],
                _ => Vec::new(),
            };
        }
        Vec::new()
    }

    pub(super) fn top_class(&self, fi: FileId, name: &str) -> Vec<Val> {
        self.idx[fi as usize]
            .bindings
            .get(&(None, name.to_string()))
            .map(|bs| {
                bs.iter()
                    .filter_map(|b| match b.kind {
                        BindKind::Def(d)
                            if self.files[fi as usize].defs[d as usize].kind == DefKind::Class =>
                        {
                            Some(Val::Class(Ref { file: fi, def: d }))
                        }
                        _ => None,
                    })
                    .collect()
            })
            .unwrap_or_default()
    }

    fn is_namespace_def(&self, fi: FileId, b: &Binding) -> bool {
        matches!(b.kind, BindKind::Def(d) if self.files[fi as usize].defs[d as usize].is_namespace)
    }

    pub(super) fn eval_bindings(
        &self,
        fi: FileId,
        bs: &[Binding],
        line: Option<u32>,
        depth: u32,
    ) -> Vec<Val> {
        let hidden = |b: &Binding| {
            let BindKind::Assign(a) = b.kind else {
                return false;
            };
            IN_RHS.with(|s| s.borrow().contains(&(fi, a)))
                || ARGS_AT.with(|s| s.borrow().contains(&(fi, b.line)))
        };
        let busy = (IN_RHS.with(|s| !s.borrow().is_empty())
            || ARGS_AT.with(|s| !s.borrow().is_empty()))
            && bs.iter().any(hidden);
        let kept: Vec<Binding>;
        let bs = if busy {
            kept = bs.iter().filter(|b| !hidden(b)).copied().collect();
            &kept[..]
        } else {
            bs
        };
        let reaching = reaching_bindings(bs, line);
        // A TypeScript namespace merges with the function or class of its name declared
        // before it (`function $() {}` and `namespace $ { export function ajax() {} }`):
        // the name is both.
        if self.lang(fi).is_js_family()
            && reaching.iter().any(|b| self.is_namespace_def(fi, b))
            && let Some(merged) = bs
                .iter()
                .find(|b| matches!(b.kind, BindKind::Def(_)) && !self.is_namespace_def(fi, b))
        {
            let mut out = self.eval_binding(fi, *merged, depth);
            for b in reaching {
                out.extend(self.eval_binding(fi, *b, depth));
            }
            dedup(&mut out);
            return out;
        }
        if let [b] = reaching {
            return self.eval_binding(fi, *b, depth);
        }
        let mut out = Vec::new();
        for b in reaching {
            out.extend(self.eval_binding(fi, *b, depth));
        }
        dedup(&mut out);
        out
    }

    pub(super) fn eval_binding(&self, fi: FileId, b: Binding, depth: u32) -> Vec<Val> {
        if depth > MAX_DEPTH {
            return Vec::new();
        }
        let f = &self.files[fi as usize];
        match b.kind {
            BindKind::Def(d) => {
                let r = Ref { file: fi, def: d };
                match f.defs[d as usize].kind {
                    DefKind::Class | DefKind::Impl => vec![Val::Class(r)],
                    DefKind::Func => self.decorated(r, depth + 1),
                    // A method of a class bound to no name: anonymous (no node), but what runs.
                    DefKind::Scope
                        if f.defs[d as usize]
                            .parent
                            .is_some_and(|p| f.defs[p as usize].is_anon_class()) =>
                    {
                        vec![Val::Func(r)]
                    }
                    DefKind::Scope => Vec::new(),
                }
            }
            BindKind::Import(i) => self.import_val(fi, i, depth + 1),
            BindKind::Assign(idx) => {
                let a = &f.assigns[idx as usize];
                let literal =
                    !a.elements.is_empty() || matches!(a.value.as_deref(), Some([Seg::Lit(_)]));
                // `const api: Api = { run() {} }`: the literal written says more than its type.
                if literal && f.lang.is_js_family() {
                    let mut out = vec![Val::Lit(fi, LitId::Assign(idx))];
                    // `items: Item[] = []`: filled later, with what its type says.
                    let empty = match a.value.as_deref() {
                        Some([Seg::Lit(i)]) => f
                            .literals
                            .get(*i as usize)
                            .is_some_and(|l| l.elements.is_empty()),
                        _ => a.elements.is_empty(),
                    };
                    if empty && let Some(t @ [.., Seg::Iter]) = a.type_name.as_deref() {
                        out.extend(self.typed_vals(fi, a.scope, t, Some(a.line), depth + 1));
                    }
                    return out;
                }
                // `const s: Shape = new Circle()`: what runs is the value's, when it is known.
                if f.lang.is_js_family()
                    && a.type_name.is_some()
                    && let Some(v) = &a.value
                {
                    IN_RHS.with(|s| s.borrow_mut().push((fi, idx)));
                    let out = self.eval(fi, a.scope, v, Some(a.line.saturating_sub(1)), depth + 1);
                    IN_RHS.with(|s| s.borrow_mut().pop());
                    if !out.is_empty() {
                        return out;
                    }
                }
                if let Some(t) = &a.type_name {
                    let inst = self.typed_vals(fi, a.scope, t, Some(a.line), depth + 1);
                    if !inst.is_empty() {
                        return inst;
                    }
                }
                if !a.elements.is_empty() || matches!(a.value.as_deref(), Some([Seg::Lit(_)])) {
                    return vec![Val::Lit(fi, LitId::Assign(idx))];
                }
                match &a.value {
                    // A value assigned on the line it is read from is the previous one.
                    Some(v) => {
                        IN_RHS.with(|s| s.borrow_mut().push((fi, idx)));
                        let line = Some(a.line.saturating_sub(1));
                        let out = match &a.default {
                            Some(d) => self.part_or_default(fi, a.scope, v, d, line, depth + 1),
                            None => self.eval(fi, a.scope, v, line, depth + 1),
                        };
                        IN_RHS.with(|s| s.borrow_mut().pop());
                        out
                    }
                    None => self.param_property(fi, idx, depth),
                }
            }
            BindKind::Param(d, i) => {
                // A declared type says what the parameter is.
                let def = &f.defs[d as usize];
                let mut typed: Vec<Val> = Vec::new();
                if let Some(Some(t)) = def.param_types.get(i as usize) {
                    let inst = self.typed_vals(fi, def.parent, t, None, depth + 1);
                    // An interface is a shape: an object literal passed in has it too, so the
                    // arguments say what runs as well as the classes implementing it.
                    let shapes = inst.iter().all(
                        |v| matches!(v, Val::Instance(c) | Val::Many(c) if self.def(*c).is_interface),
                    );
                    if !inst.is_empty() && !shapes {
                        return inst;
                    }
                    typed = inst;
                }
                PARAM_TOUCHED.with(|t| t.set(true));
                let r = Ref { file: fi, def: d };
                if !self.param_flow {
                    note_redo(Some(r));
                    // With no call site, parameter flow gives the default.
                    if matches!(def.defaults.get(i as usize), Some(Some(_))) {
                        note_redo(None);
                    }
                }
                if def.star == Some(i) {
                    return vec![Val::Args(r, i)];
                }
                if def.kwstar == Some(i) {
                    return vec![Val::Kwargs(r, i)];
                }
                if typed.is_empty() {
                    return self.param_values(r, i, depth + 1);
                }
                typed.extend(self.param_values(r, i, depth + 1));
                dedup(&mut typed);
                typed
            }
            BindKind::Unknown => Vec::new(),
        }
    }

    /// `{ key = d } = value`: the part of the value, and `d` where the value has no such part
    /// (an object literal without the key, or nothing passed at all). In the first pass a
    /// value read from a parameter is not known yet, so its default waits for the second.
    fn part_or_default(
        &self,
        fi: FileId,
        scope: Option<DefId>,
        v: &[Seg],
        default: &[Seg],
        line: Option<u32>,
        depth: u32,
    ) -> Vec<Val> {
        let (key, indexed, base) = match v.split_last() {
            Some((Seg::Name(k), base)) => (k, false, base),
            Some((Seg::Index(k), base)) => (k, true, base),
            _ => return self.eval(fi, scope, v, line, depth),
        };
        let touched_before = PARAM_TOUCHED.with(|t| t.replace(false));
        let bases = self.eval(fi, scope, base, line, depth);
        let touched = PARAM_TOUCHED.with(|t| t.get());
        PARAM_TOUCHED.with(|t| t.set(touched_before || touched));
        let mut missing = bases.is_empty() && (self.param_flow || !touched);
        if bases.is_empty() && touched && !self.param_flow {
            note_redo(None);
        }
        let mut out = Vec::new();
        for b in &bases {
            let part = if indexed {
                self.element(b, key, depth + 1)
            } else {
                self.member(b, key, depth + 1)
            };
            missing |= part.is_empty() && matches!(b, Val::Lit(..));
            out.extend(part);
        }
        if missing {
            out.extend(self.eval(fi, scope, default, line, depth + 1));
        }
        dedup(&mut out);
        out
    }

    /// What `this` is in a method of an object literal called with `f.call(obj)` or
    /// `f.apply(obj, args)`: `obj`, at every such call site that reaches it (second pass).
    fn this_given(&self, fi: FileId, scope: Option<DefId>, depth: u32) -> Vec<Val> {
        let Some(d) = self.innermost_func(fi, scope) else {
            return Vec::new();
        };
        PARAM_TOUCHED.with(|t| t.set(true));
        let f = Ref { file: fi, def: d };
        if !self.param_flow {
            note_redo(Some(f));
        }
        if !self.param_flow || depth > MAX_DEPTH {
            return Vec::new();
        }
        let sites: &[(FileId, u32, bool)] = self.callers.get(&f).map_or(&[], Vec::as_slice);
        if sites.len() > MAX_SITES {
            return Vec::new();
        }
        let mut out = Vec::new();
        for &(cf, ci, _) in sites {
            let Some(call) = self.call_site(cf, ci) else {
                continue;
            };
            if js_this_arg(call, self.def(f)) != 1 {
                continue;
            }
            if let Some(Some(a)) = call.args.first() {
                out.extend(self.eval(cf, call.scope, a, Some(call.line), depth + 1));
            }
        }
        out
    }

    /// The values a parameter takes: the arguments at every call site that reaches the
    /// function (second pass only).
    pub(super) fn param_values(&self, f: Ref, i: u32, depth: u32) -> Vec<Val> {
        if !self.param_flow || depth > MAX_DEPTH {
            return Vec::new();
        }
        let memo = PARAM_MEMO.with(|m| m.borrow().get(&(f, i)).cloned());
        if let Some((v, deps)) = memo {
            merge(&deps);
            return v;
        }
        // Asked again inside its own computation: the sites it is computing give the values.
        let reentered = PARAMS_OPEN.with(|o| {
            let mut o = o.borrow_mut();
            let again = o.0.contains(&(f, i));
            if again && !o.1.contains(&(f, i)) {
                o.1.push((f, i));
            }
            again
        });
        if reentered {
            return Vec::new();
        }
        let outer = PARAMS_OPEN.with(|o| {
            let mut o = o.borrow_mut();
            o.0.push((f, i));
            std::mem::take(&mut o.1)
        });
        let (out, deps) = tracked_merged(|| self.compute_param_values(f, i, depth));
        let complete = PARAMS_OPEN.with(|o| {
            let mut o = o.borrow_mut();
            o.0.pop();
            o.1.retain(|k| *k != (f, i));
            let complete = o.1.is_empty();
            o.1.extend(outer);
            complete
        });
        if complete {
            PARAM_MEMO.with(|m| m.borrow_mut().insert((f, i), (out.clone(), deps.into())));
        }
        out
    }

    pub(super) fn compute_param_values(&self, f: Ref, i: u32, depth: u32) -> Vec<Val> {
        let sites: &[(FileId, u32, bool)] = self.callers.get(&f).map_or(&[], Vec::as_slice);
        if sites.len() > MAX_SITES {
            return Vec::new();
        }
        let def = self.def(f);
        let Some(pname) = def.params.get(i as usize) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        // The default is a value unless every call site passes the argument.
        let mut defaulted = sites.is_empty();
        for &(cf, ci, bound) in sites {
            let Some(call) = self.call_site(cf, ci) else {
                continue;
            };
            if let Some(d) = call.decorates {
                // The first parameter after the bound one (a decorator class's `__init__`
                // binds `self`).
                if i == u32::from(bound) {
                    // A decorator receives what the decorators below it made of the function.
                    let target = Ref { file: cf, def: d };
                    let pos = self
                        .def(target)
                        .decorators
                        .iter()
                        .position(|s| *s == call.callee)
                        .unwrap_or(0);
                    out.extend(self.decorated_below(target, pos + 1, depth + 1));
                }
                continue;
            }
            let arg = match call.kwargs.iter().find(|(k, _)| k == pname) {
                Some((_, v)) => Some(v.as_ref()),
                // A JavaScript method has no receiver among its parameters: `obj.m(a)` gives
                // `a` to the first, and `f.call(obj, a)` too.
                None if self.lang(f.file).is_js_family() => call
                    .args
                    .get(i as usize + js_arg_shift(call, def))
                    .map(Option::as_ref),
                None => {
                    let shift = u32::from(bound);
                    if i < shift {
                        // A function called as a method (assigned to a class): its first
                        // parameter is the receiver, `obj` of `obj.m(...)`.
                        if !self.def(f).parent.is_some_and(|p| {
                            self.files[f.file as usize].defs[p as usize].kind == DefKind::Class
                        }) && let [recv @ .., Seg::Name(_)] = call.callee.as_slice()
                            && !recv.is_empty()
                        {
                            out.extend(self.eval(cf, call.scope, recv, Some(call.line), depth + 1));
                        }
                        continue;
                    }
                    let pos = (i - shift) as usize;
                    call.args.get(pos).map(Option::as_ref)
                }
            };
            match arg {
                Some(Some(a)) => out.extend(hiding_line(cf, call.line, || {
                    self.eval(cf, call.scope, a, Some(call.line), depth + 1)
                })),
                Some(None) => {}
                None => {
                    defaulted |= !call.spread;
                    // `f(**opts)`: the item of `opts` named as the parameter, if it has one.
                    if let Some(d) = &call.kwsplat {
                        let key = format!("'{pname}");
                        // With several dicts (`**a, **b`), the default applies only when none
                        // has the key.
                        let mut found = Vec::new();
                        for v in self.eval(cf, call.scope, d, Some(call.line), depth + 1) {
                            found.extend(self.element(&v, &key, depth + 1));
                        }
                        defaulted |= found.is_empty();
                        out.extend(found);
                    }
                }
            }
        }
        if defaulted && let Some(Some(v)) = def.defaults.get(i as usize) {
            out.extend(self.eval(f.file, def.parent, v, Some(def.start_line), depth + 1));
        }
        dedup(&mut out);
        // Every call site adds its argument: a union wider than one value per site is normal.
        if self.too_many(&mut out, MAX_PARAM_VALS) {
            out.clear();
        }
        out
    }

    /// The arguments a `*args` (`kw` false, from position `i` on) or a `**kwargs` parameter
    /// collects at the call sites of `f`: those at position `at` or under keyword `key`, or
    /// all of them.
    pub(super) fn packed_args(
        &self,
        f: Ref,
        i: u32,
        kw: bool,
        key: Option<&str>,
        depth: u32,
    ) -> Vec<Val> {
        if !self.param_flow || depth > MAX_DEPTH {
            return Vec::new();
        }
        let sites: &[(FileId, u32, bool)] = self.callers.get(&f).map_or(&[], Vec::as_slice);
        if sites.len() > MAX_SITES {
            return Vec::new();
        }
        let params = &self.def(f).params;
        let mut out = Vec::new();
        for &(cf, ci, bound) in sites {
            let Some(call) = self.call_site(cf, ci) else {
                continue;
            };
            if call.decorates.is_some() {
                continue;
            }
            let args: Vec<&Option<Vec<Seg>>> = if kw {
                call.kwargs
                    .iter()
                    .filter(|(k, _)| {
                        !params.contains(k)
                            && key.is_none_or(|w| w.strip_prefix('\'').unwrap_or(w) == k)
                    })
                    .map(|(_, v)| v)
                    .collect()
            } else if self.lang(f.file).is_js_family() {
                let from = i as usize + js_arg_shift(call, self.def(f));
                let rest = call.args.get(from..).unwrap_or(&[]);
                match key.and_then(|k| k.parse::<usize>().ok()) {
                    Some(k) => rest.get(k).into_iter().collect(),
                    None if key.is_some() => Vec::new(),
                    None => rest.iter().collect(),
                }
            } else {
                let from = (i - u32::from(bound).min(i)) as usize;
                let rest = call.args.get(from..).unwrap_or(&[]);
                match key.and_then(|k| k.parse::<usize>().ok()) {
                    Some(k) => rest.get(k).into_iter().collect(),
                    None if key.is_some() => Vec::new(),
                    None => rest.iter().collect(),
                }
            };
            for a in args.into_iter().flatten() {
                out.extend(self.eval(cf, call.scope, a, Some(call.line), depth + 1));
            }
        }
        dedup(&mut out);
        if self.too_many(&mut out, MAX_PARAM_VALS) {
            out.clear();
        }
        out
    }

    /// A function's value after its decorators: itself when they return it, the wrapper
    /// when a decorator defined here returns a nested function.
    pub(super) fn decorated(&self, r: Ref, depth: u32) -> Vec<Val> {
        self.decorated_below(r, 0, depth)
    }

    /// The function's value after the decorators from position `from` inward (decorators are
    /// listed outermost first and applied innermost first).
    /// The function a legacy method decorator `d` assigns to its descriptor's `value`
    /// (`descriptor.value = function () {...}`, `descriptor.value = memoized`), other than
    /// the method `r` itself.
    fn descriptor_value(&self, d: Ref, r: Ref, depth: u32) -> Option<Ref> {
        let desc = self.def(d).params.get(2)?;
        let f = &self.files[d.file as usize];
        let mut found = None;
        for (i, a) in f.assigns.iter().enumerate() {
            if a.scope != Some(d.def)
                || !matches!(a.target.as_slice(), [o, v] if o == desc && v == "value")
            {
                continue;
            }
            let b = Binding {
                line: a.line,
                kind: BindKind::Assign(i as u32),
                cond: None,
            };
            if let [Val::Func(w)] = self.eval_binding(d.file, b, depth + 1).as_slice()
                && *w != r
            {
                found = Some(*w);
            }
        }
        found
    }

    pub(super) fn decorated_below(&self, r: Ref, from: usize, depth: u32) -> Vec<Val> {
        let def = self.def(r);
        let mut cur = Val::Func(r);
        for dec in def.decorators.iter().skip(from).rev() {
            let vals = self.eval(r.file, def.parent, dec, Some(def.start_line), depth + 1);
            // A class as decorator: the name is now an instance of it, made with the function
            // as the constructor's argument (calling it calls `__call__`).
            if let [Val::Class(k)] = vals.as_slice()
                && self.lang(k.file) == Lang::Python
            {
                cur = Val::Instance(*k);
                continue;
            }
            let [Val::Func(d)] = vals.as_slice() else {
                continue;
            };
            let dd = self.def(*d);
            let mut wrapper = None;
            for ret in self.returns_of(*d) {
                if ret.yields {
                    continue;
                }
                let Some(v) = &ret.value else { continue };
                if let [Seg::Name(n)] = v.as_slice()
                    && dd.params.first() == Some(n)
                {
                    continue;
                }
                let rv = self.eval(d.file, Some(d.def), v, None, depth + 1);
                // The decorator returns a function of its own (a wrapper defined inside it, or
                // another function): calls to the decorated name reach that one.
                if let [Val::Func(w)] = rv.as_slice()
                    && *w != r
                {
                    wrapper = Some(*w);
                }
            }
            // A legacy (`experimentalDecorators`) method decorator `(target, key, descriptor)`
            // that sets `descriptor.value` replaces the method with that value.
            if wrapper.is_none() && self.lang(d.file).is_js_family() {
                wrapper = self.descriptor_value(*d, r, depth);
            }
            if let Some(w) = wrapper {
                cur = Val::Func(w);
            }
        }
        vec![cur]
    }
}

/// `1` when a JavaScript call runs `def` through `def.call(thisArg, ...)` or
/// `def.apply(thisArg, args)`: the arguments start after `thisArg`.
fn js_this_arg(call: &crate::extract::CallSite, def: &crate::extract::Def) -> usize {
    match call.callee.last() {
        Some(Seg::Name(n)) if (n == "call" || n == "apply") && def.name != *n => 1,
        _ => 0,
    }
}

/// Where the arguments `def` receives start among those of `call`: after `thisArg` of
/// `def.call(thisArg, ...)`, and after the event of `emitter.emit('event', ...)` that runs
/// `def` as a listener.
fn js_arg_shift(call: &crate::extract::CallSite, def: &crate::extract::Def) -> usize {
    match call.callee.last() {
        Some(Seg::Name(n)) if n == "emit" && def.name != "emit" => 1,
        _ => js_this_arg(call, def),
    }
}
