//! Pictures for people and for models that see: scenes of boxes, arrows and text, written as
//! SVG and rasterized to PNG with a font that ships inside the crate. Where the boxes go is
//! the caller's choice (the code views use easel-layout's `layered`).
//!
//! ```
//! use easel_render::{Scene, TextStyle};
//!
//! // Three boxes sized to their labels, one under the other, joined by arrows.
//! let labels = ["main", "load_config", "parse"];
//! let style = TextStyle::regular(13.0);
//! let mut scene = Scene::new(240.0, 200.0);
//! for (i, label) in labels.iter().enumerate() {
//!     let y = 16.0 + i as f32 * 64.0;
//!     scene.boxed(16.0, y, style.width(label) + 24.0, 32.0, "#eef3ff", "#3a5bc7");
//!     scene.text(28.0, y + 21.0, label, style, "#111111");
//!     if i > 0 {
//!         scene.arrow(vec![(40.0, y - 32.0), (40.0, y)], "#555555", false);
//!     }
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
pub mod ops;
mod raster;
mod scene;

pub use canvas::{canvas_color, render_canvas};
pub use file::{Format, RenderFileError, Rendered, render_canvas_file};
pub use font::{FAMILY, TextStyle};
pub use image::{Thumbnail, thumbnail};
pub use raster::{MAX_SIDE, RenderError, svg_to_png};
pub use scene::{Anchor, Color, Item, Scene};
