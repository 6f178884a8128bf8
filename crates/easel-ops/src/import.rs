//! `canvas_import`: a Mermaid flowchart, a DOT graph or a Markdown outline becomes a new,
//! laid-out canvas.

use easel_convert::{ConvertError, Format};
use easel_vault::Expect;
use easel_vault::canvas::canvas_path;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::ctx::Ctx;
use crate::effect::Effect;
use crate::error::OpError;
use crate::layout::AlgoArg;
use crate::op::Op;

impl From<ConvertError> for OpError {
    fn from(e: ConvertError) -> OpError {
        OpError::from_diagnose(&e)
    }
}

/// A diagram text format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum FormatArg {
    /// A Mermaid flowchart ("flowchart TD" / "graph LR").
    Mermaid,
    /// A Graphviz graph ("digraph { a -> b }").
    Dot,
    /// A Markdown outline: headings and nested lists.
    Outline,
}

impl From<FormatArg> for Format {
    fn from(f: FormatArg) -> Format {
        match f {
            FormatArg::Mermaid => Format::Mermaid,
            FormatArg::Dot => Format::Dot,
            FormatArg::Outline => Format::Outline,
        }
    }
}

/// `canvas_import`'s input.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ImportInput {
    /// The new canvas's path, e.g. "Diagrams/Flow.canvas"; it must not exist yet. Defaults to
    /// the source file's name with '.canvas'.
    #[serde(default)]
    pub path: Option<String>,
    /// The diagram's text, inline.
    #[serde(default)]
    pub text: Option<String>,
    /// Or a vault file holding it (.mmd, .dot, .gv, .md).
    #[serde(default)]
    pub file: Option<String>,
    /// "mermaid", "dot" or "outline"; guessed from the file name or the text when left out.
    #[serde(default)]
    pub format: Option<FormatArg>,
    /// Layout: "layered" (default for graphs), "tree" (default for outlines), "radial", "grid".
    #[serde(default)]
    pub algo: Option<AlgoArg>,
}

/// `canvas_import`'s output.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ImportOutput {
    /// The new canvas.
    pub path: String,
    /// Its revision.
    pub rev: Option<String>,
    /// The format read.
    pub format: &'static str,
    /// Nodes made (groups included).
    pub node_count: usize,
    /// Edges made.
    pub edge_count: usize,
    /// What the source had that a canvas cannot hold.
    pub warnings: Vec<String>,
}

/// Make a canvas from a diagram.
#[derive(Clone, Copy, Debug, Default)]
pub struct CanvasImport;

impl Op for CanvasImport {
    type Input = ImportInput;
    type Output = ImportOutput;
    const NAME: &'static str = "canvas_import";
    const TITLE: &'static str = "Make a canvas from a diagram";
    const DESCRIPTION: &'static str = "Turn a Mermaid flowchart, a Graphviz DOT graph or a Markdown outline into a NEW canvas, laid out automatically. \
The easiest way to draw a whole diagram in one call: write it as Mermaid ('flowchart TD', one 'A[Text] --> B[Text]' per line, 'subgraph Name ... end' for groups) and pass it as 'text'. \
Warnings list what a canvas cannot show (shapes, dotted lines).\n\
Example: {\"path\": \"Flow.canvas\", \"text\": \"flowchart TD\\n  A[Idea] --> B[Draft]\\n  B -->|review| C[Publish]\"}";
    const EFFECT: Effect = Effect::Write;

    fn run(&self, ctx: &Ctx, input: ImportInput) -> Result<ImportOutput, OpError> {
        let (text, source_name) = match (&input.text, &input.file) {
            (Some(t), None) => (t.clone(), None),
            (None, Some(f)) => {
                let p = ctx.vault().resolve(f)?;
                let (bytes, _) = ctx.vault().read(&p)?;
                let text = String::from_utf8(bytes).map_err(|_| {
                    OpError::invalid(
                        format!("{} is not UTF-8 text", p.as_str()),
                        "save the diagram as UTF-8 text",
                    )
                })?;
                (text, Some(p.as_str().to_owned()))
            }
            _ => {
                return Err(OpError::invalid(
                    "give the diagram either as 'text' or as a vault 'file', exactly one of them",
                    "pass {\"path\": \"Flow.canvas\", \"text\": \"flowchart TD\\n  A --> B\"}",
                ));
            }
        };
        let format = input
            .format
            .map(Format::from)
            .or_else(|| source_name.as_deref().and_then(Format::from_file_name))
            .unwrap_or_else(|| Format::sniff(&text));
        let path = match (input.path, &source_name) {
            (Some(p), _) => p,
            (None, Some(s)) => s
                .rsplit_once('.')
                .map_or(s.as_str(), |(stem, _)| stem)
                .to_owned(),
            (None, None) => {
                return Err(OpError::invalid(
                    "the new canvas needs a 'path'",
                    "pass \"path\": \"Diagrams/Flow.canvas\"",
                ));
            }
        };
        let imported = easel_convert::import(&text, format, input.algo.map(Into::into))?;
        let p = canvas_path(ctx.vault(), &path, true)?;
        let bytes = imported.canvas.to_obsidian_string();
        let (nodes, edges) = (imported.canvas.nodes().len(), imported.canvas.edges().len());
        let change = ctx.change(
            Self::NAME,
            format!(
                "import {} {} as {}",
                format.as_str(),
                source_name.as_deref().unwrap_or("text"),
                p.as_str()
            ),
        );
        let written = ctx
            .vault()
            .write(&p, bytes.as_bytes(), Expect::Absent, &change)
            .map_err(|e| match e {
                easel_vault::VaultError::AlreadyExists { .. } => OpError::conflict(
                    format!("canvas already exists: {}", p.as_str()),
                    "pick another 'path', or lay out the existing canvas with `canvas_layout`",
                ),
                other => other.into(),
            })?;
        Ok(ImportOutput {
            path: p.as_str().to_owned(),
            rev: written.rev_after.map(|r| r.to_string()),
            format: format.as_str(),
            node_count: nodes,
            edge_count: edges,
            warnings: imported.warnings,
        })
    }
}
