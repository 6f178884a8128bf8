//! A build, phase by phase (each a function of this module, called in order by
//! [`build_then`]):
//! 1. `discover_all`: the source files, by `.gitignore` and size;
//! 2. `kept_when_unchanged`: the kept graph when no file changed (the hooks' common case);
//! 3. `load`: each file's facts from the cache, or its bytes to parse;
//! 4. `parse_changed`: those parsed, while the last build's state is read;
//! 5. `gather`: the files' facts, keys and stamps in order, and what was skipped;
//! 6. resolution: the kept graph, the whole graph, or only what the changes reach
//!    (`incremental::resolve`);
//! 7. `store`: the caches written beside what the caller does with the graph.

use crate::error::GraphError;
use crate::sniff::{self, SkipReason, Skipped};
use crate::{
    Graph, Lang, budget, cache, extract, files, graph_json, incremental, resolve, tsconfig,
};
use rayon::prelude::*;
use serde::Serialize;
use sha2::{Digest, Sha256};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

/// Files larger than this are skipped: generated bundles and data, not code to read.
const MAX_FILE_BYTES: u64 = 2 * 1024 * 1024;

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
    pub(crate) layout: Option<graph_json::Layout>,
}

/// Every source file under `root` that a language here knows, honouring `.gitignore`,
/// `.ignore` and hidden files; paths relative to `root`, sorted.
pub fn discover(root: &Path) -> Result<Vec<(String, Lang)>, GraphError> {
    discover_all(root).map(|d| d.files)
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
    let Discovered {
        files,
        stamps,
        large: too_large,
        configs,
    } = discover_all(root)?;
    let ts = tsconfig::TsConfigs::load(root, &configs);
    tracing::debug!(
        ms = start.elapsed().as_millis(),
        files = files.len(),
        "discovered"
    );
    let settled = settled_before_now();
    if opts.use_cache
        && let Some((graph, lines)) = kept_when_unchanged(root, &files, &stamps, settled, ts.salt)
    {
        let stats = BuildStats {
            files: files.len(),
            cached: files.len(),
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
    let progress = Progress {
        done: AtomicUsize::new(0),
        total: files.len(),
        report: opts.progress,
    };
    let loaded = load(root, &files, &stamps, &cache, settled, ts.salt, &progress);
    let (parsed, preloaded) = parse_changed(root, &files, &loaded, opts.use_cache, &ts, &progress);
    let Gathered {
        items,
        keys,
        mut stats,
        problems,
        skipped,
        failed,
        stamps,
    } = gather(&files, loaded, parsed, too_large);
    // A cache entry whose head decodes but whose rest does not: parsed again when read.
    let facts = files::Files::lazy(items, |h| {
        std::fs::read(root.join(&h.path))
            .map_err(|e| e.to_string())
            .and_then(|bytes| extract::extract(h.lang, &h.path, &bytes))
            .or_else(|_| extract::extract(h.lang, &h.path, b""))
            .map(|mut f| {
                ts.rewrite(&mut f);
                f
            })
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
    let finish = |graph: Graph, stats: BuildStats, layout| Built {
        graph,
        stats,
        problems,
        skipped,
        unchanged,
        layout,
    };
    let kept = if unchanged {
        cache::load_graph(root, &digest).map(|(g, _)| g)
    } else {
        None
    };
    if let Some(g) = kept {
        stats.millis = start.elapsed().as_millis();
        let built = finish(g, stats, None);
        let t = then(&built);
        return Ok((built, t));
    }
    if !opts.use_cache {
        stats.resolved = facts.len();
        let g = resolve::Resolver::new(&facts).into_graph();
        stats.millis = start.elapsed().as_millis();
        tracing::debug!(?stats, "built the code graph");
        let built = finish(g, stats, None);
        let t = then(&built);
        return Ok((built, t));
    }
    // Only what the changes can reach is resolved again.
    let old = preloaded.unwrap_or_else(|| load_old(root));
    tracing::debug!(ms = start.elapsed().as_millis(), "state loaded");
    let (g, state, reuse, layout, resolver) =
        incremental::resolve(&facts, &keys, digest, old, &|key| cache.facts(key));
    stats.resolved = reuse.pass2_redone;
    stats.millis = start.elapsed().as_millis();
    tracing::debug!(?stats, "built the code graph");
    let built = finish(g, stats, Some(layout));
    let written = Written {
        digest,
        state,
        keys: &keys,
        stamps: &stamps,
        failed: &failed,
        unchanged,
    };
    let t = store(root, &built, &cache, &facts, written, resolver, start, then)?;
    Ok((built, t))
}

/// Source files by path, with their language.
type Found = Vec<(String, Lang)>;

/// Phase 1: the source files under `root`, and those left out for their size.
/// Also the `tsconfig.json` / `jsconfig.json` files, whose path aliases imports may use.
/// What phase 1 found.
struct Discovered {
    files: Found,
    /// Each file's stamp (size and modification time) as the walk saw it: stated once, here,
    /// not again by the fast path and by `load`.
    stamps: Vec<Option<cache::Stamp>>,
    /// Files over the size cap.
    large: Vec<Skipped>,
    /// `tsconfig.json`/`jsconfig.json` paths.
    configs: Vec<String>,
}

fn discover_all(root: &Path) -> Result<Discovered, GraphError> {
    if !root.is_dir() {
        return Err(GraphError::NotADirectory {
            path: root.to_path_buf(),
        });
    }
    let mut out = Vec::new();
    let mut large = Vec::new();
    let mut configs = Vec::new();
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
            if tsconfig::is_config(&entry.file_name().to_string_lossy())
                && let Ok(rel) = path.strip_prefix(root)
            {
                let rel = rel.components().map(|c| c.as_os_str().to_string_lossy());
                configs.push(rel.collect::<Vec<_>>().join("/"));
            }
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
        let meta = entry.metadata().ok();
        if meta.as_ref().is_some_and(|m| m.len() > MAX_FILE_BYTES) {
            large.push(Skipped {
                path: rel,
                reason: SkipReason::TooLarge,
            });
            continue;
        }
        out.push((rel, lang, meta.as_ref().and_then(cache::Stamp::of)));
    }
    out.sort_by(|a, b| (&a.0, a.1).cmp(&(&b.0, b.1)));
    large.sort_by(|a, b| a.path.cmp(&b.path));
    configs.sort();
    let (files, stamps) = out.into_iter().map(|(r, l, s)| ((r, l), s)).unzip();
    Ok(Discovered {
        files,
        stamps,
        large,
        configs,
    })
}

/// Timestamps are coarse: a file written in the last two seconds may have changed again
/// without its stamp changing, so only files older than this (in nanoseconds since the epoch)
/// are trusted by their stamp (as git does for racy files).
fn settled_before_now() -> u128 {
    std::time::SystemTime::now()
        .checked_sub(std::time::Duration::from_secs(2))
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map(|d| d.as_nanos())
        .unwrap_or(0)
}

/// Phase 2, the fast path: every file settled and stamped as last time, no file added or
/// removed, and the graph of exactly these inputs kept: nothing to read, decode or resolve,
/// and only the stamps and the graph are loaded (a hook may call this on every tool call of
/// an agent). The graph and its line count, or `None` to build.
fn kept_when_unchanged(
    root: &Path,
    files: &Found,
    stamps: &[Option<cache::Stamp>],
    settled: u128,
    salt: u64,
) -> Option<(Graph, u64)> {
    let total = files.len();
    if total == 0 {
        return None;
    }
    let kept = cache::load_stamps(root)?;
    if kept.len() != total {
        return None;
    }
    let keys: Vec<[u8; 32]> = files
        .par_iter()
        .zip(stamps)
        .map(|((rel, lang), st)| {
            let st = salted((*st)?, *lang, salt);
            if !st.older_than(settled) {
                return None;
            }
            match kept.get(rel) {
                Some((old, k)) if *old == st => Some(*k),
                _ => None,
            }
        })
        .collect::<Option<_>>()?;
    let digest = digest_of(files.iter().map(|(rel, _)| rel.as_str()).zip(&keys));
    cache::load_graph(root, &digest)
}

/// Files done, for the caller's progress bar.
struct Progress<'a> {
    done: AtomicUsize,
    total: usize,
    report: Option<&'a (dyn Fn(usize, usize) + Sync)>,
}

impl Progress<'_> {
    fn one_more(&self) {
        let n = self.done.fetch_add(1, Ordering::Relaxed) + 1;
        if let Some(p) = self.report {
            p(n, self.total);
        }
    }
}

/// A file's cached facts (head and encoded entry), or its bytes to parse; its cache key and
/// stamp.
type Loaded<'c> = (Got<'c>, [u8; 32], Option<cache::Stamp>);

