//! What a piece of resolution read, so that an incremental build knows what to redo.
//!
//! Resolution reads facts of files (through [`crate::files::TrackedFiles`] and
//! [`LazyPerFile`]) and probes global tables by key (through [`Table`]); both note what they
//! read in the innermost open frame of the current thread. A frame is opened around each unit
//! of work ([`tracked`]) and around each memoized value, whose reads are stored with it and
//! replayed on every hit ([`merge`]): a unit that reuses a value computed for another unit
//! depends on what that value read.
//!
//! Absent keys matter as much as present ones: a file that adds a class named `Foo` changes
//! every lookup of `Foo` that found nothing before, so a probe records its key whether or not
//! it finds an entry.

use foldhash::{HashMap, HashSet};
use std::cell::{Cell, RefCell};
use std::hash::Hash;

pub(crate) type FileId = u32;

/// A definition: file and index of the definition in the file's facts.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub(crate) struct Ref {
    pub(crate) file: FileId,
    pub(crate) def: u32,
}

/// One thing a unit of work read, in this run's numbering.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Dep {
    /// Anything in a file's facts or index but its calls (see [`Dep::Body`]).
    File(FileId),
    /// A file's call sites themselves (read through the callers table, or a file's own).
    /// Most edits change only these: what other files see of a file (its definitions,
    /// bindings, imports, ...) stays as it was, and so do the results that read only that.
    Body(FileId),
    /// A key of a global table ([`key_hash`]).
    Key(u64),
    /// A global table keyed by a definition (`subclasses`, `callers`).
    RefKey(u8, Ref),
    /// A dependency kept from an earlier run, already in its stable form.
    Stable(u64),
}

/// Table tags, part of every key hash.
pub(crate) mod tag {
    pub(crate) const FILE: u8 = 0;
    pub(crate) const PY_MODULES: u8 = 1;
    pub(crate) const BY_PATH: u8 = 2;
    pub(crate) const BY_DIR: u8 = 3;
    pub(crate) const RUST_MODULES: u8 = 4;
    pub(crate) const GLOBAL_CLASSES: u8 = 5;
    pub(crate) const GLOBAL_FUNCS: u8 = 6;
    pub(crate) const PACKAGES: u8 = 7;
    pub(crate) const SUBCLASSES: u8 = 8;
    pub(crate) const CALLERS: u8 = 9;
    pub(crate) const RUBY_TOP: u8 = 10;
    pub(crate) const PY_PACKAGES: u8 = 11;
    /// The set of all paths (suffix searches, scans over every folder).
    pub(crate) const ALL_PATHS: u8 = 12;
    /// Python names that some call names or passes (classes that may be instantiated).
    pub(crate) const PY_USED: u8 = 13;
    /// Python names of `@property` getters and setters.
    pub(crate) const PY_PROPS: u8 = 14;
    /// Python `mod.attr = v` written where `mod` names an import, by attribute name.
    pub(crate) const PY_MOD_ATTRS: u8 = 15;
    /// A file's call sites ([`super::Dep::Body`]).
    pub(crate) const BODY: u8 = 16;
    /// JavaScript calls registering a listener for (`on <event>`) or firing on `this`
    /// (`fire <event>`) an event named by a string literal.
    pub(crate) const JS_EVENTS: u8 = 17;
}

/// FNV-1a: stable across runs and builds, unlike the hashers of the maps.
pub(crate) fn key_hash(tag: u8, parts: &[&[u8]]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |b: u8| {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    };
    eat(tag);
    for p in parts {
        for &b in *p {
            eat(b);
        }
        eat(0xff);
    }
    h
}

/// The stable hash of "the set of all paths".
pub(crate) fn all_paths_key() -> u64 {
    key_hash(tag::ALL_PATHS, &[])
}

/// The stable hash of a file (by path).
pub(crate) fn file_key(path: &str) -> u64 {
    key_hash(tag::FILE, &[path.as_bytes()])
}

