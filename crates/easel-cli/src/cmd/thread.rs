//! `easel thread …`: conversations on a canvas.

use crate::cli::{ThreadCmd, ThreadModelArgs};
use crate::output::Output;
use easel_llm::{Config, Event, Llm, Request};
use easel_thread::{
    AnswerFailure, Context, ContextOptions, DEFAULT_MODEL, ModelFailure, Piece, SendOptions,
    Target, VaultFiles, WatchEvent, WatchOptions, build_context,
};
use easel_vault::Vault;
use easel_vault::canvas::{Actor, load_canvas};
use futures_util::StreamExt;
use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

pub fn run(vault: &Vault, out: &Output, cmd: ThreadCmd) -> anyhow::Result<()> {
    match cmd {
        ThreadCmd::Send {
            canvas,
            node,
            model,
        } => {
            let asker = Asker::new(vault, model)?;
            let cancel = Arc::new(AtomicBool::new(false));
            asker.cancel_on_ctrl_c(&cancel);
            let json = out.is_json();
            let mut stdout = std::io::stdout();
            let sent = asker.send(vault, &canvas, &node, &cancel, &mut |t| {
                if !json {
                    let _ = write!(stdout, "{t}");
                    let _ = stdout.flush();
                }
            })?;
            out.emit(&sent, |s| {
                outln!();
                for w in &s.warnings {
                    eprintln!("warning: {w}");
                }
                let how = if s.partial {
                    "partial answer (cancelled)"
                } else {
                    "answer"
                };
                eprintln!("{how} written to node {} by {}", s.node, s.model);
            })
        }
        ThreadCmd::Watch { canvases, model } => {
            let asker = Asker::new(vault, model)?;
            let stop = Arc::new(AtomicBool::new(false));
            asker.cancel_on_ctrl_c(&stop);
            let never = AtomicBool::new(false);
            let answer = |canvas: &str, node: &str| {
                asker
                    .send(vault, canvas, node, &never, &mut |_| {})
                    .map(|s| s.node)
                    .map_err(|e| AnswerFailure {
                        error: e.to_string(),
                        hint: e.hint(),
                    })
            };
            let report = |e: WatchEvent| match e {
                WatchEvent::Watching { root, canvases } if canvases.is_empty() => {
                    eprintln!("watching every canvas in {root} for /ask (Ctrl-C stops)")
                }
                WatchEvent::Watching { canvases, .. } => {
                    eprintln!("watching {} for /ask (Ctrl-C stops)", canvases.join(", "))
                }
                WatchEvent::Asked { canvas, node } => {
                    eprintln!("{canvas}: answering node {node}")
                }
                WatchEvent::Answered {
                    canvas,
                    node,
                    answer,
                    elapsed,
                } => eprintln!(
                    "{canvas}: answered node {node} in node {answer} ({:.1} s)",
                    elapsed.as_secs_f64()
                ),
                WatchEvent::Failed {
                    canvas,
                    node,
                    failure,
                } => eprintln!(
                    "{canvas}: node {node} failed: {} (hint: {})",
                    failure.error, failure.hint
                ),
                WatchEvent::Skipped { canvas, reason } => {
                    eprintln!("{canvas}: skipped: {reason}")
                }
            };
            easel_thread::watch(
                vault,
                &Actor::new("thread"),
                &WatchOptions {
                    canvases,
                    ..WatchOptions::default()
                },
                &answer,
                &report,
                &stop,
            )?;
            Ok(())
        }
        ThreadCmd::Context {
            canvas,
            node,
            model,
            images,
            context_window,
        } => {
            let (_, c, _) = load_canvas(vault, &canvas)?;
            let default_model = model
                .or_else(|| {
                    std::env::var("EASEL_MODEL")
                        .ok()
                        .filter(|m| !m.trim().is_empty())
                })
                .unwrap_or_else(|| DEFAULT_MODEL.to_owned());
            let options = ContextOptions {
                default_model,
                images,
                context_window,
            };
            let ctx = build_context(&c, &node, &VaultFiles { vault }, &options)?;
            out.emit(&ctx, |ctx| {
                outln!("model: {}", ctx.model);
                outln!("chain: {}", ctx.chain.join(" -> "));
                for m in &ctx.messages {
                    outln!("\n[{}] (node {})", m.role.as_str(), m.node);
                    outln!("{}", m.text());
                }
                for w in &ctx.warnings {
                    eprintln!("warning: {w}");
                }
            })
        }
    }
}

