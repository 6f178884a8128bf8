//! Approvals: who says yes to a call that changes something, and the waiting approval a run
//! leaves when nobody can be asked.
//!
//! A waiting approval is a file beside its session (`<id>.waiting.json`), so it survives the
//! process. Answering takes the file by renaming it, which only one process can do: two
//! `agent approve` at once never both run the call.

use crate::error::AgentError;
use crate::session::SESSIONS_DIR;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// A person's answer to "may this call run?".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    Yes,
    No,
    /// Yes, and to every later call of the same tool in this run.
    Always,
}

impl Answer {
    pub fn as_str(self) -> &'static str {
        match self {
            Answer::Yes => "yes",
            Answer::No => "no",
            Answer::Always => "always",
        }
    }
}

/// Asks a person, on a terminal.
pub trait Approver: Send + Sync {
    fn ask(&self, agent: &str, tool: &str, arguments: &Value) -> Answer;
}

/// A call that waits for an answer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Waiting {
    pub session: String,
    pub run: String,
    pub agent: String,
    pub id: String,
    pub name: String,
    pub arguments: Value,
    /// The run's model calls and tokens so far, its `--max-turns` and `--model`: the run
    /// resumed by the answer goes on from them, as one run. (Absent from files written before
    /// they were kept: then counting starts again.)
    #[serde(default)]
    pub turns: u32,
    #[serde(default)]
    pub usage: easel_llm::Usage,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_turns: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
}

fn waiting_path(vault_root: &Path, session: &str) -> PathBuf {
    vault_root
        .join(SESSIONS_DIR)
        .join(format!("{session}.waiting.json"))
}

impl Waiting {
    /// Keeps the approval as a file.
    pub fn save(&self, vault_root: &Path) -> Result<(), AgentError> {
        let path = waiting_path(vault_root, &self.session);
        let bytes = serde_json::to_vec_pretty(self).map_err(|e| AgentError::BadSession {
            id: self.session.clone(),
            reason: e.to_string(),
        })?;
        easel_vault::write_atomic(&path, &bytes).map_err(|e| AgentError::Io {
            path,
            source: std::io::Error::other(e.to_string()),
        })
    }

    /// The approval waiting in `session`, taken so that no other process answers it; `None`
    /// when there is none (answered already, or never asked).
    pub fn take(vault_root: &Path, session: &str) -> Result<Option<Taken>, AgentError> {
        let path = waiting_path(vault_root, session);
        let taken = path.with_extension(format!("taken.{}", std::process::id()));
        match std::fs::rename(&path, &taken) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                // A process that took it and was killed before it answered leaves it taken.
                match abandoned(&path) {
                    Some(old) if std::fs::rename(&old, &taken).is_ok() => {}
                    _ => return Ok(None),
                }
            }
            Err(source) => return Err(AgentError::Io { path, source }),
        }
        let text = std::fs::read_to_string(&taken).map_err(|source| AgentError::Io {
            path: taken.clone(),
            source,
        })?;
        let waiting = serde_json::from_str(&text).map_err(|e| AgentError::BadSession {
            id: session.to_string(),
            reason: format!("the waiting approval: {e}"),
        })?;
        Ok(Some(Taken {
            waiting,
            file: taken,
        }))
    }

    /// Whether `session` has an approval waiting.
    pub fn exists(vault_root: &Path, session: &str) -> bool {
        waiting_path(vault_root, session).is_file()
    }

    /// The approval waiting in `session`, read without taking it; `None` when there is none
    /// or it cannot be read.
    pub fn peek(vault_root: &Path, session: &str) -> Option<Waiting> {
        let text = std::fs::read_to_string(waiting_path(vault_root, session)).ok()?;
        serde_json::from_str(&text).ok()
    }
}

/// A waiting approval taken by a process that is no longer running.
fn abandoned(path: &Path) -> Option<PathBuf> {
    let dir = path.parent()?;
    let prefix = format!(
        "{}.taken.",
        path.file_name()?.to_str()?.trim_end_matches(".json")
    );
    std::fs::read_dir(dir).ok()?.flatten().find_map(|e| {
        let name = e.file_name().into_string().ok()?;
        let pid = name.strip_prefix(&prefix)?;
        let alive = Path::new("/proc").join(pid).exists();
        (!alive).then(|| e.path())
    })
}

/// A waiting approval taken by this process; its file is removed once the answer is written
/// to the session.
pub struct Taken {
    pub waiting: Waiting,
    file: PathBuf,
}

impl Taken {
    pub fn done(self) {
        if let Err(e) = std::fs::remove_file(&self.file) {
            tracing::warn!(file = %self.file.display(), error = %e, "could not remove a taken approval");
        }
    }
}
