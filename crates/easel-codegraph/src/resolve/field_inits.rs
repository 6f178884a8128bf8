//! JavaScript instance field initialisers of a class that writes no constructor
//! (`class Scheduler { heap = new MinHeap() }`): the implicit constructor runs them, and it is
//! no node of the graph, so their calls are made by whoever runs `new Scheduler()`.

use super::*;

thread_local! {
    /// Nesting of field initialisers being followed (`a = new A()` whose class has one that
    /// makes another): bounds a class whose field makes an instance of itself.
    static DEPTH: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

/// Class → its instance field initialisers' calls (indices into the file's calls).
pub(super) fn field_inits(f: &FileFacts) -> HashMap<DefId, Vec<u32>> {
    let mut out: HashMap<DefId, Vec<u32>> = HashMap::new();
    for (ci, c) in f.calls.iter().enumerate() {
        if let (true, Some(s)) = (c.field_init, c.scope) {
            out.entry(s).or_default().push(ci as u32);
        }
    }
    out
}

impl Resolver<'_> {
    /// What `new C()` runs besides the constructor: the field initialisers of `C` and of each
    /// base up to the first class that writes its constructor (which runs its own).
    pub(super) fn field_init_targets(&self, c: Ref) -> Vec<(Ref, bool)> {
        let depth = DEPTH.with(|d| d.get());
        if depth >= 3 {
            return Vec::new();
        }
        let mut out = Vec::new();
        for k in self.mro(c, 0) {
            if !self.lang(k.file).is_js_family() || self.writes_constructor(k) {
                break;
            }
            let Some(sites) = self.idx[k.file as usize].field_inits.get(&k.def).cloned() else {
                continue;
            };
            DEPTH.with(|d| d.set(depth + 1));
            for ci in sites {
                if let Some(call) = self.call_site(k.file, ci)
                    && let Some(ts) = self.call_targets(k.file, call)
                {
                    out.extend(ts);
                }
            }
            DEPTH.with(|d| d.set(depth));
        }
        out
    }

    fn writes_constructor(&self, k: Ref) -> bool {
        self.idx[k.file as usize]
            .bindings
            .get(&(Some(k.def), "constructor".to_string()))
            .is_some_and(|bs| {
                bs.iter().any(|b| {
                    matches!(b.kind, BindKind::Def(d)
                        if self.files[k.file as usize].defs[d as usize].kind == DefKind::Func)
                })
            })
    }
}
