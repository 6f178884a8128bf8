//! The code board as one registered operation, `canvas` (seed 004's single tool whose `action`
//! picks what to do), so that MCP, `easel op run` and agents serve it like every other
//! operation. A thin adapter over [`crate::board`]: it checks the arguments, keeps the
//! repository inside the vault, turns the arguments into an [`Action`], and returns the
//! [`Outcome`] as JSON with the views as PNG images beside it.

use crate::board::{self, Action, BoardError, BoardOptions, Front, Outcome};
use easel_ops::{Ctx, Effect, Op, OpError, OpImage, OpOutput};
use schemars::JsonSchema;
use serde::Deserialize;
use std::path::{Component, Path, PathBuf};
use std::sync::Mutex;

impl From<BoardError> for OpError {
    fn from(e: BoardError) -> OpError {
        OpError::new(e.kind(), e.to_string(), e.hint_for(Front::Mcp))
    }
}

/// The actions, in the order the description teaches them.
pub const ACTIONS: [&str; 9] = [
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

const KINDS: [&str; 6] = ["hypothesis", "finding", "question", "plan", "test", "edit"];

fn action_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({
        "type": "string",
        "enum": ACTIONS,
        "description": "What to do; see the workflow above."
    })
}

fn kind_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({
        "type": "string",
        "enum": KINDS,
        "description": "claim: hypothesis|finding|question; decide: plan|test|edit."
    })
}

/// `canvas`'s input: seed 004's arguments.
#[derive(Clone, Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CanvasInput {
    /// What to do; see the workflow above.
    #[schemars(schema_with = "action_schema")]
    pub action: String,
    /// The repository folder, inside the vault (init; later actions reuse it). Default ".".
    #[serde(default)]
    pub repo_path: Option<String>,
    /// A function, class or module: name, qualified name or id (impact, mark, skip).
    #[serde(default)]
    pub symbol: Option<String>,
    /// Hops of callers in the blast radius (impact). Default 2.
    #[serde(default)]
    #[schemars(range(min = 1, max = 10))]
    pub depth: Option<u64>,
    /// Callers and callees drawn in the impact view, at most 8 a side. Default 20.
    #[serde(default)]
    #[schemars(range(min = 2, max = 200))]
    pub max_nodes: Option<u64>,
    /// The claim or decision (claim, decide), or a note (mark, skip).
    #[serde(default)]
    pub text: Option<String>,
    /// claim: hypothesis|finding|question; decide: plan|test|edit.
    #[serde(default)]
    #[schemars(schema_with = "kind_schema")]
    pub kind: Option<String>,
    /// A task id from tasks.yaml (task_select).
    #[serde(default)]
    pub task_id: Option<String>,
}

/// The `canvas` operation, with the repository of the last call (used when a call names none).
#[derive(Debug, Default)]
pub struct CodeCanvas {
    root: Mutex<Option<PathBuf>>,
}

