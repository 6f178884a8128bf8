//! The embedded model: a GGUF file run in-process by llama.cpp (through `llama-cpp-2`).
//!
//! Generation is blocking and CPU-bound, so callers run it on a blocking thread and get events
//! through a callback; the callback returning `false` (the stream was dropped) stops decoding
//! after the current token.

use crate::error::{LlmError, Result};
use crate::textgen::{self, StopScanner, Utf8Pieces};
use crate::types::{Event, FinishReason, Request, ToolChoice, Usage};
use llama_cpp_2::context::params::LlamaContextParams;
use llama_cpp_2::llama_backend::LlamaBackend;
use llama_cpp_2::llama_batch::LlamaBatch;
use llama_cpp_2::model::params::LlamaModelParams;
use llama_cpp_2::model::{LlamaChatMessage, LlamaChatTemplate, LlamaModel};
use llama_cpp_2::sampling::LlamaSampler;
use llama_cpp_2::token::LlamaToken;
use serde::Serialize;
use std::num::NonZeroU32;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

/// The one name the embedded model answers to (`local:smollm2`).
pub const LOCAL_MODEL_NAME: &str = "smollm2";

/// Tokens decoded per batch while reading the prompt.
const N_BATCH: u32 = 512;
/// Default answer length when the request sets none.
const DEFAULT_MAX_TOKENS: u32 = 512;

fn backend() -> Result<&'static LlamaBackend> {
    static BACKEND: OnceLock<std::result::Result<LlamaBackend, String>> = OnceLock::new();
    BACKEND
        .get_or_init(|| {
            // llama.cpp logs every tensor at load time; send it to tracing where EASEL_LOG can see
            // it instead of letting it spill onto the terminal.
            llama_cpp_2::send_logs_to_tracing(llama_cpp_2::LogOptions::default());
            LlamaBackend::init().map_err(|e| e.to_string())
        })
        .as_ref()
        .map_err(|m| LlmError::Inference {
            message: format!("cannot start llama.cpp: {m}"),
        })
}

/// Timing of one generation.
#[derive(Debug, Clone, Copy, Default, Serialize, PartialEq)]
pub struct Timing {
    /// Reading the prompt (prefill).
    pub prompt_ms: f64,
    /// Producing the answer.
    pub generate_ms: f64,
    pub prompt_tokens: u64,
    pub generated_tokens: u64,
}

impl Timing {
    pub fn prompt_tokens_per_s(&self) -> f64 {
        per_s(self.prompt_tokens, self.prompt_ms)
    }
    pub fn generated_tokens_per_s(&self) -> f64 {
        per_s(self.generated_tokens, self.generate_ms)
    }
}

fn per_s(n: u64, ms: f64) -> f64 {
    if ms <= 0.0 {
        0.0
    } else {
        n as f64 * 1000.0 / ms
    }
}

/// A loaded GGUF model. Cheap to share (`Arc`); generations run one at a time.
pub struct LocalModel {
    model: LlamaModel,
    template: LlamaChatTemplate,
    path: PathBuf,
    load_time: Duration,
    threads: i32,
    /// llama.cpp contexts must not be created in parallel from one model; one generation at a
    /// time is also what 2 cores can do well.
    busy: Mutex<()>,
    counts: Counts,
}

/// What the model has done, for servers and tests to observe.
#[derive(Debug, Default)]
struct Counts {
    /// Generations that got past the prompt and are producing tokens.
    running: AtomicUsize,
    started: AtomicU64,
    /// Generations stopped because their caller went away.
    cancelled: AtomicU64,
}

/// Counts a generation as running while it lives.
struct Running<'a>(&'a Counts);

impl<'a> Running<'a> {
    fn new(c: &'a Counts) -> Running<'a> {
        c.running.fetch_add(1, Ordering::SeqCst);
        c.started.fetch_add(1, Ordering::SeqCst);
        Running(c)
    }
}

impl Drop for Running<'_> {
    fn drop(&mut self) {
        self.0.running.fetch_sub(1, Ordering::SeqCst);
    }
}

impl std::fmt::Debug for LocalModel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LocalModel")
            .field("path", &self.path)
            .finish_non_exhaustive()
    }
}

