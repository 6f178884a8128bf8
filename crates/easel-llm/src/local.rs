//! The embedded model: a GGUF file run in-process by llama.cpp (through `llama-cpp-2`).
//!
//! Generation is blocking and CPU-bound, so callers run it on a blocking thread and get events
//! through a callback; the callback returning `false` (the stream was dropped) stops decoding
//! after the current token.

use crate::error::{LlmError, Result};
use crate::textgen::{self, RepeatGuard, StopScanner, Utf8Pieces};
use crate::types::{Event, FinishReason, Request, ToolCall, ToolChoice, Usage};
use llama_cpp_2::context::LlamaContext;
use llama_cpp_2::context::params::LlamaContextParams;
use llama_cpp_2::llama_backend::LlamaBackend;
use llama_cpp_2::llama_batch::LlamaBatch;
use llama_cpp_2::model::params::LlamaModelParams;
use llama_cpp_2::model::{LlamaChatMessage, LlamaChatTemplate, LlamaModel};
use llama_cpp_2::sampling::LlamaSampler;
use llama_cpp_2::token::LlamaToken;
use llama_cpp_2::token::data::LlamaTokenData;
use llama_cpp_2::token::data_array::LlamaTokenDataArray;
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
    /// The prompt's tokens actually read; the others were in the cache from the last answer.
    pub prompt_tokens_read: u64,
    pub generated_tokens: u64,
    /// Of `generate_ms`, the time spent choosing tokens (sampling and the grammar).
    pub sample_ms: f64,
}

impl Timing {
    pub fn prompt_tokens_per_s(&self) -> f64 {
        per_s(self.prompt_tokens_read, self.prompt_ms)
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

/// A llama.cpp context kept from one generation to the next, with the tokens its KV cache
/// holds. An agent's turns share their start (instructions, tools, the history so far), so the
/// next turn reads only what is new: on two cores a 1,000-token prefix is about 3 s.
struct Kept<'m> {
    ctx: LlamaContext<'m>,
    tokens: Vec<LlamaToken>,
}

/// The kept context. The lock is also what makes generations run one at a time: llama.cpp
/// contexts must not be created in parallel from one model, and one at a time is what two
/// cores do well.
type Slot<'m> = Mutex<Option<Kept<'m>>>;

self_cell::self_cell!(
    /// The model and the context that borrows it.
    struct Loaded {
        owner: LlamaModel,
        #[not_covariant]
        dependent: Slot,
    }
);

/// A loaded GGUF model. Cheap to share (`Arc`); generations run one at a time.
pub struct LocalModel {
    loaded: Loaded,
    template: LlamaChatTemplate,
    path: PathBuf,
    load_time: Duration,
    threads: i32,
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
            loaded: Loaded::new(model, |_| Mutex::new(None)),
            template,
            path: path.to_path_buf(),
            load_time: started.elapsed(),
            threads: threads.max(1),
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

    fn model(&self) -> &LlamaModel {
        self.loaded.borrow_owner()
    }

    /// The context window the model was trained with.
    pub fn context_window(&self) -> u32 {
        self.model().n_ctx_train()
    }

