//! Times each phase of a round trip on a synthetic canvas, fastest of ROUNDS (default 5), which
//! holds up best on a machine shared with other work:
//! `cargo run --release -p easel-canvas --example phases -- 100000 [ROUNDS]`
use easel_canvas::{Canvas, json, synth, validate};
use std::time::{Duration, Instant};

fn main() {
    let mut args = std::env::args().skip(1).map(|s| s.parse().ok());
    let n: usize = args.next().flatten().unwrap_or(100_000);
    let rounds: usize = args.next().flatten().unwrap_or(5);
    let text = synth::grid_canvas(n);
    let t = Instant::now();
    drop(json::parse(&text).expect("json"));
    println!(
        "{n} nodes, {:.1} MiB; generic JSON parse (once): {:?}",
        text.len() as f64 / 1048576.0,
        t.elapsed()
    );
    let mut best = [Duration::MAX; 5];
    for _ in 0..rounds {
        let start = Instant::now();
        let c = Canvas::parse(&text).expect("canvas");
        let parsed = Instant::now();
        let r = validate(&c);
        let validated = Instant::now();
        let s = c.to_obsidian_string();
        let written = Instant::now();
        drop(c);
        drop(s);
        let dropped = Instant::now();
        assert!(r.is_valid());
        let times = [
            parsed - start,
            validated - parsed,
            written - validated,
            dropped - written,
            dropped - start,
        ];
        for (b, t) in best.iter_mut().zip(times) {
            *b = (*b).min(t);
        }
    }
    let [parse, validate, serialize, drop, total] = best;
    println!(
        "fastest of {rounds}: parse {parse:.1?}, validate {validate:.1?}, serialize {serialize:.1?}, drop {drop:.1?}, round trip {total:.1?}"
    );
}
