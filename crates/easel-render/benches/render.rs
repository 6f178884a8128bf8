//! Layout, SVG and PNG for a graph of a few hundred boxes, and a canvas of 1,000 cards.
//! Run: cargo bench -p easel-render

use criterion::{Criterion, criterion_group, criterion_main};
use easel_render::{LayoutOptions, Scene, Size, TextStyle, layered, render_canvas};
use std::hint::black_box;

/// A call-graph-like DAG: `n` nodes, each calling up to three later ones.
fn graph(n: usize) -> (Vec<Size>, Vec<(usize, usize)>) {
    let style = TextStyle::regular(13.0);
    let sizes = (0..n)
        .map(|i| Size {
            width: style.width(&format!("module_{i}.function_{}", i * 7 % 13)) + 24.0,
            height: 32.0,
        })
        .collect();
    let mut edges = Vec::new();
    for i in 0..n {
        for k in 1..=3 {
            let j = i + k * k + (i % 5);
            if j < n {
                edges.push((i, j));
            }
        }
    }
    (sizes, edges)
}

fn bench(c: &mut Criterion) {
    let (sizes, edges) = graph(300);
    c.bench_function("layered_layout_300_nodes", |b| {
        b.iter(|| {
            layered(
                black_box(&sizes),
                black_box(&edges),
                &LayoutOptions::default(),
            )
        })
    });
    let layout = layered(&sizes, &edges, &LayoutOptions::default());
    let mut scene = Scene::new(layout.width, layout.height);
    for (i, p) in layout.nodes.iter().enumerate() {
        scene.boxed(p.x, p.y, p.width, p.height, "#eef3ff", "#3a5bc7");
        scene.text(
            p.x + 12.0,
            p.y + 21.0,
            &format!("node {i}"),
            TextStyle::regular(13.0),
            "#111",
        );
    }
    for r in &layout.routes {
        scene.arrow(r.clone(), "#555", false);
    }
    c.bench_function("svg_300_nodes", |b| b.iter(|| black_box(&scene).to_svg()));
    let mut group = c.benchmark_group("png");
    group.sample_size(10);
    group.bench_function("png_300_nodes", |b| {
        b.iter(|| black_box(&scene).to_png(1.0))
    });
    let canvas = easel_canvas::synth::grid(1_000);
    group.bench_function("canvas_1k_cards_svg", |b| {
        b.iter(|| render_canvas(black_box(&canvas)).to_svg())
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
