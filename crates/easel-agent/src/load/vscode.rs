//! VS Code's custom agents, `.github/agents/*.agent.md` (VS Code and GitHub Copilot also take
//! plain `.md` files there): display names such as "Feature Builder", `handoffs` as
//! `{label, agent, prompt, send}` objects, `agents` (the subagents it may call), tool sets
//! (`read`, `search`, `edit`) and their tools (`search/textSearch`).

use super::Source;
use crate::agent::AgentFormat;

pub(super) const SOURCE: Source = Source {
    format: AgentFormat::VsCode,
    folders: &[".github/agents"],
    stem,
    equivalents,
    permission_equivalents: equivalents,
    strict_name: false,
};

fn stem(file: &str) -> Option<&str> {
    file.strip_suffix(".agent.md")
        .or_else(|| file.strip_suffix(".md"))
}

/// The operations a VS Code tool set or tool stands for. `agent` (running subagents) is what
/// `agents` gives as `ask_<agent>` tools, so it stands for no operation and needs no warning.
fn equivalents(name: &str) -> Option<&'static [&'static str]> {
    Some(match name {
        "read" | "read/readFile" | "readFile" => &["note_read"],
        "search" => &["vault_search", "vault_list"],
        "search/textSearch" | "search/codebase" | "textSearch" | "codebase" => &["vault_search"],
        "search/fileSearch" | "search/listDirectory" | "fileSearch" | "listDirectory" => {
            &["vault_list"]
        }
        "edit" => &["note_edit", "note_write", "note_append"],
        "edit/editFiles" | "editFiles" => &["note_edit"],
        "edit/createFile" | "createFile" => &["note_write"],
        "agent" | "agent/runSubagent" | "runSubagent" => &[],
        _ => return None,
    })
}
