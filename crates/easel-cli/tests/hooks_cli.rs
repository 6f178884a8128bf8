//! `easel code hook …` fed the JSON Claude Code sends, and `easel code hooks install`.
#![allow(clippy::unwrap_used)]

mod common;

use assert_cmd::Command;
use serde_json::{Value, json};
use std::path::Path;

fn repo() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let w = |p: &str, t: &str| common::write(dir.path(), p, t);
    std::fs::create_dir(dir.path().join(".git")).unwrap();
    w(
        "src/core.py",
        "def parse(text):\n    return text.split()\n\n\ndef load(path):\n    return parse(open(path).read())\n",
    );
    w(
        "src/cli.py",
        "from src.core import load\n\n\ndef main():\n    return load('x')\n\n\ndef other():\n    return main()\n",
    );
    dir
}

/// Runs a hook with `input` on stdin; it must exit 0. Returns the parsed output, if any.
fn hook(event: &str, input: &Value) -> Option<Value> {
    let out = common::succeed(
        Command::cargo_bin("easel")
            .unwrap()
            .args(["code", "hook", event])
            .write_stdin(input.to_string()),
    );
    let text = String::from_utf8(out.stdout).unwrap();
    if text.trim().is_empty() {
        return None;
    }
    Some(serde_json::from_str(&text).unwrap())
}

fn common(cwd: &Path, event: &str) -> Value {
    json!({
        "session_id": "abc123",
        "transcript_path": "/home/u/.claude/projects/p/abc123.jsonl",
        "cwd": cwd,
        "permission_mode": "default",
        "hook_event_name": event,
    })
}

fn with(mut base: Value, extra: Value) -> Value {
    for (k, v) in extra.as_object().unwrap() {
        base[k] = v.clone();
    }
    base
}

/// The PreToolUse input of a Read of `file` in a session at `cwd`.
fn read_of(cwd: &Path, file: &Path, id: &str) -> Value {
    with(
        common(cwd, "PreToolUse"),
        json!({"tool_name": "Read", "tool_input": {"file_path": file}, "tool_use_id": id}),
    )
}

