//! `easel thread …`: conversations on a canvas.

use crate::cli::{ThreadCmd, ThreadModelArgs};
use crate::output::Output;
use easel_thread::llm::{Choices, configured_model};
use easel_thread::{AnswerFailure, ContextOptions, Target, WatchEvent, WatchOptions, load_context};
use easel_vault::Vault;
use easel_vault::canvas::Actor;
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
            let default_model = match model {
                Some(m) => m,
                None => configured_model(vault)?,
            };
            let options = ContextOptions {
                default_model,
                images,
                context_window,
            };
            let ctx = load_context(vault, &canvas, &node, &options)?;
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

/// The thread commands' model client, on a runtime of their own.
struct Asker {
    inner: easel_thread::llm::Asker,
    choices: Choices,
    // Declared last so it is dropped after `inner`, whose streams run on it.
    rt: tokio::runtime::Runtime,
}

impl Asker {
    fn new(vault: &Vault, args: ThreadModelArgs) -> anyhow::Result<Asker> {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()?;
        let inner = easel_thread::llm::Asker::load(vault, rt.handle().clone())?;
        let choices = Choices {
            model: args.model,
            temperature: args.temperature,
            max_tokens: args.max_tokens,
            images: args.images,
            context_window: args.context_window,
        };
        Ok(Asker { inner, choices, rt })
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
        let actor = Actor::new("thread");
        let target = Target {
            vault,
            actor: &actor,
            canvas,
            node,
        };
        self.inner.send(target, &self.choices, cancel, on_text)
    }
}
