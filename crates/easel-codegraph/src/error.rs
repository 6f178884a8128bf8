//! Errors of `easel-codegraph`, with the exit-code class front ends map them to.

pub use easel_core::ErrorKind;
use std::path::PathBuf;

/// Everything that can go wrong while building or querying a code graph.
#[derive(thiserror::Error, Debug)]
#[non_exhaustive]
pub enum GraphError {
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
}

fn suggestions_text(s: &[String]) -> String {
    if s.is_empty() {
        String::new()
    } else {
        format!("; did you mean {}?", s.join(", "))
    }
}

impl GraphError {
    /// The exit-code class.
    pub fn kind(&self) -> ErrorKind {
        match self {
            GraphError::NotADirectory { .. } | GraphError::SymbolNotFound { .. } => {
                ErrorKind::NotFound
            }
            GraphError::Parse { .. } | GraphError::Ambiguous { .. } => ErrorKind::Invalid,
            GraphError::Io { .. } => ErrorKind::Failure,
        }
    }

    /// What to do next.
    pub fn hint(&self) -> String {
        match self {
            GraphError::NotADirectory { .. } => {
                "pass the repository's folder, e.g. 'easel code init .'".into()
            }
            GraphError::Parse { .. } => "check the file's encoding and syntax".into(),
            GraphError::Io { .. } => {
                "check that the folder is writable and the disk is not full".into()
            }
            GraphError::SymbolNotFound { suggestions, .. } if !suggestions.is_empty() => {
                format!(
                    "use one of the suggested names, e.g. 'easel code impact {}'",
                    suggestions[0]
                )
            }
            GraphError::SymbolNotFound { .. } => {
                "run 'easel code symbols NAME' to search, or 'easel code init' if the code changed"
                    .into()
            }
            GraphError::Ambiguous { candidates, .. } => format!(
                "give a qualified name or an id, e.g. '{}'",
                candidates.first().cloned().unwrap_or_default()
            ),
        }
    }
}
