//! Listeners handed to an event emitter of the host or a library (`ee.on('x', f)`,
//! `target.addEventListener('x', f)`): when the file also fires that emitter (`ee.emit`,
//! `target.dispatchEvent`), the listener runs where it is fired, not where it is registered,
//! so the registering scope does not call it.

use super::*;

/// Methods that register a listener, and the methods that run the listeners they registered.
const REGISTER: &[&str] = &[
    "on",
    "once",
    "addListener",
    "prependListener",
    "prependOnceListener",
    "addEventListener",
];
const FIRE: &[&str] = &["emit", "dispatchEvent"];

impl<'a> Resolver<'a> {
    /// Whether call `o` of file `fi` registers a listener on a receiver the file also fires
    /// (the same receiver as written).
    pub(super) fn fired_elsewhere(&self, fi: FileId, o: u32) -> bool {
        let Some(outer) = self.call_site(fi, o) else {
            return false;
        };
        let [recv @ .., Seg::Name(m)] = outer.callee.as_slice() else {
            return false;
        };
        if recv.is_empty() || !REGISTER.contains(&m.as_str()) {
            return false;
        }
        self.files[fi as usize].calls.iter().any(|c| {
            matches!(c.callee.split_last(), Some((Seg::Name(f), r))
                if r == recv && FIRE.contains(&f.as_str()))
                && self.same_receiver(fi, recv, outer.scope, c.scope)
        })
    }

    /// Whether a receiver written the same way in two scopes of a file is the same object:
    /// always for a name, but `this.ee` only within one class (`Channel`'s and `Socket`'s
    /// `this.ee` are two emitters).
    fn same_receiver(&self, fi: FileId, recv: &[Seg], a: Option<DefId>, b: Option<DefId>) -> bool {
        !matches!(recv.first(), Some(Seg::Name(t)) if t == "this")
            || self.enclosing_class(fi, a) == self.enclosing_class(fi, b)
    }

    /// `ee.emit(...)` / `target.dispatchEvent(...)` on an emitter no code of the repository
    /// defines: it calls the functions of the repository the file registers on the same
    /// receiver (as written). `None` when the call fires nothing known.
    pub(super) fn fired_listeners(
        &self,
        fi: FileId,
        call: &crate::extract::CallSite,
    ) -> Option<Vec<(Ref, bool)>> {
        let [recv @ .., Seg::Name(m)] = call.callee.as_slice() else {
            return None;
        };
        if recv.is_empty() || !FIRE.contains(&m.as_str()) {
            return None;
        }
        let calls = &self.files[fi as usize].calls;
        let mut out = Vec::new();
        for (o, reg) in calls.iter().enumerate() {
            let registers = matches!(reg.callee.split_last(), Some((Seg::Name(r), rr))
                if rr == recv && REGISTER.contains(&r.as_str()))
                && self.same_receiver(fi, recv, reg.scope, call.scope);
            if !registers {
                continue;
            }
            for cb in calls.iter().filter(|c| c.via == Some(o as u32)) {
                for v in self.eval(fi, cb.scope, &cb.callee, Some(cb.line), 0) {
                    match v {
                        Val::Func(r) => out.push((r, false)),
                        Val::Bound(r) => out.push((r, true)),
                        _ => {}
                    }
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
}
