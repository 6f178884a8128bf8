//! Any bytes as MCP messages on Easel's stdio transport, after a real handshake: the server
//! answers what it can, never panics, and still answers a ping afterwards.
#![no_main]

use easel_ops::Registry;
use easel_vault::Vault;
use libfuzzer_sys::fuzz_target;
use std::sync::{Arc, OnceLock};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

const HANDSHAKE: &[u8] = b"{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"fuzz\",\"version\":\"1\"}}}\n{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n";
const PING: &[u8] = b"\n{\"jsonrpc\":\"2.0\",\"id\":\"fuzz-end\",\"method\":\"ping\"}\n";

struct World {
    runtime: tokio::runtime::Runtime,
    vault: Vault,
    registry: Arc<Registry>,
    _dir: tempfile::TempDir,
}

fn world() -> &'static World {
    static WORLD: OnceLock<World> = OnceLock::new();
    WORLD.get_or_init(|| {
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::write(
            dir.path().join("Ideas.canvas"),
            r#"{"nodes":[{"id":"a","type":"text","text":"Hi","x":0,"y":0,"width":100,"height":50}],"edges":[]}"#,
        )
        .expect("seed canvas");
        let vault = Vault::open(dir.path()).expect("vault");
        let mut registry = Registry::new();
        easel_ops::register(&mut registry);
        World {
            runtime: tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()
                .expect("runtime"),
            vault,
            registry: Arc::new(registry),
            _dir: dir,
        }
    })
}

fuzz_target!(|data: &[u8]| {
    let w = world();
    w.runtime.block_on(async {
        let (client, server) = tokio::io::duplex(64 * 1024);
        let (server_read, server_write) = tokio::io::split(server);
        let serving = tokio::spawn(easel_mcp::serve_lines(
            w.vault.clone(),
            Arc::clone(&w.registry),
            server_read,
            server_write,
        ));
        let (client_read, mut client_write) = tokio::io::split(client);
        // Read the answers while writing, so neither side waits on a full pipe.
        let answers = tokio::spawn(async move {
            let mut lines = BufReader::new(client_read).lines();
            while let Ok(Some(line)) = lines.next_line().await {
                if line.contains("\"fuzz-end\"") {
                    return true;
                }
            }
            false
        });
        client_write.write_all(HANDSHAKE).await.expect("handshake");
        client_write.write_all(data).await.expect("fuzz input");
        client_write.write_all(PING).await.expect("ping");
        assert!(
            answers.await.expect("reader"),
            "the server stopped answering after the input"
        );
        drop(client_write);
        let _ = serving.await.expect("the server panicked");
    });
});