/// The stable hash of a file's call sites (by path).
pub(crate) fn body_key(path: &str) -> u64 {
    key_hash(tag::BODY, &[path.as_bytes()])
}

/// The stable hash of a key of a table keyed by definition.
pub(crate) fn ref_key(tag: u8, path: &str, def: u32) -> u64 {
    key_hash(tag, &[path.as_bytes(), &def.to_le_bytes()])
}

thread_local! {
    static FRAMES: RefCell<Vec<HashSet<Dep>>> = const { RefCell::new(Vec::new()) };
    /// Whether a frame is open: reading it is cheaper than borrowing `FRAMES`.
    static DEPTH: Cell<usize> = const { Cell::new(0) };
    /// The file read last in the open frame: most reads are of the same file again.
    static LAST_FILE: Cell<Option<FileId>> = const { Cell::new(None) };
    /// The memoized values ([`Memo`]) whose reads were merged last into the open frame: a
    /// unit looks names up through the same file's imports again and again, a JavaScript
    /// import's value goes through the imported module's own imports (re-exports) and back,
    /// and member lookups ask for the same classes' MRO, each hit merging the same reads.
    static MERGED: Cell<[Memo; RECENT]> = const { Cell::new([Memo::NONE; RECENT]) };
    /// The slot of [`MERGED`] to overwrite next.
    static NEXT_MERGED: Cell<usize> = const { Cell::new(0) };
}

/// How many memoized values [`MERGED`] remembers.
const RECENT: usize = 8;

/// A memoized value whose reads do not change while resolution runs: what it is (a tag) and
/// its key.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) struct Memo(u8, u64);

impl Memo {
    const NONE: Memo = Memo(0, 0);

    /// The targets of a file's imports.
    pub(crate) fn imports(fi: FileId) -> Memo {
        Memo(1, u64::from(fi))
    }

    /// A class's method resolution order.
    pub(crate) fn mro(c: Ref) -> Memo {
        Memo(2, (u64::from(c.file) << 32) | u64::from(c.def))
    }

    /// The parts of a class (Go, C++, C, Rust, C# declarations spread over files).
    pub(crate) fn class_parts(c: Ref) -> Memo {
        Memo(3, (u64::from(c.file) << 32) | u64::from(c.def))
    }

    /// What the components of JSX factories' elements are, over the whole repository.
    pub(crate) fn jsx_components(param_flow: bool) -> Memo {
        Memo(4, u64::from(param_flow))
    }
}

/// Forgets which memoized values' reads the open frame holds (a frame was opened or closed).
fn forget_merged() {
    MERGED.with(|m| m.set([Memo::NONE; RECENT]));
}

/// Notes a read in the innermost open frame, if any.
pub(crate) fn record(d: Dep) {
    if DEPTH.with(Cell::get) == 0 {
        return;
    }
    if let Dep::File(f) = d {
        if LAST_FILE.with(Cell::get) == Some(f) {
            return;
        }
        LAST_FILE.with(|l| l.set(Some(f)));
    }
    FRAMES.with(|fr| {
        if let Some(top) = fr.borrow_mut().last_mut() {
            top.insert(d);
        }
    });
}

/// Notes reads made elsewhere (a memoized value's) in the innermost open frame.
pub(crate) fn merge(deps: &[Dep]) {
    if DEPTH.with(Cell::get) == 0 || deps.is_empty() {
        return;
    }
    LAST_FILE.with(|l| l.set(None));
    FRAMES.with(|fr| {
        if let Some(top) = fr.borrow_mut().last_mut() {
            top.extend(deps.iter().copied());
        }
    });
}

/// [`merge`] for the reads behind file `fi`'s import targets.
pub(crate) fn merge_imports_of(fi: FileId, deps: &[Dep]) {
    merge_memo(Memo::imports(fi), deps);
}

