//! Easel as an MCP server: the operations of an `easel_ops::Registry` as tools, canvases as
//! `canvas://` resources, two prompts, over stdio or streamable HTTP. Only this crate knows MCP.
//!
//! Every tool is one operation of the registry the binary builds (its name, title, tutorial
//! description, input schema, and annotations from its effect), and returns the JSON
//! `easel --json` prints for the same operation, compact, as one text block. Failures come back as tool results with
//! `isError: true`, a structured `error` object and a hint naming the tool to use next, never
//! as a crashed server. Changes are recorded in the vault's ledger
//! with the actor `mcp:<client name>`.
//!
//! ```
//! use easel_mcp::tools;
//! use easel_core::Actor;
//! use easel_vault::Vault;
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let dir = tempfile::tempdir()?;
//! let vault = Vault::open(dir.path())?;
//! let mut registry = easel_ops::Registry::new();
//! easel_ops::register(&mut registry);
//! let actor = Actor::mcp("doc-test");
//! let args = serde_json::json!({"path": "Ideas", "nodes": [{"type": "text", "text": "Hi"}]});
//! let created = tools::call(&registry, &vault, &actor, "canvas_write", args.as_object().cloned())?;
//! assert!(created.contains("\"nodeCount\":1"));
//!
//! // A missing canvas is an error a model can act on.
//! let err = tools::call(&registry, &vault, &actor, "canvas_read", serde_json::json!({"path": "Nope"}).as_object().cloned())
//!     .unwrap_err();
//! assert_eq!(err.to_text(), "Canvas not found: Nope.canvas\nhint: use canvas_list to see the canvases, or canvas_write to create one");
//! # Ok(())
//! # }
//! ```
//!
//! Serving: [`serve_stdio`] for clients that spawn `easel mcp`, [`http::serve_http`] for
//! `easel mcp --http 127.0.0.1:PORT`.

#![warn(missing_docs)]

pub mod error;
pub mod http;
pub mod prompts;
pub mod server;
pub mod sessions;
pub mod stdio;
pub mod tools;

pub use error::{ServeError, ToolError};
pub use http::{HttpOptions, serve_http};
pub use server::EaselMcp;

use easel_ops::Registry;
use easel_vault::Vault;
use rmcp::ServiceExt;
use std::sync::Arc;

/// Serves the operations of `registry` over MCP on standard input and output until the client
/// closes the connection. A message over [`http::MAX_REQUEST_BYTES`] is answered with a
/// JSON-RPC error, not dropped ([`stdio::LineTransport`]).
pub async fn serve_stdio(vault: Vault, registry: Arc<Registry>) -> Result<(), ServeError> {
    // Clients spawn us with pipes: driving them on the IO reactor instead of tokio's blocking
    // pool saves a thread hand-off per message (BENCHMARKS.md, MCP section). Anything that is
    // not a pipe (a terminal, a file) falls back to blocking handles.
    let (read, write) = rmcp::transport::stdio_pipes();
    serve_lines(vault, registry, read, write).await
}

/// Serves MCP over any line-delimited reader and writer (standard streams, a socket, a test's
/// in-memory pipe) until the reader ends.
pub async fn serve_lines<R, W>(
    vault: Vault,
    registry: Arc<Registry>,
    read: R,
    write: W,
) -> Result<(), ServeError>
where
    R: tokio::io::AsyncRead + Send + Unpin + 'static,
    W: tokio::io::AsyncWrite + Send + Unpin + 'static,
{
    let running = EaselMcp::new(vault, registry)
        .serve(stdio::LineTransport::new(read, write))
        .await
        .map_err(|e| ServeError::Transport(e.to_string()))?;
    running
        .waiting()
        .await
        .map_err(|e| ServeError::Transport(e.to_string()))?;
    Ok(())
}
