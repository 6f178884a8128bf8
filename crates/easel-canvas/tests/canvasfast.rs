#![allow(clippy::unwrap_used)]
//! Nodes and edges read from text are not built into objects until something asks (issue 19).
//! These properties check that the lazy path answers exactly as built objects do: typed
//! accessors, validation findings, and parse errors.

use easel_canvas::{Canvas, CanvasError, Edge, Node, json, validate};
use proptest::prelude::*;

/// Keys validation and the accessors read, a few it does not, and escaped spellings of known
/// keys (which the lazy reader leaves to the full parser).
fn key() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        "id",
        "type",
        "x",
        "y",
        "width",
        "height",
        "color",
        "text",
        "file",
        "subpath",
        "url",
        "label",
        "background",
        "backgroundStyle",
        "fromNode",
        "toNode",
        "fromSide",
        "toSide",
        "fromEnd",
        "toEnd",
        "styleAttributes",
        "zz",
        "i\\u0064",
        "t\\u0065xt",
    ])
    .prop_map(|k| format!("\"{k}\""))
}

/// Values of every JSON type, with the strings validation cares about and escaped ones.
fn value() -> impl Strategy<Value = String> {
    let strings = prop::sample::select(vec![
        "a",
        "b",
        "",
        "text",
        "file",
        "link",
        "group",
        "other",
        "#x",
        "x",
        "4",
        "7",
        "#ff8800",
        "1,2,3",
        "top",
        "left",
        "none",
        "arrow",
        "cover",
        "a\\nb",
        "\\u0061",
        "\\ud800",
        "a\\/b",
        "\\\"q\\\"",
    ])
    .prop_map(|s| format!("\"{s}\""));
    prop_oneof![
        4 => strings,
        3 => "-?(0|[1-9][0-9]{0,3})(\\.[0-9]{1,2})?([eE][+-]?[0-9])?",
        1 => Just("1e400".to_owned()),
        1 => Just("true".to_owned()),
        1 => Just("null".to_owned()),
        1 => Just("{\"shape\":\"pill\"}".to_owned()),
        1 => Just("[1, \"a\"]".to_owned()),
    ]
}

fn object() -> impl Strategy<Value = String> {
    (
        prop::collection::vec((key(), value()), 0..9),
        prop::sample::select(vec!["", " "]),
    )
        .prop_map(|(pairs, ws)| {
            let body: Vec<String> = pairs
                .into_iter()
                .map(|(k, v)| format!("{k}:{ws}{v}"))
                .collect();
            format!("{{{}}}", body.join(","))
        })
}

fn canvas_text() -> impl Strategy<Value = String> {
    (
        prop::collection::vec(object(), 0..6),
        prop::collection::vec(object(), 0..6),
    )
        .prop_map(|(nodes, edges)| {
            format!(
                "{{\n\t\"nodes\":[\n\t\t{}\n\t],\n\t\"edges\":[\n\t\t{}\n\t]\n}}",
                nodes.join(",\n\t\t"),
                edges.join(",\n\t\t")
            )
        })
}

/// A valid node or edge with up to three keys set to other values (or added), so that nearly
/// valid objects, the ones validation's quick checks must not wave through, are common.
fn near_valid(base: Vec<(&'static str, &'static str)>) -> impl Strategy<Value = String> {
    prop::collection::vec((key(), value(), any::<bool>()), 0..3).prop_map(move |changes| {
        let mut pairs: Vec<(String, String)> = base
            .iter()
            .map(|(k, v)| (format!("\"{k}\""), (*v).to_owned()))
            .collect();
        for (k, v, drop) in changes {
            match pairs.iter().position(|(pk, _)| *pk == k) {
                Some(i) if drop => {
                    pairs.remove(i);
                }
                Some(i) => pairs[i].1 = v,
                None => pairs.push((k, v)),
            }
        }
        let body: Vec<String> = pairs.into_iter().map(|(k, v)| format!("{k}:{v}")).collect();
        format!("{{{}}}", body.join(","))
    })
}

