//! `easel serve`'s API over real HTTP: the token (bearer, or the URL's token turned into a
//! cookie), the catalogue, operation errors with their statuses, vault files, and the event
//! stream (file changes from the watcher, a named run's events, AG-UI).
#![allow(clippy::unwrap_used)]

mod common;

use easel_ops::Registry;
use easel_server::{ServeOptions, Server};
use easel_vault::Vault;
use futures_util::StreamExt;
use reqwest::StatusCode;
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

struct Running {
    base: String,
    token: String,
    dir: tempfile::TempDir,
    _stop: tokio::sync::oneshot::Sender<()>,
}

impl Running {
    fn client(&self) -> reqwest::Client {
        reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .unwrap()
    }

    async fn op(&self, name: &str, args: Value) -> (StatusCode, Value) {
        common::call_op(&self.client(), &self.base, &self.token, name, args).await
    }

    fn write(&self, rel: &str, text: &str) {
        let p = self.dir.path().join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
}

const BOARD: &str = r#"{"nodes":[{"id":"a","type":"text","text":"Hi","x":0,"y":0,"width":100,"height":50}],"edges":[]}"#;

async fn start() -> Running {
    // reqwest is built without a TLS provider of its own (the workspace picks ring).
    let _ = rustls::crypto::ring::default_provider().install_default();
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("Board.canvas"), BOARD).unwrap();
    let vault = Vault::open(dir.path()).unwrap();
    let mut registry = Registry::new();
    easel_ops::register(&mut registry);
    let server = Server::new(
        vault,
        Arc::new(registry),
        ServeOptions::local("127.0.0.1:0".parse().unwrap()),
    )
    .unwrap();
    let token = server.token().to_owned();
    let (bound_tx, bound_rx) = tokio::sync::oneshot::channel::<(SocketAddr, String)>();
    let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(async move {
        server
            .serve(
                move |addr, url| {
                    let _ = bound_tx.send((addr, url.to_owned()));
                },
                async {
                    let _ = stop_rx.await;
                },
            )
            .await
            .unwrap();
    });
    let (addr, url) = bound_rx.await.unwrap();
    assert_eq!(url, format!("http://{addr}/?token={token}"));
    Running {
        base: format!("http://{addr}"),
        token,
        dir,
        _stop: stop_tx,
    }
}

