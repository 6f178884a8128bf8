//! `easel canvas layout|import|export|batch|new` end to end on a real vault folder.
#![allow(clippy::unwrap_used)]

mod common;
use common::{TestVault, expect_failure};

/// Five nodes piled on one spot, a chain a→b→c→d plus a→e.
const PILE: &str = r#"{"nodes":[
{"id":"a","type":"text","text":"a","x":0,"y":0,"width":250,"height":60},
{"id":"b","type":"text","text":"b","x":10,"y":10,"width":250,"height":60},
{"id":"c","type":"text","text":"c","x":20,"y":20,"width":250,"height":60},
{"id":"d","type":"text","text":"d","x":30,"y":30,"width":250,"height":60},
{"id":"e","type":"text","text":"e","x":40,"y":40,"width":250,"height":60}],
"edges":[{"id":"1","fromNode":"a","toNode":"b"},{"id":"2","fromNode":"b","toNode":"c"},
{"id":"3","fromNode":"c","toNode":"d"},{"id":"4","fromNode":"a","toNode":"e","label":"keep"}]}"#;

/// Changes in the ledger, as `easel ledger` counts them (a change is an entry line and, once
/// its rename is done, a confirmation line).
fn ledger_lines(v: &TestVault) -> usize {
    v.json(&["ledger", "--limit", "1000"])["total"]
        .as_u64()
        .map_or(0, |n| n as usize)
}

#[test]
fn layout_untangles_a_pile_in_one_ledger_entry() {
    let v = TestVault::new();
    std::fs::write(v.file("Pile.canvas"), PILE).unwrap();
    let r = v.json(&["canvas", "layout", "Pile", "--pin", "a"]);
    let keys: Vec<_> = r.as_object().unwrap().keys().cloned().collect();
    assert_eq!(keys, ["path", "rev", "moved", "metrics"]);
    let m = &r["metrics"];
    for k in [
        "crossings",
        "edge_node_overlaps",
        "node_overlaps",
        "edge_length",
        "area",
    ] {
        assert!(m.get(k).is_some(), "metrics lack {k}: {m}");
    }
    assert_eq!(m["node_overlaps"], 0);
    assert_eq!(m["edge_node_overlaps"], 0);
    assert_eq!(r["moved"], 4);
    assert_eq!(ledger_lines(&v), 1);
    let c = v.json(&["canvas", "read", "Pile"]);
    assert_eq!(c["rev"], r["rev"]);
    let a = &c["nodes"][0];
    assert_eq!((a["x"].as_f64(), a["y"].as_f64()), (Some(0.0), Some(0.0)));
    // Only positions and sides changed: labels, texts and sizes are as they were.
    assert_eq!(c["edges"][3]["label"], "keep");
    assert_eq!(c["edges"][0]["fromSide"], "bottom");
    assert_eq!(c["edges"][0]["toSide"], "top");
    assert_eq!(c["nodes"][4]["width"], 250);

    let human = v
        .easel()
        .args(["canvas", "layout", "Pile", "--algo", "grid"])
        .output()
        .unwrap();
    assert!(human.status.success());
    assert!(String::from_utf8_lossy(&human.stdout).contains("0 overlaps"));
}

#[test]
fn layout_refuses_what_it_cannot_do() {
    let v = TestVault::new();
    std::fs::write(v.file("Pile.canvas"), PILE).unwrap();
    let err = expect_failure(
        v.easel().args(["canvas", "layout", "Pile", "--pin", "zz"]),
        3,
    );
    assert!(err.contains("node 'zz' does not exist"), "{err}");
    assert!(err.contains("easel canvas read"), "{err}");
    expect_failure(
        v.easel()
            .args(["canvas", "layout", "Pile", "--rev", "0123456789abcdef"]),
        4,
    );
    let err = expect_failure(
        v.easel().args(["canvas", "layout", "Pile", "--group", "a"]),
        5,
    );
    assert!(err.contains("not a group"), "{err}");
    expect_failure(v.easel().args(["canvas", "layout", "Nope"]), 3);
    assert_eq!(v.read("Pile.canvas"), PILE);
    assert_eq!(ledger_lines(&v), 0);
}