fn context(out: &Value, event: &str) -> String {
    assert_eq!(out["hookSpecificOutput"]["hookEventName"], event, "{out}");
    out["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap()
        .to_string()
}

#[test]
fn session_start_arms_and_pre_tool_use_waits_for_a_real_workspace() {
    let empty = tempfile::tempdir().unwrap();
    std::fs::create_dir(empty.path().join(".git")).unwrap();
    let start = with(
        common(empty.path(), "SessionStart"),
        json!({"source": "startup"}),
    );
    let ctx = context(&hook("session-start", &start).unwrap(), "SessionStart");
    assert!(ctx.starts_with("[Easel ARMED]"), "{ctx}");
    // An empty project is never initialised.
    let bash = with(
        common(empty.path(), "PreToolUse"),
        json!({"tool_name": "Bash", "tool_input": {"command": "git clone x repo", "description": "clone"}, "tool_use_id": "t1"}),
    );
    assert_eq!(hook("pre-tool-use", &bash), None);
    assert!(!empty.path().join(".codecanvas").exists());

    // Once a tool touches a file of a real repository, it is initialised, once.
    let r = repo();
    let read = read_of(empty.path(), &r.path().join("src/core.py"), "t2");
    let ctx = context(&hook("pre-tool-use", &read).unwrap(), "PreToolUse");
    assert!(
        ctx.starts_with(&format!("[Easel AUTO-INIT] root={}", r.path().display())),
        "{ctx}"
    );
    assert!(ctx.contains("Created E1 (architecture): 2 files"), "{ctx}");
    assert!(
        ctx.contains("Board: 1 evidence, 0 claims, 0 decisions | Focus: none"),
        "{ctx}"
    );
    assert!(
        ctx.contains("Next: canvas(action=\"impact\", symbol=\"cli.main\")"),
        "{ctx}"
    );
    assert!(r.path().join(".codecanvas/state.json").is_file());
    assert_eq!(hook("pre-tool-use", &read), None);

    // A resumed or compacted session gets the board back.
    let start = with(
        common(r.path(), "SessionStart"),
        json!({"source": "compact"}),
    );
    let ctx = context(&hook("session-start", &start).unwrap(), "SessionStart");
    assert!(
        ctx.starts_with("[Easel BOARD] (restored after the context was compacted)"),
        "{ctx}"
    );
    assert!(ctx.contains("Board: 1 evidence"), "{ctx}");
}

/// A file of a package nested in the repository the session works on (an example with its own
/// `pyproject.toml`) initialises the repository, not the package: one board per project.
#[test]
fn a_nested_package_is_part_of_the_session_repository() {
    let r = repo();
    common::write(
        r.path(),
        "examples/demo/pyproject.toml",
        "[project]\nname = \"demo\"\n",
    );
    common::write(
        r.path(),
        "examples/demo/app.py",
        "from src.core import load\n\n\ndef run():\n    return load('y')\n",
    );
    let read = read_of(r.path(), &r.path().join("examples/demo/app.py"), "t1");
    let ctx = context(&hook("pre-tool-use", &read).unwrap(), "PreToolUse");
    assert!(
        ctx.starts_with(&format!("[Easel AUTO-INIT] root={}\n", r.path().display())),
        "{ctx}"
    );
    assert!(ctx.contains("3 files"), "{ctx}");
    assert!(r.path().join(".codecanvas/state.json").is_file());
    assert!(!r.path().join("examples/demo/.codecanvas").exists());
}

#[test]
fn post_tool_use_reports_the_impact_of_the_edited_function() {
    let r = repo();
    let d = r.path();
    let pre = with(
        common(d, "PreToolUse"),
        json!({"tool_name": "Glob", "tool_input": {"pattern": "**/*.py"}, "tool_use_id": "t0"}),
    );
    hook("pre-tool-use", &pre).unwrap();
    // The edit Claude Code made, and the exact input its PostToolUse hook gets.
    let file = d.join("src/core.py");
    let old = "    return text.split()";
    let new = "    return text.split(\",\")";
    let src = std::fs::read_to_string(&file).unwrap();
    std::fs::write(&file, src.replace(old, new)).unwrap();
    let edit = with(
        common(d, "PostToolUse"),
        json!({
            "tool_name": "Edit",
            "tool_input": {"file_path": file, "old_string": old, "new_string": new, "replace_all": false},
            "tool_response": {
                "filePath": file, "oldString": old, "newString": new, "originalFile": src,
                "structuredPatch": [{"oldStart": 1, "oldLines": 3, "newStart": 1, "newLines": 3,
                    "lines": ["def parse(text):", "-    return text.split()", "+    return text.split(\",\")", ""]}],
                "userModified": false, "replaceAll": false
            },
            "tool_use_id": "t1"
        }),
    );
    let ctx = context(&hook("post-tool-use", &edit).unwrap(), "PostToolUse");
    assert!(
        ctx.starts_with(&format!("[Easel IMPACT] root={}", d.display())),
        "{ctx}"
    );
    assert!(
        ctx.contains(
            "core.parse (src/core.py:1): 1 callers, 0 callees, blast radius 2; called by core.load"
        ),
        "{ctx}"
    );
    assert!(
        ctx.contains("Next: check that the callers still work"),
        "{ctx}"
    );

    // Without structuredPatch (older versions), the new text is found in the file.
    let mut edit2 = edit.clone();
    edit2["tool_response"] = json!({"filePath": file});
    edit2["tool_input"]["new_string"] = json!("return load('x')");
    edit2["tool_input"]["file_path"] = json!(d.join("src/cli.py"));
    let ctx = context(&hook("post-tool-use", &edit2).unwrap(), "PostToolUse");
    assert!(ctx.contains("cli.main (src/cli.py:4): 1 callers"), "{ctx}");

    // Other tools, unknown files and broken input: silence, and exit 0.
    let bash = with(
        common(d, "PostToolUse"),
        json!({"tool_name": "Bash", "tool_input": {"command": "ls"}, "tool_response": {"stdout": ""}}),
    );
    assert_eq!(hook("post-tool-use", &bash), None);
    let notes = with(
        common(d, "PostToolUse"),
        json!({"tool_name": "Write", "tool_input": {"file_path": d.join("notes.txt"), "content": "x"}}),
    );
    assert_eq!(hook("post-tool-use", &notes), None);
    let out = Command::cargo_bin("easel")
        .unwrap()
        .args(["code", "hook", "post-tool-use"])
        .write_stdin("not json")
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(out.stdout.is_empty());
}

#[test]
fn install_writes_claude_code_settings_and_keeps_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join(".claude")).unwrap();
    std::fs::write(
        dir.path().join(".claude/settings.json"),
        r#"{"permissions": {"allow": ["Bash(cargo test:*)"]}}"#,
    )
    .unwrap();
    // The `easel` on PATH is this binary (a symlink to it): the hooks run plain `easel`.
    let bin = dir.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    let exe = assert_cmd::cargo::cargo_bin("easel");
    std::os::unix::fs::symlink(&exe, bin.join("easel")).unwrap();
    let out = common::succeed(
        Command::cargo_bin("easel")
            .unwrap()
            .env("PATH", &bin)
            .args(["code", "hooks", "install", "--project"])
            .arg(dir.path()),
    );
    assert!(
        String::from_utf8_lossy(&out.stdout)
            .contains("the hooks run 'easel' (the easel on PATH is this binary)"),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let written: Value =
        serde_json::from_slice(&std::fs::read(dir.path().join(".claude/settings.json")).unwrap())
            .unwrap();
    let hooks = |matcher: &str, verb: &str, timeout: u32| json!([{"matcher": matcher, "hooks": [{"type": "command", "command": format!("easel code hook {verb}"), "timeout": timeout}]}]);
    assert_eq!(
        written,
        json!({
            "permissions": {"allow": ["Bash(cargo test:*)"]},
            "hooks": {
                "SessionStart": hooks("startup|resume|clear|compact", "session-start", 10),
                "PreToolUse": hooks("*", "pre-tool-use", 120),
                "PostToolUse": hooks("Edit|MultiEdit|Write", "post-tool-use", 30),
            }
        })
    );
    // Installing again replaces Easel's entries instead of adding more.
    Command::cargo_bin("easel")
        .unwrap()
        .env("PATH", &bin)
        .args(["code", "hooks", "install", "--project"])
        .arg(dir.path())
        .assert()
        .success();
    let again: Value =
        serde_json::from_slice(&std::fs::read(dir.path().join(".claude/settings.json")).unwrap())
            .unwrap();
    assert_eq!(again, written);
}

