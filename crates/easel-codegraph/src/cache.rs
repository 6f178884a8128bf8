//! The per-file fact cache: facts keyed by the SHA-256 of (format, language, path, bytes),
//! kept in one pack file under `.codecanvas/cache/` so that a warm start is one read. Each
//! entry is encoded on its own, so entries are decoded in parallel and only when used, and
//! unchanged entries are written back without encoding them again.

use crate::error::GraphError;
use crate::files::Files;
use crate::sniff::SkipReason;
use foldhash::{HashMap, HashMapExt};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// Where the cache lives, relative to the repository root.
pub const CACHE_DIR: &str = ".codecanvas/cache";
/// Bumped whenever the facts or the queries change shape, so that old entries are not read.
/// The suffix is a fingerprint of the extraction and resolution code (`build.rs`): a build
/// with other rules starts from scratch even if the number was not bumped.
pub(crate) const FORMAT: &str = concat!("easel-code-facts-21+", env!("EASEL_CODE_RULES"));
const FILE: &str = "facts.bin";
/// Entries added since `facts.bin` was written, with the stamps and failures of the last run:
/// a build that parsed a few files writes these rather than the whole pack again.
const ADDED_FILE: &str = "facts.add.bin";
/// The stamps alone, so that a build with nothing changed reads neither the facts nor the state.
const STAMPS_FILE: &str = "stamps.bin";

/// Path → (size and modification time, content key) of the last run, from `stamps.bin`.
pub(crate) type Stamps = HashMap<String, (Stamp, [u8; 32])>;

/// The stamps of the last run; none when missing, old or damaged.
pub(crate) fn load_stamps(root: &Path) -> Option<Stamps> {
    let bytes = std::fs::read(root.join(CACHE_DIR).join(STAMPS_FILE)).ok()?;
    let (format, rest) = postcard::take_from_bytes::<String>(&bytes).ok()?;
    if format != FORMAT {
        return None;
    }
    let list: Vec<(String, Stamp, [u8; 32])> = postcard::from_bytes(rest).ok()?;
    let mut map = HashMap::with_capacity(list.len());
    map.extend(list.into_iter().map(|(p, st, k)| (p, (st, k))));
    Some(map)
}

/// `facts.bin`: the format, each entry's key and encoded facts, and the stamps; and
/// `facts.add.bin`, the entries added to a `facts.bin` since, and the stamps of the last run.
#[derive(Serialize, Deserialize)]
struct Pack<'a> {
    format: &'a str,
    /// In `facts.bin`, a number naming the pack; in `facts.add.bin`, the number of the pack
    /// it adds to (one that adds to another pack is not read).
    id: u64,
    /// How many files the last run had facts of (the packs may hold entries of files since
    /// changed or deleted).
    live: u32,
    #[serde(borrow)]
    entries: Vec<([u8; 32], Raw<'a>)>,
    /// Path → (size and modification time, content key) of the last run.
    stamps: Vec<(String, Stamp, [u8; 32])>,
    /// Content keys of files that were not parsed, and why: not tried again while unchanged.
    failed: Vec<([u8; 32], SkipReason)>,
}

/// A file the build did not parse, for the cache: its path, stamp, content key and why.
pub(crate) type FailedFile = (String, Option<Stamp>, [u8; 32], SkipReason);

/// Encoded bytes, written and read as one block (postcard encodes them as a `Vec<u8>` would
/// be: a length, then the bytes), and read without copying them.
struct Raw<'a>(&'a [u8]);

impl Serialize for Raw<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bytes(self.0)
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for Raw<'a> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> serde::de::Visitor<'de> for V<'a> {
            type Value = Raw<'a>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("bytes")
            }
            fn visit_borrowed_bytes<E: serde::de::Error>(self, v: &'de [u8]) -> Result<Raw<'a>, E> {
                Ok(Raw(v))
            }
        }
        d.deserialize_bytes(V(std::marker::PhantomData))
    }
}

/// A file's size and modification time (nanoseconds).
#[derive(Serialize, Deserialize, Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Stamp {
    size: u64,
    mtime_ns: u128,
}

impl Stamp {
    pub(crate) fn older_than(self, nanos: u128) -> bool {
        self.mtime_ns < nanos
    }

    /// The stamp with a salt mixed in: a JavaScript or TypeScript file's stamp changes with
    /// the repository's `tsconfig.json` files, which change what its facts say.
    pub(crate) fn salted(self, salt: u64) -> Stamp {
        Stamp {
            size: self.size ^ salt,
            mtime_ns: self.mtime_ns,
        }
    }

