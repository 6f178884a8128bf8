//! A local HTTP server that replays recorded provider answers and records what it was sent.
#![allow(dead_code, clippy::unwrap_used)]

use axum::body::{Body, Bytes};
use axum::http::{HeaderMap, StatusCode, Uri};
use axum::response::Response;
use easel_llm::{Config, Llm};
use futures_util::StreamExt;
use std::collections::VecDeque;
use std::net::SocketAddr;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// One canned answer.
#[derive(Clone)]
pub struct Reply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
    /// Bytes per chunk, so parsers see events cut at odd places.
    pub chunk: usize,
    /// Wait before the headers.
    pub delay: Duration,
    /// Wait between chunks.
    pub gap: Duration,
    /// Keep the body open after the last chunk (for timeouts and cancellation).
    pub hang: bool,
}

impl Reply {
    pub fn ok(body: impl Into<Vec<u8>>) -> Reply {
        Reply {
            status: 200,
            headers: vec![],
            body: body.into(),
            chunk: 7,
            delay: Duration::ZERO,
            gap: Duration::ZERO,
            hang: false,
        }
    }
    pub fn fixture(rel: &str) -> Reply {
        let p = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures")
            .join(rel);
        Reply::ok(std::fs::read(&p).unwrap())
    }
    pub fn status(status: u16, body: &str) -> Reply {
        Reply {
            status,
            ..Reply::ok(body.as_bytes().to_vec())
        }
    }
    pub fn header(mut self, k: &str, v: &str) -> Reply {
        self.headers.push((k.into(), v.into()));
        self
    }
}

pub struct Recorded {
    pub path: String,
    pub headers: HeaderMap,
    pub body: serde_json::Value,
}

struct Shared {
    replies: Mutex<VecDeque<Reply>>,
    requests: Mutex<Vec<Recorded>>,
    hits: AtomicUsize,
    body_dropped: AtomicBool,
}

pub struct Mock {
    pub addr: SocketAddr,
    shared: Arc<Shared>,
}

impl Mock {
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }
    pub fn hits(&self) -> usize {
        self.shared.hits.load(Ordering::SeqCst)
    }
    pub fn body_dropped(&self) -> bool {
        self.shared.body_dropped.load(Ordering::SeqCst)
    }
    pub fn request(&self, i: usize) -> Recorded {
        let r = self.shared.requests.lock().unwrap();
        let x = &r[i];
        Recorded {
            path: x.path.clone(),
            headers: x.headers.clone(),
            body: x.body.clone(),
        }
    }
}

struct DropFlag(Arc<Shared>);
impl Drop for DropFlag {
    fn drop(&mut self) {
        self.0.body_dropped.store(true, Ordering::SeqCst);
    }
}

async fn handle(shared: Arc<Shared>, uri: Uri, headers: HeaderMap, body: Bytes) -> Response {
    shared.hits.fetch_add(1, Ordering::SeqCst);
    let json = serde_json::from_slice(&body).unwrap_or(serde_json::Value::Null);
    shared.requests.lock().unwrap().push(Recorded {
        path: uri.path().to_string(),
        headers,
        body: json,
    });
    let reply = {
        let mut q = shared.replies.lock().unwrap();
        if q.len() > 1 {
            q.pop_front().unwrap()
        } else {
            q.front().cloned().unwrap()
        }
    };
    tokio::time::sleep(reply.delay).await;
    let chunks: Vec<Bytes> = reply
        .body
        .chunks(reply.chunk.max(1))
        .map(Bytes::copy_from_slice)
        .collect();
    let gap = reply.gap;
    let flag = DropFlag(shared.clone());
    let s = futures_util::stream::iter(chunks).then(move |c| async move {
        tokio::time::sleep(gap).await;
        Ok::<_, std::io::Error>(c)
    });
    let body = if reply.hang {
        Body::from_stream(s.chain(futures_util::stream::pending()).map(move |x| {
            let _keep = &flag;
            x
        }))
    } else {
        drop(flag);
        Body::from_stream(s)
    };
    let mut resp = Response::builder().status(StatusCode::from_u16(reply.status).unwrap());
    for (k, v) in &reply.headers {
        resp = resp.header(k, v);
    }
    resp.body(body).unwrap()
}

pub async fn mock(replies: Vec<Reply>) -> Mock {
    let shared = Arc::new(Shared {
        replies: Mutex::new(replies.into()),
        requests: Mutex::new(Vec::new()),
        hits: AtomicUsize::new(0),
        body_dropped: AtomicBool::new(false),
    });
    let s2 = shared.clone();
    let app = axum::Router::new().fallback(move |uri: Uri, headers: HeaderMap, body: Bytes| {
        let s = s2.clone();
        async move { handle(s, uri, headers, body).await }
    });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        axum::serve(listener, app).await.unwrap();
    });
    Mock { addr, shared }
}

/// A configuration pointing every remote provider at `url`, with short timeouts and backoff.
pub fn config_for(url: &str) -> Config {
    let mut c = Config {
        timeout: Duration::from_secs(2),
        retry_base_delay: Duration::from_millis(20),
        ..Config::default()
    };
    for (p, base) in [
        ("openai", format!("{url}/v1")),
        ("openai-compat", format!("{url}/v1")),
        ("openrouter", format!("{url}/api/v1")),
        ("ollama", url.to_string()),
        ("lmstudio", format!("{url}/v1")),
        ("anthropic", url.to_string()),
    ] {
        let e = c.providers.entry(p.to_string()).or_default();
        e.base_url = Some(base);
        e.api_key = Some("test-key".into());
    }
    c
}

pub fn llm_for(mock: &Mock) -> Llm {
    Llm::new(config_for(&mock.url()))
}
