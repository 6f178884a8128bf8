//! Sessions: `.easel/sessions/<id>.jsonl`, one line per message, call, handoff, approval and
//! run boundary, each with its time. A session is the whole state of a conversation: a run
//! resumed with `--session ID`, or after an approval, rebuilds everything from it.
//!
//! Each line is appended before the step it records goes on, so a run killed at any moment
//! leaves a session that says what happened up to that point (a killed process loses nothing
//! it wrote); a last line cut short is ignored when read. The lines that guard against doing
//! something twice (a call about to run, an approval, a handoff, the end of a run) are also
//! flushed to disk, so that not even a machine that loses power runs a call twice.

use crate::error::AgentError;
use easel_llm::{Message, Role};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Where sessions live, relative to the vault.
pub const SESSIONS_DIR: &str = ".easel/sessions";

/// One thing that happened in a session.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Record {
    /// A run began: the agent it began with and the person's input.
    RunStarted {
        run: String,
        agent: String,
        input: String,
    },
    /// A message of the conversation, and the agent whose turn it was.
    Message {
        agent: String,
        message: Message,
    },
    /// A tool call is about to run: written before it runs, so a call is never run twice.
    CallStarted {
        agent: String,
        id: String,
        name: String,
    },
    Handoff {
        from: String,
        to: String,
    },
    /// An approval asked for (`answer: "waiting"`) or given (`yes`, `no`, `always`).
    Approval {
        agent: String,
        id: String,
        name: String,
        arguments: Value,
        answer: String,
    },
    /// A run ended: `done`, `waiting` or `failed`.
    RunEnded {
        run: String,
        status: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        output: Option<String>,
    },
}

#[derive(Serialize, Deserialize)]
struct Line {
    time: String,
    #[serde(flatten)]
    record: Record,
}

/// An open session, appended to as a run goes.
pub struct Session {
    id: String,
    path: PathBuf,
    records: Vec<Record>,
}

/// Whether `id` can name a session file: letters, digits, `-` and `_`, at most 64.
pub fn valid_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 64
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

impl Session {
    /// A new, empty session with a fresh id.
    pub fn create(vault_root: &Path) -> Result<Session, AgentError> {
        let id = easel_core::RunId::new().to_string();
        let path = session_path(vault_root, &id)?;
        Ok(Session {
            id,
            path,
            records: Vec::new(),
        })
    }

    /// The session `id`, as far as it was written.
    pub fn open(vault_root: &Path, id: &str) -> Result<Session, AgentError> {
        let path = session_path(vault_root, id)?;
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(AgentError::UnknownSession { id: id.to_string() });
            }
            Err(source) => return Err(AgentError::Io { path, source }),
        };
        let mut records = Vec::new();
        let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
        for (i, l) in lines.iter().enumerate() {
            match serde_json::from_str::<Line>(l) {
                Ok(line) => records.push(line.record),
                // A run killed while it wrote its last line leaves that line cut short.
                Err(_) if i + 1 == lines.len() => {
                    tracing::warn!(
                        session = id,
                        "the last line of the session is cut short; ignored"
                    );
                }
                Err(e) => {
                    return Err(AgentError::BadSession {
                        id: id.to_string(),
                        reason: format!("line {}: {e}", i + 1),
                    });
                }
            }
        }
        Ok(Session {
            id: id.to_string(),
            path,
            records,
        })
    }

    pub fn id(&self) -> &str {
        &self.id
    }

    pub fn records(&self) -> &[Record] {
        &self.records
    }

    /// Writes `record` to the end of the file and to disk, then keeps it.
    pub fn append(&mut self, record: Record) -> Result<(), AgentError> {
        let line = Line {
            time: jiff::Timestamp::now().to_string(),
            record,
        };
        let mut text = serde_json::to_string(&line).map_err(|e| AgentError::BadSession {
            id: self.id.clone(),
            reason: e.to_string(),
        })?;
        text.push('\n');
        let io = |source| AgentError::Io {
            path: self.path.clone(),
            source,
        };
        if let Some(dir) = self.path.parent() {
            std::fs::create_dir_all(dir).map_err(io)?;
        }
        let mut f = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.path)
            .map_err(io)?;
        f.write_all(text.as_bytes()).map_err(io)?;
        if matches!(
            line.record,
            Record::CallStarted { .. }
                | Record::Approval { .. }
                | Record::Handoff { .. }
                | Record::RunEnded { .. }
        ) {
            f.sync_data().map_err(io)?;
        }
        self.records.push(line.record);
        Ok(())
    }

    /// The conversation so far, in order, without system messages.
    pub fn history(&self) -> Vec<Message> {
        self.records
            .iter()
            .filter_map(|r| match r {
                Record::Message { message, .. } => Some(message.clone()),
                _ => None,
            })
            .collect()
    }

    /// Whether `agent` has called a tool since the last run began.
    pub fn used_tools_in_run(&self, agent: &str) -> bool {
        self.records
            .iter()
            .rev()
            .take_while(|r| !matches!(r, Record::RunStarted { .. }))
            .any(|r| {
                matches!(r, Record::Message { agent: a, message } if a == agent && !message.tool_calls.is_empty())
            })
    }

    /// The agent whose turn it is: the last one handed to, else the one the last run began
    /// with.
    pub fn current_agent(&self) -> Option<&str> {
        self.records.iter().rev().find_map(|r| match r {
            Record::Handoff { to, .. } => Some(to.as_str()),
            Record::RunStarted { agent, .. } => Some(agent.as_str()),
            _ => None,
        })
    }

    /// The last assistant message with tool calls, its agent, and the calls of it that have no
    /// output yet (in order), if any.
    pub fn pending_calls(&self) -> Option<(String, Vec<easel_llm::ToolCall>)> {
        let mut answered = HashSet::new();
        for r in self.records.iter().rev() {
            let Record::Message { agent, message } = r else {
                continue;
            };
            match message.role {
                Role::Tool => {
                    if let Some(id) = &message.tool_call_id {
                        answered.insert(id.clone());
                    }
                }
                Role::Assistant => {
                    let open: Vec<_> = message
                        .tool_calls
                        .iter()
                        .filter(|c| !answered.contains(&c.id))
                        .cloned()
                        .collect();
                    return (!open.is_empty()).then(|| (agent.clone(), open));
                }
                _ => return None,
            }
        }
        None
    }

    /// Whether the call `id` was started (and so must not run again).
    pub fn was_started(&self, id: &str) -> bool {
        self.records
            .iter()
            .any(|r| matches!(r, Record::CallStarted { id: i, .. } if i == id))
    }

    /// Whether a handoff was made by one of `ids` (the calls of one response): the first
    /// handoff of a response wins.
    pub fn handed_off_in(&self, ids: &[String]) -> bool {
        self.records.iter().any(|r| match r {
            Record::Message { message, .. } => {
                message.role == Role::Tool
                    && message
                        .tool_call_id
                        .as_ref()
                        .is_some_and(|id| ids.contains(id))
                    && message.text().starts_with(HANDOFF_OUTPUT)
            }
            _ => false,
        })
    }
}

