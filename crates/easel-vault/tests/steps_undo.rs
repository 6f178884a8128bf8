//! Several steps written at once, and undo of one step after later changes to other parts.

// Test helpers outside #[test] functions may unwrap too: a failure there is a test failure.
#![allow(clippy::unwrap_used)]

use std::fs;

use easel_vault::{Change, Expect, Step, UndoTarget, Vault, VaultError};

fn vault() -> (tempfile::TempDir, Vault) {
    let dir = tempfile::tempdir().unwrap();
    let vault = Vault::open(dir.path()).unwrap();
    (dir, vault)
}

/// A step replacing `old` by `new` in `doc`, with the span of `new` in the result.
fn step(doc: &str, old: &str, new: &str) -> Step {
    let at = doc.find(old).unwrap();
    let bytes = format!("{}{new}{}", &doc[..at], &doc[at + old.len()..]);
    Step {
        bytes: bytes.into_bytes(),
        change: Change::new("cli", "doc_replace_text", format!("{old} -> {new}"))
            .with_run("run-1")
            .with_span(at..at + new.len()),
    }
}

fn text(vault: &Vault, path: &str) -> String {
    let p = vault.resolve(path).unwrap();
    String::from_utf8(vault.read(&p).unwrap().0).unwrap()
}

const DOC: &str = "<p>alpha</p>\n<p>beta</p>\n<p>gamma</p>\n";

fn three_steps(vault: &Vault) -> Vec<String> {
    let p = vault.resolve_for_write("d.html").unwrap();
    vault
        .write(
            &p,
            DOC.as_bytes(),
            Expect::Absent,
            &Change::new("cli", "create", "c"),
        )
        .unwrap();
    let (written, ()) = vault
        .modify_steps(&p, Expect::Any, |old| {
            let d0 = String::from_utf8(old.unwrap().to_vec()).unwrap();
            let s1 = step(&d0, "<p>alpha</p>", "<p>ALPHA</p>");
            let d1 = String::from_utf8(s1.bytes.clone()).unwrap();
            let s2 = step(&d1, "<p>beta</p>", "<p>BETA!</p>");
            let d2 = String::from_utf8(s2.bytes.clone()).unwrap();
            let s3 = step(&d2, "<p>gamma</p>", "<p>G</p>");
            Ok::<_, VaultError>((vec![s1, s2, s3], ()))
        })
        .unwrap();
    written.into_iter().map(|w| w.ledger_id).collect()
}

#[test]
fn steps_are_one_write_and_one_ledger_entry_each_in_one_batch() {
    let (dir, vault) = vault();
    let ids = three_steps(&vault);
    assert_eq!(ids.len(), 3);
    assert_eq!(
        text(&vault, "d.html"),
        "<p>ALPHA</p>\n<p>BETA!</p>\n<p>G</p>\n"
    );
    let ledger = fs::read_to_string(dir.path().join(".easel/ledger.jsonl")).unwrap();
    let entries: Vec<serde_json::Value> = ledger
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .filter(|v: &serde_json::Value| v.get("batch").is_some())
        .collect();
    assert_eq!(entries.len(), 3);
    assert!(entries.iter().all(|e| e["batch"] == ids[0].as_str()));
    assert_eq!(entries[1]["span"], serde_json::json!([13, 25]));
    // Each step's before is the one before it: a chain from the file to its result.
    assert_eq!(entries[0]["rev_after"], entries[1]["rev_before"]);
    assert_eq!(entries[1]["rev_after"], entries[2]["rev_before"]);
}

