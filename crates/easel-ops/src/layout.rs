//! `canvas_layout`: moves a canvas's nodes with one of `easel-layout`'s algorithms, under the
//! vault's rules (rev, lock, one ledger entry). Also the read-modify-write helper the other
//! whole-canvas operations of this area (`canvas_batch`) share.

use easel_canvas::Canvas;
use easel_layout::{Algo, Direction, LayoutError, Metrics, Options, Request, Scope};
use easel_vault::Expect;
use easel_vault::canvas::canvas_path;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::ctx::Ctx;
use crate::effect::Effect;
use crate::error::OpError;
use crate::op::Op;

impl From<LayoutError> for OpError {
    fn from(e: LayoutError) -> OpError {
        OpError::from_diagnose(&e)
    }
}

/// A canvas changed in memory by `f` and written back under the file's lock, with one ledger
/// entry; nothing is written when `f` fails. Returns the vault path, the new rev and `f`'s
/// result.
pub(crate) fn edit_canvas<T>(
    ctx: &Ctx,
    path: &str,
    rev: Option<&str>,
    op: &str,
    summary: impl FnOnce(&str) -> String,
    f: impl FnOnce(&mut Canvas) -> Result<T, OpError>,
) -> Result<(String, Option<String>, T), OpError> {
    let rev = crate::canvas::rev(rev)?;
    let p = canvas_path(ctx.vault(), path, true)?;
    if !ctx.vault().exists(&p) {
        return Err(OpError::not_found(
            format!("canvas not found: {}", p.as_str()),
            "run `canvas_list` to see the canvases",
        ));
    }
    let change = ctx.change(op, summary(p.as_str()));
    let expect = rev.map_or(Expect::Present, Expect::Rev);
    let (written, out) = ctx.vault().modify(&p, expect, &change, |bytes| {
        let bytes = bytes.ok_or_else(|| {
            OpError::not_found(
                format!("canvas not found: {}", p.as_str()),
                "run `canvas_list` to see the canvases",
            )
        })?;
        let text = std::str::from_utf8(bytes).map_err(|_| {
            OpError::invalid(
                format!("{} is not UTF-8 text, so it cannot be a canvas", p.as_str()),
                "point at a .canvas file saved as UTF-8 JSON",
            )
        })?;
        let mut canvas = Canvas::parse(text)
            .map_err(|e| OpError::invalid(format!("{}: {e}", p.as_str()), e.hint()))?;
        let out = f(&mut canvas)?;
        Ok::<_, OpError>((canvas.to_obsidian_string().into_bytes(), out))
    })?;
    Ok((
        p.as_str().to_owned(),
        written.rev_after.map(|r| r.to_string()),
        out,
    ))
}

/// A layout algorithm.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum AlgoArg {
    /// Graphs: ranks along the edges, few crossings, no edge through a node (the default).
    #[default]
    Layered,
    /// Trees and mind maps: a root and its descendants, siblings in edge order.
    Tree,
    /// A root in the middle and each generation on a ring around it.
    Radial,
    /// Rows in reading order, for nodes without edges.
    Grid,
}

impl From<AlgoArg> for Algo {
    fn from(a: AlgoArg) -> Algo {
        match a {
            AlgoArg::Layered => Algo::Layered,
            AlgoArg::Tree => Algo::Tree,
            AlgoArg::Radial => Algo::Radial,
            AlgoArg::Grid => Algo::Grid,
        }
    }
}

/// Which way edges run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum DirectionArg {
    /// Top to bottom (the default).
    #[default]
    Down,
    /// Left to right.
    Right,
}

impl From<DirectionArg> for Direction {
    fn from(d: DirectionArg) -> Direction {
        match d {
            DirectionArg::Down => Direction::Down,
            DirectionArg::Right => Direction::Right,
        }
    }
}

/// How to lay out, as `canvas_layout` and a `layout` step of `canvas_batch` take it.
#[derive(Clone, Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LayoutSpec {
    /// "layered" (default), "tree", "radial" or "grid".
    #[serde(default)]
    pub algo: Option<AlgoArg>,
    /// "down" (default) or "right".
    #[serde(default)]
    pub direction: Option<DirectionArg>,
    /// Lay out only these node ids (the others stay where they are).
    #[serde(default)]
    pub nodes: Option<Vec<String>>,
    /// Lay out only the members of this group (by id); the group grows to fit them.
    #[serde(default)]
    pub group: Option<String>,
    /// Node ids that must not move.
    #[serde(default)]
    pub pin: Option<Vec<String>>,
    /// Smallest gap between nodes in pixels (default 60).
    #[serde(default)]
    #[schemars(range(min = 0.0, max = 2000.0))]
    pub spacing: Option<f64>,
}

