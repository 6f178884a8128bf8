//! JSX trees rendered by a renderer of the repository. With the repository's own factory
//! (`createElement(type, props, ...children)` returning `{ type, props }`) an element is a
//! value holding its component, and the component runs where a renderer calls it:
//! `node.type(props)` or `new node.type(props)` in the module that defines the factory. Such a
//! call reaches every component that elements made by that factory name.

use super::*;
use crate::deps::tracked_merged;

thread_local! {
    /// Set while the table is being made: a renderer call met then is left unresolved
    /// rather than asking for the table again.
    static MAKING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

impl Resolver<'_> {
    /// `x.type(...)` in the module of a JSX factory of the repository whose first parameter
    /// is `type`: the components of that factory's elements (their constructors for `new`).
    pub(super) fn rendered_components(
        &self,
        fi: FileId,
        call: &crate::extract::CallSite,
    ) -> Option<Vec<(Ref, bool)>> {
        let [Seg::Name(_), Seg::Name(field)] = call.callee.as_slice() else {
            return None;
        };
        if !self.idx[fi as usize].first_params.contains(field) || MAKING.with(|m| m.get()) {
            return None;
        }
        let table = self.jsx_components();
        let mut out = Vec::new();
        let mut found = false;
        for (factory, comps) in table.iter() {
            if factory.file != fi || self.def(*factory).params.first() != Some(field) {
                continue;
            }
            found = true;
            for v in comps {
                match (v, call.is_new) {
                    (Val::Func(r), false) => out.push((*r, false)),
                    (Val::Class(c), true) => {
                        out.extend(self.constructor(*c).map(|r| (r, true)));
                        out.extend(self.field_init_targets(*c));
                    }
                    _ => {}
                }
            }
        }
        if !found {
            return None;
        }
        out.sort_by_key(|(r, b)| (r.file, r.def, *b));
        out.dedup();
        Some(out)
    }

    /// Factory → what the components of its elements are, over the whole repository.
    fn jsx_components(&self) -> std::sync::Arc<HashMap<Ref, Vec<Val>>> {
        let key = self.param_flow;
        if !key {
            note_redo(None);
        }
        if let Ok(m) = self.jsx_memo.read()
            && let Some((v, deps)) = m.get(&key)
        {
            crate::deps::merge_memo(crate::deps::Memo::jsx_components(key), deps);
            return v.clone();
        }
        MAKING.with(|m| m.set(true));
        let (v, deps) = tracked_merged(|| self.make_jsx_components());
        MAKING.with(|m| m.set(false));
        let v = std::sync::Arc::new(v);
        if let Ok(mut m) = self.jsx_memo.write() {
            m.insert(key, (v.clone(), deps.into()));
        }
        v
    }

    fn make_jsx_components(&self) -> HashMap<Ref, Vec<Val>> {
        let mut out: HashMap<Ref, Vec<Val>> = HashMap::new();
        for fi in 0..self.files.len() as FileId {
            let f = &self.files[fi as usize];
            if !f.lang.is_js_family() {
                continue;
            }
            for call in f.calls.iter() {
                let (crate::extract::JSX_COMPONENT, Some(o)) = (call.jsx, call.via) else {
                    continue;
                };
                let Some(outer) = self.call_site(fi, o) else {
                    continue;
                };
                reset_budget();
                let factories = self.call_targets(fi, outer).unwrap_or_default();
                if factories.is_empty() {
                    continue;
                }
                reset_budget();
                let comps: Vec<Val> = self
                    .eval(fi, call.scope, &call.callee, Some(call.line), 0)
                    .into_iter()
                    .filter(|v| matches!(v, Val::Func(_) | Val::Class(_)))
                    .collect();
                for (factory, _) in factories {
                    let e = out.entry(factory).or_default();
                    for v in &comps {
                        if !e.contains(v) {
                            e.push(v.clone());
                        }
                    }
                }
            }
        }
        out
    }
}
