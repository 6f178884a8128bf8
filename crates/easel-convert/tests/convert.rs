//! Imports of every construct DESIGN.md section 16 lists, the errors for bad input, and round
//! trips: `import(export(C))` has the graph of `C`, `export(import(G))` the graph of `G`.
#![allow(clippy::unwrap_used)]

use easel_canvas::{Canvas, NodeKind};
use easel_convert::{ConvertError, Format, export, import};
use easel_core::Diagnose;
use proptest::prelude::*;
use std::collections::BTreeSet;

/// A canvas's graph, without ids and positions: nodes by label with colour and group, edges by
/// their ends' labels, groups by label with their parent's.
type Sig = (
    BTreeSet<(String, Option<String>, Option<String>)>,
    BTreeSet<(
        String,
        String,
        Option<String>,
        Option<String>,
        String,
        String,
    )>,
    BTreeSet<(String, Option<String>, Option<String>)>,
);

fn sig(c: &Canvas) -> Sig {
    let name = |id: &str| {
        let n = c.node(id).unwrap();
        match n.kind() {
            NodeKind::Group => format!("group:{}", n.label().unwrap_or("")),
            _ => n.text().unwrap_or("").to_owned(),
        }
    };
    let group = |id: &str| c.group_of(id).map(|g| g.label().unwrap_or("").to_owned());
    let mut nodes = BTreeSet::new();
    let mut groups = BTreeSet::new();
    for n in c.nodes() {
        match n.kind() {
            NodeKind::Group => {
                groups.insert((
                    n.label().unwrap_or("").to_owned(),
                    n.color().map(str::to_owned),
                    group(n.id()),
                ));
            }
            _ => {
                nodes.insert((
                    n.text().unwrap_or("").to_owned(),
                    n.color().map(str::to_owned),
                    group(n.id()),
                ));
            }
        }
    }
    let edges = c
        .edges()
        .iter()
        .map(|e| {
            (
                name(e.from_node()),
                name(e.to_node()),
                e.label().map(str::to_owned),
                e.color().map(str::to_owned),
                e.from_end().as_str().to_owned(),
                e.to_end().as_str().to_owned(),
            )
        })
        .collect();
    (nodes, edges, groups)
}

fn texts(c: &Canvas) -> Vec<String> {
    c.nodes()
        .iter()
        .filter_map(|n| n.text().map(str::to_owned))
        .collect()
}

#[test]
fn mermaid_flowcharts_import_with_every_construct() {
    let text = r#"%% a comment
flowchart LR
    A[Start] --> B(Round) & C{Choice}
    B -- yes --> D([Stadium])
    C -.-> D
    C ==>|thick one| E[["Sub #quot;routine#quot;"]]
    D --- F>Flag]
    subgraph S1 [Inner group]
        direction TB
        F
        G((Circle)):::hot
    end
    E --> S1
    classDef hot fill:#fb464c,stroke:#333
    style A fill:#ff99ff
    click A "https://example.com"
"#;
    let r = import(text, Format::Mermaid, None).unwrap();
    let c = &r.canvas;
    assert_eq!(
        c.nodes()
            .iter()
            .filter(|n| n.kind() == NodeKind::Group)
            .count(),
        1
    );
    let t = texts(c);
    for want in [
        "Start",
        "Round",
        "Choice",
        "Stadium",
        "Sub \"routine\"",
        "Flag",
        "Circle",
    ] {
        assert!(t.contains(&want.to_owned()), "{want} missing from {t:?}");
    }
    assert_eq!(c.edges().len(), 7);
    let s = sig(c);
    assert!(
        s.1.iter()
            .any(|e| e.0 == "Round" && e.1 == "Stadium" && e.2.as_deref() == Some("yes"))
    );
    assert!(s.1.iter().any(|e| e.2.as_deref() == Some("thick one")));
    assert!(
        s.1.iter().any(|e| e.0 == "Stadium" && e.5 == "none"),
        "--- has no arrow"
    );
    assert!(
        s.1.iter().any(|e| e.1 == "group:Inner group"),
        "an edge to a subgraph reaches the group"
    );
    assert!(s.0.contains(&(
        "Circle".into(),
        Some("1".into()),
        Some("Inner group".into())
    )));
    assert!(s.0.contains(&("Start".into(), Some("#ff99ff".into()), None)));
    assert!(s.0.contains(&("Flag".into(), None, Some("Inner group".into()))));
    let w = r.warnings.join("\n");
    for needle in [
        "rounded rectangle",
        "dotted",
        "thick",
        "'click'",
        "direction inside a subgraph",
        "stroke",
    ] {
        assert!(w.contains(needle), "no warning about {needle}: {w}");
    }
    assert!(easel_canvas::validate(c).is_valid());
    assert_eq!(easel_layout::canvas_metrics(c).node_overlaps, 0);
}

