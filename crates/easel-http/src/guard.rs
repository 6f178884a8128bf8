//! The middleware: who may call (Host, Origin, token) and what they may send (JSON, size, time).

use crate::options::GuardOptions;
use axum::Router;
use axum::body::Body;
use axum::body::Bytes;
use axum::extract::DefaultBodyLimit;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, Method, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use http_body_util::BodyExt;
use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// How a refusal's JSON body is shaped, so each server's clients can read it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ErrorStyle {
    /// `{"error": "…", "hint": "…"}` (MCP and Easel's own API).
    #[default]
    Plain,
    /// `{"error": {"message": "…", "type": "…", "code": 403, "hint": "…"}}`, what OpenAI
    /// clients read.
    OpenAi,
}

/// A refusal in `style`: always JSON, always with a hint.
pub fn refusal(style: ErrorStyle, status: StatusCode, error: &str, hint: &str) -> Response {
    let body = match style {
        ErrorStyle::Plain => serde_json::json!({"error": error, "hint": hint}),
        ErrorStyle::OpenAi => {
            let kind = match status {
                StatusCode::UNAUTHORIZED => "authentication_error",
                StatusCode::FORBIDDEN => "permission_error",
                _ => "invalid_request_error",
            };
            serde_json::json!({"error": {"message": format!("{error} (hint: {hint})"), "type": kind,
                                         "code": status.as_u16(), "hint": hint}})
        }
    };
    (
        status,
        [(header::CONTENT_TYPE, "application/json")],
        body.to_string(),
    )
        .into_response()
}

#[derive(Debug)]
struct Guard {
    hosts: Vec<String>,
    token: Option<String>,
    max_body_bytes: usize,
    body_timeout: Duration,
    style: ErrorStyle,
    /// One permit per byte of request body held now, over all connections.
    budget: Arc<Semaphore>,
    budget_bytes: usize,
}

/// Puts `router` behind the guard of `opts`; refusals are shaped as [`ErrorStyle::Plain`].
pub fn guard(router: Router, opts: &GuardOptions) -> Router {
    guard_with_style(router, opts, ErrorStyle::Plain)
}

/// [`guard`] with refusals shaped for the server's clients.
pub fn guard_with_style(router: Router, opts: &GuardOptions, style: ErrorStyle) -> Router {
    // axum's body extractors have a cap of their own (2 MB), which would refuse bodies the
    // guard let through, with a plain-text 413 and no hint: the guard's cap is the one cap.
    router
        .layer(DefaultBodyLimit::max(opts.max_body_bytes))
        .layer(middleware::from_fn_with_state(
            Arc::new(Guard::new(opts, style)),
            check_request,
        ))
}

/// `example.com:8080` → `example.com`; `[::1]:80` → `::1`.
fn host_name(authority: &str) -> &str {
    let a = authority.trim();
    if let Some(rest) = a.strip_prefix('[') {
        return rest.split(']').next().unwrap_or(rest);
    }
    match a.rsplit_once(':') {
        Some((h, port)) if port.chars().all(|c| c.is_ascii_digit()) => h,
        _ => a,
    }
}

/// `application/json; charset=utf-8` is JSON; `text/plain` (what a cross-site form or `fetch`
/// without a preflight can send) is not.
fn is_json(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| {
            let essence = v.split(';').next().unwrap_or(v).trim();
            essence.eq_ignore_ascii_case("application/json")
        })
}

impl Guard {
    fn new(opts: &GuardOptions, style: ErrorStyle) -> Guard {
        let mut hosts: Vec<String> = ["localhost", "127.0.0.1", "::1"]
            .iter()
            .map(|s| (*s).to_owned())
            .collect();
        let ip = opts.addr.ip();
        if !ip.is_unspecified() && !ip.is_loopback() {
            hosts.push(ip.to_string());
        }
        hosts.extend(opts.allowed_hosts.iter().map(|h| h.to_ascii_lowercase()));
        let budget_bytes = opts
            .max_buffered_bytes
            .max(opts.max_body_bytes)
            .min(Semaphore::MAX_PERMITS);
        Guard {
            hosts,
            token: opts.token().map(str::to_owned),
            max_body_bytes: opts.max_body_bytes,
            body_timeout: opts.body_timeout,
            style,
            budget: Arc::new(Semaphore::new(budget_bytes)),
            budget_bytes,
        }
    }

