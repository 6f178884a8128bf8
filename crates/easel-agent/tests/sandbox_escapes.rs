//! Red-team tests for the script sandbox, modelled on the known escapes of in-process agent
//! sandboxes (walks from a host object to its constructor or globals, `Function` and `eval`
//! built code, dynamic `import()`, prototype pollution that outlives a call, and resource
//! bombs). Each script tries and reports what it reached; none may reach anything but the
//! standard built-ins and `ctx`, and nothing may leak into the next call.
#![allow(clippy::unwrap_used)]

use easel_agent::{ToolOutput, ToolsConfig, load_tools};
use easel_core::Actor;
use easel_ops::Ctx;
use easel_vault::Vault;
use serde_json::{Value, json};

fn run(source: &str, args: Value, called: &std::sync::Mutex<Vec<String>>) -> ToolOutput {
    let dir = tempfile::tempdir().unwrap();
    let vault = dir.path().join("vault");
    std::fs::create_dir_all(vault.join(".easel/tools")).unwrap();
    std::fs::write(dir.path().join("secret"), "the password").unwrap();
    std::fs::write(
        vault.join(".easel/config.toml"),
        "[tools.t]\ntimeout_secs = 1\n",
    )
    .unwrap();
    std::fs::write(vault.join(".easel/tools/t.js"), source).unwrap();
    let report = load_tools(&vault, &ToolsConfig::from_vault(&vault).unwrap());
    assert!(report.problems.is_empty(), "{:?}", report.problems);
    let tool = report.tools.into_iter().next().unwrap();
    let ctx = Ctx::new(Vault::open(&vault).unwrap(), Actor::agent("tester"));
    let call_op = |op: &str, _: Value| {
        called.lock().unwrap().push(op.to_string());
        ToolOutput::error(format!("no operation {op} here"))
    };
    tool.call(&ctx, args, &call_op)
}

fn js(body: &str) -> String {
    format!(
        "module.exports = {{ name: 't', description: 'red team', effect: 'read', execute: {body} }};"
    )
}

/// Runs `body` and returns what it reported (its output parsed as JSON).
fn report(body: &str) -> Value {
    let called = std::sync::Mutex::new(Vec::new());
    let out = run(&js(body), json!({}), &called);
    assert!(!out.is_error, "{}", out.text);
    assert!(
        called.lock().unwrap().is_empty(),
        "an operation was reached"
    );
    serde_json::from_str(&out.text).unwrap_or(Value::String(out.text))
}

#[test]
fn host_objects_lead_to_nothing_but_javascript() {
    let v = report(
        "(args, ctx) => {
           const seen = {};
           // From ctx and its functions to their constructors and what those can build.
           const F = ctx.vault.read.constructor;
           seen.fromCtx = typeof F('return typeof process + typeof require + typeof std + typeof os')();
           seen.built = F('return [typeof process, typeof require, typeof std, typeof os].join()')();
           seen.viaProto = Object.getPrototypeOf(ctx).constructor === Object;
           seen.globals = Object.getOwnPropertyNames(globalThis).filter(k => !/^[A-Z]|^(globalThis|eval|isFinite|isNaN|parseFloat|parseInt|decodeURI|decodeURIComponent|encodeURI|encodeURIComponent|escape|unescape|ctx|module|exports|queueMicrotask|__loadScript|undefined|atob|btoa|performance)$/.test(k));
           seen.evalBuilt = eval('typeof print + typeof scriptArgs + typeof setTimeout');
           return seen;
         }",
    );
    assert_eq!(v["fromCtx"], "string");
    assert_eq!(v["built"], "undefined,undefined,undefined,undefined");
    assert_eq!(v["viaProto"], true);
    assert_eq!(v["globals"], json!([]), "unexpected globals: {v}");
    assert_eq!(v["evalBuilt"], "undefinedundefinedundefined");
}

#[test]
fn ctx_cannot_be_changed_to_reach_further() {
    let v = report(
        "(args, ctx) => {
           const tries = {};
           try { ctx.vault = { read: () => 'mine' }; tries.replaced = ctx.vault.read === undefined ? 'gone' : typeof ctx.vault.read('x'); } catch (e) { tries.replaced = 'refused'; }
           try { ctx.extra = 1; tries.added = ctx.extra === 1; } catch (e) { tries.added = false; }
           try { tries.secret = ctx.vault.read('../secret'); } catch (e) { tries.secret = 'refused'; }
           try { tries.absolute = ctx.vault.read('/etc/passwd'); } catch (e) { tries.absolute = 'refused'; }
           try { tries.config = ctx.vault.read('.easel/config.toml'); } catch (e) { tries.config = 'refused'; }
           return tries;
         }",
    );
    assert_ne!(v["replaced"], "string", "{v}");
    assert_eq!(v["added"], false, "{v}");
    assert_eq!(v["secret"], "refused");
    assert_eq!(v["absolute"], "refused");
    assert_eq!(v["config"], "refused");
}

#[test]
fn prototype_pollution_does_not_outlive_its_call() {
    let called = std::sync::Mutex::new(Vec::new());
    let polluter = js(
        "() => { Object.prototype.polluted = 'yes'; Array.prototype.push = () => 0; JSON.stringify = () => '\"owned\"'; return 'done'; }",
    );
    assert_eq!(run(&polluter, json!({}), &called), ToolOutput::ok("done"));
    let probe = js("() => ({ polluted: ({}).polluted === undefined, push: [].push(1) === 1 })");
    let out = run(&probe, json!({}), &called);
    assert_eq!(
        serde_json::from_str::<Value>(&out.text).unwrap(),
        json!({"polluted": true, "push": true})
    );
    // A script that replaces JSON.stringify cannot forge its own output's encoding either way:
    // the result is still the value it returned.
    let forger = js("() => { JSON.stringify = () => 'forged'; return { ok: 1 }; }");
    let out = run(&forger, json!({}), &called);
    assert!(!out.is_error);
    assert!(out.text.contains("ok"), "{}", out.text);
}

#[test]
fn arguments_cannot_smuggle_code_or_prototypes() {
    let called = std::sync::Mutex::new(Vec::new());
    let tool = "module.exports = { name: 't', description: 'x', effect: 'read', parameters: { text: { type: 'string' } },
                 execute: ({ text }) => ({ proto: ({}).isAdmin === undefined, type: typeof text }) };";
    let out = run(
        tool,
        json!({"text": "x", "__proto__": {"isAdmin": true}}),
        &called,
    );
    // Either the extra key is refused by the schema, or it reaches nothing.
    if !out.is_error {
        let v: Value = serde_json::from_str(&out.text).unwrap();
        assert_eq!(v["proto"], true, "{v}");
    }
    let out = run(tool, json!({"text": {"toString": "() => 1"}}), &called);
    assert!(
        out.is_error,
        "a non-string reached the script: {}",
        out.text
    );
}

#[test]
fn resource_bombs_end_the_call_not_the_process() {
    let called = std::sync::Mutex::new(Vec::new());
    for body in [
        "() => { let s = 'x'; while (true) s += s; }",
        "() => { const a = []; while (true) a.push(new Array(1e6)); }",
        "() => { const f = () => f(); return f(); }",
        "async () => { while (true) await null; }",
        "() => { for (;;) { try { for (;;) {} } catch (e) {} } }",
        "() => new Promise(() => {})",
    ] {
        let out = run(&js(body), json!({}), &called);
        assert!(out.is_error, "{body}: {}", out.text);
        assert!(out.text.starts_with("error: "), "{body}: {}", out.text);
    }
}
