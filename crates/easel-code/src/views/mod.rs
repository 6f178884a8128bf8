//! The three pictures of a code canvas: the architecture of a repository, the impact of
//! changing one symbol, and the evidence board of a task. Each is drawn once as a
//! [`Drawing`](drawing::Drawing) and given three ways: SVG, PNG (rasterized with the bundled
//! font) and a JSON Canvas file whose nodes open the source files in Obsidian.
//!
//! Large repositories stay readable because every view caps what it shows and says what it
//! left out ("+12 more"), rather than shrinking text until nothing can be read.

mod architecture;
mod board;
mod canvas_file;
mod drawing;
mod impact;
mod layout;
#[cfg(test)]
mod props;
mod style;

pub(crate) use architecture::architecture_sketch;
pub use architecture::architecture_view;
pub use board::{BoardCard, BoardView, EvidenceCard, board_view};
pub use impact::impact_view;

use crate::error::CodeError;
use drawing::Drawing;
use easel_render::MAX_SIDE;
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

/// The folder, under the repository root, that views are written to.
pub const VIEWS_DIR: &str = ".codecanvas";

/// The longest side of a view's PNG, in pixels. Bigger pictures cost models more to look at
/// and are shrunk by them anyway; the views cap their content so that text stays readable at
/// this size.
pub const PNG_MAX_SIDE: f32 = 4096.0;

/// How many PNG pixels a scene pixel becomes, unless that would exceed [`PNG_MAX_SIDE`].
pub const PNG_SCALE: f32 = 1.5;

/// One rendered view.
#[derive(Clone, Debug)]
pub struct View {
    /// `architecture`, `impact_<slug>` (see [`symbol_slug`]) or `board`; also the file name
    /// without extension.
    pub name: String,
    pub svg: String,
    pub png: Vec<u8>,
    /// JSON Canvas 1.0 text with the same boxes.
    pub canvas: String,
    /// One line saying what the picture shows and what it left out, for evidence summaries.
    pub summary: String,
}

impl View {
    /// Where [`write_view`] puts the PNG, relative to the repository root: the path an
    /// [`EvidenceCard::png_path`] wants.
    pub fn png_path(&self) -> String {
        format!("{VIEWS_DIR}/{}.png", self.name)
    }
}

/// Where [`write_view`] put a view.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ViewFiles {
    pub png: PathBuf,
    pub svg: PathBuf,
    pub canvas: PathBuf,
}

/// A file-name-safe, stable form of a symbol: its letters, digits, `_` and `-` (anything
/// else becomes `_`, at most 48 characters), then `-` and 8 hex digits of a hash of the whole
/// symbol, so symbols that differ only in punctuation or length still get different names.
pub fn symbol_slug(symbol: &str) -> String {
    let mut readable = String::new();
    for c in symbol.chars() {
        let c = if c.is_ascii_alphanumeric() || c == '-' {
            c
        } else {
            '_'
        };
        if c == '_' && readable.ends_with('_') {
            continue;
        }
        readable.push(c);
        if readable.len() >= 48 {
            break;
        }
    }
    let readable = readable.trim_matches('_');
    let digest = Sha256::digest(symbol.as_bytes());
    let hash: String = digest[..4].iter().map(|b| format!("{b:02x}")).collect();
    if readable.is_empty() {
        hash
    } else {
        format!("{readable}-{hash}")
    }
}

/// Writes `<repo_root>/.codecanvas/<name>.png`, `.svg` and `.canvas`, each atomically (a
/// reader sees the old file or the new one, never half of one).
pub fn write_view(repo_root: &Path, view: &View) -> Result<ViewFiles, CodeError> {
    let name = view.name.as_str();
    let bad = name.is_empty()
        || name.len() > 200
        || name.starts_with('.')
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'));
    if bad {
        return Err(CodeError::ViewName {
            name: name.to_owned(),
        });
    }
    let dir = repo_root.join(VIEWS_DIR);
    let files = ViewFiles {
        png: dir.join(format!("{name}.png")),
        svg: dir.join(format!("{name}.svg")),
        canvas: dir.join(format!("{name}.canvas")),
    };
    for (path, bytes) in [
        (&files.png, view.png.as_slice()),
        (&files.svg, view.svg.as_bytes()),
        (&files.canvas, view.canvas.as_bytes()),
    ] {
        easel_vault::write_atomic(path, bytes).map_err(|source| CodeError::Write {
            path: path.clone(),
            source,
        })?;
    }
    Ok(files)
}

