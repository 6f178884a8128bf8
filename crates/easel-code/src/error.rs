//! Errors of `easel-code`, with the exit-code class front ends map them to.

pub use easel_vault::ErrorKind;
use std::path::PathBuf;

/// Everything that can go wrong while building or querying a code graph.
#[derive(thiserror::Error, Debug)]
#[non_exhaustive]
pub enum CodeError {
    #[error("'{}' is not a folder", path.display())]
    NotADirectory { path: PathBuf },
    #[error("cannot parse '{}': {reason}", path.display())]
    Parse { path: PathBuf, reason: String },
    #[error("cannot write '{}': {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("no symbol matches '{query}'{}", suggestions_text(suggestions))]
    SymbolNotFound {
        query: String,
        suggestions: Vec<String>,
    },
    #[error("'{query}' matches {} symbols: {}", candidates.len(), candidates.join(", "))]
    Ambiguous {
        query: String,
        candidates: Vec<String>,
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

fn suggestions_text(s: &[String]) -> String {
    if s.is_empty() {
        String::new()
    } else {
        format!("; did you mean {}?", s.join(", "))
    }
}

impl CodeError {
    /// The exit-code class.
    pub fn kind(&self) -> ErrorKind {
        match self {
            CodeError::NotADirectory { .. } | CodeError::SymbolNotFound { .. } => {
                ErrorKind::NotFound
            }
            CodeError::Parse { .. } | CodeError::Ambiguous { .. } => ErrorKind::Invalid,
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
            CodeError::NotADirectory { .. } => {
                "pass the repository's folder, e.g. 'easel code init .'".into()
            }
            CodeError::Parse { .. } => "check the file's encoding and syntax".into(),
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
            CodeError::SymbolNotFound { suggestions, .. } if !suggestions.is_empty() => {
                format!(
                    "use one of the suggested names, e.g. 'easel code impact {}'",
                    suggestions[0]
                )
            }
            CodeError::SymbolNotFound { .. } => {
                "run 'easel code symbols NAME' to search, or 'easel code init' if the code changed"
                    .into()
            }
            CodeError::Ambiguous { candidates, .. } => format!(
                "give a qualified name or an id, e.g. '{}'",
                candidates.first().cloned().unwrap_or_default()
            ),
        }
    }
}
