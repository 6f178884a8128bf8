//! Properties of the views on random graphs and boards: whatever the input, no box leaves
//! its parent, no two boxes of one parent overlap, and no label covers another label or a box
//! it does not belong to.

use super::architecture::architecture_drawing;
use super::board::{BoardCard, BoardView, EvidenceCard, board_drawing};
use super::impact::impact_drawing;
use easel_codegraph::Lang;
use easel_codegraph::{Edge, EdgeKind, Graph, Node, NodeKind};
use proptest::prelude::*;

fn node(id: String, kind: NodeKind, name: &str, file: &str, line: u32) -> Node {
    Node {
        qualname: id.replace(['/', ':'], "."),
        id,
        kind,
        name: name.to_owned(),
        file: file.to_owned(),
        lang: Lang::Python,
        start_line: line,
        end_line: line + 10,
    }
}

/// A module: its folder (an index into the folder names), its classes (each with a number
/// of methods) and its number of top-level functions.
type ModuleShape = (usize, Vec<usize>, usize);

fn graph(
    names: &[String],
    folders: &[String],
    modules: &[ModuleShape],
    imports: &[(usize, usize)],
    calls: &[(usize, usize)],
) -> Graph {
    let mut g = Graph::default();
    let mut funcs: Vec<String> = Vec::new();
    let name = |i: usize| names[i % names.len()].as_str();
    for (m, (folder, classes, functions)) in modules.iter().enumerate() {
        let dir = &folders[folder % folders.len()];
        let file = if dir.is_empty() {
            format!("{}_{m}.py", name(m))
        } else {
            format!("{dir}/{}_{m}.py", name(m))
        };
        g.nodes
            .push(node(file.clone(), NodeKind::Module, name(m), &file, 1));
        for (c, methods) in classes.iter().enumerate() {
            let cname = format!("{}{c}", name(m + c + 1));
            let cid = format!("{file}:{cname}");
            g.nodes.push(node(
                cid.clone(),
                NodeKind::Class,
                &cname,
                &file,
                2 + c as u32,
            ));
            g.edges.push(Edge {
                from: file.clone(),
                to: cid.clone(),
                kind: EdgeKind::Contains,
            });
            for k in 0..*methods {
                let fname = format!("{}{k}", name(m + c + k + 2));
                let fid = format!("{cid}.{fname}");
                g.nodes.push(node(
                    fid.clone(),
                    NodeKind::Func,
                    &fname,
                    &file,
                    3 + k as u32,
                ));
                g.edges.push(Edge {
                    from: cid.clone(),
                    to: fid.clone(),
                    kind: EdgeKind::Contains,
                });
                funcs.push(fid);
            }
        }
        for k in 0..*functions {
            let fname = format!("{}{k}", name(m + k + 3));
            let fid = format!("{file}:{fname}");
            g.nodes.push(node(
                fid.clone(),
                NodeKind::Func,
                &fname,
                &file,
                40 + k as u32,
            ));
            g.edges.push(Edge {
                from: file.clone(),
                to: fid.clone(),
                kind: EdgeKind::Contains,
            });
            funcs.push(fid);
        }
    }
    let module_ids: Vec<String> = g
        .nodes
        .iter()
        .filter(|n| n.kind == NodeKind::Module)
        .map(|n| n.id.clone())
        .collect();
    for &(a, b) in imports {
        let (a, b) = (a % module_ids.len(), b % module_ids.len());
        if a != b {
            g.edges.push(Edge {
                from: module_ids[a].clone(),
                to: module_ids[b].clone(),
                kind: EdgeKind::Import,
            });
        }
    }
    if !funcs.is_empty() {
        for &(a, b) in calls {
            let (a, b) = (a % funcs.len(), b % funcs.len());
            g.edges.push(Edge {
                from: funcs[a].clone(),
                to: funcs[b].clone(),
                kind: EdgeKind::Call,
            });
        }
    }
    g.edges.sort();
    g.edges.dedup();
    g
}

/// Names, folders, modules, imports and calls of a random graph.
type Shapes = (
    Vec<String>,
    Vec<String>,
    Vec<ModuleShape>,
    Vec<(usize, usize)>,
    Vec<(usize, usize)>,
);

fn shapes() -> impl Strategy<Value = Shapes> {
    (
        prop::collection::vec("[a-z][a-z_]{0,40}", 1..8),
        prop::collection::vec("([a-z]{1,12}(/[a-z_]{1,20}){0,3})?", 1..12),
        prop::collection::vec(
            (
                0usize..12,
                prop::collection::vec(0usize..9, 0..6),
                0usize..9,
            ),
            1..70,
        ),
        prop::collection::vec((0usize..100, 0usize..100), 0..150),
        prop::collection::vec((0usize..400, 0usize..400), 0..300),
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn architecture_boxes_and_labels_never_overlap((names, folders, modules, imports, calls) in shapes()) {
        let g = graph(&names, &folders, &modules, &imports, &calls);
        let (d, canvas, _) = architecture_drawing(&g).unwrap();
        let problems = d.problems();
        prop_assert!(problems.is_empty(), "{problems:#?}");
        let max = easel_render::MAX_SIDE as f32;
        prop_assert!(d.width <= max && d.height <= max, "{}×{}", d.width, d.height);
        prop_assert!(easel_canvas::Canvas::parse(&canvas).is_ok());
    }

    #[test]
    fn impact_boxes_and_labels_never_overlap(
        (names, folders, modules, imports, calls) in shapes(),
        pick in 0usize..1000,
        depth in 1u32..4,
    ) {
        let g = graph(&names, &folders, &modules, &imports, &calls);
        let target = g.nodes[pick % g.nodes.len()].id.clone();
        let impact = easel_codegraph::impact(&g, &target, depth).unwrap();
        let (d, canvas, _) = impact_drawing(&g, &impact, "impact_test").unwrap();
        let problems = d.problems();
        prop_assert!(problems.is_empty(), "{problems:#?}");
        prop_assert!(easel_canvas::Canvas::parse(&canvas).is_ok());
    }

    #[test]
    fn board_cards_never_overlap(
        texts in prop::collection::vec("[A-Za-z ]{0,300}", 0..30),
        focus in proptest::option::of("[a-z._]{1,80}"),
        progress in proptest::option::of((0usize..20, 0usize..20)),
    ) {
        let ids: Vec<String> = (0..texts.len()).map(|i| format!("X{i}")).collect();
        let mut board = BoardView { focus: focus.as_deref(), progress, task: Some("Fix the bug"), ..BoardView::default() };
        for (i, t) in texts.iter().enumerate() {
            let card = BoardCard { id: &ids[i], kind: "finding", text: t, evidence: Some("X1") };
            match i % 3 {
                0 => board.claims.push(card),
                1 => board.evidence.push(EvidenceCard { id: &ids[i], kind: "impact", symbol: Some(t), summary: t, png: None, png_path: None }),
                _ => board.decisions.push(card),
            }
        }
        let (d, canvas, _) = board_drawing(&board).unwrap();
        let problems = d.problems();
        prop_assert!(problems.is_empty(), "{problems:#?}");
        prop_assert!(easel_canvas::Canvas::parse(&canvas).is_ok());
    }
}