/// The scale a scene is rasterized at: [`PNG_SCALE`], less for scenes that would otherwise
/// be larger than [`PNG_MAX_SIDE`] (or easel-render's hard limit).
pub fn png_scale(width: f32, height: f32) -> f32 {
    let longest = width.max(height).max(1.0);
    PNG_SCALE
        .min(PNG_MAX_SIDE / longest)
        .min(MAX_SIDE as f32 / longest)
}

/// A view laid out and written as SVG and `.canvas`, not yet rasterized. Rasterizing is most
/// of the cost of a view; the sketch is enough to tell whether the picture already on disk is
/// this one ([`Sketch::digest`]), so that an unchanged view need not be drawn again.
pub(crate) struct Sketch {
    name: String,
    scene: easel_render::Scene,
    svg: String,
    canvas: String,
    summary: String,
}

impl Sketch {
    /// A hex SHA-256 of everything the view's files are made from: the SVG (every shape and
    /// text of the PNG, which has no embedded images here), the `.canvas` text, and the
    /// version of this crate (which rasterizes them).
    pub(crate) fn digest(&self) -> String {
        let mut h = Sha256::new();
        for part in [
            env!("CARGO_PKG_VERSION").as_bytes(),
            self.name.as_bytes(),
            self.svg.as_bytes(),
            self.canvas.as_bytes(),
        ] {
            h.update((part.len() as u64).to_le_bytes());
            h.update(part);
        }
        h.finalize().iter().map(|b| format!("{b:02x}")).collect()
    }

    /// Rasterizes the sketch: the finished view.
    pub(crate) fn render(self) -> Result<View, CodeError> {
        let png = self
            .scene
            .to_png(png_scale(self.scene.width, self.scene.height))
            .map_err(|source| CodeError::Render {
                view: self.name.clone(),
                source,
            })?;
        Ok(View {
            name: self.name,
            svg: self.svg,
            png,
            canvas: self.canvas,
            summary: self.summary,
        })
    }
}

/// The sketch of a finished drawing.
fn sketch(name: String, drawing: &Drawing, canvas: String, summary: String) -> Sketch {
    // The property tests keep these away; a debug build says so if one slips through.
    if cfg!(debug_assertions) {
        for problem in drawing.problems() {
            tracing::warn!(view = %name, %problem, "the view's layout has a defect");
        }
    }
    let scene = drawing.to_scene();
    let svg = scene.to_svg();
    Sketch {
        name,
        scene,
        svg,
        canvas,
        summary,
    }
}

/// SVG and PNG of a finished drawing, and the view around them.
fn finish(
    name: String,
    drawing: &Drawing,
    canvas: String,
    summary: String,
) -> Result<View, CodeError> {
    sketch(name, drawing, canvas, summary).render()
}

/// `n` and the noun, in the singular when `n` is 1.
fn count(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs_are_safe_stable_and_distinct() {
        let a = symbol_slug("pkg/mod.py:Class.method");
        assert!(a.starts_with("pkg_mod_py_Class_method-"), "{a}");
        assert_eq!(a, symbol_slug("pkg/mod.py:Class.method"));
        assert_ne!(symbol_slug("a.b"), symbol_slug("a_b"));
        assert_ne!(symbol_slug("a::b"), symbol_slug("a:b"));
        let long = "x".repeat(500);
        assert!(symbol_slug(&long).len() <= 48 + 9);
        let odd = symbol_slug("../../étc/..");
        assert!(
            odd.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-'),
            "{odd}"
        );
        assert_eq!(symbol_slug("").len(), 8);
    }

    #[test]
    fn big_scenes_are_rasterized_smaller() {
        assert_eq!(png_scale(800.0, 600.0), PNG_SCALE);
        assert!((png_scale(8192.0, 100.0) * 8192.0 - PNG_MAX_SIDE).abs() < 1.0);
    }
}