    pub(crate) fn of(m: &std::fs::Metadata) -> Option<Stamp> {
        let mtime = m
            .modified()
            .ok()?
            .duration_since(std::time::UNIX_EPOCH)
            .ok()?;
        Some(Stamp {
            size: m.len(),
            mtime_ns: mtime.as_nanos(),
        })
    }
}

#[derive(Default)]
pub(crate) struct Cache {
    /// The whole of `facts.bin`; entries are ranges of it.
    bytes: Vec<u8>,
    /// The whole of `facts.add.bin` when it adds to this `facts.bin`.
    added: Vec<u8>,
    /// Key → whether the entry is in `added`, and where.
    map: HashMap<[u8; 32], (bool, std::ops::Range<usize>)>,
    /// The number of `facts.bin`, when one was read.
    id: Option<u64>,
    /// The bytes of entries in `facts.bin`.
    base_len: usize,
    live: usize,
    stamps: HashMap<String, (Stamp, [u8; 32])>,
    failed: HashMap<[u8; 32], SkipReason>,
}

/// What a pack file holds besides its entries.
struct Rest {
    id: u64,
    live: u32,
    stamps: Vec<(String, Stamp, [u8; 32])>,
    failed: Vec<([u8; 32], SkipReason)>,
}

/// Decodes a pack file, noting where its entries are; none when old or damaged.
fn index_pack(
    bytes: &[u8],
    added: bool,
    map: &mut HashMap<[u8; 32], (bool, std::ops::Range<usize>)>,
    path: &Path,
) -> Option<(Rest, usize)> {
    // An older format is expected after an upgrade: check it before decoding the rest.
    if !matches!(postcard::take_from_bytes::<&str>(bytes), Ok((f, _)) if f == FORMAT) {
        return None;
    }
    match postcard::from_bytes::<Pack>(bytes) {
        Ok(p) if p.format == FORMAT => {
            let base = bytes.as_ptr() as usize;
            let mut len = 0;
            map.reserve(p.entries.len());
            for (k, raw) in p.entries {
                let start = raw.0.as_ptr() as usize - base;
                len += raw.0.len();
                map.entry(k).or_insert((added, start..start + raw.0.len()));
            }
            let rest = Rest {
                id: p.id,
                live: p.live,
                stamps: p.stamps,
                failed: p.failed,
            };
            Some((rest, len))
        }
        Ok(_) => None,
        Err(e) => {
            tracing::warn!("ignoring the damaged cache {}: {e}", path.display());
            None
        }
    }
}

impl Cache {
    /// Reads the cache; a missing, old or damaged cache is an empty one.
    pub(crate) fn load(root: &Path) -> Cache {
        let dir = root.join(CACHE_DIR);
        let path = dir.join(FILE);
        let Ok(bytes) = std::fs::read(&path) else {
            return Cache::default();
        };
        let mut map = HashMap::default();
        let Some((mut rest, base_len)) = index_pack(&bytes, false, &mut map, &path) else {
            return Cache::default();
        };
        let id = rest.id;
        let added_path = dir.join(ADDED_FILE);
        let added = std::fs::read(&added_path).unwrap_or_default();
        let mut extra = HashMap::default();
        let added = match index_pack(&added, true, &mut extra, &added_path) {
            Some((r, _)) if r.id == id => {
                for (k, v) in extra {
                    map.entry(k).or_insert(v);
                }
                rest = r;
                added
            }
            _ => Vec::new(),
        };
        let mut stamps = HashMap::with_capacity(rest.stamps.len());
        stamps.extend(rest.stamps.into_iter().map(|(path, st, k)| (path, (st, k))));
        Cache {
            bytes,
            added,
            map,
            id: Some(id),
            base_len,
            live: rest.live as usize,
            stamps,
            failed: rest.failed.into_iter().collect(),
        }
    }

    /// Why the file with this content key was not parsed last time, if it was not.
    pub(crate) fn failed(&self, key: &[u8; 32]) -> Option<SkipReason> {
        self.failed.get(key).copied()
    }

    /// The encoded facts stored under `key`.
    fn raw(&self, key: &[u8; 32]) -> Option<&[u8]> {
        let (added, range) = self.map.get(key)?;
        match added {
            false => self.bytes.get(range.clone()),
            true => self.added.get(range.clone()),
        }
    }

    /// The head of the facts stored under `key` and their encoded entry (decoded when read);
    /// an entry whose head is damaged is a miss.
    pub(crate) fn head(&self, key: &[u8; 32]) -> Option<(crate::files::Head, &[u8])> {
        let raw = self.raw(key)?;
        Some((crate::files::Head::decode(raw)?, raw))
    }