enum Got<'c> {
    Cached(files::Head, &'c [u8]),
    Parse(Vec<u8>, Lang),
    /// Not parsed: binary, or it failed before (by its content key).
    Skip(SkipReason),
}

/// Phase 3: each file's facts from the cache (by its stamp, else by its content), or its
/// bytes to parse.
fn load<'c>(
    root: &Path,
    files: &Found,
    stamps: &[Option<cache::Stamp>],
    cache: &'c cache::Cache,
    settled: u128,
    salt: u64,
    progress: &Progress,
) -> Vec<Result<Loaded<'c>, String>> {
    files
        .par_iter()
        .zip(stamps)
        .map(|((rel, lang), stamp)| {
            let r = load_one(root, rel, *lang, *stamp, cache, settled, salt);
            if !matches!(r, Ok((Got::Parse(..), ..))) {
                progress.one_more();
            }
            r
        })
        .collect()
}

fn load_one<'c>(
    root: &Path,
    rel: &str,
    lang: Lang,
    stamp: Option<cache::Stamp>,
    cache: &'c cache::Cache,
    settled: u128,
    salt: u64,
) -> Result<Loaded<'c>, String> {
    let path = root.join(rel);
    // A file whose size and modification time are those of the last run has the content hash
    // of the last run: no need to read it again. Cached facts are decoded when something reads
    // them; their head now.
    let stamp = stamp.map(|st| salted(st, lang, salt));
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
    let lang = refine_lang(rel, lang, &bytes);
    let key = content_key(rel, lang, &bytes, salt);
    if let Some((h, raw)) = cache.head(&key) {
        return Ok((Got::Cached(h, raw), key, stamp));
    }
    if let Some(reason) = cache.failed(&key) {
        return Ok((Got::Skip(reason), key, stamp));
    }
    // A video segment named `.ts` or data named `.c`: tree-sitter would spend seconds on it to
    // find nothing.
    if sniff::is_binary(&bytes) {
        return Ok((Got::Skip(SkipReason::Binary), key, stamp));
    }
    Ok((Got::Parse(bytes, lang), key, stamp))
}

