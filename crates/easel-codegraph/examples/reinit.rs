//! Time a cold build with the cache, then re-builds after one file changed (a benchmark aid,
//! what `easel code init` does without the board). Usage: `reinit DIR FILE [RUNS]`; FILE is
//! relative to DIR and gets a comment line appended and removed in turn. The cache is
//! `DIR/.codecanvas/cache/`, removed first.
use std::time::Instant;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let dir = args.next().ok_or("usage: reinit DIR FILE [RUNS]")?;
    let file = args.next().ok_or("usage: reinit DIR FILE [RUNS]")?;
    let runs: usize = args.next().and_then(|r| r.parse().ok()).unwrap_or(9);
    let root = std::path::Path::new(&dir);
    let _ = std::fs::remove_dir_all(root.join(".codecanvas"));
    let opts = easel_codegraph::BuildOptions {
        use_cache: true,
        ..Default::default()
    };
    let t = Instant::now();
    let cold = easel_codegraph::build(root, &opts)?;
    println!(
        "cold {:?} ({} files, {} edges)",
        t.elapsed(),
        cold.stats.files,
        cold.graph.edges.len()
    );
    let path = root.join(&file);
    let original = std::fs::read(&path)?;
    let mut times = Vec::new();
    let mut resolved = 0;
    for i in 0..runs {
        let mut changed = original.clone();
        changed.extend_from_slice(format!("\n// edit {i}\n").as_bytes());
        std::fs::write(&path, &changed)?;
        let t = Instant::now();
        let b = easel_codegraph::build(root, &opts)?;
        times.push(t.elapsed());
        resolved = b.stats.resolved;
        if b.stats.parsed != 1 {
            return Err(format!("{} files parsed after one changed", b.stats.parsed).into());
        }
    }
    std::fs::write(&path, &original)?;
    times.sort();
    println!(
        "one file changed: median {:?}, best {:?} ({runs} runs, {resolved} files resolved again)",
        times[runs / 2],
        times[0]
    );
    Ok(())
}