#[test]
fn install_local_writes_the_personal_settings_and_leaves_the_shared_file() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join(".claude")).unwrap();
    let shared = r#"{"permissions": {"allow": ["Bash(ls)"]}}"#;
    std::fs::write(dir.path().join(".claude/settings.json"), shared).unwrap();
    std::fs::write(
        dir.path().join(".claude/settings.local.json"),
        r#"{"env": {"MINE": "1"}}"#,
    )
    .unwrap();
    let out = common::succeed(
        Command::cargo_bin("easel")
            .unwrap()
            .args([
                "--json",
                "code",
                "hooks",
                "install",
                "--local",
                "--command",
                "easel",
                "--project",
            ])
            .arg(dir.path()),
    );
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        report["path"]
            .as_str()
            .unwrap()
            .ends_with(".claude/settings.local.json"),
        "{report}"
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join(".claude/settings.json")).unwrap(),
        shared,
        "the shared file is not touched"
    );
    let local: Value = serde_json::from_slice(
        &std::fs::read(dir.path().join(".claude/settings.local.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(local["env"]["MINE"], "1", "the person's own settings stay");
    assert_eq!(
        local["hooks"]["PostToolUse"][0]["hooks"][0]["command"],
        "easel code hook post-tool-use"
    );
}

/// Installed from a build folder with no `easel` on PATH, the hooks run that binary by its
/// full path: a bare `easel` would fail on every tool call, silently.
#[test]
fn install_from_a_build_folder_writes_the_binary_s_full_path() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    let out = common::succeed(
        Command::cargo_bin("easel")
            .unwrap()
            .env("PATH", &empty)
            .args(["--json", "code", "hooks", "install", "--project"])
            .arg(dir.path()),
    );
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let exe = std::fs::canonicalize(assert_cmd::cargo::cargo_bin("easel")).unwrap();
    let exe = exe.to_str().unwrap();
    assert_eq!(report["command"], exe);
    assert_eq!(report["command_source"], "not_on_path");
    let written: Value =
        serde_json::from_slice(&std::fs::read(dir.path().join(".claude/settings.json")).unwrap())
            .unwrap();
    assert_eq!(
        written["hooks"]["PreToolUse"][0]["hooks"][0]["command"],
        format!("{exe} code hook pre-tool-use")
    );
}
