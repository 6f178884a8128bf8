//! Conversations answered by `easel-llm`: resolving the model, streaming its answer into the
//! canvas, cancelling. The CLI (`easel thread send|watch|context`) and the MCP tools
//! (`thread_send`, `thread_context`) both go through [`Asker`], so they pick the same model and
//! write the same answer.
//!
//! [`crate::send`] stays model-agnostic (it takes any stream of [`Piece`]s); this module is the
//! one place that knows how an `easel_llm` event stream becomes those pieces. Whether the
//! embedded model is available is decided by the `local-llm` feature of `easel-llm`, which this
//! crate's own `local-llm` feature passes through.

use crate::send::{ModelFailure, Piece, SendError, SendOptions, Sent, Target};
use crate::{Context, ContextOptions, Message, Part};
use easel_llm::ops::Models;
use easel_llm::{Config, Event, Llm, LlmError, Request};
use easel_vault::Vault;
use futures_util::StreamExt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use tokio::runtime::Handle;

/// How often a quiet stream is woken to look at the cancel flag, so that cancelling stops a
/// model that has stopped sending (a slow first token, a stalled connection) promptly.
const CANCEL_POLL: Duration = Duration::from_millis(200);

/// The caller's choices for one turn. Each one that is set wins over the canvas's own
/// frontmatter (`model:`, `temperature:`, `max_tokens:` of the first system node).
#[derive(Clone, Debug, Default)]
pub struct Choices {
    /// `provider:model`.
    pub model: Option<String>,
    pub temperature: Option<f32>,
    pub max_tokens: Option<u32>,
    /// Send image files as image parts (for models that take images).
    pub images: bool,
    /// The model's context window in tokens; context is dropped to fit it.
    pub context_window: Option<usize>,
}

/// The configured default model for `vault`: `EASEL_MODEL`, then `.easel/config.toml`, then
/// `~/.config/easel/config.toml`, then `local:smollm2`.
pub fn configured_model(vault: &Vault) -> Result<String, LlmError> {
    Ok(Config::load(Some(vault.root()))?.default_model)
}

/// A configured model client bound to a tokio runtime. Keep one for as long as the process
/// answers questions: the local model is loaded on first use and then reused.
///
/// The methods block; call them from a thread that may block (a plain thread, or
/// `spawn_blocking`), never from an async task.
#[derive(Clone, Debug)]
pub struct Asker {
    llm: Arc<Llm>,
    rt: Runner,
}

/// Where the model's futures run: a runtime the caller owns, or the one of the operations'
/// shared model client.
#[derive(Clone)]
enum Runner {
    Handle(Handle),
    Models(Arc<Models>),
}

impl std::fmt::Debug for Runner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Runner::Handle(_) => "Runner::Handle",
            Runner::Models(_) => "Runner::Models",
        })
    }
}

impl Runner {
    fn block_on<F: std::future::Future>(&self, fut: F) -> Result<F::Output, ModelFailure> {
        match self {
            Runner::Handle(h) => Ok(h.block_on(fut)),
            Runner::Models(m) => m.block_on(fut).map_err(|e| ModelFailure {
                error: e.message,
                hint: e.hint,
            }),
        }
    }
}

impl Asker {
    /// Reads the configuration of `vault` (see [`configured_model`]) and runs streams on `rt`.
    pub fn load(vault: &Vault, rt: Handle) -> Result<Asker, LlmError> {
        Ok(Asker::new(Llm::new(Config::load(Some(vault.root()))?), rt))
    }

    pub fn new(llm: Llm, rt: Handle) -> Asker {
        Asker {
            llm: Arc::new(llm),
            rt: Runner::Handle(rt),
        }
    }

    /// A client on the operations' shared model client and its runtime (see
    /// [`easel_llm::ops::Models`]), so `thread_send` and `llm_ask` load the local model once.
    pub fn shared(llm: Arc<Llm>, models: Arc<Models>) -> Asker {
        Asker {
            llm,
            rt: Runner::Models(models),
        }
    }

    pub fn llm(&self) -> &Llm {
        &self.llm
    }

    /// Asks the model about `target.node` and streams the answer into a new node below it
    /// (see [`crate::send`]). `on_text` sees each piece of text as it arrives; setting `cancel`
    /// stops the model and keeps the partial answer.
    pub fn send(
        &self,
        target: Target<'_>,
        choices: &Choices,
        cancel: &AtomicBool,
        on_text: &mut dyn FnMut(&str),
    ) -> Result<Sent, SendError> {
        self.send_with_start(target, choices, cancel, &mut |_| {}, on_text)
    }

