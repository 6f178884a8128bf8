//! `agent_save`: the agent editor's write. It changes only the frontmatter keys it is given
//! (and the body when instructions are given), line by line, so every other key, comment and
//! blank line of the file stays byte for byte.

use crate::agent::AgentFormat;
use crate::load;
use crate::ops::ToolNames;
use easel_ops::{Ctx, Effect, Op, OpError};
use easel_vault::{Expect, Rev};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

/// `agent_save`'s input: the keys to set; a key left out keeps its value.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AgentSaveInput {
    /// The agent's name: the file is .easel/agents/<name>.md (created when missing).
    pub name: String,
    /// What the agent does, in one line.
    #[serde(default)]
    pub description: Option<String>,
    /// The model, "provider:model"; an empty string removes the key (the configured default).
    #[serde(default)]
    pub model: Option<String>,
    /// The instructions (the file's body).
    #[serde(default)]
    pub instructions: Option<String>,
    /// Tool names and globs.
    #[serde(default)]
    pub tools: Option<Vec<String>>,
    /// Agents it may hand over to.
    #[serde(default)]
    pub handoffs: Option<Vec<String>>,
    /// Agents it may ask as tools.
    #[serde(default)]
    pub agents_as_tools: Option<Vec<String>>,
    /// The file's revision when it was read; the save fails with a conflict if it changed.
    #[serde(default)]
    pub rev: Option<String>,
}

/// `agent_save`'s output.
#[derive(Clone, Debug, Serialize)]
pub struct AgentSaveOutput {
    pub name: String,
    /// The file, relative to the vault.
    pub path: String,
    pub rev: Option<String>,
    /// Whether the file was created.
    pub created: bool,
    /// What reading the saved file reported (a tool that is not known).
    pub warnings: Vec<String>,
}

/// Create or change an agent file.
#[derive(Clone, Debug, Default)]
pub struct AgentSave(pub ToolNames);

/// A JSON value is YAML flow syntax, so strings and lists go in safely as JSON.
fn line(key: &str, value: &Value) -> String {
    format!("{key}: {value}")
}

/// Whether `l` continues the value of the key above it (indented, or a block list item).
fn continues(l: &str) -> bool {
    l.starts_with(' ') || l.starts_with('\t') || l.starts_with("- ") || l == "-"
}

fn key_of(l: &str) -> Option<&str> {
    let (k, _) = l.split_once(':')?;
    let k = k.trim_end();
    (!k.is_empty() && !k.starts_with(['#', ' ', '\t', '-'])).then_some(k)
}

/// Sets (`Some`) or removes (`None`) `key` in the frontmatter lines `fm`: its line and the
/// lines that continue it are replaced; a missing key takes the place of a `# key:` comment,
/// else goes last.
fn set_key(fm: &mut Vec<String>, key: &str, value: Option<&Value>) {
    if let Some(i) = fm.iter().position(|l| key_of(l) == Some(key)) {
        let mut end = i + 1;
        while end < fm.len() && continues(&fm[end]) {
            end += 1;
        }
        match value {
            Some(v) => {
                fm.splice(i..end, [line(key, v)]);
            }
            None => {
                fm.drain(i..end);
            }
        }
        return;
    }
    let Some(v) = value else { return };
    let comment = format!("# {key}:");
    match fm.iter().position(|l| l.starts_with(&comment)) {
        Some(i) => fm[i] = line(key, v),
        None => fm.push(line(key, v)),
    }
}

/// The file `text` with the input's keys and body applied.
fn merge(text: &str, input: &AgentSaveInput) -> String {
    let (mut fm, body): (Vec<String>, String) = match text.strip_prefix("---\n") {
        Some(rest) if rest.starts_with("---\n") => (Vec::new(), rest[4..].to_owned()),
        Some(rest) => match rest
            .find("\n---\n")
            .or_else(|| rest.strip_suffix("\n---").map(|_| rest.len() - 4))
        {
            Some(end) => {
                let body_start = (end + 5).min(rest.len());
                (
                    rest[..end].lines().map(str::to_owned).collect(),
                    rest[body_start..].to_owned(),
                )
            }
            None => (Vec::new(), text.to_owned()),
        },
        None => (Vec::new(), text.to_owned()),
    };
    if !fm.iter().any(|l| key_of(l) == Some("name")) {
        fm.insert(0, line("name", &json!(input.name.trim())));
    }
    if let Some(d) = &input.description {
        set_key(&mut fm, "description", Some(&json!(d.trim())));
    }
    if let Some(m) = &input.model {
        let m = m.trim();
        set_key(&mut fm, "model", (!m.is_empty()).then(|| json!(m)).as_ref());
    }
    let list = |v: &Vec<String>| {
        json!(
            v.iter()
                .map(|s| s.trim())
                .filter(|s| !s.is_empty())
                .collect::<Vec<_>>()
        )
    };
    if let Some(t) = &input.tools {
        set_key(&mut fm, "tools", Some(&list(t)));
    }
    if let Some(h) = &input.handoffs {
        set_key(
            &mut fm,
            "handoffs",
            (!h.is_empty()).then(|| list(h)).as_ref(),
        );
    }
    if let Some(a) = &input.agents_as_tools {
        set_key(
            &mut fm,
            "agents_as_tools",
            (!a.is_empty()).then(|| list(a)).as_ref(),
        );
    }
    let body = match &input.instructions {
        Some(i) => format!("{}\n", i.trim_end()),
        None => body,
    };
    format!("---\n{}\n---\n{body}", fm.join("\n"))
}

