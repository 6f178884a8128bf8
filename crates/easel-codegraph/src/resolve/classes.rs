//! Classes: members and attributes, bases and the C3 method resolution order, `super()`,
//! dynamic dispatch to subclasses, and module members reached like attributes.

use super::*;

/// `1` for a `@property` (or `cached_property`) getter, `2` for a `@name.setter`, else `0`.
pub(super) fn prop_kind(d: &crate::extract::Def) -> u8 {
    if d.kind != DefKind::Func {
        return 0;
    }
    if d.accessor != 0 {
        return d.accessor;
    }
    for dec in &d.decorators {
        match dec.as_slice() {
            [Seg::Name(p)] | [Seg::Name(_), Seg::Name(p)]
                if p == "property" || p == "cached_property" =>
            {
                return 1;
            }
            [Seg::Name(n), Seg::Name(s)] if *n == d.name && s == "setter" => return 2,
            _ => {}
        }
    }
    0
}

/// Whether two places are the same TypeScript namespace path: both the module, or namespaces
/// of one name within the same path (`namespace App.Http {}` written twice declares `App`
/// twice, and each `Http` in its own `App`).
fn same_namespace(defs: &[crate::extract::Def], a: Option<u32>, b: Option<u32>) -> bool {
    let (mut a, mut b) = (a, b);
    for _ in 0..16 {
        match (a, b) {
            (None, None) => return true,
            (Some(x), Some(y)) if x == y => return true,
            (Some(x), Some(y)) => {
                let (dx, dy) = (&defs[x as usize], &defs[y as usize]);
                if !(dx.is_namespace && dy.is_namespace && dx.name == dy.name) {
                    return false;
                }
                (a, b) = (dx.parent, dy.parent);
            }
            _ => return false,
        }
    }
    false
}
/// Methods of JavaScript arrays, maps and sets: on a literal, not one of its elements.
const JS_COLLECTION_METHODS: &[&str] = &[
    "push", "pop", "shift", "unshift", "add", "set", "get", "has", "delete", "clear", "forEach",
    "map", "filter", "reduce", "some", "every", "find", "includes", "indexOf", "splice", "slice",
    "concat", "keys", "values", "entries", "sort", "join", "length", "size",
];

impl<'a> Resolver<'a> {
    pub(super) fn member(&self, v: &Val, name: &str, depth: u32) -> Vec<Val> {
        let vals = self.member_as_written(v, name, depth);
        self.read_accessors(vals, depth)
    }

    /// Functions assigned to a property of a literal bound to a name, anywhere in its file
    /// (`const api = {}; function install() { api.save = function () {} }`): named `api.save`
    /// where `api` is declared, and members of the literal wherever it is read from (an
    /// import, a destructured `require`).
    fn assigned_to_literal(&self, f: FileId, id: LitId, name: &str, depth: u32) -> Vec<Val> {
        let LitId::Assign(a) = id else {
            return Vec::new();
        };
        if !self.idx[f as usize].dotted {
            return Vec::new();
        }
        let Some(fact) = self.files[f as usize].assigns.get(a as usize) else {
            return Vec::new();
        };
        let [target] = fact.target.as_slice() else {
            return Vec::new();
        };
        let mut out = self.lookup(f, fact.scope, &format!("{target}.{name}"), None, depth);
        out.retain(|v| matches!(v, Val::Func(_) | Val::Class(_)));
        out
    }

