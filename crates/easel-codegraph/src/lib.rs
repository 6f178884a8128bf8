//! `easel-codegraph`: the code graph of a repository, built with tree-sitter alone.
//!
//! This is the engine under `easel-code` (board, views, hooks): it knows files, languages,
//! facts, resolution, its cache and the graph, and nothing of canvases, vaults or drawing.
//!
//! Files are found with the `ignore` crate (so `.gitignore` is respected), parsed in parallel,
//! and reduced to *facts* (definitions, calls, imports, bindings) by one declarative query per
//! language (`queries/<lang>.scm`). Facts are cached by content hash under
//! `.codecanvas/cache/`, so a second run parses only the files that changed. The resolver then
//! turns the facts of all files into a [`Graph`] of modules, classes and functions with
//! `CONTAINS`, `IMPORT`, `CALL` and `INHERITS` edges; calls it cannot resolve for certain are
//! kept apart as [`Unresolved`], never guessed.
//!
//! ```
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let dir = tempfile::tempdir()?;
//! std::fs::write(dir.path().join("app.py"), "def helper():\n    pass\n\ndef main():\n    helper()\n")?;
//! let built = easel_codegraph::build(dir.path(), &easel_codegraph::BuildOptions::default())?;
//! assert!(built.graph.call_pairs().contains(&("app.main".into(), "app.helper".into())));
//!
//! let impact = easel_codegraph::impact(&built.graph, "helper", 2)?;
//! assert_eq!(impact.callers[0].qualname, "app.main");
//! # Ok(()) }
//! ```

mod budget;
mod builtins;
mod cache;
mod callgraph;
mod deps;
mod error;
mod extract;
mod files;
mod graph_json;
mod impact;
mod incremental;
mod kept_graph;
mod lang;
mod model;
mod resolve;
mod sniff;

pub use cache::CACHE_DIR;
pub use callgraph::call_graph;
pub use error::{ErrorKind, GraphError};
pub use extract::{
    DefKind, FileFacts, GENERIC_QUERY, Seg, check_query, extract, generic_definitions,
};
pub use impact::{
    Impact, Neighbor, Picked, SymbolMatch, find_symbol, impact, pick_symbol, search_symbols,
};
pub use lang::Lang;
pub use model::{Edge, EdgeKind, Graph, Node, NodeKind, Unresolved};
pub use sniff::{SkipReason, Skipped};

use rayon::prelude::*;
use serde::Serialize;
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Files larger than this are skipped: generated bundles and data, not code to read.
const MAX_FILE_BYTES: u64 = 2 * 1024 * 1024;

/// A file's cached facts (head and encoded entry), or its bytes to parse; its cache key and
/// stamp.
type Loaded<'c> = (Got<'c>, [u8; 32], Option<cache::Stamp>);

enum Got<'c> {
    Cached(files::Head, &'c [u8]),
    Parse(Vec<u8>, Lang),
    /// Not parsed: binary, or it failed before (by its content key).
    Skip(SkipReason),
}

/// The resolution state of the last build with the graph it was kept with (read side by side):
/// the state is of use only with that graph (a crash between writing the two leaves them
/// apart, and then everything is resolved again).
fn load_old(root: &Path) -> Option<(incremental::State, Graph)> {
    // The graph first: it is the longer, and a worker that comes free takes the state.
    match rayon::join(|| cache::load_any_graph(root), || cache::load_state(root)) {
        (Some((d, g)), Some(s)) if d == s.graph => Some((s, g)),
        _ => None,
    }
}

/// How to build the graph.
#[derive(Default)]
pub struct BuildOptions<'a> {
    /// Use and update the cache in `<root>/.codecanvas/cache/` (on by default in the CLI).
    pub use_cache: bool,
    /// Called from worker threads with (files done, files total).
    pub progress: Option<&'a (dyn Fn(usize, usize) + Sync)>,
}

/// What a build did, for people and benchmarks.
#[derive(Debug, Clone, Default, Serialize)]
pub struct BuildStats {
    pub files: usize,
    pub parsed: usize,
    pub cached: usize,
    pub lines: u64,
    pub skipped: usize,
    /// Files whose calls were resolved in this build; with the cache, the others' edges were
    /// still valid and kept from the last build.
    pub resolved: usize,
    pub millis: u128,
}

