//! The model operations: `llm_list` (which providers and models can be used) and `llm_ask` (one
//! prompt, one answer, streamed as events).

use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Instant;

use easel_ops::{Ctx, Effect, Op, OpError, OpEvent};
use futures_util::StreamExt;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::{Config, Event, Llm, LlmError, Message, ProviderListing, Request, Response};

impl From<LlmError> for OpError {
    fn from(e: LlmError) -> OpError {
        OpError::new(e.kind(), e.to_string(), e.hint())
    }
}

/// The model client of a vault and the runtime its calls run on, made on first use and kept, so
/// the local model loads once per process.
#[derive(Default)]
pub struct Models {
    runtime: OnceLock<std::result::Result<tokio::runtime::Runtime, String>>,
    llm: Mutex<Option<(PathBuf, Arc<Llm>)>>,
}

impl std::fmt::Debug for Models {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Models").finish_non_exhaustive()
    }
}

impl Models {
    /// The client for the vault of `ctx`, configured from its `.easel/config.toml`.
    pub fn llm(&self, ctx: &Ctx) -> Result<Arc<Llm>, OpError> {
        let root = ctx.vault().root().to_path_buf();
        let mut slot = self.llm.lock().unwrap_or_else(|p| p.into_inner());
        if let Some((r, llm)) = slot.as_ref()
            && *r == root
        {
            return Ok(llm.clone());
        }
        let llm = Arc::new(Llm::new(Config::load(Some(&root))?));
        *slot = Some((root, llm.clone()));
        Ok(llm)
    }

    /// Runs `fut` to completion on this value's runtime. Operations run on plain or blocking
    /// threads, never inside an async task, so blocking here is allowed.
    pub fn block_on<F: std::future::Future>(&self, fut: F) -> Result<F::Output, OpError> {
        let rt = self.runtime.get_or_init(|| {
            tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .thread_name("easel-llm")
                .enable_all()
                .build()
                .map_err(|e| e.to_string())
        });
        match rt {
            Ok(rt) => Ok(rt.block_on(fut)),
            Err(e) => Err(OpError::failure(format!(
                "cannot start the model runtime: {e}"
            ))),
        }
    }
}

/// `llm_list`'s input: none.
#[derive(Clone, Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LlmListInput {}

/// `llm_list`'s output.
#[derive(Clone, Debug, Serialize)]
pub struct LlmListOutput {
    /// Every provider, whether it can be used as configured, and its models.
    pub providers: Vec<ProviderListing>,
    /// The model used when none is named.
    pub default_model: String,
}

/// List the model providers and their models.
#[derive(Debug, Default)]
pub struct LlmList {
    models: Arc<Models>,
}

impl LlmList {
    /// Sharing the model client (and the loaded local model) with other operations.
    pub fn new(models: Arc<Models>) -> LlmList {
        LlmList { models }
    }
}

impl Op for LlmList {
    type Input = LlmListInput;
    type Output = LlmListOutput;
    const NAME: &'static str = "llm_list";
    const TITLE: &'static str = "List models";
    const DESCRIPTION: &'static str = "List the model providers (local, ollama, openai, anthropic, openrouter, openai-compat), whether each can be used as configured, and their models as provider:model names. \
Use it to pick the 'model' for llm_ask or thread_send.\n\
Example: {}";
    const EFFECT: Effect = Effect::Read;

    fn run(&self, ctx: &Ctx, _input: LlmListInput) -> Result<LlmListOutput, OpError> {
        let llm = self.models.llm(ctx)?;
        let providers = self.models.block_on(llm.list())?;
        Ok(LlmListOutput {
            providers,
            default_model: llm.config().default_model.clone(),
        })
    }
}

/// `llm_ask`'s input.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LlmAskInput {
    /// The question or instruction.
    pub prompt: String,
    /// provider:model, e.g. "local:smollm2" or "openai:gpt-4.1-mini" (default: the configured model).
    #[serde(default)]
    pub model: Option<String>,
    /// A system message to put first.
    #[serde(default)]
    pub system: Option<String>,
    /// Sampling temperature; 0 is deterministic.
    #[serde(default)]
    #[schemars(range(min = 0.0, max = 2.0))]
    pub temperature: Option<f32>,
    /// The longest answer, in tokens.
    #[serde(default)]
    #[schemars(range(min = 1))]
    pub max_tokens: Option<u32>,
    /// A seed, for providers that take one.
    #[serde(default)]
    pub seed: Option<u64>,
}