#[test]
fn tree_layout_warns_about_the_edge_it_ignored() {
    let v = TestVault::new();
    std::fs::write(
        v.file("Loop.canvas"),
        r#"{"nodes":[{"id":"a","type":"text","text":"Root","x":0,"y":0,"width":100,"height":50},
        {"id":"b","type":"text","text":"Leaf","x":0,"y":0,"width":100,"height":50}],
        "edges":[{"id":"1","fromNode":"a","toNode":"b"},{"id":"2","fromNode":"b","toNode":"a"}]}"#,
    )
    .unwrap();
    let r = v.json(&["canvas", "layout", "Loop", "--algo", "tree"]);
    assert!(
        r["warnings"][0]
            .as_str()
            .unwrap()
            .contains("from 'Leaf' to 'Root' closes a cycle"),
        "{r}"
    );
}

/// A group whose three members do not fit side by side, and a note right beside it.
const ROW: &str = r#"{"nodes":[
        {"id":"g","type":"group","label":"G","x":0,"y":0,"width":300,"height":200},
        {"id":"a","type":"text","text":"a","x":20,"y":50,"width":250,"height":60},
        {"id":"b","type":"text","text":"b","x":20,"y":120,"width":250,"height":60},
        {"id":"c","type":"text","text":"c","x":20,"y":130,"width":250,"height":60},
        {"id":"n","type":"text","text":"Next door","x":340,"y":0,"width":100,"height":100}],
        "edges":[{"id":"1","fromNode":"a","toNode":"b"},{"id":"2","fromNode":"a","toNode":"c"}]}"#;

#[test]
fn a_group_laid_out_pushes_its_neighbours_away() {
    let v = TestVault::new();
    std::fs::write(v.file("Row.canvas"), ROW).unwrap();
    let r = v.json(&["canvas", "layout", "Row", "--group", "g", "--algo", "tree"]);
    assert_eq!(r["metrics"]["node_overlaps"], 0, "{r}");
    let c = v.json(&["canvas", "read", "Row"]);
    let at = |i: usize, k: &str| c["nodes"][i][k].as_f64().unwrap();
    // The group grew to the right and the note beside it moved right, at the same height.
    assert!(at(0, "width") > 300.0);
    assert!(at(4, "x") >= at(0, "x") + at(0, "width"), "{c}");
    assert_eq!(at(4, "y"), 0.0);

    // Pinned, the note stays, and the overlap is named.
    std::fs::write(v.file("Pinned.canvas"), ROW).unwrap();
    let r = v.json(&[
        "canvas", "layout", "Pinned", "--group", "g", "--algo", "tree", "--pin", "n",
    ]);
    assert!(
        r["warnings"][0]
            .as_str()
            .unwrap()
            .contains("'Next door', which is pinned"),
        "{r}"
    );
    let c = v.json(&["canvas", "read", "Pinned"]);
    assert_eq!(c["nodes"][4]["x"], 340);
}