    fn member_as_written(&self, v: &Val, name: &str, depth: u32) -> Vec<Val> {
        if depth > MAX_DEPTH {
            return Vec::new();
        }
        // `x.__class__` (and `type(x)`): the class of an instance; for `self`, its class or
        // any used subclass.
        if name == "__class__" {
            match v {
                Val::Instance(c) if self.lang(c.file) == Lang::Python => {
                    return vec![Val::Class(*c)];
                }
                Val::SelfOf(c) if self.lang(c.file) == Lang::Python => {
                    let ks = self.dispatch_classes(*c);
                    return if ks.len() > MAX_VALS {
                        vec![Val::Class(*c)]
                    } else {
                        ks.into_iter().map(Val::Class).collect()
                    };
                }
                _ => {}
            }
        }
        // `T.prototype` of a constructor function with prototype methods holds them:
        // `Shape.prototype.describe.call(this)` runs `Shape.describe`.
        if let Val::Func(r) = v
            && name == "prototype"
            && self.lang(r.file).is_js_family()
            && self.def(*r).has_proto
        {
            return vec![Val::Instance(*r)];
        }
        // A class's `prototype` holds its methods too: `Rook.prototype.canMove.call(this)`.
        if let Val::Class(c) = v
            && name == "prototype"
            && self.lang(c.file).is_js_family()
            && self.def(*c).kind == DefKind::Class
            && !self.def(*c).is_interface
        {
            return vec![Val::Instance(*c)];
        }
        match v {
            Val::Module(m) => {
                let mut out = self.module_member(*m, name, depth, true);
                if out.is_empty() && self.lang(*m) == Lang::Python {
                    let q = format!("{}.{}", self.idx[*m as usize].qualname, name);
                    out.extend(self.py_module_val(&q, Some(*m)));
                }
                if out.is_empty() && self.lang(*m) == Lang::Rust {
                    let q = format!("{}::{}", rust_module(&self.files[*m as usize].path), name);
                    out.extend(self.rust_module_val(&q));
                }
                out
            }
            Val::Namespace(p) => self.py_module_val(&format!("{p}.{name}"), None),
            Val::GoPkg(dir) => {
                let mut out = Vec::new();
                if let Some(files) = self.by_dir.get(dir.as_str()) {
                    for &f in files {
                        if self.lang(f) == Lang::Go {
                            out.extend(self.module_member(f, name, depth, false));
                        }
                    }
                }
                out
            }
            Val::Class(c) => {
                if name == "new" && self.lang(c.file) == Lang::Ruby {
                    // `Foo.new(...)` makes an instance, as calling a class does elsewhere.
                    return vec![Val::Class(*c)];
                }
                let v = self.class_member(*c, name, depth, false);
                // A static field holding a collection the class fills.
                let statics = self.field_collections(*c, name, depth);
                if v.is_empty() && statics.is_empty() {
                    return self.outer_attr(*c, name, false, depth);
                }
                let mut v = self.bind_methods(v, true);
                v.extend(statics);
                v
            }
            // `self` in a Python method: an instance of the class or of any subclass that is
            // used, each with its own overrides.
            Val::SelfOf(c)
                if self.lang(c.file) == Lang::Python || self.lang(c.file).is_js_family() =>
            {
                let ks = self.dispatch_classes(*c);
                if ks == [*c] {
                    return self.instance_member(v, *c, name, depth);
                }
                let mut out = Vec::new();
                for k in ks {
                    out.extend(self.instance_member(&Val::SelfOf(k), k, name, depth));
                }
                dedup(&mut out);
                if out.len() > MAX_VALS {
                    // Too many to follow: the class's own, as before subclasses are known.
                    return self.instance_member(v, *c, name, depth);
                }
                out
            }
            Val::Instance(c) | Val::SelfOf(c) => self.instance_member(v, *c, name, depth),
            Val::Super(c) => self.super_member(*c, name, depth),
            // A JavaScript object literal's properties are its elements.
            // (The methods of arrays, maps and sets are not elements stored at unknown keys;
            // `m.get(k)` gives one of them.)
            Val::Lit(f, id) if self.lang(*f).is_js_family() => {
                if JS_COLLECTION_METHODS.contains(&name)
                    && !self.literal_parts(*f, *id).3.iter().any(|(k, _)| k == name)
                {
                    // An object spread into it (`{ ...require('./cache') }`) may have it: a
                    // plain object's `get` is the object's own.
                    if self.literal_parts(*f, *id).3.iter().any(|(k, _)| k == "**") {
                        let own = self.element(v, name, depth + 1);
                        if !own.is_empty() {
                            return own;
                        }
                    }
                    return match name {
                        "get" => vec![Val::LitMethod(*f, *id, View::Get)],
                        _ => Vec::new(),
                    };
                }
                let mut out = self.element(v, name, depth + 1);
                out.extend(self.assigned_to_literal(*f, *id, name, depth + 1));
                dedup(&mut out);
                out
            }
            // `f.call(obj, ...)` and `f.apply(obj, args)` run `f`.
            Val::Func(r) | Val::Bound(r)
                if matches!(name, "call" | "apply") && self.lang(r.file).is_js_family() =>
            {
                vec![v.clone()]
            }
            // `f.call(x)` on a Ruby lambda runs it with the same arguments.
            Val::Func(r)
                if name == "call" && self.lang(r.file) == Lang::Ruby && self.def(*r).is_lambda =>
            {
                vec![v.clone()]
            }
            Val::Lit(f, id) if self.lang(*f) == Lang::Python => match name {
                "values" => vec![Val::LitMethod(*f, *id, View::Values)],
                "copy" => vec![Val::LitMethod(*f, *id, View::Copy)],
                _ => Vec::new(),
            },
            Val::Func(_)
            | Val::Bound(_)
            | Val::Lit(..)
            | Val::LitMethod(..)
            | Val::LitValues(..)
            | Val::Args(..)
            | Val::Kwargs(..)
            | Val::FieldOp(..)
            | Val::ManyOp(..)
            | Val::Gen(_) => Vec::new(),
            Val::FieldAdds(c, f) => super::fields::collection_method(name)
                .map(|one| Val::FieldOp(*c, f.clone(), one))
                .into_iter()
                .collect(),
            Val::Many(c) => super::fields::collection_method(name)
                .map(|one| Val::ManyOp(*c, one))
                .into_iter()
                .collect(),
        }
    }

