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
    #[error("no session is named '{id}'")]
    UnknownSession { id: String },
    #[error("cannot use the session '{id}': {reason}")]
    BadSession { id: String, reason: String },
    #[error("'{}': {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("max turns exceeded: {turns} model calls without a final answer")]
    MaxTurns { turns: u32, session: String },
    #[error("the model failed: {message}")]
    Model {
        message: String,
        hint: String,
        session: String,
    },
    #[error("the run was stopped before it finished (session '{session}')")]
    Stopped { session: String },
    #[error("the session '{session}' has no approval waiting")]
    NotWaiting { session: String },
    #[error("'{tool}' needs approval before it runs (session '{session}')")]
    Waiting {
        session: String,
        tool: String,
        arguments: serde_json::Value,
    },
}

impl AgentError {
    /// The exit-code class.
    pub fn kind(&self) -> ErrorKind {
        match self {
            AgentError::UnknownAgent { .. } => ErrorKind::NotFound,
            AgentError::BadAgentFile { .. } => ErrorKind::Invalid,
            AgentError::UnknownSession { .. } => ErrorKind::NotFound,
            AgentError::BadSession { .. } => ErrorKind::Invalid,
            AgentError::Io { .. }
            | AgentError::MaxTurns { .. }
            | AgentError::Model { .. }
            | AgentError::Stopped { .. } => ErrorKind::Failure,
            AgentError::NotWaiting { .. } => ErrorKind::Conflict,
            AgentError::Waiting { .. } => ErrorKind::Waiting,
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
            AgentError::UnknownSession { .. } => {
                "list the sessions in .easel/sessions/, or leave out the session to start a new one"
                    .into()
            }
            AgentError::BadSession { .. } => {
                "give the id `agent_run` printed (letters, digits, '-' and '_'); a damaged session file can be moved away".into()
            }
            AgentError::Io { .. } => {
                "check that the vault's .easel/ folder is writable and the disk is not full".into()
            }
            AgentError::MaxTurns { session, .. } => format!(
                "continue the conversation with `agent_run` and session '{session}', with a higher max_turns or a narrower task"
            ),
            AgentError::Model { hint, .. } => hint.clone(),
            AgentError::Stopped { session } => format!(
                "what it did before it stopped is kept; continue with `agent_run` and session '{session}'"
            ),
            AgentError::NotWaiting { session } => format!(
                "the approval was answered already, or the run ended; continue with `agent_run` and session '{session}'"
            ),
            AgentError::Waiting { session, .. } => format!(
                "approve it with `agent_approve` and session '{session}' (or refuse it with deny), or run again with yes to allow every call"
            ),
        }
    }
}

impl easel_core::Diagnose for AgentError {
    fn kind(&self) -> ErrorKind {
        AgentError::kind(self)
    }

    fn hint(&self) -> String {
        AgentError::hint(self)
    }
}
