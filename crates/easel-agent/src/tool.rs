//! A tool an agent can call, whatever runs it: an operation of the Registry, a script, a
//! command, a handoff or another agent.

use easel_ops::{Ctx, Effect};
use serde_json::Value;

/// What a tool call gave back to the model: text, marked as an error or not.
#[derive(Clone, Debug, PartialEq)]
pub struct ToolOutput {
    pub text: String,
    pub is_error: bool,
}

impl ToolOutput {
    /// A result.
    pub fn ok(text: impl Into<String>) -> ToolOutput {
        ToolOutput {
            text: text.into(),
            is_error: false,
        }
    }

    /// An error, as the model sees it: the text starts with `error:`.
    pub fn error(message: impl std::fmt::Display) -> ToolOutput {
        ToolOutput {
            text: format!("error: {message}"),
            is_error: true,
        }
    }
}

impl ToolOutput {
    /// An operation's result as the model sees it: its JSON (pictures are files the JSON
    /// names), or its error with the hint.
    pub fn of(result: Result<easel_ops::OpOutput, easel_ops::OpError>) -> ToolOutput {
        match result {
            Ok(out) => ToolOutput::ok(out.json),
            Err(e) => ToolOutput::error(format!("{} ({})", e.message, e.hint)),
        }
    }
}

/// Calls an operation of the Registry by name with JSON arguments, under the approval rules
/// of the run that made the call: what a script's `ctx.call` reaches.
pub type CallOp<'a> = dyn Fn(&str, Value) -> ToolOutput + 'a;

/// A tool of an agent.
pub trait AgentTool: Send + Sync {
    /// The name the model calls it by.
    fn name(&self) -> &str;
    /// What the model is told of it.
    fn description(&self) -> &str;
    /// Its arguments, as a JSON Schema object.
    fn parameters(&self) -> Value;
    /// What a call can change: decides approvals.
    fn effect(&self) -> Effect;
    /// Runs one call. Never panics on what the model sent: bad arguments are an error output.
    fn call(&self, ctx: &Ctx, args: Value, call_op: &CallOp<'_>) -> ToolOutput;
}
