//! Streamable HTTP at `/mcp`, behind the guard every Easel server shares (`easel_http`,
//! DESIGN.md section 12): loopback by default, a bearer token for anything else, `Host`/`Origin`
//! checks against DNS rebinding, JSON bodies only, a size cap and header deadlines. On top of
//! it this module answers what is not JSON-RPC with a JSON-RPC error, and closes sessions whose
//! client went quiet ([`crate::sessions`]).

use crate::error::ServeError;
use crate::server::EaselMcp;
use crate::sessions::{DEFAULT_SESSION_IDLE, ReapingSessions};
use axum::Router;
use axum::body::Body;
use axum::extract::Request;
use axum::http::{Method, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use easel_http::GuardOptions;
use easel_ops::Registry;
use easel_vault::Vault;
use rmcp::model::ClientJsonRpcMessage;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

/// The largest MCP request, over stdio and HTTP alike (HTTP answers 413 above it, stdio a
/// JSON-RPC error).
pub const MAX_REQUEST_BYTES: usize = 16 * 1024 * 1024;

/// How to serve over HTTP.
#[derive(Clone, Debug)]
pub struct HttpOptions {
    /// Address, remote access, token, allowed hosts, size cap and deadlines.
    pub guard: GuardOptions,
    /// How long a session may go without a request before it is closed.
    pub session_idle: Duration,
}

impl HttpOptions {
    /// Loopback-only options for `addr`, with the default limits.
    pub fn local(addr: SocketAddr) -> HttpOptions {
        let mut guard = GuardOptions::local(addr);
        guard.max_body_bytes = MAX_REQUEST_BYTES;
        HttpOptions {
            guard,
            session_idle: DEFAULT_SESSION_IDLE,
        }
    }
}

/// A JSON-RPC error answer without a request to correlate it to (or with the id it could find).
pub(crate) fn jsonrpc_error(id: Value, code: i64, message: &str, hint: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message, "data": {"hint": hint}}})
}

/// rmcp answers a body it cannot read as a message with 415, which tells a client to change
/// its Content-Type when the JSON is what is wrong. JSON-RPC has codes for this: -32700 for
/// text that is not JSON, -32600 for JSON that is not a request.
async fn jsonrpc_body(req: Request<Body>, next: Next) -> Response {
    if req.method() != Method::POST {
        return next.run(req).await;
    }
    let (parts, body) = req.into_parts();
    // The guard has already read the body within its cap, so this only takes it back.
    let bytes = match axum::body::to_bytes(body, usize::MAX).await {
        Ok(b) => b,
        Err(e) => {
            return bad_jsonrpc(jsonrpc_error(
                Value::Null,
                -32700,
                &format!("Parse error: the body could not be read: {e}"),
                "send one JSON-RPC message as the body",
            ));
        }
    };
    if let Err(e) = serde_json::from_slice::<ClientJsonRpcMessage>(&bytes) {
        use serde_json::error::Category;
        let answer = match e.classify() {
            Category::Syntax | Category::Eof | Category::Io => jsonrpc_error(
                Value::Null,
                -32700,
                &format!("Parse error: the body is not JSON: {e}"),
                "send one JSON-RPC 2.0 message as UTF-8 JSON",
            ),
            Category::Data => {
                let id = serde_json::from_slice::<Value>(&bytes)
                    .ok()
                    .and_then(|v| v.get("id").cloned())
                    .filter(|id| id.is_string() || id.is_number())
                    .unwrap_or(Value::Null);
                jsonrpc_error(
                    id,
                    -32600,
                    &format!("Invalid Request: not a JSON-RPC 2.0 message: {e}"),
                    "send an object with \"jsonrpc\": \"2.0\", a \"method\" and, for a request, an \"id\"",
                )
            }
        };
        return bad_jsonrpc(answer);
    }
    next.run(Request::from_parts(parts, Body::from(bytes)))
        .await
}

fn bad_jsonrpc(body: Value) -> Response {
    (
        StatusCode::BAD_REQUEST,
        [(header::CONTENT_TYPE, "application/json")],
        body.to_string(),
    )
        .into_response()
}

/// The axum router: `/mcp` behind the guard, and the session manager (to inspect or reap).
/// Useful to mount Easel's MCP inside another server.
pub fn router(
    vault: Vault,
    registry: Arc<Registry>,
    opts: &HttpOptions,
) -> (Router, Arc<ReapingSessions>) {
    let server = EaselMcp::new(vault, registry);
    // The guard does the Host and Origin checks, with the remote-mode host list, so the SDK's
    // own loopback-only host check is switched off rather than configured twice. Its body cap
    // is the guard's, so that the guard's 413 is the one a client sees.
    let config = StreamableHttpServerConfig::default()
        .disable_allowed_hosts()
        .with_max_request_body_bytes(opts.guard.max_body_bytes);
    let sessions = Arc::new(ReapingSessions::new(opts.session_idle));
    sessions.spawn_reaper();
    let service =
        StreamableHttpService::new(move || Ok(server.clone()), Arc::clone(&sessions), config);
    let mcp = Router::new()
        .nest_service("/mcp", service)
        .layer(middleware::from_fn(jsonrpc_body));
    (easel_http::guard(mcp, &opts.guard), sessions)
}

/// Serves until Ctrl-C; `on_listening` gets the bound address (useful with port 0).
pub async fn serve_http(
    vault: Vault,
    registry: Arc<Registry>,
    opts: HttpOptions,
    on_listening: impl FnOnce(SocketAddr),
) -> Result<(), ServeError> {
    let listener = easel_http::bind(&opts.guard).await?;
    on_listening(listener.local_addr()?);
    let (app, _sessions) = router(vault, registry, &opts);
    easel_http::serve(listener, app, &opts.guard, async {
        let _ = tokio::signal::ctrl_c().await;
    })
    .await?;
    Ok(())
}