    fn refuse(&self, status: StatusCode, error: &str, hint: &str) -> Response {
        refusal(self.style, status, error, hint)
    }

    fn host_ok(&self, name: &str) -> bool {
        let name = name.to_ascii_lowercase();
        self.hosts.contains(&name) || name.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
    }

    /// `None` when the caller may go on; otherwise the refusal.
    fn check_caller(&self, headers: &HeaderMap) -> Option<Response> {
        let host = headers
            .get(header::HOST)
            .and_then(|h| h.to_str().ok())
            .map(host_name);
        match host {
            Some(h) if self.host_ok(h) => {}
            Some(h) => {
                return Some(self.refuse(
                    StatusCode::FORBIDDEN,
                    &format!("Host '{h}' is not allowed"),
                    "connect through 127.0.0.1 or localhost, or start the server with --allowed-host NAME",
                ));
            }
            None => {
                return Some(self.refuse(
                    StatusCode::FORBIDDEN,
                    "the request has no usable Host header",
                    "send a Host header (every HTTP/1.1 client does)",
                ));
            }
        }
        if let Some(origin) = headers.get(header::ORIGIN) {
            let origin = origin.to_str().unwrap_or("");
            let name = origin
                .split_once("://")
                .map(|(_, rest)| host_name(rest.split('/').next().unwrap_or(rest)));
            if !name.is_some_and(|n| self.host_ok(n)) {
                return Some(self.refuse(
                    StatusCode::FORBIDDEN,
                    &format!("Origin '{origin}' is not allowed"),
                    "API clients send no Origin header; a web page may not call this server unless its host is given with --allowed-host",
                ));
            }
        }
        if let Some(token) = &self.token {
            let given = headers
                .get(header::AUTHORIZATION)
                .and_then(|h| h.to_str().ok())
                .and_then(|h| h.strip_prefix("Bearer "))
                .unwrap_or("");
            if !same(given.as_bytes(), token.as_bytes()) {
                return Some(self.refuse(
                    StatusCode::UNAUTHORIZED,
                    "missing or wrong bearer token",
                    "send 'Authorization: Bearer <token>' with the token the server was started with",
                ));
            }
        }
        None
    }

    fn too_large(&self) -> Response {
        self.refuse(
            StatusCode::PAYLOAD_TOO_LARGE,
            &format!(
                "the request body is larger than {} bytes, the most this server takes",
                self.max_body_bytes
            ),
            "send less per request (split the work into several calls)",
        )
    }

    fn busy(&self) -> Response {
        let mut refusal = self.refuse(
            StatusCode::SERVICE_UNAVAILABLE,
            &format!(
                "the server is already holding {} MiB of other requests' bodies, the most it takes at once",
                self.budget_bytes / (1024 * 1024)
            ),
            "try again in a moment (other large requests are being read), or send less per request",
        );
        refusal
            .headers_mut()
            .insert(header::RETRY_AFTER, header::HeaderValue::from_static("1"));
        refusal
    }

