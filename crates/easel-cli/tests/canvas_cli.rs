//! `easel canvas …` end to end on a real vault folder.
#![allow(clippy::unwrap_used)]

mod common;
use common::{OBSIDIAN, PROMPT, TestVault, expect_failure};
use serde_json::json;

#[test]
fn list_reports_counts_in_the_documented_shape() {
    let v = TestVault::new();
    std::fs::create_dir_all(v.file("boards/sub")).unwrap();
    std::fs::write(v.file("boards/a.canvas"), "{}").unwrap();
    std::fs::write(v.file("boards/sub/b.canvas"), "{\"nodes\":[]}").unwrap();
    std::fs::write(v.file("boards/broken.canvas"), "{\"nodes\":[").unwrap();
    std::fs::write(v.file(".obsidian/hidden.canvas"), "{}").unwrap();
    let all = v.json(&["canvas", "list"]);
    assert_eq!(all["total"], 4);
    let first = &all["canvases"][0];
    assert_eq!(first["path"], "Research.canvas");
    assert_eq!(first["name"], "Research");
    assert_eq!(first["nodeCount"], 6);
    assert_eq!(first["edgeCount"], 4);
    assert!(first["modified"].as_i64().unwrap() > 1_600_000_000_000);
    let broken = all["canvases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "broken")
        .unwrap();
    assert!(broken["nodeCount"].is_null());
    assert!(broken["error"].as_str().unwrap().contains("line 1"));
    let shallow = v.json(&["canvas", "list", "--folder", "boards", "--no-recursive"]);
    assert_eq!(shallow["total"], 2);
    expect_failure(v.easel().args(["canvas", "list", "--folder", "nope"]), 3);
}

#[test]
fn read_returns_path_rev_nodes_edges_and_counts() {
    let v = TestVault::new();
    let r = v.json(&["canvas", "read", "Research"]);
    let keys: Vec<_> = r.as_object().unwrap().keys().cloned().collect();
    assert_eq!(
        keys,
        ["path", "rev", "nodes", "edges", "nodeCount", "edgeCount"]
    );
    assert_eq!(r["path"], "Research.canvas");
    assert_eq!(r["rev"].as_str().unwrap().len(), 16);
    assert_eq!(r["nodes"][4]["styleAttributes"], json!({"shape": "pill"}));
    assert_eq!(r["edges"][3]["isGenerated"], true);
    insta::assert_json_snapshot!("read_fixture", r);
}

#[test]
fn write_creates_new_canvases_only() {
    let v = TestVault::new();
    let data = v.file("data.json");
    std::fs::write(
        &data,
        r#"{"nodes":[{"id":"a","type":"text","text":"A","x":0,"y":0,"width":250,"height":60},{"type":"text","text":"B","x":0,"y":300}],"edges":[{"fromNode":"a","toNode":"a"}]}"#,
    )
    .unwrap();
    let r = v.json(&[
        "canvas",
        "write",
        "boards/new",
        "--data",
        data.to_str().unwrap(),
    ]);
    assert_eq!(r["path"], "boards/new.canvas");
    assert_eq!(r["nodeCount"], 2);
    let text = v.read("boards/new.canvas");
    assert!(
        text.starts_with("{\n\t\"nodes\":[\n\t\t{\"id\":\"a\""),
        "{text}"
    );
    let back = v.json(&["canvas", "read", "boards/new.canvas"]);
    assert!(easel_canvas::is_easel_id(
        back["nodes"][1]["id"].as_str().unwrap()
    ));
    assert!(back["edges"][0]["fromSide"].is_string());
    let err = expect_failure(
        v.easel().args([
            "canvas",
            "write",
            "boards/new",
            "--data",
            data.to_str().unwrap(),
        ]),
        4,
    );
    assert!(err.contains("already exists"), "{err}");
    // Edges are checked after ids are assigned; a dangling one is refused and nothing is written.
    std::fs::write(
        &data,
        r#"{"nodes":[{"type":"text","text":"A"}],"edges":[{"fromNode":"x","toNode":"y"}]}"#,
    )
    .unwrap();
    let err = expect_failure(
        v.easel()
            .args(["canvas", "write", "other", "--data", data.to_str().unwrap()]),
        5,
    );
    assert!(err.contains("fromNode 'x' does not exist"), "{err}");
    assert!(!v.file("other.canvas").exists());
}

#[test]
fn update_replaces_arrays_and_checks_existence_and_rev() {
    let v = TestVault::new();
    let rev = v.json(&["canvas", "read", "Research"])["rev"]
        .as_str()
        .unwrap()
        .to_owned();
    let mut cmd = v.easel();
    cmd.args([
        "--json", "canvas", "update", "Research", "--data", "-", "--rev", &rev,
    ])
    .write_stdin(r#"{"edges":[]}"#);
    let out = common::succeed(&mut cmd);
    let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (r["nodeCount"].as_u64(), r["edgeCount"].as_u64()),
        (Some(6), Some(0))
    );
    // The old rev is stale now.
    let stale = expect_failure(
        v.easel()
            .args(["canvas", "update", "Research", "--data", "-", "--rev", &rev])
            .write_stdin(r#"{"edges":[]}"#),
        4,
    );
    assert!(stale.contains("changed since"), "{stale}");
    expect_failure(
        v.easel()
            .args(["canvas", "update", "Missing", "--data", "-"])
            .write_stdin(r#"{"edges":[]}"#),
        3,
    );
    expect_failure(
        v.easel()
            .args(["canvas", "update", "Research", "--data", "-"])
            .write_stdin(r#"{"bogus":[]}"#),
        5,
    );
    expect_failure(
        v.easel()
            .args([
                "canvas", "update", "Research", "--data", "-", "--rev", "xyz",
            ])
            .write_stdin("{}"),
        5,
    );
}

#[test]
fn add_then_remove_on_an_obsidian_file_gives_back_identical_bytes() {
    let v = TestVault::new();
    let added = v.json(&[
        "canvas",
        "add-node",
        "Research",
        "--type",
        "text",
        "--text",
        "temporary",
    ]);
    let id = added["node"]["id"].as_str().unwrap().to_owned();
    assert_ne!(v.read("Research.canvas"), OBSIDIAN);
    v.json(&["canvas", "remove-node", "Research", &id]);
    assert_eq!(v.read("Research.canvas"), OBSIDIAN);
}

#[test]
fn undo_restores_identical_bytes() {
    let v = TestVault::new();
    v.json(&[
        "canvas",
        "update-node",
        "Research",
        PROMPT,
        "--data",
        r#"{"text":"changed","color":"2"}"#,
    ]);
    v.json(&["canvas", "remove-edge", "Research", "a1b2c3d4e5f60718"]);
    let ledger = v.json(&["ledger"]);
    assert_eq!(ledger["total"], 2);
    assert_eq!(ledger["entries"][0]["op"], "canvas.remove_edge");
    assert_eq!(ledger["entries"][0]["actor"], "cli");
    v.json(&["undo"]);
    v.json(&["undo"]);
    assert_eq!(v.read("Research.canvas"), OBSIDIAN);
    // Nothing left to undo.
    expect_failure(v.easel().arg("undo"), 3);
}

#[test]
fn a_canvas_changed_behind_easels_back_gives_a_conflict_not_a_lost_edit() {
    let v = TestVault::new();
    let rev = v.json(&["canvas", "read", "Research"])["rev"]
        .as_str()
        .unwrap()
        .to_owned();
    // Someone edits the file in Obsidian meanwhile.
    let edited = OBSIDIAN.replace("Summarise the spec", "Summarize the spec");
    std::fs::write(v.file("Research.canvas"), &edited).unwrap();
    let err = expect_failure(
        v.easel().args([
            "canvas",
            "update-node",
            "Research",
            PROMPT,
            "--data",
            r#"{"color":"1"}"#,
            "--rev",
            &rev,
        ]),
        4,
    );
    assert!(err.contains("changed since it was read"), "{err}");
    assert_eq!(v.read("Research.canvas"), edited);
    // Without --rev, the edit is applied on top of the other change: both survive.
    v.json(&[
        "canvas",
        "update-node",
        "Research",
        PROMPT,
        "--data",
        r#"{"color":"1"}"#,
    ]);
    let now = v.read("Research.canvas");
    assert!(
        now.contains("Summarize the spec") && now.contains(r#""color":"1""#),
        "{now}"
    );
}

#[test]
fn node_and_edge_verbs_follow_their_flags() {
    let v = TestVault::new();
    let g = v.json(&[
        "canvas", "add-node", "Research", "--type", "group", "--label", "Later", "--x", "-2000",
        "--y", "0", "--width", "500", "--height", "400", "--color", "#00ff00", "--id", "grp",
    ]);
    assert_eq!(
        g["node"],
        json!({"id":"grp","type":"group","label":"Later","x":-2000,"y":0,"width":500,"height":400,"color":"#00ff00"})
    );
    let e = v.json(&[
        "canvas",
        "add-edge",
        "Research",
        PROMPT,
        "grp",
        "--from-side",
        "left",
        "--to-end",
        "none",
        "--label",
        "see",
    ]);
    assert_eq!(e["edge"]["fromSide"], "left");
    assert_eq!(e["edge"]["toSide"], "right");
    assert_eq!(e["edge"]["toEnd"], "none");
    let id = e["edge"]["id"].as_str().unwrap().to_owned();
    let u = v.json(&[
        "canvas",
        "update-edge",
        "Research",
        &id,
        "--data",
        r#"{"label":null,"color":"5"}"#,
    ]);
    assert!(u["edge"].get("label").is_none());
    let removed = v.json(&["canvas", "remove-node", "Research", "grp"]);
    assert_eq!(removed["removedEdges"], json!([id]));
    expect_failure(
        v.easel()
            .args(["canvas", "add-node", "Research", "--type", "text"]),
        5,
    );
    expect_failure(
        v.easel().args([
            "canvas", "add-node", "Research", "--type", "text", "--text", "x", "--id", PROMPT,
        ]),
        5,
    );
    expect_failure(
        v.easel()
            .args(["canvas", "add-edge", "Research", PROMPT, "missing"]),
        5,
    );
    expect_failure(
        v.easel().args([
            "canvas",
            "update-node",
            "Research",
            "missing",
            "--data",
            "{}",
        ]),
        3,
    );
    expect_failure(
        v.easel()
            .args(["canvas", "update-node", "Research", PROMPT, "--data", "[1]"]),
        5,
    );
    expect_failure(
        v.easel().args([
            "canvas",
            "update-node",
            "Research",
            PROMPT,
            "--data",
            r#"{"id":"new"}"#,
        ]),
        5,
    );
    expect_failure(
        v.easel()
            .args(["canvas", "remove-edge", "Research", "missing"]),
        3,
    );
    expect_failure(
        v.easel()
            .args(["canvas", "add-node", "Research", "--type", "blob"]),
        2,
    );
}

#[test]
fn validate_reports_errors_and_warnings_with_exit_5() {
    let v = TestVault::new();
    std::fs::write(
        v.file("bad.canvas"),
        r#"{"nodes":[{"id":"a","type":"text","x":0,"y":0,"width":1,"height":1,"color":"7"}],"edges":[{"id":"e","fromNode":"a","toNode":"gone"}]}"#,
    )
    .unwrap();
    let out = v
        .easel()
        .args(["--json", "canvas", "validate", "bad"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(5));
    let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    insta::assert_json_snapshot!("validate_bad", r, {".rev" => "[rev]"});
    let ok = v.json(&["canvas", "validate", "Research"]);
    assert_eq!(ok["valid"], true);
}

#[test]
fn fmt_rewrites_other_layouts_and_leaves_obsidians_alone() {
    let v = TestVault::new();
    let r = v.json(&["canvas", "fmt", "Research"]);
    assert_eq!(r["changed"], false);
    assert_eq!(v.json(&["ledger"])["total"], 0);
    std::fs::write(v.file("pretty.canvas"), "{\n  \"nodes\": [ {\"id\": \"a\", \"type\": \"text\", \"text\": \"x\", \"x\": 0, \"y\": 0, \"width\": 1.50, \"height\": 1} ],\n  \"edges\": []\n}\n").unwrap();
    let r = v.json(&["canvas", "fmt", "pretty"]);
    assert_eq!(r["changed"], true);
    assert_eq!(
        v.read("pretty.canvas"),
        "{\n\t\"nodes\":[\n\t\t{\"id\":\"a\",\"type\":\"text\",\"text\":\"x\",\"x\":0,\"y\":0,\"width\":1.50,\"height\":1}\n\t],\n\t\"edges\":[]\n}"
    );
}

#[test]
fn bad_input_is_refused_clearly_without_panics() {
    let v = TestVault::new();
    std::fs::write(
        v.file("broken.canvas"),
        "{\n\t\"nodes\":[\n\t\t{\"id\":\"a\",}\n\t]\n}",
    )
    .unwrap();
    let err = expect_failure(v.easel().args(["canvas", "read", "broken"]), 5);
    assert!(err.contains("line 3, column 13"), "{err}");
    std::fs::write(v.file("binary.canvas"), [0xff, 0xfe, 0x00]).unwrap();
    expect_failure(v.easel().args(["canvas", "read", "binary"]), 5);
    expect_failure(v.easel().args(["canvas", "read", "missing"]), 3);
    for escape in ["../outside", "/etc/passwd", "a/../../x"] {
        expect_failure(v.easel().args(["canvas", "read", escape]), 5);
    }
    expect_failure(
        v.easel()
            .args(["canvas", "write", ".obsidian/x", "--data", "-"])
            .write_stdin("{}"),
        5,
    );
    let err = expect_failure(
        v.easel()
            .args(["canvas", "write", "x", "--data", "-"])
            .write_stdin("{\"nodes\":"),
        5,
    );
    assert!(err.contains("line 1"), "{err}");
    expect_failure(
        v.easel()
            .args(["canvas", "write", "x", "--data", "/no/such/file.json"]),
        5,
    );
    expect_failure(v.easel().args(["canvas"]), 2);
    expect_failure(v.easel().args(["nonsense"]), 2);
}

#[test]
fn data_from_an_endless_stream_stops_at_the_cap() {
    // /dev/zero never ends: without the cap `easel` reads until memory runs out.
    let v = TestVault::new();
    let zero = std::fs::File::open("/dev/zero").unwrap();
    // assert_cmd only feeds bytes it holds; the endless stream needs std's Command.
    let out = std::process::Command::new(assert_cmd::cargo::cargo_bin("easel"))
        .arg("--vault")
        .arg(v.path())
        .env_remove("EASEL_VAULT")
        .args(["canvas", "write", "x", "--data", "-"])
        .stdin(zero)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(5), "{err}");
    assert!(err.contains("larger than 64 MiB"), "{err}");
    assert!(err.contains("\nhint: "), "{err}");
    let err = expect_failure(
        v.easel()
            .args(["canvas", "write", "x", "--data", "/dev/zero"]),
        5,
    );
    assert!(err.contains("larger than 64 MiB"), "{err}");
    assert!(!v.file("x.canvas").exists());
}

#[test]
fn the_vault_is_found_from_the_environment_and_parent_folders() {
    let v = TestVault::new();
    std::fs::create_dir_all(v.file("deep/er")).unwrap();
    let mut cmd = assert_cmd::Command::cargo_bin("easel").unwrap();
    let out = cmd
        .current_dir(v.file("deep/er"))
        .env_remove("EASEL_VAULT")
        .args(["--json", "canvas", "list"])
        .output()
        .unwrap();
    let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(r["total"], 1);
    let mut cmd = assert_cmd::Command::cargo_bin("easel").unwrap();
    let out = cmd
        .current_dir("/")
        .env("EASEL_VAULT", v.path())
        .args(["--json", "canvas", "list"])
        .output()
        .unwrap();
    let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(r["total"], 1);
}

#[test]
fn find_filters_by_every_criterion() {
    let v = TestVault::new();
    let r = v.json(&[
        "canvas", "find", "Research", "--type", "text", "--group", "research",
    ]);
    assert_eq!(r["total"], 3);
    let r = v.json(&["canvas", "find", "Research", "--text", "BULLET"]);
    assert_eq!(r["nodes"][0]["id"], PROMPT);
    let r = v.json(&["canvas", "find", "Research", "--color", "3"]);
    assert_eq!(r["total"], 1);
    let r = v.json(&[
        "canvas",
        "find",
        "Research",
        "--type",
        "link",
        "--text",
        "nothing like this",
    ]);
    assert_eq!(r["total"], 0);
    expect_failure(v.easel().args(["canvas", "find", "Nope"]), 3);
}

#[cfg(unix)]
#[test]
fn list_escapes_names_that_would_print_lines_of_their_own() {
    let v = TestVault::new();
    std::fs::write(v.file("evil\n9 canvases\u{1b}[2J.canvas"), "{}").unwrap();
    let out = v.easel().args(["canvas", "list"]).output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    // Research, the crafted one, and the total: three lines, no escape sequence.
    assert_eq!(text.lines().count(), 3, "{text}");
    assert!(
        text.contains("evil\\n9 canvases\\u{1b}[2J.canvas"),
        "{text}"
    );
    assert!(!text.contains('\u{1b}'), "{text}");
    assert!(text.ends_with("2 canvases\n"), "{text}");
}
