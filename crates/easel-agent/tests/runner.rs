//! The runner's semantics against a scripted model server, over the real OpenAI wire format
//! and the real operations of a temporary vault.
#![allow(clippy::unwrap_used)]

use easel_agent::scripted::{Scripted, Turn, call, calls, text};
use easel_agent::{
    Agent, AgentError, Answer, Approvals, Approver, Decision, Finish, LlmModel, PermissionRule,
    Record, RunRequest, Runtime, Session,
};
use easel_vault::Vault;
use serde_json::{Value, json};
use std::sync::Arc;

struct Setup {
    _dir: tempfile::TempDir,
    vault: Vault,
    model: Scripted,
}

fn setup(turns: Vec<Turn>) -> Setup {
    let dir = tempfile::tempdir().unwrap();
    let model = Scripted::start(turns);
    model.configure(dir.path()).unwrap();
    std::fs::write(dir.path().join("Plan.md"), "# Plan\n\nShip it.\n").unwrap();
    let vault = Vault::open(dir.path()).unwrap();
    Setup {
        _dir: dir,
        vault,
        model,
    }
}

fn runtime(s: &Setup, agents: Vec<Agent>) -> Runtime {
    let mut registry = easel_ops::Registry::new();
    easel_ops::register(&mut registry);
    let config = easel_llm::Config::load(Some(s.vault.root())).unwrap();
    let llm = Arc::new(easel_llm::Llm::new(config));
    Runtime {
        vault: s.vault.clone(),
        registry,
        agents,
        tools: Vec::new(),
        model: Arc::new(LlmModel::new(
            llm,
            Arc::new(easel_llm::ops::Models::default()),
        )),
        cancel: easel_ops::Cancel::new(),
    }
}

fn writer() -> Agent {
    let mut a = Agent::new("writer", "You write notes.");
    a.tools = Some(vec!["note_*".into(), "vault_list".into()]);
    a
}

fn req<'a>(agent: &str, input: &str, approvals: Approvals<'a>) -> RunRequest<'a> {
    RunRequest {
        agent: agent.into(),
        input: Some(input.into()),
        session: None,
        model: None,
        approvals,
        max_turns: None,
    }
}

fn done(f: Finish) -> (String, String, u32, Vec<Value>) {
    match f {
        Finish::Done {
            output,
            session,
            turns,
            proposed,
            ..
        } => (output, session, turns, proposed),
        other => panic!("not done: {other:?}"),
    }
}

/// The text of the tool message answering the last call of request `i`.
fn tool_texts(req: &Value) -> Vec<String> {
    req["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["role"] == "tool")
        .map(|m| m["content"].as_str().unwrap_or_default().to_string())
        .collect()
}

#[test]
fn the_default_tools_are_the_read_only_operations() {
    let s = setup(vec![text("ok")]);
    let rt = runtime(&s, vec![Agent::new("reader", "Read.")]);
    rt.run(req("reader", "hi", Approvals::Wait), &|_| ())
        .unwrap();
    let tools = s.model.requests()[0]["tools"].as_array().unwrap().clone();
    assert!(!tools.is_empty());
    for t in tools {
        let name = t["function"]["name"].as_str().unwrap();
        let op = rt.registry.get(name).unwrap();
        assert_eq!(op.info().effect, easel_ops::Effect::Read, "{name}");
    }
}

struct Says(Answer);
impl Approver for Says {
    fn ask(&self, _: &str, _: &str, _: &Value) -> Answer {
        self.0
    }
}

#[test]
fn on_a_terminal_always_approves_the_tool_for_the_rest_of_the_run() {
    let s = setup(vec![
        calls(&[
            ("note_write", json!({"path": "A.md", "content": "a"})),
            ("note_write", json!({"path": "B.md", "content": "b"})),
        ]),
        text("Both."),
    ]);
    let rt = runtime(&s, vec![writer()]);
    let asked = std::sync::atomic::AtomicUsize::new(0);
    struct Counting<'a>(&'a std::sync::atomic::AtomicUsize);
    impl Approver for Counting<'_> {
        fn ask(&self, _: &str, _: &str, _: &Value) -> Answer {
            self.0.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            Answer::Always
        }
    }
    let approver = Counting(&asked);
    done(
        rt.run(
            req("writer", "two notes", Approvals::Ask(&approver)),
            &|_| (),
        )
        .unwrap(),
    );
    assert_eq!(asked.load(std::sync::atomic::Ordering::SeqCst), 1);
    assert!(s.vault.root().join("B.md").exists());
    // "no" refuses.
    let s = setup(vec![
        call("note_write", json!({"path": "C.md", "content": "c"})),
        text("ok"),
    ]);
    let rt = runtime(&s, vec![writer()]);
    done(
        rt.run(
            req("writer", "x", Approvals::Ask(&Says(Answer::No))),
            &|_| (),
        )
        .unwrap(),
    );
    assert!(!s.vault.root().join("C.md").exists());
}

