//! A program that takes no lock (Obsidian saving its copy: read, change, write a temporary
//! file, rename it) changes a file while Easel is writing it. Easel notices before its rename
//! and starts over from that program's version, so neither edit is lost. The other program's
//! save is made from inside the callback, which runs after Easel's read and before its rename:
//! exactly the window where it used to be lost.

// Test helpers outside #[test] functions may unwrap too: a failure there is a test failure.
#![allow(clippy::unwrap_used)]

use std::fs;
use std::path::Path;

use easel_vault::{Change, Expect, Rev, Vault, VaultError};

fn setup() -> (tempfile::TempDir, Vault) {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("log.md"), "start\n").unwrap();
    let vault = Vault::open(dir.path()).unwrap();
    (dir, vault)
}

/// Obsidian's way of saving: a new file renamed over the old one.
fn save_by_rename(path: &Path, text: &str) {
    let tmp = path.with_extension("obsidian-tmp");
    fs::write(&tmp, text).unwrap();
    fs::rename(&tmp, path).unwrap();
}

fn append(old: Option<&[u8]>, line: &str) -> Vec<u8> {
    let mut bytes = old.unwrap_or_default().to_vec();
    bytes.extend_from_slice(line.as_bytes());
    bytes
}

#[test]
fn update_applies_the_change_again_on_top_of_an_unlocked_save() {
    let (dir, vault) = setup();
    let file = dir.path().join("log.md");
    let p = vault.resolve_for_write("log.md").unwrap();
    let mut calls = 0;
    let change = Change::new("cli", "test.append", "append");
    let (written, ()) = vault
        .update(&p, Expect::Any, &change, |old| {
            calls += 1;
            if calls == 1 {
                save_by_rename(&file, "start\nfrom obsidian\n");
            }
            Ok::<_, VaultError>((append(old, "from easel\n"), ()))
        })
        .unwrap();
    assert_eq!(calls, 2);
    let text = fs::read_to_string(&file).unwrap();
    assert_eq!(text, "start\nfrom obsidian\nfrom easel\n");
    // The ledger records the change from the other program's version, so undo gives it back.
    assert_eq!(written.rev_before, Some(Rev::of(b"start\nfrom obsidian\n")));
    let entries = vault.ledger_list(None).unwrap();
    assert_eq!(entries.len(), 1, "the abandoned attempt left no entry");
    vault.undo(easel_vault::UndoTarget::Latest).unwrap();
    assert_eq!(fs::read_to_string(&file).unwrap(), "start\nfrom obsidian\n");
}

#[test]
fn an_in_place_save_of_another_size_is_noticed_too() {
    let (dir, vault) = setup();
    let file = dir.path().join("log.md");
    let p = vault.resolve_for_write("log.md").unwrap();
    let mut calls = 0;
    let change = Change::new("cli", "test.append", "append");
    vault
        .update(&p, Expect::Any, &change, |old| {
            calls += 1;
            if calls == 1 {
                fs::write(&file, "start\nedited in place\n").unwrap();
            }
            Ok::<_, VaultError>((append(old, "from easel\n"), ()))
        })
        .unwrap();
    assert_eq!(
        fs::read_to_string(&file).unwrap(),
        "start\nedited in place\nfrom easel\n"
    );
}

#[test]
fn a_write_expecting_a_revision_fails_with_a_conflict_and_keeps_the_other_edit() {
    let (dir, vault) = setup();
    let file = dir.path().join("log.md");
    let p = vault.resolve_for_write("log.md").unwrap();
    let rev = vault.read(&p).unwrap().1;
    let change = Change::new("cli", "test.write", "rewrite");
    let err = vault
        .update(&p, Expect::Rev(rev), &change, |_| {
            if fs::read_to_string(&file).unwrap() == "start\n" {
                save_by_rename(&file, "from obsidian\n");
            }
            Ok::<_, VaultError>((b"whole new text\n".to_vec(), ()))
        })
        .unwrap_err();
    assert!(matches!(err, VaultError::Conflict { .. }), "{err}");
    assert_eq!(err.kind().exit_code(), 4);
    assert_eq!(fs::read_to_string(&file).unwrap(), "from obsidian\n");
    assert!(vault.ledger_list(None).unwrap().is_empty());
}

#[test]
fn modify_which_runs_its_callback_once_refuses_instead_of_overwriting() {
    let (dir, vault) = setup();
    let file = dir.path().join("log.md");
    let p = vault.resolve_for_write("log.md").unwrap();
    let change = Change::new("cli", "test.append", "append");
    let err = vault
        .modify(&p, Expect::Any, &change, |old| {
            save_by_rename(&file, "start\nfrom obsidian\n");
            Ok::<_, VaultError>((append(old, "from easel\n"), ()))
        })
        .unwrap_err();
    assert!(
        matches!(err, VaultError::ChangedDuringWrite { .. }),
        "{err}"
    );
    assert_eq!(err.kind().exit_code(), 4);
    assert!(!err.hint().is_empty());
    assert_eq!(fs::read_to_string(&file).unwrap(), "start\nfrom obsidian\n");
    // Nothing was recorded, and no temporary file was left.
    assert!(vault.ledger_list(None).unwrap().is_empty());
    assert_eq!(
        fs::read_dir(dir.path().join(".easel/tmp")).unwrap().count(),
        0
    );
}

/// The steps of a change written in pieces (an answer streaming into a canvas) are checked
/// like any other write: an unlocked save during a step is kept, the step is applied on top.
#[test]
fn a_draft_step_is_applied_again_on_top_of_an_unlocked_save() {
    let (dir, vault) = setup();
    let file = dir.path().join("log.md");
    let p = vault.resolve_for_write("log.md").unwrap();
    let mut calls = 0;
    vault
        .modify_draft(&p, |old| {
            calls += 1;
            if calls == 1 {
                save_by_rename(&file, "start\nfrom obsidian\n");
            }
            Ok::<_, VaultError>((append(old, "draft\n"), ()))
        })
        .unwrap();
    assert_eq!(calls, 2);
    assert_eq!(
        fs::read_to_string(&file).unwrap(),
        "start\nfrom obsidian\ndraft\n"
    );
    assert!(
        vault.ledger_list(None).unwrap().is_empty(),
        "a draft is not recorded"
    );
}

/// The recorded last step of such a change too, and its undo still gives back the bytes the
/// caller names (here: the file without the Easel line, the other program's edit kept).
#[test]
fn the_recorded_last_step_is_applied_again_on_top_of_an_unlocked_save() {
    let (dir, vault) = setup();
    let file = dir.path().join("log.md");
    let p = vault.resolve_for_write("log.md").unwrap();
    let mut calls = 0;
    let change = Change::new("thread", "thread.answer", "answer");
    vault
        .modify_with_undo(&p, Expect::Present, &change, |old| {
            calls += 1;
            if calls == 1 {
                save_by_rename(&file, "start\nfrom obsidian\n");
            }
            let without = old.unwrap_or_default().to_vec();
            Ok::<_, VaultError>((append(old, "answer\n"), Some(without), ()))
        })
        .unwrap();
    assert_eq!(calls, 2);
    assert_eq!(
        fs::read_to_string(&file).unwrap(),
        "start\nfrom obsidian\nanswer\n"
    );
    assert_eq!(vault.ledger_list(None).unwrap().len(), 1);
    vault.undo(easel_vault::UndoTarget::Latest).unwrap();
    assert_eq!(fs::read_to_string(&file).unwrap(), "start\nfrom obsidian\n");
}
