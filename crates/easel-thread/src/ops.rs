//! The conversation operations, `thread_context` and `thread_send`, as the catalogue lists them:
//! the shell (`easel thread context|send`), MCP and HTTP all run these two.

use crate::llm::{Asker, Choices, configured_model};
use crate::send::{SendError, Sent, Target};
use crate::{Context, ContextOptions, ThreadError, load_context};
use easel_llm::ops::Models;
use easel_ops::{Ctx, Effect, Op, OpError, OpEvent, Registry};
use schemars::JsonSchema;
use serde::Deserialize;
use std::sync::Arc;

impl From<SendError> for OpError {
    fn from(e: SendError) -> OpError {
        OpError::new(e.kind(), e.to_string(), e.hint())
    }
}

impl From<ThreadError> for OpError {
    fn from(e: ThreadError) -> OpError {
        OpError::new(e.kind(), e.to_string(), e.hint())
    }
}

/// `thread_context`'s input.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ThreadContextInput {
    /// Canvas path relative to the vault, e.g. "Chats/Ideas.canvas" ('.canvas' may be left out).
    pub canvas: String,
    /// Id of the node to answer: the last message of the conversation (see canvas_read).
    pub node: String,
    /// The provider:model to assume when the canvas names none (default: the configured model, usually local:smollm2).
    #[serde(default)]
    pub model: Option<String>,
    /// Send image files as image parts, for models that take images (default false: they are skipped with a warning).
    #[serde(default)]
    pub images: Option<bool>,
    /// The model's context window in tokens; the context furthest from the node is dropped to fit it.
    #[serde(default)]
    #[schemars(range(min = 1))]
    pub context_window: Option<usize>,
}

/// Show what a node of a canvas conversation sends to a model.
#[derive(Debug, Default)]
pub struct ThreadContext;

impl Op for ThreadContext {
    type Input = ThreadContextInput;
    type Output = Context;
    const NAME: &'static str = "thread_context";
    const TITLE: &'static str = "Show what a canvas conversation sends";
    const DESCRIPTION: &'static str = "Show what a conversation on a canvas would send to a model for one node, without calling the model. \
A canvas is a branching chat: the node's parents (edges into its top side) up to the root are the conversation, nodes joined at the left or right add context, and frontmatter 'role: system|user|assistant' sets each message's role. \
The result lists the chain of node ids from the root, the messages in order, warnings (missing files, dropped context) and the model that would answer. Use it to check a thread before thread_send.\n\
Example: {\"canvas\": \"Research.canvas\", \"node\": \"4d5e6f708192a3b4\"}";
    const EFFECT: Effect = Effect::Read;

    fn run(&self, ctx: &Ctx, input: ThreadContextInput) -> Result<Context, OpError> {
        check_window(input.context_window)?;
        let default_model = match input.model {
            Some(m) => m,
            None => configured_model(ctx.vault())?,
        };
        let options = ContextOptions {
            default_model,
            images: input.images.unwrap_or(false),
            context_window: input.context_window,
        };
        Ok(load_context(
            ctx.vault(),
            &input.canvas,
            &input.node,
            &options,
        )?)
    }
}

/// `thread_send`'s input.
#[derive(Clone, Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ThreadSendInput {
    /// Canvas path relative to the vault, e.g. "Chats/Ideas.canvas" ('.canvas' may be left out).
    pub canvas: String,
    /// Id of the node to answer: the last message of the conversation (see canvas_read).
    pub node: String,
    /// provider:model, e.g. "local:smollm2" or "openai:gpt-4.1-mini"; wins over the canvas's own 'model:' (default: the canvas's, then the configured one).
    #[serde(default)]
    pub model: Option<String>,
    /// Sampling temperature; 0 is deterministic. Wins over the canvas's 'temperature:'.
    #[serde(default)]
    #[schemars(range(min = 0.0))]
    pub temperature: Option<f32>,
    /// The longest answer, in tokens.
    #[serde(default)]
    #[schemars(range(min = 1))]
    pub max_tokens: Option<u32>,
    /// Send image files as image parts, for models that take images (default false: they are skipped with a warning).
    #[serde(default)]
    pub images: Option<bool>,
    /// The model's context window in tokens; the context furthest from the node is dropped to fit it.
    #[serde(default)]
    #[schemars(range(min = 1))]
    pub context_window: Option<usize>,
}