    /// [`Asker::send`], also telling `on_start` where the answer goes as soon as its node exists.
    pub fn send_with_start(
        &self,
        target: Target<'_>,
        choices: &Choices,
        cancel: &AtomicBool,
        on_start: &mut dyn FnMut(crate::AnswerStarted<'_>),
        on_text: &mut dyn FnMut(&str),
    ) -> Result<Sent, SendError> {
        let mut options = self.send_options(choices);
        if options.context.context_window.is_none() {
            options.context.context_window = self.server_window(&target, choices, &options);
        }
        crate::send_with_start(
            target,
            &options,
            cancel,
            |ctx| self.ask(ctx, choices, cancel),
            on_start,
            on_text,
        )
    }

    /// The context window the answering model's server reports (Ollama's `/api/show`), so a
    /// long conversation is cut to what the model can read instead of being cut by the server.
    /// `None` when the server does not say or cannot be asked (the request then reports why).
    fn server_window(
        &self,
        target: &Target<'_>,
        choices: &Choices,
        options: &SendOptions,
    ) -> Option<usize> {
        // The model that will answer: the caller's, else the canvas's `model:`, else the default.
        let model = match &choices.model {
            Some(m) => m.clone(),
            None => {
                crate::load_context(target.vault, target.canvas, target.node, &options.context)
                    .ok()?
                    .model
            }
        };
        match self.rt.block_on(self.llm.context_window(Some(&model))) {
            Ok(Ok(w)) => w.and_then(|w| usize::try_from(w).ok()),
            Ok(Err(e)) => {
                tracing::debug!(model, error = %e, "no context window from the server");
                None
            }
            Err(f) => {
                tracing::debug!(model, error = f.error, "no context window from the server");
                None
            }
        }
    }

    fn send_options(&self, choices: &Choices) -> SendOptions {
        SendOptions {
            context: ContextOptions {
                default_model: self.llm.config().default_model.clone(),
                images: choices.images,
                context_window: choices.context_window,
            },
            model: choices.model.clone(),
            ..SendOptions::default()
        }
    }

    fn ask<'a>(
        &'a self,
        ctx: &Context,
        choices: &Choices,
        cancel: &'a AtomicBool,
    ) -> Result<impl Iterator<Item = Result<Piece, ModelFailure>> + use<'a>, ModelFailure> {
        let mut req = Request {
            messages: ctx.messages.iter().map(to_llm_message).collect(),
            ..Request::default()
        };
        req.sampling.temperature = choices.temperature.or(ctx.temperature.map(|t| t as f32));
        req.max_tokens = choices
            .max_tokens
            .or(ctx.max_tokens.and_then(|t| u32::try_from(t).ok()));
        let mut stream = self
            .rt
            .block_on(self.llm.stream(Some(&ctx.model), req))?
            .map_err(failure)?;
        Ok(std::iter::from_fn(move || {
            loop {
                if cancel.load(Ordering::Relaxed) {
                    // Returning ends the iteration; `send` then drops the stream, which stops
                    // the request or the local generation.
                    return None;
                }
                let next = self
                    .rt
                    .block_on(async { tokio::time::timeout(CANCEL_POLL, stream.next()).await });
                let next = match next {
                    Ok(next) => next,
                    Err(f) => return Some(Err(f)),
                };
                match next {
                    Err(_) => continue,
                    Ok(None) => return None,
                    Ok(Some(Err(e))) => return Some(Err(failure(e))),
                    Ok(Some(Ok(Event::TextDelta { text }))) => return Some(Ok(Piece::Text(text))),
                    Ok(Some(Ok(Event::Usage { usage }))) => {
                        return Some(Ok(Piece::Usage(
                            serde_json::to_value(usage).unwrap_or_default(),
                        )));
                    }
                    // Reasoning, tool calls (none are offered) and the finish reason are not
                    // part of the answer text.
                    Ok(Some(Ok(_))) => continue,
                }
            }
        }))
    }
}

fn failure(e: LlmError) -> ModelFailure {
    ModelFailure {
        error: e.to_string(),
        hint: e.hint(),
    }
}

fn to_llm_message(m: &Message) -> easel_llm::Message {
    let role = m.role;
    let parts = m
        .parts
        .iter()
        .map(|p| match p {
            Part::Text(text) => easel_llm::Part::Text { text: text.clone() },
            Part::Image {
                media_type, bytes, ..
            } => easel_llm::Part::Image {
                media_type: media_type.clone(),
                data: bytes.clone(),
            },
        })
        .collect();
    easel_llm::Message {
        role,
        parts,
        tool_calls: Vec::new(),
        tool_call_id: None,
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn every_role_and_part_maps_to_the_model_message() {
        let m = Message {
            role: easel_llm::Role::Assistant,
            parts: vec![
                Part::Text("hello".into()),
                Part::Image {
                    media_type: "image/png".into(),
                    bytes: vec![1, 2, 3],
                    path: "a.png".into(),
                },
            ],
            node: "n".into(),
            origin: crate::Origin::Chain,
            distance: 0,
        };
        let out = to_llm_message(&m);
        assert_eq!(out.role, easel_llm::Role::Assistant);
        assert_eq!(
            out.parts,
            vec![
                easel_llm::Part::Text {
                    text: "hello".into()
                },
                easel_llm::Part::Image {
                    media_type: "image/png".into(),
                    data: vec![1, 2, 3]
                }
            ]
        );
    }
}
