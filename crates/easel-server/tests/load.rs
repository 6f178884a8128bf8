//! `easel serve` under load (issue 20): what `scripts/bench-serve-load.py` found, kept as tests.
//! Oversized bodies get their 413 even while the client is still sending; concurrent writers
//! of one canvas queue in arrival order instead of racing for the vault lock; a subscriber that
//! never reads holds up neither the writers nor the other subscribers.
#![allow(clippy::unwrap_used)]

mod common;

use easel_ops::Registry;
use easel_server::{Hub, ServeOptions, Server};
use easel_vault::Vault;
use futures_util::StreamExt;
use reqwest::StatusCode;
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};

struct Running {
    addr: SocketAddr,
    token: String,
    hub: Hub,
    dir: tempfile::TempDir,
    _stop: tokio::sync::oneshot::Sender<()>,
}

impl Running {
    fn base(&self) -> String {
        format!("http://{}", self.addr)
    }

    async fn op(&self, client: &reqwest::Client, name: &str, args: Value) -> (StatusCode, Value) {
        common::call_op(client, &self.base(), &self.token, name, args).await
    }
}

async fn start(max_body_bytes: usize, lock_timeout: Duration) -> Running {
    let _ = rustls::crypto::ring::default_provider().install_default();
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("Board.canvas"),
        r#"{"nodes":[],"edges":[]}"#,
    )
    .unwrap();
    let vault = Vault::open(dir.path())
        .unwrap()
        .with_lock_timeout(lock_timeout);
    let mut registry = Registry::new();
    easel_ops::register(&mut registry);
    let mut opts = ServeOptions::local("127.0.0.1:0".parse().unwrap());
    opts.guard.max_body_bytes = max_body_bytes;
    let server = Server::new(vault, Arc::new(registry), opts).unwrap();
    let token = server.token().to_owned();
    let hub = server.hub().clone();
    let (bound_tx, bound_rx) = tokio::sync::oneshot::channel::<SocketAddr>();
    let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(async move {
        server
            .serve(
                move |addr, _| {
                    let _ = bound_tx.send(addr);
                },
                async {
                    let _ = stop_rx.await;
                },
            )
            .await
            .unwrap();
    });
    Running {
        addr: bound_rx.await.unwrap(),
        token,
        hub,
        dir,
        _stop: stop_tx,
    }
}

