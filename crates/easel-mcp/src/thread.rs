//! The conversation tools, `thread_context` and `thread_send`: thin adapters over
//! `easel_thread`, with the argument names and JSON results of `easel thread context --json`
//! and `easel thread send --json`.
//!
//! They live apart from [`crate::tools`] because `thread_send` needs state the canvas tools do
//! not: a model client that outlives one call (the local model takes a second to load) and the
//! runtime its streams run on.

use crate::error::{ToolError, hint_for_mcp};
use crate::tools::{ToolOutput, ToolSpec, check_arguments, object};
use easel_thread::llm::{Asker, Choices, configured_model};
use easel_thread::{ContextOptions, SendError, Target, load_context};
use easel_vault::Vault;
use easel_vault::canvas::Actor;
use serde_json::json;
use std::sync::Mutex;
use std::sync::atomic::AtomicBool;

/// The conversation tools, in the order clients list them.
pub fn catalogue() -> Vec<ToolSpec> {
    let canvas = json!({"type": "string", "description": "Canvas path relative to the vault, e.g. \"Chats/Ideas.canvas\" ('.canvas' may be left out)."});
    let node = json!({"type": "string", "description": "Id of the node to answer: the last message of the conversation (see canvas_read)."});
    let images = json!({"type": "boolean", "description": "Send image files as image parts, for models that take images (default false: they are skipped with a warning)."});
    let window = json!({"type": "integer", "minimum": 1, "description": "The model's context window in tokens; the context furthest from the node is dropped to fit it."});
    vec![
        ToolSpec {
            name: "thread_context",
            description: "Show what a conversation on a canvas would send to a model for one node, without calling the model. \
A canvas is a branching chat: the node's parents (edges into its top side) up to the root are the conversation, nodes joined at the left or right add context, and frontmatter 'role: system|user|assistant' sets each message's role. \
The result lists the chain of node ids from the root, the messages in order, warnings (missing files, dropped context) and the model that would answer. Use it to check a thread before thread_send.\n\
Example: {\"canvas\": \"Research.canvas\", \"node\": \"4d5e6f708192a3b4\"}",
            schema: object(
                json!({
                    "canvas": canvas.clone(),
                    "node": node.clone(),
                    "model": {"type": "string", "description": "The provider:model to assume when the canvas names none (default: the configured model, usually local:smollm2)."},
                    "images": images.clone(),
                    "context_window": window.clone()
                }),
                &["canvas", "node"],
            ),
            read_only: true,
        },
        ToolSpec {
            name: "thread_send",
            description: "Ask a model about one node of a canvas conversation and write its answer into the canvas: a new node below the one you name, joined by an edge, filled in as the answer streams (people watching the canvas see it grow). \
Put your question in a text node first (canvas_add_node, then canvas_add_edge from the previous message so it continues the conversation), then call this with that node's id. \
The result holds the answer's node and edge ids, the model, the text and the token usage; ask a follow-up by adding a node below the answer and calling thread_send on it. \
The default model is local:smollm2, which runs offline; 'model' picks another.\n\
Example: {\"canvas\": \"Research.canvas\", \"node\": \"4d5e6f708192a3b4\", \"temperature\": 0, \"max_tokens\": 200}",
            schema: object(
                json!({
                    "canvas": canvas,
                    "node": node,
                    "model": {"type": "string", "description": "provider:model, e.g. \"local:smollm2\" or \"openai:gpt-4.1-mini\"; wins over the canvas's own 'model:' (default: the canvas's, then the configured one)."},
                    "temperature": {"type": "number", "minimum": 0, "description": "Sampling temperature; 0 is deterministic. Wins over the canvas's 'temperature:'."},
                    "max_tokens": {"type": "integer", "minimum": 1, "description": "The longest answer, in tokens."},
                    "images": images,
                    "context_window": window
                }),
                &["canvas", "node"],
            ),
            read_only: false,
        },
    ]
}

/// Whether `name` is one of this module's tools.
pub fn handles(name: &str) -> bool {
    matches!(name, "thread_context" | "thread_send")
}

/// The model client of one server, made on the first `thread_send` and then shared by every
/// session, so the local model is loaded once per process.
#[derive(Debug, Default)]
pub struct Models {
    asker: Mutex<Option<Asker>>,
}

impl Models {
    /// The client, made now if this is the first call. A configuration that cannot be read is
    /// reported and not remembered, so fixing the file is enough to try again.
    fn asker(&self, vault: &Vault) -> Result<Asker, ToolError> {
        let mut slot = self.asker.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(a) = slot.as_ref() {
            return Ok(a.clone());
        }
        let rt = tokio::runtime::Handle::try_current().map_err(|_| {
            ToolError::failure("thread_send was called outside the server's runtime")
        })?;
        let asker = Asker::load(vault, rt).map_err(llm_error)?;
        *slot = Some(asker.clone());
        Ok(asker)
    }
}

fn llm_error(e: easel_llm::LlmError) -> ToolError {
    ToolError {
        message: e.to_string(),
        hint: hint_for_mcp(&e.hint()),
        kind: e.kind(),
    }
}

fn send_error(e: SendError) -> ToolError {
    ToolError {
        message: e.to_string(),
        hint: hint_for_mcp(&e.hint()),
        kind: e.kind(),
    }
}

/// Runs `thread_context` or `thread_send`. Blocks (for as long as the model takes): call it on
/// a blocking thread of the server's runtime. Setting `cancel` stops the model and keeps the
/// partial answer, as Ctrl-C does for `easel thread send`.
pub fn call(
    vault: &Vault,
    actor: &Actor,
    models: &Models,
    name: &str,
    arguments: Option<serde_json::Map<String, serde_json::Value>>,
    cancel: &AtomicBool,
) -> Result<ToolOutput, ToolError> {
    let specs = catalogue();
    let Some(spec) = specs.iter().find(|s| s.name == name) else {
        return Err(ToolError::not_found(
            format!("there is no tool named '{name}'"),
            "use thread_context or thread_send",
        ));
    };
    let a = check_arguments(spec, arguments)?;
    let (canvas, node) = (a.str("canvas")?, a.str("node")?);
    let images = a.opt_bool("images")?.unwrap_or(false);
    let context_window = a.opt_count("context_window")?;
    match spec.name {
        "thread_context" => {
            let default_model = match a.opt_str("model")? {
                Some(m) => m,
                None => configured_model(vault).map_err(llm_error)?,
            };
            let options = ContextOptions {
                default_model,
                images,
                context_window,
            };
            let ctx = load_context(vault, &canvas, &node, &options).map_err(send_error)?;
            ToolOutput::of(&ctx)
        }
        _ => {
            let temperature = match a.opt_num("temperature")?.and_then(|v| v.as_f64()) {
                Some(t) if t.is_finite() && t >= 0.0 => Some(t as f32),
                Some(_) => {
                    return Err(a.bad(
                        "'temperature' must be a number of at least 0".into(),
                        "pass \"temperature\": 0 for a deterministic answer".into(),
                    ));
                }
                None => None,
            };
            let max_tokens = a
                .opt_count("max_tokens")?
                .map(|n| u32::try_from(n).unwrap_or(u32::MAX));
            let choices = Choices {
                model: a.opt_str("model")?,
                temperature,
                max_tokens,
                images,
                context_window,
            };
            let asker = models.asker(vault)?;
            let target = Target {
                vault,
                actor,
                canvas: &canvas,
                node: &node,
            };
            let sent = asker
                .send(target, &choices, cancel, &mut |_| {})
                .map_err(send_error)?;
            ToolOutput::of(&sent)
        }
    }
}
