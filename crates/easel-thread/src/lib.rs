//! Canvas conversations: a canvas is a branching chat. Walk up from a node, collect its
//! context, and get the messages to send to a model (DESIGN.md section 8).
//!
//! ```
//! use easel_canvas::Canvas;
//! use easel_thread::{ContextOptions, MemoryFiles, build_context};
//!
//! let canvas = Canvas::parse(r#"{"nodes":[
//!   {"id":"sys","type":"text","text":"---\nrole: system\n---\nBe brief.","x":0,"y":0,"width":250,"height":60},
//!   {"id":"q","type":"text","text":"What is a canvas?","x":0,"y":200,"width":250,"height":60}],
//!  "edges":[{"id":"e","fromNode":"sys","fromSide":"bottom","toNode":"q","toSide":"top"}]}"#)?;
//! let ctx = build_context(&canvas, "q", &MemoryFiles::default(), &ContextOptions::default())?;
//! assert_eq!(ctx.chain, ["sys", "q"]);
//! assert_eq!(ctx.messages[0].text(), "Be brief.");
//! assert_eq!(ctx.messages[1].text(), "What is a canvas?");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod ask;
mod content;
pub mod llm;
mod messages;
pub mod ops;
mod response;
mod send;
mod source;
mod walk;
mod watch;

pub use ask::{ASK_MARKER, ask_markers, asks, strip_ask_marker, take_ask};
pub use content::{ContentOptions, NodeContent, Part, Role, Settings, node_content};
pub use messages::{Message, Origin, assemble, fit};
pub use ops::{ThreadContext, ThreadContextInput, ThreadSend, ThreadSendInput, register};
pub use response::{
    ANSWER_COLOR, ERROR_COLOR, REWRITE_INTERVAL, ResponseError, ResponseWriter,
    UNREADABLE_PATIENCE, answer_rect, answer_text, error_text, fit_height,
};
pub use send::{
    AnswerStarted, ModelFailure, Piece, SendError, SendOptions, Sent, Target, load_context, send,
    send_with_start,
};
pub use source::{FileContent, FileProblem, FileSource, MemoryFiles, VaultFiles, image_media_type};
pub use walk::{Index, Walk, walk};
pub use watch::{AnswerFailure, Answerer, WatchError, WatchEvent, WatchOptions, watch};

use easel_canvas::Canvas;
use serde::Serialize;

/// The model used when neither the canvas nor the configuration names one.
pub const DEFAULT_MODEL: &str = "local:smollm2";

#[derive(Clone, Debug)]
pub struct ContextOptions {
    /// The configured model, used unless the first system node names another.
    pub default_model: String,
    /// Whether image files become image parts (otherwise they are skipped with a warning).
    pub images: bool,
    /// The model's context window in tokens; messages are dropped to fit it.
    pub context_window: Option<usize>,
}

impl Default for ContextOptions {
    fn default() -> ContextOptions {
        ContextOptions {
            default_model: DEFAULT_MODEL.to_owned(),
            images: false,
            context_window: None,
        }
    }
}

/// Everything needed to ask a model about a node.
#[derive(Clone, Debug, Serialize)]
pub struct Context {
    /// Node ids from the root to the target.
    pub chain: Vec<String>,
    pub messages: Vec<Message>,
    pub warnings: Vec<String>,
    /// The model to ask: the first system node's `model:`, else the configured default.
    pub model: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub temperature: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_tokens: Option<u64>,
}

#[derive(Debug, thiserror::Error)]
pub enum ThreadError {
    #[error("node '{0}' does not exist in this canvas")]
    NodeNotFound(String),
}

impl ThreadError {
    pub fn kind(&self) -> easel_vault::ErrorKind {
        match self {
            ThreadError::NodeNotFound(_) => easel_vault::ErrorKind::NotFound,
        }
    }

    pub fn hint(&self) -> String {
        match self {
            ThreadError::NodeNotFound(_) => {
                "read the canvas to see its node ids (`canvas_read`)".into()
            }
        }
    }
}

/// Walks the canvas up from `target` and builds the messages to send.
pub fn build_context(
    canvas: &Canvas,
    target: &str,
    files: &dyn FileSource,
    options: &ContextOptions,
) -> Result<Context, ThreadError> {
    let index = Index::new(canvas);
    let node = index
        .node(target)
        .ok_or_else(|| ThreadError::NodeNotFound(target.to_owned()))?;
    let mut warnings = Vec::new();
    let mut warn = |m: String| warnings.push(m);
    let w = walk(&index, node, &mut warn);
    let (mut messages, settings) = assemble(
        &w,
        files,
        ContentOptions {
            images: options.images,
        },
        &mut warn,
    );
    if let Some(window) = options.context_window {
        fit(&mut messages, window, target, &mut warn);
    }
    Ok(Context {
        chain: w.chain.iter().map(|n| n.id().to_owned()).collect(),
        messages,
        warnings,
        model: settings
            .model
            .unwrap_or_else(|| options.default_model.clone()),
        temperature: settings.temperature,
        max_tokens: settings.max_tokens,
    })
}