impl Op for AgentSave {
    type Input = AgentSaveInput;
    type Output = AgentSaveOutput;
    const NAME: &'static str = "agent_save";
    const TITLE: &'static str = "Save an agent";
    const DESCRIPTION: &'static str = "Create or change the agent file .easel/agents/<name>.md: set the keys given (description, model, tools, handoffs, agents_as_tools) and, with 'instructions', the body. \
Every other key, comment and line of the file stays as it is. Pass the 'rev' agent_show or note_read gave to fail instead of overwriting someone else's change. An empty model removes the key (the configured default model).\n\
Example: {\"name\": \"writer\", \"description\": \"Writes notes\", \"tools\": [\"note_*\"], \"handoffs\": [\"assistant\"]}";
    const EFFECT: Effect = Effect::Destructive;
    const IDEMPOTENT: bool = true;

    fn run(&self, ctx: &Ctx, input: AgentSaveInput) -> Result<AgentSaveOutput, OpError> {
        let name = input.name.trim().to_owned();
        load::valid_name(&name).map_err(|reason| {
            OpError::invalid(
                format!("cannot save the agent: {reason}"),
                "choose a name such as \"researcher\" or \"canvas-builder\"",
            )
        })?;
        let expect = match input.rev.as_deref() {
            Some(r) => Expect::Rev(r.parse::<Rev>().map_err(|e| {
                OpError::invalid(
                    format!("'rev' is not a revision: {e}"),
                    "pass the rev `agent_show` or `note_read` returned, or leave it out",
                )
            })?),
            None => Expect::Any,
        };
        let rel = format!(".easel/agents/{name}.md");
        let vault = ctx.vault();
        let path = vault.resolve_for_write(&rel)?;
        let change = ctx.change(Self::NAME, format!("save the agent {name}"));
        let names = self.0.clone();
        let mut created = false;
        let mut warnings = Vec::new();
        let (written, ()) = vault.update(&path, expect, &change, |old: Option<&[u8]>| {
            let old_text = match old {
                Some(b) => String::from_utf8(b.to_vec()).map_err(|_| {
                    OpError::invalid(
                        format!("{rel} is not UTF-8 text"),
                        "fix the file's encoding in an editor",
                    )
                })?,
                None => String::new(),
            };
            created = old.is_none();
            let text = merge(&old_text, &input);
            // What is written must load, so `agent_list` never reports the saved file broken.
            let agent = load::parse_agent(&text, &rel, AgentFormat::Easel, &|t| {
                names.is_tool(vault, t)
            })
            .map_err(|reason| {
                OpError::invalid(
                    format!("the agent would not load: {reason}"),
                    "check the values given; nothing was written",
                )
            })?;
            warnings = agent.warnings.clone();
            Ok::<_, OpError>((text.into_bytes(), ()))
        })?;
        Ok(AgentSaveOutput {
            name,
            path: rel,
            rev: written.rev_after.map(|r| r.to_string()),
            created,
            warnings,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input(name: &str) -> AgentSaveInput {
        AgentSaveInput {
            name: name.into(),
            description: None,
            model: None,
            instructions: None,
            tools: None,
            handoffs: None,
            agents_as_tools: None,
            rev: None,
        }
    }

    const FILE: &str = "---\nname: writer\ndescription: Old\n# a comment the user wrote\ncustom_key: [1, 2]\ntools:\n  - note_read\n  - vault_list\n# model: local:smollm2   # hint\ncolor: blue\n---\nYou write.\n";

    #[test]
    fn only_the_keys_given_change_and_everything_else_stays() {
        let mut i = input("writer");
        i.description = Some("New \"quoted\"".into());
        i.tools = Some(vec!["note_*".into()]);
        let out = merge(FILE, &i);
        assert_eq!(
            out,
            "---\nname: writer\ndescription: \"New \\\"quoted\\\"\"\n# a comment the user wrote\ncustom_key: [1, 2]\ntools: [\"note_*\"]\n# model: local:smollm2   # hint\ncolor: blue\n---\nYou write.\n"
        );
    }

    #[test]
    fn a_commented_key_is_filled_in_place_and_an_empty_model_removes_it() {
        let mut i = input("writer");
        i.model = Some("openai:gpt-4.1-mini".into());
        let out = merge(FILE, &i);
        assert!(
            out.contains("\nmodel: \"openai:gpt-4.1-mini\"\ncolor: blue\n"),
            "{out}"
        );
        i.model = Some(String::new());
        let out = merge(&out, &i);
        assert!(!out.contains("model:"), "{out}");
    }

    #[test]
    fn a_new_file_gets_a_name_and_the_body() {
        let mut i = input("helper");
        i.instructions = Some("Help.\n\n".into());
        i.handoffs = Some(vec!["writer".into()]);
        assert_eq!(
            merge("", &i),
            "---\nname: \"helper\"\nhandoffs: [\"writer\"]\n---\nHelp.\n"
        );
    }

    #[test]
    fn a_body_without_frontmatter_is_kept() {
        let i = input("x");
        assert_eq!(
            merge("Just text.\n", &i),
            "---\nname: \"x\"\n---\nJust text.\n"
        );
    }
}
