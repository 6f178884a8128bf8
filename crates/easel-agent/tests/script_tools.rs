//! Script tools run in real QuickJS: the seed's example, async execute, the limits, the sandbox's
//! walls and each door of `ctx`.

#![allow(clippy::unwrap_used)]

use easel_agent::{AgentTool, ToolOutput, ToolsConfig, load_tools};
use easel_core::Actor;
use easel_ops::{Ctx, Effect};
use easel_vault::Vault;
use serde_json::{Value, json};
use std::cell::RefCell;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::path::Path;
use std::sync::Arc;

/// A vault folder inside a scratch folder, so that `../secret` exists next to it.
struct Scratch {
    _dir: tempfile::TempDir,
    vault: std::path::PathBuf,
}

fn scratch(tools: &[(&str, &str)], config: &str) -> Scratch {
    let dir = tempfile::tempdir().unwrap();
    let vault = dir.path().join("vault");
    std::fs::create_dir_all(vault.join(".easel/tools")).unwrap();
    std::fs::write(dir.path().join("secret"), "the password").unwrap();
    std::fs::write(vault.join(".easel/config.toml"), config).unwrap();
    for (file, text) in tools {
        std::fs::write(vault.join(".easel/tools").join(file), text).unwrap();
    }
    Scratch { _dir: dir, vault }
}

fn tool(s: &Scratch, name: &str) -> Arc<dyn AgentTool> {
    let config = ToolsConfig::from_vault(&s.vault).unwrap();
    let report = load_tools(&s.vault, &config);
    assert!(report.problems.is_empty(), "{:?}", report.problems);
    report
        .tools
        .into_iter()
        .find(|t| t.name() == name)
        .unwrap_or_else(|| panic!("no tool {name}"))
}

fn ctx(root: &Path) -> Ctx {
    Ctx::new(Vault::open(root).unwrap(), Actor::agent("tester"))
}

fn call(s: &Scratch, name: &str, args: Value) -> ToolOutput {
    let no_ops = |op: &str, _: Value| ToolOutput::error(format!("no operation {op} here"));
    tool(s, name).call(&ctx(&s.vault), args, &no_ops)
}

fn run_js(body: &str, args: Value) -> ToolOutput {
    run_js_within(body, args, 0.5)
}

/// `run_js` with another deadline: a test of the memory limit must not be ended by the clock
/// first on a busy machine.
fn run_js_within(body: &str, args: Value, secs: f64) -> ToolOutput {
    let s = scratch(
        &[(
            "t.js",
            &format!("module.exports = {{ name: 't', description: 'test', execute: {body} }};"),
        )],
        &format!("[tools.t]\ntimeout_secs = {secs}\n"),
    );
    call(&s, "t", args)
}

const WORD_COUNT: &str = r#"module.exports = {
  name: 'word_count',
  description: 'Count the words of a text',
  parameters: { text: { type: 'string', description: 'The text' } },   // or a full JSON Schema object
  execute: async ({ text }, ctx) => text.split(/\s+/).filter(Boolean).length,
};
"#;

#[test]
fn the_seeds_word_count_example_works() {
    let s = scratch(&[("word_count.js", WORD_COUNT)], "");
    let t = tool(&s, "word_count");
    assert_eq!(t.description(), "Count the words of a text");
    assert_eq!(t.effect(), Effect::Write);
    assert_eq!(t.parameters()["required"], json!(["text"]));
    assert_eq!(
        call(&s, "word_count", json!({"text": "one two  three\n"})),
        ToolOutput::ok("3")
    );
}

#[test]
fn arguments_are_checked_before_the_script_runs() {
    let s = scratch(&[("word_count.js", WORD_COUNT)], "");
    let out = call(&s, "word_count", json!({"text": 7}));
    assert!(out.is_error);
    assert_eq!(
        out.text,
        "error: word_count: argument 'text' must be a string, not a number"
    );
    let out = call(&s, "word_count", json!({}));
    assert!(
        out.text.contains("missing required argument 'text'"),
        "{}",
        out.text
    );
}

#[test]
fn a_full_json_schema_and_a_declared_effect_are_used() {
    let s = scratch(
        &[(
            "upper.js",
            "module.exports = { name: 'upper', effect: 'read',
               parameters: { type: 'object', properties: { s: { type: 'string' } }, required: ['s'], additionalProperties: false },
               execute: ({ s }) => s.toUpperCase() };",
        )],
        "",
    );
    assert_eq!(tool(&s, "upper").effect(), Effect::Read);
    assert_eq!(
        call(&s, "upper", json!({"s": "abc"})),
        ToolOutput::ok("ABC")
    );
    assert!(
        call(&s, "upper", json!({"s": "a", "t": 1}))
            .text
            .contains("unknown argument 't'")
    );
}

