//! Concurrent read-modify-write: threads and separate processes appending to one file through
//! `Vault::modify` never lose a line, and the ledger records one unbroken chain of revisions.
//!
//! The multi-process test runs the crate's `easel-vault-test-writer` helper in `append` mode.

// Test helpers outside #[test] functions may unwrap too: a failure there is a test failure.
#![allow(clippy::unwrap_used)]

use std::collections::HashSet;
use std::path::Path;
use std::process::{Command, Stdio};

use easel_vault::{Change, Expect, Vault, VaultError};

fn append_line(vault: &Vault, line: &str) {
    let p = vault.resolve_for_write("log.md").unwrap();
    let change = Change::new("thread", "test.append", line);
    vault
        .modify(&p, Expect::Any, &change, |old| {
            let mut bytes = old.unwrap_or_default().to_vec();
            bytes.extend_from_slice(line.as_bytes());
            bytes.push(b'\n');
            Ok::<_, VaultError>((bytes, ()))
        })
        .unwrap();
}

/// Check that every expected line is there exactly once, each writer's lines in its own order,
/// and that each ledger entry starts from the revision the previous one left.
fn check(dir: &Path, writers: &[String], per_writer: usize) {
    let vault = Vault::open(dir).unwrap();
    let text = std::fs::read_to_string(dir.join("log.md")).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines.len(),
        writers.len() * per_writer,
        "lines were lost or duplicated"
    );
    assert_eq!(lines.iter().collect::<HashSet<_>>().len(), lines.len());
    for writer in writers {
        let own: Vec<&str> = lines
            .iter()
            .copied()
            .filter(|l| l.starts_with(&format!("{writer}-")))
            .collect();
        let expected: Vec<String> = (0..per_writer).map(|k| format!("{writer}-{k}")).collect();
        assert_eq!(own, expected);
    }
    let mut entries = vault.ledger_list(None).unwrap();
    entries.reverse();
    assert_eq!(entries.len(), lines.len(), "one ledger entry per change");
    assert_eq!(entries[0].rev_before, None);
    for pair in entries.windows(2) {
        assert_eq!(
            pair[1].rev_before, pair[0].rev_after,
            "every change started from the previous result"
        );
    }
}

#[test]
fn twenty_threads_appending_lose_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let vault = Vault::open(dir.path()).unwrap();
    let writers: Vec<String> = (0..20).map(|t| format!("t{t}")).collect();
    std::thread::scope(|s| {
        for writer in &writers {
            let vault = &vault;
            s.spawn(move || {
                for k in 0..10 {
                    append_line(vault, &format!("{writer}-{k}"));
                }
            });
        }
    });
    check(dir.path(), &writers, 10);
}

#[test]
fn processes_appending_lose_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let barrier = tempfile::tempdir().unwrap();
    let writers: Vec<String> = (0..4).map(|p| format!("p{p}")).collect();
    let children: Vec<_> = writers
        .iter()
        .map(|tag| {
            // Each writer announces itself in `barrier` (outside the vault) and waits for all,
            // so that they really run at the same time instead of one after another while the
            // next is still being spawned.
            Command::new(env!("CARGO_BIN_EXE_easel-vault-test-writer"))
                .arg("append")
                .arg(dir.path())
                .arg(tag)
                .arg(barrier.path())
                .arg(writers.len().to_string())
                .stdout(Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect();
    for mut child in children {
        assert!(child.wait().unwrap().success(), "a writer process failed");
    }
    // Each process ran two threads, so writers are "p<n>a" and "p<n>b".
    let all: Vec<String> = writers
        .iter()
        .flat_map(|w| [format!("{w}a"), format!("{w}b")])
        .collect();
    check(dir.path(), &all, 15);

    let text = std::fs::read_to_string(dir.path().join("log.md")).unwrap();
    let process_of_line: Vec<&str> = text.lines().map(|l| &l[..2]).collect();
    let switches = process_of_line.windows(2).filter(|w| w[0] != w[1]).count();
    // The barrier in `append_child` already guarantees that the processes ran at the same
    // time; how often the lock changed hands between them is up to the scheduler.
    eprintln!("the lock passed between writer processes {switches} times");
}
