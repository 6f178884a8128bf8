//! `easel mcp`: a thin adapter over `easel_mcp`.

use crate::cli::McpArgs;
use easel_mcp::HttpOptions;
use easel_vault::Vault;

pub fn run(vault: Vault, args: McpArgs) -> anyhow::Result<()> {
    let registry = std::sync::Arc::new(crate::registry::build());
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    match args.http {
        // Standard output is the protocol channel: nothing else may be printed there.
        None => runtime.block_on(easel_mcp::serve_stdio(vault, registry))?,
        Some(addr) => {
            let mut opts = HttpOptions::local(addr);
            opts.guard.allow_remote = args.allow_remote;
            opts.guard.token = args.token;
            opts.guard.allowed_hosts = args.allowed_hosts;
            opts.session_idle = std::time::Duration::from_secs(args.session_idle.max(1));
            runtime.block_on(easel_mcp::serve_http(vault, registry, opts, |bound| {
                // Scripts and tests read the port from this line when they asked for port 0.
                eprintln!("easel mcp: listening on http://{bound}/mcp");
            }))?
        }
    }
    Ok(())
}