#[test]
fn async_execute_is_driven_to_its_end() {
    let out = run_js(
        "async ({ n }) => { const a = await Promise.resolve(n); const b = await new Promise(r => r(a * 2)); return { n: a, double: b }; }",
        json!({"n": 21}),
    );
    assert_eq!(out, ToolOutput::ok(r#"{"n":21,"double":42}"#));
}

#[test]
fn a_rejected_promise_and_a_throw_are_error_outputs() {
    let out = run_js("async () => { throw new Error('no luck'); }", json!({}));
    assert!(out.is_error);
    assert!(
        out.text.starts_with("error: t threw Error: no luck"),
        "{}",
        out.text
    );
    let out = run_js("() => { throw 'plain'; }", json!({}));
    assert_eq!(out.text, "error: t threw plain");
}

#[test]
fn a_promise_nothing_settles_is_an_error() {
    let out = run_js("() => new Promise(() => {})", json!({}));
    assert_eq!(out.text, "error: t returned a promise that never settled");
}

#[test]
fn an_infinite_loop_meets_the_deadline() {
    let out = run_js("() => { for (;;) {} }", json!({}));
    assert_eq!(out, ToolOutput::error("t timed out after 0.5 s"));
    // A script cannot catch the interruption.
    let out = run_js(
        "() => { for (;;) { try { for (;;) {} } catch (e) {} } }",
        json!({}),
    );
    assert_eq!(out.text, "error: t timed out after 0.5 s");
    // Nor escape it in a job of its own.
    let out = run_js("async () => { await null; for (;;) {} }", json!({}));
    assert_eq!(out.text, "error: t timed out after 0.5 s");
}

#[test]
fn a_cancelled_run_stops_the_script() {
    let s = scratch(
        &[(
            "spin.js",
            "module.exports = { name: 'spin', execute: () => { for (;;) {} } };",
        )],
        "[tools.spin]\ntimeout_secs = 600\n",
    );
    let cancel = easel_ops::Cancel::new();
    cancel.cancel();
    let ctx = ctx(&s.vault).with_cancel(cancel);
    let no_ops = |_: &str, _: Value| ToolOutput::error("none");
    let out = tool(&s, "spin").call(&ctx, json!({}), &no_ops);
    assert_eq!(out, ToolOutput::error("spin was cancelled"));
}

#[test]
fn the_default_deadline_is_two_seconds() {
    let s = scratch(&[("word_count.js", WORD_COUNT)], "");
    let t = easel_agent::ScriptTool::from_source(
        "word_count.js",
        WORD_COUNT.to_string(),
        &ToolsConfig::from_vault(&s.vault).unwrap(),
    )
    .unwrap();
    assert_eq!(t.limits().deadline, std::time::Duration::from_secs(2));
    assert_eq!(t.limits().memory, 32 * 1024 * 1024);
}

#[test]
fn a_memory_bomb_is_stopped_and_the_process_lives_on() {
    let out = run_js_within("() => new Array(1e9).fill(0).length", json!({}), 30.0);
    assert_eq!(
        out,
        ToolOutput::error("t ran out of memory (its limit is 32 MiB)")
    );
    let out = run_js_within(
        "() => { const all = []; for (;;) { all.push({ n: all.length, s: 'x' + all.length }); } }",
        json!({}),
        30.0,
    );
    assert_eq!(out.text, "error: t ran out of memory (its limit is 32 MiB)");
    // The next call of a tool runs as usual.
    assert_eq!(run_js("() => 'alive'", json!({})), ToolOutput::ok("alive"));
}

#[test]
fn deep_recursion_is_a_stack_error() {
    let out = run_js(
        "() => { const f = (n) => f(n + 1) + 1; return f(0); }",
        json!({}),
    );
    assert_eq!(
        out,
        ToolOutput::error("t overflowed its stack (recursion too deep)")
    );
    assert_eq!(run_js("() => 'alive'", json!({})), ToolOutput::ok("alive"));
}

#[test]
fn nothing_but_the_builtins_and_ctx_is_reachable() {
    let out = run_js(
        "(args, ctx) => ({
            require: typeof require, process: typeof process, std: typeof globalThis.std,
            os: typeof globalThis.os, setTimeout: typeof setTimeout, setInterval: typeof setInterval,
            fetch: typeof fetch, console: typeof console, Deno: typeof Deno, ctx: Object.keys(ctx).sort(),
            json: typeof JSON.parse, math: typeof Math.max,
        })",
        json!({}),
    );
    let v: Value = serde_json::from_str(&out.text).unwrap();
    for name in [
        "require",
        "process",
        "std",
        "os",
        "setTimeout",
        "setInterval",
        "fetch",
        "console",
        "Deno",
    ] {
        assert_eq!(v[name], "undefined", "{name} is reachable: {}", out.text);
    }
    assert_eq!(v["ctx"], json!(["call", "fetch", "vault"]));
    assert_eq!(v["json"], "function");
    // Modules cannot be loaded either.
    let out = run_js(
        "async () => { await import('fs'); return 'imported'; }",
        json!({}),
    );
    assert!(out.is_error, "{}", out.text);
}

