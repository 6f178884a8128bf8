//! Print the graph of a folder as JSON (a debugging aid).
fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dir = std::env::args().nth(1).unwrap_or_else(|| ".".into());
    let built = easel_codegraph::build(
        std::path::Path::new(&dir),
        &easel_codegraph::BuildOptions::default(),
    )?;
    for (a, b) in built.graph.call_pairs() {
        println!("{a} -> {b}");
    }
    for u in &built.graph.unresolved {
        println!("? {} {} (line {})", u.from, u.name, u.line);
    }
    eprintln!("{:?}", built.stats);
    Ok(())
}
