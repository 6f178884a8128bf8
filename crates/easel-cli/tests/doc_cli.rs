//! `easel doc ids|show|scan|edit|apply|finalize|import` and `easel undo` of document edits, end
//! to end on a real vault folder: the binary, the real document model, the real ledger.
#![allow(clippy::unwrap_used)]

mod common;
use common::{TestVault, expect_failure, write};
use easel_agent::scripted::{Scripted, call, text};
use serde_json::{Value, json};

const LEASE: &str = "<!doctype html>\n<html><head><title>Lease</title>\
<meta name=\"author\" content=\"ana@example.com\"></head><body>\n\
<h1>Lease</h1>\n\
<p>Tenant: Ana Lopez, <a href=\"mailto:ana@example.com\" title=\"ana@example.com\">ana@example.com</a>, phone +44 20 7946 0958.</p>\n\
<!-- contact ana@example.com or +44 20 7946 0958 -->\n\
<p>Rent of €1,200.00 is due on 1 December 2026 to IBAN GB82 WEST 1234 5698 7654 32.</p>\n\
<ul><li>Keys: 2</li><li>Parking: none</li></ul>\n\
</body></html>\n";

/// The lease with ids, and the ids of its elements in order.
fn lease(v: &TestVault) -> Vec<String> {
    write(v.path(), "Lease.html", LEASE);
    let r = v.json(&["doc", "ids", "Lease.html"]);
    assert_eq!(r["added"], 5);
    let shown = v.json(&["doc", "show", "Lease.html"]);
    shown["elements"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["id"].as_str().unwrap().to_string())
        .collect()
}

fn ops_file(v: &TestVault, ops: Value) -> String {
    let path = v.file("ops.json");
    std::fs::write(&path, ops.to_string()).unwrap();
    path.to_str().unwrap().to_string()
}

fn ledger(v: &TestVault) -> Vec<Value> {
    v.json(&["ledger", "--limit", "100"])["entries"]
        .as_array()
        .unwrap()
        .clone()
}

#[test]
fn ids_change_no_other_byte_and_show_lists_the_elements() {
    let v = TestVault::new();
    let ids = lease(&v);
    let with_ids = v.read("Lease.html");
    let stripped = ids.iter().fold(with_ids.clone(), |t, id| {
        t.replace(&format!(" data-canon-id=\"{id}\""), "")
    });
    assert_eq!(stripped, LEASE);
    assert!(ids.iter().all(|id| id.len() == 9 && id.starts_with('c')));
    // A second run adds nothing and writes nothing.
    let again = v.json(&["doc", "ids", "Lease.html"]);
    assert_eq!(again["added"], 0);
    assert_eq!(v.read("Lease.html"), with_ids);
    let shown = v.json(&["doc", "show", "Lease.html"]);
    let keys: Vec<_> = shown.as_object().unwrap().keys().cloned().collect();
    assert_eq!(keys, ["path", "rev", "elements"]);
    assert_eq!(
        shown["elements"][1],
        json!({"id": ids[1], "tag": "p", "text": "Tenant: Ana Lopez, ana@example.com, phone +44 20 7946 0958."})
    );
    assert_eq!(shown["elements"][3]["tag"], "li");
    // Markdown needs no ids: its blocks are the elements.
    write(
        v.path(),
        "Note.md",
        "# Plan\n\nShip it. ^ship\n\n- one\n- two\n",
    );
    let note = v.json(&["doc", "show", "Note.md"]);
    let ids: Vec<&str> = note["elements"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["b1", "ship", "b3", "b4"]);
}

