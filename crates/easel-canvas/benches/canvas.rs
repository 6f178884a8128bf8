//! Parse + validate + serialize, the full cost of reading and rewriting a canvas.
//! Run: cargo bench -p easel-canvas

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use easel_canvas::{Canvas, IdGen, json, synth, validate};
use std::hint::black_box;

/// The allocator the `easel` binary runs with (`crates/easel-cli/src/main.rs`), so the round
/// trip is measured with the allocation costs a user gets. With the system allocator every round
/// also pays for the kernel zeroing ~70 MB of pages glibc handed back at the end of the round
/// before (about 40% of a round).
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn round_trip(c: &mut Criterion) {
    let mut group = c.benchmark_group("parse_validate_serialize");
    group.sample_size(20);
    for n in [1_000, 10_000, 100_000] {
        let text = synth::grid_canvas(n);
        group.throughput(Throughput::Bytes(text.len() as u64));
        group.bench_with_input(BenchmarkId::from_parameter(n), &text, |b, text| {
            b.iter(|| {
                let canvas = Canvas::parse(black_box(text)).expect("parses");
                let report = validate(&canvas);
                assert!(report.is_valid());
                black_box(canvas.to_obsidian_string())
            })
        });
    }
    group.finish();
}

fn add_node(c: &mut Criterion) {
    let text = synth::grid_canvas(10_000);
    let mut ids = IdGen::with_seed(1);
    c.bench_function("add_node_in_memory_10k", |b| {
        b.iter_batched(
            || Canvas::parse(&text).expect("parses"),
            |mut canvas| {
                let node = json::parse(r#"{"type":"text","text":"new"}"#).expect("json");
                let node = easel_canvas::expect_object(node, "node").expect("object");
                canvas.add_node(node, &mut ids).expect("adds");
                canvas
            },
            criterion::BatchSize::LargeInput,
        )
    });
}

criterion_group!(benches, round_trip, add_node);
criterion_main!(benches);
