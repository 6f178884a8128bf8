//! The MCP handler: tools from [`crate::tools`], canvases as `canvas://` resources.

use crate::error::ToolError;
use crate::prompts;
use crate::tools;
use easel_core::Actor;
use easel_ops::{Cancel, Ctx, OpEvent, OpOutput, Registry};
use easel_vault::Vault;
use easel_vault::canvas as ops;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, GetPromptRequestParams,
    GetPromptResponse, Implementation, ListPromptsResult, ListResourceTemplatesResult,
    ListResourcesResult, ListToolsResult, PaginatedRequestParams, ProgressNotificationParam,
    ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult, Resource,
    ResourceContents, ResourceTemplate, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};
use std::sync::Arc;
use std::time::Duration;

/// The URI scheme of canvas resources: `canvas://<vault-relative path>`.
pub const CANVAS_SCHEME: &str = "canvas://";

const INSTRUCTIONS: &str = "Easel edits JSON Canvas boards (.canvas files) in a vault. \
Start with canvas_list to find a canvas, canvas_read to see it (keep its 'rev'), then change it \
with canvas_add_node / canvas_update_node / canvas_add_edge for small edits, or canvas_update to \
replace all nodes or edges. Pass the 'rev' you read to every write so you never overwrite someone \
else's edit; on a conflict, read again and redo your change. Every change is recorded: \
ledger_list shows them and ledger_undo reverts one. A canvas can also hold a conversation: \
thread_context shows what a node would send to a model, thread_send writes the model's answer \
below it.";

/// Easel as an MCP server over one vault: one tool per operation of the registry it is given.
/// Cheap to clone: one value per HTTP session.
#[derive(Clone, Debug)]
pub struct EaselMcp {
    vault: Vault,
    registry: Arc<Registry>,
    tools: Arc<Vec<Tool>>,
}

/// `mcp:<client name>` from the initialize handshake, kept to characters that read well in
/// the ledger.
fn actor_for(context: &RequestContext<RoleServer>) -> Actor {
    let name = context
        .peer
        .peer_info()
        .map(|info| info.client_info.name.clone())
        .unwrap_or_default();
    let clean: String = name
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || "-_.@/".contains(c) {
                c
            } else {
                '-'
            }
        })
        .take(64)
        .collect();
    let clean = clean.trim_matches('-');
    Actor::mcp(if clean.is_empty() { "unknown" } else { clean })
}

/// Percent-encodes a vault path for a URI, keeping `/` so folders stay readable.
pub fn canvas_uri(path: &str) -> String {
    let mut uri = String::from(CANVAS_SCHEME);
    for b in path.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            uri.push(b as char);
        } else {
            uri.push_str(&format!("%{b:02X}"));
        }
    }
    uri
}

/// The vault path of a `canvas://` URI, or why it is not one.
pub fn path_from_uri(uri: &str) -> Result<String, String> {
    let rest = uri
        .strip_prefix(CANVAS_SCHEME)
        .ok_or_else(|| format!("'{uri}' is not a canvas resource (canvas://<path>)"))?;
    let bytes = rest.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = rest
                .get(i + 1..i + 3)
                .and_then(|h| u8::from_str_radix(h, 16).ok())
                .ok_or_else(|| format!("'{uri}' has a broken %-escape"))?;
            out.push(hex);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).map_err(|_| format!("'{uri}' does not decode to UTF-8"))
}

impl EaselMcp {
    /// A server over `vault` offering the operations of `registry` as tools.
    pub fn new(vault: Vault, registry: Arc<Registry>) -> EaselMcp {
        let list: Vec<Tool> = registry.infos().map(tools::tool_of).collect();
        EaselMcp {
            vault,
            registry,
            tools: Arc::new(list),
        }
    }

    /// A server over `vault` with the operations of `easel_ops` only (the canvas, ledger, note
    /// and vault operations): for tests and embedding.
    pub fn with_builtin_ops(vault: Vault) -> EaselMcp {
        let mut registry = Registry::new();
        easel_ops::register(&mut registry);
        EaselMcp::new(vault, Arc::new(registry))
    }