/// [`merge`] for the reads of a memoized value, which do not change while resolution runs:
/// merged again into the same frame, they would add nothing.
pub(crate) fn merge_memo(memo: Memo, deps: &[Dep]) {
    if DEPTH.with(Cell::get) == 0 || MERGED.with(Cell::get).contains(&memo) {
        return;
    }
    merge(deps);
    let slot = NEXT_MERGED.with(|n| {
        let slot = n.get() % RECENT;
        n.set(slot + 1);
        slot
    });
    MERGED.with(|m| {
        let mut memos = m.get();
        memos[slot] = memo;
        m.set(memos);
    });
}

/// Runs `f` in a frame of its own and returns what it read. The reads are not added to the
/// enclosing frame: callers that reuse the value say so with [`merge`].
pub(crate) fn tracked<T>(f: impl FnOnce() -> T) -> (T, Vec<Dep>) {
    FRAMES.with(|fr| fr.borrow_mut().push(HashSet::default()));
    DEPTH.with(|d| d.set(d.get() + 1));
    LAST_FILE.with(|l| l.set(None));
    forget_merged();
    let v = f();
    let set = FRAMES.with(|fr| fr.borrow_mut().pop()).unwrap_or_default();
    DEPTH.with(|d| d.set(d.get().saturating_sub(1)));
    LAST_FILE.with(|l| l.set(None));
    forget_merged();
    (v, set.into_iter().collect())
}

/// Runs `f` in a frame of its own, adds its reads to the enclosing frame, and returns them.
pub(crate) fn tracked_merged<T>(f: impl FnOnce() -> T) -> (T, Vec<Dep>) {
    let (v, deps) = tracked(f);
    merge(&deps);
    (v, deps)
}

/// How a table's key becomes a [`Dep`].
pub(crate) trait DepKey {
    fn dep(&self, tag: u8) -> Dep;
}

impl DepKey for str {
    fn dep(&self, tag: u8) -> Dep {
        Dep::Key(key_hash(tag, &[self.as_bytes()]))
    }
}

impl DepKey for String {
    fn dep(&self, tag: u8) -> Dep {
        self.as_str().dep(tag)
    }
}

impl DepKey for &str {
    fn dep(&self, tag: u8) -> Dep {
        (**self).dep(tag)
    }
}

impl DepKey for (u8, String) {
    fn dep(&self, tag: u8) -> Dep {
        Dep::Key(key_hash(tag, &[&[self.0], self.1.as_bytes()]))
    }
}

impl DepKey for Ref {
    fn dep(&self, tag: u8) -> Dep {
        Dep::RefKey(tag, *self)
    }
}

/// A global table whose probes are noted by key.
pub(crate) struct Table<K, V> {
    tag: u8,
    pub(crate) map: HashMap<K, V>,
}

impl<K: Hash + Eq + DepKey, V> Table<K, V> {
    pub(crate) fn new(tag: u8) -> Table<K, V> {
        Table {
            tag,
            map: HashMap::default(),
        }
    }

    pub(crate) fn get<Q>(&self, k: &Q) -> Option<&V>
    where
        K: std::borrow::Borrow<Q>,
        Q: Hash + Eq + DepKey + ?Sized,
    {
        let d = k.dep(self.tag);
        record(d);
        if let Dep::RefKey(_, r) = d {
            // Definition indices are only meaningful with the file they index.
            record(Dep::File(r.file));
        }
        self.map.get(k)
    }

    pub(crate) fn contains_key<Q>(&self, k: &Q) -> bool
    where
        K: std::borrow::Borrow<Q>,
        Q: Hash + Eq + DepKey + ?Sized,
    {
        self.get(k).is_some()
    }

    /// The hash every probe of `k` records, for the keys a file contributes.
    pub(crate) fn dep_of(&self, k: &K) -> Dep {
        k.dep(self.tag)
    }
}

