//! Finding and reading agent files: Easel's own and those other tools keep in the vault.
//!
//! Every folder of every format is read; a file that cannot be used is a [`Problem`] with its
//! path and the reason, and the others still load. A name defined twice keeps the first
//! definition in this order: `.easel/agents/`, `.claude/agents/`, `.github/agents/`,
//! `.opencode/agents/` (then `.opencode/agent/`), each folder's files by name.

mod claude;
mod easel;
mod frontmatter;
mod keys;
mod opencode;
mod tools;
mod vscode;

pub(crate) use frontmatter::kind;
pub use frontmatter::{MAX_AGENT_FILE_BYTES, split};
pub use keys::{MAX_NAME_LEN, valid_name};
pub(crate) use tools::is_glob;

use crate::agent::{Agent, AgentFormat};
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};
use std::path::Path;

/// What one format contributes: where its files are, which files they are, and what its
/// tool names stand for.
pub(crate) struct Source {
    format: AgentFormat,
    folders: &'static [&'static str],
    /// The file's stem (the agent's default name), or `None` when the file is not an agent.
    stem: fn(&str) -> Option<&str>,
    /// The operations a tool name of this format stands for (`Read` → `note_read`).
    equivalents: fn(&str) -> Option<&'static [&'static str]>,
    /// The same for the keys of `permission`, which can be broader (OpenCode's `edit`).
    permission_equivalents: fn(&str) -> Option<&'static [&'static str]>,
    /// Whether a declared name that is not an identifier is a problem (Easel's own files)
    /// or a display name to replace with the file's stem (the other tools allow them).
    strict_name: bool,
}

/// The formats in the order their definitions win.
const SOURCES: [&Source; 4] = [
    &easel::SOURCE,
    &claude::SOURCE,
    &vscode::SOURCE,
    &opencode::SOURCE,
];

fn source(format: AgentFormat) -> &'static Source {
    match format {
        AgentFormat::Easel => &easel::SOURCE,
        AgentFormat::ClaudeCode => &claude::SOURCE,
        AgentFormat::VsCode => &vscode::SOURCE,
        AgentFormat::OpenCode => &opencode::SOURCE,
    }
}

/// An agent file that could not be used.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Problem {
    /// The file (or folder), relative to the vault.
    pub path: String,
    /// Why, in words that say what to fix.
    pub reason: String,
}

/// Every agent of a vault, the files that could not be used, and what was left out.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct LoadReport {
    /// The agents, by name.
    pub agents: Vec<Agent>,
    pub problems: Vec<Problem>,
    /// Each agent's own warnings (prefixed with its name and file) and the report's own
    /// (a name defined twice, a handoff to no agent).
    pub warnings: Vec<String>,
}

impl LoadReport {
    /// The agent called `name`.
    pub fn get(&self, name: &str) -> Option<&Agent> {
        self.agents.iter().find(|a| a.name == name)
    }

    /// The names of the agents, sorted.
    pub fn names(&self) -> Vec<String> {
        self.agents.iter().map(|a| a.name.clone()).collect()
    }
}

