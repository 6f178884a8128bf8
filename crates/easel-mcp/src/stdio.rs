//! MCP over standard input and output: one JSON-RPC message per line, each at most
//! [`MAX_REQUEST_BYTES`].
//!
//! rmcp's own line transport drops a line over its cap and says nothing, so a client that sent
//! a large `canvas_write` waited forever. This transport answers such a line with a JSON-RPC
//! error carrying the request's id (found by scanning the line as it streams past, without
//! keeping it), answers text that is not JSON with -32700 and JSON that is not a message with
//! -32600, and keeps serving.

use crate::http::{MAX_REQUEST_BYTES, jsonrpc_error};
use rmcp::RoleServer;
use rmcp::model::{ClientJsonRpcMessage, ServerJsonRpcMessage};
use rmcp::transport::Transport;
use serde_json::Value;
use std::sync::Arc;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::Mutex;

/// After a large message, a line buffer bigger than this is given back to the allocator.
const KEEP_BUFFER_BYTES: usize = 1024 * 1024;

/// A line-delimited JSON-RPC transport for the server side, over any reader and writer.
pub struct LineTransport<R, W> {
    read: BufReader<R>,
    line: Vec<u8>,
    max: usize,
    /// Set while the rest of an oversized line streams past; kept on the struct because
    /// `receive` is polled in a `select!` and may be dropped between reads.
    oversized: Option<Oversized>,
    write: Arc<Mutex<W>>,
}

struct Oversized {
    bytes: u64,
    id: IdScanner,
}

enum LineRead {
    Line,
    Oversized(Oversized),
    Eof,
    Io(std::io::Error),
}

impl<R, W> LineTransport<R, W>
where
    R: AsyncRead + Send + Unpin,
    W: AsyncWrite + Send + Unpin + 'static,
{
    /// A transport with the [`MAX_REQUEST_BYTES`] cap.
    pub fn new(read: R, write: W) -> Self {
        Self::with_max(read, write, MAX_REQUEST_BYTES)
    }

    /// A transport with another cap on one message (tests use a small one).
    pub fn with_max(read: R, write: W, max: usize) -> Self {
        LineTransport {
            read: BufReader::new(read),
            line: Vec::new(),
            max,
            oversized: None,
            write: Arc::new(Mutex::new(write)),
        }
    }

    /// Reads one line into `self.line`, or streams an oversized one past the id scanner.
    /// Each `fill_buf` result is copied and consumed with no await in between, so a cancelled
    /// call leaves a consistent state for the next one.
    async fn read_line(&mut self) -> LineRead {
        loop {
            let (taken, ended) = {
                let available = match self.read.fill_buf().await {
                    Ok(a) => a,
                    Err(e) => return LineRead::Io(e),
                };
                if available.is_empty() {
                    return LineRead::Eof;
                }
                let newline = available.iter().position(|b| *b == b'\n');
                let take = newline.map_or(available.len(), |i| i + 1);
                let chunk = &available[..take];
                match &mut self.oversized {
                    Some(o) => {
                        o.bytes += take as u64;
                        o.id.feed(chunk);
                    }
                    None if self.line.len().saturating_add(take) > self.max.saturating_add(1) => {
                        let mut id = IdScanner::default();
                        id.feed(&self.line);
                        id.feed(chunk);
                        self.oversized = Some(Oversized {
                            bytes: (self.line.len() + take) as u64,
                            id,
                        });
                        self.line = Vec::new();
                    }
                    None => self.line.extend_from_slice(chunk),
                }
                (take, newline.is_some())
            };
            self.read.consume(taken);
            if ended {
                return match self.oversized.take() {
                    Some(o) => LineRead::Oversized(o),
                    None => LineRead::Line,
                };
            }
        }
    }
}

/// Writes one answer line. A free function over the shared writer, so `receive`'s future does
/// not borrow the whole transport (whose reader need not be `Sync`).
async fn answer<W: AsyncWrite + Unpin>(write: &Mutex<W>, message: Value) -> std::io::Result<()> {
    let mut bytes = serde_json::to_vec(&message).map_err(std::io::Error::other)?;
    bytes.push(b'\n');
    let mut w = write.lock().await;
    w.write_all(&bytes).await?;
    w.flush().await
}

/// What to do with one complete line.
enum Parsed {
    Message(Box<ClientJsonRpcMessage>),
    Skip,
    Answer(Value),
}

