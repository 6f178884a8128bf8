//! A writer killed with SIGKILL in the middle of writing leaves the old or the new content,
//! never a mix, and its leftovers (temporary files, a torn ledger line) do not confuse Easel.
//!
//! The writer is this test binary re-run with `--exact crash_writer_child`; that test does
//! nothing unless the parent sets `EASEL_TEST_CRASH_VAULT`.
#![cfg(unix)]
// Test helpers outside #[test] functions may unwrap too: a failure there is a test failure.
#![allow(clippy::unwrap_used)]

use std::fs;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use easel_vault::{Change, Expect, Vault};

const CHILD_VAULT: &str = "EASEL_TEST_CRASH_VAULT";
const SIZE: usize = 256 * 1024;

/// Version `v`: a header naming it, then one repeated letter, always `SIZE` bytes.
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
    let exe = std::env::current_exe().unwrap();
    for round in 0..6u64 {
        let mut child = Command::new(&exe)
            .args([
                "--exact",
                "crash_writer_child",
                "--nocapture",
                "--test-threads=1",
            ])
            .env(CHILD_VAULT, dir.path())
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

    // Leftover temporary files are recognisable and never listed as content.
    for entry in fs::read_dir(dir.path()).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        assert!(
            name == "big.md" || name == ".easel" || name.starts_with(".big.md.easel-tmp-"),
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
    assert_eq!(vault.ledger_list(None).unwrap().len(), before + 1);
    assert_complete(&target);
}

/// The writer process of `a_killed_writer_leaves_one_complete_version`: writes forever.
#[test]
fn crash_writer_child() {
    let Some(dir) = std::env::var_os(CHILD_VAULT) else {
        return;
    };
    let vault = Vault::open(dir).unwrap();
    let p = vault.resolve_for_write("big.md").unwrap();
    let change = Change::new("cli", "test.crash", "write until killed");
    for v in (0..).cycle() {
        vault
            .write(&p, &version(v % 26), Expect::Any, &change)
            .unwrap();
        if v > 1_000_000 {
            break;
        }
    }
}
