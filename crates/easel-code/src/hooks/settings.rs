//! Installing the hooks into a project's `.claude/settings.json`, merged with what is there.

use super::HookEvent;
use crate::board::BoardError;
use serde::Serialize;
use serde_json::{Map, Value, json};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The events, matchers and time limits (seconds) Easel installs. `PreToolUse` may parse a
/// whole repository the first time, hence its longer limit.
pub const HOOK_EVENTS: [(HookEvent, &str, u32); 3] = [
    (HookEvent::SessionStart, "startup|resume|clear|compact", 10),
    (HookEvent::PreToolUse, "*", 120),
    (HookEvent::PostToolUse, "Edit|MultiEdit|Write", 30),
];

/// What an install did.
#[derive(Debug, Clone, Serialize)]
pub struct InstallReport {
    pub path: PathBuf,
    /// The file did not exist before.
    pub created: bool,
    /// Easel hooks from an earlier install that were replaced.
    pub replaced: usize,
    /// The `hooks` object Easel added, as written.
    pub hooks: Value,
}

/// `<project>/.claude/settings.json`.
pub fn settings_path(project: &Path) -> PathBuf {
    project.join(".claude").join("settings.json")
}

fn command_for(easel: &str, event: HookEvent) -> String {
    let exe = if easel.contains([' ', '\'', '"']) {
        format!("'{}'", easel.replace('\'', "'\\''"))
    } else {
        easel.to_string()
    };
    format!("{exe} code hook {}", event.verb())
}

/// Whether a settings hook entry is one of Easel's (so a new install replaces it).
fn is_ours(hook: &Value) -> bool {
    hook.get("command")
        .and_then(Value::as_str)
        .is_some_and(|c| {
            HOOK_EVENTS
                .iter()
                .any(|(e, _, _)| c.ends_with(&format!(" code hook {}", e.verb())))
        })
}

/// The hooks Easel installs, in Claude Code's settings format, calling `easel` (a command name
/// on `PATH` or a full path).
pub fn hooks_settings(easel: &str) -> Value {
    let mut hooks = Map::new();
    for (event, matcher, timeout) in HOOK_EVENTS {
        hooks.insert(
            event.name().to_string(),
            json!([{"matcher": matcher, "hooks": [{"type": "command", "command": command_for(easel, event), "timeout": timeout}]}]),
        );
    }
    Value::Object(hooks)
}

/// Merges Easel's hooks into `<project>/.claude/settings.json`: every other setting and hook is
/// kept as it was, Easel's own entries from an earlier install are replaced, and the file is
/// replaced atomically — unless it changed while being merged, which is reported instead of
/// overwritten.
pub fn install(project: &Path, easel: &str) -> Result<InstallReport, BoardError> {
    if !project.is_dir() {
        return Err(crate::CodeError::NotADirectory {
            path: project.to_path_buf(),
        }
        .into());
    }
    let path = settings_path(project);
    let io = |p: &Path, e: std::io::Error| {
        BoardError::Code(crate::CodeError::Io {
            path: p.to_path_buf(),
            source: e,
        })
    };
    let before = match std::fs::read(&path) {
        Ok(b) => Some(b),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(io(&path, e)),
    };
    let bad = |reason: String| BoardError::BadSettings {
        path: path.clone(),
        reason,
    };
    let mut settings: Map<String, Value> = match &before {
        None => Map::new(),
        Some(b) if b.iter().all(u8::is_ascii_whitespace) => Map::new(),
        Some(b) => match serde_json::from_slice::<Value>(b) {
            Ok(Value::Object(m)) => m,
            Ok(_) => return Err(bad("the top level is not an object".into())),
            Err(e) => return Err(bad(e.to_string())),
        },
    };
    let hooks = settings
        .entry("hooks")
        .or_insert_with(|| Value::Object(Map::new()));
    let Value::Object(hooks) = hooks else {
        return Err(bad("'hooks' is not an object".into()));
    };
    let ours = hooks_settings(easel);
    let mut replaced = 0;
    for (event, _, _) in HOOK_EVENTS {
        let list = hooks
            .entry(event.name())
            .or_insert_with(|| Value::Array(Vec::new()));
        let Value::Array(groups) = list else {
            return Err(bad(format!("'hooks.{}' is not a list", event.name())));
        };
        for g in groups.iter_mut() {
            if let Some(Value::Array(hs)) = g.get_mut("hooks") {
                let n = hs.len();
                hs.retain(|h| !is_ours(h));
                replaced += n - hs.len();
            }
        }
        groups.retain(|g| {
            g.get("hooks")
                .and_then(Value::as_array)
                .is_none_or(|hs| !hs.is_empty())
        });
        if let Some(Value::Array(new)) = ours.get(event.name()) {
            groups.extend(new.iter().cloned());
        }
    }
    let mut bytes = serde_json::to_vec_pretty(&Value::Object(settings))
        .map_err(|e| bad(format!("cannot encode: {e}")))?;
    bytes.push(b'\n');
    let dir = path.parent().unwrap_or(project);
    std::fs::create_dir_all(dir).map_err(|e| io(dir, e))?;
    let mut tmp = tempfile::NamedTempFile::new_in(dir).map_err(|e| io(dir, e))?;
    tmp.write_all(&bytes).map_err(|e| io(tmp.path(), e))?;
    tmp.as_file().sync_all().map_err(|e| io(&path, e))?;
    // Claude Code or a person may have saved the file meanwhile: check just before replacing.
    let now = std::fs::read(&path).ok();
    if now != before {
        return Err(BoardError::SettingsChanged { path });
    }
    tmp.persist(&path).map_err(|e| io(&path, e.error))?;
    Ok(InstallReport {
        path,
        created: before.is_none(),
        replaced,
        hooks: ours,
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn merges_with_other_settings_and_replaces_its_own_entries() {
        let dir = tempfile::tempdir().unwrap();
        let path = settings_path(dir.path());
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(
            &path,
            r#"{"model": "opus", "hooks": {"PostToolUse": [{"matcher": "Write", "hooks": [{"type": "command", "command": "prettier --write"}]}]}}"#,
        )
        .unwrap();
        let first = install(dir.path(), "easel").unwrap();
        assert!(!first.created);
        assert_eq!(first.replaced, 0);
        let again = install(dir.path(), "/opt/my tools/easel").unwrap();
        assert_eq!(again.replaced, 3);
        let v: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        assert_eq!(v["model"], "opus");
        let post = v["hooks"]["PostToolUse"].as_array().unwrap();
        assert_eq!(post.len(), 2);
        assert_eq!(post[0]["hooks"][0]["command"], "prettier --write");
        assert_eq!(
            post[1]["hooks"][0]["command"],
            "'/opt/my tools/easel' code hook post-tool-use"
        );
        assert_eq!(v["hooks"]["PreToolUse"].as_array().unwrap().len(), 1);
        assert_eq!(
            v["hooks"]["SessionStart"][0]["matcher"],
            "startup|resume|clear|compact"
        );
    }

    #[test]
    fn broken_settings_are_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let path = settings_path(dir.path());
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, "{ not json").unwrap();
        assert!(matches!(
            install(dir.path(), "easel"),
            Err(BoardError::BadSettings { .. })
        ));
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "{ not json");
    }
}
