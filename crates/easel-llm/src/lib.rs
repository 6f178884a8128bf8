//! Models for Easel: one request type and one event stream for every provider, local or remote.
//!
//! A model is named `provider:model`: `local:smollm2` (the embedded default, run in-process by
//! llama.cpp), `ollama:llama3.1`, `openai:gpt-4.1-mini`, `anthropic:claude-sonnet-4-5`,
//! `openrouter:<id>`, `openai-compat:<id>`, `lmstudio:<id>`.
//!
//! ```no_run
//! use easel_llm::{Config, Event, Llm, Request};
//! use futures_util::StreamExt;
//!
//! # async fn demo() -> Result<(), easel_llm::LlmError> {
//! let llm = Llm::new(Config::load(None)?);
//! let mut req = Request::prompt("What is 2+2? Answer in one sentence.");
//! req.sampling.temperature = Some(0.0);
//! let mut events = llm.stream(Some("local:smollm2"), req).await?;
//! while let Some(ev) = events.next().await {
//!     if let Event::TextDelta { text } = ev? {
//!         print!("{text}");
//!     }
//! }
//! // Dropping `events` early would have cancelled the generation.
//! # Ok(()) }
//! ```

mod client;
pub mod config;
mod error;
pub mod fetch;
pub mod http;
#[cfg(feature = "local-llm")]
pub mod local;
pub mod ops;
pub mod providers;
#[cfg(feature = "local-llm")]
pub mod serve;
mod stream;
pub mod textgen;
mod types;

pub use client::{Llm, ProviderListing};
pub use config::{Config, DEFAULT_MODEL, KeepAlive, ModelName, PROVIDERS};
pub use error::{ErrorKind, LlmError, Result};
pub use stream::EventStream;
pub use types::{
    Event, FinishReason, Message, Part, Request, Response, Role, Sampling, Tool, ToolCall,
    ToolChoice, Usage,
};
