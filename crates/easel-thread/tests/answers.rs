//! Answers that are never lost or mislabelled: a canvas another program is rewriting only delays
//! the next write, an answer is one ledger entry (one run, one blob) whose undo keeps what
//! others changed meanwhile, and the node says `partial: true` until the answer is complete.
#![allow(clippy::unwrap_used)]

use easel_thread::{ModelFailure, Piece, SendError, SendOptions, Target, send};
use easel_vault::canvas::{Actor, load_canvas};
use easel_vault::{UndoTarget, Vault};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

const CANVAS: &str = r#"{"nodes":[
{"id":"q","type":"text","text":"Write three words.","x":0,"y":0,"width":250,"height":60}],
"edges":[]}"#;

fn vault() -> (tempfile::TempDir, Vault, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("chat.canvas");
    std::fs::write(&file, CANVAS).unwrap();
    let v = Vault::open(dir.path()).unwrap();
    (dir, v, file)
}

fn target<'a>(v: &'a Vault, actor: &'a Actor) -> Target<'a> {
    Target {
        vault: v,
        actor,
        canvas: "chat",
        node: "q",
    }
}

/// Every streamed piece is written (no 250 ms wait), so each piece meets the canvas as it is.
fn eager() -> SendOptions {
    SendOptions {
        interval: Duration::ZERO,
        ..SendOptions::default()
    }
}

fn text(piece: &str) -> Result<Piece, ModelFailure> {
    Ok(Piece::Text(piece.to_owned()))
}

fn answer_of(v: &Vault, id: &str) -> Option<String> {
    let (_, c, _) = load_canvas(v, "chat").unwrap();
    c.node(id).map(|n| n.text().unwrap().to_owned())
}

fn only_answer(v: &Vault) -> String {
    let (_, c, _) = load_canvas(v, "chat").unwrap();
    let others: Vec<_> = c.nodes().iter().filter(|n| n.id() != "q").collect();
    assert_eq!(others.len(), 1, "{c:?}");
    others[0].text().unwrap().to_owned()
}

#[test]
fn a_canvas_truncated_while_the_answer_streams_only_delays_the_next_write() {
    let (_d, v, file) = vault();
    let actor = Actor::new("thread");
    let mut saved = Vec::new();
    let mut step = 0;
    let stream = std::iter::from_fn(|| {
        step += 1;
        match step {
            1 => Some(text("Three")),
            2 => {
                // Another program rewrites the canvas in place: first it truncates it ...
                saved = std::fs::read(&file).unwrap();
                std::fs::write(&file, "").unwrap();
                Some(text(" little"))
            }
            3 => {
                // ... then it has written half of it ...
                std::fs::write(&file, &saved[..saved.len() / 2]).unwrap();
                Some(text(" words"))
            }
            4 => {
                // ... and then all of it.
                std::fs::write(&file, &saved).unwrap();
                Some(text("."))
            }
            _ => None,
        }
    });
    let sent = send(
        target(&v, &actor),
        &eager(),
        &AtomicBool::new(false),
        |_| Ok(stream),
        &mut |_| {},
    )
    .unwrap();
    assert_eq!(sent.text, "Three little words.");
    assert!(!sent.partial);
    let body = answer_of(&v, &sent.node).unwrap();
    assert!(body.ends_with("---\n\nThree little words."), "{body}");
    assert!(!body.contains("partial"), "{body}");
}

#[test]
fn the_last_write_waits_for_a_canvas_that_is_being_rewritten() {
    let (_d, v, file) = vault();
    let actor = Actor::new("thread");
    let mut step = 0;
    let mut restorer = None;
    let stream = std::iter::from_fn(|| {
        step += 1;
        match step {
            1 => Some(text("Three little words.")),
            _ => {
                // The canvas is unreadable when the answer ends, and readable again a moment
                // later: the last write must land then.
                let saved = std::fs::read(&file).unwrap();
                std::fs::write(&file, &saved[..10]).unwrap();
                let file = file.clone();
                restorer = Some(std::thread::spawn(move || {
                    std::thread::sleep(Duration::from_millis(300));
                    std::fs::write(&file, saved).unwrap();
                }));
                None
            }
        }
    });
    let sent = send(
        target(&v, &actor),
        &eager(),
        &AtomicBool::new(false),
        |_| Ok(stream),
        &mut |_| {},
    )
    .unwrap();
    restorer.unwrap().join().unwrap();
    let body = answer_of(&v, &sent.node).unwrap();
    assert!(body.ends_with("---\n\nThree little words."), "{body}");
    assert!(!body.contains("partial"), "{body}");
}