#[test]
fn each_call_gets_a_fresh_context() {
    let s = scratch(
        &[(
            "leak.js",
            "module.exports = { name: 'leak', parameters: { set: { type: 'boolean' } },
               execute: ({ set }) => { const before = typeof globalThis.leaked; if (set) globalThis.leaked = 1; return before; } };",
        )],
        "",
    );
    assert_eq!(
        call(&s, "leak", json!({"set": true})),
        ToolOutput::ok("undefined")
    );
    assert_eq!(
        call(&s, "leak", json!({"set": false})),
        ToolOutput::ok("undefined")
    );
}

#[test]
fn the_vault_is_readable_inside_only() {
    let s = scratch(
        &[(
            "peek.js",
            "module.exports = { name: 'peek', parameters: { path: { type: 'string' } },
               execute: ({ path }, ctx) => { try { return ctx.vault.read(path); } catch (e) { return 'refused: ' + e.message; } } };",
        )],
        "[providers.openai]\napi_key = 'sk-secret'\n",
    );
    std::fs::create_dir_all(s.vault.join("Notes")).unwrap();
    std::fs::write(s.vault.join("Notes/idea.md"), "# Idea\nbody").unwrap();
    assert_eq!(
        call(&s, "peek", json!({"path": "Notes/idea.md"})),
        ToolOutput::ok("# Idea\nbody")
    );
    for path in [
        "../secret",
        "/etc/passwd",
        ".easel/config.toml",
        "Notes/../../secret",
    ] {
        let out = call(&s, "peek", json!({"path": path}));
        assert!(
            !out.is_error && out.text.starts_with("refused: "),
            "{path}: {}",
            out.text
        );
        assert!(
            !out.text.contains("password") && !out.text.contains("sk-secret"),
            "{path}: {}",
            out.text
        );
    }
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(
            s.vault.parent().unwrap().join("secret"),
            s.vault.join("link.md"),
        )
        .unwrap();
        let out = call(&s, "peek", json!({"path": "link.md"}));
        assert!(out.text.starts_with("refused: "), "{}", out.text);
    }
    let out = call(&s, "peek", json!({"path": "missing.md"}));
    assert!(out.text.starts_with("refused: "), "{}", out.text);
}

#[test]
fn the_vault_can_be_listed_and_searched() {
    let s = scratch(
        &[(
            "look.js",
            "module.exports = { name: 'look', effect: 'read',
               execute: (args, ctx) => ({ files: ctx.vault.list('Notes').map(f => f.path), hits: ctx.vault.search('needle').map(m => m.path + ':' + m.line) }) };",
        )],
        "",
    );
    std::fs::create_dir_all(s.vault.join("Notes")).unwrap();
    std::fs::write(s.vault.join("Notes/a.md"), "hay\nneedle here").unwrap();
    std::fs::write(s.vault.join("Notes/b.md"), "hay").unwrap();
    std::fs::write(s.vault.join("other.md"), "no").unwrap();
    let out = call(&s, "look", json!({}));
    assert_eq!(
        serde_json::from_str::<Value>(&out.text).unwrap(),
        json!({"files": ["Notes/a.md", "Notes/b.md"], "hits": ["Notes/a.md:2"]})
    );
}

