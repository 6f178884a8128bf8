//! Benchmarks the embedded model: load time, prompt (prefill) tokens/s, generated tokens/s and
//! peak memory, printed as a table. Run with
//! `cargo run --release -p easel-llm --example bench_local [-- RUNS]`.
#![allow(clippy::unwrap_used)]

use easel_llm::local::LocalModel;
use easel_llm::{Config, Request};
use std::time::Instant;

fn peak_rss_mb() -> f64 {
    let s = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    s.lines()
        .find(|l| l.starts_with("VmHWM:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|kb| kb.parse::<f64>().ok())
        .map(|kb| kb / 1024.0)
        .unwrap_or(f64::NAN)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

fn main() {
    let runs: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(5);
    let config = Config::load(None).unwrap();
    let t = Instant::now();
    let model = LocalModel::load(&config.local_model, config.local_threads).unwrap();
    let load_ms = t.elapsed().as_secs_f64() * 1000.0;

    // A prompt of a few hundred tokens, and a fixed-length answer (no stop, greedy).
    let text = "Easel keeps canvases, notes and agents on one board. ".repeat(40);
    let mut req = Request::prompt(format!("{text}\nSummarise the text above."));
    req.sampling.temperature = Some(0.0);
    req.max_tokens = Some(128);

    let mut pp = Vec::new();
    let mut tg = Vec::new();
    let mut n_prompt = 0;
    let mut n_gen = 0;
    // One warm-up run, not counted.
    model.generate(&req, &mut |_| true).unwrap();
    for _ in 0..runs {
        let timing = model.generate(&req, &mut |_| true).unwrap();
        pp.push(timing.prompt_tokens_per_s());
        tg.push(timing.generated_tokens_per_s());
        n_prompt = timing.prompt_tokens;
        n_gen = timing.generated_tokens;
    }
    println!("| measure | value |");
    println!("|---|---|");
    println!(
        "| model | {} |",
        config.local_model.file_name().unwrap().to_string_lossy()
    );
    println!("| load time | {load_ms:.0} ms |");
    println!(
        "| prompt processing ({n_prompt} tokens), median of {runs} | {:.0} tokens/s |",
        median(pp)
    );
    println!(
        "| generation ({n_gen} tokens), median of {runs} | {:.1} tokens/s |",
        median(tg)
    );
    println!("| peak memory (VmHWM) | {:.0} MB |", peak_rss_mb());
}