#[test]
fn permission_rules_allow_and_deny_without_asking() {
    let mut a = writer();
    a.permission = vec![
        PermissionRule {
            pattern: "note_*".into(),
            decision: Decision::Allow,
        },
        PermissionRule {
            pattern: "note_append".into(),
            decision: Decision::Deny,
        },
    ];
    let s = setup(vec![
        calls(&[
            ("note_write", json!({"path": "A.md", "content": "a\n"})),
            ("note_append", json!({"path": "A.md", "text": "more"})),
        ]),
        text("done"),
    ]);
    let rt = runtime(&s, vec![a]);
    // Deny holds even with --yes.
    done(rt.run(req("writer", "x", Approvals::Yes), &|_| ()).unwrap());
    assert_eq!(
        std::fs::read_to_string(s.vault.root().join("A.md")).unwrap(),
        "a\n"
    );
    let outs = tool_texts(&s.model.requests()[1]);
    assert_eq!(
        outs[1],
        "error: 'note_append' is refused by a permission rule"
    );
}

#[test]
fn a_call_interrupted_by_a_kill_is_not_run_again() {
    let s = setup(vec![
        call("note_write", json!({"path": "A.md", "content": "a"})),
        text("ok"),
    ]);
    let rt = runtime(&s, vec![writer()]);
    let Finish::Waiting(w) = rt
        .run(req("writer", "x", Approvals::Wait), &|_| ())
        .unwrap()
    else {
        panic!()
    };
    // As if a process approved it, recorded the start and was killed before it finished.
    let mut sess = Session::open(s.vault.root(), &w.session).unwrap();
    sess.append(Record::CallStarted {
        agent: "writer".into(),
        id: w.id.clone(),
        name: w.name.clone(),
    })
    .unwrap();
    rt.approve(&w.session, true, Approvals::Wait, &|_| ())
        .unwrap();
    assert!(!s.vault.root().join("A.md").exists());
    let outs = tool_texts(s.model.requests().last().unwrap());
    assert!(outs[0].contains("interrupted"), "{outs:?}");
}

