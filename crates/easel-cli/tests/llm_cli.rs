//! `easel llm …` with the real local model (fetched by `make test`). A build without the
//! embedded model has its own tests in `llm_fetch_cli.rs`.
#![cfg(feature = "local-llm")]
#![allow(clippy::unwrap_used)]

mod common;

use common::TestVault;
use predicates::prelude::*;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Command, Stdio};
use std::time::Duration;

/// `easel --vault V`, with no model settings leaking in from the environment.
fn easel(v: &TestVault) -> assert_cmd::Command {
    let mut c = v.easel();
    c.env_remove("EASEL_MODEL").env_remove("EASEL_LOCAL_MODEL");
    c
}

#[test]
fn ask_streams_an_answer() {
    let v = TestVault::new();
    easel(&v)
        .args([
            "llm",
            "ask",
            "--temperature",
            "0",
            "--max-tokens",
            "48",
            "What is 2+2? Answer in one sentence.",
        ])
        .assert()
        .success()
        .stdout(predicate::str::contains("4").or(predicate::str::contains("four")));
}

#[test]
fn ask_json_has_text_usage_and_timing() {
    let v = TestVault::new();
    let out = common::succeed(easel(&v).args([
        "--json",
        "llm",
        "ask",
        "-t",
        "0",
        "--max-tokens",
        "16",
        "--system",
        "Be brief.",
        "Say hello.",
    ]));
    let j: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(j["model"], "local:smollm2");
    assert!(j["text"].as_str().is_some_and(|t| !t.is_empty()));
    assert!(j["tool_calls"].as_array().unwrap().is_empty());
    assert!(j["usage"]["completion_tokens"].as_u64().unwrap() <= 16);
    assert!(j["timing"]["total_ms"].as_f64().unwrap() > 0.0);
}

#[test]
fn list_shows_the_local_model_and_unconfigured_providers() {
    let v = TestVault::new();
    let out = easel(&v)
        .env_remove("OPENAI_API_KEY")
        .args(["--json", "llm", "list"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let j: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(j["default_model"], "local:smollm2");
    let local = j["providers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["provider"] == "local")
        .unwrap();
    assert_eq!(local["ready"], true);
    assert_eq!(local["models"][0], "local:smollm2");
    let openai = j["providers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["provider"] == "openai")
        .unwrap();
    assert_eq!(openai["ready"], false);
    assert!(
        openai["status"]
            .as_str()
            .unwrap()
            .contains("OPENAI_API_KEY")
    );
}

#[test]
fn a_missing_model_file_is_explained() {
    let v = TestVault::new();
    easel(&v)
        .env("EASEL_LOCAL_MODEL", "/nonexistent/x.gguf")
        .args(["llm", "ask", "hi"])
        .assert()
        .code(3)
        .stderr(predicate::str::contains(
            "error: the local model file /nonexistent/x.gguf does not exist",
        ))
        .stderr(predicate::str::contains("hint: run 'easel llm fetch'"));
}

#[test]
fn bad_model_names_and_configs_are_explained() {
    let v = TestVault::new();
    easel(&v)
        .args(["llm", "ask", "--model", "gpt4", "hi"])
        .assert()
        .code(5)
        .stderr(predicate::str::contains("provider:model"));
    std::fs::create_dir_all(v.file(".easel")).unwrap();
    std::fs::write(v.file(".easel/config.toml"), "[llm\n").unwrap();
    easel(&v)
        .args(["llm", "list"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("config.toml"));
}

#[test]
fn serve_answers_openai_requests() {
    let v = TestVault::new();
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("easel"))
        .args(["--vault"])
        .arg(v.path())
        .args(["llm", "serve", "--port", "0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let result = std::panic::catch_unwind(|| {
        let url = line
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .unwrap_or_else(|| panic!("{line}"));
        let addr = url.trim_start_matches("http://").trim_end_matches("/v1");
        let body = r#"{"model":"smollm2","messages":[{"role":"user","content":"What is 2+2? Answer in one sentence."}],"temperature":0,"max_tokens":40}"#;
        let mut s = std::net::TcpStream::connect(addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
        write!(
            s,
            "POST /v1/chat/completions HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        )
        .unwrap();
        let mut resp = String::new();
        s.read_to_string(&mut resp).unwrap();
        assert!(resp.starts_with("HTTP/1.1 200"), "{resp}");
        let json = &resp[resp.find("\r\n\r\n").unwrap() + 4..];
        let v: serde_json::Value = serde_json::from_str(json).unwrap();
        let text = v["choices"][0]["message"]["content"].as_str().unwrap();
        assert!(
            text.contains('4') || text.to_lowercase().contains("four"),
            "{text}"
        );
    });
    child.kill().unwrap();
    child.wait().unwrap();
    if let Err(e) = result {
        std::panic::resume_unwind(e);
    }
}

#[test]
fn serve_refuses_remote_addresses_without_the_flag() {
    let v = TestVault::new();
    easel(&v)
        .args(["llm", "serve", "--host", "0.0.0.0", "--port", "0"])
        .env_remove("EASEL_LLM_TOKEN")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--allow-remote"));
}

#[test]
fn serve_refuses_allow_remote_without_a_token() {
    // Anyone who can reach the port could run the model: --allow-remote alone is not enough.
    let v = TestVault::new();
    easel(&v)
        .args([
            "llm",
            "serve",
            "--host",
            "0.0.0.0",
            "--port",
            "0",
            "--allow-remote",
        ])
        .env_remove("EASEL_LLM_TOKEN")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("needs a bearer token"))
        .stderr(predicate::str::contains("hint: add --token SECRET"));
}
