//! The HTTP side every remote provider shares: one client (rustls with ring, no C TLS), retries
//! with backoff that honour `Retry-After`, timeouts, and turning a response body into events.

use crate::error::{LlmError, Result};
use crate::stream::EventStream;
use crate::types::Event;
use eventsource_stream::Eventsource;
use futures_util::{Stream, StreamExt};
use std::collections::VecDeque;
use std::pin::Pin;
use std::time::Duration;

/// How a provider's calls retry and time out.
#[derive(Debug, Clone, Copy)]
pub struct HttpPolicy {
    /// For connecting and for the first byte of an answer, and between two pieces of a stream.
    pub timeout: Duration,
    pub max_retries: u32,
    /// The first backoff; each retry doubles it.
    pub base_delay: Duration,
}

/// Longest wait we accept from a `Retry-After` header, so a server cannot park us for an hour.
const MAX_RETRY_AFTER: Duration = Duration::from_secs(60);

pub fn client() -> Result<reqwest::Client> {
    // reqwest is built without a crypto provider (to avoid aws-lc's C build); ring is ours.
    // Installing twice is harmless: the second attempt reports the first one won.
    let _ = rustls::crypto::ring::default_provider().install_default();
    reqwest::Client::builder()
        .user_agent(concat!("easel/", env!("CARGO_PKG_VERSION")))
        .connect_timeout(Duration::from_secs(15))
        .build()
        .map_err(|e| LlmError::Inference {
            message: format!("cannot build the HTTP client: {e}"),
        })
}

/// The wait before retry number `attempt` (0-based): the server's `Retry-After` if it sent one,
/// else exponential backoff with jitter.
pub fn retry_delay(attempt: u32, retry_after: Option<&str>, base: Duration) -> Duration {
    if let Some(secs) = retry_after.and_then(|v| v.trim().parse::<f64>().ok())
        && secs.is_finite()
        && secs >= 0.0
    {
        return Duration::from_secs_f64(secs).min(MAX_RETRY_AFTER);
    }
    let exp = base.saturating_mul(1u32 << attempt.min(10));
    let jitter = Duration::from_millis(fastrand::u64(0..=base.as_millis().max(1) as u64 / 2));
    (exp + jitter).min(Duration::from_secs(30))
}

fn retryable(status: u16) -> bool {
    status == 429 || status == 408 || (500..600).contains(&status)
}

/// Sends the request made by `make`, retrying on 429/5xx and failed connections.
pub async fn send(
    provider: &str,
    policy: HttpPolicy,
    make: impl Fn() -> reqwest::RequestBuilder,
) -> Result<reqwest::Response> {
    let mut attempt = 0u32;
    loop {
        let req = make();
        let url = req
            .try_clone()
            .and_then(|r| r.build().ok())
            .map(|r| r.url().to_string())
            .unwrap_or_default();
        let outcome = tokio::time::timeout(policy.timeout, req.send()).await;
        let (err, retry_after) = match outcome {
            Err(_) => (
                LlmError::Timeout {
                    provider: provider.into(),
                    seconds: policy.timeout.as_secs(),
                },
                None,
            ),
            Ok(Err(e)) => (
                LlmError::Connect {
                    provider: provider.into(),
                    url,
                    message: error_chain(&e),
                },
                None,
            ),
            Ok(Ok(resp)) => {
                let status = resp.status().as_u16();
                if resp.status().is_success() {
                    return Ok(resp);
                }
                let retry_after = resp
                    .headers()
                    .get(reqwest::header::RETRY_AFTER)
                    .and_then(|v| v.to_str().ok())
                    .map(str::to_string);
                let body = resp.text().await.unwrap_or_default();
                let err = LlmError::Status {
                    provider: provider.into(),
                    status,
                    body: error_message(&body),
                };
                if !retryable(status) {
                    return Err(err);
                }
                (err, retry_after)
            }
        };
        if attempt >= policy.max_retries {
            return Err(err);
        }
        let wait = retry_delay(attempt, retry_after.as_deref(), policy.base_delay);
        tracing::warn!(provider, attempt, ?wait, error = %err, "retrying");
        tokio::time::sleep(wait).await;
        attempt += 1;
    }
}

/// An error with its causes, `outer: inner: innermost`: reqwest hides the useful part (the
/// refused connection, the TLS failure) in its sources.
pub(crate) fn error_chain(e: &dyn std::error::Error) -> String {
    let mut s = e.to_string();
    let mut src = e.source();
    while let Some(c) = src {
        s.push_str(": ");
        s.push_str(&c.to_string());
        src = c.source();
    }
    s
}

/// The useful part of an error body: `error.message` of a JSON error, else the text, shortened.
pub fn error_message(body: &str) -> String {
    if let Ok(v) = serde_json::from_str::<serde_json::Value>(body) {
        let m = v
            .pointer("/error/message")
            .or_else(|| v.get("error"))
            .or_else(|| v.get("message"));
        if let Some(m) = m {
            return match m.as_str() {
                Some(s) => s.to_string(),
                None => m.to_string(),
            };
        }
    }
    let t = body.trim();
    if t.chars().count() > 500 {
        format!("{}…", t.chars().take(500).collect::<String>())
    } else {
        t.to_string()
    }
}

