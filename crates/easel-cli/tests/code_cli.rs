//! `easel code …` end to end on a small repository.
#![allow(clippy::unwrap_used)]

mod common;

use assert_cmd::Command;
use std::path::Path;

fn repo() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let w = |p: &str, t: &str| common::write(dir.path(), p, t);
    w(".gitignore", "ignored/\n");
    w("ignored/skip.py", "def skipped():\n    pass\n");
    w(
        "app/settings.py",
        "def merge_setting(a, b):\n    return a\n\ndef merge_hooks(a, b):\n    return merge_setting(a, b)\n",
    );
    w(
        "app/session.py",
        "from app.settings import merge_setting\n\nclass Session:\n    def request(self):\n        return merge_setting(1, 2)\n\ndef get():\n    return Session().request()\n",
    );
    w(
        "main.py",
        "from app.session import get\n\nget()\nprint('done')\n",
    );
    dir
}

fn easel(dir: &Path) -> Command {
    common::easel_in(dir)
}

fn json(dir: &Path, args: &[&str]) -> serde_json::Value {
    let out = common::succeed(easel(dir).arg("--json").args(args));
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn init_parses_caches_and_writes_the_graph() {
    let r = repo();
    let first = json(r.path(), &["code", "init"]);
    assert_eq!(first["stats"]["files"], 3);
    assert_eq!(first["stats"]["parsed"], 3);
    assert_eq!(first["nodes"]["modules"], 3);
    assert_eq!(first["nodes"]["classes"], 1);
    assert!(r.path().join(".codecanvas/graph.json").is_file());
    let again = json(r.path(), &["code", "init", "."]);
    assert_eq!(again["stats"]["parsed"], 0);
    assert_eq!(again["stats"]["cached"], 3);
    // People get a summary, and the bar stays quiet when piped.
    let out = easel(r.path()).args(["code", "init"]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("parsed 3 files"), "{text}");
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn graph_lists_nodes_edges_and_unresolved_calls_apart() {
    let r = repo();
    let g = json(r.path(), &["code", "graph"]);
    let node = g["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["qualname"] == "app.session.Session.request")
        .unwrap();
    for key in ["id", "kind", "qualname", "file", "start_line", "end_line"] {
        assert!(!node[key].is_null(), "{key} missing in {node}");
    }
    assert_eq!(node["id"], "app/session.py:Session.request");
    assert_eq!(node["kind"], "FUNC");
    assert_eq!(node["start_line"], 4);
    let edges = g["edges"].as_array().unwrap();
    assert!(
        edges
            .iter()
            .any(|e| e["from"] == "app/session.py:Session.request"
                && e["to"] == "app/settings.py:merge_setting"
                && e["kind"] == "CALL")
    );
    assert!(edges.iter().any(|e| e["kind"] == "IMPORT"));
    // `print` is Python's own: a builtin call, not a gap in the graph.
    let builtins = g["builtin_calls"].as_array().unwrap();
    assert!(
        builtins
            .iter()
            .any(|u| u["from"] == "main.py" && u["name"] == "print")
    );
    assert_eq!(g["unresolved"].as_array().unwrap().len(), 0, "{g}");
    assert!(
        !g.to_string().contains("skipped"),
        "gitignored code stays out"
    );
    let text = easel(r.path()).args(["code", "graph"]).output().unwrap();
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(text.contains("unresolved calls (0):"), "{text}");
    assert!(text.contains("builtin calls (1):"), "{text}");
}

#[test]
fn graph_callgraph_prints_callers_and_callees_by_qualified_name() {
    let r = repo();
    // JSON with or without --json: the interchange format of call-graph tools.
    for args in [
        &["code", "graph", "--callgraph"][..],
        &["--json", "code", "graph", "--callgraph"][..],
    ] {
        let out = easel(r.path()).args(args).output().unwrap();
        assert!(out.status.success());
        let cg: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(
            cg["main"],
            serde_json::json!(["<builtin>.print", "app.session.get"])
        );
        assert_eq!(
            cg["app.session.get"],
            serde_json::json!(["app.session.Session.request"])
        );
        assert_eq!(
            cg["app.session.Session.request"],
            serde_json::json!(["app.settings.merge_setting"])
        );
        // Every function is a key, even one that calls nothing; classes are not callers.
        assert_eq!(cg["app.settings.merge_setting"], serde_json::json!([]));
        assert!(cg.get("app.session.Session").is_none());
    }
}

#[test]
fn impact_reports_callers_callees_and_depth() {
    let r = repo();
    let i = json(
        r.path(),
        &["code", "impact", "merge_setting", "--depth", "1"],
    );
    assert_eq!(i["target"]["qualname"], "app.settings.merge_setting");
    assert_eq!(i["counts"]["callers"], 2);
    assert_eq!(i["counts"]["blast_radius"], 2);
    let deep = json(
        r.path(),
        &["code", "impact", "merge_setting", "--depth", "3"],
    );
    assert_eq!(deep["counts"]["blast_radius"], 4);
    let text = easel(r.path())
        .args(["code", "impact", "Session.request"])
        .output()
        .unwrap();
    assert!(text.status.success());
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(
        text.contains("callers:") && text.contains("app.session.get"),
        "{text}"
    );
}

#[test]
fn a_typo_fails_with_suggestions_and_exit_code_3() {
    let r = repo();
    let out = easel(r.path())
        .args(["code", "impact", "merge_setings"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.starts_with("error: no symbol matches 'merge_setings'"),
        "{err}"
    );
    assert!(err.contains("merge_setting"), "{err}");
    assert!(err.contains("hint: "), "{err}");
}

#[test]
fn symbols_searches_and_a_missing_folder_is_not_found() {
    let r = repo();
    let s = json(r.path(), &["code", "symbols", "merge"]);
    let names: Vec<&str> = s["symbols"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["node"]["name"].as_str().unwrap())
        .collect();
    assert!(
        names.contains(&"merge_setting") && names.contains(&"merge_hooks"),
        "{names:?}"
    );
    let out = easel(r.path())
        .args(["code", "init", "no/such/dir"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&out.stderr).contains("hint: "));
}

/// A reader that stops early (`easel code graph | head`) ends the command quietly: exit 0, no
/// panic message, whether the output is text or JSON.
#[test]
fn a_closed_stdout_pipe_ends_quietly() {
    use std::io::Read;
    use std::process::Stdio;
    let dir = tempfile::tempdir().unwrap();
    // Far more output than a pipe buffers (64 KiB), so the writer is still writing when the
    // reader goes away.
    let mut src = String::new();
    for i in 0..3000 {
        src.push_str(&format!(
            "def function_number_{i}():\n    function_number_{}()\n\n",
            i + 1
        ));
    }
    std::fs::write(dir.path().join("big.py"), src).unwrap();
    for args in [&["code", "graph"][..], &["--json", "code", "graph"][..]] {
        let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("easel"))
            .current_dir(dir.path())
            .env_remove("EASEL_VAULT")
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdout = child.stdout.take().unwrap();
        let mut head = [0u8; 100];
        stdout.read_exact(&mut head).unwrap();
        drop(stdout);
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert!(stderr.is_empty(), "{args:?}: {stderr}");
        assert!(out.status.success(), "{args:?}: {:?} {stderr}", out.status);
    }
}
