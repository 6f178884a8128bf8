//! A JavaScript object holding a delegate in a field and handing itself to the delegate's
//! methods (`this.state.insertCoin(this)`, the state pattern) gets its next delegate back
//! from them, through a method storing its parameter in that field
//! (`machine.setState(hasCredit)` with `setState(s) { this.state = s; }`). The field holds
//! every delegate so reached. Only the delegates the field already holds are read, and only
//! their calls of the setter on the parameter given `this`: the same instance, so the values
//! stay per instance though fields are kept per class.

use super::*;

/// JavaScript: per class and field, the methods the class calls on the value of the field
/// handing itself over, with the position of `this` among the arguments
/// (`this.state.insertCoin(this, cents)`: `insertCoin`, 0).
pub(super) fn field_handoffs(f: &FileFacts) -> HashMap<(DefId, String), Vec<(String, u32)>> {
    let mut out: HashMap<(DefId, String), Vec<(String, u32)>> = HashMap::new();
    for c in &f.calls {
        let (Some((field, m)), Some(pos)) = (handoff_callee(c), this_position(c)) else {
            continue;
        };
        let Some(class) = super::fields::this_class(f, c.scope) else {
            continue;
        };
        let v = out.entry((class, field.clone())).or_default();
        if !v.iter().any(|(n, p)| n == m && *p == pos as u32) {
            v.push((m.clone(), pos as u32));
        }
    }
    out
}

/// The field and method of a call `this.field.m(...)` (not a callback's call).
fn handoff_callee(c: &CallSite) -> Option<(&String, &String)> {
    match c.callee.as_slice() {
        [Seg::Name(head), Seg::Name(field), Seg::Name(m)] if head == "this" && c.via.is_none() => {
            Some((field, m))
        }
        _ => None,
    }
}

/// The position of the first argument that is `this` alone.
fn this_position(c: &CallSite) -> Option<usize> {
    c.args
        .iter()
        .position(|a| matches!(a.as_deref(), Some([Seg::Name(t)]) if t == "this"))
}

/// Whether the file's index is built from call `c` (a hand-off, see [`field_handoffs`]): it is
/// then part of what other files see of the file.
pub(super) fn is_handoff(c: &CallSite) -> bool {
    handoff_callee(c).is_some() && this_position(c).is_some()
}

impl<'a> Resolver<'a> {
    /// Adds to `vals`, the values field `name` of class `k` is assigned, the delegates its
    /// delegates hand back through a setter of the field (see the module doc).
    pub(super) fn handed_back(&self, k: Ref, name: &str, vals: &mut Vec<Val>, depth: u32) {
        if depth > MAX_DEPTH || !self.lang(k.file).is_js_family() {
            return;
        }
        let ix = &self.idx[k.file as usize];
        let Some(handoffs) = ix.field_handoffs.get(&(k.def, name.to_string())) else {
            return;
        };
        let setters = self.field_setters(k, name);
        if setters.is_empty() {
            return;
        }
        let mut next = 0;
        while next < vals.len() {
            let v = vals[next].clone();
            next += 1;
            if matches!(v, Val::Func(_) | Val::Bound(_)) {
                continue;
            }
            let mut found = Vec::new();
            for (m, pos) in handoffs {
                for f in self.member(&v, m, depth + 1) {
                    let (Val::Func(r) | Val::Bound(r)) = f else {
                        continue;
                    };
                    found.extend(self.setter_args(r, *pos, &setters, depth + 1));
                }
            }
            for f in found {
                if !vals.contains(&f) {
                    vals.push(f);
                }
            }
            if vals.len() > MAX_PARAM_VALS {
                return;
            }
        }
    }

    /// The methods of class `k` storing one of their parameters in field `name`
    /// (`setState(s) { this.state = s; }`): name and parameter position.
    fn field_setters(&self, k: Ref, name: &str) -> Vec<(String, usize)> {
        let f = &self.files[k.file as usize];
        let Some(assigns) = self.idx[k.file as usize]
            .inst_attrs
            .get(&(k.def, name.to_string()))
        else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for &a in assigns {
            let a = &f.assigns[a as usize];
            let (Some([Seg::Name(p)]), Some(s)) = (a.value.as_deref(), a.scope) else {
                continue;
            };
            let def = &f.defs[s as usize];
            if def.kind != DefKind::Func || def.parent != Some(k.def) || def.name == "constructor" {
                continue;
            }
            if let Some(j) = def.params.iter().position(|x| x == p) {
                out.push((def.name.clone(), j));
            }
        }
        out
    }

    /// What delegate method `r`, handed the context as its parameter `pos`, gives the
    /// context's setters: `ctx.setState(v)` in its own body.
    fn setter_args(&self, r: Ref, pos: u32, setters: &[(String, usize)], depth: u32) -> Vec<Val> {
        let f = &self.files[r.file as usize];
        let Some(ctx) = f.defs[r.def as usize].params.get(pos as usize) else {
            return Vec::new();
        };
        // The calls of another file are not part of what it shows others.
        record(Dep::Body(r.file));
        let mut out = Vec::new();
        for c in &f.calls {
            let [Seg::Name(head), Seg::Name(m)] = c.callee.as_slice() else {
                continue;
            };
            if head != ctx || c.via.is_some() || !self.runs_in(r, c.scope) {
                continue;
            }
            for (s, j) in setters {
                if s == m
                    && let Some(Some(a)) = c.args.get(*j)
                {
                    out.extend(self.eval(r.file, c.scope, a, Some(c.line), depth + 1));
                }
            }
        }
        out
    }

    /// Whether code in `scope` runs as part of function `r`'s body: `r` itself, or an arrow
    /// or block in it (which sees its parameters).
    fn runs_in(&self, r: Ref, scope: Option<DefId>) -> bool {
        let defs = &self.files[r.file as usize].defs;
        let mut cur = scope;
        while let Some(d) = cur {
            if d == r.def {
                return true;
            }
            let def = &defs[d as usize];
            if def.kind == DefKind::Func && !def.is_lambda {
                return false;
            }
            cur = def.parent;
        }
        false
    }
}