/// Reads every agent file of the vault at `vault_root`. `is_tool` says whether a name is an
/// operation or a script tool: a name it knows is kept as written, another tool's name is
/// mapped to its equivalent, and the rest is left out with a warning.
pub fn load_agents(vault_root: &Path, is_tool: &dyn Fn(&str) -> bool) -> LoadReport {
    let mut report = LoadReport::default();
    // Symbolic links may point anywhere; only files inside the vault are read.
    let root = std::fs::canonicalize(vault_root).unwrap_or_else(|_| vault_root.to_path_buf());
    let mut loaded: Vec<(Agent, Option<String>)> = Vec::new();
    for src in SOURCES {
        for folder in src.folders {
            for (rel, file_name) in files(&root, folder, &mut report.problems) {
                let Some(stem) = (src.stem)(&file_name) else {
                    continue;
                };
                let full = root.join(&rel);
                let inside = std::fs::canonicalize(&full).is_ok_and(|real| real.starts_with(&root));
                let result = if inside {
                    frontmatter::read_text(&full)
                        .and_then(|text| parse_with(src, stem, &rel, &text, is_tool))
                } else {
                    Err("it is a link to a file outside the vault".into())
                };
                match result {
                    Ok(agent) => loaded.push(agent),
                    Err(reason) => {
                        tracing::warn!(path = %rel, %reason, "agent file not loaded");
                        report.problems.push(Problem { path: rel, reason });
                    }
                }
            }
        }
    }

    let mut by_name: HashMap<String, usize> = HashMap::new();
    let mut aliases: HashMap<String, String> = HashMap::new();
    for (agent, display) in loaded {
        if let Some(&kept) = by_name.get(&agent.name) {
            let first: &Agent = &report.agents[kept];
            report.warnings.push(format!(
                "agent '{}' is defined twice: {} is used, {} is ignored{}",
                agent.name,
                first.path,
                agent.path,
                if first.format == AgentFormat::Easel && agent.format != AgentFormat::Easel {
                    " (.easel/ wins)"
                } else {
                    ""
                }
            ));
            continue;
        }
        if let Some(display) = display {
            aliases.entry(display).or_insert_with(|| agent.name.clone());
        }
        by_name.insert(agent.name.clone(), report.agents.len());
        report.agents.push(agent);
    }

    // VS Code names agents by their display names in `handoffs` and `agents`.
    let known: Vec<String> = report.names();
    for agent in &mut report.agents {
        let rename = |target: &mut String| {
            if !known.contains(target)
                && let Some(name) = aliases.get(target.as_str())
            {
                *target = name.clone();
            }
        };
        agent.handoffs.iter_mut().for_each(|h| rename(&mut h.agent));
        agent.agents_as_tools.iter_mut().for_each(rename);
        let missing: Vec<String> = agent
            .handoffs
            .iter()
            .map(|h| &h.agent)
            .chain(&agent.agents_as_tools)
            .filter(|t| !known.contains(t))
            .map(|t| format!("it names the agent '{t}', which is not defined"))
            .collect();
        agent.warnings.extend(missing);
    }

    report
        .agents
        .sort_by(|a, b| (a.name.to_lowercase(), &a.name).cmp(&(b.name.to_lowercase(), &b.name)));
    let mut own: Vec<String> = report
        .agents
        .iter()
        .flat_map(|a| {
            a.warnings
                .iter()
                .map(move |w| format!("agent '{}' ({}): {w}", a.name, a.path))
        })
        .collect();
    own.append(&mut report.warnings);
    report.warnings = own;
    for w in &report.warnings {
        tracing::debug!(warning = %w, "agent file");
    }
    report
}

/// Reads one agent file's text as the given format would: what [`load_agents`] does for each
/// file, without the file system. `path` is the file's vault-relative path; its name (less
/// `.md`, or `.agent.md` for VS Code) is the default agent name.
pub fn parse_agent(
    text: &str,
    path: &str,
    format: AgentFormat,
    is_tool: &dyn Fn(&str) -> bool,
) -> Result<Agent, String> {
    let src = source(format);
    let file_name = path.rsplit('/').next().unwrap_or(path);
    let stem = (src.stem)(file_name).unwrap_or(file_name);
    parse_with(src, stem, path, text, is_tool).map(|(agent, _)| agent)
}

fn parse_with(
    src: &Source,
    stem: &str,
    path: &str,
    text: &str,
    is_tool: &dyn Fn(&str) -> bool,
) -> Result<(Agent, Option<String>), String> {
    let (fields, body) = split(text)?;
    keys::agent(src, stem, path, fields, body, is_tool)
}

