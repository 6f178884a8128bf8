//! JSON Canvas 1.0, losslessly: parse, validate, edit and write `.canvas` files exactly as
//! Obsidian lays them out. This crate does no IO; it takes text and gives text.
//!
//! ```
//! use easel_canvas::{Canvas, IdGen, json};
//!
//! let text = "{\n\t\"nodes\":[\n\t\t{\"id\":\"a\",\"type\":\"text\",\"text\":\"Hello\",\"x\":0,\"y\":0,\"width\":250,\"height\":60}\n\t],\n\t\"edges\":[]\n}";
//! let mut canvas = Canvas::parse(text)?;
//! assert_eq!(canvas.to_obsidian_string(), text); // byte for byte
//!
//! // Add a node below "a" and connect them; ids, size and edge sides are filled in.
//! let mut ids = IdGen::new();
//! let node = json::parse(r#"{"type":"text","text":"World","x":0,"y":200}"#)?;
//! let b = canvas.add_node(easel_canvas::expect_object(node, "node")?, &mut ids)?.id().to_owned();
//! let edge = json::parse(&format!(r#"{{"fromNode":"a","toNode":"{b}"}}"#))?;
//! let e = canvas.add_edge(easel_canvas::expect_object(edge, "edge")?, &mut ids)?;
//! assert_eq!(e.from_side().map(|s| s.as_str()), Some("bottom"));
//!
//! assert!(easel_canvas::validate(&canvas).is_valid());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod error;
pub mod geometry;
mod ids;
pub mod json;
mod model;
mod object;
mod ops;
mod query;
#[doc(hidden)]
pub mod synth;
mod validate;

pub use error::CanvasError;
pub use geometry::Rect;
pub use ids::{IdGen, is_easel_id};
pub use model::{Canvas, Edge, End, Node, NodeKind, Side};
pub use ops::{EDGE_KEY_ORDER, NODE_KEY_ORDER, default_size, expect_object, expect_objects};
pub use query::NodeQuery;
pub use validate::{Finding, Report, Severity, Verdict, check_edge, check_node, validate};
