//! The flat problem every algorithm solves: boxes of given sizes and edges between them, placed
//! without overlap. Positions come back as top-left corners relative to an origin of the
//! algorithm's choosing; the caller anchors them.

use serde::{Deserialize, Serialize};

/// Which algorithm places the boxes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Algo {
    /// Ranks along the edges, fewest crossings, no edge through a node (graphs).
    #[default]
    Layered,
    /// A root and its descendants, siblings in edge order (mind maps, outlines).
    Tree,
    /// A root in the middle and each generation on a ring.
    Radial,
    /// Rows in reading order.
    Grid,
}

impl Algo {
    /// The name users type.
    pub fn as_str(self) -> &'static str {
        match self {
            Algo::Layered => "layered",
            Algo::Tree => "tree",
            Algo::Radial => "radial",
            Algo::Grid => "grid",
        }
    }
}

impl std::str::FromStr for Algo {
    type Err = String;
    fn from_str(s: &str) -> Result<Algo, String> {
        match s {
            "layered" => Ok(Algo::Layered),
            "tree" => Ok(Algo::Tree),
            "radial" => Ok(Algo::Radial),
            "grid" => Ok(Algo::Grid),
            other => Err(format!(
                "'{other}' is not a layout (layered|tree|radial|grid)"
            )),
        }
    }
}

/// Which way edges (and rows of a tree) run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Direction {
    /// Top to bottom.
    #[default]
    Down,
    /// Left to right.
    Right,
}

impl std::str::FromStr for Direction {
    type Err = String;
    fn from_str(s: &str) -> Result<Direction, String> {
        match s {
            "down" | "TB" | "TD" => Ok(Direction::Down),
            "right" | "LR" => Ok(Direction::Right),
            other => Err(format!("'{other}' is not a direction (down|right)")),
        }
    }
}

/// How to lay out.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Options {
    pub algo: Algo,
    pub direction: Direction,
    /// The smallest gap between two boxes, in canvas pixels.
    pub spacing: f64,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            algo: Algo::Layered,
            direction: Direction::Down,
            spacing: 60.0,
        }
    }
}

/// Boxes (width, height) and directed edges between their indices.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Graph {
    pub sizes: Vec<(f64, f64)>,
    pub edges: Vec<(usize, usize)>,
}

/// A rank constraint, as DOT's `rank` subgraph attribute gives it: `Same` puts its boxes on
/// one rank; `Min`/`Max` on the first/last rank; `Source`/`Sink` there and alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RankKind {
    Same,
    Min,
    Max,
    Source,
    Sink,
}

impl RankKind {
    /// DOT's name for it.
    pub fn as_str(self) -> &'static str {
        match self {
            RankKind::Same => "same",
            RankKind::Min => "min",
            RankKind::Max => "max",
            RankKind::Source => "source",
            RankKind::Sink => "sink",
        }
    }
}

impl std::str::FromStr for RankKind {
    type Err = String;
    fn from_str(s: &str) -> Result<RankKind, String> {
        match s {
            "same" => Ok(RankKind::Same),
            "min" => Ok(RankKind::Min),
            "max" => Ok(RankKind::Max),
            "source" => Ok(RankKind::Source),
            "sink" => Ok(RankKind::Sink),
            other => Err(format!(
                "'{other}' is not a rank constraint (same|min|max|source|sink)"
            )),
        }
    }
}

/// Boxes that `layered` keeps on one rank (`T` is an index into a [`Graph`] or a node id).
/// Other algorithms ignore it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RankSet<T> {
    pub kind: RankKind,
    pub members: Vec<T>,
}

/// An edge a tree-shaped layout could not follow.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ignored {
    pub from: usize,
    pub to: usize,
    /// True when the edge closes a cycle; false when its target already had a parent.
    pub cycle: bool,
}

/// Where the boxes go: top-left corners, index for index.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Placement {
    pub positions: Vec<(f64, f64)>,
    /// Edges `tree` and `radial` left out of the tree they drew.
    pub ignored: Vec<Ignored>,
}

/// Sizes along the layout's own axes: `main` follows the edges, `cross` runs across them.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Axes {
    pub(crate) right: bool,
}

impl Axes {
    pub(crate) fn new(direction: Direction) -> Axes {
        Axes {
            right: direction == Direction::Right,
        }
    }

    /// (main, cross) length of a box.
    pub(crate) fn lens(self, (w, h): (f64, f64)) -> (f64, f64) {
        if self.right { (w, h) } else { (h, w) }
    }

    /// (x, y) of a point given along (main, cross).
    pub(crate) fn xy(self, main: f64, cross: f64) -> (f64, f64) {
        if self.right {
            (main, cross)
        } else {
            (cross, main)
        }
    }
}

/// Places the boxes of `graph` with `options.algo`. Edges whose ends are out of range and
/// self-loops are ignored: they do not shape a layout.
pub fn place(graph: &Graph, options: &Options) -> Placement {
    place_ranked(graph, options, &[])
}

/// [`place`] with rank constraints for `layered` (members out of range are ignored).
pub fn place_ranked(graph: &Graph, options: &Options, sets: &[RankSet<usize>]) -> Placement {
    let n = graph.sizes.len();
    let spacing = if options.spacing.is_finite() {
        options.spacing.max(0.0)
    } else {
        Options::default().spacing
    };
    let sizes: Vec<(f64, f64)> = graph
        .sizes
        .iter()
        .map(|&(w, h)| (finite_size(w), finite_size(h)))
        .collect();
    let mut seen = std::collections::HashSet::new();
    let edges: Vec<(usize, usize)> = graph
        .edges
        .iter()
        .copied()
        .filter(|&(a, b)| a < n && b < n && a != b && seen.insert((a, b)))
        .collect();
    let g = Graph { sizes, edges };
    let axes = Axes::new(options.direction);
    match options.algo {
        Algo::Layered => Placement {
            positions: crate::layered::place(&g, axes, spacing, sets),
            ignored: Vec::new(),
        },
        Algo::Tree => crate::tree::place(&g, axes, spacing),
        Algo::Radial => crate::radial::place(&g, spacing),
        Algo::Grid => Placement {
            positions: crate::grid::place(&g.sizes, axes, spacing),
            ignored: Vec::new(),
        },
    }
}

pub(crate) fn finite_size(v: f64) -> f64 {
    if v.is_finite() { v.max(0.0) } else { 0.0 }
}