fn parse_line(line: &[u8]) -> Parsed {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let line = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
    if line.iter().all(u8::is_ascii_whitespace) {
        return Parsed::Skip;
    }
    let e = match serde_json::from_slice::<ClientJsonRpcMessage>(line) {
        Ok(m) => return Parsed::Message(Box::new(m)),
        Err(e) => e,
    };
    use serde_json::error::Category;
    match e.classify() {
        Category::Syntax | Category::Eof | Category::Io => Parsed::Answer(jsonrpc_error(
            Value::Null,
            -32700,
            &format!("Parse error: the line is not JSON: {e}"),
            "send one JSON-RPC 2.0 message per line, as UTF-8 JSON",
        )),
        Category::Data => {
            let v = serde_json::from_slice::<Value>(line).unwrap_or(Value::Null);
            let id = v
                .get("id")
                .cloned()
                .filter(|id| id.is_string() || id.is_number());
            // A notification gets no answer, even an error (JSON-RPC 2.0, section 4.1); clients
            // send notifications this server does not know, which is fine.
            if id.is_none() && v.get("method").is_some() {
                tracing::debug!(error = %e, "ignoring a notification that is not understood");
                return Parsed::Skip;
            }
            Parsed::Answer(jsonrpc_error(
                id.unwrap_or(Value::Null),
                -32600,
                &format!("Invalid Request: not a JSON-RPC 2.0 message: {e}"),
                "send an object with \"jsonrpc\": \"2.0\", a \"method\" and, for a request, an \"id\"",
            ))
        }
    }
}

impl<R, W> Transport<RoleServer> for LineTransport<R, W>
where
    R: AsyncRead + Send + Unpin,
    W: AsyncWrite + Send + Unpin + 'static,
{
    type Error = std::io::Error;

    fn send(
        &mut self,
        item: ServerJsonRpcMessage,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        let write = Arc::clone(&self.write);
        let bytes = serde_json::to_vec(&item).map(|mut b| {
            b.push(b'\n');
            b
        });
        async move {
            let bytes = bytes.map_err(std::io::Error::other)?;
            let mut w = write.lock().await;
            w.write_all(&bytes).await?;
            w.flush().await
        }
    }

    async fn receive(&mut self) -> Option<ClientJsonRpcMessage> {
        loop {
            match self.read_line().await {
                LineRead::Line => {}
                LineRead::Oversized(o) => {
                    tracing::warn!(
                        bytes = o.bytes,
                        "refused an MCP message over the size limit"
                    );
                    let refusal = jsonrpc_error(
                        o.id.id().unwrap_or(Value::Null),
                        -32600,
                        &format!(
                            "Request too large: {} bytes; one message may have at most {} MiB",
                            o.bytes,
                            self.max / (1024 * 1024)
                        ),
                        "send less per call: split the content over several tool calls",
                    );
                    if answer(&self.write, refusal).await.is_err() {
                        return None;
                    }
                    continue;
                }
                LineRead::Eof => return None,
                LineRead::Io(e) => {
                    tracing::error!(error = %e, "reading standard input failed");
                    return None;
                }
            }
            let parsed = parse_line(&self.line);
            if self.line.capacity() > KEEP_BUFFER_BYTES {
                self.line = Vec::new();
            } else {
                self.line.clear();
            }
            match parsed {
                Parsed::Message(m) => return Some(*m),
                Parsed::Skip => {}
                Parsed::Answer(reply) => {
                    if answer(&self.write, reply).await.is_err() {
                        return None;
                    }
                }
            }
        }
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        self.write.lock().await.shutdown().await
    }
}

/// Finds the top-level `"id"` of a JSON object as its bytes stream past, keeping only the id:
/// a refused message still gets an answer its client can match to the request.
#[derive(Debug, Default)]
struct IdScanner {
    depth: u32,
    in_string: bool,
    escaped: bool,
    expect_key: bool,
    /// Reading a key at depth 1; holds its first bytes.
    key: Option<Vec<u8>>,
    /// The key just read was `id`, and its value is being copied.
    value: Option<Vec<u8>>,
    found: Option<Value>,
    done: bool,
}

impl IdScanner {
    fn id(&self) -> Option<Value> {
        self.found.clone()
    }

