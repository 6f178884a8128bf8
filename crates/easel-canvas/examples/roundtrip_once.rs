//! One parse + validate + serialize of a synthetic canvas, for profilers:
//! `valgrind --tool=callgrind target/release/examples/roundtrip_once 10000`
use easel_canvas::{Canvas, synth, validate};

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(10_000);
    let text = synth::grid_canvas(n);
    let canvas = Canvas::parse(&text).expect("canvas");
    let report = validate(&canvas);
    let out = canvas.to_obsidian_string();
    assert!(report.is_valid() && out.len() == text.len());
}
