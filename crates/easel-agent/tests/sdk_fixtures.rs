//! The OpenAI Agents SDK's documented behaviours that apply to Easel, as data: each file of
//! `tests/sdk/*.json` is one behaviour (its `source` names the SDK doc it ports), with the
//! vault's files (agent files among them), the run, the model's scripted answers and what
//! must come out exactly: the events, every request the model was sent, how the run ended,
//! the vault's files and the ledger afterwards.
//!
//! A fixture may go on with `then`: steps on the same session, each `{"approve": true/false}`
//! (answers the waiting approval) or `{"input": "..."}` (a new message); `finish` is then the
//! list of each step's end.
//!
//! `SDK_FIXTURE=name` runs one file; `SDK_FIXTURES_BLESS=1` writes what came out into the
//! files' `expect` (review the diff before committing it: a blessed file asserts whatever the
//! runner did).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use easel_agent::scripted::{Scripted, Turn};
use easel_agent::{
    AgentError, Approvals, Collected, Finish, LlmModel, Record, RunRequest, Session,
};
use easel_vault::Vault;
use serde_json::{Map, Value, json};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The keys every fixture's `expect` holds (`load_notes` may be left out when empty).
const EXPECT_KEYS: [&str; 7] = [
    "events",
    "requests",
    "finish",
    "run_ended",
    "files",
    "ledger",
    "load_notes",
];

