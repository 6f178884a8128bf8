//! Layout, SVG and PNG for a graph of a few hundred boxes, and a canvas of 1,000 cards.
//! Run: cargo bench -p easel-render

use criterion::{Criterion, criterion_group, criterion_main};
use easel_layout::{Graph, LayeredOptions, layered};
use easel_render::{Scene, TextStyle, render_canvas};
use std::hint::black_box;

/// A call-graph-like DAG: `n` nodes, each calling up to three later ones.
fn graph(n: usize) -> Graph {
    let style = TextStyle::regular(13.0);
    let sizes = (0..n)
        .map(|i| {
            let label = format!("module_{i}.function_{}", i * 7 % 13);
            (f64::from(style.width(&label)) + 24.0, 32.0)
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
    Graph { sizes, edges }
}

fn bench(c: &mut Criterion) {
    let g = graph(300);
    // The code views' spacing.
    let options = LayeredOptions {
        spacing: 24.0,
        rank_gap: Some(56.0),
        straight_edges: false,
        ..LayeredOptions::default()
    };
    c.bench_function("layered_layout_300_nodes", |b| {
        b.iter(|| layered(black_box(&g), &options))
    });
    let layout = layered(&g, &options);
    let (mut width, mut height) = (0.0f32, 0.0f32);
    for (&(x, y), &(w, h)) in layout.positions.iter().zip(&g.sizes) {
        width = width.max((x + w) as f32 + 32.0);
        height = height.max((y + h) as f32 + 32.0);
    }
    let mut scene = Scene::new(width, height);
    for (i, (&(x, y), &(w, h))) in layout.positions.iter().zip(&g.sizes).enumerate() {
        let (x, y) = (x as f32 + 16.0, y as f32 + 16.0);
        scene.boxed(x, y, w as f32, h as f32, "#eef3ff", "#3a5bc7");
        scene.text(
            x + 12.0,
            y + 21.0,
            &format!("node {i}"),
            TextStyle::regular(13.0),
            "#111",
        );
    }
    for r in &layout.routes {
        let points = r
            .iter()
            .map(|&(x, y)| (x as f32 + 16.0, y as f32 + 16.0))
            .collect();
        scene.arrow(points, "#555", false);
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