/// How long an answer took.
#[derive(Clone, Debug, Serialize)]
pub struct Timing {
    /// Until the model's stream started.
    pub start_ms: f64,
    /// Until the first text arrived.
    pub first_token_ms: Option<f64>,
    /// Until the end.
    pub total_ms: f64,
    /// Answer tokens per second after the first.
    pub tokens_per_s: f64,
}

/// `llm_ask`'s output.
#[derive(Clone, Debug, Serialize)]
pub struct LlmAskOutput {
    /// The model that answered.
    pub model: String,
    /// The answer, with tool calls, finish reason and usage.
    #[serde(flatten)]
    pub response: Response,
    /// How long it took.
    pub timing: Timing,
}

/// Ask a model one question.
#[derive(Debug, Default)]
pub struct LlmAsk {
    models: Arc<Models>,
}

impl LlmAsk {
    /// Sharing the model client (and the loaded local model) with other operations.
    pub fn new(models: Arc<Models>) -> LlmAsk {
        LlmAsk { models }
    }
}

fn round(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

impl Op for LlmAsk {
    type Input = LlmAskInput;
    type Output = LlmAskOutput;
    const NAME: &'static str = "llm_ask";
    const TITLE: &'static str = "Ask a model";
    const DESCRIPTION: &'static str = "Ask a model one question and get its answer as text (no canvas involved; to answer inside a canvas use thread_send). \
The default model is the configured one, usually local:smollm2, which runs offline.\n\
Example: {\"prompt\": \"Name three uses of a mind map\", \"temperature\": 0, \"max_tokens\": 120}";
    const EFFECT: Effect = Effect::External;

    fn run(&self, ctx: &Ctx, input: LlmAskInput) -> Result<LlmAskOutput, OpError> {
        if input.temperature.is_some_and(|t| !(0.0..=2.0).contains(&t)) {
            return Err(OpError::invalid(
                "'temperature' must be between 0 and 2",
                "use 0 for the most likely answer, about 0.7 for variety",
            ));
        }
        if input.max_tokens == Some(0) {
            return Err(OpError::invalid(
                "'max_tokens' must be at least 1",
                "leave it out for the model's own limit",
            ));
        }
        let llm = self.models.llm(ctx)?;
        let model = input
            .model
            .clone()
            .unwrap_or_else(|| llm.config().default_model.clone());
        let mut req = Request::prompt(input.prompt);
        if let Some(s) = input.system {
            req.messages.insert(0, Message::system(s));
        }
        req.sampling.temperature = input.temperature;
        req.sampling.seed = input.seed;
        req.max_tokens = input.max_tokens;
        self.models.block_on(async {
            let started = Instant::now();
            let ms = |t: Instant| t.elapsed().as_secs_f64() * 1000.0;
            let mut events = llm.stream(Some(&model), req).await?;
            let start_ms = ms(started);
            let mut first: Option<f64> = None;
            let mut response = Response::default();
            while let Some(event) = events.next().await {
                if ctx.is_cancelled() {
                    // Dropping the stream stops the model; what came so far is the answer.
                    break;
                }
                let event = event?;
                if let Event::TextDelta { text } = &event {
                    first.get_or_insert_with(|| ms(started));
                    ctx.emit(OpEvent::Data(
                        serde_json::json!({"type": "text_delta", "delta": text}),
                    ));
                }
                response.apply(&event);
            }
            let total = ms(started);
            let secs = (total - first.unwrap_or(total)) / 1000.0;
            let tokens_per_s = if secs > 0.0 {
                round(response.usage.completion_tokens as f64 / secs)
            } else {
                0.0
            };
            Ok(LlmAskOutput {
                model,
                response,
                timing: Timing {
                    start_ms: round(start_ms),
                    first_token_ms: first.map(round),
                    total_ms: round(total),
                    tokens_per_s,
                },
            })
        })?
    }
}

/// Adds `llm_list` and `llm_ask` to `registry`, sharing one model client.
pub fn register(registry: &mut easel_ops::Registry) {
    let models = Arc::new(Models::default());
    registry
        .register(LlmList::new(models.clone()))
        .register(LlmAsk::new(models));
}
