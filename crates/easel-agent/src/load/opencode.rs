//! OpenCode's agents, `.opencode/agents/*.md` (and the older `.opencode/agent/`): `tools` as
//! a `{name: bool}` map, `permission` with nested per-argument rules, `maxSteps`, `disable`,
//! and models written `provider/model`.

use super::Source;
use crate::agent::AgentFormat;

pub(super) const SOURCE: Source = Source {
    format: AgentFormat::OpenCode,
    folders: &[".opencode/agents", ".opencode/agent"],
    stem: |file| file.strip_suffix(".md"),
    equivalents,
    permission_equivalents,
    strict_name: false,
};

/// The operations an OpenCode tool stands for (`bash`, `webfetch`, `task`, `todowrite` have
/// none).
fn equivalents(name: &str) -> Option<&'static [&'static str]> {
    Some(match name {
        "read" => &["note_read"],
        "grep" => &["vault_search"],
        "glob" | "list" => &["vault_list"],
        "edit" | "patch" => &["note_edit"],
        "write" => &["note_write"],
        _ => return None,
    })
}

/// OpenCode's `edit` permission governs every tool that changes a file (edit, write, patch),
/// so it decides for every operation that writes a note.
fn permission_equivalents(name: &str) -> Option<&'static [&'static str]> {
    match name {
        "edit" => Some(&["note_edit", "note_write", "note_append"]),
        _ => equivalents(name),
    }
}

/// OpenCode names models `provider/model`; Easel names them `provider:model`.
pub(super) fn model_name(model: &str) -> String {
    match model.split_once('/') {
        Some((provider, rest)) if !model.contains(':') && !provider.is_empty() => {
            format!("{provider}:{rest}")
        }
        _ => model.to_string(),
    }
}