#[test]
fn malformed_mermaid_says_where_and_what() {
    let cases = [
        (
            "flowchart TD\n  A --> B\n  C[unclosed\n",
            3,
            4,
            "not closed",
        ),
        (
            "graph LR\n  A -->\n",
            2,
            8,
            "expected a node name, found the end of the line",
        ),
        ("flowchart TD\n  A B\n", 2, 5, "expected an arrow"),
        ("flowchart TD\n  end\n", 2, 3, "'end' without"),
        ("flowchart XY\n", 1, 11, "not a direction"),
    ];
    for (text, line, column, needle) in cases {
        match import(text, Format::Mermaid, None) {
            Err(e @ ConvertError::Syntax { .. }) => {
                let msg = e.to_string();
                assert!(
                    msg.contains(&format!("line {line}, column {column}")),
                    "{text:?}: {msg}"
                );
                assert!(msg.contains(needle), "{text:?}: {msg}");
                // One line: a line break in the input is named, never printed.
                assert!(!msg.contains('\n'), "{text:?}: {msg:?}");
                assert_eq!(e.kind().exit_code(), 5);
                assert!(!e.hint().is_empty());
            }
            other => panic!("{text:?}: {other:?}"),
        }
    }
    let e = import("sequenceDiagram\n  A->>B: hi\n", Format::Mermaid, None).unwrap_err();
    assert!(
        e.to_string().contains("only flowcharts") && e.to_string().contains("'sequenceDiagram'"),
        "{e}"
    );
    assert_eq!(e.kind().exit_code(), 5);
}

#[test]
fn dot_imports_clusters_labels_colours_and_defaults() {
    let text = r##"/* comment */
digraph G {
    rankdir=LR; fontsize=10
    node [shape=ellipse, fillcolor="#44cf6e", style=filled];
    edge [color=red];
    a [label="First\nline"];
    b [label=<<b>Bold</b><br/>text>];
    subgraph cluster_0 {
        label = "Cluster zero";
        color = "#a882ff";
        c; d [fillcolor=lightblue];
    }
    a -> b -> c [label="chain"];
    a -> { d e } [dir=none];
    // another comment
    # a preprocessor line
}
"##;
    let r = import(text, Format::Dot, None).unwrap();
    let s = sig(&r.canvas);
    assert!(s.0.contains(&("First\nline".into(), Some("4".into()), None)));
    assert!(s.0.contains(&("Bold\ntext".into(), Some("4".into()), None)));
    assert!(s.0.contains(&(
        "d".into(),
        Some("#add8e6".into()),
        Some("Cluster zero".into())
    )));
    assert!(s.2.contains(&("Cluster zero".into(), Some("6".into()), None)));
    assert!(s.1.iter().any(|e| e.0 == "Bold\ntext"
        && e.1 == "c"
        && e.2.as_deref() == Some("chain")
        && e.3.as_deref() == Some("#ff0000")));
    assert!(
        s.1.iter()
            .any(|e| e.0 == "First\nline" && e.1 == "e" && e.5 == "none")
    );
    let w = r.warnings.join("\n");
    assert!(w.contains("ellipse") && w.contains("fontsize"), "{w}");
    // rankdir=LR: the edges run left to right.
    assert!(
        r.canvas
            .edges()
            .iter()
            .any(|e| e.from_side().map(|s| s.as_str()) == Some("right"))
    );
}

/// The centre of the node labelled `text`, along y.
fn middle_y(c: &Canvas, text: &str) -> f64 {
    let node = c.nodes().iter().find(|n| n.text() == Some(text)).unwrap();
    let r = node.rect().unwrap();
    r.y + r.height / 2.0
}

