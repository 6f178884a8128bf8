//! Any bytes: parsing never panics; whatever parses round-trips through Obsidian's layout to
//! the same canvas, validates without panicking, and survives edits of its own ids. Nodes and
//! edges read lazily from the text answer and validate as built objects do.
#![no_main]

use easel_canvas::{Canvas, IdGen, json, validate};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let _ = json::parse(text);
    let Ok(canvas) = Canvas::parse(text) else {
        return;
    };
    let out = canvas.to_obsidian_string();
    let again = Canvas::parse(&out).expect("serializer output must parse");
    assert_eq!(again, canvas, "reparse changed the canvas");
    assert_eq!(again.to_obsidian_string(), out, "serializing is not stable");
    let ids: Vec<(&str, Option<&str>, Option<easel_canvas::Rect>)> = canvas
        .nodes()
        .iter()
        .map(|n| (n.id(), n.text(), n.rect()))
        .collect();
    let ends: Vec<(&str, &str, Option<easel_canvas::Side>)> = canvas
        .edges()
        .iter()
        .map(|e| (e.from_node(), e.to_node(), e.from_side()))
        .collect();
    let report = validate(&canvas);
    let built = Canvas::from_value(canvas.to_value()).expect("a canvas's value is a canvas");
    assert_eq!(report, validate(&built), "lazy and built objects validate differently");
    for (lazy, n) in ids.iter().zip(built.nodes()) {
        assert_eq!(*lazy, (n.id(), n.text(), n.rect()), "lazy node reads differ");
    }
    for (lazy, e) in ends.iter().zip(built.edges()) {
        assert_eq!(*lazy, (e.from_node(), e.to_node(), e.from_side()), "lazy edge reads differ");
    }
    let mut edited = canvas.clone();
    let ids: Vec<String> = canvas.nodes().iter().map(|n| n.id().to_owned()).collect();
    let mut ids_gen = IdGen::with_seed(0);
    for id in &ids {
        let _ = edited.move_node(id, 10.0, 10.0);
        let mut patch = json::Map::new();
        patch.insert("color", json::Value::from("4"));
        let _ = edited.update_node(id, &patch);
    }
    if let [a, b, ..] = ids.as_slice() {
        let mut edge = json::Map::new();
        edge.insert("fromNode", json::Value::from(a.as_str()));
        edge.insert("toNode", json::Value::from(b.as_str()));
        let _ = edited.add_edge(edge, &mut ids_gen);
    }
    for id in &ids {
        let _ = edited.remove_node(id);
    }
});
