//! Writing answers into a real vault: placement, streaming rewrites that keep other edits,
//! cancel and error cards.
#![allow(clippy::unwrap_used)]

use easel_canvas::json::{Map, Value};
use easel_thread::{ContextOptions, ResponseError, ResponseWriter, VaultFiles, build_context};
use easel_vault::Vault;
use easel_vault::canvas::{self, Actor, load_canvas};
use std::time::Duration;

const CANVAS: &str = "{\n\t\"nodes\":[\n\t\t{\"id\":\"q\",\"type\":\"text\",\"text\":\"What is 2+2?\",\"x\":0,\"y\":0,\"width\":250,\"height\":60}\n\t],\n\t\"edges\":[]\n}";

fn vault() -> (tempfile::TempDir, Vault) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("chat.canvas"), CANVAS).unwrap();
    let v = Vault::open(dir.path()).unwrap();
    (dir, v)
}

#[test]
fn the_answer_node_and_edge_are_placed_and_filled_field_by_field() {
    let (_d, v) = vault();
    let actor = Actor::new("thread");
    let w = ResponseWriter::start(&v, &actor, "chat", "q", "local:smollm2").unwrap();
    let (node_id, edge_id) = (w.node_id().to_owned(), w.edge_id().to_owned());
    w.finish("2 + 2 is 4.").unwrap();
    let (_, c, _) = load_canvas(&v, "chat").unwrap();
    let n = c.node(&node_id).unwrap();
    let r = n.rect().unwrap();
    assert_eq!((r.x, r.y, r.width), (0.0, 120.0, 400.0));
    assert!(r.height >= 60.0);
    assert_eq!(n.color(), Some("3"));
    let text = n.text().unwrap();
    assert!(
        text.starts_with("---\nrole: assistant\nmodel: local:smollm2\ncreated: 20"),
        "{text}"
    );
    assert!(text.ends_with("---\n\n2 + 2 is 4."), "{text}");
    let e = c.edge(&edge_id).unwrap();
    assert_eq!((e.from_node(), e.to_node()), ("q", node_id.as_str()));
    assert_eq!(e.from_side().map(|s| s.as_str()), Some("bottom"));
    assert_eq!(e.to_side().map(|s| s.as_str()), Some("top"));
    // The walker reads the answer back as the assistant's message.
    let ctx = build_context(
        &c,
        &node_id,
        &VaultFiles { vault: &v },
        &ContextOptions::default(),
    )
    .unwrap();
    assert_eq!(ctx.messages.last().unwrap().text(), "2 + 2 is 4.");
    assert_eq!(
        serde_json::to_value(&ctx.messages[1]).unwrap()["role"],
        "assistant"
    );
}

#[test]
fn a_second_answer_does_not_overlap_the_first() {
    let (_d, v) = vault();
    let actor = Actor::new("thread");
    let first = ResponseWriter::start(&v, &actor, "chat", "q", "m").unwrap();
    let first_id = first.node_id().to_owned();
    first.finish(&"long answer ".repeat(40)).unwrap();
    let second = ResponseWriter::start(&v, &actor, "chat", "q", "m").unwrap();
    let second_id = second.node_id().to_owned();
    second.finish("another answer").unwrap();
    let (_, c, _) = load_canvas(&v, "chat").unwrap();
    let a = c.node(&first_id).unwrap().rect().unwrap();
    let b = c.node(&second_id).unwrap().rect().unwrap();
    assert!(!a.overlaps(&b), "{a:?} overlaps {b:?}");
}

