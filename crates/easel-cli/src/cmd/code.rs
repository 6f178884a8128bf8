//! `easel code …`: thin adapters over `easel_code`.

use crate::cli::CodeCmd;
use crate::output::Output;
use easel_code::board;
use easel_code::{BuildOptions, Built, EdgeKind, Graph, NodeKind};
use serde::Serialize;
use std::io::IsTerminal;
use std::path::Path;

/// Repositories with fewer files than this finish before a bar would be worth drawing.
const PROGRESS_MIN_FILES: u64 = 200;

pub fn run(out: &Output, cmd: CodeCmd) -> anyhow::Result<()> {
    match cmd {
        CodeCmd::Init { dir } => init(out, &dir),
        CodeCmd::Impact { symbol, depth, dir } => {
            // The board of the repository the folder is in, found by the one rule the
            // `canvas` tool and the hooks use too.
            let dir = easel_code::repo_root(&dir);
            let built = build(&dir)?;
            let i = easel_code::impact(&built.graph, &symbol, depth)?;
            // With a board, the analysis is evidence too (as the `canvas` tool's impact).
            let board = if board::exists(&dir) {
                let opts = super::code_board::options();
                Some(board::record_impact(
                    &dir,
                    &built.graph,
                    i.clone(),
                    20,
                    &opts,
                )?)
            } else {
                None
            };
            #[derive(Serialize)]
            struct Recorded {
                #[serde(flatten)]
                impact: easel_code::Impact,
                #[serde(skip_serializing_if = "Option::is_none")]
                board: Option<board::Outcome>,
            }
            out.emit(&Recorded { impact: i, board }, |r| {
                print_impact(&r.impact);
                if let Some(o) = &r.board {
                    println!();
                    super::code_board::print(o);
                }
            })
        }
        CodeCmd::Symbols { query, limit, dir } => {
            let built = build(&dir)?;
            let found = easel_code::search_symbols(&built.graph, &query, limit);
            #[derive(Serialize)]
            struct Symbols {
                query: String,
                symbols: Vec<easel_code::SymbolMatch>,
            }
            let r = Symbols {
                query,
                symbols: found,
            };
            out.emit(&r, |r| {
                if r.symbols.is_empty() {
                    outln!("no symbol matches '{}'", r.query);
                }
                for m in &r.symbols {
                    outln!(
                        "{:<6} {}  {}:{}",
                        kind(m.node.kind),
                        m.node.qualname,
                        m.node.file,
                        m.node.start_line
                    );
                }
            })
        }
        CodeCmd::Graph { dir, callgraph } => {
            let built = build(&dir)?;
            if callgraph {
                // JSON either way: the format is the point.
                let cg = easel_code::call_graph(&built.graph);
                outln!("{}", serde_json::to_string_pretty(&cg)?);
                return Ok(());
            }
            out.emit(&built.graph, print_graph)
        }
        CodeCmd::Board(b) => super::code_board::run(out, b),
        CodeCmd::Hook { event } => super::hooks::hook(event),
        CodeCmd::Hooks(h) => super::hooks::run(out, h),
    }
}

/// Builds with the cache, showing a progress bar on a terminal for large repositories.
fn build(dir: &Path) -> anyhow::Result<Built> {
    let built = with_progress(|opts| easel_code::build(dir, opts))?;
    warn_skipped(&built);
    Ok(built)
}

/// Runs `f` with build options that use the cache and draw a progress bar on a terminal for
/// large repositories.
fn with_progress<T>(f: impl FnOnce(&BuildOptions) -> T) -> T {
    let bar = indicatif::ProgressBar::hidden();
    let show = std::io::stderr().is_terminal();
    let progress = |done: usize, total: usize| {
        if show && total as u64 >= PROGRESS_MIN_FILES {
            if bar.is_hidden() {
                bar.set_draw_target(indicatif::ProgressDrawTarget::stderr());
                bar.set_style(
                    indicatif::ProgressStyle::with_template("parsing {bar:30} {pos}/{len} files")
                        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
                );
                bar.set_length(total as u64);
            }
            bar.set_position(done as u64);
        }
    };
    let opts = BuildOptions {
        use_cache: true,
        progress: Some(&progress),
    };
    let out = f(&opts);
    bar.finish_and_clear();
    out
}

fn warn_skipped(built: &Built) {
    for p in &built.problems {
        tracing::warn!("skipped {p}");
    }
}

#[derive(Serialize)]
struct InitResult {
    root: String,
    graph: String,
    stats: easel_code::BuildStats,
    nodes: Counts,
    edges: EdgeCounts,
    unresolved: usize,
    /// Calls to the language's builtins and standard library, not counted as unresolved.
    builtin_calls: usize,
    problems: Vec<String>,
    /// Files not parsed on purpose, with why: over the size cap, binary, over their budget.
    skipped: Vec<easel_code::Skipped>,
    board: board::Outcome,
}

#[derive(Serialize, Default)]
struct Counts {
    modules: usize,
    classes: usize,
    functions: usize,
}

#[derive(Serialize, Default)]
struct EdgeCounts {
    contains: usize,
    import: usize,
    call: usize,
    inherits: usize,
}

