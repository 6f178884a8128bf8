//! Claude Code hooks: always-on code context at three points of a session.
//!
//! - `SessionStart` arms the hooks; when the workspace already has a board (a resumed or
//!   compacted session), it puts the board's summary back into the model's context.
//! - `PreToolUse` runs `init` once the workspace root is clear (a project marker, or a real
//!   source file the tool touches) and never on an empty folder; afterwards it costs one `stat`.
//! - `PostToolUse` on Edit, MultiEdit and Write finds the symbols the edit touched and reports
//!   their callers, callees and blast radius. The graph comes from the cache, so only the
//!   edited file is parsed again; nothing is rendered and no lock is taken.
//!
//! Every hook answers with `{"hookSpecificOutput": {"hookEventName": …, "additionalContext":
//! …}}`, the part of Claude Code's hook output that reaches the model. A hook never breaks the
//! session: [`handle`] returns no output on any failure and logs it to `.codecanvas/hook.log`.

mod input;
mod settings;

pub use input::{HookInput, edited_lines, repo_root, workspace_root};
pub use settings::{
    CommandSource, HOOK_EVENTS, HookCommand, InstallReport, SettingsFile, hook_command,
    hooks_settings, install, local_settings_path, settings_path,
};

use crate::board::{self, Action, BoardError, BoardOptions, Front};
use crate::{BuildOptions, Graph, Node, NodeKind};
use serde_json::json;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The hook events Easel answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HookEvent {
    SessionStart,
    PreToolUse,
    PostToolUse,
}

impl HookEvent {
    /// Claude Code's name of the event.
    pub fn name(self) -> &'static str {
        match self {
            HookEvent::SessionStart => "SessionStart",
            HookEvent::PreToolUse => "PreToolUse",
            HookEvent::PostToolUse => "PostToolUse",
        }
    }

    /// The command-line verb: `session-start`, `pre-tool-use`, `post-tool-use`.
    pub fn verb(self) -> &'static str {
        match self {
            HookEvent::SessionStart => "session-start",
            HookEvent::PreToolUse => "pre-tool-use",
            HookEvent::PostToolUse => "post-tool-use",
        }
    }
}

/// The tools whose results change files.
const EDIT_TOOLS: &[&str] = &["Edit", "MultiEdit", "Write"];
/// At most this many edited symbols are reported per edit.
const MAX_SYMBOLS: usize = 3;
/// The log is started afresh beyond this size.
const LOG_LIMIT: u64 = 1 << 20;

/// Runs one hook on the JSON Claude Code sent, returning the JSON to print (or nothing).
/// Never fails: a problem is logged to `<root>/.codecanvas/hook.log` and the hook stays quiet,
/// because a failing hook must not disturb the session it serves.
pub fn handle(event: HookEvent, stdin: &[u8]) -> Option<String> {
    let start = Instant::now();
    let input = match HookInput::parse(stdin) {
        Ok(i) => i,
        Err(e) => {
            tracing::warn!("{e}");
            return None;
        }
    };
    let cwd = input.cwd.clone();
    let target = input.target_path();
    let root = workspace_root(cwd.as_deref(), target.as_deref());
    let outcome = match event {
        HookEvent::SessionStart => session_start(&input, root.as_deref()),
        HookEvent::PreToolUse => pre_tool_use(root.as_deref()),
        HookEvent::PostToolUse => post_tool_use(&input, root.as_deref(), target.as_deref()),
    };
    let ms = start.elapsed().as_millis();
    let tool = input.tool_name.as_deref().unwrap_or("-");
    match outcome {
        Ok(Some(context)) => {
            log(
                root.as_deref(),
                &format!("{} {tool} ok {ms} ms", event.name()),
            );
            Some(
                json!({"hookSpecificOutput": {"hookEventName": event.name(), "additionalContext": context}})
                    .to_string(),
            )
        }
        Ok(None) => None,
        Err(e) => {
            log(
                root.as_deref(),
                &format!(
                    "{} {tool} failed after {ms} ms: {e} (hint: {})",
                    event.name(),
                    e.hint_for(Front::Hook)
                ),
            );
            None
        }
    }
}

/// Appends a line to `.codecanvas/hook.log` of a root that has a board folder.
fn log(root: Option<&Path>, line: &str) {
    let Some(dir) = root
        .map(|r| r.join(board::BOARD_DIR))
        .filter(|d| d.is_dir())
    else {
        tracing::debug!("{line}");
        return;
    };
    let path = dir.join("hook.log");
    if std::fs::metadata(&path).is_ok_and(|m| m.len() > LOG_LIMIT) {
        let _ = std::fs::rename(&path, dir.join("hook.log.1"));
    }
    let line = format!("{} {line}\n", jiff::Timestamp::now());
    if let Err(e) = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .and_then(|mut f| f.write_all(line.as_bytes()))
    {
        tracing::debug!("cannot write {}: {e}", path.display());
    }
}

