//! Properties every layout keeps, on random canvases: no overlaps, pins stay, groups keep
//! their members (and only them), and the edges' sides match the new geometry.
#![allow(clippy::unwrap_used)]

use easel_canvas::{Canvas, Rect};
use easel_layout::metrics::{MBox, MEdge, measure};
use easel_layout::{
    Algo, Direction, Graph, LayoutError, Options, RankKind, RankSet, Request, Scope, layout_canvas,
    place, sides_for,
};
use proptest::prelude::*;

#[derive(Clone, Debug)]
struct Spec {
    nodes: Vec<(f64, f64, f64, f64)>,
    groups: Vec<usize>,
    edges: Vec<(usize, usize)>,
}

/// Groups first (each a 1,200-pixel square far from the others), then their members inside
/// them, then free nodes below.
fn canvas(spec: &Spec) -> (Canvas, Vec<(String, String)>) {
    let mut nodes = Vec::new();
    let mut members = Vec::new();
    for (g, _) in spec.groups.iter().enumerate() {
        nodes.push(format!(
            r#"{{"id":"g{g}","type":"group","label":"G{g}","x":{},"y":0,"width":1200,"height":1200}}"#,
            g * 3000
        ));
    }
    let mut k = 0;
    for (g, &count) in spec.groups.iter().enumerate() {
        for _ in 0..count {
            let (x, y, w, h) = spec.nodes[k % spec.nodes.len()];
            nodes.push(format!(
                r#"{{"id":"n{k}","type":"text","text":"n{k}","x":{},"y":{},"width":{w},"height":{h}}}"#,
                g as f64 * 3000.0 + 10.0 + x % 700.0,
                10.0 + y % 700.0
            ));
            members.push((format!("n{k}"), format!("g{g}")));
            k += 1;
        }
    }
    for &(x, y, w, h) in &spec.nodes {
        nodes.push(format!(
            r#"{{"id":"n{k}","type":"text","text":"n{k}","x":{x},"y":{},"width":{w},"height":{h}}}"#,
            y + 5000.0
        ));
        k += 1;
    }
    let edges: Vec<String> = spec
        .edges
        .iter()
        .enumerate()
        .map(|(i, &(a, b))| {
            format!(
                r#"{{"id":"e{i}","fromNode":"n{}","toNode":"n{}"}}"#,
                a % k,
                b % k
            )
        })
        .collect();
    let text = format!(
        r#"{{"nodes":[{}],"edges":[{}]}}"#,
        nodes.join(","),
        edges.join(",")
    );
    (Canvas::parse(&text).unwrap(), members)
}

fn spec() -> impl Strategy<Value = Spec> {
    (
        prop::collection::vec(
            (0.0..900.0f64, 0.0..900.0f64, 20.0..400.0f64, 20.0..300.0f64),
            1..18,
        ),
        prop::collection::vec(1usize..5, 0..3),
        prop::collection::vec((0usize..40, 0usize..40), 0..30),
    )
        .prop_map(|(nodes, groups, edges)| Spec {
            nodes,
            groups,
            edges,
        })
}

fn algo() -> impl Strategy<Value = Algo> {
    prop_oneof![
        Just(Algo::Layered),
        Just(Algo::Tree),
        Just(Algo::Radial),
        Just(Algo::Grid)
    ]
}

