//! `send` with scripted streams: the answer lands in the canvas, cancel keeps the partial
//! answer, failures become error cards that keep what arrived, and an explicit model wins.
#![allow(clippy::unwrap_used)]

use easel_thread::{ModelFailure, Piece, SendError, SendOptions, Target, send, send_with_start};
use easel_vault::Vault;
use easel_vault::canvas::{Actor, load_canvas};
use std::sync::atomic::{AtomicBool, Ordering};

const CANVAS: &str = r#"{"nodes":[
{"id":"sys","type":"text","text":"---\nrole: system\nmodel: openai:gpt-4.1-mini\n---\nBe brief.","x":0,"y":-200,"width":250,"height":60},
{"id":"q","type":"text","text":"What is 2+2?","x":0,"y":0,"width":250,"height":60}],
"edges":[{"id":"e1","fromNode":"sys","fromSide":"bottom","toNode":"q","toSide":"top"}]}"#;

fn vault() -> (tempfile::TempDir, Vault) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("chat.canvas"), CANVAS).unwrap();
    let v = Vault::open(dir.path()).unwrap();
    (dir, v)
}

fn pieces(texts: &[&str]) -> Vec<Result<Piece, ModelFailure>> {
    texts
        .iter()
        .map(|t| Ok(Piece::Text((*t).to_owned())))
        .collect()
}

fn node_text(v: &Vault, id: &str) -> String {
    let (_, c, _) = load_canvas(v, "chat").unwrap();
    c.node(id).unwrap().text().unwrap().to_owned()
}

fn target<'a>(v: &'a Vault, actor: &'a Actor) -> Target<'a> {
    Target {
        vault: v,
        actor,
        canvas: "chat",
        node: "q",
    }
}

#[test]
fn the_streamed_answer_is_written_and_returned() {
    let (_d, v) = vault();
    let actor = Actor::new("thread");
    let mut seen = String::new();
    let mut stream = pieces(&[" 2 + 2", " is 4."]);
    stream.push(Ok(Piece::Usage(
        serde_json::json!({"prompt_tokens": 12, "completion_tokens": 5}),
    )));
    let sent = send(
        target(&v, &actor),
        &SendOptions::default(),
        &AtomicBool::new(false),
        |ctx| {
            assert_eq!(ctx.messages.len(), 2);
            assert_eq!(
                ctx.model, "openai:gpt-4.1-mini",
                "the canvas names the model"
            );
            Ok(stream.into_iter())
        },
        &mut |t| seen.push_str(t),
    )
    .unwrap();
    assert_eq!(seen, " 2 + 2 is 4.");
    assert_eq!(sent.text, "2 + 2 is 4.");
    assert!(!sent.partial);
    assert_eq!(sent.usage.unwrap()["completion_tokens"], 5);
    let text = node_text(&v, &sent.node);
    assert!(
        text.starts_with("---\nrole: assistant\nmodel: openai:gpt-4.1-mini\n"),
        "{text}"
    );
    assert!(text.ends_with("---\n\n2 + 2 is 4."), "{text}");
}

#[test]
fn the_answer_node_is_named_before_the_model_is_asked() {
    let (_d, v) = vault();
    let actor = Actor::new("thread");
    let mut started = None;
    let mut asked_after_start = false;
    let sent = send_with_start(
        target(&v, &actor),
        &SendOptions::default(),
        &AtomicBool::new(false),
        |_| {
            asked_after_start = true;
            Ok(pieces(&["Four."]).into_iter())
        },
        &mut |a| {
            // The node is on disk already when a viewer hears of it.
            let (_, c, _) = load_canvas(&v, "chat").unwrap();
            assert!(c.node(a.node).is_some());
            started = Some((a.node.to_owned(), a.edge.to_owned(), a.model.to_owned()));
        },
        &mut |_| {},
    )
    .unwrap();
    assert!(asked_after_start);
    assert_eq!(
        started,
        Some((sent.node, sent.edge, "openai:gpt-4.1-mini".to_owned()))
    );
}

