//! `thread context` on a canvas with 100k nodes and a 5,000-deep chain.
//! Run: cargo bench -p easel-thread --bench walk

use criterion::{Criterion, criterion_group, criterion_main};
use easel_canvas::Canvas;
use easel_thread::{ContextOptions, MemoryFiles, build_context};
use std::fmt::Write;

/// A chain of `depth` nodes going down, each with one context note on its right, and
/// unrelated nodes far away up to `total` nodes. Edges have no sides, so every step also
/// exercises the geometry rule.
fn deep_canvas(total: usize, depth: usize) -> String {
    let mut nodes = String::new();
    let mut edges = String::new();
    let mut n = 0;
    let mut node = |out: &mut String, id: &str, x: i64, y: i64, text: &str| {
        if n > 0 {
            out.push(',');
        }
        n += 1;
        let _ = write!(
            out,
            r#"{{"id":"{id}","type":"text","text":"{text}","x":{x},"y":{y},"width":250,"height":60}}"#
        );
    };
    for i in 0..depth {
        let y = i as i64 * 100;
        node(&mut nodes, &format!("c{i}"), 0, y, &format!("message {i}"));
        node(&mut nodes, &format!("x{i}"), 400, y, "context");
        if i > 0 {
            let _ = write!(
                edges,
                r#"{{"id":"e{i}","fromNode":"c{}","toNode":"c{i}"}},"#,
                i - 1
            );
        }
        let _ = write!(
            edges,
            r#"{{"id":"h{i}","fromNode":"x{i}","toNode":"c{i}"}},"#
        );
    }
    for i in 0..total.saturating_sub(2 * depth) {
        node(
            &mut nodes,
            &format!("u{i}"),
            2000 + (i % 300) as i64 * 300,
            (i / 300) as i64 * 100,
            "unrelated",
        );
    }
    edges.pop();
    format!(r#"{{"nodes":[{nodes}],"edges":[{edges}]}}"#)
}

fn context(c: &mut Criterion) {
    let canvas = Canvas::parse(&deep_canvas(100_000, 5_000)).expect("canvas");
    let files = MemoryFiles::default();
    let options = ContextOptions::default();
    let ctx = build_context(&canvas, "c4999", &files, &options).expect("context");
    assert_eq!(ctx.chain.len(), 5_000);
    assert_eq!(ctx.messages.len(), 10_000);
    let mut group = c.benchmark_group("thread_context");
    group.sample_size(20);
    group.bench_function("100k_nodes_5000_deep", |b| {
        b.iter(|| build_context(&canvas, "c4999", &files, &options).expect("context"))
    });
    group.finish();
}

criterion_group!(benches, context);
criterion_main!(benches);
