#![allow(clippy::unwrap_used)]
//! Property tests of the lossless round trip.
//!
//! 1. Any file already in Obsidian's layout is written back byte for byte.
//! 2. For any JSON document in any layout, parse → serialize → parse gives the same canvas.

use easel_canvas::{Canvas, json};
use proptest::prelude::*;

fn number() -> impl Strategy<Value = String> {
    "-?(0|[1-9][0-9]{0,6})(\\.[0-9]{1,5})?([eE][+-]?[0-9]{1,3})?"
}

/// A string literal escaped the way JSON.stringify escapes it.
fn string_lit() -> impl Strategy<Value = String> {
    prop_oneof![any::<String>(), "[a-z #\"\\\\/\n\t\u{1}é😀]{0,12}",]
        .prop_map(|s| serde_json::to_string(&s).unwrap())
}

/// A string literal with escapes JSON.stringify would not write (`\/`, `\u00e9`).
fn odd_string_lit() -> impl Strategy<Value = String> {
    prop_oneof![
        string_lit(),
        Just(r#""a\/b""#.to_owned()),
        Just(r#""\u00e9\ud83d\ude00""#.to_owned()),
        // Lone surrogates: JavaScript keeps them, so Easel must too.
        Just(r#""x\ud800y""#.to_owned()),
        Just(r#""\udc00""#.to_owned()),
        Just(r#""\uD800\u0041""#.to_owned()),
    ]
}

/// JSON text for a value; `ws` is inserted between tokens.
fn value(ws: BoxedStrategy<String>, lit: BoxedStrategy<String>) -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        Just("null".to_owned()),
        Just("true".to_owned()),
        Just("false".to_owned()),
        number(),
        lit.clone(),
    ];
    leaf.prop_recursive(3, 24, 4, move |inner| {
        prop_oneof![
            prop::collection::vec((ws.clone(), inner.clone(), ws.clone()), 0..4).prop_map(
                |items| format!(
                    "[{}]",
                    items
                        .into_iter()
                        .map(|(a, v, b)| format!("{a}{v}{b}"))
                        .collect::<Vec<_>>()
                        .join(",")
                )
            ),
            object(ws.clone(), lit.clone(), inner.boxed()),
        ]
    })
}

fn object(
    ws: BoxedStrategy<String>,
    lit: BoxedStrategy<String>,
    inner: BoxedStrategy<String>,
) -> impl Strategy<Value = String> {
    prop::collection::vec((ws.clone(), lit, ws.clone(), inner, ws), 0..5).prop_map(|pairs| {
        format!(
            "{{{}}}",
            pairs
                .into_iter()
                .map(|(a, k, b, v, c)| format!("{a}{k}{b}:{v}{c}"))
                .collect::<Vec<_>>()
                .join(",")
        )
    })
}

fn compact() -> BoxedStrategy<String> {
    Just(String::new()).boxed()
}

fn spaces() -> BoxedStrategy<String> {
    prop::sample::select(vec!["", " ", "\n", "\t", "\r\n  "])
        .prop_map(str::to_owned)
        .boxed()
}

fn obsidian_file() -> impl Strategy<Value = String> {
    let obj = || {
        object(
            compact(),
            string_lit().boxed(),
            value(compact(), string_lit().boxed()).boxed(),
        )
    };
    let extra = prop::collection::vec(("[a-z]{1,8}", value(compact(), string_lit().boxed())), 0..3);
    (
        prop::collection::vec(obj(), 0..6),
        prop::collection::vec(obj(), 0..6),
        extra,
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(|(nodes, edges, extra, has_nodes, has_edges)| {
            let array = |key: &str, items: &[String]| {
                if items.is_empty() {
                    format!("\t\"{key}\":[]")
                } else {
                    format!("\t\"{key}\":[\n\t\t{}\n\t]", items.join(",\n\t\t"))
                }
            };
            let mut lines = Vec::new();
            if has_nodes {
                lines.push(array("nodes", &nodes));
            }
            if has_edges {
                lines.push(array("edges", &edges));
            }
            for (k, v) in extra {
                if k != "nodes"
                    && k != "edges"
                    && !lines.iter().any(|l| l.starts_with(&format!("\t\"{k}\":")))
                {
                    lines.push(format!("\t\"{k}\":{v}"));
                }
            }
            if lines.is_empty() {
                "{}".to_owned()
            } else {
                format!("{{\n{}\n}}", lines.join(",\n"))
            }
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn obsidian_layout_round_trips_byte_for_byte(text in obsidian_file()) {
        let canvas = Canvas::parse(&text).unwrap();
        prop_assert_eq!(canvas.to_obsidian_string(), text);
    }

    #[test]
    fn any_json_reparses_to_the_same_canvas(
        ws in spaces(),
        nodes in prop::collection::vec(object(spaces(), odd_string_lit().boxed(), value(spaces(), odd_string_lit().boxed()).boxed()), 0..5),
        extra in value(spaces(), odd_string_lit().boxed()),
    ) {
        let text = format!("{{{ws}\"nodes\"{ws}:{ws}[{}]{ws},\"x\":{extra}}}", nodes.join(","));
        let first = Canvas::parse(&text).unwrap();
        let second = Canvas::parse(&first.to_obsidian_string()).unwrap();
        prop_assert_eq!(&second, &first);
        prop_assert_eq!(second.to_obsidian_string(), first.to_obsidian_string());
    }

    /// Elements in compact form are copied from the source instead of written from the tree;
    /// the copy must be exactly what the tree writer writes, whatever escapes the source used.
    #[test]
    fn copied_elements_are_what_the_writer_writes(
        nodes in prop::collection::vec(object(compact(), odd_string_lit().boxed(), value(compact(), odd_string_lit().boxed()).boxed()), 0..5),
        edges in prop::collection::vec(object(spaces(), odd_string_lit().boxed(), value(spaces(), odd_string_lit().boxed()).boxed()), 0..3),
    ) {
        let text = format!("{{\"nodes\":[{}],\"edges\":[{}]}}", nodes.join(","), edges.join(","));
        let canvas = Canvas::parse(&text).unwrap();
        let from_tree = Canvas::from_value(canvas.to_value()).unwrap();
        prop_assert_eq!(canvas.to_obsidian_string(), from_tree.to_obsidian_string());
    }

    #[test]
    fn any_json_value_survives_the_compact_writer(text in value(spaces(), odd_string_lit().boxed())) {
        let v = json::parse(&text).unwrap();
        prop_assert_eq!(json::parse(&v.to_json()).unwrap(), v);
    }

    #[test]
    fn arbitrary_text_never_panics(text in any::<String>()) {
        let _ = Canvas::parse(&text);
    }
}

/// Obsidian (JavaScript) keeps a lone surrogate and writes it as `\udxxx`; adding an unrelated
/// node used to rewrite it as U+FFFD.
#[test]
fn lone_surrogates_survive_an_unrelated_edit() {
    let text = "{\n\t\"nodes\":[\n\t\t{\"id\":\"a\",\"type\":\"text\",\"text\":\"cut \\ud83d here\",\"x\":0,\"y\":0,\"width\":250,\"height\":60}\n\t],\n\t\"edges\":[]\n}";
    let mut canvas = Canvas::parse(text).unwrap();
    assert_eq!(canvas.to_obsidian_string(), text);
    assert_eq!(canvas.node("a").unwrap().text(), Some("cut \u{FFFD} here"));
    let fields = json::parse(r#"{"type":"text","text":"new"}"#).unwrap();
    let json::Value::Object(fields) = fields else {
        unreachable!()
    };
    canvas
        .add_node(fields, &mut easel_canvas::IdGen::with_seed(1))
        .unwrap();
    let out = canvas.to_obsidian_string();
    assert!(out.contains(r#""text":"cut \ud83d here""#), "{out}");
}

/// A node read in compact form and then changed is written from its new fields, not copied.
#[test]
fn changed_nodes_and_edges_are_written_anew() {
    let text = "{\n\t\"nodes\":[\n\t\t{\"id\":\"a\",\"type\":\"text\",\"text\":\"a\",\"x\":0,\"y\":0,\"width\":250,\"height\":60},\n\t\t{\"id\":\"b\",\"type\":\"text\",\"text\":\"b\",\"x\":0,\"y\":100,\"width\":250,\"height\":60}\n\t],\n\t\"edges\":[\n\t\t{\"id\":\"e\",\"fromNode\":\"a\",\"toNode\":\"b\"}\n\t]\n}";
    let mut canvas = Canvas::parse(text).unwrap();
    canvas.move_node("a", 40.0, 50.0).unwrap();
    let patch = json::parse(r#"{"label":"go"}"#).unwrap();
    let patch = easel_canvas::expect_object(patch, "patch").unwrap();
    canvas.update_edge("e", &patch).unwrap();
    let out = canvas.to_obsidian_string();
    assert_eq!(
        out,
        text.replace(r#""x":0,"y":0,"#, r#""x":40,"y":50,"#)
            .replace(r#""toNode":"b"}"#, r#""toNode":"b","label":"go"}"#)
    );
    // A clone shares the source text and writes the same.
    assert_eq!(canvas.clone().to_obsidian_string(), out);
}
