//! What an agent is, whichever file format it was read from.

use serde::Serialize;
use serde_json::{Map, Value};

/// The agent file formats Easel reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum AgentFormat {
    /// `.easel/agents/*.md`.
    Easel,
    /// Claude Code's `.claude/agents/*.md`.
    ClaudeCode,
    /// VS Code's `.github/agents/*.agent.md`.
    VsCode,
    /// OpenCode's `.opencode/agents/*.md`.
    OpenCode,
}

/// A handoff an agent may make: to another agent, with VS Code's optional button label and
/// the prompt that goes with it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Handoff {
    pub agent: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prompt: Option<String>,
    /// VS Code's `send`: the prompt goes out at once instead of being offered for editing.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub send: bool,
}

impl Handoff {
    /// A handoff to `agent` with no label or prompt.
    pub fn to(agent: impl Into<String>) -> Handoff {
        Handoff {
            agent: agent.into(),
            label: None,
            prompt: None,
            send: false,
        }
    }
}

/// Whether a tool call may run: OpenCode's `permission` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Decision {
    Allow,
    Ask,
    Deny,
}

/// One permission rule: a tool name glob and what it decides.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PermissionRule {
    pub pattern: String,
    pub decision: Decision,
}

/// What happens after a tool's output, as the OpenAI Agents SDK's `tool_use_behavior`.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ToolUseBehavior {
    /// The output goes back to the model, which answers or calls again.
    #[default]
    RunLlmAgain,
    /// The first tool output that is not an error is the run's answer: no further model call.
    /// For small models that would otherwise call the same tool again and again.
    StopOnFirstTool,
    /// The output of one of these tools, when not an error, is the run's answer.
    StopAtTools(Vec<String>),
}

impl ToolUseBehavior {
    /// Whether a successful output of `tool` ends the run. Handoffs never do: the next agent
    /// answers.
    pub fn stops_at(&self, tool: &str) -> bool {
        if tool.starts_with("transfer_to_") {
            return false;
        }
        match self {
            ToolUseBehavior::RunLlmAgain => false,
            ToolUseBehavior::StopOnFirstTool => true,
            ToolUseBehavior::StopAtTools(names) => names.iter().any(|n| n == tool),
        }
    }
}

/// An agent, read from its file.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Agent {
    /// The name it is called by (the file stem unless the frontmatter names it).
    pub name: String,
    pub description: String,
    /// Model names in fallback order; empty means the configured default.
    pub model: Vec<String>,
    /// Tool names and globs (`canvas_*`); `None` means the read-only operations.
    pub tools: Option<Vec<String>>,
    pub handoffs: Vec<Handoff>,
    /// What a `transfer_to_<name>` tool says of this agent (else its description).
    pub handoff_description: Option<String>,
    /// Agents this one may call as tools (`ask_<name>`).
    pub agents_as_tools: Vec<String>,
    pub max_turns: u32,
    pub temperature: Option<f32>,
    /// The longest answer of one model call, in tokens (default [`DEFAULT_MAX_TOKENS`]).
    pub max_tokens: Option<u32>,
    /// Whether the model must call a tool (`required`, or one tool by name) until this agent
    /// has used one in the run; then it decides again, as the OpenAI Agents SDK's
    /// `reset_tool_choice` does, so a forced call cannot repeat forever.
    pub tool_choice: Option<easel_llm::ToolChoice>,
    /// What a tool's output does: goes back to the model (the default), or ends the run as its
    /// answer, as the OpenAI Agents SDK's `tool_use_behavior`.
    pub tool_use_behavior: ToolUseBehavior,
    pub enabled: bool,
    /// Rules by tool name glob; the last one that matches decides.
    pub permission: Vec<PermissionRule>,
    /// The body of the file: the system message.
    pub instructions: String,
    /// The file, relative to the vault.
    pub path: String,
    pub format: AgentFormat,
    /// What was left out or changed while reading the file (a tool name with no equivalent).
    pub warnings: Vec<String>,
    /// Frontmatter keys Easel does not use (Claude Code's `color`, VS Code's `argument-hint`,
    /// OpenCode's `mode`, ...), kept as read so that nothing in the file is lost from view.
    #[serde(skip_serializing_if = "Map::is_empty")]
    pub extra: Map<String, Value>,
}

/// The longest answer of one model call when the agent's file does not say: a small model
/// that repeats itself stops here rather than at the end of its context.
pub const DEFAULT_MAX_TOKENS: u32 = 2048;

/// The turns an agent gets when its file does not say.
pub const DEFAULT_MAX_TURNS: u32 = 10;

impl Agent {
    /// An agent with the defaults of DESIGN.md section 9, for `name`.
    pub fn new(name: impl Into<String>, instructions: impl Into<String>) -> Agent {
        Agent {
            name: name.into(),
            description: String::new(),
            model: Vec::new(),
            tools: None,
            handoffs: Vec::new(),
            handoff_description: None,
            agents_as_tools: Vec::new(),
            max_turns: DEFAULT_MAX_TURNS,
            temperature: None,
            max_tokens: None,
            tool_choice: None,
            tool_use_behavior: ToolUseBehavior::RunLlmAgain,
            enabled: true,
            permission: Vec::new(),
            instructions: instructions.into(),
            path: String::new(),
            format: AgentFormat::Easel,
            warnings: Vec::new(),
            extra: Map::new(),
        }
    }
}