    /// A member read through an instance of `c` (`v` is `Instance(c)` or `SelfOf(c)`).
    pub(super) fn instance_member(&self, v: &Val, c: Ref, name: &str, depth: u32) -> Vec<Val> {
        let mut out = self.bind_methods(self.class_member(c, name, depth, false), false);
        if out.is_empty() {
            out = self.instance_attr(c, name, depth);
        } else if self.lang(c.file).is_js_family() {
            // A TypeScript class field is a member of the class body (`entities: Entity[] =
            // []`); what the class's methods push into it is held too, and for a field declared
            // with a literal (`routes = []`, `handlers = {}`) what they store in it by key.
            let more = if out.iter().any(|v| matches!(v, Val::Lit(..))) {
                self.instance_attr(c, name, depth)
            } else {
                self.field_collections(c, name, depth)
            };
            if !more.is_empty() {
                out.extend(more);
                dedup(&mut out);
            }
        }
        if out.is_empty() {
            out = self.outer_attr(c, name, true, depth);
        }
        // Through a value typed with an interface or an abstract class (TypeScript), what runs
        // is a subclass's implementation too.
        let typed = matches!(v, Val::Instance(_)) && self.lang(c.file).is_js_family();
        if out.is_empty()
            && (matches!(v, Val::SelfOf(_)) || typed)
            && !self.declares(c, name, depth)
        {
            // Not defined by the class or its bases: `self` is then an instance of a
            // subclass that defines it.
            let mut seen = HashSet::new();
            let mut stack: Vec<Ref> = self.subclasses.get(&c).cloned().unwrap_or_default();
            while let Some(s) = stack.pop() {
                if !seen.insert(s) || seen.len() > 64 {
                    continue;
                }
                let mut v = self.bind_methods(self.own_member(s, name, depth), false);
                if v.is_empty() {
                    v = self.own_instance_attr(s, name, depth);
                }
                if v.is_empty() {
                    stack.extend(self.subclasses.get(&s).cloned().unwrap_or_default());
                }
                out.extend(v);
            }
            dedup(&mut out);
        }
        out
    }

    /// An attribute set from outside the class, in the class's file: `Tool.run = helper` (a
    /// method of the class from then on: bound when read through an instance) or, read through
    /// an instance, `box.fn = f` on an instance of it.
    pub(super) fn outer_attr(&self, c: Ref, name: &str, instance: bool, depth: u32) -> Vec<Val> {
        if self.lang(c.file) != Lang::Python || depth > MAX_DEPTH {
            return Vec::new();
        }
        let Some(sets) = self.idx[c.file as usize].outer_attrs.get(name) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for &a in sets {
            let fa = &self.files[c.file as usize].assigns[a as usize];
            let (Some(obj), Some(value)) = (fa.target.first(), &fa.value) else {
                continue;
            };
            let objs = self.eval(
                c.file,
                fa.scope,
                &[Seg::Name(obj.clone())],
                Some(fa.line),
                depth + 1,
            );
            let on_class = objs.contains(&Val::Class(c));
            let on_instance = instance
                && objs
                    .iter()
                    .any(|o| matches!(o, Val::Instance(k) | Val::SelfOf(k) if *k == c));
            if !on_class && !on_instance {
                continue;
            }
            let vals = self.eval(c.file, fa.scope, value, Some(fa.line), depth + 1);
            out.extend(vals.into_iter().map(|v| match v {
                Val::Func(r) if on_class && instance && !self.def(r).is_lambda => Val::Bound(r),
                v => v,
            }));
        }
        dedup(&mut out);
        out
    }

