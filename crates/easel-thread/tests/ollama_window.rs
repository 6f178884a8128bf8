//! With an `ollama:` model and no `--context-window`, the conversation is cut to the window
//! Ollama reports in `/api/show`, against a local scripted server.
#![allow(clippy::unwrap_used)]

use easel_llm::{Config, Llm};
use easel_thread::Target;
use easel_thread::llm::{Asker, Choices};
use easel_vault::Vault;
use easel_vault::canvas::Actor;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

const CHAT: &str = "{\"message\":{\"role\":\"assistant\",\"content\":\"ok\"},\"done\":false}\n{\"message\":{\"role\":\"assistant\",\"content\":\"\"},\"done\":true,\"done_reason\":\"stop\",\"prompt_eval_count\":3,\"eval_count\":1}\n";

/// A question, an answer (each about 1,500 tokens) and a short question.
fn vault() -> (tempfile::TempDir, Vault) {
    let long = |w: &str| w.repeat(1000);
    let canvas = serde_json::json!({
        "nodes": [
            {"id": "a", "type": "text", "text": long("alpha "), "x": 0, "y": 0, "width": 250, "height": 60},
            {"id": "b", "type": "text", "text": format!("---\nrole: assistant\n---\n{}", long("bravo ")), "x": 0, "y": 200, "width": 250, "height": 60},
            {"id": "c", "type": "text", "text": "And now?", "x": 0, "y": 400, "width": 250, "height": 60}
        ],
        "edges": [
            {"id": "e1", "fromNode": "a", "toNode": "b"},
            {"id": "e2", "fromNode": "b", "toNode": "c"}
        ]
    });
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("chat.canvas"), canvas.to_string()).unwrap();
    let v = Vault::open(dir.path()).unwrap();
    (dir, v)
}

/// Answers `/api/show` with `window` and `/api/chat` with a short answer; records (path, body).
async fn ollama(window: u64) -> (String, Arc<Mutex<Vec<(String, serde_json::Value)>>>) {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let record = seen.clone();
    tokio::spawn(async move {
        loop {
            let Ok((mut sock, _)) = listener.accept().await else {
                return;
            };
            let record = record.clone();
            tokio::spawn(async move {
                let mut buf = Vec::new();
                let mut chunk = [0u8; 8192];
                // Headers, then as many body bytes as Content-Length says.
                let (head_len, body_len) = loop {
                    let n = sock.read(&mut chunk).await.unwrap();
                    if n == 0 {
                        return;
                    }
                    buf.extend_from_slice(&chunk[..n]);
                    if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
                        let head = String::from_utf8_lossy(&buf[..i]).to_lowercase();
                        let len = head
                            .lines()
                            .find_map(|l| l.strip_prefix("content-length:"))
                            .map(|v| v.trim().parse::<usize>().unwrap())
                            .unwrap_or(0);
                        break (i + 4, len);
                    }
                };
                while buf.len() < head_len + body_len {
                    let n = sock.read(&mut chunk).await.unwrap();
                    if n == 0 {
                        break;
                    }
                    buf.extend_from_slice(&chunk[..n]);
                }
                let head = String::from_utf8_lossy(&buf[..head_len]).to_string();
                let path = head.split_whitespace().nth(1).unwrap_or("").to_string();
                let body = serde_json::from_slice(&buf[head_len..]).unwrap_or_default();
                record.lock().unwrap().push((path.clone(), body));
                let answer = if path == "/api/show" {
                    serde_json::json!({"model_info": {"llama.context_length": window}}).to_string()
                } else {
                    CHAT.to_string()
                };
                let resp = format!(
                    "HTTP/1.1 200 OK\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{answer}",
                    answer.len()
                );
                let _ = sock.write_all(resp.as_bytes()).await;
            });
        }
    });
    (url, seen)
}

fn ask(url: &str, v: &Vault, choices: &Choices, rt: &tokio::runtime::Runtime) {
    let mut config = Config::default();
    config
        .providers
        .entry("ollama".into())
        .or_default()
        .base_url = Some(url.to_string());
    let asker = Asker::new(Llm::new(config), rt.handle().clone());
    let actor = Actor::new("thread");
    let target = Target {
        vault: v,
        actor: &actor,
        canvas: "chat",
        node: "c",
    };
    asker
        .send(target, choices, &AtomicBool::new(false), &mut |_| {})
        .unwrap();
}

fn chat_messages(seen: &Mutex<Vec<(String, serde_json::Value)>>) -> Vec<String> {
    let seen = seen.lock().unwrap();
    let (_, body) = seen.iter().find(|(p, _)| p == "/api/chat").unwrap();
    body["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["content"].as_str().unwrap().to_string())
        .collect()
}

/// The paths the fake Ollama was asked for, in order.
fn requested_paths(seen: &Mutex<Vec<(String, serde_json::Value)>>) -> Vec<String> {
    seen.lock()
        .unwrap()
        .iter()
        .map(|(p, _)| p.clone())
        .collect()
}

/// `ollama:llama3.1`, with the context window given or left to the server.
fn llama(context_window: Option<usize>) -> Choices {
    Choices {
        model: Some("ollama:llama3.1".into()),
        context_window,
        ..Choices::default()
    }
}

#[test]
fn the_window_ollama_reports_cuts_the_furthest_context() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let (url, seen) = rt.block_on(ollama(2000));
    let (_d, v) = vault();
    let choices = llama(None);
    ask(&url, &v, &choices, &rt);
    let paths = requested_paths(&seen);
    assert_eq!(paths, vec!["/api/show", "/api/chat"]);
    assert_eq!(seen.lock().unwrap()[0].1["model"], "llama3.1");
    let messages = chat_messages(&seen);
    assert!(
        !messages.iter().any(|m| m.starts_with("alpha")),
        "the furthest node is dropped to fit 2000 tokens: {messages:?}"
    );
    assert!(messages.iter().any(|m| m.starts_with("bravo")));
    assert_eq!(messages.last().unwrap(), "And now?");
}

#[test]
fn a_large_window_keeps_everything_and_an_explicit_one_is_not_asked_for() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let (url, seen) = rt.block_on(ollama(131_072));
    let (_d, v) = vault();
    let choices = llama(None);
    ask(&url, &v, &choices, &rt);
    assert_eq!(chat_messages(&seen).len(), 3);

    let (url, seen) = rt.block_on(ollama(131_072));
    let (_d, v) = vault();
    let choices = llama(Some(2000));
    ask(&url, &v, &choices, &rt);
    let paths = requested_paths(&seen);
    assert_eq!(paths, vec!["/api/chat"]);
    assert_eq!(chat_messages(&seen).len(), 2);
}
