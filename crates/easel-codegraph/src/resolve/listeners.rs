//! Listeners handed to an event emitter of the host or a library (`ee.on('x', f)`,
//! `target.addEventListener('x', f)`): when the file also fires that emitter (`ee.emit`,
//! `target.dispatchEvent`), the listener runs where it is fired, not where it is registered,
//! so the registering scope does not call it.

use super::*;
use crate::extract::{ANY_EVENT, may_run};

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

/// A file's [`tag::JS_EVENTS`] entries: its calls registering a listener for an event named by
/// a string literal (`on <event>`), and those firing one on `this` (`fire <event>`), which an
/// emitter class of the repository inheriting `emit` from a library does.
pub(super) fn event_entries(f: &FileFacts) -> Vec<(u8, String, DefId)> {
    let mut out = Vec::new();
    for (ci, ev) in &f.events {
        let Some(c) = f.calls.get(*ci as usize) else {
            continue;
        };
        match c.callee.as_slice() {
            [Seg::Name(t), Seg::Name(m)] if t == "this" && FIRE.contains(&m.as_str()) => {
                out.push((tag::JS_EVENTS, format!("fire {ev}"), *ci));
            }
            // `bus.emit('x')` on a name: the emitter may be one another module shares.
            [Seg::Name(_), Seg::Name(m)] if FIRE.contains(&m.as_str()) && ev != ANY_EVENT => {
                out.push((tag::JS_EVENTS, format!("emit {ev}"), *ci));
            }
            [_, .., Seg::Name(m)] if REGISTER.contains(&m.as_str()) => {
                out.push((tag::JS_EVENTS, format!("on {ev}"), *ci));
                // Every registration, for the classes firing an event named at run time.
                out.push((tag::JS_EVENTS, format!("on {ANY_EVENT}"), *ci));
            }
            _ => {}
        }
    }
    out
}

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
        if self.fired_by_class(fi, o, outer, recv, m) || self.fired_by_sharer(fi, o, outer) {
            return true;
        }
        let ev = self.event_of(fi, o);
        let calls = &self.files[fi as usize].calls;
        calls.iter().enumerate().any(|(ci, c)| {
            matches!(c.callee.split_last(), Some((Seg::Name(f), r))
                if r == recv && FIRE.contains(&f.as_str()))
                && self.same_receiver(fi, recv, outer.scope, c.scope)
                && may_run(ev, self.event_of(fi, ci as u32))
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
        let mut out = self.class_listeners(fi, call);
        out.extend(self.sharers_listeners(fi, call));
        let fired = self.event_of_site(fi, call).map(|(_, ev)| ev);
        let calls = &self.files[fi as usize].calls;
        for (o, reg) in calls.iter().enumerate() {
            let registers = matches!(reg.callee.split_last(), Some((Seg::Name(r), rr))
                if rr == recv && REGISTER.contains(&r.as_str()))
                && self.same_receiver(fi, recv, reg.scope, call.scope)
                && may_run(self.event_of(fi, o as u32), fired);
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

impl<'a> Resolver<'a> {
    /// The event call `ci` of file `fi` registers or fires, when a string literal names it.
    fn event_of(&self, fi: FileId, ci: u32) -> Option<&str> {
        let events = &self.files[fi as usize].events;
        let i = events.binary_search_by_key(&ci, |(c, _)| *c).ok()?;
        Some(events[i].1.as_str())
    }

    /// The index and event of the call of file `fi` that `call` is, when a string literal names
    /// its event. The call may be a copy (the second pass): found among the file's named events.
    fn event_of_site(&self, fi: FileId, call: &CallSite) -> Option<(u32, &str)> {
        let facts = &self.files[fi as usize];
        facts
            .events
            .iter()
            .find(|(ci, _)| {
                facts.calls.get(*ci as usize).is_some_and(|c| {
                    c.line == call.line && c.scope == call.scope && c.callee == call.callee
                })
            })
            .map(|(ci, ev)| (*ci, ev.as_str()))
    }

    /// The top-level variable a name read in `scope` of file `fi` is, followed through named
    /// imports (`import { bus as events } from './bus.js'`) to the module declaring it: the
    /// same object wherever it is read. `None` for a local name, a parameter or a name no
    /// module of the repository declares.
    fn shared_variable(
        &self,
        fi: FileId,
        scope: Option<DefId>,
        name: &str,
        depth: u32,
    ) -> Option<(FileId, String)> {
        if depth > MAX_DEPTH || !self.lang(fi).is_js_family() {
            return None;
        }
        let f = &self.files[fi as usize];
        let ix = &self.idx[fi as usize];
        let mut cur = scope;
        while let Some(d) = cur {
            if ix.bindings.contains_key(&(Some(d), name.to_string())) {
                return None;
            }
            let def = &f.defs[d as usize];
            cur = def.written_in.or(def.parent);
        }
        let bs = ix.bindings.get(&(None, name.to_string()))?;
        // A variable declared once, or one import: a name bound twice may be two objects.
        let [b] = bs.as_slice() else {
            return None;
        };
        match b.kind {
            BindKind::Assign(_) => Some((fi, name.to_string())),
            BindKind::Import(ii) => {
                let ImportKind::From { name: n, .. } = &f.imports.get(ii as usize)?.kind else {
                    return None;
                };
                let [t] = self.import_files(fi, ii, depth + 1)[..] else {
                    return None;
                };
                self.shared_variable(t, None, n, depth + 1)
            }
            _ => None,
        }
    }

    /// Whether registration `o` (`bus.on('placed', f)`) of file `fi` adds a listener to a
    /// top-level emitter another module emits that event on (`bus.emit('placed')`, the same
    /// variable through imports): that module's scope runs the listener.
    fn fired_by_sharer(&self, fi: FileId, o: u32, reg: &CallSite) -> bool {
        let [Seg::Name(n), Seg::Name(_)] = reg.callee.as_slice() else {
            return false;
        };
        let Some(ev) = self.event_of(fi, o) else {
            return false;
        };
        let Some(fires) = self.js_events.get(&format!("emit {ev}")) else {
            return false;
        };
        let Some(var) = self.shared_variable(fi, reg.scope, n, 0) else {
            return false;
        };
        fires.iter().filter(|f| f.file != fi).any(|f| {
            self.call_site(f.file, f.def).is_some_and(|c| {
                matches!(c.callee.as_slice(), [Seg::Name(n2), Seg::Name(_)]
                    if self.shared_variable(f.file, c.scope, n2, 0).as_ref() == Some(&var))
            })
        })
    }

    /// What `bus.emit('placed')` on a top-level emitter runs in the other modules sharing it:
    /// the listeners of `placed` they register on the same variable (through imports).
    fn sharers_listeners(&self, fi: FileId, call: &CallSite) -> Vec<(Ref, bool)> {
        let mut out = Vec::new();
        let [Seg::Name(n), Seg::Name(_)] = call.callee.as_slice() else {
            return out;
        };
        let Some((_, ev)) = self.event_of_site(fi, call) else {
            return out;
        };
        let Some(regs) = self.js_events.get(&format!("on {ev}")) else {
            return out;
        };
        let Some(var) = self.shared_variable(fi, call.scope, n, 0) else {
            return out;
        };
        for r in regs.iter().filter(|r| r.file != fi) {
            let Some(reg) = self.call_site(r.file, r.def) else {
                continue;
            };
            let [Seg::Name(n2), Seg::Name(_)] = reg.callee.as_slice() else {
                continue;
            };
            if self.shared_variable(r.file, reg.scope, n2, 0).as_ref() != Some(&var) {
                continue;
            }
            self.registered_listeners(*r, false, &mut out);
        }
        out
    }

    /// The classes of the repository `recv` (seen at call `reg`) may be an instance of, that
    /// do not define `method` themselves: emitters whose `on`/`emit` a library gives.
    fn emitter_classes(&self, fi: FileId, reg: &CallSite, recv: &[Seg], method: &str) -> Vec<Ref> {
        let mut out = Vec::new();
        for v in self.eval(fi, reg.scope, recv, Some(reg.line), 0) {
            if let Val::Instance(c) | Val::SelfOf(c) = v
                && self.def(c).kind == DefKind::Class
                && self.class_member(c, method, 0, false).is_empty()
                && !out.contains(&c)
            {
                out.push(c);
            }
        }
        out
    }

    /// The class whose `this` a firing call (`this.emit('x')`, index `ci` of file `fi`) fires
    /// on, when `emit` is not the repository's own.
    fn firing_class(&self, fi: FileId, ci: u32) -> Option<Ref> {
        let call = self.call_site(fi, ci)?;
        let Some(Seg::Name(m)) = call.callee.last() else {
            return None;
        };
        let k = self.enclosing_class(fi, call.scope)?;
        (self.def(k).kind == DefKind::Class && self.class_member(k, m, 0, false).is_empty())
            .then_some(k)
    }

    /// Whether registration `o` (`d.on('done', f)`) of file `fi` adds a listener to an instance
    /// of an emitter class of the repository with a method firing that event on `this`
    /// (`this.emit('done')`, in the class or a base): that method runs the listener.
    fn fired_by_class(&self, fi: FileId, o: u32, reg: &CallSite, recv: &[Seg], m: &str) -> bool {
        let Some(ev) = self.event_of(fi, o) else {
            return false;
        };
        let named = self.js_events.get(&format!("fire {ev}"));
        let any = self.js_events.get(&format!("fire {ANY_EVENT}"));
        if named.is_none() && any.is_none() {
            return false;
        }
        let classes = self.emitter_classes(fi, reg, recv, m);
        if classes.is_empty() {
            return false;
        }
        let fires = named.into_iter().flatten().chain(any.into_iter().flatten());
        fires.into_iter().any(|f| {
            self.firing_class(f.file, f.def)
                .is_some_and(|k| classes.iter().any(|&c| self.mro(c, 0).contains(&k)))
        })
    }

    /// What `this.emit('done')` in a method of an emitter class of the repository runs: the
    /// listeners of `done` registered, in any file, on an instance of that class or of a
    /// subclass.
    fn class_listeners(&self, fi: FileId, call: &CallSite) -> Vec<(Ref, bool)> {
        let mut out = Vec::new();
        let [Seg::Name(t), Seg::Name(_)] = call.callee.as_slice() else {
            return out;
        };
        if t != "this" {
            return out;
        }
        let Some((ci, ev)) = self.event_of_site(fi, call) else {
            return out;
        };
        let Some(k) = self.firing_class(fi, ci) else {
            return out;
        };
        let Some(regs) = self.js_events.get(&format!("on {ev}")) else {
            return out;
        };
        for r in regs {
            let Some(reg) = self.call_site(r.file, r.def) else {
                continue;
            };
            let [recv @ .., Seg::Name(m)] = reg.callee.as_slice() else {
                continue;
            };
            let classes = self.emitter_classes(r.file, reg, recv, m);
            if !classes.iter().any(|&c| self.mro(c, 0).contains(&k)) {
                continue;
            }
            self.registered_listeners(*r, m == "addEventListener", &mut out);
        }
        out
    }

    /// The functions the registration `r` (a [`Ref`] whose `def` is the call's index) hands
    /// over as listeners: the callback calls that follow it. With `dom`, an object listener
    /// too (`addEventListener('x', obj)`: the DOM calls `obj.handleEvent(e)`).
    fn registered_listeners(&self, r: Ref, dom: bool, out: &mut Vec<(Ref, bool)>) {
        let calls = &self.files.untracked().get(r.file as usize).calls;
        let listeners = calls
            .iter()
            .skip(r.def as usize + 1)
            .take_while(|c| c.via == Some(r.def));
        for cb in listeners {
            for v in self.eval(r.file, cb.scope, &cb.callee, Some(cb.line), 0) {
                match v {
                    Val::Func(f) => out.push((f, false)),
                    Val::Bound(f) => out.push((f, true)),
                    Val::Instance(c) if dom => {
                        for h in self.class_member(c, "handleEvent", 0, false) {
                            if let Val::Func(f) | Val::Bound(f) = h {
                                out.push((f, true));
                            }
                        }
                    }
                    _ => {}
                }
            }
        }
    }
}
