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
mod graph_pack;
mod impact;
mod incremental;
mod kept_graph;
mod kept_reads;
mod lang;
mod model;
mod pipeline;
mod resolve;
mod sniff;
mod tsconfig;

pub use cache::CACHE_DIR;
pub use callgraph::call_graph;
pub use error::{ErrorKind, GraphError};
pub use extract::{
    DefKind, FileFacts, GENERIC_QUERY, Seg, check_query, extract, extract_by_query,
    generic_definitions,
};
pub use impact::{
    Impact, Neighbor, Picked, SymbolMatch, find_symbol, impact, pick_symbol, search_symbols,
};
pub use lang::Lang;
pub use model::{Edge, EdgeKind, Graph, Node, NodeKind, Unresolved};
pub use pipeline::{BuildOptions, BuildStats, Built, build, build_then, discover};
pub use sniff::{SkipReason, Skipped};

use std::path::{Path, PathBuf};

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
        let lang = pipeline::refine_lang(path, lang, src.as_bytes());
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