#[test]
fn a_failing_model_falls_back_to_the_next_then_fails_with_the_session() {
    let mut a = writer();
    a.model = vec!["openai-compat:first".into(), "openai-compat:second".into()];
    let s = setup(vec![Turn::Status(400), text("from the second")]);
    let rt = runtime(&s, vec![a]);
    let f = rt
        .run(req("writer", "x", Approvals::Wait), &|_| ())
        .unwrap();
    assert_eq!(done(f).0, "from the second");
    let models: Vec<String> = s
        .model
        .requests()
        .iter()
        .map(|r| r["model"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(models, vec!["first", "second"]);
    let s = setup(vec![Turn::Status(400)]);
    let rt = runtime(&s, vec![writer()]);
    let r = rt.run(req("writer", "x", Approvals::Wait), &|_| ());
    assert!(matches!(r, Err(AgentError::Model { .. })), "{r:?}");
}

#[test]
fn unknown_agents_name_the_known_ones() {
    let s = setup(vec![]);
    let rt = runtime(&s, vec![writer()]);
    let Err(e) = rt.run(req("nobody", "x", Approvals::Wait), &|_| ()) else {
        panic!()
    };
    assert!(e.hint().contains("writer"), "{}", e.hint());
}

/// A vault's own agents and script tools, read by `load_runtime` as the binary does.
fn runtime_from_files(s: &Setup) -> Runtime {
    let mut registry = easel_ops::Registry::new();
    easel_ops::register(&mut registry);
    let config = easel_llm::Config::load(Some(s.vault.root())).unwrap();
    let model = Arc::new(LlmModel::new(
        Arc::new(easel_llm::Llm::new(config)),
        Arc::new(easel_llm::ops::Models::default()),
    ));
    let (rt, notes) = easel_agent::load_runtime(&s.vault, registry, model).unwrap();
    assert!(notes.is_empty(), "{notes:?}");
    rt
}

const SAVER: &str = "module.exports = {\n  name: 'save_note',\n  description: 'Save a note',\n  effect: 'read',\n  parameters: { path: { type: 'string' }, text: { type: 'string' } },\n  execute: ({ path, text }, ctx) => ctx.call('note_write', { path, content: text }),\n};\n";

#[test]
fn script_tools_calls_go_through_the_runs_approvals() {
    let turns = || {
        vec![
            call("save_note", json!({"path": "S.md", "text": "saved\n"})),
            text("ok"),
        ]
    };
    let files = |s: &Setup| {
        let root = s.vault.root();
        std::fs::create_dir_all(root.join(".easel/agents")).unwrap();
        std::fs::create_dir_all(root.join(".easel/tools")).unwrap();
        std::fs::write(
            root.join(".easel/agents/scribe.md"),
            "---\ntools: [save_note]\n---\nYou save notes.\n",
        )
        .unwrap();
        std::fs::write(root.join(".easel/tools/save_note.js"), SAVER).unwrap();
    };
    // Without anyone to ask, the script's write is refused (a script cannot wait).
    let s = setup(turns());
    files(&s);
    let rt = runtime_from_files(&s);
    done(
        rt.run(req("scribe", "save", Approvals::Wait), &|_| ())
            .unwrap(),
    );
    assert!(!s.vault.root().join("S.md").exists());
    let outs = tool_texts(&s.model.requests()[1]);
    assert!(outs[0].contains("cannot wait"), "{outs:?}");
    // In a dry run it is a proposal.
    let s = setup(turns());
    files(&s);
    let rt = runtime_from_files(&s);
    let (_, _, _, proposed) = done(
        rt.run(req("scribe", "save", Approvals::DryRun), &|_| ())
            .unwrap(),
    );
    assert_eq!(proposed[0]["tool"], "note_write");
    assert!(!s.vault.root().join("S.md").exists());
    // With --yes it runs, as the agent's change.
    let s = setup(turns());
    files(&s);
    let rt = runtime_from_files(&s);
    done(
        rt.run(req("scribe", "save", Approvals::Yes), &|_| ())
            .unwrap(),
    );
    assert_eq!(
        std::fs::read_to_string(s.vault.root().join("S.md")).unwrap(),
        "saved\n"
    );
    let entries = s.vault.ledger_list(None).unwrap();
    assert_eq!(
        entries.iter().find(|e| e.path == "S.md").unwrap().actor,
        "agent:scribe"
    );
}

#[test]
fn a_tool_call_cut_off_by_the_length_limit_is_an_error_the_model_can_retry() {
    let s = setup(vec![
        Turn::Cut("{\"name\": \"note_read\", \"arguments\": {\"pa".into()),
        call("note_read", json!({"path": "Plan.md"})),
        text("It says ship it."),
    ]);
    let rt = runtime(&s, vec![writer()]);
    let (output, _, turns, _) = done(
        rt.run(req("writer", "plan?", Approvals::Wait), &|_| ())
            .unwrap(),
    );
    assert_eq!(output, "It says ship it.");
    assert_eq!(turns, 3);
    let second = &s.model.requests()[1]["messages"];
    let last = second.as_array().unwrap().last().unwrap();
    assert_eq!(last["role"], "user");
    assert!(
        last["content"].as_str().unwrap().contains("cut off"),
        "{last}"
    );
    // Text cut off is an answer like any other.
    let s = setup(vec![Turn::Cut("A long answer that".into())]);
    let rt = runtime(&s, vec![writer()]);
    let (output, ..) = done(
        rt.run(req("writer", "x", Approvals::Wait), &|_| ())
            .unwrap(),
    );
    assert_eq!(output, "A long answer that");
}

#[test]
fn stop_ends_the_run_before_its_next_step_and_keeps_what_it_did() {
    let s = setup(vec![
        call("note_write", json!({"path": "A.md", "content": "first\n"})),
        call("note_write", json!({"path": "B.md", "content": "second\n"})),
        text("Done."),
    ]);
    let rt = runtime(&s, vec![writer()]);
    let cancel = rt.cancel.clone();
    // Stop is pressed when the first tool output is in: the model is not asked again.
    let stop_after_output = move |e: easel_agent::AgentEvent| {
        if matches!(e, easel_agent::AgentEvent::ToolOutput { .. }) {
            cancel.cancel();
        }
    };
    let err = rt
        .run(
            req("writer", "Write two notes", Approvals::Yes),
            &stop_after_output,
        )
        .unwrap_err();
    let AgentError::Stopped { session } = &err else {
        panic!("not stopped: {err:?}")
    };
    assert_eq!(err.kind(), easel_core::ErrorKind::Failure);
    assert!(err.hint().contains(session.as_str()));
    assert_eq!(s.model.requests().len(), 1, "no model call after Stop");
    assert!(s.vault.root().join("A.md").exists(), "what it did is kept");
    assert!(!s.vault.root().join("B.md").exists());
    let log = std::fs::read_to_string(
        s.vault
            .root()
            .join(format!(".easel/sessions/{session}.jsonl")),
    )
    .unwrap();
    assert!(log.lines().last().unwrap().contains("\"stopped\""), "{log}");
}
