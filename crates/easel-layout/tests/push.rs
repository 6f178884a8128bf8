//! Groups that grow push their neighbours: after a layout that grows groups, no group overlaps
//! a node that is not its member (unless a pinned node is in the way, which is then reported),
//! and every member stays inside its group.
#![allow(clippy::unwrap_used)]

use easel_canvas::{Canvas, Rect};
use easel_layout::{Algo, Options, Request, Scope, layout_canvas};
use proptest::prelude::*;

/// One cell of a 3-column board, 500 pixels apart: a free node, a group of members, or a group
/// holding an inner group of members and a free node beside it.
#[derive(Clone, Debug)]
enum Cell {
    Free(f64, f64),
    Group(Vec<(f64, f64)>),
    Nested(Vec<(f64, f64)>, (f64, f64)),
}

struct Board {
    canvas: Canvas,
    /// (member, group) for every direct membership.
    members: Vec<(String, String)>,
    groups: Vec<String>,
}

fn node(id: &str, kind: &str, r: Rect) -> String {
    let payload = if kind == "group" {
        format!(r#""label":"{id}""#)
    } else {
        format!(r#""text":"{id}""#)
    };
    format!(
        r#"{{"id":"{id}","type":"{kind}",{payload},"x":{},"y":{},"width":{},"height":{}}}"#,
        r.x, r.y, r.width, r.height
    )
}

fn board(cells: &[Cell]) -> Board {
    let mut nodes = Vec::new();
    let mut members = Vec::new();
    let mut groups = Vec::new();
    let mut k = 0;
    let mut fresh = |prefix: &str| {
        k += 1;
        format!("{prefix}{k}")
    };
    for (c, cell) in cells.iter().enumerate() {
        let (ox, oy) = ((c % 3) as f64 * 500.0, (c / 3) as f64 * 500.0);
        match cell {
            Cell::Free(w, h) => nodes.push(node(&fresh("n"), "text", Rect::new(ox, oy, *w, *h))),
            Cell::Group(ms) => {
                let g = fresh("g");
                nodes.push(node(&g, "group", Rect::new(ox, oy, 460.0, 420.0)));
                for (i, (w, h)) in ms.iter().enumerate() {
                    let id = fresh("n");
                    let r = Rect::new(
                        ox + 10.0 + (i % 2) as f64 * 220.0,
                        oy + 40.0 + (i / 2) as f64 * 180.0,
                        *w,
                        *h,
                    );
                    nodes.push(node(&id, "text", r));
                    members.push((id, g.clone()));
                }
                groups.push(g);
            }
            Cell::Nested(ms, (w, h)) => {
                let outer = fresh("g");
                let inner = fresh("g");
                nodes.push(node(&outer, "group", Rect::new(ox, oy, 460.0, 420.0)));
                nodes.push(node(
                    &inner,
                    "group",
                    Rect::new(ox + 10.0, oy + 40.0, 230.0, 370.0),
                ));
                members.push((inner.clone(), outer.clone()));
                for (i, (mw, mh)) in ms.iter().enumerate() {
                    let id = fresh("n");
                    let r = Rect::new(ox + 20.0, oy + 80.0 + i as f64 * 110.0, *mw, *mh);
                    nodes.push(node(&id, "text", r));
                    members.push((id, inner.clone()));
                }
                let id = fresh("n");
                nodes.push(node(&id, "text", Rect::new(ox + 260.0, oy + 40.0, *w, *h)));
                members.push((id, outer.clone()));
                groups.push(inner);
                groups.push(outer);
            }
        }
    }
    let text = format!(r#"{{"nodes":[{}],"edges":[]}}"#, nodes.join(","));
    Board {
        canvas: Canvas::parse(&text).unwrap(),
        members,
        groups,
    }
}

fn cell() -> impl Strategy<Value = Cell> {
    let size = (40.0..200.0f64, 30.0..150.0f64).prop_map(|(w, h)| (w.round(), h.round()));
    let small = (40.0..200.0f64, 30.0..100.0f64).prop_map(|(w, h)| (w.round(), h.round()));
    prop_oneof![
        size.clone().prop_map(|(w, h)| Cell::Free(w, h)),
        prop::collection::vec(size.clone(), 1..5).prop_map(Cell::Group),
        (prop::collection::vec(small, 1..4), size).prop_map(|(m, f)| Cell::Nested(m, f)),
    ]
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

/// True when `inner` is `outer` or lies (directly or deeper) in it, by the board's membership.
fn within(members: &[(String, String)], inner: &str, outer: &str) -> bool {
    let mut at = inner.to_owned();
    for _ in 0..=members.len() {
        if at == outer {
            return true;
        }
        match members.iter().find(|(m, _)| *m == at) {
            Some((_, g)) => at = g.clone(),
            None => return false,
        }
    }
    false
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn grown_groups_overlap_only_their_members(
        cells in prop::collection::vec(cell(), 2..9),
        algo in algo(),
        pick in 0usize..16,
        pin in prop::option::of(0usize..40),
        spacing in prop_oneof![Just(40.0), Just(80.0), Just(0.0)],
    ) {
        let b = board(&cells);
        prop_assume!(!b.groups.is_empty());
        let target = b.groups[pick % b.groups.len()].clone();
        let ids: Vec<String> = b.canvas.nodes().iter().map(|n| n.id().to_owned()).collect();
        let pins: Vec<String> = pin
            .filter(|p| {
                *p < ids.len()
                    && !within(&b.members, &ids[*p], &target)
                    && !within(&b.members, &target, &ids[*p])
            })
            .map(|p| vec![ids[p].clone()])
            .unwrap_or_default();
        let mut c = b.canvas.clone();
        let req = Request {
            options: Options { algo, spacing, ..Options::default() },
            scope: Scope::Group(target.clone()),
            pins: pins.clone(),
            groups: None,
            ranks: Vec::new(),
        };
        let out = layout_canvas(&mut c, &req).unwrap();
        for (n, g) in &b.members {
            prop_assert!(rect(&c, g).contains(&rect(&c, n)), "{} left {}", n, g);
        }
        for p in &pins {
            prop_assert_eq!(rect(&c, p), rect(&b.canvas, p));
        }
        // A node stays when it, or a group around it, is pinned or holds a pinned node.
        let stuck = |id: &str| {
            ids.iter().any(|a| {
                within(&b.members, id, a) && pins.iter().any(|p| within(&b.members, p, a))
            })
        };
        for g in &b.groups {
            for n in &ids {
                if within(&b.members, n, g) || within(&b.members, g, n) {
                    continue;
                }
                if rect(&c, g).overlaps(&rect(&c, n)) {
                    prop_assert!(
                        stuck(n) || stuck(g),
                        "{} overlaps {}, which is not its member", g, n
                    );
                    prop_assert!(
                        out.warnings.iter().any(|w| w.contains("which is pinned")),
                        "{} overlaps pinned {} without a warning: {:?}", g, n, out.warnings
                    );
                }
            }
        }
        if pins.is_empty() {
            prop_assert_eq!(out.metrics.node_overlaps, 0);
        }
    }
}

/// A group on the left of a row grows to the right: its neighbour moves right, the next
/// neighbour is pushed by that one, and the group below them stays where it was.
#[test]
fn a_growing_group_pushes_the_row_to_its_right() {
    let text = r#"{"nodes":[
        {"id":"g","type":"group","label":"G","x":0,"y":0,"width":300,"height":200},
        {"id":"a","type":"text","text":"a","x":20,"y":50,"width":250,"height":60},
        {"id":"b","type":"text","text":"b","x":20,"y":120,"width":250,"height":60},
        {"id":"c","type":"text","text":"c","x":20,"y":130,"width":250,"height":60},
        {"id":"n1","type":"text","text":"n1","x":340,"y":0,"width":100,"height":100},
        {"id":"h","type":"group","label":"H","x":480,"y":0,"width":200,"height":200},
        {"id":"hm","type":"text","text":"hm","x":500,"y":50,"width":100,"height":100},
        {"id":"far","type":"text","text":"far","x":0,"y":2000,"width":100,"height":100}],
        "edges":[{"id":"e1","fromNode":"a","toNode":"b"},{"id":"e2","fromNode":"a","toNode":"c"}]}"#;
    let mut c = Canvas::parse(text).unwrap();
    let before = c.clone();
    let req = Request {
        options: Options {
            algo: Algo::Tree,
            ..Options::default()
        },
        scope: Scope::Group("g".into()),
        ..Request::default()
    };
    let out = layout_canvas(&mut c, &req).unwrap();
    let g = rect(&c, "g");
    assert!(g.width > 300.0, "{g:?}");
    let (n1, h, hm) = (rect(&c, "n1"), rect(&c, "h"), rect(&c, "hm"));
    assert!(
        !g.overlaps(&n1) && !g.overlaps(&h) && !n1.overlaps(&h),
        "{g:?} {n1:?} {h:?}"
    );
    // Right of the group, at their old heights: the board's order is kept.
    assert!(n1.x >= g.right() && h.x >= n1.right());
    assert_eq!((n1.y, h.y), (0.0, 0.0));
    // The pushed group took its member along.
    assert_eq!(hm.x - h.x, 20.0);
    assert!(h.contains(&hm));
    assert_eq!(rect(&c, "far"), rect(&before, "far"));
    for id in ["n1", "h", "hm"] {
        assert!(
            out.moved.iter().any(|m| m == id),
            "{id} not in {:?}",
            out.moved
        );
    }
    assert!(out.warnings.is_empty(), "{:?}", out.warnings);
}

/// A pinned neighbour stays, and the overlap left is reported.
#[test]
fn a_pinned_neighbour_stays_and_the_overlap_is_reported() {
    let text = r#"{"nodes":[
        {"id":"g","type":"group","label":"G","x":0,"y":0,"width":300,"height":200},
        {"id":"a","type":"text","text":"a","x":20,"y":50,"width":250,"height":60},
        {"id":"b","type":"text","text":"b","x":20,"y":120,"width":250,"height":60},
        {"id":"c","type":"text","text":"c","x":20,"y":130,"width":250,"height":60},
        {"id":"n1","type":"text","text":"Pinned note","x":340,"y":0,"width":100,"height":100}],
        "edges":[{"id":"e1","fromNode":"a","toNode":"b"},{"id":"e2","fromNode":"a","toNode":"c"}]}"#;
    let mut c = Canvas::parse(text).unwrap();
    let req = Request {
        options: Options {
            algo: Algo::Tree,
            ..Options::default()
        },
        scope: Scope::Group("g".into()),
        pins: vec!["n1".into()],
        groups: None,
        ranks: Vec::new(),
    };
    let out = layout_canvas(&mut c, &req).unwrap();
    assert_eq!(rect(&c, "n1"), Rect::new(340.0, 0.0, 100.0, 100.0));
    assert!(rect(&c, "g").overlaps(&rect(&c, "n1")));
    assert!(
        out.warnings
            .iter()
            .any(|w| w.contains("'Pinned note', which is pinned")),
        "{:?}",
        out.warnings
    );
}