/// A built graph and how it was built.
#[derive(Debug, Clone, Serialize)]
pub struct Built {
    pub graph: Graph,
    pub stats: BuildStats,
    /// Files that could not be read or parsed, with the reason.
    pub problems: Vec<String>,
    /// Files not parsed on purpose (over the size cap, binary, over their time budget), by
    /// path.
    pub skipped: Vec<Skipped>,
    /// Every file came from the cache and no file was added or removed since the last build
    /// that used the cache: the graph is the one that build made.
    pub unchanged: bool,
    /// Which pieces of the graph are the last build's, so that `graph.json` is spliced.
    #[serde(skip)]
    layout: Option<graph_json::Layout>,
}

/// Every source file under `root` that a language here knows, honouring `.gitignore`,
/// `.ignore` and hidden files; paths relative to `root`, sorted.
pub fn discover(root: &Path) -> Result<Vec<(String, Lang)>, GraphError> {
    discover_all(root).map(|(files, _)| files)
}

/// Source files by path, with their language.
type Found = Vec<(String, Lang)>;

/// [`discover`], and the source files left out for their size.
fn discover_all(root: &Path) -> Result<(Found, Vec<Skipped>), GraphError> {
    if !root.is_dir() {
        return Err(GraphError::NotADirectory {
            path: root.to_path_buf(),
        });
    }
    let mut out = Vec::new();
    let mut large = Vec::new();
    let walker = ignore::WalkBuilder::new(root)
        .hidden(true)
        .git_ignore(true)
        .git_global(false)
        .git_exclude(true)
        .require_git(false)
        .filter_entry(|e| {
            let name = e.file_name();
            name != "node_modules" && name != ".codecanvas" && name != "target"
        })
        .build();
    for entry in walker {
        let Ok(entry) = entry else { continue };
        if !entry.file_type().is_some_and(|t| t.is_file()) {
            continue;
        }
        let path = entry.path();
        let Some(lang) = Lang::from_path(path) else {
            continue;
        };
        let Ok(rel) = path.strip_prefix(root) else {
            continue;
        };
        let rel = rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy())
            .collect::<Vec<_>>()
            .join("/");
        if entry.metadata().is_ok_and(|m| m.len() > MAX_FILE_BYTES) {
            large.push(Skipped {
                path: rel,
                reason: SkipReason::TooLarge,
            });
            continue;
        }
        out.push((rel, lang));
    }
    out.sort();
    large.sort_by(|a, b| a.path.cmp(&b.path));
    Ok((out, large))
}

/// Build the graph of the repository at `root`.
pub fn build(root: &Path, opts: &BuildOptions) -> Result<Built, GraphError> {
    build_then(root, opts, |_| ()).map(|(built, ())| built)
}

