//! `canvas_render`: a canvas drawn as SVG or PNG, as an operation.

use easel_ops::{Ctx, Effect, Op, OpError};
use easel_vault::Expect;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::file::{Format, RenderFileError, Rendered, render_canvas_file};

impl From<RenderFileError> for OpError {
    fn from(e: RenderFileError) -> OpError {
        OpError::new(e.kind(), e.to_string(), e.hint())
    }
}

/// The picture format asked for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum FormatArg {
    /// A vector drawing (the default).
    #[default]
    Svg,
    /// A bitmap; needs `out`.
    Png,
}

/// `canvas_render`'s input.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RenderInput {
    /// Canvas path relative to the vault ('.canvas' may be left out).
    pub path: String,
    /// "svg" (default) or "png".
    #[serde(default)]
    pub format: Option<FormatArg>,
    /// Size factor, 0.1 to 8 (default 1).
    #[serde(default)]
    #[schemars(range(min = 0.1, max = 8.0))]
    pub scale: Option<f32>,
    /// Write the picture to this vault path (needed for PNG); without it the SVG comes back as text.
    #[serde(default)]
    pub out: Option<String>,
}

/// `canvas_render`'s output: `easel --json canvas render`'s.
#[derive(Clone, Debug, Serialize)]
pub struct RenderOutput {
    /// Which canvas, at which revision, in which format and size.
    #[serde(flatten)]
    pub rendered: Rendered,
    /// Where the picture was written.
    pub out: Option<String>,
    /// Its size in bytes.
    pub bytes: usize,
    /// The SVG itself when it was not written to a file.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub svg: Option<String>,
}

/// Draw a canvas.
#[derive(Clone, Copy, Debug, Default)]
pub struct CanvasRender;

/// Checks a scale factor, for the operation and for the shell's own `--scale`.
pub fn check_scale(scale: f32) -> Result<f32, OpError> {
    if scale.is_finite() && (0.1..=8.0).contains(&scale) {
        Ok(scale)
    } else {
        Err(OpError::invalid(
            format!("the scale {scale} is out of range"),
            "give a scale between 0.1 and 8 (1 is the canvas's own size)",
        ))
    }
}

impl Op for CanvasRender {
    type Input = RenderInput;
    type Output = RenderOutput;
    const NAME: &'static str = "canvas_render";
    const TITLE: &'static str = "Draw a canvas";
    const DESCRIPTION: &'static str = "Draw a canvas as a picture: SVG text by default, or a PNG or SVG file written into the vault with 'out'. \
Use it to show a board to someone who cannot open it, or to check a layout.\n\
Example: {\"path\": \"Research.canvas\", \"format\": \"png\", \"out\": \"Pictures/Research.png\", \"scale\": 2}";
    const EFFECT: Effect = Effect::Write;
    const IDEMPOTENT: bool = true;

    fn run(&self, ctx: &Ctx, input: RenderInput) -> Result<RenderOutput, OpError> {
        let scale = check_scale(input.scale.unwrap_or(1.0))?;
        let format = match input.format.unwrap_or_default() {
            FormatArg::Svg => Format::Svg,
            FormatArg::Png => Format::Png,
        };
        if format == Format::Png && input.out.is_none() {
            return Err(OpError::invalid(
                "a PNG needs a file to go to",
                "add \"out\": \"Pictures/board.png\", or ask for \"format\": \"svg\" to get the drawing as text",
            ));
        }
        let rendered = render_canvas_file(ctx.vault(), &input.path, format, scale)?;
        let bytes = rendered.bytes.len();
        let Some(out) = input.out else {
            let svg = String::from_utf8_lossy(&rendered.bytes).into_owned();
            return Ok(RenderOutput {
                rendered,
                out: None,
                bytes,
                svg: Some(svg),
            });
        };
        let target = ctx.vault().resolve_for_write(&out)?;
        let summary = format!("draw {} into {}", rendered.path, target.as_str());
        ctx.vault().write(
            &target,
            &rendered.bytes,
            Expect::Any,
            &ctx.change(Self::NAME, summary),
        )?;
        Ok(RenderOutput {
            rendered,
            out: Some(target.as_str().to_string()),
            bytes,
            svg: None,
        })
    }
}
