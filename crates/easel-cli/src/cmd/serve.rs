//! `easel serve`: a thin adapter over `easel_server`.

use crate::cli::ServeArgs;
use easel_server::{ServeOptions, Server};
use easel_vault::Vault;
use std::io::Write as _;
use std::net::SocketAddr;

pub fn run(vault: Vault, args: ServeArgs) -> anyhow::Result<()> {
    let registry = std::sync::Arc::new(crate::registry::build());
    let mut opts = ServeOptions::local(SocketAddr::new(args.host, args.port));
    opts.guard.allow_remote = args.allow_remote;
    opts.guard.allowed_hosts = args.allowed_hosts;
    opts.token = args.token;
    let server = Server::new(vault, registry, opts)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    let open = args.open;
    runtime.block_on(server.serve(
        |_, url| {
            // Normative (DESIGN.md section 17): the first line is the URL; scripts read it.
            let mut out = std::io::stdout().lock();
            let _ = writeln!(out, "Easel at {url}");
            let _ = out.flush();
            if open {
                open_browser(url);
            }
        },
        async {
            let _ = tokio::signal::ctrl_c().await;
        },
    ))?;
    Ok(())
}

/// Opens `url` in the desktop's browser; on a machine without one, says so and goes on.
fn open_browser(url: &str) {
    let (program, args): (&str, Vec<&str>) = if cfg!(target_os = "macos") {
        ("open", vec![url])
    } else if cfg!(windows) {
        ("cmd", vec!["/C", "start", "", url])
    } else {
        ("xdg-open", vec![url])
    };
    let spawned = std::process::Command::new(program)
        .args(&args)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
    if let Err(e) = spawned {
        eprintln!(
            "easel serve: cannot open a browser ({program}: {e}); open the URL above yourself"
        );
    }
}
