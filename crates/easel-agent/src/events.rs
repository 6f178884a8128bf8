//! The events of a run (DESIGN.md section 9): what `easel agent run --json` prints, one per
//! line, and what MCP clients and the web UI receive.

use serde::Serialize;
use serde_json::Value;

/// One event of a run.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum AgentEvent {
    TextDelta {
        agent: String,
        delta: String,
    },
    ToolCall {
        agent: String,
        id: String,
        name: String,
        arguments: Value,
    },
    ToolOutput {
        agent: String,
        id: String,
        name: String,
        output: String,
        is_error: bool,
    },
    Handoff {
        from: String,
        to: String,
    },
    ApprovalNeeded {
        agent: String,
        id: String,
        name: String,
        arguments: Value,
        session: String,
    },
    Done {
        agent: String,
        output: String,
        session: String,
        run: String,
        turns: u32,
        usage: Value,
        #[serde(skip_serializing_if = "Vec::is_empty")]
        proposed: Vec<Value>,
    },
    Error {
        message: String,
        hint: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        session: Option<String>,
    },
}