fn opts() -> BoardOptions<'static> {
    BoardOptions {
        images: false,
        ..BoardOptions::new(Front::Hook, "hook:claude-code")
    }
}

fn session_start(input: &HookInput, root: Option<&Path>) -> Result<Option<String>, BoardError> {
    let Some(root) = root.filter(|r| board::exists(r)) else {
        return Ok(Some(format!(
            "[Easel ARMED] Code canvas hooks are on. The repository is parsed once its root is clear \
(a folder with .git, Cargo.toml, package.json, pyproject.toml, go.mod, … or a source file you open). \
Before changing a function, see its blast radius with {}; record findings with {} and plans with {}.",
            board::call(Front::Hook, "impact", &[("symbol", "NAME")]),
            board::call(Front::Hook, "claim", &[("text", "…")]),
            board::call(Front::Hook, "decide", &[("text", "…")]),
        )));
    };
    let out = board::run(root, Action::Status, &opts())?;
    let why = match input.source.as_deref() {
        Some("compact") => " (restored after the context was compacted)",
        Some("resume") => " (resumed session)",
        _ => "",
    };
    Ok(Some(format!(
        "[Easel BOARD]{why} root={}\n{}",
        root.display(),
        out.text()
    )))
}

fn pre_tool_use(root: Option<&Path>) -> Result<Option<String>, BoardError> {
    // The common case, on every tool call once initialised: one stat.
    let Some(root) = root.filter(|r| !board::exists(r)) else {
        return Ok(None);
    };
    // Never initialise an empty folder: the graph would be empty and stick.
    if easel_codegraph::discover(root)?.is_empty() {
        return Ok(None);
    }
    let dir = root.join(board::BOARD_DIR);
    std::fs::create_dir_all(&dir).map_err(|e| crate::CodeError::Io {
        path: dir.clone(),
        source: e,
    })?;
    // Claude Code runs the hooks of parallel tool calls at once; one of them initialises,
    // the others go on without waiting.
    let lock_path = dir.join("hook-init.lock");
    let lock = std::fs::File::create(&lock_path).map_err(|e| crate::CodeError::Io {
        path: lock_path.clone(),
        source: e,
    })?;
    if lock.try_lock().is_err() || board::exists(root) {
        return Ok(None);
    }
    let out = board::run(
        root,
        Action::Init,
        &BoardOptions {
            images: true,
            ..opts()
        },
    )?;
    drop(lock);
    Ok(Some(format!(
        "[Easel AUTO-INIT] root={}\n{}",
        root.display(),
        out.text()
    )))
}

fn post_tool_use(
    input: &HookInput,
    root: Option<&Path>,
    target: Option<&Path>,
) -> Result<Option<String>, BoardError> {
    let tool = input.tool_name.as_deref().unwrap_or_default();
    if !EDIT_TOOLS.contains(&tool) {
        return Ok(None);
    }
    // Only after the first init: the cache is what makes this fast.
    let (Some(root), Some(file)) = (root.filter(|r| board::exists(r)), target) else {
        return Ok(None);
    };
    if crate::Lang::from_path(file).is_none() {
        return Ok(None);
    }
    let Some(rel) = relative(root, file) else {
        return Ok(None);
    };
    let built = easel_codegraph::build(
        root,
        &BuildOptions {
            use_cache: true,
            progress: None,
        },
    )?;
    let text = std::fs::read_to_string(file).unwrap_or_default();
    let lines = edited_lines(input, &text);
    let symbols = edited_symbols(&built.graph, &rel, &lines);
    if symbols.is_empty() {
        return Ok(None);
    }
    let state = board::load(root)?;
    let mut out = format!("[Easel IMPACT] root={}", root.display());
    let mut worst: Option<(&Node, usize)> = None;
    for node in &symbols {
        let i = easel_codegraph::impact(&built.graph, &node.id, 2)?;
        let c = &i.counts;
        out.push_str(&format!(
            "\n{} ({}:{}): {} callers, {} callees, blast radius {}",
            node.qualname, node.file, node.start_line, c.callers, c.callees, c.blast_radius
        ));
        if !i.callers.is_empty() {
            let names: Vec<&str> = i
                .callers
                .iter()
                .take(5)
                .map(|n| n.qualname.as_str())
                .collect();
            out.push_str(&format!("; called by {}", names.join(", ")));
            if i.callers.len() > 5 {
                out.push_str(&format!(" and {} more", i.callers.len() - 5));
            }
        }
        if let Some(s) = &state
            && let Some(f) = &s.focus
            && f.affected.iter().any(|a| a.node == node.id)
            && !s.is_addressed(&node.id)
        {
            out.push_str(&format!(
                "\n  in the blast radius of {}: once verified, {}",
                f.symbol,
                board::call(Front::Hook, "mark", &[("symbol", &node.qualname)])
            ));
        }
        if worst.is_none_or(|(_, n)| c.blast_radius > n) {
            worst = Some((node, c.blast_radius));
        }
    }
    if let Some(s) = &state {
        out.push('\n');
        out.push_str(&board::board_line(s));
    }
    match worst {
        Some((n, radius)) if radius > 0 => out.push_str(&format!(
            "\nNext: check that the callers still work with this change; {} lists them all.",
            board::call(Front::Hook, "impact", &[("symbol", &n.qualname)])
        )),
        _ => out.push_str("\nNext: nothing calls the edited code; carry on."),
    }
    Ok(Some(out))
}

