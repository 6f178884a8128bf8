//! Streamable HTTP at `/mcp`, behind a guard that enforces DESIGN.md section 12: loopback by
//! default, a bearer token for anything else, and `Host`/`Origin` checks against DNS
//! rebinding (a web page in the user's browser must not be able to drive the vault).

use crate::error::ServeError;
use crate::server::EaselMcp;
use axum::Router;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::serve::ListenerExt;
use easel_ops::Registry;
use easel_vault::Vault;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

/// How to serve over HTTP.
#[derive(Clone, Debug)]
pub struct HttpOptions {
    /// Where to listen; port 0 lets the system choose.
    pub addr: SocketAddr,
    /// Permit a non-loopback address (needs `token`).
    pub allow_remote: bool,
    /// When set, every request needs `Authorization: Bearer <token>`.
    pub token: Option<String>,
    /// Host names (without port) accepted in `Host` and `Origin` besides the loopback ones.
    pub allowed_hosts: Vec<String>,
}

impl HttpOptions {
    /// Loopback-only options for `addr`.
    pub fn local(addr: SocketAddr) -> HttpOptions {
        HttpOptions {
            addr,
            allow_remote: false,
            token: None,
            allowed_hosts: Vec::new(),
        }
    }

    /// Refuses configurations DESIGN.md section 12 forbids.
    pub fn check(&self) -> Result<(), ServeError> {
        if !self.addr.ip().is_loopback() {
            if !self.allow_remote {
                return Err(ServeError::Remote {
                    addr: self.addr.to_string(),
                });
            }
            if self.token.as_deref().is_none_or(str::is_empty) {
                return Err(ServeError::NoToken);
            }
        }
        Ok(())
    }
}

#[derive(Debug)]
struct Guard {
    hosts: Vec<String>,
    token: Option<String>,
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

impl Guard {
    fn new(opts: &HttpOptions) -> Guard {
        let mut hosts: Vec<String> = ["localhost", "127.0.0.1", "::1"]
            .iter()
            .map(|s| (*s).to_owned())
            .collect();
        let ip = opts.addr.ip();
        if !ip.is_unspecified() && !ip.is_loopback() {
            hosts.push(ip.to_string());
        }
        hosts.extend(opts.allowed_hosts.iter().map(|h| h.to_ascii_lowercase()));
        Guard {
            hosts,
            token: opts.token.clone().filter(|t| !t.is_empty()),
        }
    }

    fn host_ok(&self, name: &str) -> bool {
        let name = name.to_ascii_lowercase();
        self.hosts.contains(&name)
            || name
                .parse::<IpAddr>()
                .is_ok_and(|ip| ip.is_loopback() && self.hosts.iter().any(|h| h == "127.0.0.1"))
    }