/// A configured model client and the settings of one thread command.
struct Asker {
    llm: Llm,
    rt: tokio::runtime::Runtime,
    args: ThreadModelArgs,
}

impl Asker {
    fn new(vault: &Vault, args: ThreadModelArgs) -> anyhow::Result<Asker> {
        let llm = Llm::new(Config::load(Some(vault.root()))?);
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()?;
        Ok(Asker { llm, rt, args })
    }

    /// Sets `flag` on Ctrl-C (the stream stops at the next piece, the partial answer is kept).
    fn cancel_on_ctrl_c(&self, flag: &Arc<AtomicBool>) {
        let flag = flag.clone();
        self.rt.spawn(async move {
            if tokio::signal::ctrl_c().await.is_ok() {
                flag.store(true, Ordering::Relaxed);
            }
        });
    }

    fn send(
        &self,
        vault: &Vault,
        canvas: &str,
        node: &str,
        cancel: &AtomicBool,
        on_text: &mut dyn FnMut(&str),
    ) -> Result<easel_thread::Sent, easel_thread::SendError> {
        let options = SendOptions {
            context: ContextOptions {
                default_model: self.llm.config().default_model.clone(),
                images: self.args.images,
                context_window: self.args.context_window,
            },
            model: self.args.model.clone(),
        };
        let actor = Actor::new("thread");
        let target = Target {
            vault,
            actor: &actor,
            canvas,
            node,
        };
        easel_thread::send(
            target,
            &options,
            cancel,
            |ctx| self.ask(ctx, cancel),
            on_text,
        )
    }

    fn ask<'a>(
        &'a self,
        ctx: &Context,
        cancel: &'a AtomicBool,
    ) -> Result<impl Iterator<Item = Result<Piece, ModelFailure>> + use<'a>, ModelFailure> {
        let mut req = Request {
            messages: ctx.messages.iter().map(to_llm_message).collect(),
            ..Request::default()
        };
        req.sampling.temperature = self.args.temperature.or(ctx.temperature.map(|t| t as f32));
        req.max_tokens = self
            .args
            .max_tokens
            .or(ctx.max_tokens.and_then(|t| u32::try_from(t).ok()));
        let mut stream = self
            .rt
            .block_on(self.llm.stream(Some(&ctx.model), req))
            .map_err(failure)?;
        Ok(std::iter::from_fn(move || {
            loop {
                if cancel.load(Ordering::Relaxed) {
                    return None;
                }
                // Wake up now and then, so that Ctrl-C stops a stream that has gone quiet.
                let next = self.rt.block_on(async {
                    tokio::time::timeout(std::time::Duration::from_millis(200), stream.next()).await
                });
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
                    Ok(Some(Ok(_))) => continue,
                }
            }
        }))
    }
}

fn failure(e: easel_llm::LlmError) -> ModelFailure {
    ModelFailure {
        error: e.to_string(),
        hint: e.hint(),
    }
}

fn to_llm_message(m: &easel_thread::Message) -> easel_llm::Message {
    let role = match m.role {
        easel_thread::Role::System => easel_llm::Role::System,
        easel_thread::Role::User => easel_llm::Role::User,
        easel_thread::Role::Assistant => easel_llm::Role::Assistant,
    };
    let parts = m
        .parts
        .iter()
        .map(|p| match p {
            easel_thread::Part::Text(text) => easel_llm::Part::Text { text: text.clone() },
            easel_thread::Part::Image {
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
