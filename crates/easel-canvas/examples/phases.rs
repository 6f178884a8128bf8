//! Times each phase of a round trip on a synthetic canvas: the mean and the fastest of ROUNDS
//! (default 5) after one round to warm up. On Linux the times are the thread's CPU time (from
//! `/proc/thread-self/schedstat`), which holds up on a machine shared with other work; the
//! kernel updates it at scheduler ticks, so read the mean of many rounds, not one round.
//! Elsewhere they are wall times.
//! `cargo run --release -p easel-canvas --example phases -- 100000 [ROUNDS]`
use easel_canvas::{Canvas, json, synth, validate};
use std::time::{Duration, Instant};

/// The `easel` binary's allocator, as in the criterion benchmark.
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// CPU time this thread has run, when the system tells; else the time since `origin`.
fn now(origin: Instant) -> Duration {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .map_or_else(|| origin.elapsed(), Duration::from_nanos)
}

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
    let origin = Instant::now();
    let mut best = [Duration::MAX; 5];
    let mut sum = [Duration::ZERO; 5];
    for round in 0..=rounds {
        let start = now(origin);
        let c = Canvas::parse(&text).expect("canvas");
        let parsed = now(origin);
        let r = validate(&c);
        let validated = now(origin);
        let s = c.to_obsidian_string();
        let written = now(origin);
        drop(c);
        drop(s);
        let dropped = now(origin);
        assert!(r.is_valid());
        let times = [
            parsed - start,
            validated - parsed,
            written - validated,
            dropped - written,
            dropped - start,
        ];
        if round == 0 {
            continue;
        }
        for ((b, s), t) in best.iter_mut().zip(&mut sum).zip(times) {
            *b = (*b).min(t);
            *s += t;
        }
    }
    let mean = sum.map(|s| s / rounds.max(1) as u32);
    for (what, [parse, validate, serialize, drop, total]) in [("mean", mean), ("fastest", best)] {
        println!(
            "{what} of {rounds}: parse {parse:.1?}, validate {validate:.1?}, serialize {serialize:.1?}, drop {drop:.1?}, round trip {total:.1?}"
        );
    }
}
