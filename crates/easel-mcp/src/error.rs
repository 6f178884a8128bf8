//! Errors: the ones a tool call reports back to the model, and the ones that stop the server.

use easel_vault::canvas::CanvasOpError;
use easel_vault::{ErrorKind, VaultError};

/// A failed tool call, sent to the client as a tool result with `isError: true`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct ToolError {
    /// What happened.
    pub message: String,
    /// What to do next, naming MCP tools rather than shell commands.
    pub hint: String,
    /// The same class the CLI turns into an exit code.
    pub kind: ErrorKind,
}

impl ToolError {
    pub(crate) fn failure(message: impl Into<String>) -> ToolError {
        ToolError {
            message: message.into(),
            hint: "this is a bug or an IO problem on the server; run the server with EASEL_LOG=debug and report it".into(),
            kind: ErrorKind::Failure,
        }
    }

    /// The class as a word, for the structured error (`not_found`, `conflict`, ...).
    pub fn kind_name(&self) -> &'static str {
        self.kind.as_str()
    }

    /// The text a model reads: the message, then the hint.
    pub fn to_text(&self) -> String {
        format!("{}\nhint: {}", capitalised(&self.message), self.hint)
    }
}

fn capitalised(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// The library hints name shell commands; a model talking MCP needs the tool names instead.
/// The table is the one place the two vocabularies meet.
pub(crate) fn hint_for_mcp(hint: &str) -> String {
    const TABLE: &[(&str, &str)] = &[
        ("'easel canvas list'", "canvas_list"),
        ("'easel canvas read PATH'", "canvas_read"),
        ("'easel canvas read'", "canvas_read"),
        ("'easel canvas write'", "canvas_write"),
        ("'easel canvas update-node'", "canvas_update_node"),
        ("'easel canvas update-edge'", "canvas_update_edge"),
        ("'easel canvas add-node'", "canvas_add_node"),
        ("'easel canvas add-edge'", "canvas_add_edge"),
        ("'easel canvas update'", "canvas_update"),
        ("'easel canvas validate'", "canvas_validate"),
        ("'easel canvas fmt'", "canvas_update"),
        ("'easel ledger'", "ledger_list"),
        ("'easel undo'", "ledger_undo"),
        ("--rev", "'rev'"),
        ("--model", "'model'"),
        ("run canvas_", "use canvas_"),
        ("run ledger_", "use ledger_"),
    ];
    let mut out = hint.to_owned();
    for (cli, mcp) in TABLE {
        out = out.replace(cli, mcp);
    }
    out
}

impl From<CanvasOpError> for ToolError {
    fn from(e: CanvasOpError) -> ToolError {
        ToolError {
            message: e.to_string(),
            hint: hint_for_mcp(&e.hint()),
            kind: e.kind(),
        }
    }
}

impl From<VaultError> for ToolError {
    fn from(e: VaultError) -> ToolError {
        ToolError {
            message: e.to_string(),
            hint: hint_for_mcp(&e.hint()),
            kind: e.kind(),
        }
    }
}

/// What keeps the server from starting or running.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The HTTP guard refused the configuration, or could not listen.
    #[error(transparent)]
    Guard(#[from] easel_http::GuardError),
    /// The transport failed while serving.
    #[error("the MCP connection failed: {0}")]
    Transport(String),
    /// IO while serving.
    #[error("IO error while serving: {0}")]
    Io(#[from] std::io::Error),
}

impl ServeError {
    /// The exit-code class.
    pub fn kind(&self) -> ErrorKind {
        match self {
            ServeError::Guard(e) => e.kind(),
            ServeError::Transport(_) | ServeError::Io(_) => ErrorKind::Failure,
        }
    }

    /// What to do next.
    pub fn hint(&self) -> String {
        match self {
            ServeError::Guard(e) => e.hint(),
            ServeError::Transport(_) | ServeError::Io(_) => {
                "check that the client is still connected; run with EASEL_LOG=debug for details"
                    .into()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canvas_not_found_reads_like_the_issue_says() {
        let e = ToolError::from(CanvasOpError::NotFound {
            path: "Ideas.canvas".into(),
        });
        let text = e.to_text();
        assert!(
            text.starts_with("Canvas not found: Ideas.canvas\nhint: "),
            "{text}"
        );
        assert!(text.contains("use canvas_list"), "{text}");
        assert!(!text.contains("easel "), "{text}");
        assert_eq!(e.kind_name(), "not_found");
    }
}
