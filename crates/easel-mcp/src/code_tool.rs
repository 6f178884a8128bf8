//! The `canvas` tool: the evidence board of a code repository (seed 004's CodeCanvas), as one
//! tool whose `action` picks the operation. A thin adapter over `easel_code::board`: it turns
//! arguments into an [`Action`], and the [`Outcome`] into a text block (result, board line,
//! `Next:` hint) followed by the views as inline PNG images.

use crate::error::ToolError;
use base64::Engine;
use easel_code::board::{self, Action, BoardError, BoardOptions, Front, Outcome};
use rmcp::model::ContentBlock;
use serde_json::{Map, Value, json};
use std::path::PathBuf;
use std::sync::Mutex;

/// The tool's name.
pub const NAME: &str = "canvas";

/// The tool's description: a short tutorial, because small models read nothing else.
pub const DESCRIPTION: &str = "Code canvas: see what a change to code affects before you make it, and keep your reasoning on an Evidence Board that survives context compaction.

WORKFLOW:
1. init → parse the repository, get the architecture map (evidence E1)
2. impact symbol=\"name\" → callers, callees and blast radius BEFORE you change it; it becomes the focus
3. claim text=\"...\" → record a hypothesis, finding or question
4. decide text=\"...\" → record a plan, test or edit
5. mark / skip symbol=\"...\" → tick off each affected symbol once verified (or out of scope); progress shows a/b

ACTIONS:
• init (repo_path, default \".\"): parse the code, draw the architecture
• impact (symbol, depth=2, max_nodes=20): blast radius of a function, class or module
• claim (text, kind=hypothesis|finding|question)
• decide (text, kind=plan|test|edit)
• mark / skip (symbol, default the focus; text optional)
• status: redraw the board; read: the whole board as text (no images)
• task_select (task_id): pick a task from tasks.yaml

Every answer ends with 'Board: …' (counts, focus, progress) and 'Next: …' — follow the Next hint when unsure. Images come inline as PNG.

TIPS:
• Use impact BEFORE editing; names may be short (send), qualified (app.Session.send) or ids (src/app.py:Session.send); a typo gets suggestions.
• Claims and decisions link to the latest evidence automatically.
• After a context reset, call status (or read) to get back your findings.

Example session: {\"action\": \"init\"} → {\"action\": \"impact\", \"symbol\": \"parse_config\"} → {\"action\": \"claim\", \"text\": \"load_settings passes None\", \"kind\": \"finding\"} → {\"action\": \"decide\", \"text\": \"add a default in parse_config\"} → {\"action\": \"mark\", \"symbol\": \"load_settings\"}";

const ACTIONS: [&str; 9] = [
    "init",
    "impact",
    "claim",
    "decide",
    "mark",
    "skip",
    "status",
    "read",
    "task_select",
];

/// The JSON Schema of the arguments.
pub fn schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "action": {"type": "string", "enum": ACTIONS, "description": "What to do; see the workflow above."},
            "repo_path": {"type": "string", "description": "The repository folder (init; later actions reuse it). Default \".\"."},
            "symbol": {"type": "string", "description": "A function, class or module: name, qualified name or id (impact, mark, skip)."},
            "depth": {"type": "integer", "minimum": 1, "maximum": 10, "description": "Hops of callers in the blast radius (impact). Default 2."},
            "max_nodes": {"type": "integer", "minimum": 2, "maximum": 200, "description": "Callers and callees drawn in the impact view, at most 8 a side. Default 20."},
            "text": {"type": "string", "description": "The claim or decision (claim, decide), or a note (mark, skip)."},
            "kind": {"type": "string", "enum": ["hypothesis", "finding", "question", "plan", "test", "edit"], "description": "claim: hypothesis|finding|question; decide: plan|test|edit."},
            "task_id": {"type": "string", "description": "A task id from tasks.yaml (task_select)."}
        },
        "required": ["action"],
        "additionalProperties": false
    })
}

/// The tool with the repository it works on.
#[derive(Debug, Default)]
pub struct CodeTool {
    /// The repository of the last `init` (or `repo_path`), used when a call names none.
    root: Mutex<Option<PathBuf>>,
}

impl CodeTool {
    /// Runs one call; returns the content blocks of a successful result.
    pub fn call(
        &self,
        actor: &str,
        arguments: Option<Map<String, Value>>,
    ) -> Result<Vec<ContentBlock>, ToolError> {
        let args = arguments.unwrap_or_default();
        let allowed = [
            "action",
            "repo_path",
            "symbol",
            "depth",
            "max_nodes",
            "text",
            "kind",
            "task_id",
        ];
        if let Some(extra) = args.keys().find(|k| !allowed.contains(&k.as_str())) {
            return Err(ToolError::invalid(
                format!("unknown argument '{extra}'"),
                format!("canvas takes: {}", allowed.join(", ")),
            ));
        }
        let action_name = string(&args, "action")?.ok_or_else(|| {
            ToolError::invalid(
                "'action' is missing",
                format!("pass one of: {}", ACTIONS.join(", ")),
            )
        })?;
        let symbol = string(&args, "symbol")?;
        let text = string(&args, "text")?;
        let kind = string(&args, "kind")?;
        let action = match action_name.as_str() {
            "init" => Action::Init,
            "impact" => Action::Impact {
                symbol: symbol.ok_or_else(|| {
                    ToolError::invalid(
                        "impact needs a 'symbol'",
                        "pass the function or class you will change, e.g. {\"action\": \"impact\", \"symbol\": \"parse_config\"}",
                    )
                })?,
                depth: number(&args, "depth", 2, 1, 10)? as u32,
                max_nodes: number(&args, "max_nodes", 20, 2, 200)? as usize,
            },
            "claim" => Action::Claim {
                text: text.unwrap_or_default(),
                kind,
            },
            "decide" => Action::Decide {
                text: text.unwrap_or_default(),
                kind,
            },
            "mark" => Action::Mark { symbol, text },
            "skip" => Action::Skip { symbol, text },
            "status" => Action::Status,
            "read" => Action::Read,
            "task_select" => Action::TaskSelect {
                task_id: string(&args, "task_id")?.ok_or_else(|| {
                    ToolError::invalid(
                        "task_select needs a 'task_id'",
                        "pass an id from tasks.yaml, e.g. {\"action\": \"task_select\", \"task_id\": \"T1\"}",
                    )
                })?,
            },
            other => {
                return Err(ToolError::invalid(
                    format!("'{other}' is not an action of canvas"),
                    format!("use one of: {}", ACTIONS.join(", ")),
                ));
            }
        };
        let root = self.root_for(string(&args, "repo_path")?.as_deref(), &action)?;
        let opts = BoardOptions::new(Front::Mcp, actor);
        let outcome = board::run(&root, action, &opts).map_err(tool_error)?;
        if let Ok(mut r) = self.root.lock() {
            *r = Some(root);
        }
        Ok(blocks(&outcome))
    }

