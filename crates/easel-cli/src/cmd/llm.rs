//! `easel llm …`: list models, ask one, serve the local one.

use crate::cli::LlmCmd;
#[cfg(feature = "local-llm")]
use crate::failure::UsageError;
use crate::output::Output;
use easel_llm::{Config, Event, Llm, Message, Request};
use easel_vault::Vault;
use futures_util::StreamExt;
use serde_json::json;
use std::io::Write;
use std::time::Instant;

fn runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    Ok(tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?)
}

pub fn run(vault: &Vault, out: &Output, cmd: LlmCmd) -> anyhow::Result<()> {
    let config = Config::load(Some(vault.root()))?;
    let llm = Llm::new(config);
    match cmd {
        LlmCmd::List => {
            let list = runtime()?.block_on(llm.list());
            out.emit(&list, |list| {
                for p in list {
                    let mark = if p.ready { "ready" } else { "not ready" };
                    outln!("{} ({mark}): {}", p.provider, p.status);
                    for m in &p.models {
                        outln!("  {m}");
                    }
                }
                outln!("default model: {}", llm.config().default_model);
            })
        }
        LlmCmd::Ask {
            prompt,
            model,
            system,
            temperature,
            max_tokens,
            seed,
        } => {
            let mut req = Request::prompt(prompt);
            if let Some(s) = system {
                req.messages.insert(0, Message::system(s));
            }
            req.sampling.temperature = temperature;
            req.sampling.seed = seed;
            req.max_tokens = max_tokens;
            let model = model.unwrap_or_else(|| llm.config().default_model.clone());
            let json = out.is_json();
            runtime()?.block_on(async {
                let started = Instant::now();
                let mut first: Option<f64> = None;
                let mut stdout = std::io::stdout();
                let mut events = llm.stream(Some(&model), req).await?;
                let connected = started.elapsed().as_secs_f64() * 1000.0;
                let mut resp = easel_llm::Response::default();
                while let Some(ev) = events.next().await {
                    let ev = ev?;
                    if let Event::TextDelta { text } = &ev {
                        first.get_or_insert_with(|| started.elapsed().as_secs_f64() * 1000.0);
                        if !json {
                            write!(stdout, "{text}")?;
                            stdout.flush()?;
                        }
                    }
                    resp.apply(&ev);
                }
                let total = started.elapsed().as_secs_f64() * 1000.0;
                if json {
                    let secs = (total - first.unwrap_or(total)) / 1000.0;
                    let value = json!({
                        "model": model,
                        "text": resp.text,
                        "tool_calls": resp.tool_calls,
                        "finish_reason": resp.finish_reason,
                        "usage": resp.usage,
                        "timing": {
                            "start_ms": round(connected),
                            "first_token_ms": first.map(round),
                            "total_ms": round(total),
                            "tokens_per_s": if secs > 0.0 { round(resp.usage.completion_tokens as f64 / secs) } else { 0.0 },
                        },
                    });
                    outln!("{}", serde_json::to_string_pretty(&value)?);
                } else {
                    if !resp.text.ends_with('\n') {
                        outln!();
                    }
                    for c in &resp.tool_calls {
                        outln!("tool call {}: {}", c.name, c.arguments);
                    }
                }
                Ok(())
            })
        }
        LlmCmd::Serve {
            port,
            host,
            allow_remote,
        } => serve(llm, host, port, allow_remote),
    }
}

fn round(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

#[cfg(feature = "local-llm")]
fn serve(llm: Llm, host: std::net::IpAddr, port: u16, allow_remote: bool) -> anyhow::Result<()> {
    if !host.is_loopback() && !allow_remote {
        return Err(UsageError::invalid(
            format!("{host} is not a loopback address"),
            "anyone who can reach it could use the model: add --allow-remote if that is what you want",
        )
        .into());
    }
    runtime()?.block_on(async move {
        let llm = std::sync::Arc::new(llm);
        // Load before listening so the first request is not slow and a missing file fails now.
        llm.local_model().await?;
        let listener = tokio::net::TcpListener::bind((host, port))
            .await
            .map_err(|e| {
                UsageError::invalid(
                    format!("cannot listen on {host}:{port}: {e}"),
                    "pick another --port (0 picks a free one)",
                )
            })?;
        let addr = listener.local_addr()?;
        outln!("serving local:smollm2 at http://{addr}/v1 (OpenAI-compatible; Ctrl-C stops)");
        std::io::stdout().flush()?;
        axum::serve(listener, easel_llm::serve::router(llm))
            .with_graceful_shutdown(async {
                let _ = tokio::signal::ctrl_c().await;
            })
            .await?;
        Ok(())
    })
}

#[cfg(not(feature = "local-llm"))]
fn serve(
    _llm: Llm,
    _host: std::net::IpAddr,
    _port: u16,
    _allow_remote: bool,
) -> anyhow::Result<()> {
    Err(easel_llm::LlmError::LocalModelDisabled.into())
}
