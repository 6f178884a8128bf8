//! A scripted model server, for tests of the runtime and of front ends over it: an HTTP server on 127.0.0.1 that speaks OpenAI's streamed Chat
//! Completions and answers each request with the next turn of a script, recording what it
//! was sent. The runtime talks to it through `easel-llm`'s real `openai-compat` provider, so
//! the runner's semantics are tested exactly, over the real wire format.

use serde_json::{Value, json};
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::sync::{Arc, Mutex};

/// One answer of the model.
#[derive(Clone, Debug)]
pub enum Turn {
    Text(String),
    /// Tool calls `(name, arguments)`, with optional text before them.
    Calls(Vec<(String, Value)>),
    /// Arguments that are not JSON.
    BadArguments(String, String),
    /// An HTTP error status.
    Status(u16),
    /// Text cut off by `max_tokens` (finish reason `length`), as a small model's tool call
    /// that did not fit comes back.
    Cut(String),
    /// A tool call cut off by `max_tokens`: its name and the start of its arguments, with
    /// finish reason `length`, as OpenAI's API returns one.
    CutCall(String, String),
}

pub fn text(t: &str) -> Turn {
    Turn::Text(t.into())
}

pub fn call(name: &str, args: Value) -> Turn {
    Turn::Calls(vec![(name.into(), args)])
}

pub fn calls(list: &[(&str, Value)]) -> Turn {
    Turn::Calls(
        list.iter()
            .map(|(n, a)| (n.to_string(), a.clone()))
            .collect(),
    )
}

#[derive(Default)]
struct Shared {
    script: VecDeque<Turn>,
    requests: Vec<Value>,
    calls: u64,
}

pub struct Scripted {
    pub port: u16,
    shared: Arc<Mutex<Shared>>,
}

impl Scripted {
    pub fn start(turns: Vec<Turn>) -> Scripted {
        let listener = TcpListener::bind("127.0.0.1:0").expect("a port on 127.0.0.1");
        let port = listener.local_addr().map(|a| a.port()).unwrap_or(0);
        let shared = Arc::new(Mutex::new(Shared {
            script: turns.into(),
            ..Shared::default()
        }));
        let s = shared.clone();
        std::thread::spawn(move || {
            for conn in listener.incoming() {
                let Ok(conn) = conn else { continue };
                let s = s.clone();
                std::thread::spawn(move || serve(conn, &s));
            }
        });
        Scripted { port, shared }
    }

    /// More turns at the end of the script.
    pub fn push(&self, turns: Vec<Turn>) {
        lock(&self.shared).script.extend(turns);
    }

    /// The request bodies received, in order.
    pub fn requests(&self) -> Vec<Value> {
        lock(&self.shared).requests.clone()
    }

    pub fn left(&self) -> usize {
        lock(&self.shared).script.len()
    }

    /// `.easel/config.toml` text pointing `openai-compat` at this server.
    pub fn config(&self) -> String {
        format!(
            "[llm]\ndefault_model = \"openai-compat:scripted\"\nmax_retries = 0\n\n[providers.openai-compat]\nbase_url = \"http://127.0.0.1:{}/v1\"\n",
            self.port
        )
    }

    /// Writes [`Scripted::config`] into the vault.
    pub fn configure(&self, vault: &Path) -> std::io::Result<()> {
        std::fs::create_dir_all(vault.join(".easel"))?;
        std::fs::write(vault.join(".easel/config.toml"), self.config())
    }
}

fn serve(conn: TcpStream, shared: &Mutex<Shared>) {
    let Ok(read_half) = conn.try_clone() else {
        return;
    };
    let mut reader = BufReader::new(read_half);
    let mut conn = conn;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 {
            return;
        }
        let mut len = 0usize;
        loop {
            let mut h = String::new();
            if reader.read_line(&mut h).unwrap_or(0) == 0 {
                return;
            }
            if h == "\r\n" {
                break;
            }
            let lower = h.to_ascii_lowercase();
            if let Some(v) = lower.strip_prefix("content-length:") {
                len = v.trim().parse().unwrap_or(0);
            }
        }
        let mut body = vec![0; len];
        if reader.read_exact(&mut body).is_err() {
            return;
        }
        let body: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
        let (turn, n) = {
            let mut s = lock(shared);
            s.requests.push(body);
            s.calls += 1;
            (s.script.pop_front(), s.calls)
        };
        let Some(turn) = turn else {
            let msg = b"{\"error\":{\"message\":\"the script has no more turns\"}}";
            let _ = write!(
                conn,
                "HTTP/1.1 500 Internal Server Error\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n",
                msg.len()
            );
            let _ = conn.write_all(msg);
            continue;
        };
        if let Turn::Status(code) = turn {
            let msg = format!("{{\"error\":{{\"message\":\"scripted status {code}\"}}}}");
            let _ = write!(
                conn,
                "HTTP/1.1 {code} Scripted\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{msg}",
                msg.len()
            );
            continue;
        }
        let mut events = Vec::new();
        let chunk = |delta: Value, finish: Value| {
            json!({"id": format!("r{n}"), "object": "chat.completion.chunk", "model": "scripted",
                   "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]})
        };
        let finish = match turn {
            Turn::Text(t) => {
                // In a few pieces, as a model streams.
                let words: Vec<&str> = t.split_inclusive(' ').collect();
                for w in words {
                    events.push(chunk(
                        json!({"role": "assistant", "content": w}),
                        Value::Null,
                    ));
                }
                "stop"
            }
            Turn::Calls(list) => {
                for (i, (name, args)) in list.into_iter().enumerate() {
                    let a = args.to_string();
                    let (first, rest) = a.split_at(a.len() / 2);
                    events.push(chunk(
                        json!({"tool_calls": [{"index": i, "id": format!("call_{n}_{i}"), "type": "function",
                                "function": {"name": name, "arguments": first}}]}),
                        Value::Null,
                    ));
                    events.push(chunk(
                        json!({"tool_calls": [{"index": i, "function": {"arguments": rest}}]}),
                        Value::Null,
                    ));
                }
                "tool_calls"
            }
            Turn::BadArguments(name, args) => {
                events.push(chunk(
                    json!({"tool_calls": [{"index": 0, "id": format!("call_{n}_0"), "type": "function",
                            "function": {"name": name, "arguments": args}}]}),
                    Value::Null,
                ));
                "tool_calls"
            }
            Turn::Cut(t) => {
                events.push(chunk(
                    json!({"role": "assistant", "content": t}),
                    Value::Null,
                ));
                "length"
            }
            Turn::CutCall(name, args) => {
                events.push(chunk(
                    json!({"tool_calls": [{"index": 0, "id": format!("call_{n}_0"), "type": "function",
                            "function": {"name": name, "arguments": args}}]}),
                    Value::Null,
                ));
                "length"
            }
            Turn::Status(_) => "stop",
        };
        events.push(chunk(json!({}), json!(finish)));
        events.push(json!({"id": format!("r{n}"), "object": "chat.completion.chunk", "choices": [],
                           "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}}));
        let mut out = String::new();
        for e in events {
            out.push_str(&format!("data: {e}\n\n"));
        }
        out.push_str("data: [DONE]\n\n");
        let _ = write!(
            conn,
            "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ncontent-length: {}\r\n\r\n{out}",
            out.len()
        );
    }
}

fn lock(m: &Mutex<Shared>) -> std::sync::MutexGuard<'_, Shared> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}