#[test]
fn a_canvas_that_stays_unreadable_fails_with_the_answer_in_the_error() {
    let (_d, v, file) = vault();
    let actor = Actor::new("thread");
    let mut step = 0;
    let stream = std::iter::from_fn(|| {
        step += 1;
        match step {
            1 => Some(text("Three little words.")),
            _ => {
                std::fs::write(&file, "{\"nodes\":[").unwrap();
                None
            }
        }
    });
    let options = SendOptions {
        patience: Duration::from_millis(100),
        ..eager()
    };
    let err = send(
        target(&v, &actor),
        &options,
        &AtomicBool::new(false),
        |_| Ok(stream),
        &mut |_| {},
    )
    .unwrap_err();
    assert!(matches!(err, SendError::Response(_)), "{err:?}");
    assert_eq!(err.kind(), easel_vault::ErrorKind::Invalid);
    let message = err.to_string();
    assert!(message.contains("stayed unreadable"), "{message}");
    assert!(message.ends_with("Three little words."), "{message}");
    assert!(err.hint().contains("canvas_validate"), "{}", err.hint());
}

#[test]
fn an_answer_is_one_ledger_entry_with_a_run_and_one_copy_of_the_canvas() {
    let (d, v, _file) = vault();
    let actor = Actor::new("thread");
    let words: Vec<String> = (0..60).map(|i| format!(" word{i}")).collect();
    let stream = words.iter().map(|w| text(w));
    let sent = send(
        target(&v, &actor),
        &eager(),
        &AtomicBool::new(false),
        |_| Ok(stream),
        &mut |_| {},
    )
    .unwrap();
    let entries = v.ledger_list(None).unwrap();
    assert_eq!(entries.len(), 1, "{entries:#?}");
    let entry = &entries[0];
    assert_eq!(entry.actor, "thread");
    assert_eq!(entry.op, "thread.answer");
    assert_eq!(entry.run.as_deref(), Some(sent.run.as_str()));
    assert!(!sent.run.is_empty());
    let blobs: Vec<_> = std::fs::read_dir(d.path().join(".easel/blobs"))
        .unwrap()
        .collect();
    assert_eq!(blobs.len(), 1, "one copy of the canvas, not one per piece");

    // Undo takes the whole answer back, not its last piece.
    v.undo(UndoTarget::Latest).unwrap();
    let (_, c, _) = load_canvas(&v, "chat").unwrap();
    assert_eq!(c.nodes().len(), 1);
    assert!(c.edges().is_empty());
}

#[test]
fn undoing_an_answer_keeps_what_others_changed_while_it_streamed() {
    let (_d, v, _file) = vault();
    let actor = Actor::new("thread");
    let mut step = 0;
    let stream = std::iter::from_fn(|| {
        step += 1;
        match step {
            1 => Some(text("Three")),
            2 => {
                let mut node = easel_canvas::json::Map::new();
                node.insert("id", "mine".into());
                node.insert("type", "text".into());
                node.insert("text", "Added while the answer streamed".into());
                node.insert("x", (-600.0).into());
                node.insert("y", 0.0.into());
                node.insert("width", 250.0.into());
                node.insert("height", 60.0.into());
                easel_vault::canvas::add_node(
                    &v,
                    &easel_vault::canvas::Actor::new("cli"),
                    "chat",
                    node,
                    None,
                )
                .unwrap();
                Some(text(" little words."))
            }
            _ => None,
        }
    });
    let sent = send(
        target(&v, &actor),
        &eager(),
        &AtomicBool::new(false),
        |_| Ok(stream),
        &mut |_| {},
    )
    .unwrap();
    assert!(answer_of(&v, &sent.node).is_some());
    let undone = v.undo(UndoTarget::Latest).unwrap();
    assert_eq!(undone.len(), 1);
    let (_, c, _) = load_canvas(&v, "chat").unwrap();
    let ids: Vec<&str> = c.nodes().iter().map(|n| n.id()).collect();
    assert_eq!(ids, ["q", "mine"], "the answer goes, the other edit stays");
    assert!(c.edges().is_empty());
    // The run undoes the same one entry.
    assert!(v.undo(UndoTarget::Run(sent.run.clone())).is_err());
}

#[test]
fn the_node_says_partial_until_the_answer_is_complete() {
    let (_d, v, _file) = vault();
    let actor = Actor::new("thread");
    let mut seen_while_streaming = Vec::new();
    let mut step = 0;
    let stream = std::iter::from_fn(|| {
        step += 1;
        // What is on disk at each moment is what a crash or `kill -9` would leave.
        seen_while_streaming.push(only_answer(&v));
        match step {
            1 => Some(text("Three")),
            2 => Some(text(" little words.")),
            _ => None,
        }
    });
    let sent = send(
        target(&v, &actor),
        &eager(),
        &AtomicBool::new(false),
        |_| Ok(stream),
        &mut |_| {},
    )
    .unwrap();
    assert_eq!(seen_while_streaming.len(), 3);
    for body in &seen_while_streaming {
        assert!(body.contains("\npartial: true\n---"), "{body}");
    }
    assert!(seen_while_streaming[0].ends_with("---\n\n"));
    assert!(seen_while_streaming[2].ends_with("---\n\nThree little words."));
    let body = answer_of(&v, &sent.node).unwrap();
    assert!(!body.contains("partial"), "{body}");
}
