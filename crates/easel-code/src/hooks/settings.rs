//! Installing the hooks into a project's `.claude/settings.json`, merged with what is there.

use super::HookEvent;
use crate::board::BoardError;
use serde::Serialize;
use serde_json::{Map, Value, json};
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
    /// The easel command the hooks run, as written into the settings.
    pub command: String,
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

/// Claude Code's personal settings of a project (`.claude/settings.local.json`), which it keeps
/// out of version control: hooks for one person, not the team.
pub fn local_settings_path(project: &Path) -> PathBuf {
    project.join(".claude").join("settings.local.json")
}

/// Which settings file of a project Easel's hooks go into.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SettingsFile {
    /// `.claude/settings.json`, shared with everyone who checks the project out.
    #[default]
    Shared,
    /// `.claude/settings.local.json`, this person's only.
    Local,
}

/// Why the hooks run the command they run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CommandSource {
    /// Named by the person installing (`--command`).
    Given,
    /// `easel`: the `easel` that `PATH` finds is the running binary.
    Path,
    /// The running binary's full path: `PATH` finds no `easel`, or another one.
    NotOnPath,
    /// The running binary's full path: `PATH` finds another `easel` (at `other`).
    OtherOnPath,
}

/// The command the hooks run and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct HookCommand {
    pub command: String,
    pub source: CommandSource,
    /// The `easel` that `PATH` finds, when it is not the running binary.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub other: Option<PathBuf>,
}

impl HookCommand {
    /// One line for people: what the hooks run and why.
    pub fn describe(&self) -> String {
        match (&self.source, &self.other) {
            (CommandSource::Given, _) => format!("the hooks run '{}' (as given)", self.command),
            (CommandSource::Path, _) => {
                "the hooks run 'easel' (the easel on PATH is this binary)".to_string()
            }
            (CommandSource::OtherOnPath, Some(o)) => format!(
                "the hooks run '{}' (the easel on PATH, {}, is another binary)",
                self.command,
                o.display()
            ),
            _ => format!("the hooks run '{}' (no easel on PATH)", self.command),
        }
    }
}

/// The command the hooks should run: `given` when there is one; else `easel` when the first
/// `easel` on `path_var` (the `PATH` variable) is the running binary `exe` (compared as
/// canonical paths, so a symlink on `PATH` to the binary counts), else `exe`'s full path, so
/// that hooks installed by `./target/release/easel` run that binary rather than failing on
/// every call.
pub fn hook_command(
    given: Option<&str>,
    path_var: Option<&std::ffi::OsStr>,
    exe: &Path,
) -> HookCommand {
    if let Some(g) = given {
        return HookCommand {
            command: g.to_string(),
            source: CommandSource::Given,
            other: None,
        };
    }
    let exe = std::fs::canonicalize(exe).unwrap_or_else(|_| exe.to_path_buf());
    let name = format!("easel{}", std::env::consts::EXE_SUFFIX);
    let on_path = path_var
        .into_iter()
        .flat_map(std::env::split_paths)
        .map(|d| d.join(&name))
        .find(|c| is_executable(c));
    match on_path {
        Some(p) if std::fs::canonicalize(&p).is_ok_and(|c| c == exe) => HookCommand {
            command: "easel".to_string(),
            source: CommandSource::Path,
            other: None,
        },
        other => HookCommand {
            command: exe.to_string_lossy().into_owned(),
            source: if other.is_some() {
                CommandSource::OtherOnPath
            } else {
                CommandSource::NotOnPath
            },
            other,
        },
    }
}