fn near_valid_canvas() -> impl Strategy<Value = String> {
    let node = |id: &'static str, kind: &'static str, field: &'static str, v: &'static str| {
        near_valid(vec![
            ("id", id),
            ("type", kind),
            (field, v),
            ("x", "-10"),
            ("y", "20"),
            ("width", "250"),
            ("height", "60"),
            ("color", "\"4\""),
        ])
    };
    (
        node("\"a\"", "\"text\"", "text", "\"hi\\nthere\""),
        node("\"b\"", "\"file\"", "file", "\"n.md\""),
        node("\"c\"", "\"link\"", "url", "\"https://x\""),
        node("\"d\"", "\"group\"", "label", "\"G\""),
        near_valid(vec![
            ("id", "\"e\""),
            ("fromNode", "\"a\""),
            ("fromSide", "\"right\""),
            ("toNode", "\"b\""),
            ("toSide", "\"left\""),
            ("toEnd", "\"arrow\""),
            ("label", "\"l\""),
        ]),
    )
        .prop_map(|(a, b, c, d, e)| {
            format!("{{\n\t\"nodes\":[\n\t\t{a},\n\t\t{b},\n\t\t{c},\n\t\t{d}\n\t],\n\t\"edges\":[\n\t\t{e}\n\t]\n}}")
        })
}

/// Everything a reader can ask a node without its object.
fn node_view(n: &Node) -> String {
    format!(
        "{:?}",
        (
            n.id(),
            n.kind(),
            n.text(),
            n.file(),
            n.subpath(),
            n.url(),
            n.label(),
            n.color(),
            n.rect(),
            n.searchable_text(),
        )
    )
}

fn edge_view(e: &Edge) -> String {
    format!(
        "{:?}",
        (
            e.id(),
            e.from_node(),
            e.to_node(),
            e.from_side(),
            e.to_side(),
            e.from_end(),
            e.to_end(),
            e.label(),
            e.color(),
        )
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1024))]

    #[test]
    fn lazy_reads_answer_as_built_objects_do(text in prop_oneof![canvas_text(), near_valid_canvas()]) {
        let lazy = Canvas::parse(&text).unwrap();
        // Ask before anything builds the objects, then compare with canvases of built ones.
        let nodes: Vec<String> = lazy.nodes().iter().map(node_view).collect();
        let edges: Vec<String> = lazy.edges().iter().map(edge_view).collect();
        let report = validate(&lazy);
        let built = Canvas::from_value(lazy.to_value()).unwrap();
        let built_nodes: Vec<String> = built.nodes().iter().map(node_view).collect();
        let built_edges: Vec<String> = built.edges().iter().map(edge_view).collect();
        prop_assert_eq!(nodes, built_nodes);
        prop_assert_eq!(edges, built_edges);
        prop_assert_eq!(report, validate(&built));
        prop_assert_eq!(lazy.to_obsidian_string(), built.to_obsidian_string());
    }

    /// A broken canvas gets the error the JSON parser gives, at the same line and column.
    #[test]
    fn broken_canvases_get_the_parsers_error(
        text in canvas_text(),
        cut in any::<prop::sample::Index>(),
        junk in prop::sample::select(vec!["", "\"", "\\", "}", ",", "\u{1}", "x", "\\u12", "-"]),
    ) {
        let at = cut.index(text.len() + 1);
        let Some((head, tail)) = text.get(..at).zip(text.get(at..)) else {
            return Ok(());
        };
        let broken = format!("{head}{junk}{}", tail.get(1..).unwrap_or(""));
        if let Err(want) = json::parse(&broken) {
            match Canvas::parse(&broken) {
                Err(CanvasError::Parse(got)) => prop_assert_eq!(got, want),
                other => prop_assert!(false, "{broken:?}: {other:?}"),
            }
        }
    }
}

#[test]
fn escaped_known_keys_are_read_as_the_keys_they_spell() {
    let text = r#"{"nodes":[{"i\u0064":"a","type":"text","t\u0065xt":"hi","x":0,"y":0,"width":1,"height":1}]}"#;
    let canvas = Canvas::parse(text).unwrap();
    let n = &canvas.nodes()[0];
    assert_eq!((n.id(), n.text()), ("a", Some("hi")));
    assert!(validate(&canvas).is_valid());
}

#[test]
fn a_node_is_built_only_when_its_object_is_asked_for() {
    let text = "{\n\t\"nodes\":[\n\t\t{\"id\":\"a\",\"type\":\"text\",\"text\":\"two\\nlines\",\"x\":1,\"y\":2,\"width\":3,\"height\":4,\"zz\":[1]}\n\t]\n}";
    let canvas = Canvas::parse(text).unwrap();
    let n = &canvas.nodes()[0];
    assert_eq!(n.text(), Some("two\nlines"));
    assert_eq!(
        n.rect().map(|r| (r.x, r.y, r.width, r.height)),
        Some((1.0, 2.0, 3.0, 4.0))
    );
    assert_eq!(
        n.get("zz").map(json::Value::to_json).as_deref(),
        Some("[1]")
    );
    assert_eq!(canvas.to_obsidian_string(), text);
}
