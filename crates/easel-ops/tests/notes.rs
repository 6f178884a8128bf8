//! The note operations through the registry, as an agent or MCP client calls them.

#![allow(clippy::unwrap_used)]

use easel_ops::{Actor, Ctx, ErrorKind, OpError, Registry};
use serde_json::{Value, json};
use std::fs;

struct Fixture {
    dir: tempfile::TempDir,
    registry: Registry,
    ctx: Ctx,
}

impl Fixture {
    fn new() -> Fixture {
        let dir = tempfile::tempdir().unwrap();
        let vault = easel_vault::Vault::open(dir.path()).unwrap();
        let mut registry = Registry::new();
        easel_ops::register(&mut registry);
        let ctx = Ctx::new(vault, Actor::agent("test"));
        Fixture { dir, registry, ctx }
    }

    fn write(&self, path: &str, text: &str) {
        let p = self.dir.path().join(path);
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        fs::write(p, text).unwrap();
    }

    fn read(&self, path: &str) -> String {
        fs::read_to_string(self.dir.path().join(path)).unwrap()
    }

    fn call(&self, op: &str, args: Value) -> Result<Value, OpError> {
        let out = self.registry.call(&self.ctx, op, args)?;
        Ok(serde_json::from_str(&out.json).unwrap())
    }

    fn ok(&self, op: &str, args: Value) -> Value {
        self.call(op, args.clone())
            .unwrap_or_else(|e| panic!("{op} {args}: {e}\nhint: {}", e.hint))
    }
}

const NOTE: &str = "---\ntitle: Garden plan\ntags: [garden, plan]\n---\nIntro\n\nBeds\n====\n\nTomatoes in May ^tom\n\n## Paths ##\n\n> gravel, not bark\n> cheaper ^q\n\n```\n# not a heading\n```\n\n# Costs\n\nabout 300\n";

#[test]
fn sections_are_found_the_way_obsidian_reads_headings() {
    let f = Fixture::new();
    f.write("Garden.md", NOTE);
    let r = f.ok("note_read", json!({"path": "Garden"}));
    assert_eq!(r["frontmatter"]["title"], "Garden plan");
    assert_eq!(r["headings"], json!(["# Beds", "## Paths", "# Costs"]));
    // A setext heading owns the text up to the next heading of its level.
    let beds = f.ok(
        "note_read",
        json!({"path": "Garden.md", "section": "#Beds"}),
    );
    assert!(beds["body"].as_str().unwrap().starts_with("Beds\n====\n"));
    assert!(beds["body"].as_str().unwrap().ends_with("```\n\n"));
    // Closing hashes are not part of the name.
    let paths = f.ok(
        "note_read",
        json!({"path": "Garden.md", "section": "Beds#Paths"}),
    );
    assert!(paths["body"].as_str().unwrap().starts_with("## Paths ##"));
    // Blocks in quotes, without the marker.
    let q = f.ok("note_read", json!({"path": "Garden.md", "section": "#^q"}));
    assert_eq!(q["body"], "> gravel, not bark\n> cheaper");
    let tom = f.ok(
        "note_read",
        json!({"path": "Garden.md", "section": "#^tom"}),
    );
    assert_eq!(tom["body"], "Tomatoes in May");
    let e = f
        .call(
            "note_read",
            json!({"path": "Garden.md", "section": "#not a heading"}),
        )
        .unwrap_err();
    assert_eq!(e.kind, ErrorKind::NotFound);
    assert!(e.hint.contains("# Beds"), "{}", e.hint);
}

#[test]
fn writes_keep_to_the_revision_they_were_given() {
    let f = Fixture::new();
    let w = f.ok(
        "note_write",
        json!({"path": "Idea", "content": "one\n", "create_only": true}),
    );
    assert_eq!(
        (w["path"].as_str(), w["created"].as_bool()),
        (Some("Idea.md"), Some(true))
    );
    let again = f
        .call(
            "note_write",
            json!({"path": "Idea", "content": "x", "create_only": true}),
        )
        .unwrap_err();
    assert_eq!(again.kind, ErrorKind::Conflict);
    let rev = w["rev"].as_str().unwrap();
    f.write("Idea.md", "changed in Obsidian\n");
    let stale = f
        .call(
            "note_write",
            json!({"path": "Idea", "content": "two\n", "rev": rev}),
        )
        .unwrap_err();
    assert_eq!(stale.kind, ErrorKind::Conflict);
    assert_eq!(f.read("Idea.md"), "changed in Obsidian\n");
    // The ledger holds the change with the agent as actor.
    let ledger = f.ok("ledger_list", json!({}));
    assert_eq!(ledger["entries"][0]["actor"], "agent:test");
    assert_eq!(ledger["entries"][0]["op"], "note_write");
}

