//! Diagrams in and out of JSON Canvas: Mermaid flowcharts, Graphviz DOT and Markdown outlines
//! become laid-out canvases, and canvases become Mermaid, DOT or outlines again. Whatever a
//! format holds that a canvas cannot (or the other way round) comes back as a warning, never
//! dropped silently. Pure: no IO.
//!
//! ```
//! use easel_convert::{Format, export, import};
//!
//! let text = "flowchart LR\n  A[Idea] -->|because| B(Reason)\n  subgraph S [Why]\n    B\n  end";
//! let imported = import(text, Format::Mermaid, None)?;
//! assert_eq!(imported.canvas.nodes().len(), 3); // two nodes and the group
//! assert!(imported.warnings.iter().any(|w| w.contains("rounded rectangle")));
//!
//! let back = export(&imported.canvas, Format::Mermaid);
//! assert!(back.text.contains("|\"because\"|"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod canvas;
pub mod color;
pub mod dot;
mod error;
pub mod mermaid;
mod model;
pub mod outline;

pub use canvas::{Build, from_canvas, text_size, to_canvas};
pub use error::ConvertError;
pub use model::{DEdge, DGroup, DNode, Diagram, EndRef, Warnings};

use easel_canvas::Canvas;
use easel_layout::Algo;

/// The text formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Mermaid,
    Dot,
    Outline,
}

impl Format {
    pub fn as_str(self) -> &'static str {
        match self {
            Format::Mermaid => "mermaid",
            Format::Dot => "dot",
            Format::Outline => "outline",
        }
    }

    /// The format a file name asks for by its extension.
    pub fn from_file_name(name: &str) -> Option<Format> {
        let ext = name.rsplit_once('.')?.1.to_ascii_lowercase();
        match ext.as_str() {
            "mmd" | "mermaid" => Some(Format::Mermaid),
            "dot" | "gv" => Some(Format::Dot),
            "md" | "markdown" => Some(Format::Outline),
            _ => None,
        }
    }

    /// A guess from the text itself, for text given without a file name.
    pub fn sniff(text: &str) -> Format {
        let first = text
            .lines()
            .map(str::trim)
            .find(|l| {
                !l.is_empty()
                    && !l.starts_with("%%")
                    && !l.starts_with("//")
                    && !l.starts_with("---")
            })
            .unwrap_or("");
        let word = first
            .split(|c: char| !c.is_alphanumeric() && c != '-')
            .next()
            .unwrap_or("");
        match word.to_ascii_lowercase().as_str() {
            "digraph" | "strict" => Format::Dot,
            "graph" if first.contains('{') => Format::Dot,
            _ if first.starts_with('#') || first.starts_with("- ") || first.starts_with("* ") => {
                Format::Outline
            }
            _ => Format::Mermaid,
        }
    }
}

/// A new canvas made from a diagram's text.
#[derive(Debug)]
pub struct Imported {
    pub canvas: Canvas,
    pub warnings: Vec<String>,
}

/// Reads `text` as `format` and lays it out: `algo` or else `layered` for graphs and `tree`
/// for outlines.
pub fn import(text: &str, format: Format, algo: Option<Algo>) -> Result<Imported, ConvertError> {
    let (diagram, mut warnings) = match format {
        Format::Mermaid => mermaid::parse(text)?,
        Format::Dot => dot::parse(text)?,
        Format::Outline => outline::parse(text),
    };
    let algo = algo.unwrap_or(if format == Format::Outline {
        Algo::Tree
    } else {
        Algo::Layered
    });
    let canvas = to_canvas(
        &diagram,
        Build {
            algo,
            direction: None,
        },
        &mut warnings,
    )?;
    Ok(Imported {
        canvas,
        warnings: warnings.messages(),
    })
}

/// A canvas written as text.
#[derive(Debug)]
pub struct Exported {
    pub text: String,
    pub warnings: Vec<String>,
}

/// Writes a canvas as `format`.
pub fn export(canvas: &Canvas, format: Format) -> Exported {
    let mut warnings = Warnings::default();
    let diagram = from_canvas(canvas, &mut warnings);
    let text = match format {
        Format::Mermaid => mermaid::write(&diagram),
        Format::Dot => dot::write(&diagram, &mut warnings),
        Format::Outline => outline::write(&diagram, &mut warnings),
    };
    Exported {
        text,
        warnings: warnings.messages(),
    }
}
