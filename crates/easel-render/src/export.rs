//! `canvas_export`: a canvas as Mermaid, DOT, an outline, SVG or PNG. The text formats come
//! from `easel-convert`, the pictures from this crate's renderer.

use easel_convert::Format as TextFormat;
use easel_ops::{Ctx, Effect, Op, OpError};
use easel_vault::Expect;
use easel_vault::canvas::load_canvas;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::file::{Format as Picture, render_canvas_file};

/// What to export to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum ExportFormat {
    /// A Mermaid flowchart.
    Mermaid,
    /// A Graphviz digraph.
    Dot,
    /// A Markdown outline (nested lists).
    Outline,
    /// An SVG drawing.
    Svg,
    /// A PNG picture (needs `out`).
    Png,
}

impl ExportFormat {
    /// The name users type.
    pub fn as_str(self) -> &'static str {
        match self {
            ExportFormat::Mermaid => "mermaid",
            ExportFormat::Dot => "dot",
            ExportFormat::Outline => "outline",
            ExportFormat::Svg => "svg",
            ExportFormat::Png => "png",
        }
    }
}

/// `canvas_export`'s input.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ExportInput {
    /// Canvas path relative to the vault ('.canvas' may be left out).
    pub path: String,
    /// "mermaid", "dot", "outline", "svg" or "png".
    pub to: ExportFormat,
    /// Write the result to this vault path (needed for PNG); without it the text comes back.
    #[serde(default)]
    pub out: Option<String>,
}

/// `canvas_export`'s output.
#[derive(Clone, Debug, Serialize)]
pub struct ExportOutput {
    /// The canvas exported.
    pub path: String,
    /// Its revision.
    pub rev: String,
    /// The format written.
    pub to: &'static str,
    /// Where the result was written.
    pub out: Option<String>,
    /// Its size in bytes.
    pub bytes: usize,
    /// The text (Mermaid, DOT, outline or SVG) when it was not written to a file.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// What the format cannot hold.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
}

/// An exported canvas before it is written anywhere.
pub struct Exported {
    pub path: String,
    pub rev: String,
    pub bytes: Vec<u8>,
    pub warnings: Vec<String>,
}

/// Exports the canvas at `path`; for the shell, which writes the result itself.
pub fn export_canvas(ctx: &Ctx, path: &str, to: ExportFormat) -> Result<Exported, OpError> {
    let text_format = match to {
        ExportFormat::Mermaid => TextFormat::Mermaid,
        ExportFormat::Dot => TextFormat::Dot,
        ExportFormat::Outline => TextFormat::Outline,
        ExportFormat::Svg | ExportFormat::Png => {
            let picture = if to == ExportFormat::Svg {
                Picture::Svg
            } else {
                Picture::Png
            };
            let r = render_canvas_file(ctx.vault(), path, picture, 1.0)?;
            return Ok(Exported {
                path: r.path,
                rev: r.rev,
                bytes: r.bytes,
                warnings: Vec::new(),
            });
        }
    };
    let (p, canvas, rev) = load_canvas(ctx.vault(), path)?;
    let e = easel_convert::export(&canvas, text_format);
    Ok(Exported {
        path: p.as_str().to_owned(),
        rev: rev.to_string(),
        bytes: e.text.into_bytes(),
        warnings: e.warnings,
    })
}

/// Export a canvas.
#[derive(Clone, Copy, Debug, Default)]
pub struct CanvasExport;

impl Op for CanvasExport {
    type Input = ExportInput;
    type Output = ExportOutput;
    const NAME: &'static str = "canvas_export";
    const TITLE: &'static str = "Export a canvas";
    const DESCRIPTION: &'static str = "Write a canvas as a Mermaid flowchart, a Graphviz DOT graph, a Markdown outline, an SVG drawing or a PNG picture. \
Groups become subgraphs or clusters; colours and edge labels are kept; file and link nodes become labelled nodes. Without 'out' the text comes back in 'text'.\n\
Example: {\"path\": \"Flow.canvas\", \"to\": \"mermaid\"}";
    const EFFECT: Effect = Effect::Write;
    const IDEMPOTENT: bool = true;

    fn run(&self, ctx: &Ctx, input: ExportInput) -> Result<ExportOutput, OpError> {
        if input.to == ExportFormat::Png && input.out.is_none() {
            return Err(OpError::invalid(
                "a PNG needs a file to go to",
                "add \"out\": \"Pictures/board.png\", or export to \"svg\" to get the drawing as text",
            ));
        }
        let e = export_canvas(ctx, &input.path, input.to)?;
        let bytes = e.bytes.len();
        let Some(out) = input.out else {
            return Ok(ExportOutput {
                path: e.path,
                rev: e.rev,
                to: input.to.as_str(),
                out: None,
                bytes,
                text: Some(String::from_utf8_lossy(&e.bytes).into_owned()),
                warnings: e.warnings,
            });
        };
        let target = ctx.vault().resolve_for_write(&out)?;
        let summary = format!(
            "export {} as {} into {}",
            e.path,
            input.to.as_str(),
            target.as_str()
        );
        ctx.vault().write(
            &target,
            &e.bytes,
            Expect::Any,
            &ctx.change(Self::NAME, summary),
        )?;
        Ok(ExportOutput {
            path: e.path,
            rev: e.rev,
            to: input.to.as_str(),
            out: Some(target.as_str().to_owned()),
            bytes,
            text: None,
            warnings: e.warnings,
        })
    }
}
