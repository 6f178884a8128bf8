//! The ledger's contents, and undo of single changes and whole runs.

// Test helpers outside #[test] functions may unwrap too: a failure there is a test failure.
#![allow(clippy::unwrap_used)]

use std::fs;

use easel_vault::{Change, ErrorKind, Expect, Rev, UndoTarget, Vault, VaultError};

fn vault() -> (tempfile::TempDir, Vault) {
    let dir = tempfile::tempdir().unwrap();
    let vault = Vault::open(dir.path()).unwrap();
    (dir, vault)
}

fn change(op: &str) -> Change {
    Change::new("agent:writer", op, format!("did {op}"))
}

#[test]
fn every_change_is_a_ledger_line_with_the_design_fields() {
    let (dir, vault) = vault();
    let p = vault.resolve_for_write("a.md").unwrap();
    let first = vault
        .write(
            &p,
            b"one",
            Expect::Absent,
            &change("note.create").with_run("r1"),
        )
        .unwrap();
    let second = vault
        .write(&p, b"two", Expect::Any, &change("note.edit"))
        .unwrap();

    let text = fs::read_to_string(dir.path().join(".easel/ledger.jsonl")).unwrap();
    let all: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    // Each change is an entry, written before the file changed, and a confirmation after.
    assert_eq!(all.len(), 4);
    let lines: Vec<&serde_json::Value> = all.iter().filter(|l| l.get("id").is_some()).collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["pending"], true);
    assert_eq!(all[1], serde_json::json!({"done": first.ledger_id}));
    assert_eq!(all[3], serde_json::json!({"done": second.ledger_id}));
    let keys: Vec<_> = lines[0]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        &keys[..9],
        [
            "id",
            "time",
            "actor",
            "op",
            "path",
            "rev_before",
            "rev_after",
            "summary",
            "run"
        ]
    );
    assert_eq!(lines[0]["rev_before"], serde_json::Value::Null);
    assert_eq!(lines[0]["run"], "r1");
    assert_eq!(lines[1]["rev_before"], Rev::of(b"one").to_string());
    assert!(lines[0]["time"].as_str().unwrap().ends_with('Z'));

    let listed = vault.ledger_list(None).unwrap();
    assert_eq!(listed[0].id, second.ledger_id, "newest first");
    assert_eq!(listed[1].id, first.ledger_id);
    assert_eq!(listed[0].actor, "agent:writer");
    assert_eq!(vault.ledger_list(Some(1)).unwrap().len(), 1);

    // The bytes before the second change are kept, named by their full SHA-256.
    let blobs: Vec<_> = fs::read_dir(dir.path().join(".easel/blobs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(blobs.len(), 1);
    assert_eq!(fs::read(&blobs[0]).unwrap(), b"one");
    assert!(
        blobs[0]
            .file_name()
            .unwrap()
            .to_str()
            .unwrap()
            .starts_with(&Rev::of(b"one").to_string())
    );
}

#[test]
fn undo_latest_restores_and_steps_back_through_history() {
    let (_dir, vault) = vault();
    let p = vault.resolve_for_write("a.md").unwrap();
    let created = vault
        .write(&p, b"one", Expect::Absent, &change("create"))
        .unwrap();
    let edited = vault
        .write(&p, b"two", Expect::Any, &change("edit"))
        .unwrap();

    let undone = vault.undo(UndoTarget::Latest).unwrap();
    assert_eq!(undone.len(), 1);
    assert_eq!(undone[0].undid, edited.ledger_id);
    assert_eq!(undone[0].rev_after, Some(Rev::of(b"one")));
    assert_eq!(vault.read(&p).unwrap().0, b"one");

    let latest = &vault.ledger_list(Some(1)).unwrap()[0];
    assert_eq!(latest.op, "undo");
    assert_eq!(latest.undoes.as_deref(), Some(edited.ledger_id.as_str()));
    assert_eq!(latest.id, undone[0].ledger_id);

    // The next "latest" skips the undo entry and the undone change: it undoes the creation.
    let undone = vault.undo(UndoTarget::Latest).unwrap();
    assert_eq!(undone[0].undid, created.ledger_id);
    assert_eq!(undone[0].rev_after, None);
    assert!(!vault.exists(&p));

    let err = vault.undo(UndoTarget::Latest).unwrap_err();
    assert!(matches!(err, VaultError::NothingToUndo));
    assert_eq!(err.kind(), ErrorKind::NotFound);
}

#[test]
fn undo_refuses_when_the_file_changed_since_and_changes_nothing() {
    let (dir, vault) = vault();
    let p = vault.resolve_for_write("a.md").unwrap();
    let first = vault
        .write(&p, b"one", Expect::Absent, &change("create"))
        .unwrap();
    vault
        .write(&p, b"two", Expect::Any, &change("edit"))
        .unwrap();
    // Someone edits the file outside Easel (e.g. in Obsidian).
    fs::write(dir.path().join("a.md"), "typed by hand").unwrap();
    let entries_before = vault.ledger_list(None).unwrap().len();

    let err = vault.undo(UndoTarget::Latest).unwrap_err();
    assert!(matches!(err, VaultError::UndoRefused { .. }), "{err}");
    assert_eq!(err.kind().exit_code(), 4);
    assert!(err.to_string().contains("changed since"), "{err}");
    assert_eq!(
        fs::read_to_string(dir.path().join("a.md")).unwrap(),
        "typed by hand"
    );
    assert_eq!(vault.ledger_list(None).unwrap().len(), entries_before);

    // An older change by id is refused too: the file no longer has its rev_after.
    let err = vault.undo(UndoTarget::Id(first.ledger_id)).unwrap_err();
    assert!(matches!(err, VaultError::UndoRefused { .. }));
}

#[test]
fn undo_of_a_deletion_brings_the_file_back_unless_it_was_recreated() {
    let (dir, vault) = vault();
    let p = vault.resolve_for_write("a.md").unwrap();
    vault
        .write(&p, b"keep me", Expect::Absent, &change("create"))
        .unwrap();
    let deleted = vault.delete(&p, Expect::Any, &change("delete")).unwrap();

    fs::write(dir.path().join("a.md"), "new").unwrap();
    let err = vault
        .undo(UndoTarget::Id(deleted.ledger_id.clone()))
        .unwrap_err();
    assert!(err.to_string().contains("exists again"), "{err}");

    fs::remove_file(dir.path().join("a.md")).unwrap();
    vault
        .undo(UndoTarget::Id(deleted.ledger_id.clone()))
        .unwrap();
    assert_eq!(vault.read(&p).unwrap().0, b"keep me");

    let err = vault.undo(UndoTarget::Id(deleted.ledger_id)).unwrap_err();
    assert!(err.to_string().contains("already been undone"), "{err}");
    let undo_id = vault.ledger_list(Some(1)).unwrap()[0].id.clone();
    let err = vault.undo(UndoTarget::Id(undo_id)).unwrap_err();
    assert!(err.to_string().contains("itself an undo"), "{err}");
    let err = vault.undo(UndoTarget::Id("nope".into())).unwrap_err();
    assert!(matches!(err, VaultError::EntryNotFound { .. }));
}

#[test]
fn undo_of_a_run_restores_every_file_newest_first() {
    let (_dir, vault) = vault();
    let a = vault.resolve_for_write("a.md").unwrap();
    let b = vault.resolve_for_write("sub/b.md").unwrap();
    vault
        .write(&a, b"a0", Expect::Absent, &change("setup"))
        .unwrap();
    let run = |op: &str| change(op).with_run("run-7");
    vault.write(&a, b"a1", Expect::Any, &run("edit")).unwrap();
    vault
        .write(&b, b"b1", Expect::Absent, &run("create"))
        .unwrap();
    vault.write(&a, b"a2", Expect::Any, &run("edit")).unwrap();
    vault
        .write(&a, b"other", Expect::Any, &change("unrelated"))
        .unwrap();
    vault.undo(UndoTarget::Latest).unwrap();

    let undone = vault
        .undo_as(UndoTarget::Run("run-7".into()), "mcp:test")
        .unwrap();
    assert_eq!(undone.len(), 3);
    assert_eq!(
        undone.iter().map(|u| u.path.as_str()).collect::<Vec<_>>(),
        ["a.md", "sub/b.md", "a.md"]
    );
    assert_eq!(vault.read(&a).unwrap().0, b"a0");
    assert!(!vault.exists(&b));
    assert!(
        vault
            .ledger_list(Some(3))
            .unwrap()
            .iter()
            .all(|e| e.actor == "mcp:test" && e.op == "undo")
    );

    let err = vault.undo(UndoTarget::Run("run-7".into())).unwrap_err();
    assert!(matches!(err, VaultError::RunAlreadyUndone { .. }));
    let err = vault.undo(UndoTarget::Run("missing".into())).unwrap_err();
    assert!(matches!(err, VaultError::RunNotFound { .. }));
}

#[test]
fn a_run_is_checked_completely_before_anything_is_undone() {
    let (dir, vault) = vault();
    let a = vault.resolve_for_write("a.md").unwrap();
    let b = vault.resolve_for_write("b.md").unwrap();
    let run = |op: &str| change(op).with_run("r");
    vault
        .write(&a, b"a1", Expect::Absent, &run("create"))
        .unwrap();
    vault
        .write(&b, b"b1", Expect::Absent, &run("create"))
        .unwrap();
    // The older of the two files was edited by hand; the newer one is still undoable.
    fs::write(dir.path().join("a.md"), "hand edit").unwrap();

    let err = vault.undo(UndoTarget::Run("r".into())).unwrap_err();
    assert!(
        matches!(err, VaultError::UndoRefused { ref path, .. } if path == "a.md"),
        "{err}"
    );
    assert_eq!(
        vault.read(&b).unwrap().0,
        b"b1",
        "the undoable file was not touched"
    );
    assert_eq!(vault.ledger_list(None).unwrap().len(), 2);
}

#[test]
fn undo_reports_a_missing_blob_instead_of_writing_garbage() {
    let (dir, vault) = vault();
    let p = vault.resolve_for_write("a.md").unwrap();
    vault
        .write(&p, b"one", Expect::Absent, &change("create"))
        .unwrap();
    vault
        .write(&p, b"two", Expect::Any, &change("edit"))
        .unwrap();
    fs::remove_dir_all(dir.path().join(".easel/blobs")).unwrap();
    let err = vault.undo(UndoTarget::Latest).unwrap_err();
    assert!(matches!(err, VaultError::BlobMissing { .. }), "{err}");
    assert_eq!(vault.read(&p).unwrap().0, b"two");
}

#[test]
fn a_torn_last_ledger_line_does_not_break_listing_or_undo() {
    let (dir, vault) = vault();
    let p = vault.resolve_for_write("a.md").unwrap();
    vault
        .write(&p, b"one", Expect::Absent, &change("create"))
        .unwrap();
    vault
        .write(&p, b"two", Expect::Any, &change("edit"))
        .unwrap();
    let ledger = dir.path().join(".easel/ledger.jsonl");
    let mut text = fs::read_to_string(&ledger).unwrap();
    text.push_str("{\"id\":\"0123\",\"time\":\"2026-");
    fs::write(&ledger, text).unwrap();

    assert_eq!(vault.ledger_list(None).unwrap().len(), 2);
    vault.undo(UndoTarget::Latest).unwrap();
    assert_eq!(vault.read(&p).unwrap().0, b"one");
    assert_eq!(vault.ledger_list(None).unwrap().len(), 3);
}

#[test]
fn concurrent_undos_of_the_latest_change_each_take_a_different_one() {
    let (_dir, vault) = vault();
    let mut ids = Vec::new();
    for i in 0..8 {
        let p = vault.resolve_for_write(&format!("f{i}.md")).unwrap();
        ids.push(
            vault
                .write(&p, b"x", Expect::Absent, &change("create"))
                .unwrap()
                .ledger_id,
        );
    }
    let mut undone: Vec<String> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..8)
            .map(|_| s.spawn(|| vault.undo(UndoTarget::Latest).unwrap().remove(0).undid))
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    undone.sort();
    ids.sort();
    assert_eq!(undone, ids);
    assert!(vault.list_files(None, true, "").unwrap().is_empty());
}