#[test]
fn scan_finds_structured_data_with_the_reason() {
    let v = TestVault::new();
    let ids = lease(&v);
    let r = v.json(&["doc", "scan", "Lease.html", "personal data"]);
    let keys: Vec<_> = r.as_object().unwrap().keys().cloned().collect();
    assert_eq!(keys, ["path", "rev", "matches"]);
    let found: Vec<(String, String)> = r["matches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["id"].as_str().unwrap().into(),
                m["text"].as_str().unwrap().into(),
            )
        })
        .collect();
    assert_eq!(
        found,
        [
            (ids[1].clone(), "ana@example.com".to_string()),
            (ids[1].clone(), "+44 20 7946 0958".to_string()),
            (ids[2].clone(), "GB82 WEST 1234 5698 7654 32".to_string()),
        ]
    );
    assert!(r["matches"][2]["why"].as_str().unwrap().contains("IBAN"));
    let quoted = v.json(&["doc", "scan", "Lease.html", "\"parking\""]);
    assert_eq!(quoted["matches"][0]["id"], ids[4].as_str());
    let regex = v.json(&["doc", "scan", "Lease.html", "/Keys: \\d/"]);
    assert_eq!(regex["matches"][0]["text"], "Keys: 2");
}

#[test]
fn apply_is_one_write_one_entry_per_edit_and_redaction_leaves_nothing_behind() {
    let v = TestVault::new();
    let ids = lease(&v);
    let ops = ops_file(
        &v,
        json!({"path": "Lease.html", "operations": [
            {"id": "op1", "tool": "redact_element", "input": {"elementId": ids[1]}},
            {"id": "op2", "tool": "add_highlight", "input": {"elementId": ids[2]}},
            {"id": "op3", "tool": "add_comment", "input": {"elementId": ids[3], "comment": "how many?"}}
        ]}),
    );
    let r = v.json(&["doc", "apply", "Lease.html", "--ops", &ops]);
    let applied = r["applied"].as_array().unwrap();
    assert_eq!(applied.len(), 3);
    assert_eq!(applied[0]["summary"], format!("redact_element {}", ids[1]));
    let now = v.read("Lease.html");
    // True redaction: the text, the attributes, the head and the comment hold none of it.
    for secret in [
        "ana@example.com",
        "+44 20 7946 0958",
        "Ana Lopez",
        "7946",
        "mailto",
    ] {
        assert!(!now.contains(secret), "{secret} survived:\n{now}");
    }
    assert!(now.contains("<mark>Rent of"), "{now}");
    assert!(now.contains("data-canon-comment=\"how many?\""), "{now}");
    let entries = ledger(&v);
    let mine: Vec<&Value> = entries
        .iter()
        .filter(|e| e["op"].as_str().unwrap().starts_with("doc_") && e["op"] != "doc_ids")
        .collect();
    assert_eq!(mine.len(), 3);
    assert!(mine.iter().all(|e| e["run"] == r["run"]));
    assert!(
        entries
            .iter()
            .all(|e| !e["summary"].as_str().unwrap().contains("7946"))
    );

    // One edit alone: the highlight goes, the rest stays.
    v.json(&["undo", "--id", applied[1]["ledger_id"].as_str().unwrap()]);
    let after = v.read("Lease.html");
    assert!(!after.contains("<mark>") && after.contains("how many?") && !after.contains("7946"));

    // A later change of the same element: undoing the earlier one alone is refused, exit 4.
    let fix = ops_file(
        &v,
        json!([{"tool": "replace_text", "input": {"elementId": ids[3], "oldText": "Keys: 2", "newText": "Keys: 3"}}]),
    );
    v.json(&["doc", "apply", "Lease.html", "--ops", &fix]);
    let before = v.read("Lease.html");
    let err = expect_failure(
        v.easel()
            .args(["undo", "--id", applied[2]["ledger_id"].as_str().unwrap()]),
        4,
    );
    assert!(
        err.contains("a later change touched the same element"),
        "{err}"
    );
    assert!(err.contains(&format!("replace_text {}", ids[3])), "{err}");
    assert_eq!(v.read("Lease.html"), before);

    // The whole list back: the original bytes (with their ids).
    let fix_run = ledger(&v)[0]["run"].as_str().unwrap().to_string();
    v.json(&["undo", "--run", &fix_run]);
    v.json(&["undo", "--run", r["run"].as_str().unwrap()]);
    let with_ids = ids.iter().fold(v.read("Lease.html"), |t, id| {
        t.replace(&format!(" data-canon-id=\"{id}\""), "")
    });
    assert_eq!(with_ids, LEASE);
}