/// Reads one response's status line and headers, and its body by Content-Length.
async fn read_response(stream: &mut TcpStream) -> (String, String) {
    let mut buf = Vec::new();
    let mut byte = [0u8; 1];
    while !buf.ends_with(b"\r\n\r\n") {
        assert_eq!(
            stream.read(&mut byte).await.unwrap(),
            1,
            "the server closed"
        );
        buf.push(byte[0]);
    }
    let head = String::from_utf8(buf).unwrap();
    let length: usize = head
        .lines()
        .find_map(|l| {
            l.to_ascii_lowercase()
                .strip_prefix("content-length:")
                .map(|v| v.trim().parse().unwrap())
        })
        .unwrap_or(0);
    let mut body = vec![0u8; length];
    stream.read_exact(&mut body).await.unwrap();
    (head, String::from_utf8(body).unwrap())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_oversized_body_gets_its_413_while_the_client_is_still_sending_it() {
    const CAP: usize = 1024 * 1024;
    let s = start(CAP, Duration::from_secs(30)).await;
    let block = vec![b' '; 64 * 1024];
    for chunked in [false, true] {
        // A small send buffer: the body cannot sit in the kernel's buffers while the server
        // closes, so without draining the client's writes fail ("connection reset").
        let socket = TcpSocket::new_v4().unwrap();
        socket.set_send_buffer_size(64 * 1024).unwrap();
        let mut stream = socket.connect(s.addr).await.unwrap();
        let total = 3 * CAP + CAP / 2;
        let length = if chunked {
            "Transfer-Encoding: chunked".to_owned()
        } else {
            format!("Content-Length: {total}")
        };
        let head = format!(
            "POST /api/ops/canvas_list HTTP/1.1\r\nHost: {}\r\nAuthorization: Bearer {}\r\n\
             Content-Type: application/json\r\n{length}\r\n\r\n",
            s.addr, s.token
        );
        stream.write_all(head.as_bytes()).await.unwrap();
        let mut sent = 0;
        while sent < total {
            if chunked {
                let mut piece = format!("{:x}\r\n", block.len()).into_bytes();
                piece.extend_from_slice(&block);
                piece.extend_from_slice(b"\r\n");
                stream.write_all(&piece).await.unwrap();
            } else {
                stream.write_all(&block).await.unwrap();
            }
            sent += block.len();
        }
        if chunked {
            stream.write_all(b"0\r\n\r\n").await.unwrap();
        }
        let (status, body) = read_response(&mut stream).await;
        assert!(
            status.starts_with("HTTP/1.1 413"),
            "chunked {chunked}: {status}"
        );
        let refusal: Value = serde_json::from_str(&body).unwrap();
        assert!(
            refusal["hint"].as_str().unwrap().contains("split"),
            "{body}"
        );
        // The whole body was read, so the connection is still good for the next request.
        let next = format!(
            "POST /api/ops/canvas_list HTTP/1.1\r\nHost: {}\r\nAuthorization: Bearer {}\r\n\
             Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{{}}",
            s.addr, s.token
        );
        stream.write_all(next.as_bytes()).await.unwrap();
        let (status, body) = read_response(&mut stream).await;
        assert!(status.starts_with("HTTP/1.1 200"), "{status} {body}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_writers_of_one_canvas_take_turns_instead_of_racing_for_the_lock() {
    // A vault lock that is never waited for: any two writes that meet on it fail. Writers that
    // come over HTTP must meet in the server's queue instead.
    let s = Arc::new(start(1024 * 1024, Duration::ZERO).await);
    let client = reqwest::Client::new();
    let mut writers = Vec::new();
    for w in 0..16 {
        let (s, client) = (s.clone(), client.clone());
        writers.push(tokio::spawn(async move {
            let mut refused = Vec::new();
            for n in 0..4 {
                let (status, body) = s
                    .op(
                        &client,
                        "canvas_add_node",
                        json!({"path": "Board.canvas", "type": "text", "text": format!("{w}-{n}")}),
                    )
                    .await;
                if status != StatusCode::OK {
                    refused.push(format!("{status} {body}"));
                }
            }
            refused
        }));
    }
    let mut refused = Vec::new();
    for w in writers {
        refused.extend(w.await.unwrap());
    }
    assert!(
        refused.is_empty(),
        "{} refused: {:?}",
        refused.len(),
        &refused[..refused.len().min(3)]
    );
    let canvas: Value =
        serde_json::from_str(&std::fs::read_to_string(s.dir.path().join("Board.canvas")).unwrap())
            .unwrap();
    assert_eq!(canvas["nodes"].as_array().unwrap().len(), 64);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn subscribers_that_never_read_hold_up_neither_writes_nor_other_subscribers() {
    let s = start(1024 * 1024, Duration::from_secs(30)).await;
    let mut silent = Vec::new();
    for _ in 0..8 {
        let socket = TcpSocket::new_v4().unwrap();
        socket.set_recv_buffer_size(4096).unwrap();
        let mut stream = socket.connect(s.addr).await.unwrap();
        let get = format!(
            "GET /api/events HTTP/1.1\r\nHost: {}\r\nAuthorization: Bearer {}\r\n\r\n",
            s.addr, s.token
        );
        stream.write_all(get.as_bytes()).await.unwrap();
        silent.push(stream);
    }
    let client = reqwest::Client::new();
    let resp = client
        .get(format!("{}/api/events", s.base()))
        .bearer_auth(&s.token)
        .send()
        .await
        .unwrap();
    let mut events = resp.bytes_stream();
    let mut buf = String::new();
    while !buf.contains("\"hello\"") {
        buf.push_str(&String::from_utf8_lossy(
            &events.next().await.unwrap().unwrap(),
        ));
    }
    while s.hub.subscribers() < 9 {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    // Far more than the silent subscribers' sockets hold, and more than the backlog.
    let padding = "x".repeat(1024);
    for i in 0..10_000 {
        s.hub
            .publish(json!({"type": "test", "i": i, "padding": padding}));
    }
    s.hub.publish(json!({"type": "last"}));
    let (status, body) = s
        .op(
            &client,
            "canvas_add_node",
            json!({"path": "Board.canvas", "type": "text", "text": "still writing"}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    // The reading subscriber gets to the end (told of what it missed, if it fell behind).
    let mut tail = String::new();
    while !tail.contains("\"type\":\"last\"") {
        let chunk = events.next().await.unwrap().unwrap();
        tail.push_str(&String::from_utf8_lossy(&chunk));
        let keep = tail.len().saturating_sub(64);
        tail.drain(..keep);
    }
    drop(silent);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_body_under_the_cap_is_taken_whatever_its_size() {
    let s = start(easel_http::DEFAULT_MAX_BODY_BYTES, Duration::from_secs(30)).await;
    // Bigger than the 2 MB axum's extractors take by default, smaller than the guard's cap.
    let body = format!(
        "{{{}\"path\": \"Board.canvas\"}}",
        " ".repeat(3 * 1024 * 1024)
    );
    let r = reqwest::Client::new()
        .post(format!("{}/api/ops/canvas_read", s.base()))
        .bearer_auth(&s.token)
        .header("content-type", "application/json")
        .body(body)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::OK, "{}", r.text().await.unwrap());
}
