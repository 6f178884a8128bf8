//! A writer killed with SIGKILL in the middle of writing leaves the old or the new content,
//! never a mix, and its leftovers (temporary files, a torn ledger line) do not confuse Easel.
//!
//! The writer is the crate's `easel-vault-test-writer` helper in `crash` mode.
#![cfg(unix)]
// Test helpers outside #[test] functions may unwrap too: a failure there is a test failure.
#![allow(clippy::unwrap_used)]

use std::fs;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use easel_vault::{Change, Expect, Vault};

const SIZE: usize = 256 * 1024;

/// Version `v`: a header naming it, then one repeated letter, always `SIZE` bytes (the same
/// function as the writer's).
fn version(v: usize) -> Vec<u8> {
    let mut bytes = format!("version {v}\n").into_bytes();
    bytes.resize(SIZE, b'a' + (v % 26) as u8);
    bytes
}

fn assert_complete(path: &Path) {
    let bytes = fs::read(path).unwrap();
    let header = String::from_utf8_lossy(&bytes[..bytes.len().min(16)]).into_owned();
    let v: usize = header
        .strip_prefix("version ")
        .and_then(|rest| rest.split('\n').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("the file does not start with a version header: {header:?}"));
    assert!(
        bytes == version(v),
        "the file mixes versions (header says {v}, length {})",
        bytes.len()
    );
}

#[test]
fn a_killed_writer_leaves_one_complete_version() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("big.md");
    for round in 0..6u64 {
        let mut child = Command::new(env!("CARGO_BIN_EXE_easel-vault-test-writer"))
            .arg("crash")
            .arg(dir.path())
            .stdout(Stdio::null())
            .spawn()
            .unwrap();
        let start = Instant::now();
        while !target.exists() && start.elapsed() < Duration::from_secs(20) {
            std::thread::sleep(Duration::from_millis(5));
        }
        std::thread::sleep(Duration::from_millis(15 + 37 * round));
        child.kill().unwrap();
        child.wait().unwrap();
        assert_complete(&target);
    }

    // New versions are staged in .easel/tmp/, so nothing is left beside the file.
    for entry in fs::read_dir(dir.path()).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        assert!(
            name == "big.md" || name == ".easel",
            "unexpected file {name}"
        );
    }
    let vault = Vault::open(dir.path()).unwrap();
    let listed: Vec<_> = vault
        .list_files(None, true, "")
        .unwrap()
        .into_iter()
        .map(|f| f.path)
        .collect();
    assert_eq!(listed, ["big.md"]);

    // The ledger still reads (a torn last line is skipped) and still takes new entries.
    let before = vault.ledger_list(None).unwrap().len();
    assert!(
        before >= 6,
        "the writers made {before} writes; the test needs them to be busy when killed"
    );
    eprintln!("{before} complete writes recorded before the kills");
    let p = vault.resolve_for_write("big.md").unwrap();
    vault
        .write(
            &p,
            &version(99),
            Expect::Any,
            &Change::new("cli", "test", "after the crash"),
        )
        .unwrap();
    let entries = vault.ledger_list(None).unwrap();
    assert_eq!(entries.len(), before + 1);
    assert_complete(&target);
    // The ledger agrees with the file, and the killed writers' temporary files (new versions
    // and blobs) were removed by that write.
    assert_eq!(entries[0].rev_after, Some(vault.read(&p).unwrap().1));
    for folder in [".easel/tmp", ".easel/blobs"] {
        for entry in fs::read_dir(dir.path().join(folder)).unwrap() {
            let name = entry.unwrap().file_name().into_string().unwrap();
            assert!(
                !name.contains("easel-tmp"),
                "a temporary file was left in {folder}: {name}"
            );
        }
    }
}
