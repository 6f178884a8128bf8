//! The tools one agent is given: the operations and script tools its `tools` names (the
//! read-only operations when it names none), `transfer_to_<agent>` for each handoff and
//! `ask_<agent>` for each agent it may call as a tool.

use crate::agent::Agent;
use crate::permission::matches as glob_matches;
use crate::tool::{AgentTool, CallOp, ToolOutput};
use easel_ops::{Ctx, DynOp, Effect, Registry};
use serde_json::{Value, json};
use std::sync::Arc;

/// An operation of the Registry as an agent's tool.
pub struct OpTool {
    op: Arc<dyn DynOp>,
}

impl OpTool {
    pub fn new(op: Arc<dyn DynOp>) -> OpTool {
        OpTool { op }
    }
}

impl AgentTool for OpTool {
    fn name(&self) -> &str {
        &self.op.info().name
    }

    fn description(&self) -> &str {
        &self.op.info().description
    }

    fn parameters(&self) -> Value {
        self.op.info().input_schema.clone()
    }

    fn effect(&self) -> Effect {
        self.op.info().effect
    }

    fn call(&self, ctx: &Ctx, args: Value, _call_op: &CallOp<'_>) -> ToolOutput {
        ToolOutput::of(self.op.call_json(ctx, args))
    }
}

/// What calling a tool of the set does.
#[derive(Clone)]
pub(crate) enum Kind {
    Tool(Arc<dyn AgentTool>),
    /// Hands the conversation to this agent.
    Handoff(String),
    /// Runs this agent on a fresh history with the call's `input`.
    Ask(String),
}

/// One tool as the model sees it, and what runs it.
#[derive(Clone)]
pub(crate) struct Entry {
    pub name: String,
    pub description: String,
    pub parameters: Value,
    pub effect: Effect,
    pub kind: Kind,
}

/// An agent's tools.
#[derive(Clone, Default)]
pub(crate) struct ToolSet {
    pub entries: Vec<Entry>,
}

impl ToolSet {
    /// The tools of `agent`: from `registry` and `extra` (script and command tools) by its
    /// `tools` list, then its handoffs and agents as tools (to agents in `agents` only).
    /// `within` narrows the set to tools a calling agent may use too (`ask_<agent>`).
    pub fn of(
        agent: &Agent,
        registry: &Registry,
        extra: &[Arc<dyn AgentTool>],
        agents: &[Agent],
        within: Option<&ToolSet>,
    ) -> ToolSet {
        let mut entries = Vec::new();
        let mut candidates: Vec<Arc<dyn AgentTool>> = registry
            .ops()
            .iter()
            .map(|op| Arc::new(OpTool::new(op.clone())) as Arc<dyn AgentTool>)
            .collect();
        candidates.extend(extra.iter().cloned());
        for tool in candidates {
            let chosen = match &agent.tools {
                None => tool.effect() == Effect::Read,
                Some(patterns) => patterns.iter().any(|p| glob_matches(p, tool.name())),
            };
            if chosen && !entries.iter().any(|e: &Entry| e.name == tool.name()) {
                entries.push(Entry {
                    name: tool.name().to_string(),
                    description: tool.description().to_string(),
                    parameters: tool.parameters(),
                    effect: tool.effect(),
                    kind: Kind::Tool(tool),
                });
            }
        }
        if let Some(outer) = within {
            entries.retain(|e| outer.get(&e.name).is_some());
        }
        let find = |name: &str| agents.iter().find(|a| a.name == name && a.enabled);
        for h in &agent.handoffs {
            let Some(target) = find(&h.agent) else {
                tracing::warn!(agent = %agent.name, to = %h.agent, "handoff to an unknown or disabled agent left out");
                continue;
            };
            let about = target
                .handoff_description
                .as_deref()
                .filter(|d| !d.trim().is_empty())
                .unwrap_or(&target.description);
            entries.push(Entry {
                name: format!("transfer_to_{}", target.name),
                description: described(
                    format!("Hand the conversation to the agent '{}'", target.name),
                    about,
                ),
                parameters: json!({"type": "object", "properties": {}}),
                effect: Effect::Read,
                kind: Kind::Handoff(target.name.clone()),
            });
        }
        for name in &agent.agents_as_tools {
            let Some(target) = find(name) else {
                tracing::warn!(agent = %agent.name, tool = %name, "agent as tool unknown or disabled; left out");
                continue;
            };
            entries.push(Entry {
                name: format!("ask_{}", target.name),
                description: described(
                    format!("Ask the agent '{}' and get its answer", target.name),
                    &target.description,
                ),
                parameters: json!({
                    "type": "object",
                    "properties": {"input": {"type": "string", "description": "What to ask it, in full: it sees nothing else of this conversation."}},
                    "required": ["input"]
                }),
                effect: Effect::Read,
                kind: Kind::Ask(target.name.clone()),
            });
        }
        ToolSet { entries }
    }

    pub fn get(&self, name: &str) -> Option<&Entry> {
        self.entries.iter().find(|e| e.name == name)
    }

    /// The tools as the model is offered them.
    pub fn specs(&self) -> Vec<easel_llm::Tool> {
        self.entries
            .iter()
            .map(|e| easel_llm::Tool {
                name: e.name.clone(),
                description: e.description.clone(),
                parameters: e.parameters.clone(),
            })
            .collect()
    }

    pub fn names(&self) -> Vec<&str> {
        self.entries.iter().map(|e| e.name.as_str()).collect()
    }
}

/// A tool's description: what it does, then what the agent it reaches is for, when that agent
/// says (an agent with no description would leave a dangling colon for the model to read).
fn described(what: String, about: &str) -> String {
    match about.trim() {
        "" => format!("{what}."),
        about => format!("{what}: {about}"),
    }
}
