//! `easel-agent`: agents as vault files (DESIGN.md section 9).
//!
//! An agent is a Markdown file: frontmatter for its name, model, tools, handoffs and
//! permissions, the body for its instructions. Easel reads its own `.easel/agents/*.md` and,
//! unchanged, the agent files of Claude Code, VS Code and OpenCode ([`load_agents`]). An
//! agent's tools are operations of the Registry the binary gives it, script tools
//! (`.easel/tools/*.js`, run in a QuickJS sandbox) and external commands; its effect decides
//! whether a call needs approval.

mod agent;
mod approval;
mod command;
pub mod doc_agent;
mod error;
mod events;
pub mod load;
mod model;
pub mod ops;
mod permission;
mod run_ops;
mod runner;
mod save;
#[doc(hidden)]
pub mod script;
#[doc(hidden)]
pub mod scripted;
mod session;
mod setup;
mod tool;
mod tool_ops;
mod tools_dir;
mod toolset;

pub use agent::{
    Agent, AgentFormat, DEFAULT_MAX_TURNS, Decision, Handoff, PermissionRule, ToolUseBehavior,
};
pub use approval::{Answer, Approver, Waiting};
pub use command::CommandTool;
pub use error::AgentError;
pub use events::AgentEvent;
pub use load::{LoadReport, Problem, load_agents, parse_agent};
pub use model::{LlmModel, Model, ModelFailure};
pub use ops::register_files_ops;
pub use permission::decide;
pub use run_ops::{
    AgentApprove, AgentApproveInput, AgentRun, AgentRunInput, AgentRunOutput, Loader,
    register_run_ops,
};
pub use runner::{Approvals, Collected, Finish, MAX_DEPTH, RunRequest, Runtime};
pub use script::{Limits, ScriptTool};
pub use session::{Record, SESSIONS_DIR, Session};
pub use setup::load_runtime;
pub use tool::{AgentTool, CallOp, ToolOutput};
pub use tools_dir::{ToolSettings, ToolsConfig, ToolsConfigError, ToolsReport, load_tools};
pub use toolset::OpTool;