#[test]
fn dot_rank_constraints_survive_import_and_layout() {
    // Without the constraint d sits beside b (one rank below a); rank=same puts it beside c,
    // even though d is declared before the subgraph names it.
    let text = "digraph {\n a -> b -> c; a -> d;\n { rank = same; c; d }\n \
                subgraph cluster_x { label=X; e; f; { rank=same; e; f } e -> f }\n \
                b -> e; s; { rank=sink; s } rank=same }";
    let r = import(text, Format::Dot, None).unwrap();
    let c = &r.canvas;
    assert_eq!(middle_y(c, "c"), middle_y(c, "d"));
    assert!(middle_y(c, "d") > middle_y(c, "b"));
    // Inside a cluster too: an edge between the two runs side to side.
    assert_eq!(middle_y(c, "e"), middle_y(c, "f"));
    let last = ["a", "b", "c", "d", "e", "f"]
        .iter()
        .map(|t| middle_y(c, t))
        .fold(f64::MIN, f64::max);
    assert!(middle_y(c, "s") > last, "rank=sink puts s alone at the end");
    let w = r.warnings.join("\n");
    assert!(w.contains("rank at the graph's top level"), "{w}");
    assert!(!w.contains("'rank'"), "{w}");
    assert_eq!(easel_layout::canvas_metrics(c).node_overlaps, 0);
}

#[test]
fn malformed_dot_says_where_and_what() {
    for (text, line, column, needle) in [
        ("digraph {\n  a -> ;\n}", 2, 8, "expected a node name"),
        ("digraph {\n  a [label=\"x]\n}", 2, 12, "never closed"),
        ("digraph {\n  a -> b\n", 3, 1, "never closed"),
        ("flowchart TD\n", 1, 1, "expected 'digraph'"),
    ] {
        let e = import(text, Format::Dot, None).unwrap_err();
        let msg = e.to_string();
        assert!(
            msg.contains(&format!("line {line}, column {column}")),
            "{text:?}: {msg}"
        );
        assert!(msg.contains(needle), "{text:?}: {msg}");
        assert_eq!(e.kind().exit_code(), 5);
    }
}

#[test]
fn outlines_become_trees() {
    let text = "# Plan\n\nSome intro.\n\n## Goals\n- Ship\n  - Tests\n  - Docs\n- Rest\n## Risks\n1. Time\n";
    let r = import(text, Format::Outline, None).unwrap();
    let s = sig(&r.canvas);
    let edges: BTreeSet<(String, String)> =
        s.1.iter().map(|e| (e.0.clone(), e.1.clone())).collect();
    for (a, b) in [
        ("Plan\nSome intro.", "Goals"),
        ("Goals", "Ship"),
        ("Ship", "Tests"),
        ("Ship", "Docs"),
        ("Goals", "Rest"),
        ("Plan\nSome intro.", "Risks"),
        ("Risks", "Time"),
    ] {
        assert!(
            edges.contains(&(a.to_owned(), b.to_owned())),
            "{a} -> {b} missing: {edges:?}"
        );
    }
    assert_eq!(easel_layout::canvas_metrics(&r.canvas).node_overlaps, 0);
    let back = export(&r.canvas, Format::Outline).text;
    assert!(
        back.starts_with("- Plan Some intro.\n  - Goals\n    - Ship\n      - Tests\n"),
        "{back}"
    );
}

#[test]
fn sniffing_tells_the_formats_apart() {
    assert_eq!(Format::sniff("digraph { a -> b }"), Format::Dot);
    assert_eq!(Format::sniff("graph { a -- b }"), Format::Dot);
    assert_eq!(Format::sniff("graph TD\n A-->B"), Format::Mermaid);
    assert_eq!(Format::sniff("# Title\n- item"), Format::Outline);
}

fn label() -> impl Strategy<Value = String> {
    // Characters that each format must escape, plus ordinary words.
    proptest::string::string_regex(
        r##"[A-Za-z0-9]([A-Za-z0-9 "#<>|;\[\](){}\\&.:-]{0,12}[A-Za-z0-9])?"##,
    )
    .unwrap()
}

#[derive(Clone, Debug)]
struct Spec {
    nodes: Vec<(String, Option<u8>, Option<usize>)>,
    groups: Vec<String>,
    edges: Vec<(usize, usize, Option<String>, bool)>,
}

fn spec() -> impl Strategy<Value = Spec> {
    (
        prop::collection::btree_set(label(), 1..8),
        prop::collection::btree_set(label(), 0..3),
        prop::collection::vec(
            (
                0usize..8,
                0usize..8,
                prop::option::of(label()),
                any::<bool>(),
            ),
            0..10,
        ),
        prop::collection::vec((prop::option::of(1u8..7), prop::option::of(0usize..3)), 8),
    )
        .prop_map(|(nodes, groups, edges, extra)| {
            let groups: Vec<String> = groups.into_iter().map(|g| format!("G {g}")).collect();
            let n = nodes.len();
            let nodes = nodes
                .into_iter()
                .zip(extra)
                .map(|(l, (c, g))| (l, c, g.filter(|&g| g < groups.len())))
                .collect();
            let edges = edges
                .into_iter()
                .map(|(a, b, l, arrow)| (a % n, b % n, l, arrow))
                .collect();
            Spec {
                nodes,
                groups,
                edges,
            }
        })
}