impl LayoutSpec {
    /// The request `easel-layout` takes.
    pub fn request(&self) -> Result<Request, OpError> {
        let scope = match (&self.nodes, &self.group) {
            (Some(_), Some(_)) => {
                return Err(OpError::invalid(
                    "give either 'nodes' or 'group', not both",
                    "lay out a selection with 'nodes', or a group's members with 'group'",
                ));
            }
            (Some(n), None) => Scope::Nodes(n.clone()),
            (None, Some(g)) => Scope::Group(g.clone()),
            (None, None) => Scope::All,
        };
        let spacing = self.spacing.unwrap_or(Options::default().spacing);
        if !(spacing.is_finite() && (0.0..=2000.0).contains(&spacing)) {
            return Err(OpError::invalid(
                format!("the spacing {spacing} is out of range"),
                "give a spacing between 0 and 2000 pixels (60 is the default)",
            ));
        }
        Ok(Request {
            options: Options {
                algo: self.algo.unwrap_or_default().into(),
                direction: self.direction.unwrap_or_default().into(),
                spacing,
            },
            scope,
            pins: self.pin.clone().unwrap_or_default(),
            groups: None,
            ranks: Vec::new(),
        })
    }
}

/// `canvas_layout`'s input.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LayoutInput {
    #[doc = "Canvas path relative to the vault, e.g. \"Projects/Plan.canvas\" ('.canvas' may be left out)."]
    pub path: String,
    /// "layered" (default), "tree", "radial" or "grid".
    #[serde(default)]
    pub algo: Option<AlgoArg>,
    /// "down" (default) or "right".
    #[serde(default)]
    pub direction: Option<DirectionArg>,
    /// Lay out only these node ids (the others stay where they are).
    #[serde(default)]
    pub nodes: Option<Vec<String>>,
    /// Lay out only the members of this group (by id); the group grows to fit them.
    #[serde(default)]
    pub group: Option<String>,
    /// Node ids that must not move.
    #[serde(default)]
    pub pin: Option<Vec<String>>,
    /// Smallest gap between nodes in pixels (default 60).
    #[serde(default)]
    #[schemars(range(min = 0.0, max = 2000.0))]
    pub spacing: Option<f64>,
    /// The 'rev' from your last read: the write fails with a conflict if the canvas changed
    /// since.
    #[serde(default)]
    pub rev: Option<String>,
}

/// `canvas_layout`'s output.
#[derive(Clone, Debug, Serialize)]
pub struct LayoutOutput {
    /// Vault-relative path.
    pub path: String,
    /// The new revision.
    pub rev: Option<String>,
    /// How many nodes moved (or, for groups, changed size).
    pub moved: usize,
    /// The quality of the result: crossings, edges through nodes, node overlaps, total edge
    /// length, area.
    pub metrics: Metrics,
    /// What the layout could not honour.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
}

/// Lay out a canvas.
#[derive(Clone, Copy, Debug, Default)]
pub struct CanvasLayout;

impl Op for CanvasLayout {
    type Input = LayoutInput;
    type Output = LayoutOutput;
    const NAME: &'static str = "canvas_layout";
    const TITLE: &'static str = "Lay out a canvas";
    const DESCRIPTION: &'static str = "Arrange the nodes of a canvas automatically so nothing overlaps and edges are easy to follow. \
Do not compute x/y yourself: add nodes and edges without positions (or with canvas_batch), then call this. \
algo: 'layered' for flowcharts and dependency graphs (default), 'tree' for mind maps and outlines, 'radial' for a centre idea with spokes, 'grid' for unconnected cards. \
Only x/y (and group sizes) and edge sides change; 'pin' keeps nodes in place, 'nodes' or 'group' lays out only part of the canvas.\n\
Example: {\"path\": \"Ideas.canvas\", \"algo\": \"tree\", \"direction\": \"right\"}";
    const EFFECT: Effect = Effect::Write;
    const IDEMPOTENT: bool = true;

    fn run(&self, ctx: &Ctx, input: LayoutInput) -> Result<LayoutOutput, OpError> {
        let spec = LayoutSpec {
            algo: input.algo,
            direction: input.direction,
            nodes: input.nodes,
            group: input.group,
            pin: input.pin,
            spacing: input.spacing,
        };
        let request = spec.request()?;
        let algo = request.options.algo.as_str();
        let (path, rev, outcome) = edit_canvas(
            ctx,
            &input.path,
            input.rev.as_deref(),
            Self::NAME,
            |p| format!("lay out {p} ({algo})"),
            |canvas| Ok(easel_layout::layout_canvas(canvas, &request)?),
        )?;
        Ok(LayoutOutput {
            path,
            rev,
            moved: outcome.moved.len(),
            metrics: outcome.metrics,
            warnings: outcome.warnings,
        })
    }
}
