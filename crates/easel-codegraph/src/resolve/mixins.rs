//! JavaScript mixins copied onto a class's prototype: `Object.assign(Task.prototype,
//! Serializable, Comparable)` gives `Task` the methods of the object literals bound to those
//! names. Copied onto the prototype, they replace the methods the class writes (a later
//! source replacing an earlier one's), and `this` in them is an instance of the classes they
//! are mixed into.

use super::*;

/// Class name → the calls `Object.assign(Name.prototype, ...)` of file `f`.
pub(super) fn proto_mixins(f: &FileFacts) -> HashMap<String, Vec<u32>> {
    let mut out: HashMap<String, Vec<u32>> = HashMap::new();
    for (i, c) in f.calls.iter().enumerate() {
        if let Some(name) = mixin_target(c) {
            out.entry(name.to_string()).or_default().push(i as u32);
        }
    }
    out
}

/// `Name` of a call `Object.assign(Name.prototype, source, ...)`.
pub(super) fn mixin_target(c: &CallSite) -> Option<&str> {
    let [Seg::Name(o), Seg::Name(a)] = c.callee.as_slice() else {
        return None;
    };
    if o != "Object" || a != "assign" || c.args.len() < 2 {
        return None;
    }
    match c.args.first()?.as_deref()? {
        [Seg::Name(n), Seg::Name(p)] if p == "prototype" => Some(n),
        _ => None,
    }
}

impl<'a> Resolver<'a> {
    /// The object literals (their definitions) copied onto class `c`'s prototype, in the
    /// order they are copied.
    pub(super) fn mixins_of(&self, c: Ref, depth: u32) -> Vec<Ref> {
        let def = self.def(c);
        if def.is_object || !self.lang(c.file).is_js_family() || depth > MAX_DEPTH {
            return Vec::new();
        }
        let ix = &self.idx[c.file as usize];
        if ix.proto_mixins.is_empty() {
            return Vec::new();
        }
        let Some(calls) = ix.proto_mixins.get(&def.name) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for &ci in calls {
            let Some(call) = self.call_site(c.file, ci) else {
                continue;
            };
            // The name is this class where the call is made, not another of the same name.
            let Some(Some(target)) = call.args.first() else {
                continue;
            };
            let class = self.eval(c.file, call.scope, &target[..1], Some(call.line), depth + 1);
            if !class.contains(&Val::Class(c)) {
                continue;
            }
            for a in call.args[1..].iter().flatten() {
                for v in self.eval(c.file, call.scope, a, Some(call.line), depth + 1) {
                    if let Some(o) = self.object_def(&v)
                        && o != c
                        && !out.contains(&o)
                    {
                        out.push(o);
                    }
                }
            }
        }
        out
    }

    /// The definition of the object literal bound to a name that `v` is: the one holding
    /// its methods.
    fn object_def(&self, v: &Val) -> Option<Ref> {
        let Val::Lit(f, id) = v else {
            return None;
        };
        let (_, _, _, elements, _) = self.literal_parts(*f, *id);
        elements.iter().find_map(|(_, e)| {
            let [Seg::Lambda(d)] = e.as_deref()? else {
                return None;
            };
            let p = self.files[*f as usize].defs.get(*d as usize)?.parent?;
            self.files[*f as usize]
                .defs
                .get(p as usize)
                .is_some_and(|o| o.is_object)
                .then_some(Ref { file: *f, def: p })
        })
    }

    /// What `this` is, beyond the literal itself, in a method of an object literal mixed into
    /// classes: an instance of each of them.
    pub(super) fn this_of_mixin(&self, fi: FileId, scope: Option<DefId>) -> Vec<Val> {
        let defs = &self.files[fi as usize].defs;
        let Some(o) = self
            .innermost_func(fi, scope)
            .and_then(|d| defs[d as usize].parent)
        else {
            return Vec::new();
        };
        let o = Ref { file: fi, def: o };
        self.subclasses
            .get(&o)
            .map(|ks| ks.iter().map(|k| Val::SelfOf(*k)).collect())
            .unwrap_or_default()
    }
}
