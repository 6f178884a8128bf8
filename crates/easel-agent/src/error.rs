//! Errors of the agent runtime, with the exit-code class front ends map them to.

pub use easel_core::ErrorKind;
use std::path::PathBuf;

/// What can go wrong loading or running an agent.
#[derive(thiserror::Error, Debug)]
#[non_exhaustive]
pub enum AgentError {
    #[error("no agent is named '{name}'")]
    UnknownAgent { name: String, known: Vec<String> },
    #[error("cannot use the agent file '{}': {reason}", path.display())]
    BadAgentFile { path: PathBuf, reason: String },
}

impl AgentError {
    /// The exit-code class.
    pub fn kind(&self) -> ErrorKind {
        match self {
            AgentError::UnknownAgent { .. } => ErrorKind::NotFound,
            AgentError::BadAgentFile { .. } => ErrorKind::Invalid,
        }
    }

    /// What to do next.
    pub fn hint(&self) -> String {
        match self {
            AgentError::UnknownAgent { known, .. } if known.is_empty() => {
                "create one with `agent_new`, or add a Markdown file to .easel/agents/".into()
            }
            AgentError::UnknownAgent { known, .. } => {
                format!("use one of: {}", known.join(", "))
            }
            AgentError::BadAgentFile { .. } => {
                "fix the file's frontmatter (YAML between two '---' lines) and try again".into()
            }
        }
    }
}
