//! The board's state, `.codecanvas/state.json`: evidence, claims, decisions, focus and task.
//!
//! The file is changed only through [`easel_vault::Vault::modify`] on a vault rooted at
//! `.codecanvas/`: the read happens under the file's lock, the write is atomic, and every change
//! lands in `.codecanvas/.easel/ledger.jsonl` with the old bytes kept, so two agents (or an agent
//! and a hook) never lose each other's entries, and a bad change can be undone.

use super::error::BoardError;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// The version of the file's shape; a newer file is refused rather than misread.
pub const STATE_VERSION: u32 = 1;
/// The board file, relative to `.codecanvas/`.
pub const STATE_FILE: &str = "state.json";

/// What an evidence item shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EvidenceKind {
    Architecture,
    Impact,
}

/// An analysis result kept on the board: E1, E2, …
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Evidence {
    pub id: String,
    pub kind: EvidenceKind,
    /// The analysed symbol's qualified name (impact evidence).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub symbol: Option<String>,
    /// Counts: files, lines, modules, … for architecture; depth, callers, callees,
    /// blast_radius for impact.
    pub metrics: BTreeMap<String, u64>,
    /// The rendered view, relative to the repository root.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image: Option<String>,
    /// A digest of everything the view of this evidence draws (architecture evidence): when a
    /// new build would draw the same, the evidence and its pictures still hold.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub view: Option<String>,
    pub created: jiff::Timestamp,
}

/// What a claim asserts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ClaimKind {
    Hypothesis,
    Finding,
    Question,
}

/// What a decision commits to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DecisionKind {
    Plan,
    Test,
    Edit,
    Mark,
    Skip,
}

impl ClaimKind {
    pub const NAMES: [&'static str; 3] = ["hypothesis", "finding", "question"];

    pub fn parse(s: Option<&str>) -> Result<ClaimKind, BoardError> {
        match s.map(|s| s.trim().to_lowercase()).as_deref() {
            None | Some("") | Some("hypothesis") => Ok(ClaimKind::Hypothesis),
            Some("finding") => Ok(ClaimKind::Finding),
            Some("question") => Ok(ClaimKind::Question),
            Some(other) => Err(BoardError::BadKind {
                what: "claim",
                given: other.to_string(),
                allowed: Self::NAMES.to_vec(),
            }),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            ClaimKind::Hypothesis => "hypothesis",
            ClaimKind::Finding => "finding",
            ClaimKind::Question => "question",
        }
    }
}

impl DecisionKind {
    /// The kinds `decide` takes; mark and skip have their own actions.
    pub const DECIDE_NAMES: [&'static str; 3] = ["plan", "test", "edit"];

    pub fn parse_decide(s: Option<&str>) -> Result<DecisionKind, BoardError> {
        match s.map(|s| s.trim().to_lowercase()).as_deref() {
            None | Some("") | Some("plan") => Ok(DecisionKind::Plan),
            Some("test") => Ok(DecisionKind::Test),
            Some("edit") => Ok(DecisionKind::Edit),
            Some(other) => Err(BoardError::BadKind {
                what: "decision",
                given: other.to_string(),
                allowed: Self::DECIDE_NAMES.to_vec(),
            }),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            DecisionKind::Plan => "plan",
            DecisionKind::Test => "test",
            DecisionKind::Edit => "edit",
            DecisionKind::Mark => "mark",
            DecisionKind::Skip => "skip",
        }
    }
}

/// A hypothesis, finding or question: C1, C2, …
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Claim {
    pub id: String,
    pub kind: ClaimKind,
    pub text: String,
    /// The evidence that was newest when the claim was made.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub evidence: Option<String>,
    pub created: jiff::Timestamp,
}

/// A plan, test, edit, mark or skip: D1, D2, …
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Decision {
    pub id: String,
    pub kind: DecisionKind,
    pub text: String,
    /// The symbol a mark or skip is about (qualified name).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub symbol: Option<String>,
    /// Its node id, which progress counts by.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub node: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub evidence: Option<String>,
    pub created: jiff::Timestamp,
}

/// A node a change to the focused symbol may affect.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Affected {
    pub node: String,
    pub qualname: String,
    /// `file:line`.
    pub location: String,
}

/// The symbol under analysis, set by `impact`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Focus {
    pub symbol: String,
    pub node: String,
    pub evidence: String,
    /// The symbol itself, then its blast radius, nearest first.
    pub affected: Vec<Affected>,
}

/// The selected task from `tasks.yaml`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TaskRef {
    pub id: String,
    pub title: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub symbols: Vec<String>,
}

/// Everything on the board.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct State {
    pub version: u32,
    pub evidence: Vec<Evidence>,
    pub claims: Vec<Claim>,
    pub decisions: Vec<Decision>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub focus: Option<Focus>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task: Option<TaskRef>,
    /// The most-called function at the last init: what `Next:` suggests analysing first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suggested: Option<String>,
}

impl Default for State {
    fn default() -> State {
        State {
            version: STATE_VERSION,
            evidence: Vec::new(),
            claims: Vec::new(),
            decisions: Vec::new(),
            focus: None,
            task: None,
            suggested: None,
        }
    }
}

impl State {
    /// Parses the bytes of `state.json` (`path` is for the error).
    pub fn parse(bytes: &[u8], path: &Path) -> Result<State, BoardError> {
        let state: State = serde_json::from_slice(bytes).map_err(|e| BoardError::Damaged {
            path: path.to_path_buf(),
            reason: e.to_string(),
        })?;
        if state.version > STATE_VERSION {
            return Err(BoardError::Damaged {
                path: path.to_path_buf(),
                reason: format!(
                    "it was written by a newer Easel (format {}, this one reads {STATE_VERSION})",
                    state.version
                ),
            });
        }
        Ok(state)
    }