#[test]
fn import_then_export_keeps_the_diagram() {
    let v = TestVault::new();
    let src = v.file("flow.mmd");
    std::fs::write(
        &src,
        "flowchart LR\n  A[Idea] -->|why| B(Draft)\n  subgraph S [Review]\n    C{OK?}\n  end\n  B --> C\n  style A fill:#fb464c\n",
    )
    .unwrap();
    let r = v.json(&["canvas", "import", src.to_str().unwrap(), "--out", "Flow"]);
    assert_eq!(r["path"], "Flow.canvas");
    assert_eq!(r["format"], "mermaid");
    assert_eq!(
        (r["nodeCount"].as_u64(), r["edgeCount"].as_u64()),
        (Some(4), Some(2))
    );
    assert!(r["warnings"].to_string().contains("diamond"), "{r}");
    assert_eq!(ledger_lines(&v), 1);
    let c = v.json(&["canvas", "read", "Flow"]);
    let a = c["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["text"] == "Idea")
        .unwrap();
    assert_eq!(a["color"], "1");
    // The same text twice gives the same ids, so re-imports diff cleanly.
    let again = v.json(&["canvas", "import", src.to_str().unwrap(), "--out", "Flow2"]);
    assert_eq!(
        v.read("Flow.canvas"),
        v.read(again["path"].as_str().unwrap())
    );

    let m = v
        .easel()
        .args(["canvas", "export", "Flow", "--to", "mermaid"])
        .output()
        .unwrap();
    let text = String::from_utf8(m.stdout).unwrap();
    assert!(text.starts_with("flowchart LR\n"), "{text}");
    assert!(
        text.contains("subgraph") && text.contains("|\"why\"|") && text.contains("fill:#fb464c"),
        "{text}"
    );
    let dot = v.file("flow.dot");
    v.json(&[
        "canvas",
        "export",
        "Flow",
        "--to",
        "dot",
        "--out",
        dot.to_str().unwrap(),
    ]);
    let back = v.json(&[
        "canvas",
        "import",
        dot.to_str().unwrap(),
        "--out",
        "FromDot",
    ]);
    assert_eq!(
        (back["nodeCount"].as_u64(), back["edgeCount"].as_u64()),
        (Some(4), Some(2))
    );
    let png = v.file("flow.png");
    v.json(&[
        "canvas",
        "export",
        "Flow",
        "--to",
        "png",
        "--out",
        png.to_str().unwrap(),
    ]);
    assert!(std::fs::read(&png).unwrap().starts_with(b"\x89PNG"));
    expect_failure(
        v.easel().args(["canvas", "export", "Flow", "--to", "png"]),
        5,
    );
}

#[test]
fn bad_diagrams_fail_with_a_position_and_write_nothing() {
    let v = TestVault::new();
    let src = v.file("bad.mmd");
    std::fs::write(&src, "flowchart TD\n  A --> B\n  B -->\n").unwrap();
    let err = expect_failure(
        v.easel().args(["canvas", "import", src.to_str().unwrap()]),
        5,
    );
    assert!(err.contains("line 3, column 8"), "{err}");
    let seq = v.file("seq.mmd");
    std::fs::write(&seq, "sequenceDiagram\n  A->>B: hi\n").unwrap();
    let err = expect_failure(
        v.easel().args(["canvas", "import", seq.to_str().unwrap()]),
        5,
    );
    assert!(
        err.contains("only flowcharts") && err.contains("sequenceDiagram"),
        "{err}"
    );
    let dot = v.file("bad.dot");
    std::fs::write(&dot, "digraph {\n  a -> [x];\n}").unwrap();
    let err = expect_failure(
        v.easel().args(["canvas", "import", dot.to_str().unwrap()]),
        5,
    );
    assert!(err.contains("DOT line 2, column 8"), "{err}");
    assert!(!v.file("bad.canvas").exists() && !v.file("seq.canvas").exists());
    assert_eq!(ledger_lines(&v), 0);
    // An existing canvas is not overwritten.
    std::fs::write(v.file("ok.mmd"), "graph TD\n A-->B\n").unwrap();
    v.json(&["canvas", "import", v.file("ok.mmd").to_str().unwrap()]);
    expect_failure(
        v.easel()
            .args(["canvas", "import", v.file("ok.mmd").to_str().unwrap()]),
        4,
    );
}

#[test]
fn batch_builds_a_connected_diagram_in_one_write() {
    let v = TestVault::new();
    std::fs::write(v.file("Plan.canvas"), "{\"nodes\":[],\"edges\":[]}").unwrap();
    let ops = v.file("ops.json");
    std::fs::write(
        &ops,
        r#"[{"op":"add_node","ref":"goal","type":"text","text":"Launch"},
            {"op":"add_node","ref":"docs","type":"text","text":"Docs"},
            {"op":"add_node","ref":"tests","type":"text","text":"Tests","color":"4"},
            {"op":"add_edge","fromNode":"@goal","toNode":"@docs","label":"needs"},
            {"op":"add_edge","fromNode":"@goal","toNode":"@tests"},
            {"op":"update_node","id":"@docs","data":{"text":"Write docs"}},
            {"op":"layout","algo":"tree","pin":["@goal"]}]"#,
    )
    .unwrap();
    let r = v.json(&["canvas", "batch", "Plan", "--ops", ops.to_str().unwrap()]);
    assert_eq!(r["applied"], 7);
    assert_eq!(
        (r["nodeCount"].as_u64(), r["edgeCount"].as_u64()),
        (Some(3), Some(2))
    );
    assert_eq!(r["metrics"]["node_overlaps"], 0);
    let goal = r["refs"]["goal"].as_str().unwrap().to_owned();
    assert_eq!(goal.len(), 16);
    assert_eq!(ledger_lines(&v), 1);
    let c = v.json(&["canvas", "read", "Plan"]);
    assert_eq!(c["edges"][0]["fromNode"], goal.as_str());
    assert_eq!(c["edges"][0]["label"], "needs");
    assert_eq!(c["nodes"][1]["text"], "Write docs");
}

