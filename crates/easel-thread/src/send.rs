//! Asking a model about a node and writing the answer into the canvas as it streams
//! (DESIGN.md section 8.8). The model itself is the caller's: this module only needs a stream of
//! text pieces, so it works with every provider and is tested without one.

use crate::response::{REWRITE_INTERVAL, ResponseError, ResponseWriter, UNREADABLE_PATIENCE};
use crate::source::VaultFiles;
use crate::{Context, ContextOptions, ThreadError, build_context};
use easel_vault::Vault;
use easel_vault::canvas::{Actor, CanvasOpError, load_canvas};
use serde::Serialize;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// A piece of the model's answer.
#[derive(Clone, Debug, PartialEq)]
pub enum Piece {
    Text(String),
    /// Token counts (and whatever else the provider reports), shown in `--json` output.
    Usage(serde_json::Value),
}

/// Why the model could not answer, with what to do about it.
#[derive(Clone, Debug, PartialEq)]
pub struct ModelFailure {
    pub error: String,
    pub hint: String,
}

/// What a send produced.
#[derive(Clone, Debug, Serialize)]
pub struct Sent {
    /// The answer node's id.
    pub node: String,
    /// The edge from the target to the answer.
    pub edge: String,
    pub model: String,
    pub text: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub usage: Option<serde_json::Value>,
    /// Whether the answer was cancelled before it was complete.
    pub partial: bool,
    /// The run of the answer's ledger entry: `easel undo --run RUN` takes the answer back.
    pub run: String,
    /// Warnings from building the context (dropped context, missing files, …).
    pub warnings: Vec<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum SendError {
    #[error(transparent)]
    Canvas(#[from] CanvasOpError),
    #[error(transparent)]
    Thread(#[from] ThreadError),
    #[error(transparent)]
    Response(#[from] ResponseError),
    /// The model failed; the answer node has become an error card.
    #[error("{}", .0.error)]
    Model(ModelFailure),
}

impl SendError {
    pub fn hint(&self) -> String {
        match self {
            SendError::Canvas(e) => e.hint(),
            SendError::Thread(e) => e.hint(),
            SendError::Response(e) => e.hint(),
            SendError::Model(f) => f.hint.clone(),
        }
    }

    pub fn kind(&self) -> easel_vault::ErrorKind {
        match self {
            SendError::Canvas(e) => e.kind(),
            SendError::Thread(_) => easel_vault::ErrorKind::NotFound,
            SendError::Response(e) => e.kind(),
            SendError::Model(_) => easel_vault::ErrorKind::Failure,
        }
    }
}

/// The node to answer.
#[derive(Clone, Copy, Debug)]
pub struct Target<'a> {
    pub vault: &'a Vault,
    pub actor: &'a Actor,
    pub canvas: &'a str,
    pub node: &'a str,
}

/// How to send.
#[derive(Clone, Debug)]
pub struct SendOptions {
    pub context: ContextOptions,
    /// A model that wins over the canvas's `model:` (an explicit choice of the caller).
    pub model: Option<String>,
    /// The shortest time between two rewrites of the streaming answer (250 ms).
    pub interval: Duration,
    /// How long the last write waits for a canvas that cannot be read (10 s).
    pub patience: Duration,
}

impl Default for SendOptions {
    fn default() -> SendOptions {
        SendOptions {
            context: ContextOptions::default(),
            model: None,
            interval: REWRITE_INTERVAL,
            patience: UNREADABLE_PATIENCE,
        }
    }
}

/// Reads `canvas` from the vault and builds the context of `node` (see [`build_context`]).
pub fn load_context(
    vault: &Vault,
    canvas: &str,
    node: &str,
    options: &ContextOptions,
) -> Result<Context, SendError> {
    let (_, c, _) = load_canvas(vault, canvas)?;
    Ok(build_context(&c, node, &VaultFiles { vault }, options)?)
}

/// Builds the context of `node`, creates the answer node at once, then calls `ask` with the
/// context and writes what it streams into the node (at most every 250 ms, under the lock).
/// A moment when the canvas cannot be read (another program is rewriting it) only delays the
/// next write. The node is marked `partial: true` until the complete answer is written, and
/// the ledger gets one entry for the whole answer (see [`ResponseWriter`]).
///
/// `on_text` sees every text piece as it arrives (the CLI prints them). Setting `cancel` stops
/// reading the stream, drops it (which cancels the request) and keeps the partial answer with
/// `partial: true`. When `ask` or the stream fails, the node becomes an error card and the
/// error is returned.
pub fn send<S>(
    target: Target<'_>,
    options: &SendOptions,
    cancel: &AtomicBool,
    ask: impl FnOnce(&Context) -> Result<S, ModelFailure>,
    on_text: &mut dyn FnMut(&str),
) -> Result<Sent, SendError>
where
    S: Iterator<Item = Result<Piece, ModelFailure>>,
{
    send_with_start(target, options, cancel, ask, &mut |_| {}, on_text)
}

/// Where an answer is being written, as soon as its node exists (before the model is asked).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AnswerStarted<'a> {
    /// The answer node's id.
    pub node: &'a str,
    /// The id of the edge from the asked node to the answer.
    pub edge: &'a str,
    /// The model that answers.
    pub model: &'a str,
}

/// [`send`], also telling `on_start` where the answer goes, so a viewer can show the text as
/// it streams, before the next write of the node.
pub fn send_with_start<S>(
    target: Target<'_>,
    options: &SendOptions,
    cancel: &AtomicBool,
    ask: impl FnOnce(&Context) -> Result<S, ModelFailure>,
    on_start: &mut dyn FnMut(AnswerStarted<'_>),
    on_text: &mut dyn FnMut(&str),
) -> Result<Sent, SendError>
where
    S: Iterator<Item = Result<Piece, ModelFailure>>,
{
    let Target {
        vault,
        actor,
        canvas,
        node,
    } = target;
    let mut context = load_context(vault, canvas, node, &options.context)?;
    if let Some(model) = &options.model {
        context.model.clone_from(model);
    }
    let mut writer = ResponseWriter::start(vault, actor, canvas, node, &context.model)?
        .with_interval(options.interval)
        .with_patience(options.patience);
    let (node_id, edge_id) = (writer.node_id().to_owned(), writer.edge_id().to_owned());
    on_start(AnswerStarted {
        node: &node_id,
        edge: &edge_id,
        model: &context.model,
    });
    let run = writer.run().to_owned();
    let mut text = String::new();
    let mut usage = None;
    let failure = match ask(&context) {
        Err(f) => Some(f),
        Ok(stream) => {
            let mut failed = None;
            for piece in stream {
                if cancel.load(Ordering::Relaxed) {
                    break;
                }
                match piece {
                    Ok(Piece::Text(t)) => {
                        on_text(&t);
                        text.push_str(&t);
                        writer.update(text.trim_start())?;
                    }
                    Ok(Piece::Usage(u)) => usage = Some(u),
                    Err(f) => {
                        failed = Some(f);
                        break;
                    }
                }
            }
            failed
        }
    };
    let partial = cancel.load(Ordering::Relaxed);
    let answer = text.trim().to_owned();
    if let Some(f) = failure {
        // What arrived before the failure is kept in the card, so nothing is lost.
        let error = if answer.is_empty() {
            f.error.clone()
        } else {
            format!("{}\n\nThe answer so far:\n\n{answer}", f.error)
        };
        writer.fail(&error, &f.hint)?;
        return Err(SendError::Model(f));
    }
    if partial {
        writer.cancel(&answer)?;
    } else {
        writer.finish(&answer)?;
    }
    Ok(Sent {
        node: node_id,
        edge: edge_id,
        model: context.model,
        text: answer,
        usage,
        partial,
        run,
        warnings: context.warnings,
    })
}