    /// The values other code gives a Python module's top-level name with `mod.attr = v`
    /// (`import helpers; helpers.handler = f`): each assignment of the `py_mod_attrs` table
    /// under `name` whose object is module `m`. When it runs is not known, so these add to the
    /// module's own bindings rather than replace them.
    pub(super) fn assigned_from_outside(&self, m: FileId, name: &str, depth: u32) -> Vec<Val> {
        if depth > MAX_DEPTH || self.lang(m) != Lang::Python {
            return Vec::new();
        }
        let Some(sets) = self.py_mod_attrs.get(name) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for &Ref { file: af, def: ai } in sets {
            // Its own right side (`helpers.f = wrap(helpers.f)`) sees the values before it.
            if IN_RHS.with(|s| s.borrow().contains(&(af, ai))) {
                continue;
            }
            let fa = &self.files[af as usize].assigns[ai as usize];
            let Some(obj) = fa.target.first() else {
                continue;
            };
            let objs = self.eval(
                af,
                fa.scope,
                &[Seg::Name(obj.clone())],
                Some(fa.line),
                depth + 1,
            );
            if !objs.contains(&Val::Module(m)) {
                continue;
            }
            let b = Binding {
                line: fa.line,
                kind: BindKind::Assign(ai),
                cond: None,
            };
            out.extend(self.eval_binding(af, b, depth + 1));
        }
        dedup(&mut out);
        out
    }

    /// A top-level name of a module, as another module sees it.
    pub(super) fn module_member(
        &self,
        m: FileId,
        name: &str,
        depth: u32,
        with_stars: bool,
    ) -> Vec<Val> {
        let f = &self.files[m as usize];
        if name == "default"
            && f.lang.is_js_family()
            && let Some(d) = &f.default_export
        {
            return self.module_member(m, &d.clone(), depth + 1, with_stars);
        }
        let js = f.lang.is_js_family();
        let cjs = self.idx[m as usize].cjs;
        // CommonJS `exports.x = v` is what other modules get as `x`, whatever `x` is inside.
        if cjs
            && let Some(bs) = self.idx[m as usize]
                .bindings
                .get(&(None, crate::extract::cjs_export_key(name)))
        {
            return self.eval_bindings(m, bs, None, depth + 1);
        }
        let foreign = self.assigned_from_outside(m, name, depth + 1);
        if let Some(bs) = self.idx[m as usize].bindings.get(&(None, name.to_string())) {
            let mut out = self.eval_bindings(m, bs, None, depth + 1);
            if !foreign.is_empty() {
                out.extend(foreign);
                dedup(&mut out);
            }
            return out;
        }
        if !foreign.is_empty() {
            return foreign;
        }
        // `export * from` passes on every name but `default`.
        if with_stars && depth < MAX_DEPTH && !(js && name == "default") {
            for &si in &self.idx[m as usize].stars {
                for target in self.import_files(m, si, depth + 1) {
                    if target != m {
                        let v = self.module_member(target, name, depth + 2, true);
                        if !v.is_empty() {
                            return v;
                        }
                    }
                }
            }
        }
        if js && name != "exports" && depth < MAX_DEPTH {
            // CommonJS: a property of the object `module.exports` was set to
            // (`module.exports = { a, b: f }`); a default import of such a module is the
            // module's value itself.
            if name == "default" {
                return self.js_module_value(m, depth + 1);
            }
            if !cjs {
                return Vec::new();
            }
            let whole = self.js_module_value(m, depth + 1);
            let mut out = Vec::new();
            for v in whole.iter().filter(|v| !matches!(v, Val::Module(_))) {
                out.extend(self.member(v, name, depth + 1));
            }
            // `module.exports = Shapes` where the module named functions `Shapes.describe =
            // function` (a namespace filled by property assignments).
            if out.is_empty()
                && self.idx[m as usize].dotted
                && let Some(bs) = self.idx[m as usize]
                    .bindings
                    .get(&(None, "exports".to_string()))
            {
                for b in bs {
                    if let BindKind::Assign(a) = b.kind
                        && let Some([Seg::Name(n)]) =
                            self.files[m as usize].assigns[a as usize].value.as_deref()
                    {
                        out.extend(self.lookup(m, None, &format!("{n}.{name}"), None, depth + 1));
                    }
                }
            }
            dedup(&mut out);
            return out;
        }
        Vec::new()
    }