#[test]
fn a_batch_whose_fifth_operation_fails_changes_nothing() {
    let v = TestVault::new();
    let before = "{\"nodes\":[],\"edges\":[]}";
    std::fs::write(v.file("Plan.canvas"), before).unwrap();
    let ops = v.file("ops.json");
    std::fs::write(
        &ops,
        r#"[{"op":"add_node","ref":"a","type":"text","text":"A"},
            {"op":"add_node","ref":"b","type":"text","text":"B"},
            {"op":"add_edge","fromNode":"@a","toNode":"@b"},
            {"op":"update_node","id":"@a","data":{"color":"2"}},
            {"op":"add_edge","fromNode":"@a","toNode":"@nope"}]"#,
    )
    .unwrap();
    let err = expect_failure(
        v.easel()
            .args(["canvas", "batch", "Plan", "--ops", ops.to_str().unwrap()]),
        5,
    );
    assert!(
        err.contains("operation 5 (add_edge)") && err.contains("'@nope'"),
        "{err}"
    );
    assert!(err.contains("nothing was changed"), "{err}");
    assert_eq!(v.read("Plan.canvas"), before);
    assert_eq!(ledger_lines(&v), 0);
}

#[test]
fn templates_start_canvases_with_placeholders_filled() {
    let v = TestVault::new();
    let r = v.json(&[
        "canvas",
        "new",
        "Trip",
        "--template",
        "mindmap",
        "--set",
        "topic=Summer trip",
    ]);
    assert_eq!(
        (r["path"].as_str(), r["nodeCount"].as_u64()),
        (Some("Trip.canvas"), Some(5))
    );
    let c = v.json(&["canvas", "read", "Trip"]);
    assert_eq!(c["nodes"][0]["text"], "# Summer trip");
    let r = v.json(&["canvas", "new", "Chat", "--template", "conversation"]);
    assert_eq!(r["edgeCount"], 1);
    assert!(v.read("Chat.canvas").contains("role: system"));

    common::write(
        v.path(),
        ".easel/templates/meeting.canvas",
        r##"{"nodes":[{"id":"t","type":"text","text":"# {{title}} on {{date}}","x":0,"y":0,"width":300,"height":60}],"edges":[]}"##,
    );
    let err = expect_failure(
        v.easel().args([
            "canvas",
            "new",
            "M",
            "--template",
            "meeting",
            "--set",
            "title=Review",
        ]),
        5,
    );
    assert!(
        err.contains("needs a value for 'date'") && err.contains("--set date="),
        "{err}"
    );
    let r = v.json(&[
        "canvas",
        "new",
        "M",
        "--template",
        "meeting",
        "--set",
        "title=Review",
        "--set",
        "date=Monday",
        "--set",
        "room=4",
    ]);
    assert!(
        r["warnings"][0]
            .as_str()
            .unwrap()
            .contains("'room' was not used"),
        "{r}"
    );
    assert!(v.read("M.canvas").contains("# Review on Monday"));
    let err = expect_failure(
        v.easel().args(["canvas", "new", "X", "--template", "nope"]),
        3,
    );
    assert!(err.contains("mindmap, flowchart, kanban"), "{err}");
    expect_failure(
        v.easel()
            .args(["canvas", "new", "Trip", "--template", "swot"]),
        4,
    );
}
