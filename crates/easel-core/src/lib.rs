//! The vocabulary every Easel crate shares: what kind of failure happened ([`ErrorKind`]), what
//! to tell the user about it ([`Diagnostic`]), who made a change ([`Actor`]) and which run it
//! belonged to ([`RunId`]).
//!
//! This crate does no IO and depends on nothing but `serde`, so that the pure crates
//! (`easel-canvas`, `easel-llm`'s types) can speak the same language as the vault and the front
//! ends without pulling them in.
//!
//! Hints name *operations*, not commands: a hint is plain text in which an operation's name is
//! written between backticks (`` run `canvas_list` to see the canvases ``). Each front end spells
//! those names its own way with [`spell_hint`]: the shell as `'easel canvas list'`, MCP as
//! `canvas_list`, HTTP as `POST /api/ops/canvas_list`.
//!
//! ```
//! use easel_core::{Diagnostic, ErrorKind, spell_hint};
//!
//! let d = Diagnostic::new("canvas not found: Plan.canvas", "run `canvas_list` to see the canvases");
//! let shell = spell_hint(&d.hint, |op| (op == "canvas_list").then(|| "'easel canvas list'".to_string()));
//! assert_eq!(shell, "run 'easel canvas list' to see the canvases");
//! assert_eq!(ErrorKind::NotFound.exit_code(), 3);
//! ```

use std::fmt;
use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

/// The class of a failure, shared by every front end so that one failure has one meaning
/// wherever it surfaces: the exit code on the shell, the HTTP status, the `kind` of an MCP
/// error payload.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorKind {
    /// Something went wrong that the caller cannot fix by changing the request (exit code 1).
    Failure,
    /// The command was used wrongly (exit code 2).
    Usage,
    /// A file, vault, ledger entry, run, agent or operation does not exist (exit code 3).
    NotFound,
    /// The file changed since it was read, already exists, or is busy (exit code 4).
    Conflict,
    /// The input itself is unacceptable, e.g. a path outside the vault (exit code 5).
    Invalid,
    /// The work stopped to wait for a person's approval (exit code 6).
    Waiting,
}

impl ErrorKind {
    /// Every kind, in exit-code order.
    pub const ALL: [ErrorKind; 6] = [
        ErrorKind::Failure,
        ErrorKind::Usage,
        ErrorKind::NotFound,
        ErrorKind::Conflict,
        ErrorKind::Invalid,
        ErrorKind::Waiting,
    ];

    /// The process exit code DESIGN section 5 assigns to this class.
    pub fn exit_code(self) -> i32 {
        match self {
            ErrorKind::Failure => 1,
            ErrorKind::Usage => 2,
            ErrorKind::NotFound => 3,
            ErrorKind::Conflict => 4,
            ErrorKind::Invalid => 5,
            ErrorKind::Waiting => 6,
        }
    }

    /// The HTTP status of DESIGN section 15 (`400/404/409/422/500`; waiting is `202`, since the
    /// request was taken and needs a person before it can go on).
    pub fn http_status(self) -> u16 {
        match self {
            ErrorKind::Failure => 500,
            ErrorKind::Usage => 400,
            ErrorKind::NotFound => 404,
            ErrorKind::Conflict => 409,
            ErrorKind::Invalid => 422,
            ErrorKind::Waiting => 202,
        }
    }

    /// The kind as one word (`not_found`, `conflict`, ...), as it appears in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorKind::Failure => "failure",
            ErrorKind::Usage => "usage",
            ErrorKind::NotFound => "not_found",
            ErrorKind::Conflict => "conflict",
            ErrorKind::Invalid => "invalid",
            ErrorKind::Waiting => "waiting",
        }
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What to tell a person (or a model) about a failure: what happened, and what to do next.
///
/// The hint names operations between backticks; see the crate documentation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Diagnostic {
    /// What happened, as one sentence without a trailing period.
    pub message: String,
    /// What to do next, as one sentence, operations in backticks.
    pub hint: String,
}

impl Diagnostic {
    /// A diagnostic from its two parts.
    pub fn new(message: impl Into<String>, hint: impl Into<String>) -> Diagnostic {
        Diagnostic {
            message: message.into(),
            hint: hint.into(),
        }
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}\nhint: {}", self.message, self.hint)
    }
}

/// Anything that can say what kind of failure it is and what to do about it. Every library error
/// of Easel implements it, so front ends need no table of error types.
pub trait Diagnose: std::error::Error {
    /// The failure's class.
    fn kind(&self) -> ErrorKind;
    /// What to do next, operations in backticks.
    fn hint(&self) -> String;
    /// The message and the hint together.
    fn diagnostic(&self) -> Diagnostic {
        Diagnostic::new(self.to_string(), self.hint())
    }
}