/// Build the graph of the repository at `root`, then run `then` on it while the cache is
/// written (on another thread): what a caller does with the graph (writing it out, drawing
/// it) need not wait for the cache. Returns the graph and what `then` returned; an error
/// writing the cache is returned after `then` has run.
pub fn build_then<T>(
    root: &Path,
    opts: &BuildOptions,
    then: impl FnOnce(&Built) -> T,
) -> Result<(Built, T), GraphError> {
    let start = Instant::now();
    let (files, too_large) = discover_all(root)?;
    tracing::debug!(
        ms = start.elapsed().as_millis(),
        files = files.len(),
        "discovered"
    );
    let total = files.len();
    let settled = std::time::SystemTime::now()
        .checked_sub(std::time::Duration::from_secs(2))
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    // Fast path: every file settled and stamped as last time, no file added or removed, and
    // the graph of exactly these inputs kept: nothing to read, decode or resolve, and only the
    // stamps and the graph are loaded (a hook may call this on every tool call of an agent).
    if opts.use_cache
        && total > 0
        && let Some(stamps) = cache::load_stamps(root)
        && stamps.len() == total
    {
        let keys: Option<Vec<[u8; 32]>> = files
            .par_iter()
            .map(|(rel, _)| {
                let m = std::fs::metadata(root.join(rel)).ok()?;
                let st = cache::Stamp::of(&m)?;
                if !st.older_than(settled) {
                    return None;
                }
                match stamps.get(rel) {
                    Some((old, k)) if *old == st => Some(*k),
                    _ => None,
                }
            })
            .collect();
        if let Some(keys) = keys {
            let digest = digest_of(files.iter().map(|(rel, _)| rel.as_str()).zip(&keys));
            if let Some((graph, lines)) = cache::load_graph(root, &digest) {
                let stats = BuildStats {
                    files: total,
                    cached: total,
                    lines,
                    millis: start.elapsed().as_millis(),
                    ..BuildStats::default()
                };
                tracing::debug!(?stats, "the kept graph is current");
                let built = Built {
                    graph,
                    stats: BuildStats {
                        skipped: too_large.len(),
                        ..stats
                    },
                    problems: Vec::new(),
                    skipped: too_large,
                    unchanged: true,
                    layout: None,
                };
                let t = then(&built);
                return Ok((built, t));
            }
        }
    }
    let cache = if opts.use_cache {
        cache::Cache::load(root)
    } else {
        cache::Cache::default()
    };
    tracing::debug!(
        ms = start.elapsed().as_millis(),
        entries = cache.len(),
        "cache loaded"
    );
    let done = std::sync::atomic::AtomicUsize::new(0);
    let results: Vec<Result<Loaded, String>> = files
        .par_iter()
        .map(|(rel, lang)| {
            let r = (|| -> Result<Loaded, String> {
                let path = root.join(rel);
                // A file whose size and modification time are those of the last run has the
                // content hash of the last run: no need to read it again.
                let stamp = std::fs::metadata(&path)
                    .ok()
                    .and_then(|m| cache::Stamp::of(&m));
                // Timestamps are coarse: a file written in the last two seconds may have changed
                // again without its stamp changing, so it is read (as git does for racy files).
                // Cached facts are decoded when something reads them; their head now.
                if let Some(st) = stamp
                    && st.older_than(settled)
                    && let Some(key) = cache.key_for(rel, st)
                {
                    if let Some((h, raw)) = cache.head(&key) {
                        return Ok((Got::Cached(h, raw), key, stamp));
                    }
                    if let Some(reason) = cache.failed(&key) {
                        return Ok((Got::Skip(reason), key, stamp));
                    }
                }
                let bytes = std::fs::read(&path).map_err(|e| format!("{rel}: {e}"))?;
                let lang = refine_lang(rel, *lang, &bytes);
                let key = content_key(rel, lang, &bytes);
                if let Some((h, raw)) = cache.head(&key) {
                    return Ok((Got::Cached(h, raw), key, stamp));
                }
                if let Some(reason) = cache.failed(&key) {
                    return Ok((Got::Skip(reason), key, stamp));
                }
                // A video segment named `.ts` or data named `.c`: tree-sitter would spend
                // seconds on it to find nothing.
                if sniff::is_binary(&bytes) {
                    return Ok((Got::Skip(SkipReason::Binary), key, stamp));
                }
                Ok((Got::Parse(bytes, lang), key, stamp))
            })();
            if !matches!(r, Ok((Got::Parse(..), ..))) {
                let n = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
                if let Some(p) = opts.progress {
                    p(n, total);
                }
            }
            r
        })
        .collect();
    // The files to parse are parsed while the last build's state and graph are read (compiling
    // a language's query alone takes ~10 ms): when some file changed, they are needed.
    let to_parse: Vec<usize> = (0..results.len())
        .filter(|&i| matches!(results[i], Ok((Got::Parse(..), ..))))
        .collect();
    let (parsed, preloaded) = rayon::join(
        || {
            to_parse
                .par_iter()
                .map(|&i| {
                    let r = match &results[i] {
                        Ok((Got::Parse(bytes, lang), ..)) => {
                            extract::extract_within(*lang, &files[i].0, bytes)
                        }
                        _ => Err(budget::Failure::Error(String::new())),
                    };
                    let n = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
                    if let Some(p) = opts.progress {
                        p(n, total);
                    }
                    r
                })
                .collect::<Vec<_>>()
        },
        || {
            // The queries first: the files to parse wait for them, the state only at the end.
            let mut langs: Vec<Lang> = to_parse
                .iter()
                .filter_map(|&i| match &results[i] {
                    Ok((Got::Parse(_, lang), ..)) => Some(*lang),
                    _ => None,
                })
                .collect();
            langs.sort_unstable();
            langs.dedup();
            for lang in langs {
                extract::prepare(lang);
            }
            (opts.use_cache && !to_parse.is_empty()).then(|| load_old(root))
        },
    );
    let mut parsed = parsed.into_iter();
    let mut items = Vec::with_capacity(results.len());
    let mut keys = Vec::with_capacity(results.len());
    let mut stats = BuildStats {
        files: total,
        ..BuildStats::default()
    };
    let mut problems = Vec::new();
    let mut skipped = too_large;
    let mut failed: Vec<cache::FailedFile> = Vec::new();
    let mut stamps = Vec::with_capacity(total);
    for (i, r) in results.into_iter().enumerate() {
        let rel = &files[i].0;
        let r = r.and_then(|(got, key, stamp)| {
            let (h, f) = match got {
                Got::Cached(h, raw) => {
                    stats.cached += 1;
                    (h, files::Source::Raw(raw))
                }
                Got::Skip(reason) => {
                    failed.push((rel.clone(), stamp, key, reason));
                    return Ok(None);
                }
                Got::Parse(..) => {
                    let f = match parsed.next() {
                        Some(Ok(f)) => f,
                        Some(Err(budget::Failure::Skip(reason))) => {
                            failed.push((rel.clone(), stamp, key, reason));
                            return Ok(None);
                        }
                        Some(Err(budget::Failure::Error(e))) => return Err(e),
                        None => return Err(format!("{rel}: not parsed")),
                    };
                    stats.parsed += 1;
                    (files::Head::of(&f), files::Source::Facts(Box::new(f)))
                }
            };
            Ok(Some((h, f, key, stamp)))
        });
        match r {
            Ok(Some((h, f, key, stamp))) => {
                stamps.push(stamp);
                stats.lines += u64::from(h.lines);
                items.push((h, f));
                keys.push(key);
            }
            Ok(None) => {}
            Err(e) => problems.push(e),
        }
    }
    skipped.extend(failed.iter().map(|(path, _, _, reason)| Skipped {
        path: path.clone(),
        reason: *reason,
    }));
    skipped.sort_by(|a, b| a.path.cmp(&b.path));
    stats.skipped = problems.len() + skipped.len();
    for s in &skipped {
        tracing::info!(path = %s.path, reason = s.reason.describe(), "skipped");
    }
    // A cache entry whose head decodes but whose rest does not: parsed again when read.
    let facts = files::Files::lazy(items, |h| {
        std::fs::read(root.join(&h.path))
            .map_err(|e| e.to_string())
            .and_then(|bytes| extract::extract(h.lang, &h.path, &bytes))
            .or_else(|_| extract::extract(h.lang, &h.path, b""))
            .unwrap_or_else(|e| panic!("no facts for {}: {e}", h.path))
    });
    tracing::debug!(ms = start.elapsed().as_millis(), "facts ready");
    // A file skipped for the first time changes what the cache must remember.
    let newly_failed = failed.iter().any(|(_, _, k, _)| cache.failed(k).is_none());
    let unchanged = opts.use_cache
        && stats.parsed == 0
        && !newly_failed
        && problems.is_empty()
        && cache.len() == facts.len()
        && !cache.stale(&facts, &stamps);
    // The graph is a function of the facts: the same files with the same keys make the graph
    // the last run resolved and kept.
    let digest = inputs_digest(&facts, &keys);
    let kept = if unchanged {
        cache::load_graph(root, &digest).map(|(g, _)| g)
    } else {
        None
    };
    let finish = |graph: Graph, stats: BuildStats, problems: Vec<String>| Built {
        graph,
        stats,
        problems,
        skipped,
        unchanged,
        layout: None,
    };
    if let Some(g) = kept {
        stats.millis = start.elapsed().as_millis();
        let built = finish(g, stats, problems);
        let t = then(&built);
        return Ok((built, t));
    }
    if !opts.use_cache {
        stats.resolved = facts.len();
        let g = resolve::Resolver::new(&facts).into_graph();
        stats.millis = start.elapsed().as_millis();
        tracing::debug!(?stats, "built the code graph");
        let built = finish(g, stats, problems);
        let t = then(&built);
        return Ok((built, t));
    }
    // Only what the changes can reach is resolved again. The state is of use only with the
    // graph it was kept with (a crash between writing the two leaves them apart, and then
    // everything is resolved again).
    let old = preloaded.unwrap_or_else(|| load_old(root));
    tracing::debug!(ms = start.elapsed().as_millis(), "state loaded");
    let (g, state, reuse, layout, resolver) =
        incremental::resolve(&facts, &keys, digest, old, &|key| cache.facts(key));
    stats.resolved = reuse.pass2_redone;
    stats.millis = start.elapsed().as_millis();
    tracing::debug!(?stats, "built the code graph");
    let built = Built {
        layout: Some(layout),
        ..finish(g, stats, problems)
    };
    // The cache files are independent of each other and of what the caller does with the
    // graph: all are written side by side.
    let shared = &built;
    let (cache, facts) = (&cache, &facts);
    let (stored, t) = std::thread::scope(|s| {
        let store = s.spawn(move || {
            let built = shared;
            let ((kept, stored), facts_stored) = rayon::join(
                || {
                    rayon::join(
                        || cache::store_graph(root, &digest, &built.graph, built.stats.lines),
                        || cache::store_state(root, &state),
                    )
                },
                || match unchanged {
                    true => Ok(()),
                    false => cache::Cache::store(root, cache, &keys, &stamps, facts, &failed),
                },
            );
            tracing::debug!(ms = start.elapsed().as_millis(), "cache written");
            // What the build no longer needs is freed here, beside `then`, rather than after
            // it: hundreds of thousands of small values take milliseconds to hand back.
            drop((state, resolver));
            kept.and(stored).and(facts_stored)
        });
        let t = then(&built);
        (store.join(), t)
    });
    match stored {
        Ok(r) => r?,
        Err(p) => std::panic::resume_unwind(p),
    }
    Ok((built, t))
}