#[test]
fn every_sdk_fixture_holds() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/sdk");
    let only = std::env::var("SDK_FIXTURE").ok();
    let bless = std::env::var_os("SDK_FIXTURES_BLESS").is_some();
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/sdk/ is readable")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .filter(|p| {
            only.as_deref()
                .is_none_or(|o| p.file_stem().is_some_and(|s| s == o))
        })
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no fixture in {}", dir.display());
    let mut failures = Vec::new();
    for path in &files {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(path).unwrap();
        let mut fixture: Value = match serde_json::from_str(&text) {
            Ok(v) => v,
            Err(e) => {
                failures.push(format!("{name}: not JSON: {e}"));
                continue;
            }
        };
        if let Err(e) = check_shape(&fixture) {
            failures.push(format!("{name}: {e}"));
            continue;
        }
        // A fixture that cannot run (a malformed turn, an unknown approvals mode) is reported
        // with its name, and the others still run.
        let actual = match std::panic::catch_unwind(|| run_fixture(&fixture)) {
            Ok(v) => v,
            Err(p) => {
                let why = p
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default();
                failures.push(format!("{name}: the fixture could not run: {why}"));
                continue;
            }
        };
        if bless {
            fixture["expect"] = actual;
            let out = readable(&fixture, 0, 0) + "\n";
            std::fs::write(path, out).unwrap();
            continue;
        }
        let mut expected = fixture["expect"].clone();
        if expected.get("load_notes").is_none() {
            expected["load_notes"] = json!([]);
        }
        if let Some(d) = first_difference("expect", &expected, &actual) {
            failures.push(format!(
                "{name}: {d}\n  what came out (SDK_FIXTURES_BLESS=1 writes it):\n{}",
                readable(&actual, 2, 2)
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} fixtures differ:\n\n{}",
        failures.len(),
        files.len(),
        failures.join("\n\n")
    );
}

/// A fixture names its source, its run and its expectations; a missing key is a mistake in
/// the fixture, not a difference.
fn check_shape(f: &Value) -> Result<(), String> {
    for key in ["source", "behaviour", "run", "model"] {
        if f.get(key).is_none() {
            return Err(format!("the fixture has no '{key}'"));
        }
    }
    let Some(expect) = f.get("expect").and_then(Value::as_object) else {
        return Err("the fixture has no 'expect' object".into());
    };
    for key in EXPECT_KEYS {
        if key != "load_notes" && !expect.contains_key(key) {
            return Err(format!("'expect' has no '{key}'"));
        }
    }
    if let Some(k) = expect.keys().find(|k| !EXPECT_KEYS.contains(&k.as_str())) {
        return Err(format!(
            "'expect' has the unknown key '{k}' (known: {EXPECT_KEYS:?})"
        ));
    }
    Ok(())
}

/// A file's text: a string, or its lines (each ended by a newline).
fn text_of(v: &Value) -> String {
    match v {
        Value::Array(lines) => lines
            .iter()
            .map(|l| format!("{}\n", l.as_str().unwrap_or_default()))
            .collect(),
        other => other.as_str().unwrap_or_default().to_string(),
    }
}

/// A file's text as a fixture states it: its lines when it has several.
fn text_value(text: &str) -> Value {
    match text.strip_suffix('\n') {
        Some(body) if body.contains('\n') => {
            Value::Array(body.split('\n').map(|l| json!(l)).collect())
        }
        _ => json!(text),
    }
}

fn turn(v: &Value) -> Turn {
    if let Some(t) = v.get("text") {
        return Turn::Text(t.as_str().unwrap_or_default().into());
    }
    if let Some(list) = v.get("calls").and_then(Value::as_array) {
        return Turn::Calls(
            list.iter()
                .map(|c| {
                    (
                        c["name"].as_str().unwrap_or_default().to_string(),
                        c.get("arguments").cloned().unwrap_or(json!({})),
                    )
                })
                .collect(),
        );
    }
    if let Some(b) = v.get("bad_arguments") {
        return Turn::BadArguments(
            b["name"].as_str().unwrap_or_default().into(),
            b["arguments"].as_str().unwrap_or_default().into(),
        );
    }
    if let Some(code) = v.get("status").and_then(Value::as_u64) {
        return Turn::Status(u16::try_from(code).unwrap_or(500));
    }
    if let Some(t) = v.get("cut") {
        return Turn::Cut(t.as_str().unwrap_or_default().into());
    }
    if let Some(c) = v.get("cut_call") {
        return Turn::CutCall(
            c["name"].as_str().unwrap_or_default().into(),
            c["arguments"].as_str().unwrap_or_default().into(),
        );
    }
    panic!("a model turn is text, calls, bad_arguments, status, cut or cut_call: {v}")
}

/// Runs one fixture and returns what came out, in the shape of its `expect`.
fn run_fixture(f: &Value) -> Value {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let model = Scripted::start(
        f["model"]
            .as_array()
            .map(|a| a.iter().map(turn).collect())
            .unwrap_or_default(),
    );
    model.configure(root).unwrap();
    if let Some(files) = f.get("files").and_then(Value::as_object) {
        for (path, content) in files {
            let p = root.join(path);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, text_of(content)).unwrap();
        }
    }
    let vault = Vault::open(root).unwrap();
    let mut registry = easel_ops::Registry::new();
    easel_ops::register(&mut registry);
    let config = easel_llm::Config::load(Some(root)).unwrap();
    let llm = Arc::new(LlmModel::new(
        Arc::new(easel_llm::Llm::new(config)),
        Arc::new(easel_llm::ops::Models::default()),
    ));
    let (rt, notes) = easel_agent::load_runtime(&vault, registry, llm).unwrap();

    let events = Collected::default();
    let emit = |e| events.push(e);
    let run = &f["run"];
    let result = rt.run(
        RunRequest {
            agent: run["agent"].as_str().unwrap_or_default().into(),
            input: run["input"].as_str().map(String::from),
            session: None,
            model: None,
            approvals: approvals(&run["approvals"]),
            max_turns: max_turns(run),
        },
        &emit,
    );
    let (finish, mut session) = finish_of(&result);
    let mut finishes = vec![finish];
    // Later steps on the same session: an answer to the waiting approval, or a new message.
    for step in f
        .get("then")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let id = session.clone().unwrap_or_default();
        let result = if let Some(allow) = step.get("approve").and_then(Value::as_bool) {
            rt.approve(&id, allow, approvals(&step["approvals"]), &emit)
        } else {
            rt.run(
                RunRequest {
                    agent: step["agent"]
                        .as_str()
                        .or(run["agent"].as_str())
                        .unwrap_or_default()
                        .into(),
                    input: step["input"].as_str().map(String::from),
                    session: Some(id),
                    model: None,
                    approvals: approvals(&step["approvals"]),
                    max_turns: max_turns(step),
                },
                &emit,
            )
        };
        let (finish, s) = finish_of(&result);
        session = session.or(s);
        finishes.push(finish);
    }
    let finish = if finishes.len() == 1 {
        finishes.remove(0)
    } else {
        Value::Array(finishes)
    };
    let records: Vec<Record> = session
        .as_deref()
        .map(|id| Session::open(root, id).unwrap().records().to_vec())
        .unwrap_or_default();
    let mut run_ids: Vec<String> = Vec::new();
    for r in &records {
        if let Record::RunStarted { run, .. } = r
            && !run_ids.contains(run)
        {
            run_ids.push(run.clone());
        }
    }
    let run_ended = records
        .iter()
        .rev()
        .find_map(|r| match r {
            Record::RunEnded { status, output, .. } => {
                Some(json!({"status": status, "output": output}))
            }
            _ => None,
        })
        .unwrap_or(Value::Null);
    let events: Vec<Value> = events
        .0
        .lock()
        .unwrap()
        .iter()
        .map(|e| serde_json::to_value(e).unwrap())
        .collect();
    let requests: Vec<Value> = model
        .requests()
        .iter()
        .map(|r| request_of(r, &rt.registry))
        .collect();
    let mut ledger: Vec<Value> = vault
        .ledger_list(None)
        .unwrap()
        .iter()
        .map(|e| json!({"op": e.op, "path": e.path, "actor": e.actor, "run": e.run}))
        .collect();
    ledger.reverse();

    let mut out = Map::new();
    out.insert("events".into(), Value::Array(events));
    out.insert("requests".into(), Value::Array(requests));
    out.insert("finish".into(), finish);
    out.insert("run_ended".into(), run_ended);
    out.insert("files".into(), vault_files(root));
    out.insert("ledger".into(), Value::Array(ledger));
    out.insert("load_notes".into(), json!(notes));
    let mut out = Value::Object(out);
    let mut names = Vec::new();
    if let Some(s) = &session {
        names.push((s.clone(), "<session>".to_string()));
    }
    for (i, r) in run_ids.into_iter().enumerate() {
        let name = if i == 0 {
            "<run>".to_string()
        } else {
            format!("<run {}>", i + 1)
        };
        names.push((r, name));
    }
    // Sessions of agents asked as tools: their ids are random too.
    for other in session_ids(root) {
        if Some(&other) != session.as_ref() {
            names.push((other, "<other session>".into()));
        }
    }
    replace_ids(&mut out, &names);
    out
}

