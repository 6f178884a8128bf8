//! Easel as an MCP server: the canvas and ledger operations as tools, canvases as
//! `canvas://` resources, over stdio or streamable HTTP.
//!
//! Every tool is a thin adapter over one function of `easel_vault::canvas`,
//! `easel_vault::history` or `easel_thread`, and returns the JSON `easel --json` prints for the
//! same operation, compact, as one text block. Failures come back as tool results with
//! `isError: true`, a structured `error` object and a hint naming the tool to use next, never
//! as a crashed server. Changes are recorded in the vault's ledger
//! with the actor `mcp:<client name>`.
//!
//! ```
//! use easel_mcp::tools;
//! use easel_vault::{Vault, canvas::Actor};
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let dir = tempfile::tempdir()?;
//! let vault = Vault::open(dir.path())?;
//! let actor = Actor::new("mcp:doc-test");
//! let args = serde_json::json!({"path": "Ideas", "data": {"nodes": [{"type": "text", "text": "Hi"}]}});
//! let created = tools::call(&vault, &actor, "canvas_write", args.as_object().cloned())?;
//! assert!(created.contains("\"nodeCount\":1"));
//!
//! // A missing canvas is an error a model can act on.
//! let err = tools::call(&vault, &actor, "canvas_read", serde_json::json!({"path": "Nope"}).as_object().cloned())
//!     .unwrap_err();
//! assert_eq!(err.to_text(), "Canvas not found: Nope.canvas\nhint: use canvas_list to see the canvases, or canvas_write to create one");
//! # Ok(())
//! # }
//! ```
//!
//! Serving: [`serve_stdio`] for clients that spawn `easel mcp`, [`http::serve_http`] for
//! `easel mcp --http 127.0.0.1:PORT`.

#![warn(missing_docs)]

pub mod code_tool;
pub mod error;
pub mod http;
pub mod server;
pub mod thread;
pub mod tools;

pub use error::{ServeError, ToolError};
pub use http::{HttpOptions, serve_http};
pub use server::EaselMcp;

use easel_vault::Vault;
use rmcp::ServiceExt;

/// Serves MCP over standard input and output until the client closes the connection.
pub async fn serve_stdio(vault: Vault) -> Result<(), ServeError> {
    let running = EaselMcp::new(vault)
        // Clients spawn us with pipes: driving them on the IO reactor instead of tokio's
        // blocking pool saves a thread hand-off per message (BENCHMARKS.md, MCP section).
        // Anything that is not a pipe (a terminal, a file) falls back to blocking handles.
        .serve(rmcp::transport::stdio_pipes())
        .await
        .map_err(|e| ServeError::Transport(e.to_string()))?;
    running
        .waiting()
        .await
        .map_err(|e| ServeError::Transport(e.to_string()))?;
    Ok(())
}
