//! The agent file operations: `agent_list`, `agent_show`, `agent_new` (and, in their own
//! modules, `agent_save`, `agent_tool_list` and `agent_tool_call`).
//!
//! They read agent files against the tool names of the Registry they are registered in (so
//! that `tools: [Read]` is reported as `note_read`, and an unknown tool as a warning), and the
//! script tools of the vault (`.easel/tools/<name>.js` or `.toml`) at the time of the call.

use crate::agent::{Agent, AgentFormat};
use crate::error::AgentError;
use crate::load::{self, LoadReport, Problem};
use easel_ops::{Ctx, Effect, Op, OpError, Registry};
use easel_vault::{Expect, Vault, VaultError};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::sync::Arc;

/// The operation names agents may use as tools.
#[derive(Clone, Debug, Default)]
pub struct ToolNames(Arc<BTreeSet<String>>);

impl ToolNames {
    /// The operations of `registry`, and the agent file operations themselves.
    pub fn of(registry: &Registry) -> ToolNames {
        let mut names: BTreeSet<String> = registry.infos().map(|i| i.name.clone()).collect();
        names.extend(
            [
                AgentList::NAME,
                AgentShow::NAME,
                AgentNew::NAME,
                crate::save::AgentSave::NAME,
                crate::tool_ops::AgentToolList::NAME,
            ]
            .iter()
            .map(|s| (*s).to_string()),
        );
        ToolNames(Arc::new(names))
    }

    /// These names only (for tests and embedders with their own catalogue).
    pub fn from_names<I: IntoIterator<Item = S>, S: Into<String>>(names: I) -> ToolNames {
        ToolNames(Arc::new(names.into_iter().map(Into::into).collect()))
    }

    /// Whether `name` is one of the operations, or a script or command tool of `vault`.
    pub fn is_tool(&self, vault: &Vault, name: &str) -> bool {
        self.0.contains(name) || script_tool_exists(vault, name)
    }

    /// Every agent file of `vault`, read against these names.
    pub fn load(&self, vault: &Vault) -> LoadReport {
        load::load_agents(vault.root(), &|name| self.is_tool(vault, name))
    }
}

fn script_tool_exists(vault: &Vault, name: &str) -> bool {
    load::valid_name(name).is_ok()
        && ["js", "toml"].iter().any(|ext| {
            vault
                .root()
                .join(".easel/tools")
                .join(format!("{name}.{ext}"))
                .is_file()
        })
}

/// Registers `agent_list`, `agent_show`, `agent_new`, `agent_save`, `agent_tool_list` and
/// `agent_tool_call`. Call it after every other operation
/// is registered: the names the registry holds now are the operations agent files may name.
pub fn register_files_ops(registry: &mut Registry) {
    let names = ToolNames::of(registry);
    // A tried tool's ctx.call reaches the operations registered so far (read-only ones).
    let for_tools = registry.clone();
    registry
        .register(AgentList(names.clone()))
        .register(AgentShow(names.clone()))
        .register(crate::save::AgentSave(names.clone()))
        .register(crate::tool_ops::AgentToolList)
        .register(crate::tool_ops::AgentToolCall::new(for_tools))
        .register(AgentNew(names));
}

/// `agent_list`'s input: nothing.
#[derive(Clone, Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AgentListInput {}

/// One agent as `agent_list` shows it.
#[derive(Clone, Debug, Serialize)]
pub struct AgentSummary {
    pub name: String,
    pub description: String,
    pub format: AgentFormat,
    /// The file, relative to the vault.
    pub path: String,
    /// Models in fallback order; empty means the configured default.
    pub model: Vec<String>,
    /// Tool names and globs; `null` means the read-only operations.
    pub tools: Option<Vec<String>>,
    /// The agents it may hand over to.
    pub handoffs: Vec<String>,
    pub enabled: bool,
}

impl From<&Agent> for AgentSummary {
    fn from(a: &Agent) -> AgentSummary {
        AgentSummary {
            name: a.name.clone(),
            description: a.description.clone(),
            format: a.format,
            path: a.path.clone(),
            model: a.model.clone(),
            tools: a.tools.clone(),
            handoffs: a.handoffs.iter().map(|h| h.agent.clone()).collect(),
            enabled: a.enabled,
        }
    }
}

/// `agent_list`'s output.
#[derive(Clone, Debug, Serialize)]
pub struct AgentListOutput {
    pub agents: Vec<AgentSummary>,
    /// Agent files that could not be used, with the reason.
    pub problems: Vec<Problem>,
    /// What was left out or overridden while reading them.
    pub warnings: Vec<String>,
}

