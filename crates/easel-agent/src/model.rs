//! The model an agent talks to: one call of the conversation so far, its text streamed as it
//! comes, its tool calls gathered. The runner knows only [`Model`]; [`LlmModel`] is the real
//! one over `easel-llm` (every provider, and the embedded model).

use easel_llm::ops::Models;
use easel_llm::{Event, Llm, Request, Response};
use futures_util::StreamExt;
use std::sync::Arc;

/// Why a model call failed, in words for people, with what to do next.
#[derive(Clone, Debug, PartialEq)]
pub struct ModelFailure {
    pub message: String,
    pub hint: String,
}

/// One model call.
pub trait Model: Send + Sync {
    /// The model used when an agent names none.
    fn default_model(&self) -> String;
    /// Sends `req` to `model` (`provider:name`); `on_text` gets each piece of text as it
    /// comes. Returns the whole answer.
    fn respond(
        &self,
        model: &str,
        req: Request,
        on_text: &mut dyn FnMut(&str),
    ) -> Result<Response, ModelFailure>;
}

/// The models of `easel-llm`, on the runtime of the operations' shared model client, so the
/// embedded model is loaded once per process.
pub struct LlmModel {
    llm: Arc<Llm>,
    models: Arc<Models>,
}

impl LlmModel {
    pub fn new(llm: Arc<Llm>, models: Arc<Models>) -> LlmModel {
        LlmModel { llm, models }
    }
}

impl Model for LlmModel {
    fn default_model(&self) -> String {
        self.llm.config().default_model.clone()
    }

    fn respond(
        &self,
        model: &str,
        req: Request,
        on_text: &mut dyn FnMut(&str),
    ) -> Result<Response, ModelFailure> {
        let failure = |e: easel_llm::LlmError| ModelFailure {
            message: e.to_string(),
            hint: e.hint(),
        };
        let op_failure = |e: easel_ops::OpError| ModelFailure {
            message: e.to_string(),
            hint: e.hint.clone(),
        };
        self.models
            .block_on(async {
                let mut stream = self.llm.stream(Some(model), req).await.map_err(failure)?;
                let mut response = Response::default();
                while let Some(event) = stream.next().await {
                    let event = event.map_err(failure)?;
                    if let Event::TextDelta { text } = &event {
                        on_text(text);
                    }
                    response.apply(&event);
                }
                Ok(response)
            })
            .map_err(op_failure)?
    }
}