    /// Runs a registry operation on a blocking thread, with the request's cancellation and,
    /// when the client asked for them, progress notifications carrying the operation's events
    /// (a streaming answer's text).
    ///
    /// The operation is cancelled when the client cancels the request (`notifications/cancelled`)
    /// or goes away (the transport closes, or a progress notification cannot be delivered): a
    /// streaming answer then stops its model and keeps what it has, marked `partial: true`.
    async fn call_op(
        &self,
        name: String,
        arguments: Option<serde_json::Map<String, serde_json::Value>>,
        actor: Actor,
        context: &RequestContext<RoleServer>,
    ) -> Result<OpOutput, ToolError> {
        let cancel = Cancel::new();
        let mut ctx = Ctx::new(self.vault.clone(), actor).with_cancel(cancel.clone());
        let mut forward = None;
        if let Some(token) = context.meta.get_progress_token() {
            let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<OpEvent>();
            ctx = ctx.with_events(Arc::new(move |e| {
                let _ = tx.send(e);
            }));
            let peer = context.peer.clone();
            let cancel = cancel.clone();
            forward = Some(tokio::spawn(async move {
                let mut step = 0u64;
                while let Some(event) = rx.recv().await {
                    let (progress, total, message) = progress_of(event, &mut step);
                    let mut param = ProgressNotificationParam::new(token.clone(), progress);
                    param.total = total;
                    param.message = Some(message);
                    if peer.notify_progress(param).await.is_err() {
                        tracing::debug!(
                            "progress could not be delivered; the client is gone, cancelling"
                        );
                        cancel.cancel();
                        break;
                    }
                }
            }));
        }
        let registry = self.registry.clone();
        let tool = name.clone();
        let mut job =
            tokio::task::spawn_blocking(move || tools::call_in(&registry, &ctx, &name, arguments));
        let peer = context.peer.clone();
        let gone = async move {
            while !peer.is_transport_closed() {
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
        };
        let outcome = tokio::select! {
            done = &mut job => done,
            () = context.ct.cancelled() => {
                cancel.cancel();
                job.await
            }
            () = gone => {
                cancel.cancel();
                job.await
            }
        }
        .unwrap_or_else(|e| Err(ToolError::failure(format!("the tool {tool} stopped: {e}"))));
        if let Some(f) = forward {
            // The sender went with the context; the forwarder ends once it has sent the rest.
            let _ = f.await;
        }
        outcome
    }

    fn read_canvas_resource(&self, uri: &str) -> Result<ReadResourceResult, ErrorData> {
        let not_found = |e: ToolError| {
            ErrorData::resource_not_found(
                e.to_text(),
                Some(serde_json::json!({"uri": uri, "hint": e.hint})),
            )
        };
        let path = path_from_uri(uri).map_err(|m| {
            ErrorData::invalid_params(
                m,
                Some(serde_json::json!({"hint": "use a URI from resources/list, like canvas://Ideas.canvas"})),
            )
        })?;
        let p = ops::canvas_path(&self.vault, &path, false)
            .map_err(|e| not_found(ToolError::from(e)))?;
        let (bytes, _rev) = self.vault.read(&p).map_err(|e| {
            not_found(ToolError::from(match e {
                easel_vault::VaultError::NotFound { .. } => ops::CanvasOpError::NotFound {
                    path: p.as_str().to_owned(),
                },
                other => other.into(),
            }))
        })?;
        let text = String::from_utf8(bytes).map_err(|_| {
            not_found(ToolError::from(ops::CanvasOpError::NotText {
                path: p.as_str().to_owned(),
            }))
        })?;
        Ok(ReadResourceResult::new(vec![
            ResourceContents::text(text, canvas_uri(p.as_str())).with_mime_type("application/json"),
        ]))
    }
}

/// A progress notification's numbers and message for one event. A streaming event with text
/// (`{"type":"text_delta","delta":"..."}`) carries that text, so a client can show the answer
/// as it grows; any other event carries its JSON.
fn progress_of(event: OpEvent, step: &mut u64) -> (f64, Option<f64>, String) {
    match event {
        OpEvent::Progress {
            done,
            total,
            message,
        } => (done as f64, total.map(|t| t as f64), message),
        OpEvent::Data(data) => {
            *step += 1;
            let text = match data.get("delta").and_then(|d| d.as_str()) {
                Some(delta) => delta.to_owned(),
                None => data.to_string(),
            };
            (*step as f64, None, text)
        }
    }
}

/// A failed call as the client sees it: the text a model reads, and the same as structure.
fn tool_error_result(tool: &str, e: &ToolError) -> CallToolResult {
    tracing::debug!(tool = %tool, error = %e, "tool error");
    let mut result = CallToolResult::error(vec![ContentBlock::text(e.to_text())]);
    result.structured_content = Some(serde_json::json!({
        "error": {"kind": e.kind_name(), "message": e.message, "hint": e.hint}
    }));
    result
}

impl ServerHandler for EaselMcp {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_resources()
                .enable_prompts()
                .build(),
        )
        .with_server_info(Implementation::new("easel", env!("CARGO_PKG_VERSION")))
        .with_instructions(INSTRUCTIONS)
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.tools.as_ref().clone()))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.tools.iter().find(|t| t.name == name).cloned()
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let actor = actor_for(&context);
        let name = request.name.to_string();
        let tool = name.clone();
        // Vault operations do blocking file IO and may wait for another writer's lock; a
        // thread_send blocks for as long as the model writes.
        let outcome = if self.registry.contains(&name) {
            self.call_op(name, request.arguments, actor, &context).await
        } else {
            Err(self.registry.unknown(&name).into())
        };
        Ok(match outcome {
            // The JSON goes out once, as compact text. No tool declares an output schema, so
            // clients read the text; a copy in `structuredContent` doubled every response (a
            // 1,000-node canvas_read is 280 kB) and took canvas_read's p99 over stdio from 4.8
            // to 7.9 ms (BENCHMARKS.md). Errors keep a small structured `error` object.
            // Pictures (the code canvas's views) follow as image blocks.
            Ok(out) => CallToolResult::success(tools::content_of(out)),
            Err(e) => tool_error_result(&tool, &e),
        }
        .into())
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        Ok(ListPromptsResult::with_all_items(prompts::list()))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        prompts::get(&request.name, request.arguments.as_ref()).map(Into::into)
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let vault = self.vault.clone();
        let listed = tokio::task::spawn_blocking(move || ops::list(&vault, None, true))
            .await
            .map_err(|e| ErrorData::internal_error(format!("listing stopped: {e}"), None))?
            .map_err(|e| ErrorData::internal_error(ToolError::from(e).to_text(), None))?;
        let resources = listed
            .canvases
            .into_iter()
            .map(|c| {
                let description = match (c.node_count, c.edge_count) {
                    (Some(n), Some(e)) => format!("JSON Canvas with {n} nodes and {e} edges"),
                    _ => format!(
                        "unreadable canvas: {}",
                        c.error.as_deref().unwrap_or("unknown problem")
                    ),
                };
                Resource::new(canvas_uri(&c.path), c.path.clone())
                    .with_title(c.name)
                    .with_description(description)
                    .with_mime_type("application/json")
            })
            .collect();
        Ok(ListResourcesResult::with_all_items(resources))
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        Ok(ListResourceTemplatesResult::with_all_items(vec![
            ResourceTemplate::new("canvas://{path}", "canvas")
                .with_description("A JSON Canvas file by its vault-relative path")
                .with_mime_type("application/json"),
        ]))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let this = self.clone();
        let uri = request.uri;
        tokio::task::spawn_blocking(move || this.read_canvas_resource(&uri))
            .await
            .map_err(|e| ErrorData::internal_error(format!("reading stopped: {e}"), None))?
            .map(Into::into)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn progress_carries_the_text_of_text_events() {
        let mut step = 0;
        let delta = OpEvent::Data(serde_json::json!({"type": "text_delta", "delta": "Four"}));
        assert_eq!(
            progress_of(delta, &mut step),
            (1.0, None, "Four".to_owned())
        );
        let other = OpEvent::Data(serde_json::json!({"type": "tool_call", "name": "x"}));
        let (n, _, message) = progress_of(other, &mut step);
        assert_eq!(n, 2.0);
        assert_eq!(
            serde_json::from_str::<serde_json::Value>(&message).unwrap()["name"],
            "x"
        );
        let p = OpEvent::Progress {
            done: 3,
            total: Some(9),
            message: "parsing".into(),
        };
        assert_eq!(
            progress_of(p, &mut step),
            (3.0, Some(9.0), "parsing".to_owned())
        );
    }

    #[test]
    fn uris_round_trip_with_spaces_and_unicode() {
        for p in ["Ideas.canvas", "Projects/My Board.canvas", "Å/100%.canvas"] {
            let uri = canvas_uri(p);
            assert!(!uri.contains(' '), "{uri}");
            assert_eq!(path_from_uri(&uri).unwrap(), p);
        }
        assert!(path_from_uri("file:///etc/passwd").is_err());
        assert!(path_from_uri("canvas://bad%zz").is_err());
    }
}