/// List the agents of the vault.
#[derive(Clone, Debug, Default)]
pub struct AgentList(pub ToolNames);

impl Op for AgentList {
    type Input = AgentListInput;
    type Output = AgentListOutput;
    const NAME: &'static str = "agent_list";
    const TITLE: &'static str = "List the agents";
    const DESCRIPTION: &'static str = "List the agents of the vault: Easel's .easel/agents/*.md and the agent files of Claude Code (.claude/agents), VS Code (.github/agents) and OpenCode (.opencode/agents), with their name, description, model, tools and handoffs. \
Files that cannot be used are listed under 'problems' with the reason; tool names that were left out under 'warnings'. Use agent_show for one agent's instructions and permissions.\n\
Example: {}";
    const EFFECT: Effect = Effect::Read;
    const IDEMPOTENT: bool = true;

    fn run(&self, ctx: &Ctx, _input: AgentListInput) -> Result<AgentListOutput, OpError> {
        let report = self.0.load(ctx.vault());
        Ok(AgentListOutput {
            agents: report.agents.iter().map(AgentSummary::from).collect(),
            problems: report.problems,
            warnings: report.warnings,
        })
    }
}

/// `agent_show`'s input.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AgentShowInput {
    /// The agent's name, as `agent_list` gives it.
    pub name: String,
}

/// Show one agent in full.
#[derive(Clone, Debug, Default)]
pub struct AgentShow(pub ToolNames);

impl Op for AgentShow {
    type Input = AgentShowInput;
    type Output = Agent;
    const NAME: &'static str = "agent_show";
    const TITLE: &'static str = "Show an agent";
    const DESCRIPTION: &'static str = "Show one agent as Easel reads it: its instructions, model, tools (other tools' names mapped to operations), handoffs, agents it may ask, turn limit, temperature, permission rules, and what was left out of its file. \
Use agent_list first to see the names.\n\
Example: {\"name\": \"writer\"}";
    const EFFECT: Effect = Effect::Read;
    const IDEMPOTENT: bool = true;

    fn run(&self, ctx: &Ctx, input: AgentShowInput) -> Result<Agent, OpError> {
        let name = input.name.trim();
        let report = self.0.load(ctx.vault());
        if let Some(agent) = report.get(name) {
            return Ok(agent.clone());
        }
        // The user probably means the file that failed to load: say why it did.
        if let Some(p) = report
            .problems
            .iter()
            .find(|p| file_stem(&p.path) == Some(name))
        {
            return Err(OpError::invalid(
                format!("the agent file {} cannot be used: {}", p.path, p.reason),
                "fix the file and try again; `agent_list` lists every problem",
            ));
        }
        let e = AgentError::UnknownAgent {
            name: name.to_string(),
            known: report.names(),
        };
        Err(OpError::new(e.kind(), e.to_string(), e.hint()))
    }
}

fn file_stem(path: &str) -> Option<&str> {
    let file = path.rsplit('/').next()?;
    file.strip_suffix(".agent.md")
        .or_else(|| file.strip_suffix(".md"))
}

/// `agent_new`'s input.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AgentNewInput {
    /// The agent's name: letters, digits, '-' and '_'. The file is .easel/agents/<name>.md.
    pub name: String,
    /// What the agent does; other agents read it when they hand over to it.
    #[serde(default)]
    pub description: Option<String>,
    /// The model, "provider:model" (default: the configured model).
    #[serde(default)]
    pub model: Option<String>,
    /// Its tools: operation names, script tool names or globs such as "canvas_*" (default: the
    /// read-only operations).
    #[serde(default)]
    pub tools: Option<Vec<String>>,
    /// Its instructions (default: a first line to rewrite).
    #[serde(default)]
    pub instructions: Option<String>,
    /// Agents it may hand the conversation to (each becomes a tool transfer_to_<agent>).
    #[serde(default)]
    pub handoffs: Option<Vec<String>>,
}

/// `agent_new`'s output.
#[derive(Clone, Debug, Serialize)]
pub struct AgentNewOutput {
    pub name: String,
    /// The new file, relative to the vault.
    pub path: String,
    pub rev: Option<String>,
    /// What reading the new file reported (a tool that is not known, an agent it overrides).
    pub warnings: Vec<String>,
}

/// Create an agent file.
#[derive(Clone, Debug, Default)]
pub struct AgentNew(pub ToolNames);

impl Op for AgentNew {
    type Input = AgentNewInput;
    type Output = AgentNewOutput;
    const NAME: &'static str = "agent_new";
    const TITLE: &'static str = "Create an agent";
    const DESCRIPTION: &'static str = "Create the agent file .easel/agents/<name>.md: a frontmatter with the given description, model and tools, every other key as a comment to fill in, and the instructions as its body. \
Fails if the file exists. Read the result with agent_show.\n\
Example: {\"name\": \"researcher\", \"description\": \"Finds and summarises notes\", \"tools\": [\"vault_search\", \"note_read\"]}";
    const EFFECT: Effect = Effect::Write;

    fn run(&self, ctx: &Ctx, input: AgentNewInput) -> Result<AgentNewOutput, OpError> {
        let name = input.name.trim();
        load::valid_name(name).map_err(|reason| {
            OpError::invalid(
                format!("cannot create the agent: {reason}"),
                "choose a name such as \"researcher\" or \"canvas-builder\"",
            )
        })?;
        let text = template(name, &input);
        // What would be written must load: a description with a stray character must not
        // produce a file `agent_list` then reports as broken.
        let check = load::parse_agent(
            &text,
            &format!(".easel/agents/{name}.md"),
            AgentFormat::Easel,
            &|t| self.0.is_tool(ctx.vault(), t),
        )
        .map_err(|reason| {
            OpError::invalid(
                format!("cannot create the agent: {reason}"),
                "check the description, model and tools given",
            )
        })?;
        let vault = ctx.vault();
        let path = vault.resolve_for_write(&format!(".easel/agents/{name}.md"))?;
        let change = ctx.change(Self::NAME, format!("create the agent {name}"));
        let written = vault
            .write(&path, text.as_bytes(), Expect::Absent, &change)
            .map_err(|e| match e {
                VaultError::AlreadyExists { .. } => OpError::conflict(
                    format!("the agent file {} already exists", path.as_str()),
                    format!(
                        "edit that file, see it with `agent_show` {{\"name\": \"{name}\"}}, or choose another name"
                    ),
                ),
                other => other.into(),
            })?;
        let report = self.0.load(vault);
        let mut warnings: Vec<String> = check.warnings;
        warnings.extend(
            report
                .warnings
                .into_iter()
                .filter(|w| w.starts_with(&format!("agent '{name}' is defined twice"))),
        );
        Ok(AgentNewOutput {
            name: name.to_string(),
            path: path.as_str().to_string(),
            rev: written.rev_after.map(|r| r.to_string()),
            warnings,
        })
    }
}

/// The starter set `easel agent new --starter` writes: an assistant that searches and reads the
/// vault and hands over to the two others, a canvas builder and a writer, who hand back.
pub fn starter_set() -> Vec<AgentNewInput> {
    let agent =
        |name: &str, description: &str, tools: &[&str], handoffs: &[&str], instructions: &str| {
            AgentNewInput {
                name: name.into(),
                description: Some(description.into()),
                model: None,
                tools: Some(tools.iter().map(|t| t.to_string()).collect()),
                instructions: Some(instructions.into()),
                handoffs: Some(handoffs.iter().map(|h| h.to_string()).collect()),
            }
        };
    vec![
        agent(
            "assistant",
            "Answers questions about the vault: searches, reads and cites notes",
            &[
                "vault_search",
                "vault_list",
                "vault_query",
                "note_read",
                "canvas_list",
                "canvas_read",
            ],
            &["canvas-builder", "writer"],
            "You answer questions about this vault. Search it (vault_search), read what you find (note_read, canvas_read) and answer from what the notes say, naming the notes you used. \
When the person wants a diagram or a board, hand over to canvas-builder; when they want a note written or rewritten, hand over to writer. Never invent what a note says.",
        ),
        agent(
            "canvas-builder",
            "Builds and lays out canvases: diagrams, boards and maps of notes",
            &["canvas_*", "note_read", "vault_search"],
            &["assistant"],
            "You build JSON Canvas boards. Make a whole diagram in one canvas_import (Mermaid) or canvas_batch call, then lay it out with canvas_layout. \
Read the notes a board is about before you draw it. Say which canvas you wrote. Hand back to assistant for questions that are not about a canvas.",
        ),
        agent(
            "writer",
            "Writes and edits notes in the vault's own style",
            &["note_*", "vault_search"],
            &["assistant"],
            "You write and edit Markdown notes. Read a note before you change it, and change only what was asked: note_edit for a passage, note_append to add, note_write for a new note. \
Keep the vault's headings, links and frontmatter as they are. Say which notes you changed. Hand back to assistant for questions.",
        ),
    ]
}

/// A JSON string is a YAML double-quoted scalar, so any text goes in safely.
fn yaml(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into())
}

/// The new file: the keys given, and every other key of DESIGN.md section 9 as a comment.
fn template(name: &str, input: &AgentNewInput) -> String {
    let description = input
        .description
        .as_deref()
        .map(str::trim)
        .filter(|d| !d.is_empty())
        .map_or_else(|| yaml(&format!("What {name} does, in one line")), yaml);
    let model = match input.model.as_deref().map(str::trim).filter(|m| !m.is_empty()) {
        Some(m) => format!("model: {}", yaml(m)),
        None => "# model: local:smollm2   # provider:model, or a list tried in order; default: the configured model".into(),
    };
    let tools = match &input.tools {
        Some(tools) => {
            let list: Vec<String> = tools
                .iter()
                .map(|t| t.trim())
                .filter(|t| !t.is_empty())
                .map(yaml)
                .collect();
            format!("tools: [{}]", list.join(", "))
        }
        None => "# tools: [vault_search, note_read, \"canvas_*\"]   # operations, script tools or globs; default: the read-only operations".into(),
    };
    let handoffs = match &input.handoffs {
        Some(h) if !h.is_empty() => {
            let list: Vec<String> = h.iter().map(|a| yaml(a.trim())).collect();
            format!("handoffs: [{}]", list.join(", "))
        }
        _ => "# handoffs: [writer]             # agents it may hand the conversation to (tool transfer_to_<agent>)".into(),
    };
    let instructions = input
        .instructions
        .as_deref()
        .map(str::trim)
        .filter(|i| !i.is_empty())
        .map_or_else(
            || format!("You are {name}. Say here what you do, how, and what you never do.\n"),
            |i| format!("{i}\n"),
        );
    format!(
        "---\n\
name: {name}\n\
description: {description}\n\
{model}\n\
{tools}\n\
{handoffs}\n\
# handoff_description: \"...\"     # what those agents are told of it (default: the description)\n\
# agents_as_tools: [researcher]  # agents it may ask a question (tool ask_<agent>)\n\
# max_turns: 10                  # model calls per run\n\
# temperature: 0.2\n\
# max_tokens: 2048               # the longest answer of one model call\n\
# tool_choice: required          # call a tool first (auto again once one is used)\n\
# tool_use_behavior: stop_on_first_tool  # the first tool output is the answer\n\
# enabled: true\n\
# permission:                    # allow, ask or deny by tool name glob; the last match wins\n\
#   \"canvas_*\": allow\n\
#   note_write: ask\n\
---\n\
{instructions}"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use easel_ops::Actor;

    fn ctx() -> (tempfile::TempDir, Ctx) {
        let dir = tempfile::tempdir().unwrap();
        let vault = Vault::open(dir.path()).unwrap();
        (dir, Ctx::new(vault, Actor::cli()))
    }

    fn names() -> ToolNames {
        ToolNames::from_names(["note_read", "vault_search", "canvas_add_node"])
    }

    #[test]
    fn the_template_loads_as_written_with_every_other_key_commented() {
        let input = AgentNewInput {
            name: "scribe".into(),
            description: Some("Writes \"notes\": quickly # not a comment".into()),
            model: Some("local:smollm2".into()),
            tools: Some(vec!["note_read".into(), "canvas_*".into()]),
            instructions: None,
            handoffs: None,
        };
        let text = template("scribe", &input);
        let agent = load::parse_agent(&text, ".easel/agents/scribe.md", AgentFormat::Easel, &|t| {
            t == "note_read"
        })
        .unwrap();
        assert_eq!(agent.name, "scribe");
        assert_eq!(
            agent.description,
            "Writes \"notes\": quickly # not a comment"
        );
        assert_eq!(agent.model, ["local:smollm2"]);
        assert_eq!(
            agent.tools.as_deref(),
            Some(&["note_read".to_string(), "canvas_*".into()][..])
        );
        assert!(agent.permission.is_empty() && agent.handoffs.is_empty());
        assert!(text.contains("# permission:"));
        assert!(agent.instructions.starts_with("You are scribe."));
    }

    #[test]
    fn the_starter_set_loads_with_its_handoffs_and_known_tools() {
        let (_dir, ctx) = ctx();
        let known = ToolNames::from_names([
            "vault_search",
            "vault_list",
            "vault_query",
            "note_read",
            "note_write",
            "note_edit",
            "note_append",
            "canvas_list",
            "canvas_read",
            "canvas_import",
            "canvas_layout",
        ]);
        for input in starter_set() {
            let out = AgentNew(known.clone()).run(&ctx, input).unwrap();
            assert!(out.warnings.is_empty(), "{:?}", out.warnings);
        }
        let report = known.load(ctx.vault());
        assert!(report.problems.is_empty(), "{:?}", report.problems);
        let names: Vec<&str> = report.agents.iter().map(|a| a.name.as_str()).collect();
        assert_eq!(names.len(), 3, "{names:?}");
        let assistant = report.get("assistant").unwrap();
        let to: Vec<&str> = assistant
            .handoffs
            .iter()
            .map(|h| h.agent.as_str())
            .collect();
        assert_eq!(to, vec!["canvas-builder", "writer"]);
        for a in &report.agents {
            for h in &a.handoffs {
                assert!(
                    report.get(&h.agent).is_some(),
                    "{} hands over to {}",
                    a.name,
                    h.agent
                );
            }
        }
    }

    #[test]
    fn new_then_show_then_conflict() {
        let (_dir, ctx) = ctx();
        let out = AgentNew(names())
            .run(
                &ctx,
                AgentNewInput {
                    name: "helper".into(),
                    description: Some("Helps".into()),
                    model: None,
                    tools: Some(vec!["Read".into(), "Bash".into()]),
                    instructions: Some("Be brief.".into()),
                    handoffs: None,
                },
            )
            .unwrap();
        assert_eq!(out.path, ".easel/agents/helper.md");
        assert!(
            out.warnings.iter().any(|w| w.contains("'Bash'")),
            "{:?}",
            out.warnings
        );
        let shown = AgentShow(names())
            .run(
                &ctx,
                AgentShowInput {
                    name: "helper".into(),
                },
            )
            .unwrap();
        assert_eq!(shown.tools.as_deref(), Some(&["note_read".to_string()][..]));
        assert_eq!(shown.instructions, "Be brief.\n");

        let again = AgentNew(names()).run(
            &ctx,
            AgentNewInput {
                name: "helper".into(),
                description: None,
                model: None,
                tools: None,
                instructions: None,
                handoffs: None,
            },
        );
        let e = again.unwrap_err();
        assert_eq!(e.kind, easel_ops::ErrorKind::Conflict);
        assert!(e.message.contains(".easel/agents/helper.md"), "{e:?}");
    }

    #[test]
    fn bad_names_and_unknown_agents_are_errors_with_hints() {
        let (_dir, ctx) = ctx();
        for bad in ["", "a b", "../x", "é"] {
            let e = AgentNew(names())
                .run(
                    &ctx,
                    AgentNewInput {
                        name: bad.into(),
                        description: None,
                        model: None,
                        tools: None,
                        instructions: None,
                        handoffs: None,
                    },
                )
                .unwrap_err();
            assert_eq!(e.kind, easel_ops::ErrorKind::Invalid, "{bad:?}");
        }
        std::fs::create_dir_all(ctx.vault().root().join(".claude/agents")).unwrap();
        std::fs::write(
            ctx.vault().root().join(".claude/agents/reviewer.md"),
            "---\nname: reviewer\n---\nReview.\n",
        )
        .unwrap();
        let e = AgentShow(names())
            .run(
                &ctx,
                AgentShowInput {
                    name: "nobody".into(),
                },
            )
            .unwrap_err();
        assert_eq!(e.kind, easel_ops::ErrorKind::NotFound);
        assert!(e.hint.contains("reviewer"), "{e:?}");

        std::fs::write(
            ctx.vault().root().join(".claude/agents/broken.md"),
            "---\ntools: [unclosed\n---\n",
        )
        .unwrap();
        let e = AgentShow(names())
            .run(
                &ctx,
                AgentShowInput {
                    name: "broken".into(),
                },
            )
            .unwrap_err();
        assert_eq!(e.kind, easel_ops::ErrorKind::Invalid);
        assert!(e.message.contains(".claude/agents/broken.md"), "{e:?}");
    }

    #[test]
    fn script_tools_count_as_tools_when_their_file_exists() {
        let (_dir, ctx) = ctx();
        let n = names();
        assert!(!n.is_tool(ctx.vault(), "word_count"));
        std::fs::create_dir_all(ctx.vault().root().join(".easel/tools")).unwrap();
        std::fs::write(ctx.vault().root().join(".easel/tools/word_count.js"), "").unwrap();
        assert!(n.is_tool(ctx.vault(), "word_count"));
        assert!(!n.is_tool(ctx.vault(), "../tools/word_count"));
    }
}