impl LocalModel {
    /// Loads a GGUF file. `threads` defaults to the number of cores.
    pub fn load(path: &Path, threads: Option<i32>) -> Result<LocalModel> {
        if !path.is_file() {
            return Err(LlmError::ModelFileMissing {
                path: path.to_path_buf(),
            });
        }
        let backend = backend()?;
        let started = Instant::now();
        let model = LlamaModel::load_from_file(backend, path, &LlamaModelParams::default())
            .map_err(|e| LlmError::ModelLoad {
                path: path.to_path_buf(),
                message: e.to_string(),
            })?;
        // The GGUF's own template; files without one get ChatML, which most small chat models use.
        let template = match model.chat_template(None) {
            Ok(t) => t,
            Err(_) => LlamaChatTemplate::new("chatml").map_err(|e| LlmError::ModelLoad {
                path: path.to_path_buf(),
                message: e.to_string(),
            })?,
        };
        let threads = threads.unwrap_or_else(|| {
            std::thread::available_parallelism()
                .map(|n| n.get() as i32)
                .unwrap_or(2)
        });
        Ok(LocalModel {
            model,
            template,
            path: path.to_path_buf(),
            load_time: started.elapsed(),
            threads: threads.max(1),
            busy: Mutex::new(()),
            counts: Counts::default(),
        })
    }

    /// How many generations are producing tokens now.
    pub fn running_generations(&self) -> usize {
        self.counts.running.load(Ordering::SeqCst)
    }

    /// How many generations have started producing tokens since the model was loaded.
    pub fn started_generations(&self) -> u64 {
        self.counts.started.load(Ordering::SeqCst)
    }

