//! External command tools run as real processes: arguments on stdin, stdout as the output,
//! errors with stderr's end, the timeout, the vault as working folder.

#![allow(clippy::unwrap_used)]

use easel_agent::{AgentTool, ToolOutput, ToolsConfig, load_tools};
use easel_core::Actor;
use easel_ops::{Ctx, Effect};
use easel_vault::Vault;
use serde_json::{Value, json};
use std::sync::Arc;

fn vault_with(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join(".easel/tools")).unwrap();
    for (file, text) in files {
        std::fs::write(dir.path().join(".easel/tools").join(file), text).unwrap();
    }
    dir
}

fn tool(dir: &tempfile::TempDir, name: &str) -> Arc<dyn AgentTool> {
    let report = load_tools(dir.path(), &ToolsConfig::default());
    assert!(report.problems.is_empty(), "{:?}", report.problems);
    report.tools.into_iter().find(|t| t.name() == name).unwrap()
}

fn call(dir: &tempfile::TempDir, name: &str, args: Value) -> ToolOutput {
    let ctx = Ctx::new(Vault::open(dir.path()).unwrap(), Actor::agent("tester"));
    let no_ops = |_: &str, _: Value| ToolOutput::error("no operations here");
    tool(dir, name).call(&ctx, args, &no_ops)
}

#[test]
fn arguments_go_in_on_stdin_and_stdout_comes_out() {
    let dir = vault_with(&[(
        "echo.toml",
        "description = 'Echo the arguments'\ncommand = 'cat'\neffect = 'read'\n[parameters]\ntext = { type = 'string', description = 'The text' }\n",
    )]);
    let t = tool(&dir, "echo");
    assert_eq!(t.description(), "Echo the arguments");
    assert_eq!(t.effect(), Effect::Read);
    let out = call(&dir, "echo", json!({"text": "hi \"there\""}));
    assert_eq!(out, ToolOutput::ok(r#"{"text":"hi \"there\""}"#));
    let out = call(&dir, "echo", json!({"text": 1}));
    assert_eq!(
        out.text,
        "error: echo: argument 'text' must be a string, not a number"
    );
}

#[test]
fn a_small_script_in_the_vault_runs_with_the_vault_as_working_folder() {
    let dir = vault_with(&[(
        "count.toml",
        "command = 'sh'\nargs = ['-c', 'read line; printf \"%s|\" \"$line\"; ls notes']\n",
    )]);
    std::fs::create_dir_all(dir.path().join("notes")).unwrap();
    std::fs::write(dir.path().join("notes/a.md"), "x").unwrap();
    let out = call(&dir, "count", json!({"n": 2}));
    assert_eq!(out, ToolOutput::ok("{\"n\":2}|a.md"));
    assert_eq!(tool(&dir, "count").effect(), Effect::Write);
}

#[test]
fn the_command_is_not_run_through_a_shell() {
    let dir = vault_with(&[(
        "lit.toml",
        "command = 'echo'\nargs = ['$HOME', '; ls', '`id`']\n",
    )]);
    assert_eq!(
        call(&dir, "lit", json!({})),
        ToolOutput::ok("$HOME ; ls `id`")
    );
}

#[test]
fn a_failing_command_is_an_error_with_stderr() {
    let dir = vault_with(&[(
        "fail.toml",
        "command = 'sh'\nargs = ['-c', 'echo partial; echo something broke >&2; exit 3']\n",
    )]);
    let out = call(&dir, "fail", json!({}));
    assert_eq!(
        out,
        ToolOutput::error("fail: exited with status 3: something broke")
    );
    let dir = vault_with(&[("nope.toml", "command = 'easel-no-such-program'\n")]);
    let out = call(&dir, "nope", json!({}));
    assert!(
        out.text
            .starts_with("error: nope: cannot start 'easel-no-such-program'"),
        "{}",
        out.text
    );
}

#[test]
fn a_command_that_runs_too_long_is_stopped() {
    let dir = vault_with(&[(
        "slow.toml",
        "command = 'sleep'\nargs = ['30']\ntimeout_secs = 1\n",
    )]);
    let out = call(&dir, "slow", json!({}));
    assert_eq!(out, ToolOutput::error("slow: timed out after 1 s"));
}

#[test]
fn large_output_is_cut_at_one_mebibyte() {
    let dir = vault_with(&[(
        "big.toml",
        "command = 'head'\nargs = ['-c', '3000000', '/dev/zero']\n",
    )]);
    let out = call(&dir, "big", json!({}));
    assert!(!out.is_error);
    assert_eq!(
        out.text.len(),
        1024 * 1024 + "\n[output cut at 1 MiB]".len()
    );
    assert!(out.text.ends_with("[output cut at 1 MiB]"));
}

#[test]
fn a_cancelled_run_stops_the_command() {
    let dir = vault_with(&[(
        "slow.toml",
        "command = 'sleep'\nargs = ['600']\ntimeout_secs = 600\n",
    )]);
    let cancel = easel_ops::Cancel::new();
    cancel.cancel();
    let ctx =
        Ctx::new(Vault::open(dir.path()).unwrap(), Actor::agent("tester")).with_cancel(cancel);
    let no_ops = |_: &str, _: Value| ToolOutput::error("none");
    let out = tool(&dir, "slow").call(&ctx, json!({}), &no_ops);
    assert_eq!(out, ToolOutput::error("slow: was cancelled"));
}
