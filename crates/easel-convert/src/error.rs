//! What can stop an import, and what to do about it.

use easel_core::{Diagnose, ErrorKind};

#[derive(Debug, thiserror::Error)]
pub enum ConvertError {
    /// The text breaks the format's grammar.
    #[error("{format} line {line}, column {column}: {message}")]
    Syntax {
        format: &'static str,
        line: usize,
        column: usize,
        message: String,
        hint: String,
    },
    /// A Mermaid diagram of a kind other than a flowchart.
    #[error(
        "only flowcharts ('flowchart' or 'graph') can be imported from Mermaid; this is a '{found}' diagram"
    )]
    NotFlowchart { found: String },
    /// Nothing in the text to make a canvas of.
    #[error("the {format} text holds no diagram")]
    Empty { format: &'static str },
    /// The canvas could not be built or laid out.
    #[error(transparent)]
    Layout(#[from] easel_layout::LayoutError),
    #[error(transparent)]
    Canvas(#[from] easel_canvas::CanvasError),
}

impl Diagnose for ConvertError {
    fn kind(&self) -> ErrorKind {
        match self {
            ConvertError::Layout(e) => e.kind(),
            ConvertError::Canvas(_) => ErrorKind::Failure,
            _ => ErrorKind::Invalid,
        }
    }

    fn hint(&self) -> String {
        match self {
            ConvertError::Syntax { hint, .. } => hint.clone(),
            ConvertError::NotFlowchart { .. } => {
                "start the text with 'flowchart TD' (or 'graph LR') and describe nodes and edges like 'A --> B'".into()
            }
            ConvertError::Empty { .. } => "give the text of a diagram, e.g. 'flowchart TD\\n  A --> B'".into(),
            ConvertError::Layout(e) => e.hint(),
            ConvertError::Canvas(e) => e.hint(),
        }
    }
}

/// Line and column (from 1, in characters) of a byte offset.
pub(crate) fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let before = text.get(..offset).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let start = before.rfind('\n').map_or(0, |i| i + 1);
    let column = before.get(start..).map_or(0, |s| s.chars().count()) + 1;
    (line, column)
}
