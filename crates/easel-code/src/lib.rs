//! `easel-code`: the code canvas on top of the [`easel_codegraph`] engine: the board an agent
//! keeps (seed 004's `canvas` tool), the views drawn from the graph (architecture, impact,
//! evidence board) and the hooks that give a coding agent's session its context.
//!
//! The engine's API is re-exported here, so a front end depends on this one crate.
//!
//! ```
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let dir = tempfile::tempdir()?;
//! std::fs::write(dir.path().join("app.py"), "def helper():\n    pass\n\ndef main():\n    helper()\n")?;
//! let built = easel_code::build(dir.path(), &easel_code::BuildOptions::default())?;
//! let impact = easel_code::impact(&built.graph, "helper", 2)?;
//! let view = easel_code::impact_view(&built.graph, &impact)?;
//! assert!(view.canvas.contains("app.main"));
//! # Ok(()) }
//! ```

pub mod board;
mod error;
pub mod hooks;
mod op;
pub mod views;

pub use easel_codegraph::{
    BuildOptions, BuildStats, Built, CACHE_DIR, DefKind, Edge, EdgeKind, FileFacts, GENERIC_QUERY,
    Graph, Impact, Lang, Neighbor, Node, NodeKind, Picked, Seg, SkipReason, Skipped, SymbolMatch,
    Unresolved, build, build_then, call_graph, check_query, discover, extract, find_symbol,
    generic_definitions, graph_from_facts, graph_from_sources, graph_path, impact, pick_symbol,
    save_built, save_graph, search_symbols,
};
pub use error::{CodeError, ErrorKind, GraphError};
pub use hooks::repo_root;
pub use op::{CanvasInput, CodeCanvas};
pub use views::{
    BoardCard, BoardView, EvidenceCard, View, ViewFiles, architecture_view, board_view,
    impact_view, symbol_slug, write_view,
};