/// What parsing gave each file to parse, in order.
type Parsed = Vec<Result<extract::FileFacts, budget::Failure>>;

/// The last build's resolution state and graph, if they were read (see [`load_old`]).
type Preloaded = Option<Option<(incremental::State, Graph)>>;

/// Phase 4: the files to parse are parsed while the last build's state and graph are read
/// (compiling a language's query alone takes ~10 ms): when some file changed, they are
/// needed.
fn parse_changed(
    root: &Path,
    files: &Found,
    loaded: &[Result<Loaded, String>],
    use_cache: bool,
    ts: &tsconfig::TsConfigs,
    progress: &Progress,
) -> (Parsed, Preloaded) {
    let to_parse: Vec<usize> = (0..loaded.len())
        .filter(|&i| matches!(loaded[i], Ok((Got::Parse(..), ..))))
        .collect();
    rayon::join(
        || {
            to_parse
                .par_iter()
                .map(|&i| {
                    let r = match &loaded[i] {
                        Ok((Got::Parse(bytes, lang), ..)) => {
                            extract::extract_within(*lang, &files[i].0, bytes).map(|mut f| {
                                ts.rewrite(&mut f);
                                f
                            })
                        }
                        _ => Err(budget::Failure::Error(String::new())),
                    };
                    progress.one_more();
                    r
                })
                .collect::<Vec<_>>()
        },
        || {
            // The queries first: the files to parse wait for them, the state only at the end.
            let mut langs: Vec<Lang> = to_parse
                .iter()
                .filter_map(|&i| match &loaded[i] {
                    Ok((Got::Parse(_, lang), ..)) => Some(*lang),
                    _ => None,
                })
                .collect();
            langs.sort_unstable();
            langs.dedup();
            for lang in langs {
                extract::prepare(lang);
            }
            (use_cache && !to_parse.is_empty()).then(|| load_old(root))
        },
    )
}

/// The files' facts in order, with what the cache must remember of them.
struct Gathered<'c> {
    items: Vec<(files::Head, files::Source<'c>)>,
    keys: Vec<[u8; 32]>,
    stats: BuildStats,
    problems: Vec<String>,
    skipped: Vec<Skipped>,
    failed: Vec<cache::FailedFile>,
    stamps: Vec<Option<cache::Stamp>>,
}

