//! Times each phase of a round trip on a synthetic canvas: `cargo run --release -p easel-canvas --example phases -- 100000`
use easel_canvas::{Canvas, json, synth, validate};
use std::time::Instant;

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(100_000);
    let text = synth::grid_canvas(n);
    for _ in 0..3 {
        let t = Instant::now();
        let v = json::parse(&text).expect("json");
        let t_json = t.elapsed();
        drop(v);
        let t = Instant::now();
        let c = Canvas::parse(&text).expect("canvas");
        let t_parse = t.elapsed();
        let t = Instant::now();
        let r = validate(&c);
        let t_val = t.elapsed();
        let t = Instant::now();
        let s = c.to_obsidian_string();
        let t_ser = t.elapsed();
        println!(
            "{n} nodes, {:.1} MiB: json {:?}, canvas parse {:?}, validate {:?} ({} errors), serialize {:?}",
            text.len() as f64 / 1048576.0,
            t_json,
            t_parse,
            t_val,
            r.errors.len(),
            t_ser
        );
        assert_eq!(s.len(), text.len());
    }
}