/// Build the graph from facts already extracted (tests, and callers with their own files).
pub fn graph_from_facts(facts: &[FileFacts]) -> Graph {
    let files = files::Files::of_slice(facts);
    resolve::Resolver::new(&files).into_graph()
}

/// Build the graph from in-memory files `(path, source)`; files of unknown languages are
/// skipped.
pub fn graph_from_sources(files: &[(&str, &str)]) -> Result<Graph, GraphError> {
    let mut facts = Vec::new();
    for (path, src) in files {
        let Some(lang) = Lang::from_path(Path::new(path)) else {
            continue;
        };
        let lang = refine_lang(path, lang, src.as_bytes());
        let f =
            extract::extract(lang, path, src.as_bytes()).map_err(|reason| GraphError::Parse {
                path: PathBuf::from(path),
                reason,
            })?;
        facts.push(f);
    }
    Ok(graph_from_facts(&facts))
}

/// The graph written by `easel code init`, for tools that read it without rebuilding.
pub fn graph_path(root: &Path) -> PathBuf {
    root.join(".codecanvas").join("graph.json")
}

/// Write `graph.json` next to the cache.
pub fn save_graph(root: &Path, graph: &Graph) -> Result<PathBuf, GraphError> {
    graph_json::save(root, graph, None)
}

