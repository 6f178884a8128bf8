//! The document agent against a scripted model server, over the real wire: what it proposes,
//! what each tool call reports to the model, that nothing changes before the proposal is
//! applied, and that applying it is undoable as one run or one edit at a time.
#![allow(clippy::unwrap_used)]

use easel_agent::doc_agent::{self, DocEditRequest};
use easel_agent::scripted::{Scripted, Turn, call, calls, text};
use easel_agent::{AgentEvent, LlmModel, Model};
use easel_ops::{Actor, Ctx};
use easel_vault::{UndoTarget, Vault};
use serde_json::{Value, json};
use std::sync::{Arc, Mutex};

const LEASE: &str = "<!doctype html>\n<html><head><title>Lease</title></head><body>\n\
<h1 data-canon-id=\"c00000001\">Lease</h1>\n\
<p data-canon-id=\"c00000002\">Call the landlord at +44 20 7946 0958 for repairs.</p>\n\
<p data-canon-id=\"c00000003\">Rent is due on the first day of the month.</p>\n\
</body></html>\n";

struct Setup {
    dir: tempfile::TempDir,
    vault: Vault,
    server: Scripted,
}

fn setup(turns: Vec<Turn>) -> Setup {
    let dir = tempfile::tempdir().unwrap();
    let server = Scripted::start(turns);
    server.configure(dir.path()).unwrap();
    std::fs::write(dir.path().join("Lease.html"), LEASE).unwrap();
    let vault = Vault::open(dir.path()).unwrap();
    Setup { dir, vault, server }
}

fn model(s: &Setup) -> Arc<dyn Model> {
    let config = easel_llm::Config::load(Some(s.vault.root())).unwrap();
    Arc::new(LlmModel::new(
        Arc::new(easel_llm::Llm::new(config)),
        Arc::new(easel_llm::ops::Models::default()),
    ))
}

fn request(instruction: &str) -> DocEditRequest {
    DocEditRequest {
        path: "Lease.html".into(),
        instruction: instruction.into(),
        select: None,
        model: None,
        max_turns: None,
    }
}