#[test]
fn ctx_call_reaches_the_call_op() {
    let s = scratch(
        &[(
            "caller.js",
            "module.exports = { name: 'caller',
               execute: async (args, ctx) => {
                 const made = await ctx.call('canvas_write', { path: 'Ideas' });
                 let refused;
                 try { ctx.call('note_delete', { path: 'x.md' }); } catch (e) { refused = e.message; }
                 return { made: made.nodeCount, refused };
               } };",
        )],
        "",
    );
    let seen = RefCell::new(Vec::new());
    let call_op = |op: &str, args: Value| {
        seen.borrow_mut().push((op.to_string(), args));
        if op == "canvas_write" {
            ToolOutput::ok(r#"{"nodeCount":1}"#)
        } else {
            ToolOutput::error("the user refused this call")
        }
    };
    let out = tool(&s, "caller").call(&ctx(&s.vault), json!({}), &call_op);
    assert_eq!(
        serde_json::from_str::<Value>(&out.text).unwrap(),
        json!({"made": 1, "refused": "note_delete: the user refused this call"})
    );
    assert_eq!(
        *seen.borrow(),
        vec![
            ("canvas_write".to_string(), json!({"path": "Ideas"})),
            ("note_delete".to_string(), json!({"path": "x.md"})),
        ]
    );
}

/// An HTTP server on 127.0.0.1 answering each request with its method and body.
fn echo_server() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let mut first = String::new();
            reader.read_line(&mut first).unwrap();
            let mut length = 0;
            loop {
                let mut line = String::new();
                reader.read_line(&mut line).unwrap();
                if line.trim().is_empty() {
                    break;
                }
                if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                    length = v.trim().parse().unwrap();
                }
            }
            let mut body = vec![0; length];
            reader.read_exact(&mut body).unwrap();
            let text = format!("{} {}", first.trim(), String::from_utf8_lossy(&body));
            let reply = format!(
                "HTTP/1.1 201 Created\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{text}",
                text.len()
            );
            stream.write_all(reply.as_bytes()).unwrap();
        }
    });
    port
}

#[test]
fn fetch_reaches_allowed_hosts_only() {
    let port = echo_server();
    let script = "module.exports = { name: 'web', parameters: { url: { type: 'string' }, post: { type: 'boolean', optional: true } },
        execute: async ({ url, post }, ctx) => {
          try { return await ctx.fetch(url, post ? { method: 'POST', body: { q: 1 } } : undefined); }
          catch (e) { return 'refused: ' + e.message; } } };";
    let s = scratch(
        &[("web.js", script)],
        "[tools.web]\nallow_net = [\"127.0.0.1\"]\n",
    );
    assert_eq!(tool(&s, "web").effect(), Effect::External);
    let out = call(
        &s,
        "web",
        json!({"url": format!("http://127.0.0.1:{port}/hello")}),
    );
    assert_eq!(
        serde_json::from_str::<Value>(&out.text).unwrap(),
        json!({"status": 201, "text": "GET /hello HTTP/1.1 "})
    );
    let out = call(
        &s,
        "web",
        json!({"url": format!("http://127.0.0.1:{port}/p"), "post": true}),
    );
    assert_eq!(
        serde_json::from_str::<Value>(&out.text).unwrap(),
        json!({"status": 201, "text": "POST /p HTTP/1.1 {\"q\":1}"})
    );
    let out = call(
        &s,
        "web",
        json!({"url": format!("http://localhost:{port}/")}),
    );
    assert!(
        out.text
            .starts_with("refused: 'localhost' is not among the hosts"),
        "{}",
        out.text
    );

    // The same script without allow_net reaches nothing.
    let s = scratch(&[("web.js", script)], "");
    let out = call(
        &s,
        "web",
        json!({"url": format!("http://127.0.0.1:{port}/")}),
    );
    assert!(
        out.text
            .starts_with("refused: this tool may not reach the network"),
        "{}",
        out.text
    );
}