/// Phase 5: every file's facts (cached or parsed), key and stamp in path order; the files
/// that failed or were skipped, with why.
fn gather<'c>(
    files: &Found,
    loaded: Vec<Result<Loaded<'c>, String>>,
    parsed: Parsed,
    too_large: Vec<Skipped>,
) -> Gathered<'c> {
    let total = files.len();
    let mut parsed = parsed.into_iter();
    let mut g = Gathered {
        items: Vec::with_capacity(loaded.len()),
        keys: Vec::with_capacity(loaded.len()),
        stats: BuildStats {
            files: total,
            ..BuildStats::default()
        },
        problems: Vec::new(),
        skipped: too_large,
        failed: Vec::new(),
        stamps: Vec::with_capacity(total),
    };
    for (i, r) in loaded.into_iter().enumerate() {
        let rel = &files[i].0;
        let r = r.and_then(|(got, key, stamp)| {
            let (h, f) = match got {
                Got::Cached(h, raw) => {
                    g.stats.cached += 1;
                    (h, files::Source::Raw(raw))
                }
                Got::Skip(reason) => {
                    g.failed.push((rel.clone(), stamp, key, reason));
                    return Ok(None);
                }
                Got::Parse(..) => {
                    let f = match parsed.next() {
                        Some(Ok(f)) => f,
                        Some(Err(budget::Failure::Skip(reason))) => {
                            g.failed.push((rel.clone(), stamp, key, reason));
                            return Ok(None);
                        }
                        Some(Err(budget::Failure::Error(e))) => return Err(e),
                        None => return Err(format!("{rel}: not parsed")),
                    };
                    g.stats.parsed += 1;
                    (files::Head::of(&f), files::Source::Facts(Box::new(f)))
                }
            };
            Ok(Some((h, f, key, stamp)))
        });
        match r {
            Ok(Some((h, f, key, stamp))) => {
                g.stamps.push(stamp);
                g.stats.lines += u64::from(h.lines);
                g.items.push((h, f));
                g.keys.push(key);
            }
            Ok(None) => {}
            Err(e) => g.problems.push(e),
        }
    }
    g.skipped
        .extend(g.failed.iter().map(|(path, _, _, reason)| Skipped {
            path: path.clone(),
            reason: *reason,
        }));
    g.skipped.sort_by(|a, b| a.path.cmp(&b.path));
    g.stats.skipped = g.problems.len() + g.skipped.len();
    for s in &g.skipped {
        tracing::info!(path = %s.path, reason = s.reason.describe(), "skipped");
    }
    g
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

/// What phase 7 writes besides the graph.
struct Written<'b> {
    digest: [u8; 32],
    state: incremental::State,
    keys: &'b [[u8; 32]],
    stamps: &'b [Option<cache::Stamp>],
    failed: &'b [cache::FailedFile],
    unchanged: bool,
}

/// Phase 7: the cache files are independent of each other and of what the caller does with
/// the graph: all are written side by side, beside `then`.
#[allow(clippy::too_many_arguments)]
fn store<T, R: Send>(
    root: &Path,
    built: &Built,
    cache: &cache::Cache,
    facts: &files::Files,
    written: Written,
    resolver: R,
    start: Instant,
    then: impl FnOnce(&Built) -> T,
) -> Result<T, GraphError> {
    let (stored, t) = std::thread::scope(|s| {
        let store = s.spawn(move || {
            let Written {
                digest,
                state,
                keys,
                stamps,
                failed,
                unchanged,
            } = written;
            let ((kept, stored), facts_stored) = rayon::join(
                || {
                    rayon::join(
                        || cache::store_graph(root, &digest, &built.graph, built.stats.lines),
                        || cache::store_state(root, &state),
                    )
                },
                || match unchanged {
                    true => Ok(()),
                    false => cache::Cache::store(root, cache, keys, stamps, facts, failed),
                },
            );
            tracing::debug!(ms = start.elapsed().as_millis(), "cache written");
            // What the build no longer needs is freed here, beside `then`, rather than after
            // it: hundreds of thousands of small values take milliseconds to hand back.
            drop((state, resolver));
            kept.and(stored).and(facts_stored)
        });
        let t = then(built);
        (store.join(), t)
    });
    match stored {
        Ok(r) => r?,
        Err(p) => std::panic::resume_unwind(p),
    }
    Ok(t)
}

/// The cache key of a file: its path, language and bytes, and the version of the extractor.
/// Editing a query file changes what is extracted, so the query text is part of every key.
fn content_key(rel: &str, lang: Lang, bytes: &[u8], salt: u64) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(cache::FORMAT.as_bytes());
    h.update(lang.name().as_bytes());
    h.update(query_digest(lang));
    if lang.is_js_family() && salt != 0 {
        h.update(salt.to_le_bytes());
    }
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

/// A file's stamp as the cache keeps it: JavaScript and TypeScript files' with the salt of
/// the repository's `tsconfig.json` files (see [`tsconfig::TsConfigs::salt`]).
fn salted(st: cache::Stamp, lang: Lang, salt: u64) -> cache::Stamp {
    if lang.is_js_family() && salt != 0 {
        st.salted(salt)
    } else {
        st
    }
}

/// `.h` is C or C++: a header that uses C++ syntax is parsed with the C++ grammar, so its
/// classes and namespaces are not lost.
pub(crate) fn refine_lang(rel: &str, lang: Lang, bytes: &[u8]) -> Lang {
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