/// `wait` (nobody to ask; the default), `yes` or `dry_run`.
fn approvals(v: &Value) -> Approvals<'static> {
    match v.as_str().unwrap_or("wait") {
        "wait" => Approvals::Wait,
        "yes" => Approvals::Yes,
        "dry_run" => Approvals::DryRun,
        other => panic!("approvals are wait, yes or dry_run, not {other}"),
    }
}

fn max_turns(step: &Value) -> Option<u32> {
    step["max_turns"]
        .as_u64()
        .and_then(|n| u32::try_from(n).ok())
}

fn finish_of(result: &Result<Finish, AgentError>) -> (Value, Option<String>) {
    match result {
        Ok(Finish::Done {
            agent,
            output,
            session,
            run,
            turns,
            usage,
            proposed,
        }) => (
            json!({"status": "done", "agent": agent, "output": output, "session": session,
                   "run": run, "turns": turns, "usage": usage, "proposed": proposed}),
            Some(session.clone()),
        ),
        Ok(Finish::Waiting(w)) => (
            json!({"status": "waiting", "exit_code": easel_core::ErrorKind::Waiting.exit_code(),
                   "agent": w.agent, "id": w.id, "name": w.name, "arguments": w.arguments,
                   "session": w.session, "run": w.run, "turns": w.turns, "usage": w.usage}),
            Some(w.session.clone()),
        ),
        Err(e) => {
            let session = match e {
                AgentError::MaxTurns { session, .. } | AgentError::Model { session, .. } => {
                    Some(session.clone())
                }
                _ => None,
            };
            (
                json!({"status": "error", "exit_code": e.kind().exit_code(),
                       "message": e.to_string(), "hint": e.hint()}),
                session,
            )
        }
    }
}

