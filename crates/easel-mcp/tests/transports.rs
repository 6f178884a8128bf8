//! The transports under abuse: oversized, malformed and non-JSON-RPC messages get JSON-RPC
//! errors and the server keeps serving; idle HTTP sessions are closed.
#![allow(clippy::unwrap_used)]

use easel_mcp::HttpOptions;
use easel_ops::Registry;
use easel_vault::Vault;
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;

fn registry() -> Arc<Registry> {
    let mut r = Registry::new();
    easel_ops::register(&mut r);
    Arc::new(r)
}

const INIT: &str = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"test","version":"1"}}}"#;
const INITIALIZED: &str = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;

/// `easel mcp` over an in-memory pipe; returns the client's ends.
async fn stdio() -> (
    tokio::io::WriteHalf<tokio::io::DuplexStream>,
    tokio::io::Lines<BufReader<tokio::io::ReadHalf<tokio::io::DuplexStream>>>,
    tempfile::TempDir,
) {
    let dir = tempfile::tempdir().unwrap();
    let vault = Vault::open(dir.path()).unwrap();
    let (client, server) = tokio::io::duplex(1 << 16);
    let (sr, sw) = tokio::io::split(server);
    tokio::spawn(easel_mcp::serve_lines(vault, registry(), sr, sw));
    let (cr, mut cw) = tokio::io::split(client);
    let mut lines = BufReader::new(cr).lines();
    cw.write_all(format!("{INIT}\n{INITIALIZED}\n").as_bytes())
        .await
        .unwrap();
    let first: Value = serde_json::from_str(&lines.next_line().await.unwrap().unwrap()).unwrap();
    assert_eq!(first["id"], 0, "{first}");
    (cw, lines, dir)
}

async fn answer<R: tokio::io::AsyncBufRead + Unpin>(lines: &mut tokio::io::Lines<R>) -> Value {
    serde_json::from_str(&lines.next_line().await.unwrap().unwrap()).unwrap()
}

#[tokio::test]
async fn stdio_answers_an_oversized_request_with_its_id_and_keeps_serving() {
    let (mut w, mut lines, _dir) = stdio().await;
    // 17 MiB: over the 16 MiB limit. The id comes first, as clients write it.
    let big = "x".repeat(17 * 1024 * 1024);
    let req = json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call",
                     "params": {"name": "canvas_write", "arguments": {"path": "Big", "nodes": [{"type": "text", "text": big}]}}});
    let mut bytes = serde_json::to_vec(&req).unwrap();
    bytes.push(b'\n');
    let writer = tokio::spawn(async move {
        w.write_all(&bytes).await.unwrap();
        w
    });
    let a = answer(&mut lines).await;
    assert_eq!(a["id"], 7, "{a}");
    assert_eq!(a["error"]["code"], -32600, "{a}");
    assert!(
        a["error"]["message"].as_str().unwrap().contains("16 MiB"),
        "{a}"
    );
    let mut w = writer.await.unwrap();
    w.write_all(b"{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"ping\"}\n")
        .await
        .unwrap();
    let a = answer(&mut lines).await;
    assert_eq!(a["id"], 8, "{a}");
    assert!(a.get("result").is_some(), "{a}");
}

#[tokio::test]
async fn stdio_takes_a_request_just_under_the_limit() {
    let (mut w, mut lines, dir) = stdio().await;
    let text = "y".repeat(15 * 1024 * 1024);
    let req = json!({"jsonrpc": "2.0", "id": "w", "method": "tools/call",
                     "params": {"name": "canvas_write", "arguments": {"path": "Big", "nodes": [{"type": "text", "text": text}]}}});
    let mut bytes = serde_json::to_vec(&req).unwrap();
    bytes.push(b'\n');
    tokio::spawn(async move { w.write_all(&bytes).await.unwrap() });
    let a = answer(&mut lines).await;
    assert_eq!(a["id"], "w");
    assert_eq!(a["result"]["isError"], false, "{a:.300}");
    assert!(dir.path().join("Big.canvas").is_file());
}