    fn feed(&mut self, bytes: &[u8]) {
        for &b in bytes {
            if self.done {
                return;
            }
            if self.in_string {
                let mut ended = false;
                if self.escaped {
                    self.escaped = false;
                } else if b == b'\\' {
                    self.escaped = true;
                } else if b == b'"' {
                    self.in_string = false;
                    ended = true;
                }
                if let Some(v) = &mut self.value {
                    v.push(b);
                    if v.len() > 256 {
                        self.done = true;
                    }
                } else if let Some(k) = &mut self.key {
                    if ended {
                        self.expect_key = false;
                    } else if k.len() < 3 {
                        k.push(b);
                    } else {
                        k.push(b'!');
                        k.truncate(3);
                    }
                }
                continue;
            }
            if let Some(v) = &mut self.value {
                match b {
                    b',' | b'}' if self.depth == 1 => {
                        let text = String::from_utf8_lossy(v);
                        self.found = serde_json::from_str::<Value>(text.trim())
                            .ok()
                            .filter(|id| id.is_string() || id.is_number());
                        self.done = true;
                    }
                    b'"' => {
                        self.in_string = true;
                        v.push(b);
                    }
                    // An object or array is no valid id.
                    b'{' | b'[' => self.done = true,
                    _ => {
                        v.push(b);
                        if v.len() > 256 {
                            self.done = true;
                        }
                    }
                }
                continue;
            }
            match b {
                b'"' => {
                    self.in_string = true;
                    self.key = (self.depth == 1 && self.expect_key).then(Vec::new);
                }
                b'{' => {
                    self.depth += 1;
                    if self.depth == 1 {
                        self.expect_key = true;
                    }
                }
                b'[' => {
                    // A batch (or any array) at the top has no single id.
                    if self.depth == 0 {
                        self.done = true;
                    }
                    self.depth += 1;
                }
                b'}' | b']' => {
                    self.depth = self.depth.saturating_sub(1);
                    if self.depth == 0 {
                        self.done = true;
                    }
                }
                b':' if self.depth == 1 => {
                    let key = self.key.take();
                    self.value = key.filter(|k| k == b"id").map(|_| Vec::new());
                }
                b',' if self.depth == 1 => self.expect_key = true,
                _ => {}
            }
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use serde_json::json;

    fn scan(text: &str) -> Option<Value> {
        let mut s = IdScanner::default();
        // Byte by byte, as the worst split of a stream.
        for b in text.as_bytes() {
            s.feed(std::slice::from_ref(b));
        }
        s.id()
    }

    #[test]
    fn the_id_is_found_wherever_it_is() {
        assert_eq!(
            scan(r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"id":1}}"#),
            Some(json!(7))
        );
        assert_eq!(
            scan(r#"{"method":"x","params":{"id":1,"text":"a\"id\":2"},"id":"req-9"}"#),
            Some(json!("req-9"))
        );
        assert_eq!(
            scan(r#" { "params" : { "s" : "}" } , "id" : 42 } "#),
            Some(json!(42))
        );
        assert_eq!(scan(r#"{"jsonrpc":"2.0","method":"x"}"#), None);
        assert_eq!(scan(r#"{"id":{"a":1}}"#), None);
        assert_eq!(scan(r#"[{"id":1}]"#), None);
        assert_eq!(scan(r#"{"idx":1,"iid":2,"i":3}"#), None);
        assert_eq!(scan(r#"{"id":"a\"b"}"#), Some(json!("a\"b")));
    }

    #[test]
    fn bad_lines_are_answered_and_unknown_notifications_are_not() {
        let Parsed::Answer(a) = parse_line(b"{not json\n") else {
            panic!("no answer")
        };
        assert_eq!(a["error"]["code"], -32700);
        assert_eq!(a["id"], Value::Null);
        let Parsed::Answer(a) = parse_line(br#"{"jsonrpc":"2.0","id":3,"params":{}}"#) else {
            panic!("no answer")
        };
        assert_eq!(a["error"]["code"], -32600);
        assert_eq!(a["id"], 3);
        assert!(matches!(
            parse_line(br#"{"jsonrpc":"2.0","method":"notifications/whatever","params":5}"#),
            Parsed::Skip | Parsed::Message(_)
        ));
        assert!(matches!(parse_line(b"  \r\n"), Parsed::Skip));
        assert!(matches!(
            parse_line(b"\xEF\xBB\xBF{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\r\n"),
            Parsed::Message(_)
        ));
    }
}