    /// The facts stored under `key`, decoded; none when missing or damaged.
    pub(crate) fn facts(&self, key: &[u8; 32]) -> Option<crate::extract::FileFacts> {
        postcard::from_bytes(self.raw(key)?).ok()
    }

    /// How many files the last run had facts of.
    pub(crate) fn len(&self) -> usize {
        self.live
    }

    /// The content key recorded for `path` when its stamp is unchanged.
    pub(crate) fn key_for(&self, path: &str, stamp: Stamp) -> Option<[u8; 32]> {
        match self.stamps.get(path) {
            Some((st, k)) if *st == stamp => Some(*k),
            _ => None,
        }
    }

    /// Whether any file's stamp differs from the recorded one (touched but unchanged files).
    pub(crate) fn stale(&self, facts: &Files, stamps: &[Option<Stamp>]) -> bool {
        facts
            .paths()
            .zip(stamps)
            .any(|(p, st)| match (self.stamps.get(p), st) {
                (Some((old, _)), Some(new)) => old != new,
                _ => true,
            })
    }

    /// Replaces the cache with these entries (entries of deleted files go away). Entries
    /// already in `old` are copied as they are.
    pub(crate) fn store(
        root: &Path,
        old: &Cache,
        keys: &[[u8; 32]],
        stamps: &[Option<Stamp>],
        facts: &Files,
        failed: &[FailedFile],
    ) -> Result<(), GraphError> {
        let dir = root.join(CACHE_DIR);
        let io = |path: &Path, e: std::io::Error| GraphError::Io {
            path: path.to_path_buf(),
            source: e,
        };
        std::fs::create_dir_all(&dir).map_err(|e| io(&dir, e))?;
        // New entries are encoded; the others are copied as they are.
        let fresh: Vec<Option<Vec<u8>>> = keys
            .iter()
            .enumerate()
            .map(|(i, k)| match old.raw(k) {
                Some(_) => Ok(None),
                None => postcard::to_stdvec(facts.get(i)).map(Some),
            })
            .collect::<Result<_, _>>()
            .map_err(|e| io(&dir, std::io::Error::other(e)))?;
        let stamps: Vec<(String, Stamp, [u8; 32])> = facts
            .paths()
            .zip(keys)
            .zip(stamps)
            .filter_map(|((p, k), st)| Some((p.to_string(), (*st)?, *k)))
            .collect();
        let mut stamp_bytes =
            postcard::to_stdvec(&FORMAT).map_err(|e| io(&dir, std::io::Error::other(e)))?;
        stamp_bytes
            .extend(postcard::to_stdvec(&stamps).map_err(|e| io(&dir, std::io::Error::other(e)))?);
        // The failed files' stamps lead to their keys, and the keys to why they failed; they
        // are kept out of `stamps.bin`, whose fast path is for builds where every file counts.
        let mut all_stamps = stamps;
        all_stamps.extend(
            failed
                .iter()
                .filter_map(|(p, st, k, _)| Some((p.clone(), (*st)?, *k))),
        );
        // Entries are keyed by content, so any entry of either file is right for its key: a
        // `facts.add.bin` is only ever read with the `facts.bin` it adds to so that the
        // entries of deleted and changed files do not pile up unseen.
        let bytes_of = |k: &[u8; 32], new: &Option<Vec<u8>>| -> usize {
            new.as_ref()
                .map_or_else(|| old.raw(k).map_or(0, <[u8]>::len), Vec::len)
        };
        let in_base = |k: &[u8; 32]| old.map.get(k).is_some_and(|(added, _)| !added);
        let (mut live_base, mut outside) = (0, 0);
        for (k, new) in keys.iter().zip(&fresh) {
            match new.is_none() && in_base(k) {
                true => live_base += bytes_of(k, new),
                false => outside += bytes_of(k, new),
            }
        }
        // Added entries are written again by every build until the next full pack, and dead
        // ones are read: a quarter of the pack of either makes a new pack.
        let add_to = old.id.filter(|_| {
            outside <= old.base_len / 4
                && old.base_len.saturating_sub(live_base) <= old.base_len / 4
        });
        let entries: Vec<([u8; 32], Raw)> = keys
            .iter()
            .zip(&fresh)
            .filter(|(k, new)| add_to.is_none() || new.is_some() || !in_base(k))
            .map(|(k, new)| {
                let bytes = match new {
                    Some(b) => b.as_slice(),
                    None => old.raw(k).unwrap_or_default(),
                };
                (*k, Raw(bytes))
            })
            .collect();
        let pack = Pack {
            format: FORMAT,
            id: add_to.unwrap_or_else(pack_id),
            live: keys.len() as u32,
            entries,
            stamps: all_stamps,
            failed: failed.iter().map(|(_, _, k, r)| (*k, *r)).collect(),
        };
        // The facts first: stamps that point at content keys the pack lacks would only cost a
        // parse, but the other way round costs nothing either.
        let encode =
            |w: &mut std::io::BufWriter<std::fs::File>| postcard::to_io(&pack, w).map(|_| ());
        match add_to {
            Some(_) => write_file(&dir, ADDED_FILE, encode)?,
            None => {
                write_file(&dir, FILE, encode)?;
                // Additions to the pack replaced are not read again (their number is not the
                // new pack's): removing them only saves reading them.
                let _ = std::fs::remove_file(dir.join(ADDED_FILE));
            }
        }
        replace_file(&dir, STAMPS_FILE, &stamp_bytes)
    }
}

