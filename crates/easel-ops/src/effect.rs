//! What an operation does to the world, which decides approvals and MCP annotations.

use serde::{Deserialize, Serialize};

/// What running an operation can change.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Effect {
    /// Reads the vault; changes nothing.
    Read,
    /// Adds to the vault or changes it without losing anything that was there (a new canvas, a
    /// node added).
    Write,
    /// Overwrites or deletes something (a node's fields, a whole canvas, an undo). The ledger
    /// keeps the old bytes, but a client should still ask before doing it.
    Destructive,
    /// Calls out of the process: a model, the network. May cost money and sees the data sent.
    External,
}

impl Effect {
    /// The effect as one word.
    pub fn as_str(self) -> &'static str {
        match self {
            Effect::Read => "read",
            Effect::Write => "write",
            Effect::Destructive => "destructive",
            Effect::External => "external",
        }
    }

    /// Whether the operation never changes anything (MCP's `readOnlyHint`).
    pub fn is_read_only(self) -> bool {
        self == Effect::Read
    }

    /// Whether the operation may overwrite or delete (MCP's `destructiveHint`).
    pub fn is_destructive(self) -> bool {
        self == Effect::Destructive
    }

    /// Whether the operation reaches outside the vault (MCP's `openWorldHint`).
    pub fn is_open_world(self) -> bool {
        self == Effect::External
    }
}

impl std::fmt::Display for Effect {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