/// The spec as Mermaid text, so `export(import(G))` can be checked against G.
fn mermaid_text(s: &Spec) -> String {
    let q = |t: &str| {
        format!(
            "\"{}\"",
            t.replace('#', "#35;")
                .replace('"', "#quot;")
                .replace('|', "#124;")
                .replace(';', "#59;")
                .replace('<', "#lt;")
                .replace('>', "#gt;")
        )
    };
    let mut out = String::from("flowchart TD\n");
    for (i, (l, _, g)) in s.nodes.iter().enumerate() {
        if g.is_none() {
            out.push_str(&format!("  n{i}[{}]\n", q(l)));
        }
    }
    for (gi, gl) in s.groups.iter().enumerate() {
        out.push_str(&format!("  subgraph g{gi} [{}]\n", q(gl)));
        for (i, (l, _, g)) in s.nodes.iter().enumerate() {
            if *g == Some(gi) {
                out.push_str(&format!("    n{i}[{}]\n", q(l)));
            }
        }
        out.push_str("  end\n");
    }
    for (a, b, l, arrow) in &s.edges {
        let link = if *arrow { "-->" } else { "---" };
        let label = l
            .as_deref()
            .map(|l| format!("|{}|", q(l)))
            .unwrap_or_default();
        out.push_str(&format!("  n{a} {link}{label} n{b}\n"));
    }
    for (i, (_, c, _)) in s.nodes.iter().enumerate() {
        if let Some(c) = c {
            let hex = easel_convert::color::to_hex(&c.to_string()).unwrap();
            out.push_str(&format!("  style n{i} fill:{hex}\n"));
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn round_trips_keep_the_graph(s in spec()) {
        let g = mermaid_text(&s);
        let first = import(&g, Format::Mermaid, None).unwrap();
        let want = sig(&first.canvas);
        prop_assert_eq!(want.0.len(), s.nodes.len());
        prop_assert_eq!(first.canvas.edges().len(), s.edges.len());
        for format in [Format::Mermaid, Format::Dot] {
            // import(export(C)) has the graph of C ...
            let text = export(&first.canvas, format).text;
            let again = import(&text, format, None).unwrap();
            prop_assert_eq!(sig(&again.canvas), want.clone(), "{:?}:\n{}", format, text);
            // ... and export(import(G)) the graph of G, so exporting again changes nothing.
            prop_assert_eq!(export(&again.canvas, format).text, text);
        }
    }

    #[test]
    fn outline_round_trips_keep_trees(labels in prop::collection::btree_set("[A-Za-z0-9][A-Za-z0-9 ,.!?]{0,10}[A-Za-z0-9]", 1..10), parents in prop::collection::vec(0usize..10, 10)) {
        let labels: Vec<String> = labels.into_iter().collect();
        let mut text = String::new();
        let mut depth = vec![0usize; labels.len()];
        // Each item hangs under an earlier one (or is a root), written in depth-first order.
        let mut children: Vec<Vec<usize>> = vec![Vec::new(); labels.len()];
        let mut roots = Vec::new();
        for i in 0..labels.len() {
            if i == 0 || parents[i] % (i + 1) == i { roots.push(i) } else { children[parents[i] % i].push(i) }
        }
        let mut stack: Vec<usize> = roots.iter().rev().copied().collect();
        while let Some(u) = stack.pop() {
            text.push_str(&format!("{}- {}\n", "  ".repeat(depth[u]), labels[u]));
            for &c in children[u].iter().rev() { depth[c] = depth[u] + 1; stack.push(c); }
        }
        let c = import(&text, Format::Outline, None).unwrap().canvas;
        prop_assert_eq!(export(&c, Format::Outline).text, text);
    }

    #[test]
    fn parsers_never_panic(text in "\\PC{0,200}") {
        let _ = easel_convert::mermaid::parse(&format!("flowchart TD\n{text}"));
        let _ = easel_convert::dot::parse(&format!("digraph {{ {text} }}"));
        let _ = easel_convert::outline::parse(&text);
    }
}