/// A number for a new `facts.bin`, different from the last one's: the clock, with the process.
fn pack_id() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    nanos ^ (u64::from(std::process::id()) << 40)
}

const GRAPH_FILE: &str = "graph.bin";
/// The layout of `graph.bin`, checked with [`FORMAT`]: a graph of another layout is not read.
const GRAPH_FORMAT: &str = "graph-2";

/// The buffer between an encoder and its file: large enough that writes are few, small
/// enough not to cost page faults of its own (four files are written at once).
pub(crate) const WRITE_BUFFER: usize = 128 * 1024;

#[derive(Deserialize)]
struct KeptGraph<'a> {
    #[serde(borrow)]
    format: (&'a str, &'a str),
    digest: [u8; 32],
    graph: crate::graph_pack::Unpacked,
    lines: u64,
}

/// The graph the last run resolved, when it was resolved from exactly these inputs.
pub(crate) fn load_graph(root: &Path, digest: &[u8; 32]) -> Option<(crate::model::Graph, u64)> {
    let bytes = std::fs::read(root.join(CACHE_DIR).join(GRAPH_FILE)).ok()?;
    // The digest first: a graph of other inputs is not decoded.
    if !matches!(postcard::take_from_bytes::<((&str, &str), [u8; 32])>(&bytes),
        Ok(((f, d), _)) if f == (FORMAT, GRAPH_FORMAT) && d == *digest)
    {
        return None;
    }
    let kept: KeptGraph = postcard::from_bytes(&bytes).ok()?;
    let lines = kept.lines;
    (kept.digest == *digest && kept.format == (FORMAT, GRAPH_FORMAT))
        .then_some((kept.graph.0, lines))
}

/// The graph the last run kept, whatever its inputs, with their digest.
pub(crate) fn load_any_graph(root: &Path) -> Option<([u8; 32], crate::model::Graph)> {
    let bytes = std::fs::read(root.join(CACHE_DIR).join(GRAPH_FILE)).ok()?;
    if !matches!(postcard::take_from_bytes::<(&str, &str)>(&bytes),
        Ok((f, _)) if f == (FORMAT, GRAPH_FORMAT))
    {
        return None;
    }
    let kept: KeptGraph = postcard::from_bytes(&bytes).ok()?;
    let digest = kept.digest;
    if kept.format != (FORMAT, GRAPH_FORMAT) {
        return None;
    }
    Some((digest, kept.graph.0))
}

/// Keeps the graph resolved from the inputs with this digest.
pub(crate) fn store_graph(
    root: &Path,
    digest: &[u8; 32],
    graph: &crate::model::Graph,
    lines: u64,
) -> Result<(), GraphError> {
    let dir = root.join(CACHE_DIR);
    let io = |path: &Path, e: std::io::Error| GraphError::Io {
        path: path.to_path_buf(),
        source: e,
    };
    std::fs::create_dir_all(&dir).map_err(|e| io(&dir, e))?;
    #[derive(Serialize)]
    struct KeptRef<'a> {
        format: (&'a str, &'a str),
        digest: [u8; 32],
        graph: crate::graph_pack::Packing<'a>,
        lines: u64,
    }
    let kept = KeptRef {
        format: (FORMAT, GRAPH_FORMAT),
        digest: *digest,
        graph: crate::graph_pack::pack(graph),
        lines,
    };
    write_file(&dir, GRAPH_FILE, |w| postcard::to_io(&kept, w).map(|_| ()))
}
const STATE_FILE: &str = "resolve.bin";
/// The shape of the resolution state, checked with [`FORMAT`]: a state of another shape is
/// not read (everything is resolved again, and the facts cache is kept). Bumped too when the
/// resolver's rules change what a unit returns or what `resolve::summarize` makes of a file
/// (a new global table, other names in `py_used`, ...): kept results and summaries of
/// unchanged files are reused as they are.
const STATE_FORMAT: &str = "state-10";