    /// `None` when the request may pass; otherwise the refusal.
    fn check(&self, headers: &HeaderMap) -> Option<Response> {
        let host = headers
            .get(header::HOST)
            .and_then(|h| h.to_str().ok())
            .map(host_name);
        match host {
            Some(h) if self.host_ok(h) => {}
            Some(h) => {
                return Some(refuse(
                    StatusCode::FORBIDDEN,
                    &format!("Host '{h}' is not allowed"),
                    "connect through 127.0.0.1 or localhost, or start the server with --allowed-host NAME",
                ));
            }
            None => {
                return Some(refuse(
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
                return Some(refuse(
                    StatusCode::FORBIDDEN,
                    &format!("Origin '{origin}' is not allowed"),
                    "MCP clients do not send an Origin header; a web page may not drive Easel unless its host is given with --allowed-host",
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
                return Some(refuse(
                    StatusCode::UNAUTHORIZED,
                    "missing or wrong bearer token",
                    "send 'Authorization: Bearer <token>' with the token the server was started with",
                ));
            }
        }
        None
    }
}

/// Compares in time independent of where the inputs differ, so the token cannot be guessed
/// byte by byte from response times.
fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

fn refuse(status: StatusCode, error: &str, hint: &str) -> Response {
    let body = serde_json::json!({"error": error, "hint": hint}).to_string();
    (status, [(header::CONTENT_TYPE, "application/json")], body).into_response()
}

async fn guard(State(g): State<Arc<Guard>>, req: Request<Body>, next: Next) -> Response {
    if let Some(refusal) = g.check(req.headers()) {
        tracing::info!(uri = %req.uri(), "refused HTTP request");
        return refusal;
    }
    next.run(req).await
}

/// The axum router: `/mcp` behind the guard. Useful to mount Easel's MCP inside another server.
pub fn router(vault: Vault, registry: Arc<Registry>, opts: &HttpOptions) -> Router {
    let server = EaselMcp::new(vault, registry);
    // The guard above does the Host and Origin checks, with the remote-mode host list, so the
    // SDK's own loopback-only host check is switched off rather than configured twice.
    let config = StreamableHttpServerConfig::default().disable_allowed_hosts();
    let service = StreamableHttpService::new(
        move || Ok(server.clone()),
        Arc::new(LocalSessionManager::default()),
        config,
    );
    Router::new()
        .nest_service("/mcp", service)
        .layer(middleware::from_fn_with_state(
            Arc::new(Guard::new(opts)),
            guard,
        ))
}

/// Serves until Ctrl-C; `on_listening` gets the bound address (useful with port 0).
pub async fn serve_http(
    vault: Vault,
    registry: Arc<Registry>,
    opts: HttpOptions,
    on_listening: impl FnOnce(SocketAddr),
) -> Result<(), ServeError> {
    opts.check()?;
    let listener = tokio::net::TcpListener::bind(opts.addr)
        .await
        .map_err(|source| ServeError::Bind {
            addr: opts.addr.to_string(),
            source,
        })?;
    let local = listener.local_addr()?;
    on_listening(local);
    let app = router(vault, registry, &opts);
    // Without TCP_NODELAY, a response written in two pieces waits for the client's delayed ACK:
    // 40 ms on Linux for every small reply.
    let listener = listener.tap_io(|tcp| {
        if let Err(e) = tcp.set_nodelay(true) {
            tracing::debug!(error = %e, "cannot set TCP_NODELAY");
        }
    });
    axum::serve(listener, app)
        .with_graceful_shutdown(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await?;
    Ok(())
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

    #[test]
    fn loopback_hosts_pass_and_others_are_refused() {
        let g = Guard::new(&HttpOptions::local("127.0.0.1:0".parse().unwrap()));
        assert!(g.check(&headers(&[("host", "127.0.0.1:8080")])).is_none());
        assert!(g.check(&headers(&[("host", "localhost:1")])).is_none());
        assert!(g.check(&headers(&[("host", "[::1]:9")])).is_none());
        let r = g.check(&headers(&[("host", "evil.example:8080")])).unwrap();
        assert_eq!(r.status(), StatusCode::FORBIDDEN);
        assert!(g.check(&headers(&[])).is_some());
    }

    #[test]
    fn foreign_origins_are_refused() {
        let g = Guard::new(&HttpOptions::local("127.0.0.1:0".parse().unwrap()));
        let ok = [("host", "127.0.0.1:1"), ("origin", "http://localhost:3000")];
        assert!(g.check(&headers(&ok)).is_none());
        for bad in [
            "https://evil.example",
            "null",
            "http://127.0.0.1.evil.example",
        ] {
            let h = headers(&[("host", "127.0.0.1:1"), ("origin", bad)]);
            assert_eq!(
                g.check(&h).unwrap().status(),
                StatusCode::FORBIDDEN,
                "{bad}"
            );
        }
    }

    #[test]
    fn remote_needs_allow_remote_and_a_token() {
        let mut o = HttpOptions::local("0.0.0.0:0".parse().unwrap());
        assert!(matches!(o.check(), Err(ServeError::Remote { .. })));
        o.allow_remote = true;
        assert!(matches!(o.check(), Err(ServeError::NoToken)));
        o.token = Some("s3cret".into());
        o.check().unwrap();
        let g = Guard::new(&o);
        let no = headers(&[("host", "127.0.0.1:1")]);
        assert_eq!(g.check(&no).unwrap().status(), StatusCode::UNAUTHORIZED);
        let wrong = headers(&[("host", "127.0.0.1:1"), ("authorization", "Bearer nope")]);
        assert_eq!(g.check(&wrong).unwrap().status(), StatusCode::UNAUTHORIZED);
        let right = headers(&[("host", "127.0.0.1:1"), ("authorization", "Bearer s3cret")]);
        assert!(g.check(&right).is_none());
    }
}