#[test]
fn one_step_is_undone_alone_and_a_step_a_later_change_touched_is_refused() {
    let (_dir, vault) = vault();
    let ids = three_steps(&vault);
    // The middle step, with the last one (another element) made after it: taken back alone.
    vault.undo(UndoTarget::Id(ids[1].clone())).unwrap();
    assert_eq!(
        text(&vault, "d.html"),
        "<p>ALPHA</p>\n<p>beta</p>\n<p>G</p>\n"
    );

    // A later change to the first element: its step can no longer be undone alone.
    let p = vault.resolve_for_write("d.html").unwrap();
    let now = text(&vault, "d.html");
    let s = step(&now, "ALPHA", "Alpha");
    vault.write(&p, &s.bytes, Expect::Any, &s.change).unwrap();
    let err = vault.undo(UndoTarget::Id(ids[0].clone())).unwrap_err();
    let message = err.to_string();
    assert!(message.contains("touched the same element"), "{message}");
    assert!(message.contains("ALPHA -> Alpha"), "{message}");
    assert_eq!(
        text(&vault, "d.html"),
        "<p>Alpha</p>\n<p>beta</p>\n<p>G</p>\n"
    );

    // The last step is still undone alone.
    vault.undo(UndoTarget::Id(ids[2].clone())).unwrap();
    assert_eq!(
        text(&vault, "d.html"),
        "<p>Alpha</p>\n<p>beta</p>\n<p>gamma</p>\n"
    );
}

#[test]
fn a_run_is_undone_whole_after_one_of_its_steps_was_undone_alone() {
    let (_dir, vault) = vault();
    let ids = three_steps(&vault);
    vault.undo(UndoTarget::Id(ids[0].clone())).unwrap();
    assert_eq!(
        text(&vault, "d.html"),
        "<p>alpha</p>\n<p>BETA!</p>\n<p>G</p>\n"
    );
    vault.undo(UndoTarget::Run("run-1".into())).unwrap();
    assert_eq!(text(&vault, "d.html"), DOC);
}

#[test]
fn a_file_changed_outside_easel_refuses_a_step_undo_and_keeps_the_file() {
    let (dir, vault) = vault();
    let ids = three_steps(&vault);
    fs::write(
        dir.path().join("d.html"),
        "<p>ALPHA</p>\n<p>BETA!</p>\n<p>G</p>\nmine\n",
    )
    .unwrap();
    let err = vault.undo(UndoTarget::Id(ids[0].clone())).unwrap_err();
    assert!(err.to_string().contains("changed outside Easel"), "{err}");
    assert!(text(&vault, "d.html").ends_with("mine\n"));
}

#[test]
fn no_steps_write_nothing() {
    let (dir, vault) = vault();
    let p = vault.resolve_for_write("e.html").unwrap();
    let (written, ()) = vault
        .modify_steps(&p, Expect::Any, |_| Ok::<_, VaultError>((Vec::new(), ())))
        .unwrap();
    assert!(written.is_empty());
    assert!(!dir.path().join("e.html").exists());
}

#[test]
fn purged_blobs_are_gone_and_their_entries_can_no_longer_be_undone() {
    let (dir, vault) = vault();
    let ids = three_steps(&vault);
    // The versions before steps 1 and 2 hold "beta"; the one before step 3 holds "BETA!".
    let purged = vault
        .purge_blobs("d.html", |bytes| {
            String::from_utf8_lossy(bytes).contains("<p>beta</p>")
        })
        .unwrap();
    assert_eq!(purged.blobs_removed, 2);
    assert_eq!(purged.entries.len(), 2);
    assert!(purged.entries.contains(&ids[0]) && purged.entries.contains(&ids[1]));
    for blob in fs::read_dir(dir.path().join(".easel/blobs")).unwrap() {
        let bytes = fs::read(blob.unwrap().path()).unwrap();
        assert!(!String::from_utf8_lossy(&bytes).contains("<p>beta</p>"));
    }
    let err = vault.undo(UndoTarget::Id(ids[0].clone())).unwrap_err();
    assert_eq!(err.kind().exit_code(), 1, "{err}");
    // The file is as it was, and the last step still undoes.
    vault.undo(UndoTarget::Id(ids[2].clone())).unwrap();
    assert_eq!(
        text(&vault, "d.html"),
        "<p>ALPHA</p>\n<p>BETA!</p>\n<p>gamma</p>\n"
    );
}
