//! Layout for JSON Canvas: four algorithms over boxes and edges (`layered`, `tree`, `radial`,
//! `grid`), the metrics that judge a drawing, and [`layout_canvas`], which applies them to a
//! canvas with its groups, pins and selections. Pure: no IO.
//!
//! ```
//! use easel_canvas::Canvas;
//! use easel_layout::{Algo, Options, Request, Scope, layout_canvas};
//!
//! let mut canvas = Canvas::parse(r#"{"nodes":[
//!   {"id":"a","type":"text","text":"Idea","x":0,"y":0,"width":200,"height":60},
//!   {"id":"b","type":"text","text":"Why","x":0,"y":0,"width":200,"height":60},
//!   {"id":"c","type":"text","text":"How","x":0,"y":0,"width":200,"height":60}],
//!  "edges":[{"id":"e1","fromNode":"a","toNode":"b"},{"id":"e2","fromNode":"a","toNode":"c"}]}"#)?;
//! let request = Request {
//!     options: Options { algo: Algo::Tree, ..Options::default() },
//!     scope: Scope::All,
//!     pins: vec!["a".into()],
//!     groups: None,
//!     ranks: Vec::new(),
//! };
//! let outcome = layout_canvas(&mut canvas, &request)?;
//! assert_eq!(outcome.metrics.node_overlaps, 0);
//! assert_eq!(canvas.node("a").and_then(|n| n.rect()).map(|r| (r.x, r.y)), Some((0.0, 0.0)));
//! assert_eq!(canvas.edge("e1").and_then(|e| e.from_side()).map(|s| s.as_str()), Some("bottom"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod canvas;
mod error;
mod flat;
mod grid;
mod judge;
mod layered;
pub mod metrics;
mod push;
mod radial;
mod rank;
mod separate;
mod tree;

pub use canvas::{Outcome, Request, Scope, canvas_metrics, layout_canvas, sides_for};
pub use error::LayoutError;
pub use flat::{
    Algo, Direction, Graph, Ignored, Options, Placement, RankKind, RankSet, place, place_ranked,
};
pub use layered::{Layered, LayeredOptions, layered};
pub use metrics::{Metrics, measure};
pub use separate::separate;
