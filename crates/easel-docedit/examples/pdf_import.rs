//! Imports PDFs and reports how long each took (BENCHMARKS.md, "PDF import").
//!
//! `cargo run --release -p easel-docedit --example pdf_import -- [--html] FILE.pdf...`
//! prints one line per file: pages, paragraphs, warnings and the best of five runs; with
//! `--html` it prints the HTML of each file instead.

use std::time::{Duration, Instant};

fn main() -> std::process::ExitCode {
    let mut show_html = false;
    let mut failed = false;
    for arg in std::env::args().skip(1) {
        if arg == "--html" {
            show_html = true;
            continue;
        }
        let bytes = match std::fs::read(&arg) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("{arg}: {e}");
                failed = true;
                continue;
            }
        };
        let mut best = Duration::MAX;
        let mut last = None;
        for _ in 0..if show_html { 1 } else { 5 } {
            let start = Instant::now();
            let result = easel_docedit::pdf_to_html(&bytes, &arg);
            best = best.min(start.elapsed());
            last = Some(result);
        }
        match last {
            Some(Ok(doc)) if show_html => {
                print!("{}", doc.html);
                for w in &doc.warnings {
                    eprintln!("warning: {w}");
                }
            }
            Some(Ok(doc)) => println!(
                "{arg}: {} pages, {} paragraphs, {} warnings, {:.1} ms (best of 5)",
                doc.pages,
                doc.paragraphs,
                doc.warnings.len(),
                best.as_secs_f64() * 1000.0
            ),
            Some(Err(e)) => {
                eprintln!("{arg}: {e}");
                failed = true;
            }
            None => {}
        }
    }
    if failed {
        std::process::ExitCode::FAILURE
    } else {
        std::process::ExitCode::SUCCESS
    }
}
