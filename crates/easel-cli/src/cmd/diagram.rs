//! `easel canvas layout|import|export|batch|new`: the diagram verbs, each a thin shell over one
//! operation (`canvas_layout`, `canvas_import`, `canvas_export`, `canvas_batch`, `canvas_new`).

use crate::cli::RevArg;
use crate::failure::UsageError;
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

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum ImportFormatCli {
    Mermaid,
    Dot,
    Outline,
}

/// `easel canvas import`.
#[derive(Debug, Args)]
pub struct ImportArgs {
    /// The diagram file (.mmd, .dot, .gv, .md), anywhere on disk, or '-' for standard input.
    pub file: String,
    /// The new canvas, relative to the vault (default: the file's name with '.canvas').
    #[arg(long, value_name = "PATH")]
    pub out: Option<String>,
    /// The format (default: from the file's extension, else guessed from the text).
    #[arg(long, value_enum)]
    pub format: Option<ImportFormatCli>,
    /// Layout (default: layered for graphs, tree for outlines).
    #[arg(long, value_enum)]
    pub algo: Option<AlgoCli>,
}

pub fn import(ctx: &Ctx, out: &Output, a: ImportArgs) -> anyhow::Result<()> {
    use easel_ops::import::{CanvasImport, FormatArg, ImportInput};
    let text = if a.file == "-" {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut s).map_err(|e| {
            UsageError::invalid(
                format!("could not read standard input: {e}"),
                "pipe UTF-8 text into the command",
            )
        })?;
        s
    } else {
        std::fs::read_to_string(&a.file).map_err(|e| {
            UsageError::invalid(
                format!("could not read {}: {e}", a.file),
                "give the path of a Mermaid (.mmd), DOT (.dot, .gv) or Markdown (.md) file, or '-' for standard input",
            )
        })?
    };
    let format = a
        .format
        .map(|f| match f {
            ImportFormatCli::Mermaid => FormatArg::Mermaid,
            ImportFormatCli::Dot => FormatArg::Dot,
            ImportFormatCli::Outline => FormatArg::Outline,
        })
        .or_else(|| {
            easel_convert::Format::from_file_name(&a.file).map(|f| match f {
                easel_convert::Format::Mermaid => FormatArg::Mermaid,
                easel_convert::Format::Dot => FormatArg::Dot,
                easel_convert::Format::Outline => FormatArg::Outline,
            })
        });
    let path = match a.out {
        Some(p) => p,
        None => {
            let stem = std::path::Path::new(&a.file)
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned());
            match stem.filter(|s| a.file != "-" && !s.is_empty()) {
                Some(s) => s,
                None => {
                    return Err(UsageError::invalid(
                        "the new canvas needs a name",
                        "add --out PATH, e.g. --out Diagrams/Flow.canvas",
                    )
                    .into());
                }
            }
        }
    };
    let input = ImportInput {
        path: Some(path),
        text: Some(text),
        file: None,
        format,
        algo: a.algo.map(AlgoCli::arg),
    };
    let r = CanvasImport.run(ctx, input)?;
    out.emit(&r, |r| {
        outln!(
            "imported {} as {} ({} nodes, {} edges), rev {}",
            r.format,
            r.path,
            r.node_count,
            r.edge_count,
            r.rev.as_deref().unwrap_or("-")
        );
        for w in &r.warnings {
            eprintln!("warning: {w}");
        }
    })
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum ExportFormatCli {
    Mermaid,
    Dot,
    Outline,
    Svg,
    Png,
}

/// `easel canvas export`.
#[derive(Debug, Args)]
pub struct ExportArgs {
    /// Canvas path, relative to the vault ('.canvas' may be left out).
    pub path: String,
    /// What to write.
    #[arg(long, value_enum)]
    pub to: ExportFormatCli,
    /// Write to this file (anywhere on disk); without it the text goes to standard output.
    #[arg(long, value_name = "FILE")]
    pub out: Option<std::path::PathBuf>,
}