/// The resolution state of the last build, for an incremental build; a missing, old or
/// damaged state is none (the build then resolves everything).
pub(crate) fn load_state(root: &Path) -> Option<crate::incremental::State> {
    let bytes = std::fs::read(root.join(CACHE_DIR).join(STATE_FILE)).ok()?;
    let (format, rest) = postcard::take_from_bytes::<(&str, &str)>(&bytes).ok()?;
    if format != (FORMAT, STATE_FORMAT) {
        return None;
    }
    match postcard::from_bytes::<crate::incremental::State>(rest) {
        Ok(s) if s.fits() => Some(s),
        Ok(_) => {
            tracing::warn!("ignoring the damaged resolution state: reads out of its table");
            None
        }
        Err(e) => {
            tracing::warn!("ignoring the damaged resolution state: {e}");
            None
        }
    }
}

/// Keeps the resolution state for the next build.
pub(crate) fn store_state(
    root: &Path,
    state: &crate::incremental::State,
) -> Result<(), GraphError> {
    let dir = root.join(CACHE_DIR);
    let io = |path: &Path, e: std::io::Error| GraphError::Io {
        path: path.to_path_buf(),
        source: e,
    };
    std::fs::create_dir_all(&dir).map_err(|e| io(&dir, e))?;
    write_file(&dir, STATE_FILE, |w| {
        let w = postcard::to_io(&(FORMAT, STATE_FORMAT), w)?;
        postcard::to_io(state, w).map(|_| ())
    })
}

/// Replaces `dir/name` with `value` encoded (see [`write_file`]).
pub(crate) fn write_encoded<T: Serialize>(
    dir: &Path,
    name: &str,
    value: &T,
) -> Result<(), GraphError> {
    write_file(dir, name, |w| postcard::to_io(value, w).map(|_| ()))
}

/// Replaces `dir/name` with what `encode` writes, streamed through a buffer into a temporary
/// file and renamed, so a reader (or a crash) never sees half a cache. A failed encoding
/// leaves the old file.
fn write_file(
    dir: &Path,
    name: &str,
    encode: impl FnOnce(&mut std::io::BufWriter<std::fs::File>) -> postcard::Result<()>,
) -> Result<(), GraphError> {
    let io = |path: &Path, e: std::io::Error| GraphError::Io {
        path: path.to_path_buf(),
        source: e,
    };
    let tmp = dir.join(format!("{name}.{}.tmp", std::process::id()));
    let file = std::fs::File::create(&tmp).map_err(|e| io(&tmp, e))?;
    let mut w = std::io::BufWriter::with_capacity(WRITE_BUFFER, file);
    let written = encode(&mut w)
        .map_err(std::io::Error::other)
        .and_then(|()| std::io::Write::flush(&mut w));
    drop(w);
    if let Err(e) = written {
        let _ = std::fs::remove_file(&tmp);
        return Err(io(&tmp, e));
    }
    install(&tmp, &dir.join(name))
}

/// Replaces `dir/name` with `bytes` through a temporary file and a rename, so a reader (or a
/// crash) never sees half a cache.
fn replace_file(dir: &Path, name: &str, bytes: &[u8]) -> Result<(), GraphError> {
    let io = |path: &Path, e: std::io::Error| GraphError::Io {
        path: path.to_path_buf(),
        source: e,
    };
    let tmp = dir.join(format!("{name}.{}.tmp", std::process::id()));
    std::fs::write(&tmp, bytes).map_err(|e| io(&tmp, e))?;
    install(&tmp, &dir.join(name))
}

/// Moves a finished temporary file into place. The old file is removed first: on ext4, a
/// rename over an existing file makes the kernel allocate and start writing the new file's
/// blocks at once (`auto_da_alloc`, a guard for programs that do not fsync), which costs
/// milliseconds per megabyte. For a cache that guard is not needed: a reader that comes in
/// between finds no file and builds without it, and never sees half a file.
fn install(tmp: &Path, path: &Path) -> Result<(), GraphError> {
    match std::fs::remove_file(path) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => {
            let _ = std::fs::remove_file(tmp);
            return Err(GraphError::Io {
                path: path.to_path_buf(),
                source: e,
            });
        }
    }
    std::fs::rename(tmp, path).map_err(|e| GraphError::Io {
        path: path.to_path_buf(),
        source: e,
    })
}
