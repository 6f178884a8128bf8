#![allow(clippy::unwrap_used)]
//! Validation looks ids up in loops of its own before it checks fields (issue 19). This
//! property compares it with the plain algorithm, written here from the public per-object
//! checks: the same findings, in the same order, for canvases full of repeated, shared,
//! missing, escaped and dangling ids.

use easel_canvas::{Canvas, Finding, Report, Severity, check_edge, check_node, validate};
use proptest::prelude::*;
use std::collections::HashSet;

/// Validation as it was written before the id loops: one pass over nodes, one over edges.
fn reference(canvas: &Canvas) -> Report {
    let mut report = Report::default();
    let push = |report: &mut Report, f: Finding| match f.severity {
        Severity::Error => report.errors.push(f),
        Severity::Warning => report.warnings.push(f),
    };
    let finding = |severity, rule, node: Option<&str>, edge: Option<&str>, message| Finding {
        severity,
        rule,
        message,
        node: node.map(str::to_owned),
        edge: edge.map(str::to_owned),
        field: Some("id".into()),
    };
    let mut node_ids = HashSet::new();
    let mut reported = HashSet::new();
    for node in canvas.nodes() {
        check_node(node, &mut report);
        let id = node.id();
        if !id.is_empty() && !node_ids.insert(id) && reported.insert(id) {
            let f = finding(
                Severity::Error,
                "duplicate-node-id",
                Some(id),
                None,
                format!("duplicate node id '{id}'"),
            );
            push(&mut report, f);
        }
    }
    let exists = |id: &str| node_ids.contains(id);
    let mut edge_ids = HashSet::new();
    let mut reported_edges = HashSet::new();
    for edge in canvas.edges() {
        check_edge(edge, &exists, &mut report);
        let id = edge.id();
        if id.is_empty() {
            continue;
        }
        if !edge_ids.insert(id) {
            if reported_edges.insert(id) {
                let f = finding(
                    Severity::Error,
                    "duplicate-edge-id",
                    None,
                    Some(id),
                    format!("duplicate edge id '{id}'"),
                );
                push(&mut report, f);
            }
        } else if node_ids.contains(id) {
            let f = finding(
                Severity::Warning,
                "shared-id",
                None,
                Some(id),
                format!("id '{id}' used by a node and an edge"),
            );
            push(&mut report, f);
        }
    }
    report
}

/// Ids as JSON literals: hex ones as Obsidian writes them, short and long ones, an escaped
/// spelling of one of them, an empty one, and values that are not strings.
fn id() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        r#""0123456789abcdef""#,
        r#""0123456789ABCDEF""#,
        r#""fedcba9876543210""#,
        r#""\u0030123456789abcdef""#,
        r#""a""#,
        r#""e00000000000001""#,
        r#""a-much-longer-id-than-sixteen-bytes""#,
        r#""""#,
        "7",
        "null",
    ])
    .prop_map(str::to_owned)
}

fn node() -> impl Strategy<Value = String> {
    (id(), any::<bool>(), 0..3u8).prop_map(|(id, with_id, extra)| {
        let id = if with_id {
            format!(r#""id":{id},"#)
        } else {
            String::new()
        };
        let extra = match extra {
            0 => "",
            1 => r#","color":"4""#,
            _ => r#","color":"4","color":"5""#,
        };
        format!(r#"{{{id}"type":"text","text":"t","x":0,"y":0,"width":1,"height":1{extra}}}"#)
    })
}

fn edge() -> impl Strategy<Value = String> {
    (id(), id(), id(), any::<bool>()).prop_map(|(id, from, to, side)| {
        let side = if side {
            r#","fromSide":"left""#
        } else {
            r#","fromSide":"middle""#
        };
        format!(r#"{{"id":{id},"fromNode":{from},"toNode":{to}{side}}}"#)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1024))]

    #[test]
    fn findings_match_the_plain_algorithm(
        nodes in prop::collection::vec(node(), 0..8),
        edges in prop::collection::vec(edge(), 0..8),
    ) {
        let text = format!(
            "{{\n\t\"nodes\":[\n\t\t{}\n\t],\n\t\"edges\":[\n\t\t{}\n\t]\n}}",
            nodes.join(",\n\t\t"),
            edges.join(",\n\t\t")
        );
        let canvas = Canvas::parse(&text).unwrap();
        prop_assert_eq!(validate(&canvas), reference(&canvas), "{}", text);
        // Built objects take the full checks everywhere.
        let built = Canvas::from_value(canvas.to_value()).unwrap();
        prop_assert_eq!(validate(&built), reference(&built), "{}", text);
    }
}
