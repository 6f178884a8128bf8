//! Pictures for people and for models that see: scenes of boxes, arrows and text, laid out in
//! layers, written as SVG and rasterized to PNG with a font that ships inside the crate.
//!
//! ```
//! use easel_render::{LayoutOptions, Scene, Size, TextStyle, layered};
//!
//! // Three boxes sized to their labels, two edges, laid out top-down.
//! let labels = ["main", "load_config", "parse"];
//! let style = TextStyle::regular(13.0);
//! let sizes: Vec<Size> = labels
//!     .iter()
//!     .map(|l| Size { width: style.width(l) + 24.0, height: 32.0 })
//!     .collect();
//! let layout = layered(&sizes, &[(0, 1), (1, 2)], &LayoutOptions::default());
//!
//! let mut scene = Scene::new(layout.width, layout.height);
//! for (p, label) in layout.nodes.iter().zip(labels) {
//!     scene.boxed(p.x, p.y, p.width, p.height, "#eef3ff", "#3a5bc7");
//!     scene.text(p.x + 12.0, p.y + 21.0, label, style, "#111111");
//! }
//! for route in layout.routes {
//!     scene.arrow(route, "#555555", false);
//! }
//! assert!(scene.to_svg().contains(">load_config</text>"));
//! let png = scene.to_png(1.0)?;
//! assert_eq!(&png[1..4], b"PNG");
//! # Ok::<(), easel_render::RenderError>(())
//! ```

mod canvas;
pub mod export;
mod file;
mod font;
mod image;
mod layout;
pub mod ops;
mod raster;
mod scene;

pub use canvas::{canvas_color, render_canvas};
pub use file::{Format, RenderFileError, Rendered, render_canvas_file};
pub use font::{FAMILY, TextStyle};
pub use image::{Thumbnail, thumbnail};
pub use layout::{
    Layout, LayoutOptions, Placed, Size, assign_layers, layered, layered_with_layers,
};
pub use raster::{MAX_SIDE, RenderError, svg_to_png};
pub use scene::{Anchor, Color, Item, Scene};