/// A provider's wire format: fed one SSE `data` (or one NDJSON line) at a time.
pub trait WireDecoder: Send + 'static {
    fn feed(&mut self, data: &str, out: &mut Vec<Event>) -> Result<()>;
    /// The body ended: close open tool calls, emit the finish.
    fn finish(&mut self, out: &mut Vec<Event>) -> Result<()>;
}

type ByteStream = Pin<Box<dyn Stream<Item = std::result::Result<String, String>> + Send>>;

struct DecodeState<D> {
    lines: ByteStream,
    decoder: D,
    queue: VecDeque<Result<Event>>,
    done: bool,
    provider: String,
    idle: Duration,
}

/// Turns a streamed body into events. `sse`: Server-Sent Events, else newline-delimited JSON.
/// The stream owns the response: dropping it closes the connection, which cancels the call.
pub fn decode_body<D: WireDecoder>(
    provider: &str,
    resp: reqwest::Response,
    sse: bool,
    decoder: D,
    idle: Duration,
) -> EventStream {
    let lines: ByteStream = if sse {
        Box::pin(resp.bytes_stream().eventsource().map(|r| match r {
            Ok(ev) => Ok(ev.data),
            Err(e) => Err(e.to_string()),
        }))
    } else {
        Box::pin(ndjson_lines(resp.bytes_stream()))
    };
    let state = DecodeState {
        lines,
        decoder,
        queue: VecDeque::new(),
        done: false,
        provider: provider.into(),
        idle,
    };
    EventStream::new(futures_util::stream::unfold(state, |mut st| async move {
        loop {
            if let Some(item) = st.queue.pop_front() {
                return Some((item, st));
            }
            if st.done {
                return None;
            }
            let mut out = Vec::new();
            let next = tokio::time::timeout(st.idle, st.lines.next()).await;
            let res = match next {
                Err(_) => {
                    st.done = true;
                    Err(LlmError::Timeout {
                        provider: st.provider.clone(),
                        seconds: st.idle.as_secs(),
                    })
                }
                Ok(None) => {
                    st.done = true;
                    st.decoder.finish(&mut out)
                }
                Ok(Some(Err(e))) => {
                    st.done = true;
                    Err(LlmError::Protocol {
                        provider: st.provider.clone(),
                        message: e,
                    })
                }
                Ok(Some(Ok(data))) => st.decoder.feed(&data, &mut out),
            };
            st.queue.extend(out.into_iter().map(Ok));
            if let Err(e) = res {
                st.done = true;
                st.queue.push_back(Err(e));
            }
        }
    }))
}

fn ndjson_lines(
    body: impl Stream<Item = reqwest::Result<bytes::Bytes>> + Send + 'static,
) -> impl Stream<Item = std::result::Result<String, String>> + Send {
    let body = Box::pin(body);
    futures_util::stream::unfold(
        (body, Vec::<u8>::new(), false),
        |(mut body, mut buf, mut eof)| async move {
            loop {
                if let Some(nl) = buf.iter().position(|b| *b == b'\n') {
                    let line: Vec<u8> = buf.drain(..=nl).collect();
                    let text = String::from_utf8_lossy(&line).trim().to_string();
                    if text.is_empty() {
                        continue;
                    }
                    return Some((Ok(text), (body, buf, eof)));
                }
                if eof {
                    if buf.iter().all(u8::is_ascii_whitespace) {
                        return None;
                    }
                    let text = String::from_utf8_lossy(&buf).trim().to_string();
                    buf.clear();
                    return Some((Ok(text), (body, buf, eof)));
                }
                match body.next().await {
                    Some(Ok(chunk)) => buf.extend_from_slice(&chunk),
                    Some(Err(e)) => return Some((Err(e.to_string()), (body, buf, true))),
                    None => eof = true,
                }
            }
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retry_after_wins_and_is_capped() {
        let base = Duration::from_millis(100);
        assert_eq!(retry_delay(0, Some("2"), base), Duration::from_secs(2));
        assert_eq!(
            retry_delay(0, Some("0.5"), base),
            Duration::from_millis(500)
        );
        assert_eq!(retry_delay(0, Some("86400"), base), MAX_RETRY_AFTER);
        let d = retry_delay(3, None, base);
        assert!(
            d >= Duration::from_millis(800) && d <= Duration::from_millis(850),
            "{d:?}"
        );
        // An HTTP date (or garbage) falls back to backoff.
        let d = retry_delay(0, Some("Wed, 21 Oct 2015 07:28:00 GMT"), base);
        assert!(d <= Duration::from_millis(150), "{d:?}");
    }

    #[test]
    fn error_messages_are_extracted() {
        assert_eq!(
            error_message(r#"{"error":{"message":"bad key","type":"auth"}}"#),
            "bad key"
        );
        assert_eq!(
            error_message(r#"{"error":"model not found"}"#),
            "model not found"
        );
        assert_eq!(error_message("  plain  "), "plain");
        assert!(error_message(&"x".repeat(2000)).chars().count() <= 501);
    }
}
