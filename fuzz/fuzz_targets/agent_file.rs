//! Agent files: any bytes, read as an agent file of each format, give an agent or a reason,
//! never a panic; an agent's name is always usable as a tool name suffix, and its permission
//! rules answer for any tool.
//!
//! Input: the first byte picks the format (Easel, Claude Code, VS Code, OpenCode); the rest is
//! the file's text.
#![no_main]

use easel_agent::{AgentFormat, parse_agent};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let (format, path) = match first % 4 {
        0 => (AgentFormat::Easel, ".easel/agents/fuzz.md"),
        1 => (AgentFormat::ClaudeCode, ".claude/agents/fuzz.md"),
        2 => (AgentFormat::VsCode, ".github/agents/fuzz.agent.md"),
        _ => (AgentFormat::OpenCode, ".opencode/agents/fuzz.md"),
    };
    let is_tool = |name: &str| matches!(name, "note_read" | "note_write" | "vault_search");
    if let Ok(agent) = parse_agent(text, path, format, &is_tool) {
        assert!(
            easel_agent::load::valid_name(&agent.name).is_ok(),
            "an agent was named {:?}",
            agent.name
        );
        assert!(agent.max_turns >= 1);
        for tool in ["note_read", "note_write", "bash", ""] {
            let _ = agent.decide(tool);
        }
    }
});