    /// How many generations stopped early because their caller went away.
    pub fn cancelled_generations(&self) -> u64 {
        self.counts.cancelled.load(Ordering::SeqCst)
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    pub fn load_time(&self) -> Duration {
        self.load_time
    }

    /// The context window the model was trained with.
    pub fn context_window(&self) -> u32 {
        self.model.n_ctx_train()
    }

    /// The prompt text the chat template makes of the request (tools described, if any).
    pub fn render_prompt(&self, req: &Request) -> Result<String> {
        let allowed = textgen::allowed_tools(&req.tools, &req.tool_choice);
        let tools_text = allowed
            .as_ref()
            .map(|ts| textgen::tools_prompt(ts, !matches!(req.tool_choice, ToolChoice::Auto)));
        let turns = textgen::chat_turns(&req.messages, tools_text.as_deref());
        let chat = turns
            .into_iter()
            .map(|(role, text)| LlamaChatMessage::new(role, text.replace('\0', "")))
            .collect::<std::result::Result<Vec<_>, _>>()
            .map_err(|e| LlmError::InvalidRequest {
                message: e.to_string(),
            })?;
        self.model
            .apply_chat_template(&self.template, &chat, true)
            .map_err(|e| LlmError::Inference {
                message: format!("chat template: {e}"),
            })
    }

    /// The grammar for the request's tools, or `None` when no tool may be called.
    fn grammar(&self, req: &Request) -> Result<Option<String>> {
        let Some(tools) = textgen::allowed_tools(&req.tools, &req.tool_choice) else {
            return Ok(None);
        };
        if tools.is_empty() {
            return Err(LlmError::InvalidRequest {
                message: format!(
                    "tool_choice names a tool that is not offered: {:?}",
                    req.tool_choice
                ),
            });
        }
        let schema = textgen::tool_call_schema(&tools);
        let names = tools
            .iter()
            .map(|t| t.name.as_str())
            .collect::<Vec<_>>()
            .join(", ");
        let call = llama_cpp_2::json_schema_to_grammar(&schema.to_string()).map_err(|e| {
            LlmError::Grammar {
                tool: names,
                message: e.to_string(),
            }
        })?;
        Ok(Some(match req.tool_choice {
            ToolChoice::Auto => textgen::call_or_text_grammar(&call),
            _ => call,
        }))
    }

    fn sampler(&self, req: &Request, grammar: Option<&str>) -> Result<LlamaSampler> {
        let mut chain = Vec::new();
        if let Some(g) = grammar {
            // First, so the other samplers only see tokens the grammar allows.
            chain.push(LlamaSampler::grammar(&self.model, g, "root").map_err(|e| {
                LlmError::Grammar {
                    tool: req
                        .tools
                        .iter()
                        .map(|t| t.name.clone())
                        .collect::<Vec<_>>()
                        .join(", "),
                    message: e.to_string(),
                }
            })?);
        }
        let s = &req.sampling;
        if let Some(rp) = s
            .repetition_penalty
            .filter(|p| *p > 0.0 && (*p - 1.0).abs() > f32::EPSILON)
        {
            chain.push(LlamaSampler::penalties(
                self.model.n_vocab(),
                64,
                rp,
                0.0,
                0.0,
            ));
        }
        let temperature = s.temperature.unwrap_or(0.7);
        if temperature <= 0.0 {
            chain.push(LlamaSampler::greedy());
        } else {
            if let Some(p) = s.top_p.filter(|p| *p > 0.0 && *p < 1.0) {
                chain.push(LlamaSampler::top_p(p, 1));
            }
            chain.push(LlamaSampler::temp(temperature));
            let seed = s
                .seed
                .map(|x| x as u32)
                .unwrap_or_else(|| fastrand::u32(..));
            chain.push(LlamaSampler::dist(seed));
        }
        Ok(LlamaSampler::chain_simple(chain))
    }

    /// Runs the request, calling `emit` for each event; `emit` returning `false` cancels.
    /// Returns the timing. Blocking: call it from a blocking thread.
    pub fn generate(&self, req: &Request, emit: &mut dyn FnMut(Event) -> bool) -> Result<Timing> {
        self.generate_until(req, emit, &|| false)
    }

    /// [`LocalModel::generate`], also stopping as soon as `gone()` is true. `emit` alone cannot
    /// tell: while a tool call's JSON is held back, or while the prompt is read, nothing is
    /// emitted, and a caller that left would keep the model (and every caller queued behind
    /// it) busy until `max_tokens`.
    pub fn generate_until(
        &self,
        req: &Request,
        emit: &mut dyn FnMut(Event) -> bool,
        gone: &dyn Fn() -> bool,
    ) -> Result<Timing> {
        let prompt = self.render_prompt(req)?;
        let grammar = self.grammar(req)?;
        let vocab = self.model.vocab();
        let tokens = vocab.tokenize(prompt.as_bytes(), vocab.should_add_bos(), true);
        let n_ctx_train = self.model.n_ctx_train().max(512);
        let max_new = req.max_tokens.unwrap_or(DEFAULT_MAX_TOKENS).max(1);
        if tokens.len() as u64 >= u64::from(n_ctx_train) {
            return Err(LlmError::InvalidRequest {
                message: format!(
                    "the prompt has {} tokens and the local model's context window is {n_ctx_train}",
                    tokens.len()
                ),
            });
        }
        let n_ctx = (tokens.len() as u32)
            .saturating_add(max_new)
            .min(n_ctx_train);
        let _guard = self.busy.lock().unwrap_or_else(|p| p.into_inner());
        // A caller may have left while it waited for the model.
        if gone() {
            self.counts.cancelled.fetch_add(1, Ordering::SeqCst);
            return Ok(Timing::default());
        }

        let params = LlamaContextParams::default()
            .with_n_ctx(NonZeroU32::new(n_ctx))
            .with_n_batch(N_BATCH)
            .with_n_threads(self.threads)
            .with_n_threads_batch(self.threads);
        let mut ctx =
            self.model
                .new_context(backend()?, params)
                .map_err(|e| LlmError::Inference {
                    message: format!("context: {e}"),
                })?;
        let mut sampler = self.sampler(req, grammar.as_deref())?;

        let fail = |what: &str, e: &dyn std::fmt::Display| LlmError::Inference {
            message: format!("{what}: {e}"),
        };
        let started = Instant::now();
        let mut batch = LlamaBatch::new(N_BATCH as usize, 1);
        let last = tokens.len().saturating_sub(1);
        for (chunk_no, chunk) in tokens.chunks(N_BATCH as usize).enumerate() {
            if gone() {
                self.counts.cancelled.fetch_add(1, Ordering::SeqCst);
                return Ok(Timing::default());
            }
            batch.clear();
            for (i, t) in chunk.iter().enumerate() {
                let pos = chunk_no * N_BATCH as usize + i;
                batch
                    .add(*t, pos as i32, &[0], pos == last)
                    .map_err(|e| fail("batch", &e))?;
            }
            ctx.decode(&mut batch)
                .map_err(|e| fail("reading the prompt", &e))?;
        }
        let prompt_ms = started.elapsed().as_secs_f64() * 1000.0;

        let gen_started = Instant::now();
        let mut pieces = Utf8Pieces::default();
        let mut stops = StopScanner::new(&req.stop);
        let mut pos = tokens.len() as i32;
        let mut generated: u64 = 0;
        let mut finish = FinishReason::Length;
        // With tools, the output is held until we know whether it is a call (it opens with '{').
        let mut held = String::new();
        let mut is_call = grammar.is_some() && !matches!(req.tool_choice, ToolChoice::Auto);
        let mut decided = grammar.is_none() || is_call;
        let mut cancelled = false;
        let mut piece_buf = Vec::with_capacity(32);

        let mut send_text =
            |text: String, held: &mut String, decided: &mut bool, is_call: &mut bool| -> bool {
                if text.is_empty() {
                    return true;
                }
                if !*decided {
                    held.push_str(&text);
                    let lead = held.trim_start();
                    if lead.is_empty() {
                        return true;
                    }
                    *decided = true;
                    *is_call = lead.starts_with('{');
                    if *is_call {
                        return true;
                    }
                    let t = std::mem::take(held);
                    return emit(Event::TextDelta { text: t });
                }
                if *is_call {
                    held.push_str(&text);
                    true
                } else {
                    emit(Event::TextDelta { text })
                }
            };

        let _running = Running::new(&self.counts);
        while generated < u64::from(max_new) && (pos as u32) < n_ctx {
            if gone() {
                cancelled = true;
                break;
            }
            let token: LlamaToken = sampler.sample(&ctx, batch.n_tokens() - 1);
            // `sample` has already accepted the token into the grammar and penalties: accepting
            // it again would advance the grammar twice and abort the process.
            if vocab.is_eog(token) {
                finish = FinishReason::Stop;
                break;
            }
            generated += 1;
            piece_buf.clear();
            vocab.token_to_piece_into(token, &mut piece_buf, false, None);
            let text = pieces.push(&piece_buf);
            let (out, hit) = stops.push(&text);
            if !send_text(out, &mut held, &mut decided, &mut is_call) {
                cancelled = true;
                break;
            }
            if hit {
                finish = FinishReason::Stop;
                break;
            }
            batch.clear();
            batch
                .add(token, pos, &[0], true)
                .map_err(|e| fail("batch", &e))?;
            pos += 1;
            ctx.decode(&mut batch).map_err(|e| fail("generating", &e))?;
        }
        let generate_ms = gen_started.elapsed().as_secs_f64() * 1000.0;
        let timing = Timing {
            prompt_ms,
            generate_ms,
            prompt_tokens: tokens.len() as u64,
            generated_tokens: generated,
        };
        if cancelled {
            self.counts.cancelled.fetch_add(1, Ordering::SeqCst);
            return Ok(timing);
        }
        let (rest, _) = stops.push(&pieces.finish());
        let tail = rest + &stops.finish();
        if !send_text(tail, &mut held, &mut decided, &mut is_call) {
            return Ok(timing);
        }
        if !decided && !held.is_empty() {
            let t = std::mem::take(&mut held);
            if !emit(Event::TextDelta { text: t }) {
                return Ok(timing);
            }
        }
        if is_call {
            match textgen::parse_tool_call(&held, format!("call_{}", fastrand::u64(..))) {
                Some(call) if finish == FinishReason::Stop => {
                    let ok = emit(Event::ToolCallStart {
                        index: 0,
                        id: call.id.clone(),
                        name: call.name.clone(),
                    }) && emit(Event::ToolCallDelta {
                        index: 0,
                        arguments: call.arguments.clone(),
                    }) && emit(Event::ToolCallEnd {
                        index: 0,
                        call: call.clone(),
                    });
                    if !ok {
                        return Ok(timing);
                    }
                    finish = FinishReason::ToolCalls;
                }
                // Cut off by max_tokens: the JSON is incomplete, so hand back what there is as text.
                _ => {
                    if !emit(Event::TextDelta {
                        text: std::mem::take(&mut held),
                    }) {
                        return Ok(timing);
                    }
                }
            }
        }
        let usage = Usage {
            prompt_tokens: timing.prompt_tokens,
            completion_tokens: generated,
        };
        let _ = emit(Event::Usage { usage }) && emit(Event::Finish { reason: finish });
        Ok(timing)
    }
}
