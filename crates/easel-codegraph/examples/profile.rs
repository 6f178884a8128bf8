//! Time parsing alone against full extraction, single-threaded (a profiling aid).
use std::time::Instant;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dir = std::env::args().nth(1).unwrap_or_else(|| ".".into());
    let root = std::path::Path::new(&dir);
    let files = easel_codegraph::discover(root)?;
    let srcs: Vec<(String, easel_codegraph::Lang, Vec<u8>)> = files
        .into_iter()
        .filter_map(|(p, l)| Some((p.clone(), l, std::fs::read(root.join(&p)).ok()?)))
        .collect();
    let t = Instant::now();
    for (_, l, s) in &srcs {
        let mut p = tree_sitter::Parser::new();
        p.set_language(&l.grammar())?;
        let _ = p.parse(s, None);
    }
    let parse = t.elapsed();
    let t = Instant::now();
    for (path, l, s) in &srcs {
        let _ = easel_codegraph::extract(*l, path, s);
    }
    println!("parse only {:?}, parse + extract {:?}", parse, t.elapsed());
    Ok(())
}