/// How a successful handoff's tool output begins.
pub const HANDOFF_OUTPUT: &str = "transferred to ";

fn session_path(vault_root: &Path, id: &str) -> Result<PathBuf, AgentError> {
    if !valid_id(id) {
        return Err(AgentError::BadSession {
            id: id.to_string(),
            reason: "a session id has only letters, digits, '-' and '_'".into(),
        });
    }
    let dir = vault_root.join(SESSIONS_DIR);
    // The sessions folder must be the vault's own: a link would send the conversation (and
    // the waiting approvals) somewhere else.
    for d in [vault_root.join(".easel"), dir.clone()] {
        if std::fs::symlink_metadata(&d).is_ok_and(|m| m.file_type().is_symlink()) {
            return Err(AgentError::BadSession {
                id: id.to_string(),
                reason: format!("'{}' is a link", d.display()),
            });
        }
    }
    Ok(dir.join(format!("{id}.jsonl")))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn a_session_is_read_back_as_written_and_a_cut_last_line_is_ignored() {
        let dir = tempfile::tempdir().unwrap();
        let mut s = Session::create(dir.path()).unwrap();
        s.append(Record::RunStarted {
            run: "r1".into(),
            agent: "a".into(),
            input: "hi".into(),
        })
        .unwrap();
        s.append(Record::Message {
            agent: "a".into(),
            message: Message::user("hi"),
        })
        .unwrap();
        let path = dir
            .path()
            .join(SESSIONS_DIR)
            .join(format!("{}.jsonl", s.id()));
        let mut f = std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .unwrap();
        f.write_all(b"{\"time\":\"2026").unwrap();
        let back = Session::open(dir.path(), s.id()).unwrap();
        assert_eq!(back.records(), s.records());
        assert_eq!(back.current_agent(), Some("a"));
        assert_eq!(back.history(), vec![Message::user("hi")]);
    }

    #[test]
    fn session_ids_cannot_leave_the_sessions_folder() {
        let dir = tempfile::tempdir().unwrap();
        for bad in ["../x", "a/b", "", "a b", &"x".repeat(65)] {
            assert!(
                matches!(
                    Session::open(dir.path(), bad),
                    Err(AgentError::BadSession { .. })
                ),
                "{bad}"
            );
        }
        assert!(matches!(
            Session::open(dir.path(), "nope"),
            Err(AgentError::UnknownSession { .. })
        ));
    }

    #[test]
    fn pending_calls_are_those_of_the_last_response_without_output() {
        let dir = tempfile::tempdir().unwrap();
        let mut s = Session::create(dir.path()).unwrap();
        let call = |id: &str| easel_llm::ToolCall {
            id: id.into(),
            name: "note_read".into(),
            arguments: "{}".into(),
        };
        let mut m = Message::assistant("");
        m.tool_calls = vec![call("c1"), call("c2")];
        s.append(Record::Message {
            agent: "a".into(),
            message: m,
        })
        .unwrap();
        s.append(Record::Message {
            agent: "a".into(),
            message: Message::tool_result("c1", "ok"),
        })
        .unwrap();
        let (agent, open) = s.pending_calls().unwrap();
        assert_eq!(agent, "a");
        assert_eq!(open, vec![call("c2")]);
    }
}