/// Ask a model about a node of a canvas and write its answer below it.
#[derive(Debug, Default)]
pub struct ThreadSend {
    models: Arc<Models>,
}

impl ThreadSend {
    /// Sharing the model client (and the loaded local model) with other operations.
    pub fn new(models: Arc<Models>) -> ThreadSend {
        ThreadSend { models }
    }
}

impl Op for ThreadSend {
    type Input = ThreadSendInput;
    type Output = Sent;
    const NAME: &'static str = "thread_send";
    const TITLE: &'static str = "Ask a model on a canvas";
    const DESCRIPTION: &'static str = "Ask a model about one node of a canvas conversation and write its answer into the canvas: a new node below the one you name, joined by an edge, filled in as the answer streams (people watching the canvas see it grow). \
Put your question in a text node first (canvas_add_node, then canvas_add_edge from the previous message so it continues the conversation), then call this with that node's id. \
The result holds the answer's node and edge ids, the model, the text, the token usage and the run (ledger_undo with that run takes the answer back); ask a follow-up by adding a node below the answer and calling thread_send on it. \
The default model is local:smollm2, which runs offline; 'model' picks another.\n\
Example: {\"canvas\": \"Research.canvas\", \"node\": \"4d5e6f708192a3b4\", \"temperature\": 0, \"max_tokens\": 200}";
    const EFFECT: Effect = Effect::External;

    fn run(&self, ctx: &Ctx, input: ThreadSendInput) -> Result<Sent, OpError> {
        if input.temperature.is_some_and(|t| !t.is_finite() || t < 0.0) {
            return Err(OpError::invalid(
                "'temperature' must be a number of at least 0",
                "pass 0 for a deterministic answer, about 0.7 for variety",
            ));
        }
        if input.max_tokens == Some(0) {
            return Err(OpError::invalid(
                "'max_tokens' must be at least 1",
                "leave it out for the model's own limit",
            ));
        }
        check_window(input.context_window)?;
        let asker = Asker::shared(self.models.llm(ctx)?, self.models.clone());
        let choices = Choices {
            model: input.model,
            temperature: input.temperature,
            max_tokens: input.max_tokens,
            images: input.images.unwrap_or(false),
            context_window: input.context_window,
        };
        let actor = ctx.canvas_actor();
        let target = Target {
            vault: ctx.vault(),
            actor: &actor,
            canvas: &input.canvas,
            node: &input.node,
        };
        let cancel = ctx.cancel().flag();
        let mut on_text = |t: &str| {
            if ctx.wants_events() {
                ctx.emit(OpEvent::Data(
                    serde_json::json!({"type": "text_delta", "delta": t}),
                ));
            }
        };
        // A viewer learns where the answer goes before the first token, so it can show the
        // text as it streams instead of waiting for the node's next write.
        let mut on_start = |a: crate::AnswerStarted<'_>| {
            if ctx.wants_events() {
                ctx.emit(OpEvent::Data(serde_json::json!({
                    "type": "answer_started", "canvas": &input.canvas,
                    "node": a.node, "edge": a.edge, "model": a.model,
                })));
            }
        };
        Ok(asker.send_with_start(target, &choices, &cancel, &mut on_start, &mut on_text)?)
    }
}

fn check_window(window: Option<usize>) -> Result<(), OpError> {
    if window == Some(0) {
        return Err(OpError::invalid(
            "'context_window' must be at least 1",
            "leave it out to send the whole conversation",
        ));
    }
    Ok(())
}

/// Adds `thread_context` and `thread_send` to `registry`; `thread_send` uses `models`, so that
/// it shares the model client (and the loaded local model) with `llm_ask`.
pub fn register(registry: &mut Registry, models: Arc<Models>) {
    registry
        .register(ThreadContext)
        .register(ThreadSend::new(models));
}