/// The tool outputs the model was sent, in order.
fn tool_outputs(requests: &[Value]) -> Vec<String> {
    let last = requests.last().unwrap();
    last["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["role"] == "tool")
        .map(|m| m["content"].as_str().unwrap_or_default().to_string())
        .collect()
}

#[test]
fn the_agent_proposes_hears_real_results_and_changes_nothing_until_applied() {
    let s = setup(vec![
        call("scan_document", json!({"query": "phone numbers"})),
        calls(&[
            ("redact_element", json!({"elementId": "c00000002"})),
            (
                "replace_text",
                json!({"elementId": "c00000003", "oldText": "fortnight", "newText": "week"}),
            ),
            ("add_highlight", json!({"elementId": "c99999999"})),
        ]),
        text("Redacted the paragraph with the phone number."),
    ]);
    let events = Mutex::new(Vec::new());
    let emit = |e: AgentEvent| events.lock().unwrap().push(e);
    let ctx = Ctx::new(s.vault.clone(), Actor::cli());
    let m = model(&s);
    let scan = doc_agent::scanner(m.clone(), None);
    let out =
        doc_agent::propose(&ctx, m, &request("redact the phone numbers"), scan, &emit).unwrap();

    // The proposal: the one edit that worked, in the seed's form.
    assert_eq!(out.proposal.path, "Lease.html");
    assert_eq!(
        out.proposal.rev,
        easel_vault::Rev::of(LEASE.as_bytes()).to_string()
    );
    assert_eq!(
        out.proposal.explanation,
        "Redacted the paragraph with the phone number."
    );
    let ops = serde_json::to_value(&out.proposal.operations).unwrap();
    assert_eq!(
        ops,
        json!([{"id": "op1", "tool": "redact_element", "input": {"elementId": "c00000002"}}])
    );

    // What the model heard: the scan's real matches, then each call's real result.
    let requests = s.server.requests();
    assert_eq!(requests.len(), 3);
    let system = requests[0]["messages"][0]["content"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(system.contains("scan_document first"), "{system}");
    assert!(
        system.contains("[c00000002] <p> Call the landlord at +44 20 7946 0958 for repairs."),
        "{system}"
    );
    let outputs = tool_outputs(&requests);
    assert_eq!(outputs.len(), 4, "{outputs:?}");
    assert!(
        outputs[0].contains("c00000002") && outputs[0].contains("+44 20 7946 0958"),
        "{}",
        outputs[0]
    );
    assert!(!outputs[0].contains("c00000003"), "{}", outputs[0]);
    assert!(
        outputs[1].starts_with("applied to the proposal as op1: redact_element c00000002"),
        "{}",
        outputs[1]
    );
    assert!(
        outputs[1].contains('█') && !outputs[1].contains("7946"),
        "{}",
        outputs[1]
    );
    assert!(
        outputs[2].starts_with("error: ") && outputs[2].contains("fortnight"),
        "{}",
        outputs[2]
    );
    assert!(
        outputs[3].starts_with("error: ") && outputs[3].contains("c99999999"),
        "{}",
        outputs[3]
    );
    assert!(outputs.iter().all(|o| !o.contains("queued")));

    // Nothing changed: the file, and no ledger.
    assert_eq!(
        std::fs::read_to_string(s.dir.path().join("Lease.html")).unwrap(),
        LEASE
    );
    assert!(s.vault.ledger_list(None).unwrap().is_empty());
    assert!(
        events
            .lock()
            .unwrap()
            .iter()
            .any(|e| matches!(e, AgentEvent::ToolCall { name, .. } if name == "redact_element"))
    );

    // Applied: one ledger entry per edit, as the agent, in the agent's run; undone as a run.
    let applied = doc_agent::apply_proposal(&ctx, &out).unwrap();
    assert_eq!(applied.run, out.run);
    let now = std::fs::read_to_string(s.dir.path().join("Lease.html")).unwrap();
    assert!(!now.contains("7946") && now.contains('█'), "{now}");
    let ledger = s.vault.ledger_list(None).unwrap();
    assert_eq!(ledger.len(), 1);
    assert_eq!(ledger[0].actor, "agent:document-editor");
    assert_eq!(ledger[0].run.as_deref(), Some(out.run.as_str()));
    assert_eq!(ledger[0].op, "doc_redact_element");
    assert!(!ledger[0].summary.contains("7946"));
    s.vault.undo(UndoTarget::Run(out.run.clone())).unwrap();
    assert_eq!(
        std::fs::read_to_string(s.dir.path().join("Lease.html")).unwrap(),
        LEASE
    );
}

#[test]
fn a_stale_proposal_is_refused_and_the_newer_file_kept() {
    let s = setup(vec![
        call("add_highlight", json!({"elementId": "c00000003"})),
        text("Highlighted the rent paragraph."),
    ]);
    let ctx = Ctx::new(s.vault.clone(), Actor::cli());
    let m = model(&s);
    let scan = doc_agent::scanner(m.clone(), None);
    let out = doc_agent::propose(&ctx, m, &request("highlight the rent"), scan, &|_| {}).unwrap();
    assert_eq!(out.proposal.operations.len(), 1);
    // Someone edits the file meanwhile (Obsidian, another agent).
    let edited = LEASE.replace("first day", "second day");
    std::fs::write(s.dir.path().join("Lease.html"), &edited).unwrap();
    let err = doc_agent::apply_proposal(&ctx, &out).unwrap_err();
    assert_eq!(err.kind.exit_code(), 4, "{err:?}");
    assert!(
        err.message.contains("nothing was applied"),
        "{}",
        err.message
    );
    assert_eq!(
        std::fs::read_to_string(s.dir.path().join("Lease.html")).unwrap(),
        edited
    );
}

#[test]
fn with_a_selection_the_agent_sees_only_that_element() {
    let s = setup(vec![text("Nothing to do.")]);
    let ctx = Ctx::new(s.vault.clone(), Actor::cli());
    let m = model(&s);
    let scan = doc_agent::scanner(m.clone(), None);
    let mut req = request("shorten this");
    req.select = Some("c00000003".into());
    let out = doc_agent::propose(&ctx, m, &req, scan, &|_| {}).unwrap();
    assert!(out.proposal.operations.is_empty());
    let requests = s.server.requests();
    let system = requests[0]["messages"][0]["content"].as_str().unwrap();
    assert!(
        system.contains("Selected element: [c00000003] <p> Rent is due"),
        "{system}"
    );
    assert!(!system.contains("landlord"), "{system}");
    // An unknown selection is an error before any model call.
    let s2 = setup(vec![]);
    let ctx2 = Ctx::new(s2.vault.clone(), Actor::cli());
    let m2 = model(&s2);
    let mut bad = request("shorten this");
    bad.select = Some("c12345678".into());
    let err = doc_agent::propose(
        &ctx2,
        m2.clone(),
        &bad,
        doc_agent::scanner(m2, None),
        &|_| {},
    )
    .unwrap_err();
    assert_eq!(err.kind.exit_code(), 3);
    assert!(s2.server.requests().is_empty());
}

#[test]
fn an_agent_that_runs_out_of_turns_still_gives_its_proposal_and_nothing_is_applied() {
    let s = setup(vec![
        call("add_highlight", json!({"elementId": "c00000003"})),
        call(
            "add_comment",
            json!({"elementId": "c00000003", "comment": "check"}),
        ),
    ]);
    let ctx = Ctx::new(s.vault.clone(), Actor::cli());
    let m = model(&s);
    let scan = doc_agent::scanner(m.clone(), None);
    let mut req = request("highlight the rent");
    req.max_turns = Some(2);
    let out = doc_agent::propose(&ctx, m, &req, scan, &|_| {}).unwrap();
    assert_eq!(out.proposal.operations.len(), 2);
    let stopped = out.stopped.clone().unwrap();
    assert!(stopped.contains("2 model calls"), "{stopped}");
    assert!(out.proposal.explanation.contains("until then"));
    assert_eq!(
        std::fs::read_to_string(s.dir.path().join("Lease.html")).unwrap(),
        LEASE
    );
}