/// The Markdown files of a folder (vault-relative path, file name), sorted by name. A folder
/// that is missing is no agents; one that cannot be read is a problem.
fn files(root: &Path, folder: &str, problems: &mut Vec<Problem>) -> Vec<(String, String)> {
    let entries = match std::fs::read_dir(root.join(folder)) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Vec::new(),
        Err(e) if e.kind() == std::io::ErrorKind::NotADirectory => return Vec::new(),
        Err(e) => {
            problems.push(Problem {
                path: folder.to_string(),
                reason: format!("cannot read the folder: {e}"),
            });
            return Vec::new();
        }
    };
    let mut out = BTreeMap::new();
    for entry in entries.flatten() {
        let Ok(name) = entry.file_name().into_string() else {
            problems.push(Problem {
                path: format!("{folder}/{}", entry.file_name().to_string_lossy()),
                reason: "its file name is not UTF-8; rename it".into(),
            });
            continue;
        };
        let is_file = std::fs::metadata(entry.path()).is_ok_and(|m| m.is_file());
        // A folder's README documents the agents; it is not one.
        let readme = name.eq_ignore_ascii_case("README.md");
        if is_file && name.ends_with(".md") && !name.starts_with('.') && !readme {
            out.insert(name.clone(), format!("{folder}/{name}"));
        }
    }
    out.into_iter().map(|(name, rel)| (rel, name)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const FORMATS: [AgentFormat; 4] = [
        AgentFormat::Easel,
        AgentFormat::ClaudeCode,
        AgentFormat::VsCode,
        AgentFormat::OpenCode,
    ];

    fn key() -> impl Strategy<Value = String> {
        prop::sample::select(vec![
            "name",
            "description",
            "model",
            "tools",
            "disallowedTools",
            "handoffs",
            "handoff_description",
            "agents_as_tools",
            "agents",
            "max_turns",
            "maxSteps",
            "temperature",
            "enabled",
            "disable",
            "permission",
            "color",
        ])
        .prop_map(str::to_string)
    }

    fn value() -> impl Strategy<Value = String> {
        prop_oneof![
            "[a-zA-Z_*/ ,.:-]{0,12}",
            Just("[Read, 'x*', {a: b}]".to_string()),
            Just("{edit: deny, bash: {'*': ask, 'git*': allow}}".to_string()),
            Just("[{label: L, agent: a, prompt: p, send: true}, b]".to_string()),
            Just("{write: false, read: true}".to_string()),
            Just("-1e309".to_string()),
            Just("18446744073709551616".to_string()),
            Just("&a [*a]".to_string()),
            Just("!!binary aGk=".to_string()),
            any::<i64>().prop_map(|n| n.to_string()),
            any::<f64>().prop_map(|n| n.to_string()),
        ]
    }

    proptest! {
        #[test]
        fn any_text_parses_or_gives_a_reason_and_never_panics(text in "(---\n)?[ -~\n\u{feff}é]{0,200}(\n---\n)?[ -~]{0,20}") {
            for format in FORMATS {
                let _ = parse_agent(&text, ".easel/agents/a.md", format, &|t| t == "note_read");
            }
        }

        #[test]
        fn any_keys_give_an_agent_with_a_valid_name_or_a_reason(
            fields in prop::collection::vec((key(), value()), 0..6),
            stem in "[a-z.é ]{0,8}",
        ) {
            let yaml: String = fields.iter().map(|(k, v)| format!("{k}: {v}\n")).collect();
            let text = format!("---\n{yaml}---\nbody\n");
            for format in FORMATS {
                let path = format!("x/{stem}.md");
                match parse_agent(&text, &path, format, &|t| t.starts_with("note_")) {
                    Ok(agent) => {
                        prop_assert!(valid_name(&agent.name).is_ok(), "{}", agent.name);
                        prop_assert!(agent.max_turns >= 1);
                        let _ = agent.decide("note_write");
                    }
                    Err(reason) => prop_assert!(!reason.is_empty()),
                }
            }
        }
    }
}