    pub fn to_bytes(&self, path: &Path) -> Result<Vec<u8>, BoardError> {
        let mut v = serde_json::to_vec_pretty(self).map_err(|e| BoardError::Damaged {
            path: path.to_path_buf(),
            reason: format!("cannot encode the board: {e}"),
        })?;
        v.push(b'\n');
        Ok(v)
    }

    /// The id the next item gets: one more than the highest so far, so ids stay unique even
    /// if someone edits the file by hand and removes an entry.
    fn next_id<'a>(prefix: &str, ids: impl Iterator<Item = &'a str>) -> String {
        let max = ids
            .filter_map(|id| id.strip_prefix(prefix)?.parse::<u64>().ok())
            .max()
            .unwrap_or(0);
        format!("{prefix}{}", max + 1)
    }

    pub fn next_evidence_id(&self) -> String {
        Self::next_id("E", self.evidence.iter().map(|e| e.id.as_str()))
    }

    pub fn next_claim_id(&self) -> String {
        Self::next_id("C", self.claims.iter().map(|e| e.id.as_str()))
    }

    pub fn next_decision_id(&self) -> String {
        Self::next_id("D", self.decisions.iter().map(|e| e.id.as_str()))
    }

    /// The newest evidence, which new claims and decisions link to.
    pub fn latest_evidence(&self) -> Option<&Evidence> {
        self.evidence.last()
    }

    /// Node ids that a mark or skip decision addressed.
    fn addressed_nodes(&self) -> std::collections::HashSet<&str> {
        self.decisions
            .iter()
            .filter(|d| matches!(d.kind, DecisionKind::Mark | DecisionKind::Skip))
            .filter_map(|d| d.node.as_deref())
            .collect()
    }

    /// Addressed and total affected nodes of the focus.
    pub fn progress(&self) -> Option<(usize, usize)> {
        let focus = self.focus.as_ref()?;
        let done = self.addressed_nodes();
        let n = focus
            .affected
            .iter()
            .filter(|a| done.contains(a.node.as_str()))
            .count();
        Some((n, focus.affected.len()))
    }

    /// Affected nodes of the focus that no mark or skip addressed yet, nearest first.
    pub fn unaddressed(&self) -> Vec<&Affected> {
        let Some(focus) = &self.focus else {
            return Vec::new();
        };
        let done = self.addressed_nodes();
        focus
            .affected
            .iter()
            .filter(|a| !done.contains(a.node.as_str()))
            .collect()
    }

    /// Whether a mark or skip addressed this node.
    pub fn is_addressed(&self, node: &str) -> bool {
        self.addressed_nodes().contains(node)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn affected(n: &str) -> Affected {
        Affected {
            node: n.into(),
            qualname: n.into(),
            location: "a.py:1".into(),
        }
    }

    #[test]
    fn ids_continue_after_the_highest_even_with_gaps() {
        let mut s = State::default();
        assert_eq!(s.next_claim_id(), "C1");
        for id in ["C1", "C7"] {
            s.claims.push(Claim {
                id: id.into(),
                kind: ClaimKind::Finding,
                text: "x".into(),
                evidence: None,
                created: jiff::Timestamp::UNIX_EPOCH,
            });
        }
        assert_eq!(s.next_claim_id(), "C8");
    }

    #[test]
    fn progress_counts_marks_and_skips_of_affected_nodes_only() {
        let mut s = State {
            focus: Some(Focus {
                symbol: "f".into(),
                node: "a".into(),
                evidence: "E1".into(),
                affected: vec![affected("a"), affected("b"), affected("c")],
            }),
            ..State::default()
        };
        assert_eq!(s.progress(), Some((0, 3)));
        for (kind, node) in [
            (DecisionKind::Mark, "b"),
            (DecisionKind::Skip, "c"),
            (DecisionKind::Plan, "a"),
            (DecisionKind::Mark, "elsewhere"),
        ] {
            s.decisions.push(Decision {
                id: s.next_decision_id(),
                kind,
                text: String::new(),
                symbol: None,
                node: Some(node.into()),
                evidence: None,
                created: jiff::Timestamp::UNIX_EPOCH,
            });
        }
        assert_eq!(s.progress(), Some((2, 3)));
        assert_eq!(s.unaddressed()[0].node, "a");
    }

    #[test]
    fn kinds_default_and_refuse_unknown_words() {
        assert_eq!(ClaimKind::parse(None).unwrap(), ClaimKind::Hypothesis);
        assert_eq!(
            ClaimKind::parse(Some("Finding")).unwrap(),
            ClaimKind::Finding
        );
        assert!(ClaimKind::parse(Some("guess")).is_err());
        assert_eq!(
            DecisionKind::parse_decide(Some("test")).unwrap(),
            DecisionKind::Test
        );
        assert!(DecisionKind::parse_decide(Some("mark")).is_err());
    }

    #[test]
    fn newer_or_broken_files_are_refused() {
        let p = Path::new("state.json");
        assert!(State::parse(b"{", p).is_err());
        let s = State {
            version: STATE_VERSION + 1,
            ..State::default()
        };
        assert!(State::parse(&s.to_bytes(p).unwrap(), p).is_err());
        let ok = State::default();
        assert_eq!(State::parse(&ok.to_bytes(p).unwrap(), p).unwrap(), ok);
    }
}
