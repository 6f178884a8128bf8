//! `easel-agent`: agents as vault files (DESIGN.md section 9).
//!
//! An agent is a Markdown file: frontmatter for its name, model, tools, handoffs and
//! permissions, the body for its instructions. Easel reads its own `.easel/agents/*.md` and,
//! unchanged, the agent files of Claude Code, VS Code and OpenCode ([`load_agents`]). An
//! agent's tools are operations of the Registry the binary gives it, script tools
//! (`.easel/tools/*.js`, run in a QuickJS sandbox) and external commands; its effect decides
//! whether a call needs approval.

mod agent;
mod error;
mod events;
pub mod load;
pub mod ops;
mod permission;
mod tool;

pub use agent::{Agent, AgentFormat, DEFAULT_MAX_TURNS, Decision, Handoff, PermissionRule};
pub use error::AgentError;
pub use events::AgentEvent;
pub use load::{LoadReport, Problem, load_agents, parse_agent};
pub use ops::register_files_ops;
pub use permission::decide;
pub use tool::{AgentTool, ToolOutput};