#[test]
fn finalize_drops_every_saved_copy_of_the_redacted_text() {
    let v = TestVault::new();
    let ids = lease(&v);
    let ops = ops_file(
        &v,
        json!([{"tool": "redact_element", "input": {"elementId": ids[1]}}]),
    );
    let r = v.json(&["doc", "apply", "Lease.html", "--ops", &ops]);
    let blobs = || {
        std::fs::read_dir(v.file(".easel/blobs"))
            .unwrap()
            .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap_or_default())
            .filter(|b| b.contains("+44 20 7946 0958"))
            .count()
    };
    assert!(blobs() > 0, "the ledger keeps the original for undo");
    let f = v.json(&["doc", "finalize", "Lease.html"]);
    assert_eq!(f["redactions"], 1);
    assert!(f["blobs_removed"].as_u64().unwrap() >= 1);
    assert_eq!(blobs(), 0);
    let err = expect_failure(
        v.easel().args([
            "undo",
            "--id",
            r["applied"][0]["ledger_id"].as_str().unwrap(),
        ]),
        1,
    );
    assert!(err.contains("missing"), "{err}");
}

#[test]
fn bad_input_is_a_clear_error_and_changes_nothing() {
    let v = TestVault::new();
    let ids = lease(&v);
    let before = v.read("Lease.html");
    let entries = ledger(&v).len();
    let rev = v.json(&["doc", "show", "Lease.html"])["rev"]
        .as_str()
        .unwrap()
        .to_string();
    let cases: Vec<(Value, i32, &str)> = vec![
        (
            json!([{"tool": "redact_element", "input": {"elementId": "c00000000"}}]),
            3,
            "no element",
        ),
        (
            json!([{"tool": "replace_text", "input": {"elementId": ids[0], "oldText": "Contract", "newText": "x"}}]),
            5,
            "does not occur",
        ),
        (
            json!([{"tool": "shred", "input": {}}]),
            5,
            "not a valid edit",
        ),
        // The second of two fails: the first is not applied either.
        (
            json!([
                {"tool": "add_highlight", "input": {"elementId": ids[0]}},
                {"tool": "delete_element", "input": {"elementId": "c99999999"}}
            ]),
            3,
            "nothing was applied",
        ),
    ];
    for (ops, code, says) in cases {
        let file = ops_file(&v, ops);
        let err = expect_failure(
            v.easel()
                .args(["doc", "apply", "Lease.html", "--ops", &file]),
            code,
        );
        assert!(err.contains(says), "{err}");
        assert_eq!(v.read("Lease.html"), before);
    }
    // A stale rev: exit 4.
    let file = ops_file(
        &v,
        json!([{"tool": "add_highlight", "input": {"elementId": ids[0]}}]),
    );
    let err = expect_failure(
        v.easel().args([
            "doc",
            "apply",
            "Lease.html",
            "--ops",
            &file,
            "--rev",
            "0000000000000000",
        ]),
        4,
    );
    assert!(err.contains("nothing was applied"), "{err}");
    // Not a document, binary bytes, duplicate ids.
    std::fs::write(v.file("blob.html"), [0u8, 159, 146, 150]).unwrap();
    expect_failure(v.easel().args(["doc", "show", "blob.html"]), 5);
    write(v.path(), "notes.txt", "text");
    expect_failure(v.easel().args(["doc", "show", "notes.txt"]), 5);
    write(
        v.path(),
        "Twice.html",
        "<p data-canon-id=\"c1\">a</p><p data-canon-id=\"c1\">b</p>",
    );
    let err = expect_failure(v.easel().args(["doc", "show", "Twice.html"]), 5);
    assert!(err.contains("c1"), "{err}");
    expect_failure(v.easel().args(["doc", "show", "Missing.html"]), 3);
    assert_eq!(v.read("Lease.html"), before);
    assert_eq!(ledger(&v).len(), entries);
    assert_eq!(v.json(&["doc", "show", "Lease.html"])["rev"], rev.as_str());
}