pub fn export(ctx: &Ctx, out: &Output, a: ExportArgs) -> anyhow::Result<()> {
    use easel_render::export::{ExportFormat, ExportOutput, export_canvas};
    let to = match a.to {
        ExportFormatCli::Mermaid => ExportFormat::Mermaid,
        ExportFormatCli::Dot => ExportFormat::Dot,
        ExportFormatCli::Outline => ExportFormat::Outline,
        ExportFormatCli::Svg => ExportFormat::Svg,
        ExportFormatCli::Png => ExportFormat::Png,
    };
    if to == ExportFormat::Png && a.out.is_none() {
        return Err(UsageError::invalid(
            "a PNG needs a file to go to",
            "add --out picture.png, or export --to svg",
        )
        .into());
    }
    // The shell writes the result wherever the user asks (it is output, not vault content);
    // the JSON is `canvas_export`'s.
    let e = export_canvas(ctx, &a.path, to)?;
    let bytes = e.bytes.len();
    let Some(file) = a.out else {
        let text = String::from_utf8_lossy(&e.bytes).into_owned();
        if out.is_json() {
            let shown = ExportOutput {
                path: e.path,
                rev: e.rev,
                to: to.as_str(),
                out: None,
                bytes,
                text: Some(text),
                warnings: e.warnings,
            };
            return out.emit(&shown, |_| {});
        }
        for w in &e.warnings {
            eprintln!("warning: {w}");
        }
        outln!("{}", text.trim_end());
        return Ok(());
    };
    crate::output::write_file_atomically(&file, &e.bytes)?;
    let shown = ExportOutput {
        path: e.path,
        rev: e.rev,
        to: to.as_str(),
        out: Some(file.display().to_string()),
        bytes,
        text: None,
        warnings: e.warnings,
    };
    out.emit(&shown, |s| {
        outln!(
            "exported {} as {} ({} bytes) to {}",
            s.path,
            s.to,
            s.bytes,
            file.display()
        );
        for w in &s.warnings {
            eprintln!("warning: {w}");
        }
    })
}

/// `easel canvas batch`.
#[derive(Debug, Args)]
pub struct BatchArgs {
    /// Canvas path, relative to the vault ('.canvas' may be left out).
    pub path: String,
    /// A JSON file holding the list of operations (or {"ops": [...]}), or '-' for standard input.
    #[arg(long, value_name = "FILE")]
    pub ops: String,
    #[command(flatten)]
    pub rev: RevArg,
}

pub fn batch(ctx: &Ctx, out: &Output, a: BatchArgs) -> anyhow::Result<()> {
    use easel_ops::batch::{BatchInput, CanvasBatch};
    let data = serde_json::Value::from(&crate::input::read_data(&a.ops)?);
    let list = match data {
        serde_json::Value::Array(items) => items,
        serde_json::Value::Object(mut m) if m.contains_key("ops") => match m.remove("ops") {
            Some(serde_json::Value::Array(items)) => items,
            _ => Vec::new(),
        },
        _ => {
            return Err(UsageError::invalid(
                "the operations must be a JSON list",
                "write [{\"op\": \"add_node\", \"ref\": \"a\", \"type\": \"text\", \"text\": \"Hi\"}, ...]",
            )
            .into());
        }
    };
    let mut ops = Vec::with_capacity(list.len());
    for (i, item) in list.into_iter().enumerate() {
        match item {
            serde_json::Value::Object(m) => ops.push(m),
            _ => {
                return Err(UsageError::invalid(
                    format!("operation {} is not a JSON object", i + 1),
                    "write each operation as {\"op\": \"add_node\", ...}",
                )
                .into());
            }
        }
    }
    let r = CanvasBatch.run(
        ctx,
        BatchInput {
            path: a.path,
            ops,
            rev: a.rev.rev,
        },
    )?;
    out.emit(&r, |r| {
        outln!(
            "applied {} change{} to {} ({} nodes, {} edges), rev {}",
            r.applied,
            if r.applied == 1 { "" } else { "s" },
            r.path,
            r.node_count,
            r.edge_count,
            r.rev.as_deref().unwrap_or("-")
        );
        for (name, id) in &r.refs {
            outln!("  @{name} = {id}");
        }
        for w in &r.warnings {
            eprintln!("warning: {w}");
        }
    })
}

/// `easel canvas new`.
#[derive(Debug, Args)]
pub struct NewArgs {
    /// The new canvas, relative to the vault.
    pub path: String,
    /// mindmap, flowchart, kanban, timeline, swot, conversation, or a name from .easel/templates/.
    #[arg(long)]
    pub template: String,
    /// A placeholder's value, KEY=VALUE (repeatable).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,
}

pub fn new(ctx: &Ctx, out: &Output, a: NewArgs) -> anyhow::Result<()> {
    use easel_ops::template::{CanvasNew, NewInput};
    let mut set = std::collections::BTreeMap::new();
    for pair in &a.set {
        let Some((k, v)) = pair.split_once('=') else {
            return Err(UsageError::invalid(
                format!("--set {pair} is not KEY=VALUE"),
                "write --set topic=\"Summer trip\"",
            )
            .into());
        };
        set.insert(k.trim().to_owned(), v.to_owned());
    }
    let input = NewInput {
        path: a.path,
        template: a.template,
        set: (!set.is_empty()).then_some(set),
    };
    let r = CanvasNew.run(ctx, input)?;
    out.emit(&r, |r| {
        outln!(
            "created {} from {} ({} nodes, {} edges), rev {}",
            r.path,
            r.template,
            r.node_count,
            r.edge_count,
            r.rev.as_deref().unwrap_or("-")
        );
        for w in &r.warnings {
            eprintln!("warning: {w}");
        }
    })
}
