//! `easel thread …`: conversations on a canvas.

use crate::cli::ThreadCmd;
use crate::output::Output;
use easel_thread::{ContextOptions, DEFAULT_MODEL, VaultFiles, build_context};
use easel_vault::Vault;
use easel_vault::canvas::load_canvas;

pub fn run(vault: &Vault, out: &Output, cmd: ThreadCmd) -> anyhow::Result<()> {
    match cmd {
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
                println!("model: {}", ctx.model);
                println!("chain: {}", ctx.chain.join(" -> "));
                for m in &ctx.messages {
                    println!("\n[{}] (node {})", m.role.as_str(), m.node);
                    println!("{}", m.text());
                }
                for w in &ctx.warnings {
                    eprintln!("warning: {w}");
                }
            })
        }
    }
}
