//! Time to draw each view (layout, SVG, PNG and `.canvas`) for this repository's own crates:
//! the architecture, the impact of the function with the most callers, and a board with three
//! evidence thumbnails. Run: cargo bench -p easel-code --bench views

use criterion::{Criterion, criterion_group, criterion_main};
use easel_code::{
    BoardCard, BoardView, BuildOptions, EdgeKind, EvidenceCard, architecture_view, board_view,
    build, impact, impact_view,
};
use std::collections::HashMap;
use std::hint::black_box;

fn bench(c: &mut Criterion) {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let graph = match build(std::path::Path::new(root), &BuildOptions::default()) {
        Ok(b) => b.graph,
        Err(e) => panic!("cannot build the graph of {root}: {e}"),
    };
    // The function with the most callers gives the busiest impact view.
    let mut callers: HashMap<&str, usize> = HashMap::new();
    for e in graph.edges.iter().filter(|e| e.kind == EdgeKind::Call) {
        *callers.entry(e.to.as_str()).or_default() += 1;
    }
    let Some((busiest, _)) = callers
        .into_iter()
        .max_by(|a, b| a.1.cmp(&b.1).then(b.0.cmp(a.0)))
    else {
        panic!("the graph of {root} has no calls");
    };
    let imp = match impact(&graph, busiest, 2) {
        Ok(i) => i,
        Err(e) => panic!("impact of {busiest}: {e}"),
    };

    let mut group = c.benchmark_group("views");
    group.sample_size(10);
    group.bench_function("architecture_view", |b| {
        b.iter(|| architecture_view(black_box(&graph)))
    });
    group.bench_function("impact_view", |b| {
        b.iter(|| impact_view(black_box(&graph), black_box(&imp)))
    });
    let (arch, imp_view) = match (architecture_view(&graph), impact_view(&graph, &imp)) {
        (Ok(a), Ok(i)) => (a, i),
        (Err(e), _) | (_, Err(e)) => panic!("cannot draw the views: {e}"),
    };
    let board = BoardView {
        focus: Some(&imp.target.qualname),
        progress: Some((2, 7)),
        task: Some("Change the busiest function safely"),
        claims: vec![BoardCard {
            id: "C1",
            kind: "hypothesis",
            text: "Every caller passes a valid graph.",
            evidence: Some("E2"),
        }],
        evidence: vec![
            EvidenceCard {
                id: "E1",
                kind: "architecture",
                symbol: None,
                summary: &arch.summary,
                png: Some(&arch.png),
                png_path: Some(".codecanvas/architecture.png"),
            },
            EvidenceCard {
                id: "E2",
                kind: "impact",
                symbol: Some(&imp.target.qualname),
                summary: &imp_view.summary,
                png: Some(&imp_view.png),
                png_path: None,
            },
            EvidenceCard {
                id: "E3",
                kind: "impact",
                symbol: Some(&imp.target.qualname),
                summary: &imp_view.summary,
                png: Some(&imp_view.png),
                png_path: None,
            },
        ],
        decisions: vec![BoardCard {
            id: "D1",
            kind: "plan",
            text: "Add a test per caller first.",
            evidence: Some("E2"),
        }],
    };
    group.bench_function("board_view_3_thumbnails", |b| {
        b.iter(|| board_view(black_box(&board)))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
