//! Helpers shared by the CLI tests: a throwaway vault and the `easel` binary pointed at it.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use assert_cmd::Command;
use std::path::{Path, PathBuf};
use tempfile::TempDir;

pub const OBSIDIAN: &str = include_str!("../../../easel-canvas/tests/data/obsidian-layout.canvas");
pub const PROMPT: &str = "4d5e6f708192a3b4";

pub struct TestVault {
    pub dir: TempDir,
}

impl TestVault {
    /// A vault with `.obsidian/` and the Obsidian-written fixture as `Research.canvas`.
    pub fn new() -> TestVault {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join(".obsidian")).unwrap();
        std::fs::write(dir.path().join("Research.canvas"), OBSIDIAN).unwrap();
        TestVault { dir }
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    pub fn file(&self, rel: &str) -> PathBuf {
        self.dir.path().join(rel)
    }

    pub fn read(&self, rel: &str) -> String {
        std::fs::read_to_string(self.file(rel)).unwrap()
    }

    /// `easel --vault <this vault>`.
    pub fn easel(&self) -> Command {
        let mut cmd = Command::cargo_bin("easel").unwrap();
        cmd.arg("--vault")
            .arg(self.path())
            .env_remove("EASEL_VAULT");
        cmd
    }

    /// Runs `easel --json ARGS`, expects success and returns the parsed JSON.
    pub fn json(&self, args: &[&str]) -> serde_json::Value {
        let out = self.easel().arg("--json").args(args).output().unwrap();
        assert!(
            out.status.success(),
            "easel {args:?} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice(&out.stdout).unwrap()
    }
}

/// Asserts the DESIGN.md error format and exit code, and returns stderr.
pub fn expect_failure(cmd: &mut Command, code: i32) -> String {
    let out = cmd.output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(out.status.code(), Some(code), "stderr: {stderr}");
    assert!(stderr.contains("error: "), "no error line: {stderr}");
    assert!(stderr.contains("\nhint: "), "no hint line: {stderr}");
    assert!(!stderr.contains("panicked"), "panic: {stderr}");
    stderr
}

/// Writes `text` to `rel` under `root`, making the folders on the way.
pub fn write(root: &Path, rel: &str, text: &str) {
    let full = root.join(rel);
    std::fs::create_dir_all(full.parent().unwrap()).unwrap();
    std::fs::write(full, text).unwrap();
}

/// `easel` run in `dir`, with no vault from the environment.
pub fn easel_in(dir: &Path) -> Command {
    let mut c = Command::cargo_bin("easel").unwrap();
    c.current_dir(dir).env_remove("EASEL_VAULT");
    c
}

/// Runs `cmd`, asserts it succeeded (showing its stderr when not) and returns its output.
pub fn succeed(cmd: &mut Command) -> std::process::Output {
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}