/// A per-file value worked out from the file's facts on first use (and then kept), whose reads
/// count as reads of the file: files no resolution unit reads are never worked on.
pub(crate) struct LazyPerFile<'a, T> {
    cells: Vec<std::sync::OnceLock<T>>,
    #[allow(clippy::type_complexity)]
    make: Box<dyn Fn(usize) -> T + Send + Sync + 'a>,
}

impl<'a, T> LazyPerFile<'a, T> {
    pub(crate) fn new(n: usize, make: impl Fn(usize) -> T + Send + Sync + 'a) -> Self {
        LazyPerFile {
            cells: (0..n).map(|_| std::sync::OnceLock::new()).collect(),
            make: Box::new(make),
        }
    }

    /// File `i`'s value, without noting a read: for passes over all files, not for resolution.
    pub(crate) fn untracked(&self, i: usize) -> &T {
        self.cells[i].get_or_init(|| (self.make)(i))
    }
}

impl<T> std::ops::Index<usize> for LazyPerFile<'_, T> {
    type Output = T;
    fn index(&self, i: usize) -> &T {
        record(Dep::File(i as FileId));
        self.untracked(i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sorted(mut v: Vec<Dep>) -> Vec<Dep> {
        v.sort_by_key(|d| format!("{d:?}"));
        v
    }

    /// A file's import reads merged once per frame still reach every frame that looks them
    /// up: an inner frame's merge does not count for the outer one, nor for the next frame.
    #[test]
    fn import_reads_reach_every_frame() {
        let imports = [Dep::File(7), Dep::Key(42)];
        let ((inner, ()), outer) = tracked(|| {
            merge_imports_of(3, &imports);
            let inner = tracked(|| merge_imports_of(3, &imports));
            merge_imports_of(3, &imports);
            (inner.1, ())
        });
        assert_eq!(sorted(inner), sorted(imports.to_vec()));
        assert_eq!(sorted(outer), sorted(imports.to_vec()));
        let ((), next) = tracked(|| merge_imports_of(3, &imports));
        assert_eq!(sorted(next), sorted(imports.to_vec()));
        // Another file's imports are merged as well.
        let ((), two) = tracked(|| {
            merge_imports_of(3, &imports);
            merge_imports_of(4, &[Dep::Key(9)]);
        });
        assert_eq!(two.len(), 3);
    }

    /// A file's import reads are merged once per frame even when another file's come in
    /// between (a JavaScript import resolved through the imported module's re-exports and
    /// back). A file's import reads never change during resolution; the second, different
    /// list for file 3 stands for a merge that must not happen again.
    #[test]
    fn import_reads_merge_once_per_frame_across_files() {
        let ((), deps) = tracked(|| {
            merge_imports_of(3, &[Dep::Key(1)]);
            merge_imports_of(4, &[Dep::Key(2)]);
            merge_imports_of(3, &[Dep::Key(3)]);
        });
        assert_eq!(sorted(deps), sorted(vec![Dep::Key(1), Dep::Key(2)]));
        // A new frame merges them again.
        let ((), next) = tracked(|| merge_imports_of(3, &[Dep::Key(3)]));
        assert_eq!(next, vec![Dep::Key(3)]);
    }

    /// A memo hit (a class's MRO, ...) merges its reads once per frame, and memos of another
    /// kind with the same number are other values.
    #[test]
    fn memo_reads_merge_once_per_frame() {
        let c = Ref { file: 0, def: 5 };
        let ((), deps) = tracked(|| {
            merge_memo(Memo::mro(c), &[Dep::Key(1)]);
            merge_memo(Memo::imports(5), &[Dep::Key(2)]);
            merge_memo(Memo::class_parts(c), &[Dep::Key(3)]);
            merge_memo(Memo::mro(c), &[Dep::Key(4)]);
        });
        assert_eq!(
            sorted(deps),
            sorted(vec![Dep::Key(1), Dep::Key(2), Dep::Key(3)])
        );
    }
}
