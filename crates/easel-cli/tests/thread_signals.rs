//! `easel thread send` stopped from outside: SIGTERM and SIGHUP cancel it like Ctrl-C (the
//! answer so far is kept, marked `partial: true`), and even `kill -9` leaves the answer node
//! marked `partial: true`. The model is a scripted Ollama server on loopback that never stops
//! talking, so the answer is always cut mid-stream.
#![allow(clippy::unwrap_used)]
#![cfg(unix)]

mod common;

use common::TestVault;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const CHAT: &str = r#"{"nodes":[
{"id":"q","type":"text","text":"Talk forever.","x":0,"y":0,"width":250,"height":80}],
"edges":[]}"#;

/// An Ollama `/api/chat` that streams `word0 word1 …` until the client hangs up.
fn endless_model() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        for conn in listener.incoming() {
            let Ok(conn) = conn else { continue };
            std::thread::spawn(move || talk(conn));
        }
    });
    format!("http://{addr}")
}

fn talk(conn: TcpStream) {
    let mut reader = BufReader::new(conn.try_clone().unwrap());
    let mut length = 0usize;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 {
            return;
        }
        let lower = line.to_ascii_lowercase();
        if let Some(v) = lower.strip_prefix("content-length:") {
            length = v.trim().parse().unwrap_or(0);
        }
        if line == "\r\n" {
            break;
        }
    }
    let mut body = vec![0; length];
    let _ = reader.read_exact(&mut body);
    let mut out = conn;
    let head = "HTTP/1.1 200 OK\r\ncontent-type: application/x-ndjson\r\nconnection: close\r\n\r\n";
    if out.write_all(head.as_bytes()).is_err() {
        return;
    }
    for i in 0.. {
        let line = format!(
            "{{\"model\":\"test\",\"message\":{{\"role\":\"assistant\",\"content\":\"word{i} \"}},\"done\":false}}\n"
        );
        if out
            .write_all(line.as_bytes())
            .and_then(|()| out.flush())
            .is_err()
        {
            return;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn start_send(v: &TestVault) -> Child {
    std::fs::write(v.file("chat.canvas"), CHAT).unwrap();
    Command::new(env!("CARGO_BIN_EXE_easel"))
        .env_remove("EASEL_MODEL")
        .env_remove("EASEL_VAULT")
        .env("OLLAMA_HOST", endless_model())
        .args(["--vault", v.path().to_str().unwrap(), "--json"])
        .args(["thread", "send", "chat", "q", "--model", "ollama:test"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// The answer node's text once some of the answer is in the canvas.
fn wait_for_words(v: &TestVault, child: &mut Child) -> String {
    let start = Instant::now();
    loop {
        let c: serde_json::Value = serde_json::from_str(&v.read("chat.canvas")).unwrap_or_default();
        let text = c["nodes"]
            .as_array()
            .and_then(|nodes| nodes.iter().find(|n| n["id"] != "q"))
            .and_then(|n| n["text"].as_str())
            .unwrap_or_default()
            .to_owned();
        if text.contains("word1 ") {
            return text;
        }
        if let Some(status) = child.try_wait().unwrap() {
            let mut err = String::new();
            child
                .stderr
                .take()
                .unwrap()
                .read_to_string(&mut err)
                .unwrap();
            panic!("thread send ended early ({status}): {err}");
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "no answer text appeared: {}",
            v.read("chat.canvas")
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn answer_node(v: &TestVault) -> serde_json::Value {
    let c: serde_json::Value = serde_json::from_str(&v.read("chat.canvas")).unwrap();
    let nodes = c["nodes"].as_array().unwrap();
    assert_eq!(nodes.len(), 2, "{c}");
    nodes.iter().find(|n| n["id"] != "q").unwrap().clone()
}

fn cancelled_by(signal: &str) {
    let v = TestVault::new();
    let mut child = start_send(&v);
    let streaming = wait_for_words(&v, &mut child);
    assert!(streaming.contains("\npartial: true\n"), "{streaming}");
    let killed = Command::new("kill")
        .args([&format!("-{signal}"), &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{signal}: {stderr}");
    let sent: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(sent["partial"], true, "{sent}");
    let answer = sent["text"].as_str().unwrap();
    assert!(answer.starts_with("word0 word1"), "{answer}");

    let node = answer_node(&v);
    assert_eq!(node["id"], sent["node"]);
    assert_eq!(node["color"], "3");
    let body = node["text"].as_str().unwrap();
    assert!(body.contains("\npartial: true\n---"), "{body}");
    assert!(body.ends_with(&format!("---\n\n{answer}")), "{body}");

    // One answer, one ledger entry, in the answer's run.
    let ledger = v.json(&["ledger", "--limit", "100"]);
    let entries = ledger["entries"].as_array().unwrap();
    assert_eq!(entries.len(), 1, "{ledger}");
    assert_eq!(entries[0]["run"], sent["run"]);
}

#[test]
fn sigterm_cancels_and_keeps_the_partial_answer_marked() {
    cancelled_by("TERM");
}

#[test]
fn sighup_cancels_and_keeps_the_partial_answer_marked() {
    cancelled_by("HUP");
}

#[test]
fn kill_9_leaves_the_answer_marked_partial() {
    let v = TestVault::new();
    let mut child = start_send(&v);
    wait_for_words(&v, &mut child);
    child.kill().unwrap();
    child.wait().unwrap();
    let node = answer_node(&v);
    let body = node["text"].as_str().unwrap();
    assert!(body.contains("\npartial: true\n---"), "{body}");
    assert!(body.contains("word0 word1"), "{body}");
    // What a crash leaves is still a valid canvas the next `thread send` can answer in.
    v.json(&["canvas", "validate", "chat"]);
}
