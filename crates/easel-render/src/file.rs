//! Rendering a canvas of the vault: the operation behind `easel canvas render`.

use crate::canvas::render_canvas;
use crate::raster::RenderError;
use easel_vault::ErrorKind;
use easel_vault::Vault;
use easel_vault::canvas::{CanvasOpError, load_canvas};
use serde::Serialize;

/// The picture formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    Svg,
    Png,
}

impl Format {
    /// The format a file name asks for by its extension.
    pub fn from_file_name(name: &str) -> Option<Format> {
        let ext = name.rsplit_once('.')?.1.to_ascii_lowercase();
        match ext.as_str() {
            "svg" => Some(Format::Svg),
            "png" => Some(Format::Png),
            _ => None,
        }
    }
}

/// A rendered canvas.
#[derive(Clone, Debug, Serialize)]
pub struct Rendered {
    pub path: String,
    pub rev: String,
    pub format: Format,
    /// Size in pixels (for SVG, in CSS pixels at scale 1).
    pub width: u32,
    pub height: u32,
    #[serde(skip)]
    pub bytes: Vec<u8>,
}

#[derive(Debug, thiserror::Error)]
pub enum RenderFileError {
    #[error(transparent)]
    Canvas(#[from] CanvasOpError),
    #[error(transparent)]
    Render(#[from] RenderError),
}

impl RenderFileError {
    pub fn kind(&self) -> ErrorKind {
        match self {
            RenderFileError::Canvas(e) => e.kind(),
            RenderFileError::Render(RenderError::TooLarge { .. } | RenderError::Empty { .. }) => {
                ErrorKind::Invalid
            }
            RenderFileError::Render(_) => ErrorKind::Failure,
        }
    }

    pub fn hint(&self) -> String {
        match self {
            RenderFileError::Canvas(e) => e.hint(),
            RenderFileError::Render(RenderError::TooLarge { .. }) => {
                "render at a smaller scale (--scale 0.5) or as SVG, which has no size limit; if the board is not that large, a node may sit far away (`canvas_validate` warns about out-of-range positions)".into()
            }
            RenderFileError::Render(e) => e.hint(),
        }
    }
}

/// Draws the canvas at `path` as SVG or as PNG at `scale`.
pub fn render_canvas_file(
    vault: &Vault,
    path: &str,
    format: Format,
    scale: f32,
) -> Result<Rendered, RenderFileError> {
    let (p, canvas, rev) = load_canvas(vault, path)?;
    let scene = render_canvas(&canvas);
    let (bytes, factor) = match format {
        Format::Svg => (scene.to_svg().into_bytes(), 1.0),
        Format::Png => (scene.to_png(scale)?, scale),
    };
    Ok(Rendered {
        path: p.as_str().to_owned(),
        rev: rev.to_string(),
        format,
        width: (scene.width * factor).ceil() as u32,
        height: (scene.height * factor).ceil() as u32,
        bytes,
    })
}