    /// Checks the body's type and size and reads it, within the deadline, so the handler gets a
    /// complete body and a slow client cannot hold a worker.
    ///
    /// The permit is the body's share of the memory budget: it is held until the answer is
    /// ready.
    async fn read_body(&self, req: Request<Body>) -> Result<(Request<Body>, Held), Response> {
        let expects_json = matches!(*req.method(), Method::POST | Method::PUT | Method::PATCH);
        if !expects_json {
            return Ok((req, None));
        }
        if !is_json(req.headers()) {
            let given = req
                .headers()
                .get(header::CONTENT_TYPE)
                .and_then(|v| v.to_str().ok())
                .unwrap_or("none");
            return Err(self.refuse(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                &format!("the body must be application/json, its Content-Type is {given}"),
                "send 'Content-Type: application/json' with a JSON body",
            ));
        }
        let declared = req
            .headers()
            .get(header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse::<u64>().ok());
        let (parts, mut body) = req.into_parts();
        if declared.is_some_and(|n| n > self.max_body_bytes as u64) {
            self.drain_after_refusal(&parts.headers, body);
            return Err(self.too_large());
        }
        let capacity = declared.map_or(0, |n| usize::try_from(n).unwrap_or(0));
        // A declared length is reserved at once; a chunked body as it comes.
        let mut held = None;
        if capacity > 0 && !reserve(&self.budget, &mut held, capacity) {
            self.drain_after_refusal(&parts.headers, body);
            return Err(self.busy());
        }
        let budget = (declared.is_none()).then_some(&self.budget);
        let read = read_limited(&mut body, self.max_body_bytes, capacity, budget, &mut held);
        let bytes = match tokio::time::timeout(self.body_timeout, read).await {
            Ok(Ok(bytes)) => bytes,
            Ok(Err(BodyError::TooLarge)) => {
                self.drain_after_refusal(&parts.headers, body);
                return Err(self.too_large());
            }
            Ok(Err(BodyError::Busy)) => {
                self.drain_after_refusal(&parts.headers, body);
                return Err(self.busy());
            }
            Ok(Err(BodyError::Read(e))) => {
                return Err(self.refuse(
                    StatusCode::BAD_REQUEST,
                    &format!("could not read the request body: {e}"),
                    "send the whole body with a correct Content-Length",
                ));
            }
            Err(_) => {
                return Err(self.refuse(
                    StatusCode::REQUEST_TIMEOUT,
                    &format!(
                        "the request body did not arrive within {} s",
                        self.body_timeout.as_secs()
                    ),
                    "send the body right after the headers",
                ));
            }
        };
        Ok((Request::from_parts(parts, Body::from(bytes)), held))
    }

    /// After a 413, reads and drops what the client is still sending, up to a bound, so that
    /// it gets to read the refusal. A connection closed with unread data is reset by the
    /// kernel, and a client still sending its body then loses the answer it has not read: it
    /// sees "connection reset" instead of what went wrong and what to do.
    fn drain_after_refusal(&self, headers: &HeaderMap, body: Body) {
        // A client waiting for "100 Continue" has sent nothing yet; reading the body would
        // invite it to send it all.
        let waits_to_send = headers
            .get(header::EXPECT)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.eq_ignore_ascii_case("100-continue"));
        if waits_to_send {
            return;
        }
        let most = self.max_body_bytes.saturating_mul(DRAIN_FACTOR);
        let within = self.body_timeout;
        tokio::spawn(async move {
            let mut body = body;
            let mut seen = 0usize;
            let drained = tokio::time::timeout(within, async {
                while let Some(Ok(frame)) = body.frame().await {
                    if let Some(data) = frame.data_ref() {
                        seen = seen.saturating_add(data.len());
                        if seen > most {
                            return false;
                        }
                    }
                }
                true
            })
            .await;
            // Past the bound the connection is closed (and reset) after all.
            if !matches!(drained, Ok(true)) {
                tracing::debug!(
                    bytes = seen,
                    "stopped reading an oversized body; closing the connection"
                );
            }
        });
    }
}

/// How much of an oversized body is read and dropped after the 413, as a multiple of the
/// cap: enough for a client that sent a little too much, not an invitation to stream forever.
const DRAIN_FACTOR: usize = 4;

/// A body's share of the budget, released when dropped.
type Held = Option<OwnedSemaphorePermit>;

/// Adds `bytes` to `held` if the budget has room now. Never waits: a client that waited while
/// holding part of the budget could wait on another doing the same.
fn reserve(budget: &Arc<Semaphore>, held: &mut Held, bytes: usize) -> bool {
    let Ok(n) = u32::try_from(bytes) else {
        return false;
    };
    match budget.clone().try_acquire_many_owned(n) {
        Ok(more) => {
            match held {
                Some(p) => p.merge(more),
                None => *held = Some(more),
            }
            true
        }
        Err(_) => false,
    }
}

enum BodyError {
    TooLarge,
    Busy,
    Read(axum::Error),
}

/// The whole body, or `TooLarge` as soon as it passes `max` bytes (the rest left unread).
/// With a `budget`, each piece is reserved in `held` as it comes (`Busy` when there is no
/// room).
async fn read_limited(
    body: &mut Body,
    max: usize,
    capacity: usize,
    budget: Option<&Arc<Semaphore>>,
    held: &mut Held,
) -> Result<Bytes, BodyError> {
    let mut buf = Vec::with_capacity(capacity.min(max));
    while let Some(frame) = body.frame().await {
        let frame = frame.map_err(BodyError::Read)?;
        if let Some(data) = frame.data_ref() {
            if buf.len().saturating_add(data.len()) > max {
                return Err(BodyError::TooLarge);
            }
            if let Some(budget) = budget
                && !reserve(budget, held, data.len())
            {
                return Err(BodyError::Busy);
            }
            buf.extend_from_slice(data);
        }
    }
    Ok(Bytes::from(buf))
}