    pub(super) fn own_member(&self, c: Ref, name: &str, depth: u32) -> Vec<Val> {
        // Copied onto the prototype after the class was made, a mixin's method replaces the
        // class's own, and a later mixin's an earlier one's.
        for m in self.mixins_of(c, depth).into_iter().rev() {
            let v = self.own_member(m, name, depth);
            if !v.is_empty() {
                return v;
            }
        }
        for part in self.class_parts(c) {
            if let Some(bs) = self.idx[part.file as usize]
                .bindings
                .get(&(Some(part.def), name.to_string()))
            {
                return self.eval_bindings(part.file, bs, None, depth + 1);
            }
        }
        Vec::new()
    }

    /// A class defined in pieces: Go methods in other files of the package, C++ methods
    /// defined outside the class (`Foo::bar` in a `.cpp`), Rust `impl` blocks in other files.
    pub(super) fn class_parts(&self, c: Ref) -> Vec<Ref> {
        if self.lang(c.file).is_js_family() {
            return self.namespace_parts(c);
        }
        if !matches!(
            self.lang(c.file),
            Lang::Go | Lang::Cpp | Lang::C | Lang::Rust | Lang::CSharp
        ) {
            return vec![c];
        }
        if let Ok(m) = self.parts_memo.read()
            && let Some((v, deps)) = m.get(&c)
        {
            crate::deps::merge_memo(crate::deps::Memo::class_parts(c), deps);
            return v.clone();
        }
        let (v, deps) = tracked_merged(|| self.compute_class_parts(c));
        if let Ok(mut m) = self.parts_memo.write() {
            m.insert(c, (v.clone(), deps.into()));
        }
        v
    }

    /// A TypeScript namespace declared more than once in a file (`namespace N {}` twice, or
    /// `namespace A.B {}` next to `namespace A {}`): the declarations merge.
    pub(super) fn namespace_parts(&self, c: Ref) -> Vec<Ref> {
        let defs = &self.files[c.file as usize].defs;
        let def = &defs[c.def as usize];
        if !def.is_namespace {
            return vec![c];
        }
        let mut parts = vec![c];
        parts.extend(
            defs.iter()
                .enumerate()
                .filter(|(i, d)| {
                    *i as DefId != c.def
                        && d.is_namespace
                        && d.name == def.name
                        && same_namespace(defs, d.parent, def.parent)
                })
                .map(|(i, _)| Ref {
                    file: c.file,
                    def: i as DefId,
                }),
        );
        parts
    }

    pub(super) fn compute_class_parts(&self, c: Ref) -> Vec<Ref> {
        let f = &self.files[c.file as usize];
        let mut parts = vec![c];
        let def = &f.defs[c.def as usize];
        match f.lang {
            Lang::Go => {
                let dir = dir_of(&f.path);
                if let Some(cands) = self.global_classes.get(&(family(f.lang), def.name.clone())) {
                    parts.extend(
                        cands.iter().copied().filter(|k| {
                            *k != c && dir_of(&self.files[k.file as usize].path) == dir
                        }),
                    );
                }
            }
            Lang::Cpp | Lang::C | Lang::Rust | Lang::CSharp => {
                if let Some(cands) = self.global_classes.get(&(family(f.lang), def.name.clone()))
                    && cands.len() <= 4
                {
                    let q = self.qualname(c);
                    parts.extend(
                        cands
                            .iter()
                            .copied()
                            .filter(|k| *k != c && self.qualname(*k) == q),
                    );
                }
            }
            _ => {}
        }
        parts
    }

    pub(super) fn class_member(&self, c: Ref, name: &str, depth: u32, _implicit: bool) -> Vec<Val> {
        for k in self.mro(c, depth) {
            let v = self.own_member(k, name, depth);
            if !v.is_empty() {
                return v;
            }
        }
        Vec::new()
    }

    /// Whether the class or one of its bases binds `name` (a method, a class attribute, a field,
    /// an instance attribute), whatever its value: then it is not a subclass's to provide.
    pub(super) fn declares(&self, c: Ref, name: &str, depth: u32) -> bool {
        self.mro(c, depth).into_iter().any(|k| {
            self.class_parts(k).into_iter().any(|p| {
                let ix = &self.idx[p.file as usize];
                ix.bindings.contains_key(&(Some(p.def), name.to_string()))
                    || ix.inst_attrs.contains_key(&(p.def, name.to_string()))
            })
        })
    }

