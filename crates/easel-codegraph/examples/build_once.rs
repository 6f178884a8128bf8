//! Build the code graph of a folder once, with the cache `easel code init` uses (a benchmark
//! aid without the CLI: `scripts/bench-codegraph-ab.sh` times it cold and after one file
//! changed).
fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dir = std::env::args().nth(1).ok_or("usage: build_once DIR")?;
    let opts = easel_codegraph::BuildOptions {
        use_cache: true,
        progress: None,
    };
    let built = easel_codegraph::build(std::path::Path::new(&dir), &opts)?;
    println!(
        "{} files, {} parsed, {} resolved, {} edges, {} ms",
        built.stats.files,
        built.stats.parsed,
        built.stats.resolved,
        built.graph.call_pairs().len(),
        built.stats.millis
    );
    Ok(())
}