#[test]
fn edits_made_while_the_answer_streams_are_kept() {
    let (_d, v) = vault();
    let actor = Actor::new("thread");
    let mut w = ResponseWriter::start(&v, &actor, "chat", "q", "m")
        .unwrap()
        .with_interval(Duration::ZERO);
    let mut answer = String::new();
    for i in 0..6 {
        answer.push_str(&format!("part {i}. "));
        if i == 2 {
            // Someone adds a note in Obsidian meanwhile.
            let mut note = Map::new();
            note.insert("type", Value::from("text"));
            note.insert("text", Value::from("added by a person"));
            note.insert("x", Value::from(-600.0));
            note.insert("y", Value::from(0.0));
            canvas::add_node(&v, &Actor::new("cli"), "chat", note, None).unwrap();
        }
        assert!(w.update(&answer).unwrap(), "chunk {i} was not written");
        // Nothing new: nothing to write.
        assert!(!w.update(&answer).unwrap());
    }
    let id = w.node_id().to_owned();
    w.finish(&answer).unwrap();
    let (_, c, _) = load_canvas(&v, "chat").unwrap();
    assert!(
        c.nodes()
            .iter()
            .any(|n| n.text() == Some("added by a person"))
    );
    assert!(c.node(&id).unwrap().text().unwrap().ends_with("part 5. "));
}

#[test]
fn cancel_keeps_the_partial_answer_and_failures_become_error_cards() {
    let (_d, v) = vault();
    let actor = Actor::new("thread");
    let w = ResponseWriter::start(&v, &actor, "chat", "q", "m").unwrap();
    let partial_id = w.node_id().to_owned();
    w.cancel("2 + 2 is").unwrap();
    let w = ResponseWriter::start(&v, &actor, "chat", "q", "m").unwrap();
    let error_id = w.node_id().to_owned();
    w.fail(
        "the model did not answer within 60 s",
        "check that Ollama is running",
    )
    .unwrap();
    let (_, c, _) = load_canvas(&v, "chat").unwrap();
    let partial = c.node(&partial_id).unwrap().text().unwrap();
    assert!(
        partial.contains("partial: true") && partial.ends_with("2 + 2 is"),
        "{partial}"
    );
    let card = c.node(&error_id).unwrap();
    assert_eq!(card.color(), Some("1"));
    assert!(card.text().unwrap().contains("role: error"));
    assert!(
        card.text()
            .unwrap()
            .contains("check that Ollama is running")
    );
    // Error cards take no part in later conversations.
    let ctx = build_context(
        &c,
        &error_id,
        &VaultFiles { vault: &v },
        &ContextOptions::default(),
    )
    .unwrap();
    assert_eq!(ctx.messages.len(), 1);
}

#[test]
fn a_removed_answer_node_stops_the_writer_without_damage() {
    let (_d, v) = vault();
    let actor = Actor::new("thread");
    let w = ResponseWriter::start(&v, &actor, "chat", "q", "m").unwrap();
    canvas::remove_node(&v, &Actor::new("cli"), "chat", w.node_id(), None).unwrap();
    let before = std::fs::read_to_string(v.root().join("chat.canvas")).unwrap();
    assert!(matches!(
        w.finish("late"),
        Err(ResponseError::AnswerRemoved(_))
    ));
    assert_eq!(
        std::fs::read_to_string(v.root().join("chat.canvas")).unwrap(),
        before
    );
    assert!(matches!(
        ResponseWriter::start(&v, &actor, "chat", "missing", "m"),
        Err(ResponseError::TargetNotFound(_))
    ));
}

#[test]
fn updates_are_throttled_to_the_interval() {
    let (_d, v) = vault();
    let mut w = ResponseWriter::start(&v, &Actor::new("thread"), "chat", "q", "m")
        .unwrap()
        .with_interval(Duration::from_secs(3600));
    let before = std::fs::read_to_string(v.root().join("chat.canvas")).unwrap();
    assert!(!w.update("a").unwrap());
    assert!(!w.update("ab").unwrap());
    assert_eq!(
        std::fs::read_to_string(v.root().join("chat.canvas")).unwrap(),
        before
    );
    w.finish("abc").unwrap();
    assert!(
        std::fs::read_to_string(v.root().join("chat.canvas"))
            .unwrap()
            .contains("abc")
    );
}
