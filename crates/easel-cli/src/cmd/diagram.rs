//! `easel canvas layout|import|export|batch|new`: the diagram verbs, each a thin shell over one
//! operation (`canvas_layout`, `canvas_import`, `canvas_export`, `canvas_batch`, `canvas_new`).

use crate::cli::RevArg;
use crate::output::Output;
use clap::{Args, ValueEnum};
use easel_ops::layout::{AlgoArg, CanvasLayout, DirectionArg, LayoutInput};
use easel_ops::{Ctx, Op};

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum AlgoCli {
    Layered,
    Tree,
    Radial,
    Grid,
}

impl AlgoCli {
    pub fn arg(self) -> AlgoArg {
        match self {
            AlgoCli::Layered => AlgoArg::Layered,
            AlgoCli::Tree => AlgoArg::Tree,
            AlgoCli::Radial => AlgoArg::Radial,
            AlgoCli::Grid => AlgoArg::Grid,
        }
    }
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum DirectionCli {
    Down,
    Right,
}

impl DirectionCli {
    pub fn arg(self) -> DirectionArg {
        match self {
            DirectionCli::Down => DirectionArg::Down,
            DirectionCli::Right => DirectionArg::Right,
        }
    }
}

/// `easel canvas layout`.
#[derive(Debug, Args)]
pub struct LayoutArgs {
    /// Canvas path, relative to the vault ('.canvas' may be left out).
    pub path: String,
    /// layered (graphs, the default), tree (mind maps, outlines), radial or grid.
    #[arg(long, value_enum)]
    pub algo: Option<AlgoCli>,
    /// Which way edges run.
    #[arg(long, value_enum)]
    pub direction: Option<DirectionCli>,
    /// Lay out only these nodes (comma-separated ids).
    #[arg(
        long,
        value_delimiter = ',',
        value_name = "ID,...",
        conflicts_with = "group"
    )]
    pub nodes: Option<Vec<String>>,
    /// Lay out only the members of this group; the group grows to fit them.
    #[arg(long, value_name = "G")]
    pub group: Option<String>,
    /// Nodes that keep their place (comma-separated ids).
    #[arg(long, value_delimiter = ',', value_name = "ID,...")]
    pub pin: Vec<String>,
    /// Smallest gap between nodes, in pixels (default 60).
    #[arg(long, value_name = "PX")]
    pub spacing: Option<f64>,
    #[command(flatten)]
    pub rev: RevArg,
}

pub fn layout(ctx: &Ctx, out: &Output, a: LayoutArgs) -> anyhow::Result<()> {
    let input = LayoutInput {
        path: a.path,
        algo: a.algo.map(AlgoCli::arg),
        direction: a.direction.map(DirectionCli::arg),
        nodes: a.nodes,
        group: a.group,
        pin: (!a.pin.is_empty()).then_some(a.pin),
        spacing: a.spacing,
        rev: a.rev.rev,
    };
    let r = CanvasLayout.run(ctx, input)?;
    out.emit(&r, |r| {
        let m = &r.metrics;
        outln!(
            "laid out {}: {} node{} moved, rev {}",
            r.path,
            r.moved,
            if r.moved == 1 { "" } else { "s" },
            r.rev.as_deref().unwrap_or("-")
        );
        outln!(
            "  {} crossings, {} edges through nodes, {} overlaps, edge length {:.0}, area {:.0}",
            m.crossings,
            m.edge_node_overlaps,
            m.node_overlaps,
            m.edge_length,
            m.area
        );
        for w in &r.warnings {
            eprintln!("warning: {w}");
        }
    })
}