/// Rewrites every `` `name` `` in `hint` for which `spell` gives a spelling; other backticked
/// text (a flag, a file name) is left as it is.
pub fn spell_hint(hint: &str, spell: impl Fn(&str) -> Option<String>) -> String {
    let mut out = String::with_capacity(hint.len() + 16);
    let mut rest = hint;
    while let Some(open) = rest.find('`') {
        let after = &rest[open + 1..];
        let Some(close) = after.find('`') else { break };
        let name = &after[..close];
        out.push_str(&rest[..open]);
        match spell(name) {
            Some(spelled) => out.push_str(&spelled),
            None => {
                out.push('`');
                out.push_str(name);
                out.push('`');
            }
        }
        rest = &after[close + 1..];
    }
    out.push_str(rest);
    out
}

/// The operation names a hint mentions, in order.
pub fn hint_operations(hint: &str) -> Vec<&str> {
    hint.split('`')
        .skip(1)
        .step_by(2)
        .filter(|s| is_operation_name(s))
        .collect()
}

/// Whether `s` has the shape of an operation name: `area_verb`, lowercase snake case, or one of
/// the single-word operations (the code board's `canvas`).
pub fn is_operation_name(s: &str) -> bool {
    !s.is_empty()
        && s.starts_with(|c: char| c.is_ascii_lowercase())
        && s.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

/// Who makes a change, as the ledger records it: `cli`, `mcp:<client>`, `agent:<name>`,
/// `thread` or `http`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Actor(String);

impl Actor {
    /// An actor by name.
    pub fn new(name: impl Into<String>) -> Actor {
        Actor(name.into())
    }

    /// The command line.
    pub fn cli() -> Actor {
        Actor::new("cli")
    }

    /// An MCP client, by the name it gave in its handshake.
    pub fn mcp(client: &str) -> Actor {
        Actor(format!("mcp:{client}"))
    }

    /// An agent, by its name.
    pub fn agent(name: &str) -> Actor {
        Actor(format!("agent:{name}"))
    }

    /// The name as the ledger writes it.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Actor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Groups the changes of one command, answer or agent run, so that `easel undo --run` takes them
/// back together. Ids sort by creation time: 12 hex digits of milliseconds, then 8 random ones.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct RunId(String);

impl RunId {
    /// A fresh run id.
    pub fn new() -> RunId {
        let ms = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_millis())
            .unwrap_or(0);
        let ms = u64::try_from(ms).unwrap_or(0) & 0xffff_ffff_ffff;
        RunId(format!("{ms:012x}{:08x}", fastrand::u32(..)))
    }

    /// A run id given by a caller (a session, a client).
    pub fn from_string(id: impl Into<String>) -> RunId {
        RunId(id.into())
    }

    /// The id as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl Default for RunId {
    fn default() -> RunId {
        RunId::new()
    }
}

impl fmt::Display for RunId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exit_codes_match_design_section_5() {
        let codes: Vec<i32> = ErrorKind::ALL.iter().map(|k| k.exit_code()).collect();
        assert_eq!(codes, [1, 2, 3, 4, 5, 6]);
    }

    #[test]
    fn kinds_serialise_as_their_word() {
        for kind in ErrorKind::ALL {
            let json = serde_json::to_string(&kind).unwrap_or_default();
            assert_eq!(json, format!("\"{}\"", kind.as_str()));
        }
    }

    #[test]
    fn hints_spell_known_operations_and_leave_other_code_alone() {
        let hint = "run `canvas_list`, then `canvas_read` with `--rev` or `x.md`";
        let spelled = spell_hint(hint, |op| {
            op.starts_with("canvas_")
                .then(|| format!("'easel canvas {}'", &op[7..]))
        });
        assert_eq!(
            spelled,
            "run 'easel canvas list', then 'easel canvas read' with `--rev` or `x.md`"
        );
        assert_eq!(hint_operations(hint), ["canvas_list", "canvas_read"]);
        // An unmatched backtick is text.
        assert_eq!(spell_hint("a ` b", |_| Some("x".into())), "a ` b");
    }

    #[test]
    fn run_ids_are_twenty_hex_digits_and_differ() {
        let (a, b) = (RunId::new(), RunId::new());
        assert_eq!(a.as_str().len(), 20);
        assert!(a.as_str().chars().all(|c| c.is_ascii_hexdigit()));
        assert_ne!(a, b);
    }
}
