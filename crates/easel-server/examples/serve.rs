//! The server alone, with the canvas and note operations, for `scripts/bench-serve-load.py`
//! when building the whole CLI (and llama.cpp with it) is more than a benchmark needs.
//! Takes what the script passes to `easel`: `--vault DIR serve --port P`.
//!
//! ```sh
//! cargo build -p easel-server --example serve
//! python3 scripts/bench-serve-load.py target/debug/examples/serve
//! ```

use easel_ops::Registry;
use easel_server::{ServeOptions, Server};
use easel_vault::Vault;
use std::io::Write as _;
use std::net::SocketAddr;
use std::sync::Arc;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let value = |flag: &str| {
        args.iter()
            .position(|a| a == flag)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    let vault = Vault::open(value("--vault").ok_or("usage: serve --vault DIR serve --port P")?)?;
    let port: u16 = value("--port").unwrap_or_else(|| "0".into()).parse()?;
    let mut registry = Registry::new();
    easel_ops::register(&mut registry);
    let opts = ServeOptions::local(SocketAddr::from(([127, 0, 0, 1], port)));
    let server = Server::new(vault, Arc::new(registry), opts)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(server.serve(
        |_, url| {
            let mut out = std::io::stdout().lock();
            let _ = writeln!(out, "Easel at {url}");
            let _ = out.flush();
        },
        std::future::pending(),
    ))?;
    Ok(())
}
