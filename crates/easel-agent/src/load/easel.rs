//! Easel's own agent files, `.easel/agents/*.md`: every key of DESIGN.md section 9, and the
//! other tools' spellings of them, so that a file copied from elsewhere works here too.

use super::{Source, claude, opencode, vscode};
use crate::agent::AgentFormat;

pub(super) const SOURCE: Source = Source {
    format: AgentFormat::Easel,
    folders: &[".easel/agents"],
    stem: |file| file.strip_suffix(".md"),
    equivalents,
    permission_equivalents,
    strict_name: true,
};

/// A tool name of any of the formats Easel reads: Claude Code's first (its names are
/// capitalised, so they cannot clash), then OpenCode's, then VS Code's tool sets.
fn equivalents(name: &str) -> Option<&'static [&'static str]> {
    (claude::SOURCE.equivalents)(name)
        .or_else(|| (opencode::SOURCE.equivalents)(name))
        .or_else(|| (vscode::SOURCE.equivalents)(name))
}

fn permission_equivalents(name: &str) -> Option<&'static [&'static str]> {
    (opencode::SOURCE.permission_equivalents)(name).or_else(|| equivalents(name))
}