fn rect(c: &Canvas, id: &str) -> Rect {
    c.node(id).and_then(|n| n.rect()).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn layouts_keep_their_promises(
        spec in spec(),
        algo in algo(),
        right in any::<bool>(),
        pin in 0usize..30,
        same in prop::collection::vec(0usize..30, 0..4),
    ) {
        let (mut c, members) = canvas(&spec);
        let before = c.clone();
        let ids: Vec<String> = c.nodes().iter().map(|n| n.id().to_owned()).filter(|id| id.starts_with('n')).collect();
        let pins = if pin < ids.len() { vec![ids[pin].clone()] } else { vec![] };
        let direction = if right { Direction::Right } else { Direction::Down };
        let mut same: Vec<String> = same.into_iter().filter_map(|i| ids.get(i).cloned()).collect();
        same.sort();
        same.dedup();
        let req = Request {
            options: Options { algo, direction, spacing: 40.0 },
            scope: Scope::All,
            pins: pins.clone(),
            groups: None,
            ranks: vec![RankSet { kind: RankKind::Same, members: same.clone() }],
        };
        let out = layout_canvas(&mut c, &req).unwrap();
        // Boxes of one rank share its middle line; a pin's shift and the separation move
        // the others only together or across the ranks. Members inside groups are ranked
        // within their group, and a pinned node stays where it was.
        let top: Vec<&String> = same
            .iter()
            .filter(|id| before.group_of(id).is_none() && !pins.contains(id))
            .collect();
        if algo == Algo::Layered && top.len() > 1 {
            let mid = |id: &str| {
                let r = rect(&c, id);
                if right { r.x + r.width / 2.0 } else { r.y + r.height / 2.0 }
            };
            for id in &top {
                // Within a pixel: positions are rounded to whole pixels.
                prop_assert!((mid(id) - mid(top[0])).abs() <= 1.0, "{} is not on {}'s rank", id, top[0]);
            }
        }
        prop_assert_eq!(out.metrics.node_overlaps, 0);
        for p in &pins {
            prop_assert_eq!(rect(&c, p), rect(&before, p));
        }
        for (n, g) in &members {
            prop_assert!(rect(&c, g).contains(&rect(&c, n)), "{} left {}", n, g);
        }
        // Membership is the same as before: nobody wandered into a group.
        for n in c.nodes() {
            prop_assert_eq!(
                c.group_of(n.id()).map(|g| g.id().to_owned()),
                before.group_of(n.id()).map(|g| g.id().to_owned()),
                "membership of {}", n.id()
            );
        }
        for e in c.edges() {
            if e.from_node() != e.to_node() {
                prop_assert!(e.from_side().is_some() && e.to_side().is_some());
            }
        }
        // Only positions, sizes and sides changed.
        prop_assert_eq!(c.nodes().len(), before.nodes().len());
        prop_assert_eq!(c.edges().len(), before.edges().len());
    }

    #[test]
    fn a_selection_moves_only_itself(spec in spec(), algo in algo()) {
        let (mut c, _) = canvas(&spec);
        let before = c.clone();
        let free: Vec<String> = c.nodes().iter().rev().take(3).map(|n| n.id().to_owned()).collect();
        let req = Request {
            options: Options { algo, ..Options::default() },
            scope: Scope::Nodes(free.clone()),
            ..Request::default()
        };
        let out = layout_canvas(&mut c, &req).unwrap();
        // A group that grew to hold a selected member pushes its neighbours (tests/push.rs);
        // otherwise nothing outside the selection moves.
        let grew = before.nodes().iter().filter(|n| n.kind().as_str() == "group").any(|g| {
            let (a, b) = (g.rect().unwrap(), rect(&c, g.id()));
            b.width > a.width || b.height > a.height
        });
        for n in before.nodes() {
            if !grew && !free.contains(&n.id().to_owned()) && n.kind().as_str() != "group" {
                prop_assert_eq!(rect(&c, n.id()), n.rect().unwrap());
            }
        }
        // A selected group holds its members, so only selected non-groups are checked.
        for id in free.iter().filter(|id| !id.starts_with('g')) {
            let r = rect(&c, id);
            for n in c.nodes() {
                // A selected group holds its own members; that is nesting, not overlap.
                let member = c.group_of(n.id()).is_some_and(|g| g.id() == id);
                if n.id() != id && n.kind().as_str() != "group" && !member {
                    prop_assert!(!r.overlaps(&n.rect().unwrap()), "{} overlaps {}", id, n.id());
                }
            }
        }
        if !grew {
            prop_assert!(out.moved.iter().all(|m| free.contains(m) || m.starts_with('g')));
        }
    }
}

#[test]
fn a_group_grows_to_hold_its_laid_out_members() {
    let mut c = Canvas::parse(
        r#"{"nodes":[
        {"id":"g","type":"group","label":"G","x":0,"y":0,"width":300,"height":300},
        {"id":"a","type":"text","text":"a","x":10,"y":10,"width":250,"height":60},
        {"id":"b","type":"text","text":"b","x":10,"y":100,"width":250,"height":60},
        {"id":"c","type":"text","text":"c","x":10,"y":200,"width":250,"height":60}],
        "edges":[{"id":"e1","fromNode":"a","toNode":"b"},{"id":"e2","fromNode":"a","toNode":"c"}]}"#,
    )
    .unwrap();
    let req = Request {
        options: Options {
            algo: Algo::Tree,
            ..Options::default()
        },
        scope: Scope::Group("g".into()),
        ..Request::default()
    };
    layout_canvas(&mut c, &req).unwrap();
    let g = rect(&c, "g");
    for id in ["a", "b", "c"] {
        assert!(g.contains(&rect(&c, id)), "{id} outside {g:?}");
    }
    // b and c side by side under a: the group had to get wider than 300.
    assert!(g.width > 300.0);
    assert_eq!(
        c.edge("e1").unwrap().from_side().unwrap().as_str(),
        "bottom"
    );
}

#[test]
fn a_pinned_group_too_small_for_its_members_is_refused() {
    let text = r#"{"nodes":[
        {"id":"g","type":"group","label":"G","x":0,"y":0,"width":300,"height":300},
        {"id":"a","type":"text","text":"a","x":10,"y":10,"width":250,"height":60},
        {"id":"b","type":"text","text":"b","x":10,"y":100,"width":250,"height":60}],
        "edges":[]}"#;
    let mut c = Canvas::parse(text).unwrap();
    let req = Request {
        options: Options {
            algo: Algo::Grid,
            ..Options::default()
        },
        pins: vec!["g".into()],
        ..Request::default()
    };
    let err = layout_canvas(&mut c, &req).unwrap_err();
    assert!(matches!(err, LayoutError::GroupTooSmall { .. }), "{err}");
    assert_eq!(c, Canvas::parse(text).unwrap());
}

