//! The `/ask` watcher on a real vault and real file events: markers present at start and
//! markers typed later are answered once each, even with two watchers on one vault.
#![allow(clippy::unwrap_used)]

use easel_canvas::json::{Map, Value};
use easel_thread::{
    AnswerFailure, ContextOptions, ResponseWriter, VaultFiles, WatchEvent, WatchOptions,
    build_context, watch,
};
use easel_vault::Vault;
use easel_vault::canvas::{self, Actor, load_canvas};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

const CANVAS: &str = "{\n\t\"nodes\":[\n\t\t{\"id\":\"q\",\"type\":\"text\",\"text\":\"What is 2+2?\\n/ask\",\"x\":0,\"y\":0,\"width\":250,\"height\":60}\n\t],\n\t\"edges\":[]\n}";

/// Answers with the question read back through the walker, so the test sees that the marker
/// was gone before the context was built.
fn echo_answerer(vault: &Vault) -> impl Fn(&str, &str) -> Result<String, AnswerFailure> + Sync {
    move |canvas: &str, node: &str| {
        let (_, c, _) = load_canvas(vault, canvas).unwrap();
        let ctx =
            build_context(&c, node, &VaultFiles { vault }, &ContextOptions::default()).unwrap();
        let question = ctx.messages.last().unwrap().text().to_owned();
        let w = ResponseWriter::start(vault, &Actor::new("thread"), canvas, node, "echo").map_err(
            |e| AnswerFailure {
                error: e.to_string(),
                hint: e.hint(),
            },
        )?;
        let id = w.node_id().to_owned();
        w.finish(&format!("You asked: {question}")).unwrap();
        Ok(id)
    }
}

fn wait_for(what: &str, mut done: impl FnMut() -> bool) {
    let start = Instant::now();
    while !done() {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "timed out waiting for {what}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn answers(v: &Vault) -> Vec<String> {
    let (_, c, _) = load_canvas(v, "chat").unwrap();
    c.nodes()
        .iter()
        .filter_map(|n| n.text())
        .filter(|t| t.contains("You asked:"))
        .map(|t| t.rsplit("\n\n").next().unwrap().to_owned())
        .collect()
}

#[test]
fn markers_at_start_and_typed_later_are_answered_once() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("chat.canvas"), CANVAS).unwrap();
    std::fs::write(dir.path().join("other.canvas"), CANVAS).unwrap();
    let v = Vault::open(dir.path()).unwrap();
    let stop = AtomicBool::new(false);
    let events = Mutex::new(Vec::new());
    let options = WatchOptions {
        canvases: vec!["chat".into()],
        debounce: Duration::from_millis(100),
    };
    std::thread::scope(|s| {
        // Two watchers on one vault: each marker must still be answered exactly once.
        for _ in 0..2 {
            s.spawn(|| {
                watch(
                    &v,
                    &Actor::new("thread"),
                    &options,
                    &echo_answerer(&v),
                    &|e| events.lock().unwrap().push(e),
                    &stop,
                )
                .unwrap()
            });
        }
        wait_for("the first answer", || answers(&v).len() == 1);
        // Someone types a new question ending in /ask, as Obsidian would save it.
        let mut node = Map::new();
        node.insert("type", Value::from("text"));
        node.insert("text", Value::from("And 3+3?\n\n/ask\n"));
        node.insert("x", Value::from(800.0));
        node.insert("y", Value::from(0.0));
        canvas::add_node(&v, &Actor::new("cli"), "chat", node, None).unwrap();
        wait_for("the second answer", || answers(&v).len() == 2);
        // Give a duplicate answer time to show up if the watchers raced.
        std::thread::sleep(Duration::from_millis(600));
        stop.store(true, Ordering::Relaxed);
    });
    let mut got = answers(&v);
    got.sort();
    assert_eq!(got, ["You asked: And 3+3?", "You asked: What is 2+2?"]);
    let (_, c, _) = load_canvas(&v, "chat").unwrap();
    assert!(
        c.nodes()
            .iter()
            .all(|n| !n.text().unwrap_or("").contains("/ask")),
        "markers are removed"
    );
    assert_eq!(c.edges().len(), 2, "one edge per answer");
    // The canvas that was not named is left alone.
    let (_, other, _) = load_canvas(&v, "other").unwrap();
    assert_eq!(other.nodes().len(), 1);
    let events = events.into_inner().unwrap();
    let asked = events
        .iter()
        .filter(|e| matches!(e, WatchEvent::Asked { .. }))
        .count();
    let answered = events
        .iter()
        .filter(|e| matches!(e, WatchEvent::Answered { .. }))
        .count();
    assert_eq!((asked, answered), (2, 2), "{events:?}");
}

#[test]
fn a_failed_answer_is_reported_and_the_watcher_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("chat.canvas"), CANVAS).unwrap();
    std::fs::write(dir.path().join("broken.canvas"), "{\"nodes\":[").unwrap();
    let v = Vault::open(dir.path()).unwrap();
    let stop = AtomicBool::new(false);
    let events = Mutex::new(Vec::new());
    let fail = |_: &str, _: &str| -> Result<String, AnswerFailure> {
        Err(AnswerFailure {
            error: "model not found".into(),
            hint: "run easel llm fetch".into(),
        })
    };
    std::thread::scope(|s| {
        s.spawn(|| {
            watch(
                &v,
                &Actor::new("thread"),
                &WatchOptions::default(),
                &fail,
                &|e| events.lock().unwrap().push(e),
                &stop,
            )
            .unwrap()
        });
        wait_for("the failure", || {
            events
                .lock()
                .unwrap()
                .iter()
                .any(|e| matches!(e, WatchEvent::Failed { .. }))
        });
        stop.store(true, Ordering::Relaxed);
    });
    let events = events.into_inner().unwrap();
    assert!(
        events
            .iter()
            .any(|e| matches!(e, WatchEvent::Skipped { canvas, .. } if canvas == "broken.canvas")),
        "{events:?}"
    );
}
