//! Build the code graph of a folder once, with the cache `easel code init` uses (a benchmark
//! aid without the CLI: `scripts/bench-codegraph-ab.sh` times it cold and after one file
//! changed). With `PAIRS=FILE`, the call edges are written there, one `caller -> callee` a line;
//! with `GRAPH=FILE`, the whole graph as JSON (to check that a change leaves graphs as they were).
//! Runs on mimalloc, the allocator of the `easel` binary: on glibc's, a cold build spends part of
//! its time in the kernel growing per-thread heaps, a cost `easel code init` does not pay.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dir = std::env::args().nth(1).ok_or("usage: build_once DIR")?;
    let opts = easel_codegraph::BuildOptions {
        use_cache: true,
        progress: None,
    };
    let built = easel_codegraph::build(std::path::Path::new(&dir), &opts)?;
    let pairs = built.graph.call_pairs();
    if let Ok(out) = std::env::var("PAIRS") {
        let text: String = pairs.iter().map(|(a, b)| format!("{a} -> {b}\n")).collect();
        std::fs::write(out, text)?;
    }
    if let Ok(out) = std::env::var("GRAPH") {
        std::fs::write(out, serde_json::to_vec(&built.graph)?)?;
    }
    println!(
        "{} files, {} parsed, {} resolved, {} edges, {} ms",
        built.stats.files,
        built.stats.parsed,
        built.stats.resolved,
        pairs.len(),
        built.stats.millis
    );
    Ok(())
}
