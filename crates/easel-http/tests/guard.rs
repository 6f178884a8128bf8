//! The guard over real TCP: what it refuses, and that stalled clients are let go.
#![allow(clippy::unwrap_used)]

use axum::Router;
use axum::routing::post;
use easel_http::{GuardOptions, bind, guard, serve};
use std::net::SocketAddr;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

async fn start(opts: GuardOptions) -> SocketAddr {
    let app = guard(
        Router::new().route("/echo", post(|body: String| async move { body })),
        &opts,
    );
    let listener = bind(&opts).await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { serve(listener, app, &opts, std::future::pending()).await });
    addr
}

fn opts() -> GuardOptions {
    GuardOptions::local("127.0.0.1:0".parse().unwrap())
}

/// Sends `head` (request line and headers, without the blank line) and `body`; returns the
/// status and the response body.
async fn raw(addr: SocketAddr, head: &str, body: &[u8]) -> (u16, String) {
    let mut s = TcpStream::connect(addr).await.unwrap();
    let req = format!(
        "{head}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    s.write_all(req.as_bytes()).await.unwrap();
    // The server may answer (413) before reading everything; a failed write is fine then.
    let _ = s.write_all(body).await;
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out).await;
    let text = String::from_utf8_lossy(&out).to_string();
    let status = text
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let body = text
        .split_once("\r\n\r\n")
        .map(|x| x.1)
        .unwrap_or("")
        .to_string();
    (status, body)
}

#[tokio::test]
async fn json_from_loopback_passes() {
    let addr = start(opts()).await;
    let (status, body) = raw(
        addr,
        "POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json",
        b"{\"a\":1}",
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(body, "{\"a\":1}");
}

#[tokio::test]
async fn plain_text_posts_are_refused_with_415() {
    let addr = start(opts()).await;
    for ct in ["text/plain", "application/x-www-form-urlencoded"] {
        let head = format!("POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Type: {ct}");
        let (status, body) = raw(addr, &head, b"{\"a\":1}").await;
        assert_eq!(status, 415, "{ct}: {body}");
        let v: serde_json::Value = serde_json::from_str(&body).unwrap();
        assert!(v["hint"].as_str().unwrap().contains("application/json"));
    }
    let (status, _) = raw(addr, "POST /echo HTTP/1.1\r\nHost: localhost", b"{}").await;
    assert_eq!(status, 415, "a POST without Content-Type");
}

#[tokio::test]
async fn foreign_origin_and_host_are_refused_with_403() {
    let addr = start(opts()).await;
    let ct = "Content-Type: application/json";
    let (status, body) = raw(
        addr,
        &format!("POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: https://evil.example\r\n{ct}"),
        b"{}",
    )
    .await;
    assert_eq!(status, 403);
    assert!(body.contains("Origin"), "{body}");
    let (status, _) = raw(
        addr,
        &format!("POST /echo HTTP/1.1\r\nHost: rebound.example:80\r\n{ct}"),
        b"{}",
    )
    .await;
    assert_eq!(status, 403);
}

#[tokio::test]
async fn bodies_over_the_cap_are_refused_with_413() {
    let mut o = opts();
    o.max_body_bytes = 1024;
    let addr = start(o).await;
    let head = "POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json";
    let (status, body) = raw(addr, head, &vec![b' '; 1025]).await;
    assert_eq!(status, 413, "{body}");
    let (status, _) = raw(addr, head, &vec![b' '; 1024]).await;
    assert_eq!(status, 200);

    // A chunked body declares no length: the cap holds while reading.
    let mut s = TcpStream::connect(addr).await.unwrap();
    let mut req = format!("{head}\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n");
    for _ in 0..3 {
        req.push_str(&format!("200\r\n{}\r\n", " ".repeat(0x200)));
    }
    req.push_str("0\r\n\r\n");
    s.write_all(req.as_bytes()).await.unwrap();
    let mut out = String::new();
    let _ = s.read_to_string(&mut out).await;
    assert!(out.starts_with("HTTP/1.1 413"), "{out}");
}

#[tokio::test]
async fn a_client_that_sends_half_a_header_is_disconnected() {
    let mut o = opts();
    o.header_timeout = Duration::from_millis(200);
    let addr = start(o).await;
    let mut s = TcpStream::connect(addr).await.unwrap();
    s.write_all(b"POST /echo HTTP/1.1\r\nHost: 127.0")
        .await
        .unwrap();
    // Without a header deadline this read never returns: the server waits for the rest.
    let mut out = Vec::new();
    let n = s.read_to_end(&mut out).await.unwrap_or(0);
    assert!(
        !String::from_utf8_lossy(&out[..n]).contains(" 200 "),
        "{out:?}"
    );
}

#[tokio::test]
async fn a_body_that_never_comes_gets_408() {
    let mut o = opts();
    o.body_timeout = Duration::from_millis(200);
    let addr = start(o).await;
    let mut s = TcpStream::connect(addr).await.unwrap();
    s.write_all(
        b"POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 10\r\n\r\n{",
    )
    .await
    .unwrap();
    let mut out = String::new();
    let _ = s.read_to_string(&mut out).await;
    assert!(out.starts_with("HTTP/1.1 408"), "{out}");
}

#[tokio::test]
async fn remote_without_a_token_does_not_start() {
    let mut o = GuardOptions::local("0.0.0.0:0".parse().unwrap());
    o.allow_remote = true;
    let e = bind(&o).await.unwrap_err();
    assert!(matches!(e, easel_http::GuardError::NoToken));
    assert!(e.hint().contains("--token"));
}

#[tokio::test]
async fn bodies_held_at_once_are_capped_and_the_cap_frees_up() {
    let mut o = opts();
    o.max_body_bytes = 1000;
    o.max_buffered_bytes = 1500;
    let addr = start(o).await;
    let head = "POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json";
    // A client that has declared 1000 bytes and sent a few holds 1000 of the 1500.
    let mut slow = TcpStream::connect(addr).await.unwrap();
    slow.write_all(format!("{head}\r\nContent-Length: 1000\r\n\r\n  ").as_bytes())
        .await
        .unwrap();
    // Once the server holds it, another 1000 do not fit: 503, at once, with a hint.
    let mut refused = None;
    for _ in 0..500 {
        let (status, body) = raw(addr, head, &[b' '; 1000]).await;
        if status == 503 {
            refused = Some(body);
            break;
        }
        assert_eq!(status, 200, "{body}");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let refused = refused.expect("a second large body while the first is held is refused");
    assert!(refused.contains("try again"), "{refused}");
    // Small bodies still fit beside it.
    let (status, _) = raw(addr, head, &[b' '; 400]).await;
    assert_eq!(status, 200);
    // The first body completes, and its share is free again.
    slow.write_all(&[b' '; 998]).await.unwrap();
    let mut answer = vec![0u8; 12];
    slow.read_exact(&mut answer).await.unwrap();
    assert_eq!(&answer, b"HTTP/1.1 200");
    let (status, body) = raw(addr, head, &[b' '; 1000]).await;
    assert_eq!(status, 200, "{body}");
}