#[tokio::test]
async fn stdio_answers_malformed_lines_and_keeps_serving() {
    let (mut w, mut lines, _dir) = stdio().await;
    w.write_all(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\n")
        .await
        .unwrap();
    let a = answer(&mut lines).await;
    assert_eq!(a["error"]["code"], -32700, "{a}");
    assert_eq!(a["id"], Value::Null);
    w.write_all(b"{\"jsonrpc\":\"2.0\",\"id\":2,\"params\":[]}\n")
        .await
        .unwrap();
    let a = answer(&mut lines).await;
    assert_eq!(a["error"]["code"], -32600, "{a}");
    assert_eq!(a["id"], 2);
    w.write_all(b"{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"}\n")
        .await
        .unwrap();
    assert_eq!(answer(&mut lines).await["id"], 3);
}

struct Http {
    addr: SocketAddr,
    sessions: Arc<easel_mcp::sessions::ReapingSessions>,
    _dir: tempfile::TempDir,
}

async fn http(session_idle: Duration) -> Http {
    let dir = tempfile::tempdir().unwrap();
    let vault = Vault::open(dir.path()).unwrap();
    let mut opts = HttpOptions::local("127.0.0.1:0".parse().unwrap());
    opts.session_idle = session_idle;
    let listener = easel_http::bind(&opts.guard).await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (app, sessions) = easel_mcp::http::router(vault, registry(), &opts);
    let guard = opts.guard.clone();
    tokio::spawn(
        async move { easel_http::serve(listener, app, &guard, std::future::pending()).await },
    );
    Http {
        addr,
        sessions,
        _dir: dir,
    }
}

/// POSTs `body` to /mcp; returns the status, the headers and the body as text.
async fn post(addr: SocketAddr, body: &[u8], extra: &str) -> (u16, String, String) {
    let mut s = TcpStream::connect(addr).await.unwrap();
    let head = format!(
        "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: {}\r\nConnection: close\r\n{extra}\r\n",
        body.len()
    );
    s.write_all(head.as_bytes()).await.unwrap();
    let _ = s.write_all(body).await;
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out).await;
    let text = String::from_utf8_lossy(&out).to_string();
    let status = text
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    (status, head.to_string(), body.to_string())
}

#[tokio::test]
async fn http_answers_malformed_json_rpc_with_json_rpc_errors() {
    let h = http(Duration::from_secs(60)).await;
    let (status, _, body) = post(h.addr, b"{\"jsonrpc\":\"2.0\",\"id\":1,", "").await;
    assert_eq!(status, 400, "{body}");
    let v: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(v["error"]["code"], -32700, "{v}");
    let (status, _, body) = post(h.addr, br#"{"jsonrpc":"2.0","id":5,"params":{}}"#, "").await;
    assert_eq!(status, 400, "{body}");
    let v: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(v["error"]["code"], -32600, "{v}");
    assert_eq!(v["id"], 5);
    // A good request still works.
    let (status, _, body) = post(h.addr, INIT.as_bytes(), "").await;
    assert_eq!(status, 200, "{body}");
}

#[tokio::test]
async fn http_refuses_a_body_over_the_limit_with_413() {
    let h = http(Duration::from_secs(60)).await;
    let big = format!(
        "{{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{{\"pad\":\"{}\"}}}}",
        "z".repeat(17 * 1024 * 1024)
    );
    let (status, _, body) = post(h.addr, big.as_bytes(), "").await;
    assert_eq!(status, 413, "{body:.300}");
}

fn session_id(head: &str) -> String {
    head.lines()
        .find_map(|l| {
            let (k, v) = l.split_once(':')?;
            k.eq_ignore_ascii_case("mcp-session-id")
                .then(|| v.trim().to_string())
        })
        .unwrap_or_else(|| panic!("no session id in {head}"))
}

#[tokio::test]
async fn http_sessions_that_go_idle_are_closed() {
    let idle = Duration::from_millis(300);
    let h = http(idle).await;
    let (status, head, _) = post(h.addr, INIT.as_bytes(), "").await;
    assert_eq!(status, 200);
    let id = session_id(&head);
    let with = format!("Mcp-Session-Id: {id}\r\nMCP-Protocol-Version: 2025-06-18\r\n");
    let (status, _, _) = post(h.addr, INITIALIZED.as_bytes(), &with).await;
    assert_eq!(status, 202);
    let list = br#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#;
    let (status, _, body) = post(h.addr, list, &with).await;
    assert_eq!(status, 200, "{body:.300}");
    assert_eq!(h.sessions.len(), 1);

    // The client goes away without DELETE.
    tokio::time::sleep(idle * 3).await;
    let (status, _, body) = post(h.addr, list, &with).await;
    assert_eq!(status, 404, "an idle session was still served: {body:.300}");
    h.sessions.reap().await;
    assert!(h.sessions.is_empty(), "{} sessions left", h.sessions.len());
}
