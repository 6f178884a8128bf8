//! `easel agent run|approve` end to end: the real binary against a scripted model server
//! (exact semantics), and one run of the embedded model.
#![allow(clippy::unwrap_used)]

mod common;

use common::{TestVault, write};
use easel_agent::scripted::{Scripted, call, calls, text};
use serde_json::{Value, json};

const WRITER: &str =
    "---\ndescription: Writes notes\ntools: [\"note_*\", vault_list]\n---\nYou write notes.\n";

fn lines(stdout: &[u8]) -> Vec<Value> {
    String::from_utf8_lossy(stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

fn of_type<'a>(events: &'a [Value], t: &str) -> Vec<&'a Value> {
    events.iter().filter(|e| e["type"] == t).collect()
}

#[test]
fn a_run_waits_for_approval_with_exit_6_and_approve_runs_the_call_once() {
    let v = TestVault::new();
    let model = Scripted::start(vec![
        call(
            "note_write",
            json!({"path": "New.md", "content": "hello\n"}),
        ),
        text("Written."),
    ]);
    model.configure(v.path()).unwrap();
    write(v.path(), ".easel/agents/writer.md", WRITER);
    let out = v
        .easel()
        .args(["--json", "agent", "run", "writer", "Write New.md"])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(6),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let events = lines(&out.stdout);
    let waiting = of_type(&events, "approval_needed");
    assert_eq!(waiting.len(), 1);
    assert_eq!(waiting[0]["name"], "note_write");
    let session = waiting[0]["session"].as_str().unwrap().to_string();
    assert!(!v.file("New.md").exists());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("easel agent approve"), "{stderr}");

    let out = common::succeed(v.easel().args(["--json", "agent", "approve", &session]));
    let events = lines(&out.stdout);
    let done = of_type(&events, "done");
    assert_eq!(done[0]["output"], "Written.");
    assert_eq!(v.read("New.md"), "hello\n");
    // Undo by run takes the agent's change back.
    let run = done[0]["run"].as_str().unwrap();
    v.easel().args(["undo", "--run", run]).assert().success();
    assert!(!v.file("New.md").exists());
    // Approving again finds nothing waiting.
    let out = v
        .easel()
        .args(["agent", "approve", &session])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(4),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn json_events_stream_and_a_dry_run_lists_its_proposals() {
    let v = TestVault::new();
    let model = Scripted::start(vec![
        calls(&[
            ("vault_list", json!({})),
            ("note_write", json!({"path": "New.md", "content": "x"})),
        ]),
        text("I would write New.md."),
    ]);
    model.configure(v.path()).unwrap();
    write(v.path(), ".easel/agents/writer.md", WRITER);
    let out = common::succeed(v.easel().args([
        "--json",
        "agent",
        "run",
        "writer",
        "Plan it",
        "--dry-run",
    ]));
    let events = lines(&out.stdout);
    let types: Vec<&str> = events.iter().map(|e| e["type"].as_str().unwrap()).collect();
    assert_eq!(types.first(), Some(&"tool_call"));
    assert_eq!(types.last(), Some(&"done"));
    assert!(
        types.contains(&"text_delta") && types.contains(&"tool_output"),
        "{types:?}"
    );
    let done = of_type(&events, "done")[0];
    assert_eq!(
        done["proposed"],
        json!([{"tool": "note_write", "arguments": {"path": "New.md", "content": "x"}}])
    );
    assert_eq!(done["turns"], 2);
    assert!(!v.file("New.md").exists());
}

#[test]
fn the_operation_waits_too_and_unknown_agents_are_exit_3() {
    let v = TestVault::new();
    let model = Scripted::start(vec![call(
        "note_write",
        json!({"path": "New.md", "content": "x"}),
    )]);
    model.configure(v.path()).unwrap();
    write(v.path(), ".easel/agents/writer.md", WRITER);
    let out = v
        .easel()
        .args([
            "op",
            "run",
            "agent_run",
            "--args",
            r#"{"agent":"writer","input":"write"}"#,
        ])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(6),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("needs approval"), "{stderr}");
    let out = v
        .easel()
        .args(["agent", "run", "nobody", "x"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&out.stderr).contains("writer"));
}

/// One real run: the embedded model answers through the whole runtime.
/// `easel` with no model from the environment, so `--model local:smollm2` is what runs.
fn on_the_embedded_model(v: &TestVault) -> assert_cmd::Command {
    let mut cmd = v.easel();
    cmd.env_remove("EASEL_MODEL")
        .env_remove("EASEL_LOCAL_MODEL");
    cmd
}

#[test]
fn the_embedded_model_answers_an_agent() {
    let v = TestVault::new();
    write(
        v.path(),
        ".easel/agents/greeter.md",
        "---\ndescription: Greets\ntools: []\ntemperature: 0\nmax_turns: 2\n---\nYou greet people in one short sentence.\n",
    );
    let out = common::succeed(on_the_embedded_model(&v).args([
        "--json",
        "agent",
        "run",
        "greeter",
        "Say hello.",
        "--model",
        "local:smollm2",
    ]));
    let events = lines(&out.stdout);
    let done = of_type(&events, "done");
    assert_eq!(done.len(), 1);
    let text = done[0]["output"].as_str().unwrap();
    assert!(!text.trim().is_empty());
    let streamed: String = of_type(&events, "text_delta")
        .iter()
        .map(|e| e["delta"].as_str().unwrap())
        .collect();
    assert_eq!(streamed, text);
    assert!(done[0]["usage"]["completion_tokens"].as_u64().unwrap() > 0);
}

