//! `easel-agent`: agents as vault files (DESIGN.md section 9).
//!
//! An agent is a Markdown file: frontmatter for its name, model, tools, handoffs and
//! permissions, the body for its instructions. Easel reads its own `.easel/agents/*.md` and,
//! unchanged, the agent files of Claude Code, VS Code and OpenCode ([`load_agents`]). An
//! agent's tools are operations of the Registry the binary gives it, script tools
//! (`.easel/tools/*.js`, run in a QuickJS sandbox) and external commands; its effect decides
//! whether a call needs approval.

mod agent;
mod command;
mod error;
mod events;
pub mod script;
mod tool;
mod tools_dir;

pub use agent::{Agent, AgentFormat, Handoff};
pub use command::CommandTool;
pub use error::AgentError;
pub use events::AgentEvent;
pub use script::{Limits, ScriptTool};
pub use tool::{AgentTool, CallOp, ToolOutput};
pub use tools_dir::{ToolSettings, ToolsConfig, ToolsConfigError, ToolsReport, load_tools};