/// A request as the fixtures state it: the messages (tool calls with their arguments as
/// JSON) and the tools offered. An operation of the Registry is named only, since its
/// tutorial description belongs to its crate; every other tool (handoffs, agents as tools)
/// is stated whole.
fn request_of(body: &Value, registry: &easel_ops::Registry) -> Value {
    let messages: Vec<Value> = body["messages"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .into_iter()
        .map(|m| {
            let mut out = Map::new();
            out.insert("role".into(), m["role"].clone());
            if let Some(c) = m.get("content").filter(|c| !c.is_null()) {
                out.insert("content".into(), c.clone());
            }
            if let Some(calls) = m.get("tool_calls").and_then(Value::as_array) {
                let calls: Vec<Value> = calls
                    .iter()
                    .map(|c| {
                        let raw = c["function"]["arguments"].as_str().unwrap_or_default();
                        let args = serde_json::from_str(raw).unwrap_or_else(|_| json!(raw));
                        json!({"id": c["id"], "name": c["function"]["name"], "arguments": args})
                    })
                    .collect();
                out.insert("tool_calls".into(), Value::Array(calls));
            }
            if let Some(id) = m.get("tool_call_id") {
                out.insert("tool_call_id".into(), id.clone());
            }
            Value::Object(out)
        })
        .collect();
    let tools: Vec<Value> = body["tools"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .into_iter()
        .map(|t| {
            let f = &t["function"];
            let name = f["name"].as_str().unwrap_or_default();
            if registry.contains(name) {
                json!(name)
            } else {
                json!({"name": name, "description": f["description"], "parameters": f["parameters"]})
            }
        })
        .collect();
    let mut out = json!({"messages": messages, "tools": tools});
    // Stated only when it is not the default, so that most fixtures need not say it.
    if let Some(choice) = body.get("tool_choice").filter(|c| *c != "auto") {
        out["tool_choice"] = choice.clone();
    }
    out
}

/// The vault's files outside `.easel/`, by path, with their text.
fn vault_files(root: &Path) -> Value {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<(String, String)>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for e in entries.flatten() {
            let p = e.path();
            let rel = p
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            if rel == ".easel" || rel.starts_with(".easel/") {
                continue;
            }
            if p.is_dir() {
                walk(root, &p, out);
            } else {
                out.push((rel, std::fs::read_to_string(&p).unwrap_or_default()));
            }
        }
    }
    let mut files = Vec::new();
    walk(root, root, &mut files);
    files.sort();
    let mut out = Map::new();
    for (path, text) in files {
        out.insert(path, text_value(&text));
    }
    Value::Object(out)
}

fn session_ids(root: &Path) -> Vec<String> {
    let mut ids: Vec<String> = std::fs::read_dir(root.join(easel_agent::SESSIONS_DIR))
        .map(|d| {
            d.flatten()
                .filter_map(|e| {
                    e.file_name()
                        .to_string_lossy()
                        .strip_suffix(".jsonl")
                        .map(String::from)
                })
                .collect()
        })
        .unwrap_or_default();
    ids.sort();
    ids
}

/// Replaces each id, wherever it appears in a text, by its placeholder.
fn replace_ids(v: &mut Value, names: &[(String, String)]) {
    match v {
        Value::String(s) => {
            for (id, name) in names {
                if !id.is_empty() && s.contains(id.as_str()) {
                    *s = s.replace(id.as_str(), name);
                }
            }
        }
        Value::Array(a) => a.iter_mut().for_each(|x| replace_ids(x, names)),
        Value::Object(o) => o.values_mut().for_each(|x| replace_ids(x, names)),
        _ => {}
    }
}

/// JSON as the fixtures are written: a value that fits on its line stays on one line.
/// `col` is where the value starts, `indent` the depth of its line.
fn readable(v: &Value, col: usize, indent: usize) -> String {
    fn inline(v: &Value) -> String {
        match v {
            Value::Array(a) => format!("[{}]", a.iter().map(inline).collect::<Vec<_>>().join(", ")),
            Value::Object(o) if o.is_empty() => "{}".into(),
            Value::Object(o) => format!(
                "{{{}}}",
                o.iter()
                    .map(|(k, v)| format!("{}: {}", json!(k), inline(v)))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            other => other.to_string(),
        }
    }
    let one = inline(v);
    if col + one.len() <= 100 {
        return one;
    }
    let pad = " ".repeat(indent + 2);
    let end = " ".repeat(indent);
    match v {
        Value::Array(a) => {
            let items: Vec<String> = a
                .iter()
                .map(|x| format!("{pad}{}", readable(x, indent + 2, indent + 2)))
                .collect();
            format!("[\n{}\n{end}]", items.join(",\n"))
        }
        Value::Object(o) => {
            let items: Vec<String> = o
                .iter()
                .map(|(k, x)| {
                    let key = json!(k).to_string();
                    let at = indent + 2 + key.len() + 2;
                    format!("{pad}{key}: {}", readable(x, at, indent + 2))
                })
                .collect();
            format!("{{\n{}\n{end}}}", items.join(",\n"))
        }
        _ => one,
    }
}

/// The first place where `actual` differs from `expected`, as a path and both values.
fn first_difference(path: &str, expected: &Value, actual: &Value) -> Option<String> {
    match (expected, actual) {
        (Value::Object(e), Value::Object(a)) => {
            for (k, ev) in e {
                let p = format!("{path}.{k}");
                match a.get(k) {
                    Some(av) => {
                        if let Some(d) = first_difference(&p, ev, av) {
                            return Some(d);
                        }
                    }
                    None => return Some(format!("{p}: expected {ev}, but it is absent")),
                }
            }
            a.iter()
                .find(|(k, _)| !e.contains_key(*k))
                .map(|(k, av)| format!("{path}.{k}: not expected, but it is {av}"))
        }
        (Value::Array(e), Value::Array(a)) => {
            for (i, (ev, av)) in e.iter().zip(a).enumerate() {
                if let Some(d) = first_difference(&format!("{path}[{i}]"), ev, av) {
                    return Some(d);
                }
            }
            match e.len().cmp(&a.len()) {
                std::cmp::Ordering::Equal => None,
                std::cmp::Ordering::Less => Some(format!(
                    "{path}[{}]: expected no more items, but there is {}",
                    e.len(),
                    a[e.len()]
                )),
                std::cmp::Ordering::Greater => Some(format!(
                    "{path}[{}]: expected {}, but there are no more items",
                    a.len(),
                    e[a.len()]
                )),
            }
        }
        _ if expected == actual => None,
        _ => Some(format!("{path}: expected {expected}, got {actual}")),
    }
}

#[test]
fn a_difference_is_found_and_named_by_its_path() {
    let e = json!({"events": [{"type": "handoff", "to": "billing"}], "files": {}});
    let a = json!({"events": [{"type": "handoff", "to": "support"}], "files": {}});
    assert_eq!(
        first_difference("expect", &e, &a).unwrap(),
        "expect.events[0].to: expected \"billing\", got \"support\""
    );
    let a =
        json!({"events": [{"type": "handoff", "to": "billing"}, {"type": "done"}], "files": {}});
    assert!(
        first_difference("expect", &e, &a)
            .unwrap()
            .starts_with("expect.events[1]: expected no more items")
    );
    assert_eq!(first_difference("expect", &e, &e), None);
}
