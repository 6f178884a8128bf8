//! `easel code claim|decide|mark|skip|status|read|task` and the board side of `init` and
//! `impact`, end to end on a small repository.
#![allow(clippy::unwrap_used)]

mod common;

use assert_cmd::Command;
use serde_json::Value;
use std::path::Path;

fn repo() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let w = |p: &str, t: &str| common::write(dir.path(), p, t);
    w(
        "app/settings.py",
        "def merge_setting(a, b):\n    return a\n\ndef merge_hooks(a, b):\n    return merge_setting(a, b)\n",
    );
    w(
        "app/session.py",
        "from app.settings import merge_setting\n\nclass Session:\n    def request(self):\n        return merge_setting(1, 2)\n\ndef get():\n    return Session().request()\n",
    );
    w("main.py", "from app.session import get\n\nget()\n");
    w(
        "tasks.yaml",
        "tasks:\n  - id: T1\n    title: Settings lose values\n    description: merge_setting drops b.\n    symbols: [merge_setting]\n",
    );
    dir
}

fn easel(dir: &Path) -> Command {
    common::easel_in(dir)
}

/// Runs a command that must succeed and returns its standard output.
fn ok(dir: &Path, args: &[&str]) -> String {
    let out = easel(dir).args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn json(dir: &Path, args: &[&str]) -> Value {
    let mut all = vec!["--json"];
    all.extend_from_slice(args);
    serde_json::from_str(&ok(dir, &all)).unwrap()
}

#[test]
fn a_whole_workflow_keeps_evidence_claims_decisions_and_progress() {
    let r = repo();
    let d = r.path();

    let out = easel(d).args(["code", "status"]).output().unwrap();
    assert_eq!(out.status.code(), Some(3));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("error: no evidence board in"), "{err}");
    assert!(err.contains("hint: run 'easel code init' first"), "{err}");

    let init = ok(d, &["code", "init"]);
    assert!(init.contains("parsed 3 files"), "{init}");
    assert!(
        init.contains("Created E1 (architecture): 3 files"),
        "{init}"
    );
    assert!(
        init.contains("Most called: app.settings.merge_setting (2 callers)."),
        "{init}"
    );
    assert!(
        init.contains("Board: 1 evidence, 0 claims, 0 decisions | Focus: none\nNext: 'easel code impact app.settings.merge_setting'"),
        "{init}"
    );

    let imp = ok(d, &["code", "impact", "merge_setting"]);
    assert!(
        imp.contains("Created E2 (impact \"app.settings.merge_setting\"): 2 callers, 0 callees.\nBlast radius: 3 nodes may be affected by changes (2 at depth 1, 1 at depth 2)."),
        "{imp}"
    );
    assert!(
        imp.contains("Board: 2 evidence, 0 claims, 0 decisions | Focus: app.settings.merge_setting | Progress: 0/4 addressed"),
        "{imp}"
    );

    let c = ok(
        d,
        &[
            "code",
            "claim",
            "merge_setting drops b",
            "--kind",
            "finding",
        ],
    );
    assert!(
        c.starts_with("Created C1 (finding, linked to E2): \"merge_setting drops b\""),
        "{c}"
    );
    let out = easel(d)
        .args(["code", "decide", "x", "--kind", "wish"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(5));
    assert!(String::from_utf8_lossy(&out.stderr).contains("use one of: plan, test, edit"));
    let p = ok(d, &["code", "decide", "merge b into a"]);
    assert!(p.starts_with("Created D1 (plan, linked to E2)"), "{p}");

    let m = ok(
        d,
        &["code", "mark", "merge_hooks", "--text", "test_merge passes"],
    );
    assert!(
        m.contains("Progress on app.settings.merge_setting: 1/4 affected nodes addressed."),
        "{m}"
    );
    let s = ok(d, &["code", "skip", "get", "--text", "only forwards"]);
    assert!(s.contains("2/4"), "{s}");
    // Without a symbol, mark means the focus itself.
    let m = ok(d, &["code", "mark"]);
    assert!(
        m.starts_with("Marked app.settings.merge_setting (D4)"),
        "{m}"
    );
    assert!(m.contains("Next: check app.session.Session.request (app/session.py:4), then 'easel code mark app.session.Session.request'"), "{m}");

    let status = json(d, &["code", "status"]);
    assert_eq!(status["progress"]["addressed"], 3);
    assert_eq!(status["progress"]["affected"], 4);
    assert_eq!(
        status["board"],
        "Board: 2 evidence, 1 claims, 4 decisions | Focus: app.settings.merge_setting | Progress: 3/4 addressed"
    );

    let read = ok(d, &["code", "read"]);
    assert!(
        read.contains("[x] app.settings.merge_hooks (app/settings.py:4)"),
        "{read}"
    );
    assert!(read.contains("[ ] app.session.Session.request"), "{read}");
    assert!(
        read.contains("- C1 finding [E2]: merge_setting drops b"),
        "{read}"
    );
    assert!(
        read.contains("- D3 skip app.session.get [E2]: only forwards"),
        "{read}"
    );

    let t = ok(d, &["code", "task", "t1"]);
    assert!(
        t.starts_with("Selected task T1: Settings lose values"),
        "{t}"
    );
    assert!(t.contains("| Task: T1"), "{t}");

    // The state is plain JSON, and every change is in the board's ledger.
    let state: Value =
        serde_json::from_slice(&std::fs::read(d.join(".codecanvas/state.json")).unwrap()).unwrap();
    assert_eq!(state["claims"][0]["evidence"], "E2");
    assert_eq!(state["focus"]["affected"].as_array().unwrap().len(), 4);
    let ledger = std::fs::read_to_string(d.join(".codecanvas/.easel/ledger.jsonl")).unwrap();
    // One entry per change (each also has a short confirmation line, `{"done":…}`).
    let entries = ledger.lines().filter(|l| l.starts_with("{\"id\"")).count();
    assert_eq!(entries, 8, "{ledger}");
}

#[test]
fn unknown_symbols_and_tasks_get_suggestions() {
    let r = repo();
    let d = r.path();
    ok(d, &["code", "init"]);
    let out = easel(d)
        .args(["code", "impact", "merge_settng"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("did you mean merge_setting"), "{err}");
    let out = easel(d).args(["code", "task", "T9"]).output().unwrap();
    assert_eq!(out.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&out.stderr).contains("hint: use one of: T1"));
    let out = easel(d).args(["code", "mark"]).output().unwrap();
    assert_eq!(out.status.code(), Some(5));
    assert!(String::from_utf8_lossy(&out.stderr).contains("mark needs a symbol"));
}

#[test]
fn concurrent_claims_are_all_kept_with_distinct_ids() {
    let r = repo();
    let d = r.path().to_path_buf();
    ok(&d, &["code", "init"]);
    let bin = assert_cmd::cargo::cargo_bin("easel");
    let children: Vec<_> = (0..8)
        .map(|i| {
            std::process::Command::new(&bin)
                .current_dir(&d)
                .args(["code", "claim", &format!("claim {i}")])
                .stdout(std::process::Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect();
    for mut c in children {
        assert!(c.wait().unwrap().success());
    }
    let state: Value =
        serde_json::from_slice(&std::fs::read(d.join(".codecanvas/state.json")).unwrap()).unwrap();
    let claims = state["claims"].as_array().unwrap();
    assert_eq!(claims.len(), 8);
    let mut ids: Vec<&str> = claims.iter().map(|c| c["id"].as_str().unwrap()).collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), 8);
    let mut texts: Vec<&str> = claims.iter().map(|c| c["text"].as_str().unwrap()).collect();
    texts.sort();
    assert_eq!(
        texts,
        (0..8).map(|i| format!("claim {i}")).collect::<Vec<_>>()
    );
}

#[test]
fn a_re_init_with_nothing_changed_keeps_the_evidence_it_has() {
    let r = repo();
    let d = r.path();
    // The unchanged fast path trusts only files older than a moment (a file written within the
    // same second could still change without changing its size or time).
    let old = std::time::SystemTime::now() - std::time::Duration::from_secs(60);
    for p in ["app/settings.py", "app/session.py", "main.py", "tasks.yaml"] {
        let f = std::fs::File::options()
            .write(true)
            .open(d.join(p))
            .unwrap();
        f.set_modified(old).unwrap();
    }
    let first = json(d, &["code", "init"]);
    assert_eq!(first["board"]["created"], "E1", "{first}");
    let again = json(d, &["code", "init"]);
    assert!(again["board"]["created"].is_null(), "{again}");
    let result = again["board"]["result"].as_str().unwrap();
    assert!(result.starts_with("Unchanged since E1"), "{result}");
    let board = std::fs::read_to_string(d.join(".codecanvas/state.json")).unwrap();
    let state: Value = serde_json::from_str(&board).unwrap();
    assert_eq!(state["evidence"].as_array().unwrap().len(), 1, "{state}");
}

#[test]
fn a_re_init_redraws_the_architecture_only_when_what_it_draws_changed() {
    let r = repo();
    let d = r.path();
    let first = json(d, &["code", "init"]);
    assert_eq!(first["board"]["created"], "E1", "{first}");
    let files = [
        ".codecanvas/architecture.png",
        ".codecanvas/architecture.svg",
        ".codecanvas/architecture.canvas",
        ".codecanvas/board.png",
    ];
    let snapshot = || {
        files
            .iter()
            .map(|f| {
                let p = d.join(f);
                let modified = std::fs::metadata(&p).unwrap().modified().unwrap();
                (std::fs::read(&p).unwrap(), modified)
            })
            .collect::<Vec<_>>()
    };
    let drawn = snapshot();
    let evidence = || {
        let board = std::fs::read_to_string(d.join(".codecanvas/state.json")).unwrap();
        let state: Value = serde_json::from_str(&board).unwrap();
        state["evidence"].as_array().unwrap().len()
    };

    // An edit inside a function body: same modules, classes, functions, imports and lines.
    std::fs::write(
        d.join("app/settings.py"),
        "def merge_setting(a, b):\n    return b\n\ndef merge_hooks(a, b):\n    return merge_setting(b, a)\n",
    )
    .unwrap();
    let body = json(d, &["code", "init"]);
    assert_eq!(body["stats"]["parsed"], 1, "{body}");
    assert!(body["board"]["created"].is_null(), "{body}");
    let result = body["board"]["result"].as_str().unwrap();
    assert!(
        result.starts_with("Architecture unchanged since E1"),
        "{result}"
    );
    assert_eq!(snapshot(), drawn, "the views were written again");
    assert_eq!(evidence(), 1);

    // A new import (in place of a blank line, so no line count changes): drawn again.
    std::fs::write(
        d.join("main.py"),
        "from app.session import get\nfrom app.settings import merge_hooks\nget()\n",
    )
    .unwrap();
    let import = json(d, &["code", "init"]);
    assert_eq!(import["board"]["created"], "E2", "{import}");
    assert_ne!(
        std::fs::read(d.join(".codecanvas/architecture.svg")).unwrap(),
        drawn[1].0
    );
    assert_eq!(evidence(), 2);

    // A missing picture is drawn again even when nothing it shows changed.
    std::fs::write(
        d.join("app/settings.py"),
        "def merge_setting(a, b):\n    return a\n\ndef merge_hooks(a, b):\n    return merge_setting(b, a)\n",
    )
    .unwrap();
    std::fs::remove_file(d.join(".codecanvas/architecture.svg")).unwrap();
    let missing = json(d, &["code", "init"]);
    assert_eq!(missing["board"]["created"], "E3", "{missing}");
    assert!(d.join(".codecanvas/architecture.svg").is_file());
}

/// The command line finds a repository's board from a subfolder, by the rule the `canvas`
/// tool and the hooks use (the nearest folder above with a board).
#[test]
fn board_verbs_in_a_subfolder_work_on_the_repository_s_board() {
    let r = repo();
    let d = r.path();
    ok(d, &["code", "init"]);
    let sub = d.join("app");
    let status = ok(&sub, &["code", "status"]);
    assert!(status.contains("Board: "), "{status}");
    ok(
        &sub,
        &["code", "claim", "settings drop b", "--kind", "finding"],
    );
    let impact = json(&sub, &["code", "impact", "merge_setting"]);
    assert_eq!(impact["target"]["qualname"], "app.settings.merge_setting");
    assert!(!sub.join(".codecanvas").exists());
    let read = ok(d, &["code", "read"]);
    assert!(read.contains("settings drop b"), "{read}");
}