#[test]
fn broken_tool_files_are_problems_and_the_others_load() {
    let s = scratch(
        &[
            ("word_count.js", WORD_COUNT),
            (
                "syntax.js",
                "module.exports = { name: 'x', execute: () => { };",
            ),
            ("nameless.js", "module.exports = { execute: () => 1 };"),
            ("lazy.js", "module.exports = { name: 'lazy' };"),
            ("loop.js", "for (;;) {}"),
            ("throws.js", "throw new Error('at load');"),
            (
                "bad_params.js",
                "module.exports = { name: 'bp', parameters: { a: 'string' }, execute: () => 1 };",
            ),
            (
                "zz_twice.js",
                "module.exports = { name: 'word_count', execute: () => 1 };",
            ),
            ("bad.toml", "command = "),
            ("notes.txt", "not a tool"),
        ],
        "",
    );
    let report = load_tools(&s.vault, &ToolsConfig::default());
    let names: Vec<&str> = report.tools.iter().map(|t| t.name()).collect();
    assert_eq!(names, vec!["word_count"]);
    let problems: Vec<(String, String)> = report
        .problems
        .iter()
        .map(|(p, r)| {
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                r.clone(),
            )
        })
        .collect();
    let reason = |file: &str| {
        problems
            .iter()
            .find(|(f, _)| f == file)
            .map(|(_, r)| r.clone())
            .unwrap_or_else(|| panic!("no problem for {file}: {problems:?}"))
    };
    assert_eq!(problems.len(), 8, "{problems:?}");
    assert!(
        reason("syntax.js").starts_with("syntax error: SyntaxError"),
        "{}",
        reason("syntax.js")
    );
    assert!(
        reason("syntax.js").contains("syntax.js:1"),
        "{}",
        reason("syntax.js")
    );
    assert!(reason("nameless.js").contains("no name"));
    assert!(reason("lazy.js").contains("no execute function"));
    assert!(
        reason("loop.js").contains("timed out"),
        "{}",
        reason("loop.js")
    );
    assert!(
        reason("throws.js").contains("Error: at load"),
        "{}",
        reason("throws.js")
    );
    assert!(reason("bad_params.js").contains("parameter 'a'"));
    assert!(
        reason("zz_twice.js").contains("already defined by"),
        "{}",
        reason("zz_twice.js")
    );
    assert!(
        reason("bad.toml").contains("not a command tool file"),
        "{}",
        reason("bad.toml")
    );
}

/// An HTTP server on 127.0.0.1 that reads a request's head and answers `reply(port)`.
fn server(reply: impl Fn(u16) -> Option<Vec<u8>> + Send + 'static) -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            loop {
                let mut line = String::new();
                if reader.read_line(&mut line).unwrap_or(0) == 0 || line.trim().is_empty() {
                    break;
                }
            }
            match reply(port) {
                Some(bytes) => {
                    let _ = stream.write_all(&bytes);
                }
                // Keep the connection open and silent until the client gives up.
                None => {
                    let _ = reader.read_to_end(&mut Vec::new());
                }
            }
        }
    });
    port
}

fn fetch_tool() -> Scratch {
    scratch(
        &[(
            "web.js",
            "module.exports = { name: 'web', parameters: { url: { type: 'string' } },
               execute: async ({ url }, ctx) => { try { return await ctx.fetch(url); } catch (e) { return 'refused: ' + e.message; } } };",
        )],
        "[tools.web]\nallow_net = [\"127.0.0.1\"]\ntimeout_secs = 1\n",
    )
}

#[test]
fn fetch_does_not_follow_a_redirect_to_another_host() {
    let port = server(|port| {
        Some(format!("HTTP/1.1 302 Found\r\nlocation: http://localhost:{port}/x\r\ncontent-length: 0\r\nconnection: close\r\n\r\n").into_bytes())
    });
    let out = call(
        &fetch_tool(),
        "web",
        json!({"url": format!("http://127.0.0.1:{port}/")}),
    );
    assert_eq!(
        serde_json::from_str::<Value>(&out.text).unwrap()["status"],
        302,
        "{}",
        out.text
    );
}

#[test]
fn fetch_refuses_an_answer_over_one_mebibyte() {
    let port = server(|_| {
        let body = vec![b'a'; 2 * 1024 * 1024];
        let mut reply = format!(
            "HTTP/1.1 200 OK\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
            body.len()
        )
        .into_bytes();
        reply.extend(body);
        Some(reply)
    });
    let out = call(
        &fetch_tool(),
        "web",
        json!({"url": format!("http://127.0.0.1:{port}/")}),
    );
    assert!(
        out.text.starts_with("refused: the answer of")
            && out.text.ends_with("is larger than 1 MiB"),
        "{}",
        out.text
    );
}

#[test]
fn a_silent_server_ends_with_the_deadline() {
    let port = server(|_| None);
    let out = call(
        &fetch_tool(),
        "web",
        json!({"url": format!("http://127.0.0.1:{port}/")}),
    );
    // Either the fetch gives up and the script sees it, or the deadline ends the script.
    assert!(out.text.contains("timed out"), "{}", out.text);
}