    /// Drops the kept context, so the next generation reads its whole prompt (benchmarks of a
    /// first turn; a caller that wants the memory back).
    pub fn forget_prefix(&self) {
        self.loaded.with_dependent(|_, slot| {
            *slot.lock().unwrap_or_else(|p| p.into_inner()) = None;
        });
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
        self.model()
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

    fn sampler(&self, req: &Request, grammar: Option<&str>) -> Result<Sampling> {
        let model = self.model();
        let grammar = grammar
            .map(|g| {
                LlamaSampler::grammar(model, g, "root").map_err(|e| LlmError::Grammar {
                    tool: req
                        .tools
                        .iter()
                        .map(|t| t.name.clone())
                        .collect::<Vec<_>>()
                        .join(", "),
                    message: e.to_string(),
                })
            })
            .transpose()?;
        let mut chain = Vec::new();
        let s = &req.sampling;
        if let Some(rp) = s
            .repetition_penalty
            .filter(|p| *p > 0.0 && (*p - 1.0).abs() > f32::EPSILON)
        {
            chain.push(LlamaSampler::penalties(model.n_vocab(), 64, rp, 0.0, 0.0));
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
        Ok(Sampling {
            chain: LlamaSampler::chain_simple(chain),
            grammar,
        })
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
        let model = self.model();
        let vocab = model.vocab();
        let tokens = vocab.tokenize(prompt.as_bytes(), vocab.should_add_bos(), true);
        let n_ctx_train = model.n_ctx_train().max(512);
        let max_new = req.max_tokens.unwrap_or(DEFAULT_MAX_TOKENS).max(1);
        if tokens.is_empty() || tokens.len() as u64 >= u64::from(n_ctx_train) {
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
        let mut sampling = self.sampler(req, grammar.as_deref())?;
        self.loaded.with_dependent(|model, slot| {
            let mut kept = slot.lock().unwrap_or_else(|p| p.into_inner());
            // A caller may have left while it waited for the model.
            if gone() {
                self.counts.cancelled.fetch_add(1, Ordering::SeqCst);
                return Ok(Timing::default());
            }
            if kept.as_ref().is_none_or(|k| k.ctx.n_ctx() < n_ctx) {
                // The old context's memory goes before the new one is taken.
                *kept = None;
                let params = LlamaContextParams::default()
                    .with_n_ctx(NonZeroU32::new(context_size(n_ctx, n_ctx_train)))
                    .with_n_batch(N_BATCH)
                    .with_n_threads(self.threads)
                    .with_n_threads_batch(self.threads);
                let ctx =
                    model
                        .new_context(backend()?, params)
                        .map_err(|e| LlmError::Inference {
                            message: format!("context: {e}"),
                        })?;
                *kept = Some(Kept {
                    ctx,
                    tokens: Vec::new(),
                });
            }
            let Some(k) = kept.as_mut() else {
                return Err(LlmError::Inference {
                    message: "no context".into(),
                });
            };
            let run = Generation {
                model: self,
                req,
                tokens: &tokens,
                n_ctx,
                max_new,
                call_grammar: grammar.is_some(),
                gone,
            };
            let out = run.run(k, &mut sampling, emit);
            if out.is_err() {
                // A failed decode may leave the cache half written: start the next one afresh.
                *kept = None;
            }
            out
        })
    }
}

/// The context to create for `needed` positions: a power of two from 2,048, so that the turns
/// of one run, each a little longer than the last, keep using one context and its cache.
fn context_size(needed: u32, n_ctx_train: u32) -> u32 {
    // `clamp` would panic for a model trained on fewer than 2,048 positions; `needed` is at
    // most the trained window already.
    needed
        .next_power_of_two()
        .max(2048)
        .min(n_ctx_train.max(needed))
}

/// How long a kept cache and a new prompt agree, in tokens.
fn common_prefix(a: &[LlamaToken], b: &[LlamaToken]) -> usize {
    a.iter().zip(b).take_while(|(x, y)| x == y).count()
}

/// Sampling without the grammar first, and with it only when the grammar rejects that token:
/// checking one token is cheap, while constraining all 49,152 of the vocabulary at every step
/// costs more with every tool offered (llama.cpp's own common sampler does the same).
struct Sampling {
    chain: LlamaSampler,
    grammar: Option<LlamaSampler>,
}

impl Sampling {
    fn sample(&mut self, ctx: &LlamaContext<'_>, idx: i32) -> Option<LlamaToken> {
        let mut candidates = ctx.token_data_array_ith(idx);
        self.chain.apply(&mut candidates);
        let first = candidates.selected_token();
        let Some(grammar) = self.grammar.as_mut() else {
            return first;
        };
        let allowed = first.is_some_and(|t| {
            let mut one = LlamaTokenDataArray::new(vec![LlamaTokenData::new(t, 0.0, 0.0)], false);
            grammar.apply(&mut one);
            one.data.first().is_some_and(|d| d.logit().is_finite())
        });
        if allowed {
            return first;
        }
        let mut all = ctx.token_data_array_ith(idx);
        grammar.apply(&mut all);
        self.chain.apply(&mut all);
        all.selected_token()
    }

    fn accept(&mut self, token: LlamaToken) {
        if let Some(g) = self.grammar.as_mut() {
            g.accept(token);
        }
        self.chain.accept(token);
    }
}

/// One generation on a kept context.
struct Generation<'a> {
    model: &'a LocalModel,
    req: &'a Request,
    tokens: &'a [LlamaToken],
    n_ctx: u32,
    max_new: u32,
    call_grammar: bool,
    gone: &'a dyn Fn() -> bool,
}

impl Generation<'_> {
    fn run(
        &self,
        kept: &mut Kept<'_>,
        sampling: &mut Sampling,
        emit: &mut dyn FnMut(Event) -> bool,
    ) -> Result<Timing> {
        let counts = &self.model.counts;
        let vocab = self.model.model().vocab();
        let req = self.req;
        let tokens = self.tokens;
        let fail = |what: &str, e: &dyn std::fmt::Display| LlmError::Inference {
            message: format!("{what}: {e}"),
        };
        let started = Instant::now();
        // Keep what the cache already holds of this prompt; at least the last token is read
        // again, since its logits are where the answer starts.
        let mut start = common_prefix(&kept.tokens, tokens).min(tokens.len() - 1);
        if start < kept.tokens.len() {
            let removed = kept
                .ctx
                .clear_kv_cache_seq(Some(0), Some(start as u32), None)
                .unwrap_or(false);
            if !removed {
                kept.ctx.clear_kv_cache();
                start = 0;
            }
            kept.tokens.truncate(start);
        }
        let mut batch = LlamaBatch::new(N_BATCH as usize, 1);
        let last = tokens.len() - 1;
        for chunk in tokens[start..].chunks(N_BATCH as usize) {
            if (self.gone)() {
                counts.cancelled.fetch_add(1, Ordering::SeqCst);
                return Ok(Timing::default());
            }
            batch.clear();
            let base = kept.tokens.len();
            for (i, t) in chunk.iter().enumerate() {
                let pos = base + i;
                batch
                    .add(*t, pos as i32, &[0], pos == last)
                    .map_err(|e| fail("batch", &e))?;
            }
            kept.ctx
                .decode(&mut batch)
                .map_err(|e| fail("reading the prompt", &e))?;
            kept.tokens.extend_from_slice(chunk);
        }
        let prompt_ms = started.elapsed().as_secs_f64() * 1000.0;

        let gen_started = Instant::now();
        let mut pieces = Utf8Pieces::default();
        let mut stops = StopScanner::new(&req.stop);
        let mut loops = RepeatGuard::default();
        let mut sample_time = Duration::ZERO;
        let mut generated: u64 = 0;
        let mut finish = FinishReason::Length;
        // With tools, the output is held until we know whether it is a call (it opens with '{').
        let mut held = String::new();
        let mut is_call = self.call_grammar && !matches!(req.tool_choice, ToolChoice::Auto);
        let mut decided = !self.call_grammar || is_call;
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

        let _running = Running::new(counts);
        while generated < u64::from(self.max_new) && (kept.tokens.len() as u32) < self.n_ctx {
            if (self.gone)() {
                cancelled = true;
                break;
            }
            let sample_started = Instant::now();
            let Some(token) = sampling.sample(&kept.ctx, batch.n_tokens() - 1) else {
                return Err(fail("sampling", &"no token was chosen"));
            };
            sampling.accept(token);
            sample_time += sample_started.elapsed();
            if vocab.is_eog(token) {
                finish = FinishReason::Stop;
                break;
            }
            generated += 1;
            piece_buf.clear();
            vocab.token_to_piece_into(token, &mut piece_buf, false, None);
            let text = pieces.push(&piece_buf);
            let looping = loops.push(&text);
            let (out, hit) = stops.push(&text);
            if !send_text(out, &mut held, &mut decided, &mut is_call) {
                cancelled = true;
                break;
            }
            if hit {
                finish = FinishReason::Stop;
                break;
            }
            // Stuck repeating itself: the answer is cut here, as `max_tokens` would have cut
            // it much later.
            if looping {
                tracing::debug!(generated, "the local model repeats itself; answer cut");
                break;
            }
            batch.clear();
            batch
                .add(token, kept.tokens.len() as i32, &[0], true)
                .map_err(|e| fail("batch", &e))?;
            kept.ctx
                .decode(&mut batch)
                .map_err(|e| fail("generating", &e))?;
            kept.tokens.push(token);
        }
        let generate_ms = gen_started.elapsed().as_secs_f64() * 1000.0;
        let timing = Timing {
            prompt_ms,
            generate_ms,
            prompt_tokens: tokens.len() as u64,
            prompt_tokens_read: (tokens.len() - start) as u64,
            generated_tokens: generated,
            sample_ms: sample_time.as_secs_f64() * 1000.0,
        };
        if cancelled {
            counts.cancelled.fetch_add(1, Ordering::SeqCst);
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
            let id = format!("call_{}", fastrand::u64(..));
            let whole = textgen::parse_tool_call(&held, id.clone())
                .filter(|_| finish == FinishReason::Stop);
            // A call cut off (by max_tokens or a loop) is still a call, with the arguments it
            // got to, as OpenAI's API returns one: never text, and the finish reason says why.
            let call = whole.or_else(|| {
                textgen::partial_tool_call(&held).map(|(name, arguments)| ToolCall {
                    id,
                    name,
                    arguments,
                })
            });
            if let Some(call) = call {
                let ok = emit(Event::ToolCallStart {
                    index: 0,
                    id: call.id.clone(),
                    name: call.name.clone(),
                }) && emit(Event::ToolCallDelta {
                    index: 0,
                    arguments: call.arguments.clone(),
                }) && emit(Event::ToolCallEnd { index: 0, call });
                if !ok {
                    return Ok(timing);
                }
                if finish == FinishReason::Stop {
                    finish = FinishReason::ToolCalls;
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

#[cfg(test)]
mod tests {
    use super::context_size;

    #[test]
    fn context_sizes_grow_in_powers_of_two_within_the_trained_window() {
        assert_eq!(context_size(300, 8192), 2048);
        assert_eq!(context_size(2049, 8192), 4096);
        assert_eq!(context_size(8000, 8192), 8192);
        // A model trained on a short window gets what it needs, never more.
        assert_eq!(context_size(700, 1024), 1024);
        assert_eq!(context_size(1000, 1000), 1000);
    }
}