    /// Methods read through an instance get their first parameter bound; through the class,
    /// only class methods do.
    pub(super) fn bind_methods(&self, vals: Vec<Val>, via_class: bool) -> Vec<Val> {
        vals.into_iter()
            .map(|v| match v {
                Val::Func(r) => {
                    let d = self.def(r);
                    let is_method = d.parent.is_some_and(|p| {
                        let pd = &self.files[r.file as usize].defs[p as usize];
                        pd.kind == DefKind::Class || pd.kind == DefKind::Impl
                    });
                    let binds = if via_class {
                        d.is_classmethod
                    } else {
                        !d.is_static
                    };
                    if is_method && binds && !d.is_lambda {
                        Val::Bound(r)
                    } else {
                        Val::Func(r)
                    }
                }
                v => v,
            })
            .collect()
    }

    pub(super) fn own_instance_attr(&self, k: Ref, name: &str, depth: u32) -> Vec<Val> {
        let mut out = Vec::new();
        if let Some(assigns) = self.idx[k.file as usize]
            .inst_attrs
            .get(&(k.def, name.to_string()))
        {
            for &a in assigns {
                out.extend(self.eval_binding(
                    k.file,
                    Binding {
                        line: 0,
                        kind: BindKind::Assign(a),
                        cond: None,
                    },
                    depth + 1,
                ));
            }
        }
        out
    }

    pub(super) fn instance_attr(&self, c: Ref, name: &str, depth: u32) -> Vec<Val> {
        if !self.param_flow {
            return self.compute_instance_attr(c, name, depth);
        }
        let memo = ATTR_MEMO.with(|m| {
            m.borrow()
                .get(&(c, depth))
                .and_then(|names| names.iter().find(|(n, _)| n == name))
                .map(|(_, v)| v.clone())
        });
        if let Some((v, deps)) = memo {
            merge(&deps);
            return v;
        }
        // As for parameters: a value worked out while an open parameter was asked for again
        // is not kept.
        let outer = PARAMS_OPEN.with(|o| std::mem::take(&mut o.borrow_mut().1));
        let (out, deps) = tracked_merged(|| self.compute_instance_attr(c, name, depth));
        let complete = PARAMS_OPEN.with(|o| {
            let mut o = o.borrow_mut();
            let complete = o.1.is_empty();
            o.1.extend(outer);
            complete
        });
        if complete {
            ATTR_MEMO.with(|m| {
                m.borrow_mut()
                    .entry((c, depth))
                    .or_default()
                    .push((name.to_string(), (out.clone(), deps.into())))
            });
        }
        out
    }

    fn compute_instance_attr(&self, c: Ref, name: &str, depth: u32) -> Vec<Val> {
        let mut out = self.field_collections(c, name, depth);
        for k in self.mro(c, depth) {
            if let Some(assigns) = self.idx[k.file as usize]
                .inst_attrs
                .get(&(k.def, name.to_string()))
            {
                for &a in assigns {
                    out.extend(self.eval_binding(
                        k.file,
                        Binding {
                            line: 0,
                            kind: BindKind::Assign(a),
                            cond: None,
                        },
                        depth + 1,
                    ));
                }
                if !out.is_empty() {
                    self.handed_back(k, name, &mut out, depth);
                    break;
                }
            }
        }
        dedup(&mut out);
        out
    }

    /// The classes whose instances `self` (or `cls`) can be in a Python method of class `c`:
    /// `c` and its subclasses whose name some call names or passes (a class never named in a
    /// call is never instantiated, nor reached as `cls`). `c` alone when none is, or when the
    /// hierarchy is too big to say.
    pub(super) fn dispatch_classes(&self, c: Ref) -> Vec<Ref> {
        // JavaScript and TypeScript: every subclass of the repository may be what `this` is.
        let js = self.lang(c.file).is_js_family();
        if self.lang(c.file) != Lang::Python && !js {
            return vec![c];
        }
        let used = |k: Ref| js || self.py_used.contains_key(self.def(k).name.as_str());
        let mut out = Vec::new();
        let mut seen = HashSet::new();
        let mut stack: Vec<Ref> = self.subclasses.get(&c).cloned().unwrap_or_default();
        stack.reverse();
        while let Some(s) = stack.pop() {
            if !seen.insert(s) {
                continue;
            }
            if seen.len() > 64 {
                return vec![c];
            }
            if used(s) {
                out.push(s);
            }
            let mut more = self.subclasses.get(&s).cloned().unwrap_or_default();
            more.reverse();
            stack.extend(more);
        }
        // A TypeScript abstract class is never itself what `this` is, when it has subclasses.
        if out.is_empty() || (used(c) && !self.def(c).is_abstract) {
            out.insert(0, c);
        }
        out
    }