fn is_executable(p: &Path) -> bool {
    let Ok(m) = std::fs::metadata(p) else {
        return false;
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        m.is_file() && m.permissions().mode() & 0o111 != 0
    }
    #[cfg(not(unix))]
    {
        m.is_file()
    }
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
pub fn install(
    project: &Path,
    easel: &str,
    file: SettingsFile,
) -> Result<InstallReport, BoardError> {
    if !project.is_dir() {
        return Err(crate::CodeError::Graph(crate::GraphError::NotADirectory {
            path: project.to_path_buf(),
        })
        .into());
    }
    let path = match file {
        SettingsFile::Shared => settings_path(project),
        SettingsFile::Local => local_settings_path(project),
    };
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
    // Claude Code or a person may have saved the file meanwhile: check just before replacing.
    let now = std::fs::read(&path).ok();
    if now != before {
        return Err(BoardError::SettingsChanged { path });
    }
    // The vault's one writer: a temporary file flushed to disk, renamed over the settings
    // (whose permissions it keeps), and the folder flushed, so a crash leaves the old file or
    // the new one.
    easel_vault::write_atomic(&path, &bytes)?;
    Ok(InstallReport {
        path,
        command: easel.to_string(),
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
        let first = install(dir.path(), "easel", SettingsFile::Shared).unwrap();
        assert!(!first.created);
        assert_eq!(first.replaced, 0);
        let again = install(dir.path(), "/opt/my tools/easel", SettingsFile::Shared).unwrap();
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

    #[cfg(unix)]
    #[test]
    fn the_hooks_run_the_installing_binary_unless_path_finds_the_same_one() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let exe = dir.path().join("build").join("easel");
        std::fs::create_dir_all(exe.parent().unwrap()).unwrap();
        std::fs::write(&exe, "#!/bin/sh\n").unwrap();
        std::fs::set_permissions(&exe, std::fs::Permissions::from_mode(0o755)).unwrap();
        let full = std::fs::canonicalize(&exe).unwrap();
        // No easel on PATH: the full path.
        let empty = dir.path().join("empty");
        std::fs::create_dir_all(&empty).unwrap();
        let c = hook_command(None, Some(empty.as_os_str()), &exe);
        assert_eq!(c.source, CommandSource::NotOnPath);
        assert_eq!(c.command, full.to_string_lossy());
        // Another easel on PATH: the full path, and the other is named.
        let other = dir.path().join("other");
        std::fs::create_dir_all(&other).unwrap();
        std::fs::write(other.join("easel"), "#!/bin/sh\n").unwrap();
        std::fs::set_permissions(other.join("easel"), std::fs::Permissions::from_mode(0o755))
            .unwrap();
        let c = hook_command(None, Some(other.as_os_str()), &exe);
        assert_eq!(c.source, CommandSource::OtherOnPath);
        assert_eq!(c.command, full.to_string_lossy());
        assert!(c.describe().contains("another binary"), "{}", c.describe());
        // A symlink on PATH to this very binary: plain `easel`.
        let bin = dir.path().join("bin");
        std::fs::create_dir_all(&bin).unwrap();
        std::os::unix::fs::symlink(&exe, bin.join("easel")).unwrap();
        let path = std::env::join_paths([&bin, &other]).unwrap();
        let c = hook_command(None, Some(&path), &exe);
        assert_eq!(
            (c.command.as_str(), c.source),
            ("easel", CommandSource::Path)
        );
        // What the person gave wins.
        let c = hook_command(Some("my-easel"), Some(&path), &exe);
        assert_eq!(
            (c.command.as_str(), c.source),
            ("my-easel", CommandSource::Given)
        );
    }

    #[cfg(unix)]
    #[test]
    fn the_settings_keep_their_mode_and_a_new_file_is_not_private() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = settings_path(dir.path());
        install(dir.path(), "easel", SettingsFile::Shared).unwrap();
        let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        // A team's settings file is shared: made like any file the user creates (the umask
        // decides), not private as a temporary file is (0600).
        let plain = dir.path().join("plain");
        std::fs::write(&plain, "").unwrap();
        let expected = std::fs::metadata(&plain).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, expected, "{mode:o}");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).unwrap();
        install(dir.path(), "easel", SettingsFile::Shared).unwrap();
        let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o640);
        let left: Vec<_> = std::fs::read_dir(path.parent().unwrap())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(left.len(), 1, "{left:?}");
    }

    #[test]
    fn broken_settings_are_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let path = settings_path(dir.path());
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, "{ not json").unwrap();
        assert!(matches!(
            install(dir.path(), "easel", SettingsFile::Shared),
            Err(BoardError::BadSettings { .. })
        ));
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "{ not json");
    }
}