#[test]
fn a_pdf_imported_then_redacted_names_the_page_in_the_ledger() {
    let v = TestVault::new();
    let pdf = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../easel-docedit/tests/pdf/letter.pdf");
    std::fs::copy(pdf, v.file("letter.pdf")).unwrap();
    let r = v.json(&["doc", "import", "letter.pdf"]);
    assert_eq!(r["path"], "letter.html");
    assert_eq!(r["pages"], 3);
    let shown = v.json(&["doc", "show", "letter.html"]);
    let on_page_2 = shown["elements"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["page"] == 2)
        .unwrap()
        .clone();
    let ops = ops_file(
        &v,
        json!([{"tool": "redact_element", "input": {"elementId": on_page_2["id"]}}]),
    );
    v.json(&["doc", "apply", "letter.html", "--ops", &ops]);
    assert!(
        ledger(&v)[0]["summary"]
            .as_str()
            .unwrap()
            .ends_with("(page 2)")
    );
    // Importing again refuses to overwrite, unless told to.
    expect_failure(v.easel().args(["doc", "import", "letter.pdf"]), 4);
    v.json(&["doc", "import", "letter.pdf", "--force"]);
    let err = expect_failure(v.easel().args(["doc", "import", "Lease.html"]), 5);
    assert!(err.contains("not a PDF"), "{err}");
}

#[test]
fn edit_proposes_without_changing_and_yes_applies_as_the_agent() {
    let v = TestVault::new();
    let ids = lease(&v);
    let model = Scripted::start(vec![
        call("scan_document", json!({"query": "phone numbers"})),
        call("redact_element", json!({"elementId": ids[1]})),
        text("Redacted the tenant's line."),
    ]);
    model.configure(v.path()).unwrap();
    let before = v.read("Lease.html");
    let r = v.json(&["doc", "edit", "Lease.html", "redact the phone number"]);
    assert_eq!(r["explanation"], "Redacted the tenant's line.");
    assert_eq!(
        r["operations"],
        json!([{"id": "op1", "tool": "redact_element", "input": {"elementId": ids[1]}}])
    );
    assert_eq!(v.read("Lease.html"), before);
    // The proposal as printed is what `doc apply` takes.
    let saved = ops_file(&v, r.clone());
    let applied = v.json(&["doc", "apply", "Lease.html", "--ops", &saved]);
    assert_eq!(applied["applied"].as_array().unwrap().len(), 1);
    assert!(!v.read("Lease.html").contains("7946"));
    v.json(&["undo", "--run", applied["run"].as_str().unwrap()]);
    assert_eq!(v.read("Lease.html"), before);

    // --yes: applied at once, as the agent, in the agent's run.
    model.push(vec![
        call("add_highlight", json!({"elementId": ids[2]})),
        text("Highlighted the rent."),
    ]);
    let r = v.json(&["doc", "edit", "Lease.html", "highlight the rent", "--yes"]);
    assert_eq!(r["applied"]["run"], r["run"]);
    let last = &ledger(&v)[0];
    assert_eq!(last["actor"], "agent:document-editor");
    assert_eq!(last["run"], r["run"]);
    assert!(v.read("Lease.html").contains("<mark>"));
}

/// The embedded model end to end: a real run that ends with a proposal of known tools on
/// elements that exist, and a file that nothing changed. What the small model proposes is not
/// asserted, only that it is well formed.
#[test]
fn edit_on_the_embedded_model_ends_with_a_well_formed_proposal() {
    let v = TestVault::new();
    let ids = lease(&v);
    let before = v.read("Lease.html");
    let out = v
        .easel()
        .env_remove("EASEL_MODEL")
        .env_remove("EASEL_LOCAL_MODEL")
        .args([
            "--json",
            "doc",
            "edit",
            "Lease.html",
            "Redact the phone number.",
            "--model",
            "local:smollm2",
            "--max-turns",
            "3",
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let r: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(r["path"], "Lease.html");
    // Whether it answered or ran out of turns, the proposal is there and nothing applied.
    assert!(r.get("applied").is_none());
    for op in r["operations"].as_array().unwrap() {
        let tool = op["tool"].as_str().unwrap();
        assert!(easel_docedit::proposal::TOOL_NAMES.contains(&tool), "{op}");
        if let Some(id) = op["input"]["elementId"].as_str() {
            assert!(ids.iter().any(|i| i == id), "{op}");
        }
    }
    assert_eq!(v.read("Lease.html"), before);
}