#[test]
fn tree_reports_the_edge_it_ignored() {
    let mut c = Canvas::parse(
        r#"{"nodes":[
        {"id":"a","type":"text","text":"Root","x":0,"y":0,"width":100,"height":50},
        {"id":"b","type":"text","text":"Child","x":0,"y":0,"width":100,"height":50}],
        "edges":[{"id":"e1","fromNode":"a","toNode":"b"},{"id":"e2","fromNode":"b","toNode":"a"}]}"#,
    )
    .unwrap();
    let req = Request {
        options: Options {
            algo: Algo::Tree,
            ..Options::default()
        },
        ..Request::default()
    };
    let out = layout_canvas(&mut c, &req).unwrap();
    assert_eq!(out.warnings.len(), 1, "{:?}", out.warnings);
    assert!(
        out.warnings[0].contains("from 'Child' to 'Root' closes a cycle"),
        "{:?}",
        out.warnings
    );
}

#[test]
fn unknown_ids_are_not_found() {
    let mut c = Canvas::parse(
        r#"{"nodes":[{"id":"a","type":"text","text":"a","x":0,"y":0,"width":10,"height":10}]}"#,
    )
    .unwrap();
    let req = Request {
        pins: vec!["zz".into()],
        ..Request::default()
    };
    assert!(
        matches!(layout_canvas(&mut c, &req), Err(LayoutError::NodeNotFound(id)) if id == "zz")
    );
    let req = Request {
        scope: Scope::Group("a".into()),
        ..Request::default()
    };
    assert!(matches!(
        layout_canvas(&mut c, &req),
        Err(LayoutError::NotAGroup(_))
    ));
}

#[test]
fn layered_keeps_edges_clear_of_nodes_on_a_long_chain() {
    // a→b→c→d plus a→d: the long edge must not run through b or c.
    let mut c = Canvas::parse(
        r#"{"nodes":[
        {"id":"a","type":"text","text":"a","x":0,"y":0,"width":200,"height":60},
        {"id":"b","type":"text","text":"b","x":0,"y":0,"width":200,"height":60},
        {"id":"c","type":"text","text":"c","x":0,"y":0,"width":200,"height":60},
        {"id":"d","type":"text","text":"d","x":0,"y":0,"width":200,"height":60}],
        "edges":[{"id":"1","fromNode":"a","toNode":"b"},{"id":"2","fromNode":"b","toNode":"c"},
        {"id":"3","fromNode":"c","toNode":"d"},{"id":"4","fromNode":"a","toNode":"d"}]}"#,
    )
    .unwrap();
    let out = layout_canvas(&mut c, &Request::default()).unwrap();
    assert_eq!(out.metrics.edge_node_overlaps, 0, "{:?}", out.metrics);
    assert_eq!(out.metrics.crossings, 0);
}

/// A random graph of boxes 60-140 × 30-50 from a seed (a linear congruential generator, so
/// the test needs no data file).
fn random_graph(seed: u64) -> Graph {
    let mut state = (seed * 2_654_435_761) % (1 << 32);
    if state == 0 {
        state = 1;
    }
    let mut next = move || {
        state = (state * 1_103_515_245 + 12_345) % (1 << 31);
        state
    };
    let n = 12 + (seed % 10) as usize;
    let m = n + n / 2 + (seed % 7) as usize;
    let sizes = (0..n)
        .map(|_| {
            let w = 60 + next() % 5 * 20;
            let h = 30 + next() % 3 * 10;
            (w as f64, h as f64)
        })
        .collect();
    let mut edges = Vec::new();
    for _ in 0..m {
        let (a, b) = (next() as usize % n, next() as usize % n);
        if a != b {
            edges.push((a, b));
        }
    }
    Graph { sizes, edges }
}

#[test]
fn layered_clears_lines_a_fan_closes_in_on() {
    // Before boxes were also tried one place along at a line's end and the lines through
    // boxes weighed 8 crossings instead of 3, this drawing had 5 lines through boxes.
    let graph = random_graph(45);
    let options = Options {
        algo: Algo::Layered,
        direction: Direction::Down,
        spacing: 18.0,
    };
    let placed = place(&graph, &options);
    let rects: Vec<Rect> = placed
        .positions
        .iter()
        .zip(&graph.sizes)
        .map(|(&(x, y), &(w, h))| Rect::new(x, y, w, h))
        .collect();
    let boxes: Vec<MBox> = rects
        .iter()
        .map(|&rect| MBox { rect, group: false })
        .collect();
    let edges: Vec<MEdge> = graph
        .edges
        .iter()
        .map(|&(from, to)| {
            let (from_side, to_side) = sides_for(&rects[from], &rects[to], Some(Direction::Down));
            MEdge {
                from,
                to,
                from_side,
                to_side,
            }
        })
        .collect();
    let m = measure(&boxes, &edges);
    assert_eq!((m.node_overlaps, m.edge_node_overlaps), (0, 0), "{m:?}");
}
