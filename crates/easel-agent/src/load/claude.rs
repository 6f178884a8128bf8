//! Claude Code's subagents, `.claude/agents/*.md`: `tools` as a comma-separated string
//! ("Read, Grep, Glob"), `model: inherit`, `maxTurns`, `disallowedTools`.

use super::Source;
use crate::agent::AgentFormat;

pub(super) const SOURCE: Source = Source {
    format: AgentFormat::ClaudeCode,
    folders: &[".claude/agents"],
    stem: |file| file.strip_suffix(".md"),
    equivalents,
    permission_equivalents: equivalents,
    strict_name: false,
};

/// The operations a Claude Code tool stands for. `Bash`, `WebFetch`, `WebSearch`, `Task`,
/// `TodoWrite`, `NotebookEdit` have none: they reach outside the vault or into Claude Code.
fn equivalents(name: &str) -> Option<&'static [&'static str]> {
    Some(match name {
        "Read" => &["note_read"],
        "Grep" => &["vault_search"],
        "Glob" | "LS" => &["vault_list"],
        "Edit" | "MultiEdit" => &["note_edit"],
        "Write" => &["note_write"],
        _ => return None,
    })
}
