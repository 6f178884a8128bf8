//! `easel thread …`: conversations on a canvas. `context` and `send` run the registered
//! operations `thread_context` and `thread_send`, so `--json` prints what MCP returns.

use crate::cli::{ThreadCmd, ThreadModelArgs};
use crate::output::Output;
use easel_ops::{Actor as OpActor, Cancel, Ctx, Op};
use easel_thread::llm::Choices;
use easel_thread::{
    AnswerFailure, Target, ThreadContext, ThreadContextInput, ThreadSend, ThreadSendInput,
    WatchEvent, WatchOptions,
};
use easel_vault::Vault;
use easel_vault::canvas::Actor;

pub fn run(vault: &Vault, out: &Output, cmd: ThreadCmd) -> anyhow::Result<()> {
    match cmd {
        ThreadCmd::Send {
            canvas,
            node,
            model,
        } => {
            let input = ThreadSendInput {
                canvas,
                node,
                model: model.model,
                temperature: model.temperature,
                max_tokens: model.max_tokens,
                images: Some(model.images),
                context_window: model.context_window,
            };
            let cancel = Cancel::new();
            let rt = runtime()?;
            cancel_on_signals(&rt, &cancel);
            let ctx = Ctx::new(vault.clone(), OpActor::new("thread")).with_cancel(cancel);
            // People see the answer as it is written; scripts get the whole result at the end.
            let ctx = crate::output::with_streamed_text(ctx, out);
            let sent = ThreadSend::default().run(&ctx, input)?;
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
            let stop = Cancel::new();
            cancel_on_signals(&asker.rt, &stop);
            // Stopping the watcher also stops the answers being written, which keep their
            // text marked `partial: true`.
            let stop = stop.flag();
            let answer = |canvas: &str, node: &str| {
                asker
                    .send(vault, canvas, node, &stop, &mut |_| {})
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
            let ctx = Ctx::new(vault.clone(), OpActor::cli());
            let input = ThreadContextInput {
                canvas,
                node,
                model,
                images: Some(images),
                context_window,
            };
            let ctx = ThreadContext.run(&ctx, input)?;
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

fn runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    Ok(tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()?)
}

/// Sets `cancel` on Ctrl-C, SIGTERM or SIGHUP (a closed terminal, a service manager, `kill`):
/// the model stops and the answer so far is kept, marked `partial: true`. A second signal ends
/// the process at once, for a model that does not stop.
fn cancel_on_signals(rt: &tokio::runtime::Runtime, cancel: &Cancel) {
    let cancel = cancel.clone();
    rt.spawn(async move {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{SignalKind, signal};
            let (Ok(mut term), Ok(mut hup), Ok(mut int)) = (
                signal(SignalKind::terminate()),
                signal(SignalKind::hangup()),
                signal(SignalKind::interrupt()),
            ) else {
                tracing::warn!("cannot listen for signals; only the end of the answer stops it");
                return;
            };
            let mut first = true;
            loop {
                let code = tokio::select! {
                    _ = term.recv() => 143,
                    _ = hup.recv() => 129,
                    _ = int.recv() => 130,
                };
                if !first {
                    std::process::exit(code);
                }
                first = false;
                tracing::debug!("signal received; cancelling");
                cancel.cancel();
            }
        }
        #[cfg(not(unix))]
        {
            let mut first = true;
            while tokio::signal::ctrl_c().await.is_ok() {
                if !first {
                    std::process::exit(130);
                }
                first = false;
                cancel.cancel();
            }
        }
    });
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

    fn send(
        &self,
        vault: &Vault,
        canvas: &str,
        node: &str,
        cancel: &std::sync::atomic::AtomicBool,
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
