//! `easel agent list|show|new`: the agent files of a vault from the shell.
#![allow(clippy::unwrap_used)]

mod common;

use common::{TestVault, expect_failure, write};
use predicates::prelude::*;

const CLAUDE: &str = "---\nname: reviewer\ndescription: Reviews notes\ntools: Read, Grep, Bash\nmodel: inherit\n---\nReview carefully.\n";

#[test]
fn new_creates_a_file_that_list_and_show_read_back() {
    let v = TestVault::new();
    let created = v.json(&[
        "agent",
        "new",
        "scribe",
        "--description",
        "Writes things down",
        "--model",
        "local:smollm2",
        "--tools",
        "note_read,note_append,canvas_*",
    ]);
    assert_eq!(created["path"], ".easel/agents/scribe.md");
    assert_eq!(created["warnings"], serde_json::json!([]));
    let text = v.read(".easel/agents/scribe.md");
    assert!(text.contains("# permission:"), "{text}");

    let list = v.json(&["agent", "list"]);
    assert_eq!(list["agents"][0]["name"], "scribe");
    assert_eq!(list["agents"][0]["format"], "easel");
    assert_eq!(
        list["agents"][0]["model"],
        serde_json::json!(["local:smollm2"])
    );
    assert_eq!(
        list["agents"][0]["tools"],
        serde_json::json!(["note_read", "note_append", "canvas_*"])
    );

    let shown = v.json(&["agent", "show", "scribe"]);
    assert_eq!(shown["description"], "Writes things down");
    assert_eq!(shown["max_turns"], 10);

    v.easel()
        .args(["agent", "show", "scribe"])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "tools: note_read, note_append, canvas_*",
        ))
        .stdout(predicate::str::contains("You are scribe."));
}

#[test]
fn new_refuses_an_existing_agent_and_a_bad_name() {
    let v = TestVault::new();
    v.easel()
        .args(["agent", "new", "scribe"])
        .assert()
        .success();
    let stderr = expect_failure(v.easel().args(["agent", "new", "scribe"]), 4);
    assert!(stderr.contains(".easel/agents/scribe.md"), "{stderr}");
    expect_failure(v.easel().args(["agent", "new", "../escape"]), 5);
}

#[test]
fn list_shows_other_tools_files_problems_and_warnings() {
    let v = TestVault::new();
    write(v.path(), ".claude/agents/reviewer.md", CLAUDE);
    write(
        v.path(),
        ".easel/agents/broken.md",
        "---\ntools: [note_read\n---\n",
    );
    let list = v.json(&["agent", "list"]);
    assert_eq!(list["agents"][0]["name"], "reviewer");
    assert_eq!(list["agents"][0]["format"], "claude_code");
    assert_eq!(
        list["agents"][0]["tools"],
        serde_json::json!(["note_read", "vault_search"])
    );
    assert_eq!(list["problems"][0]["path"], ".easel/agents/broken.md");
    assert!(list["warnings"][0].as_str().unwrap().contains("'Bash'"));

    v.easel()
        .args(["agent", "list"])
        .assert()
        .success()
        .stdout(predicate::str::contains("reviewer"))
        .stdout(predicate::str::contains(
            "problem: .easel/agents/broken.md:",
        ))
        .stdout(predicate::str::contains("warning: agent 'reviewer'"));
}

#[test]
fn show_of_an_unknown_agent_exits_3_naming_the_known_ones() {
    let v = TestVault::new();
    write(v.path(), ".claude/agents/reviewer.md", CLAUDE);
    let stderr = expect_failure(v.easel().args(["agent", "show", "nobody"]), 3);
    assert!(stderr.contains("no agent is named 'nobody'"), "{stderr}");
    assert!(stderr.contains("reviewer"), "{stderr}");
}

#[test]
fn the_json_of_the_command_is_the_operation_output() {
    let v = TestVault::new();
    write(v.path(), ".claude/agents/reviewer.md", CLAUDE);
    let command = v.json(&["agent", "show", "reviewer"]);
    let out = v
        .easel()
        .args([
            "op",
            "run",
            "agent_show",
            "--args",
            r#"{"name":"reviewer"}"#,
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let op: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(command, op);
}
