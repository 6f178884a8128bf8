//! Errors of the evidence board and the hooks, each with what to do next.

use super::text::{Front, call};
use crate::error::{CodeError, ErrorKind, GraphError};
use easel_vault::VaultError;
use std::path::PathBuf;

/// Everything a board action can fail with.
#[derive(thiserror::Error, Debug)]
#[non_exhaustive]
pub enum BoardError {
    #[error("no evidence board in '{}' yet", root.display())]
    NotInitialized { root: PathBuf },
    #[error("'{given}' is not a kind of {what}; use one of: {}", allowed.join(", "))]
    BadKind {
        what: &'static str,
        given: String,
        allowed: Vec<&'static str>,
    },
    #[error("{action} needs a text")]
    MissingText { action: &'static str },
    #[error("{action} needs a symbol, and no symbol is in focus")]
    NoSymbol { action: &'static str },
    #[error("no tasks file: neither '{}' nor '{}' exists", root.join("tasks.yaml").display(), root.join(".codecanvas/tasks.yaml").display())]
    NoTasks { root: PathBuf },
    #[error("cannot read the tasks in '{}': {reason}", path.display())]
    BadTasks { path: PathBuf, reason: String },
    #[error("no task '{id}' in '{}'", path.display())]
    UnknownTask {
        id: String,
        path: PathBuf,
        known: Vec<String>,
    },
    #[error("the board '{}' is damaged: {reason}", path.display())]
    Damaged { path: PathBuf, reason: String },
    #[error("'{}' is not a JSON object, so the hooks cannot be merged into it", path.display())]
    BadSettings { path: PathBuf, reason: String },
    #[error("'{}' changed while the hooks were being merged into it", path.display())]
    SettingsChanged { path: PathBuf },
    #[error(transparent)]
    Code(#[from] CodeError),
    #[error(transparent)]
    Vault(#[from] VaultError),
}

impl From<GraphError> for BoardError {
    fn from(e: GraphError) -> Self {
        BoardError::Code(e.into())
    }
}

impl BoardError {
    /// The exit-code class.
    pub fn kind(&self) -> ErrorKind {
        match self {
            BoardError::NotInitialized { .. }
            | BoardError::NoTasks { .. }
            | BoardError::UnknownTask { .. } => ErrorKind::NotFound,
            BoardError::BadKind { .. }
            | BoardError::MissingText { .. }
            | BoardError::NoSymbol { .. }
            | BoardError::BadTasks { .. }
            | BoardError::Damaged { .. }
            | BoardError::BadSettings { .. } => ErrorKind::Invalid,
            BoardError::SettingsChanged { .. } => ErrorKind::Conflict,
            BoardError::Code(e) => e.kind(),
            BoardError::Vault(e) => e.kind(),
        }
    }

    /// What to do next, in the words of the command line.
    pub fn hint(&self) -> String {
        self.hint_for(Front::Cli)
    }

    /// What to do next, naming the commands of `front` (shell commands or `canvas(...)` calls).
    pub fn hint_for(&self, front: Front) -> String {
        match self {
            BoardError::NotInitialized { .. } => format!(
                "run {} first (the hooks do it by themselves once the project root is clear)",
                call(front, "init", &[])
            ),
            BoardError::BadKind { allowed, .. } => {
                format!("pass kind=\"{}\" (or leave it out)", allowed[0])
            }
            BoardError::MissingText { action } => format!(
                "say what you found or plan, e.g. {}",
                call(front, action, &[("text", "…")])
            ),
            BoardError::NoSymbol { action } => format!(
                "name the symbol, e.g. {}, or focus one first with {}",
                call(front, action, &[("symbol", "NAME")]),
                call(front, "impact", &[("symbol", "NAME")])
            ),
            BoardError::NoTasks { .. } => "write tasks.yaml at the repository root: a list of tasks with 'id' and 'title' (and optional 'description' and 'symbols')".into(),
            BoardError::BadTasks { .. } => "fix the YAML: 'tasks:' then a list of entries with 'id' and 'title'".into(),
            BoardError::UnknownTask { known, .. } if !known.is_empty() => format!(
                "use one of: {}",
                known.join(", ")
            ),
            BoardError::UnknownTask { .. } => "the tasks file lists no tasks; add some with 'id' and 'title'".into(),
            BoardError::Damaged { path, .. } => format!(
                "move '{}' away (the previous versions are in .codecanvas/.easel/blobs) and run {}",
                path.display(),
                call(front, "init", &[])
            ),
            BoardError::SettingsChanged { .. } => "run the install again; nothing was written".into(),
            BoardError::BadSettings { .. } => "fix the JSON of the settings file (or move it away), then install again".into(),
            BoardError::Code(CodeError::Graph(GraphError::SymbolNotFound { suggestions, .. })) if !suggestions.is_empty() => format!(
                "use one of the suggested names, e.g. {}",
                call(front, "impact", &[("symbol", &suggestions[0])])
            ),
            BoardError::Code(CodeError::Graph(GraphError::SymbolNotFound { .. })) => format!(
                "search with {}, or run {} again if the code changed",
                match front {
                    Front::Cli => "'easel code symbols NAME'".to_string(),
                    _ => "a shorter part of the name".to_string(),
                },
                call(front, "init", &[])
            ),
            BoardError::Code(CodeError::Graph(GraphError::Ambiguous { candidates, .. })) => format!(
                "give a qualified name or an id, e.g. {}",
                call(front, "impact", &[("symbol", candidates.first().map(String::as_str).unwrap_or("pkg.mod.name"))])
            ),
            BoardError::Code(CodeError::Graph(GraphError::NotADirectory { .. })) if front != Front::Cli => format!(
                "pass the repository's folder, e.g. {}",
                call(front, "init", &[("repo_path", ".")])
            ),
            BoardError::Code(e) => e.hint(),
            BoardError::Vault(e) => e.hint(),
        }
    }
}
