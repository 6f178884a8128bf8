//! `easel mcp` over stdio, spoken to in raw JSON-RPC: the protocol framing, tool errors that
//! keep the server alive, the ledger actor, and a clean exit when the client hangs up. The
//! official-SDK tests live in crates/easel-mcp/tests/python (`make mcp-client`).
#![allow(clippy::unwrap_used)]

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

struct Client {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
    next: u64,
}

impl Client {
    fn start(vault: &std::path::Path) -> Client {
        let mut child = Command::new(assert_cmd::cargo::cargo_bin("easel"))
            .args(["--vault", vault.to_str().unwrap(), "mcp"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let mut c = Client {
            child,
            stdin,
            stdout,
            next: 0,
        };
        let init = c.request(
            "initialize",
            json!({"protocolVersion": "2025-06-18", "capabilities": {},
                   "clientInfo": {"name": "rust-raw", "version": "1"}}),
        );
        assert_eq!(init["result"]["serverInfo"]["name"], "easel");
        c.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        c
    }

    fn send(&mut self, msg: Value) {
        let stdin = self.stdin.as_mut().unwrap();
        writeln!(stdin, "{msg}").unwrap();
        stdin.flush().unwrap();
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        self.next += 1;
        let id = self.next;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let mut line = String::new();
            assert!(
                self.stdout.read_line(&mut line).unwrap() > 0,
                "server closed stdout"
            );
            let msg: Value = serde_json::from_str(&line).unwrap();
            if msg["id"] == id {
                return msg;
            }
        }
    }

    fn call(&mut self, tool: &str, args: Value) -> (bool, String) {
        let r = self.request("tools/call", json!({"name": tool, "arguments": args}));
        let result = &r["result"];
        (
            result["isError"].as_bool().unwrap(),
            result["content"][0]["text"].as_str().unwrap().to_owned(),
        )
    }
}

#[test]
fn stdio_server_answers_tools_and_survives_errors() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = Client::start(dir.path());

    let tools = c.request("tools/list", json!({}));
    let names: Vec<&str> = tools["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    // One tool per registered operation (the code board's `canvas` is one of them).
    let ops = Command::new(assert_cmd::cargo::cargo_bin("easel"))
        .args([
            "--vault",
            dir.path().to_str().unwrap(),
            "--json",
            "op",
            "list",
        ])
        .output()
        .unwrap();
    let ops: serde_json::Value = serde_json::from_slice(&ops.stdout).unwrap();
    assert_eq!(
        names.len(),
        ops["operations"].as_array().unwrap().len(),
        "{names:?}"
    );
    for name in [
        "canvas_read",
        "canvas",
        "thread_context",
        "thread_send",
        "ledger_undo",
    ] {
        assert!(names.contains(&name), "{name} missing from {names:?}");
    }

    let (is_error, text) = c.call("canvas_read", json!({"path": "Ideas"}));
    assert!(is_error);
    assert_eq!(
        text,
        "Canvas not found: Ideas.canvas\nhint: use canvas_list to see the canvases, or canvas_write to create one"
    );

    let (is_error, text) = c.call(
        "canvas_write",
        json!({"path": "Ideas", "data": {"nodes": [{"type": "text", "text": "hi"}]}}),
    );
    assert!(!is_error, "{text}");
    let written: Value = serde_json::from_str(&text).unwrap();

    let (is_error, text) = c.call(
        "canvas_add_node",
        json!({"path": "Ideas", "type": "text", "text": "x", "rev": "0123456789abcdef"}),
    );
    assert!(is_error && text.contains("hint: "), "{text}");

    let (_, text) = c.call("ledger_list", json!({}));
    let ledger: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(ledger["total"], 1);
    assert_eq!(ledger["entries"][0]["actor"], "mcp:rust-raw");
    assert_eq!(ledger["entries"][0]["rev_after"], written["rev"]);

    // Hanging up ends the server cleanly.
    drop(c.stdin.take());
    assert!(c.child.wait().unwrap().success());
}

/// Clients spawn the server with pipes, which it drives without blocking; anything else (here
/// regular files, as with `easel mcp < requests > answers`) must work through the blocking
/// fallback, and the server must stop at the end of its input.
#[test]
fn stdio_server_works_when_its_streams_are_files() {
    let vault = tempfile::tempdir().unwrap();
    let io = tempfile::tempdir().unwrap();
    let requests = [
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "files", "version": "1"}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
            "name": "canvas_write",
            "arguments": {"path": "F", "data": {"nodes": [{"type": "text", "text": "from a file"}]}}}}),
    ];
    let input: String = requests.iter().map(|r| format!("{r}\n")).collect();
    std::fs::write(io.path().join("in"), input).unwrap();
    let status = Command::new(assert_cmd::cargo::cargo_bin("easel"))
        .args(["--vault", vault.path().to_str().unwrap(), "mcp"])
        .stdin(std::fs::File::open(io.path().join("in")).unwrap())
        .stdout(std::fs::File::create(io.path().join("out")).unwrap())
        .stderr(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success(), "{status}");
    let out = std::fs::read_to_string(io.path().join("out")).unwrap();
    let answers: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(answers.len(), 2, "{out}");
    assert_eq!(answers[1]["id"], 2);
    assert_eq!(answers[1]["result"]["isError"], false, "{out}");
    assert!(vault.path().join("F.canvas").exists());
}