/// `file` relative to `root`, with `/`.
fn relative(root: &Path, file: &Path) -> Option<String> {
    let canon = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    let (root, file): (PathBuf, PathBuf) = (canon(root), canon(file));
    let rel = file.strip_prefix(&root).ok()?;
    Some(
        rel.components()
            .map(|c| c.as_os_str().to_string_lossy())
            .collect::<Vec<_>>()
            .join("/"),
    )
}

/// The innermost function or class around each edited range; the module when the edit is in
/// top-level code or nothing says where it was.
fn edited_symbols<'g>(graph: &'g Graph, rel: &str, lines: &[(u32, u32)]) -> Vec<&'g Node> {
    let in_file: Vec<&Node> = graph.nodes.iter().filter(|n| n.file == rel).collect();
    let module = in_file.iter().copied().find(|n| n.kind == NodeKind::Module);
    let mut out: Vec<&Node> = Vec::new();
    for &(first, last) in lines {
        let inner = in_file
            .iter()
            .copied()
            .filter(|n| n.kind != NodeKind::Module)
            .filter(|n| n.start_line <= first && last <= n.end_line.max(n.start_line))
            .min_by_key(|n| n.end_line.saturating_sub(n.start_line));
        // An edit spanning several definitions: each one it overlaps.
        let chosen: Vec<&Node> = match inner {
            Some(n) => vec![n],
            None => {
                let overlapping: Vec<&Node> = in_file
                    .iter()
                    .copied()
                    .filter(|n| n.kind == NodeKind::Func)
                    .filter(|n| n.start_line <= last && first <= n.end_line)
                    .collect();
                if overlapping.is_empty() {
                    module.into_iter().collect()
                } else {
                    overlapping
                }
            }
        };
        for n in chosen {
            if !out.iter().any(|o| o.id == n.id) {
                out.push(n);
            }
        }
    }
    if out.is_empty()
        && let Some(m) = module
    {
        out.push(m);
    }
    out.truncate(MAX_SYMBOLS);
    out
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn lock_is_free(root: &Path) -> bool {
        let path = root.join(board::BOARD_DIR).join("hook-init.lock");
        std::fs::File::open(path).unwrap().try_lock().is_ok()
    }

    /// A repository with a file of deep nesting and a video segment named `.ts`: the first
    /// tool call's init finishes, says what it left out, and frees its lock.
    #[test]
    fn pre_tool_use_init_finishes_on_adversarial_files_and_frees_its_lock() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir(root.join(".git")).unwrap();
        std::fs::write(root.join("app.py"), "def f():\n    pass\n").unwrap();
        let depth = 50_000;
        std::fs::write(
            root.join("deep.js"),
            format!("x = {}{};\n", "[".repeat(depth), "]".repeat(depth)),
        )
        .unwrap();
        let mut video = Vec::new();
        for i in 0..1000u32 {
            video.extend([0x47, 0x40, 0x11, 0x10, 0, 0, (i % 251) as u8]);
            video.extend(std::iter::repeat_n(0xff, 181));
        }
        std::fs::write(root.join("seg.ts"), video).unwrap();
        let out = pre_tool_use(Some(root)).unwrap().unwrap();
        assert!(out.starts_with("[Easel AUTO-INIT]"), "{out}");
        assert!(out.contains("deep.js (too complex"), "{out}");
        assert!(out.contains("seg.ts (binary, not text)"), "{out}");
        assert!(board::exists(root));
        assert!(lock_is_free(root));
    }

    /// An init that fails (its graph cannot be written) frees the lock too, so the next tool
    /// call tries again instead of waiting on a lock nobody holds.
    #[test]
    fn a_failed_init_frees_its_lock() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir(root.join(".git")).unwrap();
        std::fs::write(root.join("app.py"), "def f():\n    pass\n").unwrap();
        // A folder where the graph file goes: writing it fails.
        std::fs::create_dir_all(easel_codegraph::graph_path(root)).unwrap();
        assert!(pre_tool_use(Some(root)).is_err());
        assert!(lock_is_free(root));
    }
}