/// One real run whose tool call changes a canvas: the embedded model, made to call the tool
/// first (`tool_choice`), fills its arguments under the grammar; the script tool adds the item
/// to the board through `ctx.call`, and the change is in the ledger under the agent's name.
/// The call's argument is asserted (greedy decoding repeats), not any text the model writes.
#[test]
fn the_embedded_model_calls_a_tool_that_changes_a_canvas() {
    let v = TestVault::new();
    write(
        v.path(),
        "Groceries.canvas",
        "{\"nodes\":[],\"edges\":[]}\n",
    );
    write(
        v.path(),
        ".easel/tools/add_item.js",
        "module.exports = {
           name: 'add_item',
           description: 'Put one item on the groceries board.',
           parameters: { item: { type: 'string', description: 'The item' } },
           execute: async (args, ctx) => {
             const r = await ctx.call('canvas_add_node', { path: 'Groceries.canvas', type: 'text', text: String(args.item).slice(0, 200) || 'item' });
             return 'added ' + r.node.id;
           } };",
    );
    write(
        v.path(),
        ".easel/agents/board.md",
        "---\ndescription: Puts items on the groceries board\ntools: [add_item]\ntool_choice: required\ntool_use_behavior: stop_on_first_tool\ntemperature: 0\nmax_turns: 3\nmax_tokens: 64\n---\nYou put what the user asks for on the groceries board with add_item, then say what you added.\n",
    );
    let out = on_the_embedded_model(&v)
        .args([
            "--json",
            "agent",
            "run",
            "board",
            "Milk, please.",
            "--yes",
            "--model",
            "local:smollm2",
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let events = lines(&out.stdout);
    let calls = of_type(&events, "tool_call");
    assert!(!calls.is_empty(), "no tool call: {events:?} {stderr}");
    assert_eq!(calls[0]["name"], "add_item");
    let item = calls[0]["arguments"]["item"].as_str().unwrap();
    assert!(item.to_lowercase().contains("milk"), "{:?}", calls[0]);
    let outputs = of_type(&events, "tool_output");
    assert_eq!(outputs[0]["is_error"], false, "{:?}", outputs[0]);
    let canvas: Value =
        serde_json::from_str(&std::fs::read_to_string(v.path().join("Groceries.canvas")).unwrap())
            .unwrap();
    let nodes = canvas["nodes"].as_array().unwrap();
    assert!(!nodes.is_empty(), "{canvas}");
    assert!(
        outputs[0]["output"]
            .as_str()
            .unwrap()
            .ends_with(nodes[0]["id"].as_str().unwrap())
    );
    // The tool's output is the run's answer (`stop_on_first_tool`), and the change is the
    // agent's in the ledger.
    assert!(out.status.success(), "{stderr}");
    let done = of_type(&events, "done");
    assert_eq!(done[0]["output"], outputs[0]["output"]);
    let ledger = v.json(&["ledger"]);
    let text = ledger.to_string();
    assert!(text.contains("agent:board"), "{ledger}");
    assert!(text.contains("Groceries.canvas"), "{ledger}");
}

#[test]
fn the_starter_set_is_three_agents_that_hand_over_to_each_other() {
    let v = TestVault::new();
    let out = v.json(&["agent", "new", "--starter"]);
    let created: Vec<&str> = out
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(created, vec!["assistant", "canvas-builder", "writer"]);
    let list = v.json(&["agent", "list"]);
    assert_eq!(list["agents"].as_array().unwrap().len(), 3);
    assert!(list["problems"].as_array().unwrap().is_empty(), "{list}");
    assert!(list["warnings"].as_array().unwrap().is_empty(), "{list}");
    // A second time keeps the files.
    let again = v.json(&["agent", "new", "--starter"]);
    assert!(
        again
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c["created"] == false)
    );
}

/// `agent chat`: lines from stdin, one session across them, the answer streamed to stdout, tool
/// calls and the handoff ("triage → writer") shown on stderr, an empty line skipped, `/exit`
/// ends.
#[test]
fn chat_keeps_one_session_across_lines_and_shows_calls_and_handoffs() {
    let v = TestVault::new();
    write(v.path(), "Plan.md", "# Plan\n\nShip it.\n");
    let model = Scripted::start(vec![
        call("transfer_to_writer", json!({})),
        call("note_read", json!({"path": "Plan.md"})),
        text("The plan is to ship it."),
        text("Still shipping."),
    ]);
    model.configure(v.path()).unwrap();
    write(
        v.path(),
        ".easel/agents/triage.md",
        "---\ndescription: Routes\nhandoffs: [writer]\n---\nRoute it.\n",
    );
    write(v.path(), ".easel/agents/writer.md", WRITER);
    let out = v
        .easel()
        .args(["agent", "chat", "triage"])
        .write_stdin("what is the plan?\n\nand now?\n/exit\n")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stdout.contains("The plan is to ship it."), "{stdout}");
    assert!(stdout.contains("Still shipping."), "{stdout}");
    assert!(stderr.contains("triage → writer"), "{stderr}");
    assert!(stderr.contains("→ note_read"), "{stderr}");
    // The second line went to the same conversation: its request holds the first answer.
    let requests = model.requests();
    assert_eq!(requests.len(), 4);
    assert!(requests[3].to_string().contains("The plan is to ship it."));
    assert!(requests[3].to_string().contains("and now?"));
}
