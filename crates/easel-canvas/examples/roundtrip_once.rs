//! One parse + validate + serialize of a synthetic canvas, for profilers:
//! `valgrind --tool=callgrind target/release/examples/roundtrip_once 10000`.
//! A second argument repeats the round trip, for sampling profilers (`perf record`), so that
//! generating the text weighs little.
use easel_canvas::{Canvas, synth, validate};

fn main() {
    let mut args = std::env::args().skip(1).map(|s| s.parse().ok());
    let n: usize = args.next().flatten().unwrap_or(10_000);
    let repeat: usize = args.next().flatten().unwrap_or(1);
    let text = synth::grid_canvas(n);
    for _ in 0..repeat {
        let canvas = Canvas::parse(&text).expect("canvas");
        let report = validate(&canvas);
        let out = canvas.to_obsidian_string();
        assert!(report.is_valid() && out.len() == text.len());
    }
}
