//! `agent_tool_list` and `agent_tool_call`: the vault's script and command tools for the agent
//! editor, which lists them with their source and lets a person try one.

use crate::tool::ToolOutput;
use crate::tools_dir::{ToolsConfig, load_tools};
use easel_ops::{Ctx, Effect, Op, OpError, Registry};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// `agent_tool_list`'s input: nothing.
#[derive(Clone, Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ToolListInput {}

/// One script or command tool.
#[derive(Clone, Debug, Serialize)]
pub struct ToolInfo {
    pub name: String,
    pub description: String,
    /// Its arguments, a JSON Schema object.
    pub parameters: Value,
    /// What a call can change: read, write, destructive or external.
    pub effect: Effect,
    /// The file, relative to the vault.
    pub path: String,
    /// The file's text.
    pub source: String,
}

/// A tool file that cannot be used, with the reason.
#[derive(Clone, Debug, Serialize)]
pub struct ToolProblem {
    pub path: String,
    pub reason: String,
}

/// `agent_tool_list`'s output.
#[derive(Clone, Debug, Serialize)]
pub struct ToolListOutput {
    pub tools: Vec<ToolInfo>,
    pub problems: Vec<ToolProblem>,
}

/// List the vault's script and command tools.
#[derive(Clone, Debug, Default)]
pub struct AgentToolList;

fn config(ctx: &Ctx) -> Result<ToolsConfig, OpError> {
    ToolsConfig::from_vault(ctx.vault().root())
        .map_err(|e| OpError::new(e.kind(), e.to_string(), e.hint()))
}

fn relative(ctx: &Ctx, p: &std::path::Path) -> String {
    p.strip_prefix(ctx.vault().root())
        .unwrap_or(p)
        .to_string_lossy()
        .replace('\\', "/")
}

impl Op for AgentToolList {
    type Input = ToolListInput;
    type Output = ToolListOutput;
    const NAME: &'static str = "agent_tool_list";
    const TITLE: &'static str = "List the script tools";
    const DESCRIPTION: &'static str = "List the vault's own tools, which agents can be given by name: JavaScript tools (.easel/tools/<name>.js) and external commands (.easel/tools/<name>.toml), each with its description, argument schema, effect and source. \
Files that cannot be used are listed under 'problems' with the reason. Try one with agent_tool_call.\n\
Example: {}";
    const EFFECT: Effect = Effect::Read;
    const IDEMPOTENT: bool = true;

    fn run(&self, ctx: &Ctx, _input: ToolListInput) -> Result<ToolListOutput, OpError> {
        let report = load_tools(ctx.vault().root(), &config(ctx)?);
        let dir = ctx.vault().root().join(".easel/tools");
        let tools = report
            .tools
            .iter()
            .map(|t| {
                let file = ["js", "toml"]
                    .iter()
                    .map(|ext| dir.join(format!("{}.{ext}", t.name())))
                    .find(|p| p.is_file());
                let (path, source) = match file {
                    Some(p) => (
                        relative(ctx, &p),
                        std::fs::read_to_string(&p).unwrap_or_default(),
                    ),
                    None => (String::new(), String::new()),
                };
                ToolInfo {
                    name: t.name().to_owned(),
                    description: t.description().to_owned(),
                    parameters: t.parameters(),
                    effect: t.effect(),
                    path,
                    source,
                }
            })
            .collect();
        let problems = report
            .problems
            .iter()
            .map(|(p, reason)| ToolProblem {
                path: relative(ctx, p),
                reason: reason.clone(),
            })
            .collect();
        Ok(ToolListOutput { tools, problems })
    }
}

/// `agent_tool_call`'s input.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ToolCallInput {
    /// The tool's name, as `agent_tool_list` gives it.
    pub name: String,
    /// Its arguments, an object matching its schema.
    #[serde(default)]
    pub arguments: Option<Value>,
}

/// `agent_tool_call`'s output.
#[derive(Clone, Debug, Serialize)]
pub struct ToolCallOutput {
    /// What the tool returned (its error message when `is_error`).
    pub output: String,
    pub is_error: bool,
}

/// Run one script or command tool, as a person trying it.
#[derive(Clone)]
pub struct AgentToolCall {
    registry: Registry,
}

impl AgentToolCall {
    /// `registry` holds the operations a tool's `ctx.call` may reach (read-only ones only).
    pub fn new(registry: Registry) -> AgentToolCall {
        AgentToolCall { registry }
    }
}

impl Op for AgentToolCall {
    type Input = ToolCallInput;
    type Output = ToolCallOutput;
    const NAME: &'static str = "agent_tool_call";
    const TITLE: &'static str = "Try a script tool";
    const DESCRIPTION: &'static str = "Run one of the vault's script or command tools with arguments and return its output, to try it before giving it to an agent. \
The tool runs under its usual limits; its ctx.call reaches read-only operations only (a tool that changes files does so when an agent calls it, under that agent's approvals). \
A tool error comes back as output with is_error true.\n\
Example: {\"name\": \"word_count\", \"arguments\": {\"text\": \"one two three\"}}";
    const EFFECT: Effect = Effect::Write;

    fn run(&self, ctx: &Ctx, input: ToolCallInput) -> Result<ToolCallOutput, OpError> {
        let report = load_tools(ctx.vault().root(), &config(ctx)?);
        let Some(tool) = report.tools.iter().find(|t| t.name() == input.name.trim()) else {
            let known: Vec<&str> = report.tools.iter().map(|t| t.name()).collect();
            return Err(OpError::not_found(
                format!("no script or command tool '{}'", input.name.trim()),
                if known.is_empty() {
                    "write one as .easel/tools/<name>.js; `agent_tool_list` lists the tools and any file that cannot be used".to_owned()
                } else {
                    format!("the tools are: {}", known.join(", "))
                },
            ));
        };
        let args = input
            .arguments
            .unwrap_or_else(|| Value::Object(serde_json::Map::new()));
        let call_op = |name: &str, a: Value| -> ToolOutput {
            match self.registry.get(name) {
                Some(op) if op.info().effect == Effect::Read => {
                    ToolOutput::of(self.registry.call(ctx, name, a))
                }
                Some(_) => ToolOutput::error(format!(
                    "trying a tool reaches read-only operations only; '{name}' changes the vault: give the tool to an agent to run it under approvals"
                )),
                None => ToolOutput::of(Err(self.registry.unknown(name))),
            }
        };
        let out = tool.call(ctx, args, &call_op);
        Ok(ToolCallOutput {
            output: out.text,
            is_error: out.is_error,
        })
    }
}
