//! `add-node` end to end on a 10k-node canvas: lock, read, parse, add, serialize, atomic
//! write with fsync, blob of the old bytes, ledger entry.
//! Run: cargo bench -p easel-vault --bench canvas_ops

use criterion::{Criterion, criterion_group, criterion_main};
use easel_canvas::json::{Map, Value};
use easel_vault::Vault;
use easel_vault::canvas::{self, Actor};

fn add_node_end_to_end(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(
        dir.path().join("big.canvas"),
        easel_canvas::synth::grid_canvas(10_000),
    )
    .expect("write canvas");
    let vault = Vault::open(dir.path()).expect("vault");
    let actor = Actor::new("bench");
    let mut group = c.benchmark_group("add_node_end_to_end");
    // Each call keeps a 2.5 MB blob of the previous bytes for undo; keep the run short.
    group.sample_size(10);
    group.bench_function("10k_nodes", |b| {
        b.iter(|| {
            let mut node = Map::new();
            node.insert("type", Value::from("text"));
            node.insert("text", Value::from("benchmark"));
            canvas::add_node(&vault, &actor, "big", node, None).expect("add node")
        })
    });
    group.finish();
}

criterion_group!(benches, add_node_end_to_end);
criterion_main!(benches);
