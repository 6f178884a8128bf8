//! Time the steps of extracting one file: compiling its language's query, parsing, and the
//! whole extraction (a profiling aid). Usage: `one_file FILE [RUNS]`.
use std::time::Instant;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args()
        .nth(1)
        .ok_or("usage: one_file FILE [RUNS]")?;
    let runs: usize = std::env::args()
        .nth(2)
        .and_then(|r| r.parse().ok())
        .unwrap_or(5);
    let lang =
        easel_codegraph::Lang::from_path(std::path::Path::new(&path)).ok_or("unknown language")?;
    let src = std::fs::read(&path)?;
    let t = Instant::now();
    easel_codegraph::check_query(lang)?;
    println!("query compiled in {:?}", t.elapsed());
    for _ in 0..runs {
        let t = Instant::now();
        let mut p = tree_sitter::Parser::new();
        p.set_language(&lang.grammar())?;
        let _ = p.parse(&src, None);
        let parse = t.elapsed();
        let t = Instant::now();
        let _ = easel_codegraph::extract(lang, &path, &src)?;
        println!("parse {:?}, parse + extract {:?}", parse, t.elapsed());
    }
    Ok(())
}