impl Op for CodeCanvas {
    type Input = CanvasInput;
    type Output = Outcome;
    const NAME: &'static str = "canvas";
    const TITLE: &'static str = "Code canvas: impact and evidence board";
    const DESCRIPTION: &'static str = "Code canvas: see what a change to code affects before you make it, and keep your reasoning on an Evidence Board that survives context compaction.

WORKFLOW:
1. init → parse the repository, get the architecture map (evidence E1)
2. impact symbol=\"name\" → callers, callees and blast radius BEFORE you change it; it becomes the focus
3. claim text=\"...\" → record a hypothesis, finding or question
4. decide text=\"...\" → record a plan, test or edit
5. mark / skip symbol=\"...\" → tick off each affected symbol once verified (or out of scope); progress shows a/b

ACTIONS:
• init (repo_path, default \".\", a folder inside the vault): parse the code, draw the architecture
• impact (symbol, depth=2, max_nodes=20): blast radius of a function, class or module
• claim (text, kind=hypothesis|finding|question)
• decide (text, kind=plan|test|edit)
• mark / skip (symbol, default the focus; text optional)
• status: redraw the board; read: the whole board as text (no images)
• task_select (task_id): pick a task from tasks.yaml

Every answer has 'result', 'board' (counts, focus, progress) and 'next' — follow the next hint when unsure. Images come inline as PNG.

TIPS:
• Use impact BEFORE editing; names may be short (send), qualified (app.Session.send) or ids (src/app.py:Session.send); a typo gets suggestions, and a name several symbols share picks the likeliest and names the others.
• Claims and decisions link to the latest evidence automatically.
• After a context reset, call status (or read) to get back your findings.

Example session: {\"action\": \"init\"} → {\"action\": \"impact\", \"symbol\": \"parse_config\"} → {\"action\": \"claim\", \"text\": \"load_settings passes None\", \"kind\": \"finding\"} → {\"action\": \"decide\", \"text\": \"add a default in parse_config\"} → {\"action\": \"mark\", \"symbol\": \"load_settings\"}";
    // It writes `.codecanvas/` (the board, the cache, the views) but never overwrites a
    // person's file.
    const EFFECT: Effect = Effect::Write;

    fn run(&self, ctx: &Ctx, input: CanvasInput) -> Result<Outcome, OpError> {
        let (root, action) = self.prepare(ctx, input)?;
        let actor = ctx.actor().as_str().to_string();
        let opts = BoardOptions::new(Front::Mcp, &actor);
        let outcome = run_action(ctx, &root, action, &opts)?;
        if let Ok(mut r) = self.root.lock() {
            *r = Some(root);
        }
        Ok(outcome)
    }

    fn run_json(&self, ctx: &Ctx, input: CanvasInput) -> Result<OpOutput, OpError> {
        let outcome = self.run(ctx, input)?;
        let images = outcome
            .images
            .iter()
            .filter(|i| !i.png.is_empty())
            .map(|i| OpImage::png(i.png.clone()))
            .collect();
        Ok(OpOutput::of(&outcome)?.with_images(images))
    }
}

/// Runs an action; `init` reports its parsing progress as events.
fn run_action(
    ctx: &Ctx,
    root: &Path,
    action: Action,
    opts: &BoardOptions,
) -> Result<Outcome, OpError> {
    if !matches!(action, Action::Init) {
        return Ok(board::run(root, action, opts)?);
    }
    let progress = |done: usize, total: usize| {
        ctx.progress(done as u64, Some(total as u64), "parsing");
    };
    let build = crate::BuildOptions {
        use_cache: true,
        progress: Some(&progress),
    };
    Ok(board::init_repo(root, &build, opts)?.1)
}

impl CodeCanvas {
    /// The repository and the action of a call, every argument checked.
    fn prepare(&self, ctx: &Ctx, input: CanvasInput) -> Result<(PathBuf, Action), OpError> {
        let CanvasInput {
            action: name,
            repo_path,
            symbol,
            depth,
            max_nodes,
            text,
            kind,
            task_id,
        } = input;
        let action = match name.as_str() {
            "init" => Action::Init,
            "impact" => Action::Impact {
                symbol: symbol.ok_or_else(|| {
                    OpError::invalid(
                        "impact needs a 'symbol'",
                        "pass the function or class you will change, e.g. {\"action\": \"impact\", \"symbol\": \"parse_config\"}",
                    )
                })?,
                depth: within("depth", depth, 2, 1, 10)? as u32,
                max_nodes: within("max_nodes", max_nodes, 20, 2, 200)? as usize,
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
                task_id: task_id.ok_or_else(|| {
                    OpError::invalid(
                        "task_select needs a 'task_id'",
                        "pass an id from tasks.yaml, e.g. {\"action\": \"task_select\", \"task_id\": \"T1\"}",
                    )
                })?,
            },
            other => {
                return Err(OpError::invalid(
                    format!("'{other}' is not an action of canvas"),
                    format!("use one of: {}", ACTIONS.join(", ")),
                ));
            }
        };
        let root = self.root_for(ctx.vault().root(), repo_path.as_deref(), &action)?;
        Ok((root, action))
    }

    /// The repository: `repo_path` when given (relative to the vault, or absolute inside it),
    /// else the one of the last call, else the vault's folder. Every action but `init` then
    /// works on the nearest board at or above it within the vault ([`crate::repo_root`]'s
    /// rule, which the command line and the hooks follow too).
    fn root_for(
        &self,
        vault: &Path,
        repo_path: Option<&str>,
        action: &Action,
    ) -> Result<PathBuf, OpError> {
        let dir = match repo_path {
            Some(p) => inside_vault(vault, p)?,
            None => match self.root.lock().ok().and_then(|r| r.clone()) {
                Some(r) => return Ok(r),
                None => vault.to_path_buf(),
            },
        };
        if matches!(action, Action::Init) {
            return Ok(dir);
        }
        let found = crate::repo_root(&dir);
        Ok(if found.starts_with(vault) { found } else { dir })
    }
}

/// `repo_path` as a folder inside the vault: relative to it, or absolute and inside it;
/// neither `..` nor a symbolic link may lead out of it.
fn inside_vault(vault: &Path, given: &str) -> Result<PathBuf, OpError> {
    let outside = |why: &str| {
        OpError::invalid(
            format!(
                "repo_path '{given}' {why}: the code canvas works on folders inside the vault '{}'",
                vault.display()
            ),
            "pass a folder inside the vault, relative to it (repo_path=\".\" for the vault itself, or \"src/app\"), or start the server with --vault at the repository",
        )
    };
    let path = Path::new(given.trim());
    let joined = if path.is_absolute() {
        path.to_path_buf()
    } else {
        vault.join(path)
    };
    // `..` is refused as written, before any link is followed: a path that climbs out and
    // back in says nothing a path inside would not.
    if path.components().any(|c| c == Component::ParentDir) {
        return Err(outside("climbs out with '..'"));
    }
    // A folder that does not exist yet is checked as far as it exists, so a link above it
    // cannot lead out either.
    let mut existing = joined.as_path();
    let mut rest = Vec::new();
    while !existing.exists() {
        match (existing.parent(), existing.file_name()) {
            (Some(p), Some(name)) => {
                rest.push(name.to_os_string());
                existing = p;
            }
            _ => break,
        }
    }
    let real = std::fs::canonicalize(existing).map_err(|_| outside("cannot be read"))?;
    if !real.starts_with(vault) {
        return Err(outside("is outside the vault"));
    }
    Ok(rest.into_iter().rev().fold(real, |p, n| p.join(n)))
}

/// A whole number argument in `min..=max`, or `default` when absent.
fn within(key: &str, value: Option<u64>, default: u64, min: u64, max: u64) -> Result<u64, OpError> {
    let n = value.unwrap_or(default);
    if (min..=max).contains(&n) {
        Ok(n)
    } else {
        Err(OpError::invalid(
            format!("'{key}' must be a whole number from {min} to {max}"),
            format!("pass \"{key}\": {default} (or leave it out)"),
        ))
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use easel_ops::{Actor, Registry};
    use serde_json::json;

    fn setup() -> (tempfile::TempDir, Registry, Ctx) {
        let dir = tempfile::tempdir().unwrap();
        let repo = dir.path().join("repo");
        std::fs::create_dir_all(&repo).unwrap();
        std::fs::write(
            repo.join("app.py"),
            "def helper():\n    pass\n\ndef main():\n    helper()\n",
        )
        .unwrap();
        let vault = easel_vault::Vault::open(dir.path()).unwrap();
        let mut registry = Registry::new();
        registry.register(CodeCanvas::default());
        (dir, registry, Ctx::new(vault, Actor::mcp("test")))
    }

    #[test]
    fn a_workflow_answers_in_three_parts_and_errors_say_how_to_recover() {
        let (_dir, reg, ctx) = setup();
        let e = reg
            .call(
                &ctx,
                "canvas",
                json!({"action": "status", "repo_path": "repo"}),
            )
            .unwrap_err();
        assert!(e.hint.contains("canvas(action=\"init\")"), "{e:?}");
        let out = reg
            .call(
                &ctx,
                "canvas",
                json!({"action": "init", "repo_path": "repo"}),
            )
            .unwrap();
        assert_eq!(out.images.len(), 2, "architecture and board");
        assert!(out.images.iter().all(|i| i.data.starts_with(b"\x89PNG")));
        let e = reg
            .call(
                &ctx,
                "canvas",
                json!({"action": "impact", "symbol": "helpr"}),
            )
            .unwrap_err();
        assert!(e.message.contains("helper"), "{e:?}");
        assert!(
            e.hint
                .contains("canvas(action=\"impact\", symbol=\"helper\")"),
            "{e:?}"
        );
        let out = reg
            .call(
                &ctx,
                "canvas",
                json!({"action": "impact", "symbol": "helper", "depth": "2"}),
            )
            .unwrap();
        let v: serde_json::Value = serde_json::from_str(&out.json).unwrap();
        assert!(
            v["board"]
                .as_str()
                .unwrap()
                .starts_with("Board: 2 evidence"),
            "{v}"
        );
        assert!(v["next"].as_str().unwrap().starts_with("Next: "), "{v}");
        let e = reg
            .call(&ctx, "canvas", json!({"action": "claim", "colour": "x"}))
            .unwrap_err();
        assert!(e.message.contains("unknown argument 'colour'"), "{e:?}");
        let e = reg
            .call(&ctx, "canvas", json!({"action": "fly"}))
            .unwrap_err();
        assert!(e.hint.contains("use one of: init, impact"), "{e:?}");
        let e = reg
            .call(
                &ctx,
                "canvas",
                json!({"action": "impact", "symbol": "helper", "depth": 11}),
            )
            .unwrap_err();
        assert!(e.message.contains("from 1 to 10"), "{e:?}");
    }

    /// A path outside the vault is refused before anything is read or written there.
    #[test]
    fn repo_path_stays_inside_the_vault() {
        let (dir, reg, ctx) = setup();
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("x.py"), "def f():\n    pass\n").unwrap();
        let abs = outside.path().to_str().unwrap().to_string();
        let link = dir.path().join("link");
        #[cfg(unix)]
        std::os::unix::fs::symlink(outside.path(), &link).unwrap();
        let mut refused = vec![
            abs,
            "../x".to_string(),
            "repo/../../x".to_string(),
            "/".to_string(),
        ];
        if cfg!(unix) {
            refused.push("link".to_string());
            refused.push("link/new".to_string());
        }
        for p in refused {
            let e = reg
                .call(&ctx, "canvas", json!({"action": "init", "repo_path": p}))
                .unwrap_err();
            assert_eq!(e.kind, easel_ops::ErrorKind::Invalid, "{p}: {e:?}");
            assert!(e.message.contains("inside the vault"), "{p}: {e:?}");
            assert!(e.hint.contains("--vault"), "{p}: {e:?}");
        }
        assert!(!outside.path().join(".codecanvas").exists());
        // Inside: relative, absolute, and the vault itself.
        let inside = dir.path().join("repo").canonicalize().unwrap();
        for p in ["repo", inside.to_str().unwrap(), "."] {
            reg.call(&ctx, "canvas", json!({"action": "init", "repo_path": p}))
                .unwrap();
        }
    }

    /// A call from a subfolder of the repository works on the repository's board.
    #[test]
    fn a_subfolder_finds_the_repository_s_board() {
        let (dir, reg, ctx) = setup();
        std::fs::create_dir_all(dir.path().join("repo/pkg")).unwrap();
        reg.call(
            &ctx,
            "canvas",
            json!({"action": "init", "repo_path": "repo"}),
        )
        .unwrap();
        let mut other = Registry::new();
        other.register(CodeCanvas::default());
        let out = other
            .call(
                &ctx,
                "canvas",
                json!({"action": "status", "repo_path": "repo/pkg"}),
            )
            .unwrap();
        assert!(out.json.contains("Board: 1 evidence"), "{}", out.json);
        assert!(!dir.path().join("repo/pkg/.codecanvas").exists());
    }
}