/// Reads SSE `data:` lines from `resp` until `want` accepts one; fails after 10 s.
async fn next_event(
    stream: &mut (impl futures_util::Stream<Item = reqwest::Result<bytes::Bytes>> + Unpin),
    buf: &mut String,
    want: impl Fn(&Value) -> bool,
) -> Value {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        while let Some(end) = buf.find("\n\n") {
            let block: String = buf.drain(..end + 2).collect();
            for line in block.lines() {
                if let Some(data) = line.strip_prefix("data: ") {
                    let v: Value = serde_json::from_str(data).unwrap();
                    if want(&v) {
                        return v;
                    }
                }
            }
        }
        let chunk = tokio::time::timeout_at(deadline, stream.next())
            .await
            .expect("the event came in time")
            .expect("the stream is open")
            .unwrap();
        buf.push_str(&String::from_utf8_lossy(&chunk));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_api_needs_the_token_and_the_url_sets_a_cookie() {
    let s = start().await;
    let c = s.client();
    let r = c
        .post(format!("{}/api/ops/canvas_list", s.base))
        .json(&json!({}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::UNAUTHORIZED);
    let body: Value = r.json().await.unwrap();
    assert!(body["error"]["hint"].as_str().unwrap().contains("Bearer"));
    let r = c
        .get(format!("{}/api/ops", s.base))
        .bearer_auth("wrong")
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::UNAUTHORIZED);
    // A page without the token says how to get in; with it, a cookie and a clean address.
    let r = c
        .get(format!("{}/canvas/Board.canvas", s.base))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::UNAUTHORIZED);
    let r = c
        .get(format!("{}/canvas/Board.canvas?token={}", s.base, s.token))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::SEE_OTHER);
    assert_eq!(r.headers()["location"], "/canvas/Board.canvas");
    let cookie = r.headers()["set-cookie"].to_str().unwrap().to_owned();
    assert!(
        cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"),
        "{cookie}"
    );
    let pair = cookie.split(';').next().unwrap().to_owned();
    let r = c
        .get(format!("{}/canvas/Board.canvas", s.base))
        .header("cookie", &pair)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    let csp = r.headers()["content-security-policy"]
        .to_str()
        .unwrap()
        .to_owned();
    assert!(csp.contains("script-src 'self'"), "{csp}");
    assert!(r.text().await.unwrap().contains("/assets/app.js"));
    let r = c
        .post(format!("{}/api/ops/canvas_list", s.base))
        .header("cookie", &pair)
        .json(&json!({}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::OK);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn operations_answer_with_their_json_or_an_error_with_its_status() {
    let s = start().await;
    let (st, list) = s.op("canvas_list", json!({})).await;
    assert_eq!(st, StatusCode::OK);
    assert_eq!(list["canvases"][0]["path"], "Board.canvas");
    let r = s
        .client()
        .get(format!("{}/api/ops", s.base))
        .bearer_auth(&s.token)
        .send()
        .await
        .unwrap();
    let cat: Value = r.json().await.unwrap();
    let read = cat["operations"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["name"] == "canvas_read")
        .unwrap();
    assert_eq!(read["effect"], "read");
    assert_eq!(read["inputSchema"]["type"], "object");

    let (st, e) = s.op("canvas_read", json!({"path": "Nope"})).await;
    assert_eq!(st, StatusCode::NOT_FOUND);
    assert_eq!(e["error"]["kind"], "not_found");
    let (st, e) = s.op("canvas_nope", json!({})).await;
    assert_eq!(st, StatusCode::NOT_FOUND, "{e}");
    let (st, e) = s.op("canvas_read", json!({"path": "../etc/passwd"})).await;
    assert_eq!(st, StatusCode::UNPROCESSABLE_ENTITY, "{e}");
    let (st, e) = s
        .op(
            "canvas_update_node",
            json!({"path": "Board", "id": "a", "data": {"x": 5}, "rev": "0000000000000000"}),
        )
        .await;
    assert_eq!(st, StatusCode::CONFLICT, "{e}");
    assert_eq!(e["error"]["kind"], "conflict");
    let (st, e) = s
        .op("canvas_read", json!({"path": "Board", "bogus": 1}))
        .await;
    assert_eq!(st, StatusCode::UNPROCESSABLE_ENTITY, "{e}");
    assert!(e["error"]["hint"].as_str().unwrap().contains("path"), "{e}");
    // The file is as it was: no refused request wrote anything.
    assert_eq!(
        std::fs::read_to_string(s.dir.path().join("Board.canvas")).unwrap(),
        BOARD
    );

    let c = s.client();
    let r = c
        .post(format!("{}/api/ops/canvas_list", s.base))
        .bearer_auth(&s.token)
        .body("{not json")
        .header("content-type", "application/json")
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::BAD_REQUEST);
    let r = c
        .post(format!("{}/api/ops/canvas_list", s.base))
        .bearer_auth(&s.token)
        .body("{}")
        .header("content-type", "text/plain")
        .send()
        .await
        .unwrap();
    assert_eq!(
        r.status(),
        StatusCode::UNSUPPORTED_MEDIA_TYPE,
        "a cross-site form cannot post"
    );
    let r = c
        .post(format!("{}/api/ops/canvas_list", s.base))
        .bearer_auth(&s.token)
        .header("origin", "http://evil.example")
        .json(&json!({}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::FORBIDDEN);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn vault_files_are_served_with_types_that_run_nothing() {
    let s = start().await;
    s.write(
        "pics/dot.svg",
        "<svg xmlns='http://www.w3.org/2000/svg'><script>alert(1)</script></svg>",
    );
    s.write("page.html", "<script>alert(1)</script>");
    let c = s.client();
    let get = |p: &str| {
        c.get(format!("{}/api/files/{p}", s.base))
            .bearer_auth(&s.token)
            .send()
    };
    let r = get("pics/dot.svg").await.unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    assert_eq!(r.headers()["content-type"], "image/svg+xml");
    assert!(
        r.headers()["content-security-policy"]
            .to_str()
            .unwrap()
            .starts_with("sandbox")
    );
    let etag = r.headers()["etag"].to_str().unwrap().to_owned();
    let r = c
        .get(format!("{}/api/files/pics/dot.svg", s.base))
        .bearer_auth(&s.token)
        .header("if-none-match", &etag)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::NOT_MODIFIED);
    let r = get("page.html").await.unwrap();
    assert!(
        r.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/plain")
    );
    assert_eq!(r.headers()["x-content-type-options"], "nosniff");
    assert_eq!(
        get("missing.png").await.unwrap().status(),
        StatusCode::NOT_FOUND
    );
    let r = get("..%2F..%2Fetc%2Fpasswd").await.unwrap();
    assert!(r.status().is_client_error(), "{}", r.status());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_stream_carries_disk_changes_and_a_named_runs_events() {
    let s = start().await;
    let r = s
        .client()
        .get(format!("{}/api/events", s.base))
        .bearer_auth(&s.token)
        .send()
        .await
        .unwrap();
    assert_eq!(r.headers()["content-type"], "text/event-stream");
    let mut stream = r.bytes_stream();
    let mut buf = String::new();
    next_event(&mut stream, &mut buf, |e| e["type"] == "hello").await;

    // Another program writes the canvas: the stream names it with its new rev.
    let text = BOARD.replace("Hi", "Changed elsewhere");
    s.write("Board.canvas", &text);
    let e = next_event(&mut stream, &mut buf, |e| e["type"] == "changed").await;
    assert_eq!(e["path"], "Board.canvas");
    assert_eq!(e["rev"], easel_vault::Rev::of(text.as_bytes()).to_string());
    // Easel's own bookkeeping is not news.
    s.write(".easel/ledger.jsonl", "");
    s.write("notes/a.md", "# A\n");
    let e = next_event(&mut stream, &mut buf, |e| e["type"] == "changed").await;
    assert_eq!(e["path"], "notes/a.md");

    // A run the client names is followed from start to end.
    let r = s
        .client()
        .post(format!("{}/api/ops/canvas_add_node", s.base))
        .bearer_auth(&s.token)
        .header("x-easel-run", "run-1")
        .json(&json!({"path": "Board", "type": "text", "text": "new", "x": 0, "y": 100}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    let started = next_event(&mut stream, &mut buf, |e| e["type"] == "run_started").await;
    assert_eq!(started["call"], "run-1");
    assert_eq!(started["op"], "canvas_add_node");
    let finished = next_event(&mut stream, &mut buf, |e| e["type"] == "run_finished").await;
    assert_eq!(finished["ok"], true);
    assert!(finished["output"]["node"]["id"].is_string(), "{finished}");
    // The change it made is recorded under that run.
    let (_, ledger) = s.op("ledger_list", json!({"limit": 1})).await;
    assert_eq!(ledger["entries"][0]["run"], "run-1", "{ledger}");

    let r = s
        .client()
        .post(format!("{}/api/runs/run-1/cancel", s.base))
        .bearer_auth(&s.token)
        .json(&json!({}))
        .send()
        .await
        .unwrap();
    assert_eq!(
        r.status(),
        StatusCode::NOT_FOUND,
        "a finished run cannot be cancelled"
    );
    let r = s
        .client()
        .post(format!("{}/api/ops/canvas_list", s.base))
        .bearer_auth(&s.token)
        .header("x-easel-run", "../bad id")
        .json(&json!({}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::BAD_REQUEST);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ag_ui_subscribers_get_runs_in_their_vocabulary() {
    let s = start().await;
    let r = s
        .client()
        .get(format!("{}/api/events?format=ag-ui", s.base))
        .bearer_auth(&s.token)
        .send()
        .await
        .unwrap();
    let mut stream = r.bytes_stream();
    let mut buf = String::new();
    // The subscription is live once the stream answered; give the hub a moment to count it.
    tokio::time::sleep(Duration::from_millis(50)).await;
    let (st, _) = s.op("canvas_list", json!({})).await;
    assert_eq!(st, StatusCode::OK);
    let r = s
        .client()
        .post(format!("{}/api/ops/canvas_read", s.base))
        .bearer_auth(&s.token)
        .header("x-easel-run", "r2")
        .json(&json!({"path": "Nope"}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::NOT_FOUND);
    let e = next_event(&mut stream, &mut buf, |e| e["type"] == "RUN_STARTED").await;
    assert_eq!(e["runId"], "r2");
    let e = next_event(&mut stream, &mut buf, |e| e["type"] == "RUN_ERROR").await;
    assert_eq!(e["code"], "not_found");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bundle_is_embedded_compressed_and_every_chunk_it_names_is_served() {
    let s = start().await;
    let c = reqwest::Client::builder().no_gzip().build().unwrap();
    let r = c
        .get(format!("{}/assets/app.js", s.base))
        .header("accept-encoding", "gzip")
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    assert_eq!(r.headers()["content-encoding"], "gzip");
    let r = c
        .get(format!("{}/assets/app.js", s.base))
        .send()
        .await
        .unwrap();
    assert!(r.headers().get("content-encoding").is_none());
    let app = r.text().await.unwrap();
    // The entry imports its page chunks by relative name; each must be there.
    let chunks: Vec<&str> = app
        .split('"')
        .filter(|p| p.starts_with("./chunk-") && p.ends_with(".js"))
        .collect();
    assert!(!chunks.is_empty(), "the pages are chunks of their own");
    for chunk in chunks {
        let r = c
            .get(format!("{}/assets/{}", s.base, &chunk[2..]))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), StatusCode::OK, "{chunk}");
    }
    let r = c
        .get(format!("{}/assets/nope.js", s.base))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::NOT_FOUND);
    assert!(easel_server::bundle_gzipped_bytes() > 1000);
}