    /// The repository: `repo_path` when given (relative to the server's folder), else the one
    /// of the last call, else the nearest folder above the server's that has a board, else the
    /// server's folder.
    fn root_for(&self, repo_path: Option<&str>, action: &Action) -> Result<PathBuf, ToolError> {
        let cwd = std::env::current_dir().map_err(|e| {
            ToolError::failure(format!("cannot read the server's working folder: {e}"))
        })?;
        if let Some(p) = repo_path {
            return Ok(cwd.join(p));
        }
        if let Some(r) = self.root.lock().ok().and_then(|r| r.clone()) {
            return Ok(r);
        }
        if !matches!(action, Action::Init)
            && let Some(found) = cwd.ancestors().find(|a| board::exists(a))
        {
            return Ok(found.to_path_buf());
        }
        Ok(cwd)
    }
}

/// The text block, then each view as an inline PNG.
fn blocks(o: &Outcome) -> Vec<ContentBlock> {
    let mut out = vec![ContentBlock::text(o.text())];
    for i in &o.images {
        out.push(ContentBlock::image(
            base64::engine::general_purpose::STANDARD.encode(&i.png),
            "image/png",
        ));
    }
    out
}

fn tool_error(e: BoardError) -> ToolError {
    ToolError {
        message: e.to_string(),
        hint: e.hint_for(Front::Mcp),
        kind: e.kind(),
    }
}

fn string(args: &Map<String, Value>, key: &str) -> Result<Option<String>, ToolError> {
    match args.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(Value::Number(n)) => Ok(Some(n.to_string())),
        Some(other) => Err(ToolError::invalid(
            format!("'{key}' must be a string, not {other}"),
            format!("pass \"{key}\": \"...\""),
        )),
    }
}

/// A whole number in `min..=max`, also when sent as a string ("3"), as small models do.
fn number(
    args: &Map<String, Value>,
    key: &str,
    default: u64,
    min: u64,
    max: u64,
) -> Result<u64, ToolError> {
    let bad = || {
        ToolError::invalid(
            format!("'{key}' must be a whole number from {min} to {max}"),
            format!("pass \"{key}\": {default} (or leave it out)"),
        )
    };
    let n = match args.get(key) {
        None | Some(Value::Null) => return Ok(default),
        Some(Value::Number(n)) => n.as_u64().ok_or_else(bad)?,
        Some(Value::String(s)) => s.trim().parse::<u64>().map_err(|_| bad())?,
        Some(_) => return Err(bad()),
    };
    if (min..=max).contains(&n) {
        Ok(n)
    } else {
        Err(bad())
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn args(v: Value) -> Option<Map<String, Value>> {
        v.as_object().cloned()
    }

    #[test]
    fn a_workflow_answers_in_three_parts_and_errors_say_how_to_recover() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("app.py"),
            "def helper():\n    pass\n\ndef main():\n    helper()\n",
        )
        .unwrap();
        let tool = CodeTool::default();
        let repo = dir.path().to_str().unwrap();
        let e = tool
            .call(
                "mcp:test",
                args(json!({"action": "status", "repo_path": repo})),
            )
            .unwrap_err();
        assert!(e.hint.contains("canvas(action=\"init\")"), "{e:?}");
        tool.call(
            "mcp:test",
            args(json!({"action": "init", "repo_path": repo})),
        )
        .unwrap();
        let e = tool
            .call(
                "mcp:test",
                args(json!({"action": "impact", "symbol": "helpr"})),
            )
            .unwrap_err();
        assert!(e.message.contains("helper"), "{e:?}");
        assert!(
            e.hint
                .contains("canvas(action=\"impact\", symbol=\"helper\")"),
            "{e:?}"
        );
        let out = tool
            .call(
                "mcp:test",
                args(json!({"action": "impact", "symbol": "helper", "depth": "2"})),
            )
            .unwrap();
        let ContentBlock::Text(t) = &out[0] else {
            panic!("{out:?}")
        };
        assert!(t.text.contains("Board: 2 evidence"), "{}", t.text);
        assert!(t.text.contains("\nNext: "), "{}", t.text);
        let e = tool
            .call("mcp:test", args(json!({"action": "claim", "colour": "x"})))
            .unwrap_err();
        assert!(e.message.contains("unknown argument 'colour'"));
    }
}
