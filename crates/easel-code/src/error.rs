//! Errors of `easel-code` (board, views, hooks), with the exit-code class front ends map them
//! to. The engine's own errors ([`GraphError`]) pass through unchanged.

pub use easel_codegraph::{ErrorKind, GraphError};
use std::path::PathBuf;

/// Everything that can go wrong while building, querying or drawing a code graph.
#[derive(thiserror::Error, Debug)]
#[non_exhaustive]
pub enum CodeError {
    #[error(transparent)]
    Graph(#[from] GraphError),
    #[error("cannot write '{}': {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("cannot draw the {view} view: {source}")]
    Render {
        view: String,
        #[source]
        source: easel_render::RenderError,
    },
    #[error("cannot make the {view} view's .canvas file: {reason}")]
    CanvasFile { view: String, reason: String },
    #[error("'{name}' cannot be a view's file name")]
    ViewName { name: String },
    #[error("cannot write '{}': {source}", path.display())]
    Write {
        path: PathBuf,
        #[source]
        source: easel_vault::VaultError,
    },
}

impl CodeError {
    /// The exit-code class.
    pub fn kind(&self) -> ErrorKind {
        match self {
            CodeError::Graph(e) => e.kind(),
            CodeError::Io { .. } | CodeError::Write { .. } | CodeError::CanvasFile { .. } => {
                ErrorKind::Failure
            }
            CodeError::Render { source, .. } => match source {
                easel_render::RenderError::TooLarge { .. }
                | easel_render::RenderError::Empty { .. }
                | easel_render::RenderError::Image(_) => ErrorKind::Invalid,
                _ => ErrorKind::Failure,
            },
            CodeError::ViewName { .. } => ErrorKind::Invalid,
        }
    }

    /// What to do next.
    pub fn hint(&self) -> String {
        match self {
            CodeError::Graph(e) => e.hint(),
            CodeError::Io { .. } | CodeError::Write { .. } => {
                "check that the folder is writable and the disk is not full".into()
            }
            CodeError::Render { source, .. } => source.hint(),
            CodeError::CanvasFile { .. } => {
                "this is a bug in the view; please report it with the symbol or board that caused it"
                    .into()
            }
            CodeError::ViewName { .. } => {
                "use the name a view function returned: 'architecture', 'board' or 'impact_' followed by symbol_slug(symbol)".into()
            }
        }
    }
}