#[test]
fn append_adds_at_the_end_of_a_note_or_a_section() {
    let f = Fixture::new();
    f.write("Log.md", "# Log\n- one\n\n# Later\nx\n");
    f.ok(
        "note_append",
        json!({"path": "Log", "text": "- two", "section": "#Log"}),
    );
    assert_eq!(f.read("Log.md"), "# Log\n- one\n\n- two\n\n# Later\nx\n");
    f.ok("note_append", json!({"path": "Log", "text": "end"}));
    assert!(f.read("Log.md").ends_with("x\nend\n"));
    let created = f.ok(
        "note_append",
        json!({"path": "New/Journal", "text": "first"}),
    );
    assert_eq!(created["created"], true);
    assert_eq!(f.read("New/Journal.md"), "first\n");
}

#[test]
fn edit_replaces_exactly_one_occurrence() {
    let f = Fixture::new();
    f.write("Plan.md", "due in May\nreview in May\n");
    let twice = f
        .call(
            "note_edit",
            json!({"path": "Plan", "old_text": "in May", "new_text": "in June"}),
        )
        .unwrap_err();
    assert!(twice.message.contains("2 times"), "{}", twice.message);
    let none = f
        .call(
            "note_edit",
            json!({"path": "Plan", "old_text": "in July", "new_text": "x"}),
        )
        .unwrap_err();
    assert_eq!(none.kind, ErrorKind::Invalid);
    assert_eq!(f.read("Plan.md"), "due in May\nreview in May\n");
    let e = f.ok(
        "note_edit",
        json!({"path": "Plan", "old_text": "review in May", "new_text": "review in June"}),
    );
    assert_eq!(e["line"], 2);
    assert_eq!(f.read("Plan.md"), "due in May\nreview in June\n");
    let missing = f
        .call(
            "note_edit",
            json!({"path": "Nope", "old_text": "a", "new_text": "b"}),
        )
        .unwrap_err();
    assert_eq!(missing.kind, ErrorKind::NotFound);
}

#[test]
fn no_note_operation_reaches_outside_the_vault() {
    let f = Fixture::new();
    f.write("tmp/inside.canvas", "{}");
    let outside = f.dir.path().parent().unwrap().join("outside-note.md");
    for (op, args) in [
        ("note_read", json!({"path": "../outside-note.md"})),
        (
            "note_write",
            json!({"path": "../outside-note", "content": "x"}),
        ),
        (
            "note_append",
            json!({"path": "/tmp/outside-note", "text": "x"}),
        ),
        (
            "note_edit",
            json!({"path": "a/../../outside-note", "old_text": "a", "new_text": "b"}),
        ),
        (
            "note_write",
            json!({"path": ".obsidian/app.json", "content": "{}"}),
        ),
        ("vault_list", json!({"folder": "/etc"})),
        ("vault_search", json!({"query": "root", "folder": "../"})),
        ("vault_query", json!({"folder": ".."})),
        // An absolute folder is refused, not read as the vault's own "tmp" folder.
        ("canvas_list", json!({"folder": "/tmp"})),
        ("canvas_list", json!({"folder": "/"})),
        ("canvas_list", json!({"folder": " /tmp/ "})),
    ] {
        let e = f.call(op, args.clone()).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Invalid, "{op} {args}: {e}");
        assert!(!e.hint.is_empty());
    }
    assert!(!outside.exists());
}

#[test]
fn names_with_control_characters_are_not_created() {
    let f = Fixture::new();
    for path in ["a\nb", "tab\there", "bell\u{7}"] {
        let e = f
            .call("note_write", json!({"path": path, "content": "x"}))
            .unwrap_err();
        assert_eq!(e.kind, ErrorKind::Invalid, "{path:?}: {e}");
        assert!(e.message.contains("control character"), "{e}");
    }
    assert_eq!(fs::read_dir(f.dir.path()).unwrap().count(), 0);
}