#[test]
fn an_explicit_model_wins_over_the_canvas() {
    let (_d, v) = vault();
    let actor = Actor::new("thread");
    let options = SendOptions {
        model: Some("local:smollm2".into()),
        ..SendOptions::default()
    };
    let sent = send(
        target(&v, &actor),
        &options,
        &AtomicBool::new(false),
        |ctx| {
            assert_eq!(ctx.model, "local:smollm2");
            Ok(pieces(&["Four."]).into_iter())
        },
        &mut |_| {},
    )
    .unwrap();
    assert_eq!(sent.model, "local:smollm2");
    assert!(node_text(&v, &sent.node).contains("model: local:smollm2\n"));
}

#[test]
fn cancelling_keeps_the_partial_answer() {
    let (_d, v) = vault();
    let actor = Actor::new("thread");
    let cancel = AtomicBool::new(false);
    let stream = ["Two", " plus", " two", " is"].into_iter().map(|t| {
        if t == " two" {
            // Ctrl-C arrives while the third piece is on its way.
            cancel.store(true, Ordering::Relaxed);
        }
        Ok(Piece::Text(t.to_owned()))
    });
    let sent = send(
        target(&v, &actor),
        &SendOptions::default(),
        &cancel,
        |_| Ok(stream),
        &mut |_| {},
    )
    .unwrap();
    assert!(sent.partial);
    assert_eq!(sent.text, "Two plus");
    let text = node_text(&v, &sent.node);
    assert!(text.contains("\npartial: true\n---\n\nTwo plus"), "{text}");
}

#[test]
fn failures_become_error_cards_that_keep_what_arrived() {
    let (_d, v) = vault();
    let actor = Actor::new("thread");
    let mut stream = pieces(&["Two plus two"]);
    stream.push(Err(ModelFailure {
        error: "the connection to the model was lost".into(),
        hint: "check that the server is running, then ask again".into(),
    }));
    let err = send(
        target(&v, &actor),
        &SendOptions::default(),
        &AtomicBool::new(false),
        |_| Ok(stream.into_iter()),
        &mut |_| {},
    )
    .unwrap_err();
    assert!(matches!(err, SendError::Model(_)));
    assert_eq!(
        err.hint(),
        "check that the server is running, then ask again"
    );
    let (_, c, _) = load_canvas(&v, "chat").unwrap();
    let card = c.nodes().last().unwrap();
    assert_eq!(card.color(), Some("1"));
    let text = card.text().unwrap();
    assert!(text.starts_with("---\nrole: error\n"), "{text}");
    assert!(
        text.contains("the connection to the model was lost"),
        "{text}"
    );
    assert!(text.contains("Two plus two"), "{text}");

    // A model that cannot even start also leaves a card, and nothing else changes.
    let err = send(
        target(&v, &actor),
        &SendOptions::default(),
        &AtomicBool::new(false),
        |_| -> Result<std::vec::IntoIter<Result<Piece, ModelFailure>>, _> {
            Err(ModelFailure {
                error: "model file not found".into(),
                hint: "run easel llm fetch".into(),
            })
        },
        &mut |_| {},
    )
    .unwrap_err();
    assert_eq!(err.to_string(), "model file not found");
    let (_, c, _) = load_canvas(&v, "chat").unwrap();
    assert_eq!(c.nodes().len(), 4);
    assert_eq!(c.edges().len(), 3);
}

#[test]
fn unknown_nodes_fail_before_anything_is_written() {
    let (_d, v) = vault();
    let actor = Actor::new("thread");
    let before = std::fs::read(v.root().join("chat.canvas")).unwrap();
    let err = send(
        Target {
            node: "nope",
            ..target(&v, &actor)
        },
        &SendOptions::default(),
        &AtomicBool::new(false),
        |_| Ok(pieces(&["x"]).into_iter()),
        &mut |_| {},
    )
    .unwrap_err();
    assert_eq!(err.kind(), easel_vault::ErrorKind::NotFound);
    assert_eq!(std::fs::read(v.root().join("chat.canvas")).unwrap(), before);
}
