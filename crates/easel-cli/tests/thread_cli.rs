//! `easel thread context` on a real vault.
#![allow(clippy::unwrap_used)]

mod common;
use common::{PROMPT, TestVault, expect_failure};

#[test]
fn context_prints_chain_messages_warnings_and_model() {
    let v = TestVault::new();
    let r = v.json(&["thread", "context", "Research", PROMPT]);
    let keys: Vec<_> = r.as_object().unwrap().keys().cloned().collect();
    assert_eq!(keys, ["chain", "messages", "warnings", "model"]);
    assert_eq!(r["chain"], serde_json::json!(["1a2b3c4d5e6f7081", PROMPT]));
    assert_eq!(r["messages"][0]["role"], "system");
    // The target's context comes before the target, which is always last.
    assert_eq!(r["messages"][1]["node"], "3c4d5e6f708192a3");
    assert_eq!(
        r["messages"][2]["content"],
        "Summarise the spec in **three** bullet points."
    );
    assert_eq!(r["model"], "local:smollm2");
    let r = v.json(&[
        "thread",
        "context",
        "Research",
        PROMPT,
        "--model",
        "ollama:llama3.1",
    ]);
    assert_eq!(r["model"], "ollama:llama3.1");
}

#[test]
fn file_nodes_read_the_vault_and_missing_files_warn() {
    let v = TestVault::new();
    std::fs::create_dir_all(v.file("notes")).unwrap();
    std::fs::write(
        v.file("notes/Reading list.md"),
        "# Reading list\n\n## Papers\n- JSON Canvas\n\n## Later\n- more\n",
    )
    .unwrap();
    // The file node is the link node's parent: ask about the link node.
    let r = v.json(&["thread", "context", "Research", "3c4d5e6f708192a3"]);
    assert_eq!(r["messages"][0]["content"], "## Papers\n- JSON Canvas");
    std::fs::remove_file(v.file("notes/Reading list.md")).unwrap();
    let r = v.json(&["thread", "context", "Research", "3c4d5e6f708192a3"]);
    assert!(
        r["warnings"][0]
            .as_str()
            .unwrap()
            .contains("does not exist"),
        "{r}"
    );
}

#[test]
fn unknown_nodes_and_canvases_are_not_found() {
    let v = TestVault::new();
    expect_failure(v.easel().args(["thread", "context", "Research", "nope"]), 3);
    expect_failure(v.easel().args(["thread", "context", "Missing", PROMPT]), 3);
}

#[test]
fn watch_errors_keep_their_hint_and_exit_code() {
    let v = TestVault::new();
    let err = expect_failure(v.easel().args(["thread", "watch", "../outside"]), 5);
    assert!(err.contains(".."), "{err}");
    assert!(
        !err.contains("EASEL_LOG=debug"),
        "a classified error: {err}"
    );
}