/// Write a build's `graph.json` next to the cache: after a build that reused most of the last
/// graph (with the cache), the unchanged files' JSON is copied from the last `graph.json`
/// rather than encoded again.
pub fn save_built(root: &Path, built: &Built) -> Result<PathBuf, GraphError> {
    graph_json::save(root, &built.graph, built.layout.as_ref())
}

/// The cache key of a file: its path, language and bytes, and the version of the extractor.
/// Editing a query file changes what is extracted, so the query text is part of every key.
fn content_key(rel: &str, lang: Lang, bytes: &[u8]) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(cache::FORMAT.as_bytes());
    h.update(lang.name().as_bytes());
    h.update(query_digest(lang));
    h.update([0]);
    h.update(rel.as_bytes());
    h.update([0]);
    h.update(bytes);
    h.finalize().into()
}

fn query_digest(lang: Lang) -> &'static [u8; 32] {
    static DIGESTS: std::sync::OnceLock<Vec<[u8; 32]>> = std::sync::OnceLock::new();
    let all = DIGESTS.get_or_init(|| {
        Lang::ALL
            .iter()
            .map(|l| Sha256::digest(l.query_source().as_bytes()).into())
            .collect()
    });
    let i = Lang::ALL.iter().position(|l| *l == lang).unwrap_or(0);
    &all[i]
}

/// `.h` is C or C++: a header that uses C++ syntax is parsed with the C++ grammar, so its
/// classes and namespaces are not lost.
fn refine_lang(rel: &str, lang: Lang, bytes: &[u8]) -> Lang {
    if lang != Lang::C || !rel.ends_with(".h") {
        return lang;
    }
    let text = String::from_utf8_lossy(&bytes[..bytes.len().min(64 * 1024)]);
    let cpp = [
        "class ",
        "namespace ",
        "template<",
        "template <",
        "public:",
        "private:",
        "std::",
    ]
    .iter()
    .any(|w| text.contains(w));
    if cpp { Lang::Cpp } else { Lang::C }
}

/// A digest of every file's path and content key, in order.
fn inputs_digest(facts: &files::Files, keys: &[[u8; 32]]) -> [u8; 32] {
    digest_of(facts.paths().zip(keys))
}

fn digest_of<'a>(inputs: impl Iterator<Item = (&'a str, &'a [u8; 32])>) -> [u8; 32] {
    let mut h = Sha256::new();
    for (path, k) in inputs {
        h.update(path.as_bytes());
        h.update([0]);
        h.update(k);
    }
    h.finalize().into()
}