/// Compares in time independent of where the inputs differ, so the token cannot be guessed
/// byte by byte from response times.
fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

async fn check_request(State(g): State<Arc<Guard>>, req: Request<Body>, next: Next) -> Response {
    if let Some(refusal) = g.check_caller(req.headers()) {
        tracing::info!(uri = %req.uri(), status = %refusal.status(), "refused HTTP request");
        return refusal;
    }
    match g.read_body(req).await {
        Ok((req, held)) => {
            let response = next.run(req).await;
            // The body is gone once the handler has answered; its share of the budget too.
            drop(held);
            response
        }
        Err(refusal) => {
            tracing::info!(status = %refusal.status(), "refused HTTP request body");
            refusal
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn headers(pairs: &[(&str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.insert(
                header::HeaderName::from_bytes(k.as_bytes()).unwrap(),
                v.parse().unwrap(),
            );
        }
        h
    }

    fn local() -> Guard {
        Guard::new(
            &GuardOptions::local("127.0.0.1:0".parse().unwrap()),
            ErrorStyle::Plain,
        )
    }

    #[test]
    fn loopback_hosts_pass_and_others_are_refused() {
        let g = local();
        assert!(
            g.check_caller(&headers(&[("host", "127.0.0.1:8080")]))
                .is_none()
        );
        assert!(
            g.check_caller(&headers(&[("host", "localhost:1")]))
                .is_none()
        );
        assert!(g.check_caller(&headers(&[("host", "[::1]:9")])).is_none());
        let r = g
            .check_caller(&headers(&[("host", "evil.example:8080")]))
            .unwrap();
        assert_eq!(r.status(), StatusCode::FORBIDDEN);
        assert!(g.check_caller(&headers(&[])).is_some());
    }

    #[test]
    fn foreign_origins_are_refused() {
        let g = local();
        let ok = [("host", "127.0.0.1:1"), ("origin", "http://localhost:3000")];
        assert!(g.check_caller(&headers(&ok)).is_none());
        for bad in [
            "https://evil.example",
            "null",
            "http://127.0.0.1.evil.example",
        ] {
            let h = headers(&[("host", "127.0.0.1:1"), ("origin", bad)]);
            assert_eq!(
                g.check_caller(&h).unwrap().status(),
                StatusCode::FORBIDDEN,
                "{bad}"
            );
        }
    }

    #[test]
    fn a_token_is_checked_when_set() {
        let mut o = GuardOptions::local("0.0.0.0:0".parse().unwrap());
        o.allow_remote = true;
        o.token = Some("s3cret".into());
        let g = Guard::new(&o, ErrorStyle::OpenAi);
        let no = headers(&[("host", "127.0.0.1:1")]);
        assert_eq!(
            g.check_caller(&no).unwrap().status(),
            StatusCode::UNAUTHORIZED
        );
        let wrong = headers(&[("host", "127.0.0.1:1"), ("authorization", "Bearer nope")]);
        assert_eq!(
            g.check_caller(&wrong).unwrap().status(),
            StatusCode::UNAUTHORIZED
        );
        let right = headers(&[("host", "127.0.0.1:1"), ("authorization", "Bearer s3cret")]);
        assert!(g.check_caller(&right).is_none());
    }

    #[test]
    fn only_json_content_types_are_json() {
        for ok in [
            "application/json",
            "Application/JSON; charset=utf-8",
            " application/json ;x=y",
        ] {
            assert!(is_json(&headers(&[("content-type", ok)])), "{ok}");
        }
        for bad in [
            "text/plain",
            "application/x-www-form-urlencoded",
            "multipart/form-data; boundary=x",
            "application/jsonp",
        ] {
            assert!(!is_json(&headers(&[("content-type", bad)])), "{bad}");
        }
        assert!(!is_json(&headers(&[])));
    }
}