    /// What `super()` in class `c` gives `name` as: the next class after `c` that defines it
    /// in the MRO of each class `self` can be an instance of.
    pub(super) fn super_member(&self, c: Ref, name: &str, depth: u32) -> Vec<Val> {
        let mut out = Vec::new();
        for k in self.dispatch_classes(c) {
            let mro = self.mro(k, depth);
            let Some(pos) = mro.iter().position(|x| *x == c) else {
                continue;
            };
            for k in mro.iter().skip(pos + 1) {
                let v = self.own_member(*k, name, depth);
                if !v.is_empty() {
                    out.extend(self.bind_methods(v, false));
                    break;
                }
            }
        }
        dedup(&mut out);
        out
    }

    /// Direct bases that are classes of this repository.
    pub(super) fn bases(&self, c: Ref, depth: u32) -> Vec<Ref> {
        if depth > MAX_DEPTH {
            return Vec::new();
        }
        let def = self.def(c);
        let mut out = Vec::new();
        for b in &def.bases {
            for v in self.eval(c.file, def.parent, b, Some(def.start_line), depth + 1) {
                match v {
                    Val::Class(k) if k != c => out.push(k),
                    // ES5 inheritance: a constructor function with prototype methods.
                    Val::Func(k) if k != c && def.has_proto && self.def(k).has_proto => out.push(k),
                    _ => {}
                }
            }
        }
        // Mixins copied onto the prototype come after the class it extends: `super` does not
        // see them, and `this` in them is an instance of the class.
        for m in self.mixins_of(c, depth) {
            if !out.contains(&m) {
                out.push(m);
            }
        }
        out
    }

    /// Method resolution order: C3 linearization, falling back to depth-first order when the
    /// hierarchy has no consistent linearization.
    pub(super) fn mro(&self, c: Ref, depth: u32) -> Vec<Ref> {
        if let Ok(m) = self.mro_memo.read()
            && let Some((v, deps)) = m.get(&c)
        {
            crate::deps::merge_memo(crate::deps::Memo::mro(c), deps);
            return v.clone();
        }
        let (v, deps) = tracked_merged(|| self.compute_mro(c, depth));
        // Deep in a chain of lookups, bases may have been cut short by the depth limit.
        if depth <= 2
            && let Ok(mut m) = self.mro_memo.write()
        {
            m.insert(c, (v.clone(), deps.into()));
        }
        v
    }

    pub(super) fn compute_mro(&self, c: Ref, depth: u32) -> Vec<Ref> {
        self.c3(c, depth, &mut Vec::new()).unwrap_or_else(|| {
            let mut out = vec![c];
            let mut i = 0;
            while i < out.len() && out.len() < 64 {
                for b in self.bases(out[i], depth + 1) {
                    if !out.contains(&b) {
                        out.push(b);
                    }
                }
                i += 1;
            }
            out
        })
    }

    pub(super) fn c3(&self, c: Ref, depth: u32, stack: &mut Vec<Ref>) -> Option<Vec<Ref>> {
        if stack.contains(&c) || stack.len() > 32 {
            return None;
        }
        stack.push(c);
        let bases = self.bases(c, depth);
        let mut seqs: Vec<Vec<Ref>> = Vec::new();
        for b in &bases {
            seqs.push(self.c3(*b, depth, stack)?);
        }
        seqs.push(bases);
        stack.pop();
        let mut out = vec![c];
        loop {
            seqs.retain(|s| !s.is_empty());
            if seqs.is_empty() {
                return Some(out);
            }
            let head = seqs
                .iter()
                .map(|s| s[0])
                .find(|h| !seqs.iter().any(|s| s[1..].contains(h)))?;
            out.push(head);
            for s in &mut seqs {
                if s[0] == head {
                    s.remove(0);
                }
            }
        }
    }

    // ---- imports ----
}