fn init(out: &Output, dir: &Path) -> anyhow::Result<()> {
    let opts = super::code_board::options();
    let (built, recorded) = with_progress(|b| board::init_repo(dir, b, &opts))?;
    warn_skipped(&built);
    let path = easel_code::graph_path(dir);
    let g = &built.graph;
    let mut nodes = Counts::default();
    for n in &g.nodes {
        match n.kind {
            NodeKind::Module => nodes.modules += 1,
            NodeKind::Class => nodes.classes += 1,
            NodeKind::Func => nodes.functions += 1,
        }
    }
    let mut edges = EdgeCounts::default();
    for e in &g.edges {
        match e.kind {
            EdgeKind::Contains => edges.contains += 1,
            EdgeKind::Import => edges.import += 1,
            EdgeKind::Call => edges.call += 1,
            EdgeKind::Inherits => edges.inherits += 1,
        }
    }
    let r = InitResult {
        root: dir.display().to_string(),
        graph: path.display().to_string(),
        stats: built.stats.clone(),
        nodes,
        edges,
        unresolved: g.unresolved.len(),
        builtin_calls: g.builtin_calls.len(),
        problems: built.problems.clone(),
        skipped: built.skipped.clone(),
        board: recorded,
    };
    out.emit(&r, |r| {
        outln!(
            "parsed {} files ({} lines; {} from cache) in {} ms",
            r.stats.files,
            r.stats.lines,
            r.stats.cached,
            r.stats.millis
        );
        outln!(
            "{} modules, {} classes, {} functions",
            r.nodes.modules,
            r.nodes.classes,
            r.nodes.functions
        );
        outln!(
            "{} calls, {} imports, {} inherits; {} calls unresolved, {} to builtins",
            r.edges.call,
            r.edges.import,
            r.edges.inherits,
            r.unresolved,
            r.builtin_calls
        );
        for p in &r.problems {
            outln!("skipped {p}");
        }
        for s in &r.skipped {
            outln!("not parsed: {} ({})", s.path, s.reason.describe());
        }
        outln!("graph written to {}", r.graph);
        outln!();
        super::code_board::print(&r.board);
    })?;
    // The process ends right after this: handing hundreds of thousands of small allocations
    // back one by one would only delay the answer (several ms on a large repository).
    std::mem::forget(built);
    Ok(())
}

fn kind(k: NodeKind) -> &'static str {
    match k {
        NodeKind::Module => "module",
        NodeKind::Class => "class",
        NodeKind::Func => "func",
    }
}

fn print_impact(i: &easel_code::Impact) {
    let t = &i.target;
    outln!(
        "{} {} ({}:{}-{})",
        kind(t.kind),
        t.qualname,
        t.file,
        t.start_line,
        t.end_line
    );
    outln!(
        "{} callers, {} callees; blast radius {} nodes within {} hops",
        i.counts.callers,
        i.counts.callees,
        i.counts.blast_radius,
        i.depth
    );
    let list = |title: &str, ns: &[easel_code::Neighbor]| {
        if ns.is_empty() {
            return;
        }
        outln!("{title}:");
        for n in ns {
            outln!(
                "  {} ({}:{}) ×{}",
                n.qualname,
                n.file,
                n.start_line,
                n.calls
            );
        }
    };
    if !i.alternatives.is_empty() {
        outln!(
            "picked among {} symbols of that name (top-level before methods, then the most called); the others: {}",
            i.alternatives.len() + 1,
            i.alternatives.join(", ")
        );
    }
    list("callers", &i.callers);
    list("callees", &i.callees);
    if !i.blast_radius.is_empty() {
        outln!("blast radius:");
        for n in &i.blast_radius {
            outln!("  {} {} ({}:{})", n.depth, n.qualname, n.file, n.start_line);
        }
    }
    if i.counts.unresolved_calls > 0 {
        outln!(
            "{} calls made here could not be resolved",
            i.counts.unresolved_calls
        );
    }
}

fn print_graph(g: &Graph) {
    outln!("nodes ({}):", g.nodes.len());
    for n in &g.nodes {
        outln!(
            "  {}\t{}\t{}\t{}:{}-{}",
            n.id,
            kind(n.kind),
            n.qualname,
            n.file,
            n.start_line,
            n.end_line
        );
    }
    outln!("edges ({}):", g.edges.len());
    for e in &g.edges {
        let k = match e.kind {
            EdgeKind::Contains => "CONTAINS",
            EdgeKind::Import => "IMPORT",
            EdgeKind::Call => "CALL",
            EdgeKind::Inherits => "INHERITS",
        };
        outln!("  {}\t{}\t{}", e.from, k, e.to);
    }
    outln!("unresolved calls ({}):", g.unresolved.len());
    for u in &g.unresolved {
        outln!("  {}\t{}\tline {}", u.from, u.name, u.line);
    }
    outln!("builtin calls ({}):", g.builtin_calls.len());
    for u in &g.builtin_calls {
        outln!("  {}\t{}\tline {}", u.from, u.name, u.line);
    }
}
