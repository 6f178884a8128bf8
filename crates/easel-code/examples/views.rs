//! Draws the three views of a repository into its `.codecanvas/` folder and prints how long
//! each took, as a Markdown table row per view.
//!
//! Run: cargo run --release -p easel-code --example views -- REPO [SYMBOL ...]

use easel_code::{
    BoardCard, BoardView, BuildOptions, EvidenceCard, architecture_view, board_view, build, impact,
    impact_view, write_view,
};
use std::time::Instant;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let Some(root) = args.next() else {
        return Err("usage: views REPO [SYMBOL ...]".into());
    };
    let root = std::path::PathBuf::from(root);
    let symbols: Vec<String> = args.collect();
    let built = build(&root, &BuildOptions::default())?;
    let g = &built.graph;
    println!(
        "{}: {} nodes, {} edges, {} lines",
        root.display(),
        g.nodes.len(),
        g.edges.len(),
        built.stats.lines
    );
    println!("| view | ms | PNG px | PNG KiB | summary |\n|---|---|---|---|---|");
    let row = |v: &easel_code::View, ms: f64| {
        let (w, h) = (
            u32::from_be_bytes([v.png[16], v.png[17], v.png[18], v.png[19]]),
            u32::from_be_bytes([v.png[20], v.png[21], v.png[22], v.png[23]]),
        );
        println!(
            "| {} | {ms:.1} | {w}×{h} | {} | {} |",
            v.name,
            v.png.len() / 1024,
            v.summary
        );
    };
    let t = Instant::now();
    let arch = architecture_view(g)?;
    row(&arch, t.elapsed().as_secs_f64() * 1000.0);
    write_view(&root, &arch)?;
    let mut views = vec![arch];
    for s in &symbols {
        let imp = impact(g, s, 2)?;
        let t = Instant::now();
        let v = impact_view(g, &imp)?;
        row(&v, t.elapsed().as_secs_f64() * 1000.0);
        write_view(&root, &v)?;
        views.push(v);
    }
    let paths: Vec<String> = views
        .iter()
        .map(|v| format!(".codecanvas/{}.png", v.name))
        .collect();
    let ids: Vec<String> = (1..=views.len()).map(|i| format!("E{i}")).collect();
    let evidence: Vec<EvidenceCard> = views
        .iter()
        .enumerate()
        .map(|(i, v)| EvidenceCard {
            id: &ids[i],
            kind: if i == 0 { "architecture" } else { "impact" },
            symbol: symbols.get(i.wrapping_sub(1)).map(String::as_str),
            summary: &v.summary,
            png: Some(&v.png),
            png_path: Some(&paths[i]),
        })
        .collect();
    let board = BoardView {
        focus: symbols.first().map(String::as_str),
        progress: Some((1, 3)),
        task: Some("Look at the code before changing it"),
        claims: vec![BoardCard {
            id: "C1",
            kind: "finding",
            text: "The architecture view shows where the hubs are.",
            evidence: Some("E1"),
        }],
        evidence,
        decisions: vec![BoardCard {
            id: "D1",
            kind: "plan",
            text: "Change the least connected module first.",
            evidence: None,
        }],
    };
    let t = Instant::now();
    let b = board_view(&board)?;
    row(&b, t.elapsed().as_secs_f64() * 1000.0);
    write_view(&root, &b)?;
    Ok(())
}
