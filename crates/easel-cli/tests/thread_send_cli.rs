//! `easel thread send` and `thread watch` with the real local model (fetched by `make test`).
#![allow(clippy::unwrap_used)]

mod common;

use common::TestVault;
use std::time::{Duration, Instant};

const CHAT: &str = r#"{"nodes":[
{"id":"q","type":"text","text":"What is 2+2? Answer in one sentence.","x":0,"y":0,"width":250,"height":80}],
"edges":[]}"#;

fn easel(v: &TestVault) -> assert_cmd::Command {
    let mut c = v.easel();
    c.env_remove("EASEL_MODEL").env_remove("EASEL_LOCAL_MODEL");
    c
}

fn canvas(v: &TestVault) -> serde_json::Value {
    serde_json::from_str(&v.read("chat.canvas")).unwrap()
}

#[test]
fn send_writes_the_answer_below_the_question() {
    let v = TestVault::new();
    std::fs::write(v.file("chat.canvas"), CHAT).unwrap();
    let send = || {
        let out = common::succeed(easel(&v).args([
            "--json",
            "thread",
            "send",
            "chat",
            "q",
            "--temperature",
            "0",
            "--max-tokens",
            "40",
        ]));
        serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap()
    };
    let first = send();
    assert_eq!(first["model"], "local:smollm2");
    let text = first["text"].as_str().unwrap();
    assert!(
        text.contains('4') || text.to_lowercase().contains("four"),
        "{text}"
    );
    assert!(first["usage"].is_object(), "{first}");
    let c = canvas(&v);
    let node = c["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["id"] == first["node"])
        .unwrap();
    assert_eq!(node["type"], "text");
    assert_eq!(
        (node["x"].as_f64(), node["y"].as_f64()),
        (Some(0.0), Some(140.0))
    );
    assert_eq!(node["width"].as_f64(), Some(400.0));
    assert_eq!(node["color"], "3");
    let body = node["text"].as_str().unwrap();
    assert!(
        body.starts_with("---\nrole: assistant\nmodel: local:smollm2\ncreated: "),
        "{body}"
    );
    assert!(body.ends_with(&format!("---\n\n{text}")), "{body}");
    let edge = c["edges"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["id"] == first["edge"])
        .unwrap();
    assert_eq!(
        (edge["fromNode"].as_str(), edge["fromSide"].as_str()),
        (Some("q"), Some("bottom"))
    );
    assert_eq!(
        (edge["toNode"].as_str(), edge["toSide"].as_str()),
        (first["node"].as_str(), Some("top"))
    );

    // A second answer to the same question goes beside the first, not on top of it.
    let second = send();
    let c = canvas(&v);
    let rect = |id: &serde_json::Value| {
        let n = c["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .find(|n| n["id"] == *id)
            .unwrap();
        (
            n["x"].as_f64().unwrap(),
            n["y"].as_f64().unwrap(),
            n["width"].as_f64().unwrap(),
            n["height"].as_f64().unwrap(),
        )
    };
    let (a, b) = (rect(&first["node"]), rect(&second["node"]));
    let overlap = a.0 < b.0 + b.2 && b.0 < a.0 + a.2 && a.1 < b.1 + b.3 && b.1 < a.1 + a.3;
    assert!(!overlap, "{a:?} {b:?}");
    // The ledger has the thread's changes, and undo takes them back.
    let ledger: serde_json::Value = serde_json::from_slice(
        &easel(&v)
            .args(["--json", "ledger"])
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap();
    assert!(
        ledger["entries"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["actor"] == "thread")
    );
}

#[test]
fn watch_answers_a_typed_ask_marker() {
    let v = TestVault::new();
    std::fs::write(
        v.file("chat.canvas"),
        CHAT.replace("one sentence.\"", "one sentence.\\n/ask\""),
    )
    .unwrap();
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("easel"))
        .env_remove("EASEL_MODEL")
        .env_remove("EASEL_LOCAL_MODEL")
        .args([
            "--vault",
            v.path().to_str().unwrap(),
            "thread",
            "watch",
            "chat",
            "--temperature",
            "0",
            "--max-tokens",
            "30",
        ])
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    let answered = loop {
        let c = canvas(&v);
        let nodes = c["nodes"].as_array().unwrap();
        if nodes.len() == 2 && !v.read("chat.canvas").contains("/ask") {
            let text = nodes[1]["text"].as_str().unwrap_or("");
            if text.contains("role: assistant") && !text.trim_end().ends_with("---") {
                break true;
            }
        }
        if start.elapsed() > Duration::from_secs(120) {
            break false;
        }
        std::thread::sleep(Duration::from_millis(200));
    };
    let _ = child.kill();
    let _ = child.wait();
    assert!(answered, "no answer: {}", v.read("chat.canvas"));
}

/// While `thread send` streams its answer, another process (the CLI, as a person or an agent
/// would) adds a node to the same canvas: both must be in the file at the end, field by field.
#[test]
fn a_node_added_while_the_answer_streams_is_kept() {
    let v = TestVault::new();
    std::fs::write(
        v.file("chat.canvas"),
        r#"{"nodes":[
{"id":"q","type":"text","text":"Write a short paragraph about the sea.","x":0,"y":0,"width":250,"height":80}],
"edges":[]}"#,
    )
    .unwrap();
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("easel"))
        .env_remove("EASEL_MODEL")
        .env_remove("EASEL_LOCAL_MODEL")
        .args(["--vault", v.path().to_str().unwrap(), "--json"])
        .args(["thread", "send", "chat", "q", "--temperature", "0"])
        .args(["--max-tokens", "150"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // The answer node is written when the call starts, before the model is even loaded, so
    // waiting for it puts the other edit inside the stream, not before or after it.
    let start = Instant::now();
    let answer_id = loop {
        let c = canvas(&v);
        if let Some(n) = c["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .find(|n| n["id"] != "q")
        {
            break n["id"].as_str().unwrap().to_owned();
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "no answer node appeared"
        );
        std::thread::sleep(Duration::from_millis(10));
    };
    assert!(
        child.try_wait().unwrap().is_none(),
        "thread send ended before the other edit could be made"
    );
    let added = easel(&v)
        .args(["--json", "canvas", "add-node", "chat", "--type", "text"])
        .args(["--text", "Added while the answer streamed", "--id", "other"])
        .args([
            "--x", "-600", "--y", "0", "--width", "250", "--height", "100",
        ])
        .args(["--color", "5"])
        .output()
        .unwrap();
    assert!(
        added.status.success(),
        "{}",
        String::from_utf8_lossy(&added.stderr)
    );
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let sent: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(sent["node"], answer_id.as_str());
    assert_eq!(sent["partial"], false);
    let text = sent["text"].as_str().unwrap();
    assert!(text.len() > 20, "{text}");

    let c = canvas(&v);
    let nodes = c["nodes"].as_array().unwrap();
    assert_eq!(nodes.len(), 3, "{c}");
    let node = |id: &str| nodes.iter().find(|n| n["id"] == id).unwrap();
    let q = node("q");
    assert_eq!(q["text"], "Write a short paragraph about the sea.");
    assert_eq!((q["x"].as_f64(), q["y"].as_f64()), (Some(0.0), Some(0.0)));
    assert_eq!(
        (q["width"].as_f64(), q["height"].as_f64()),
        (Some(250.0), Some(80.0))
    );

    let other = node("other");
    assert_eq!(other["type"], "text");
    assert_eq!(other["text"], "Added while the answer streamed");
    assert_eq!(
        (other["x"].as_f64(), other["y"].as_f64()),
        (Some(-600.0), Some(0.0))
    );
    assert_eq!(
        (other["width"].as_f64(), other["height"].as_f64()),
        (Some(250.0), Some(100.0))
    );
    assert_eq!(other["color"], "5");
    assert_eq!(other.as_object().unwrap().len(), 8, "{other}");

    let answer = node(&answer_id);
    assert_eq!(answer["type"], "text");
    assert_eq!(answer["color"], "3");
    assert_eq!(
        (answer["x"].as_f64(), answer["y"].as_f64()),
        (Some(0.0), Some(140.0))
    );
    assert_eq!(answer["width"].as_f64(), Some(400.0));
    assert!(answer["height"].as_f64().unwrap() >= 60.0, "{answer}");
    let body = answer["text"].as_str().unwrap();
    assert!(
        body.starts_with("---\nrole: assistant\nmodel: local:smollm2\ncreated: "),
        "{body}"
    );
    assert!(body.ends_with(&format!("---\n\n{text}")), "{body}");
    assert!(!body.contains("partial"), "{body}");

    let edges = c["edges"].as_array().unwrap();
    assert_eq!(edges.len(), 1, "{c}");
    assert_eq!(edges[0]["id"], sent["edge"]);
    assert_eq!(
        (edges[0]["fromNode"].as_str(), edges[0]["toNode"].as_str()),
        (Some("q"), Some(answer_id.as_str()))
    );

    // The answer is one ledger entry, written when it was complete, so after the other edit
    // (newest first).
    let ledger: serde_json::Value = serde_json::from_slice(
        &easel(&v)
            .args(["--json", "ledger", "--limit", "100"])
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap();
    let entries = ledger["entries"].as_array().unwrap();
    let actors: Vec<&str> = entries
        .iter()
        .map(|e| e["actor"].as_str().unwrap())
        .collect();
    assert_eq!(actors, ["thread", "cli"]);
    assert_eq!(entries[0]["run"], sent["run"]);

    // Undoing the answer takes the answer away and keeps the node added while it streamed.
    let undo = easel(&v).args(["--json", "undo"]).output().unwrap();
    assert!(
        undo.status.success(),
        "{}",
        String::from_utf8_lossy(&undo.stderr)
    );
    let c = canvas(&v);
    let ids: Vec<&str> = c["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["q", "other"], "{c}");
    assert!(c["edges"].as_array().unwrap().is_empty(), "{c}");
}
