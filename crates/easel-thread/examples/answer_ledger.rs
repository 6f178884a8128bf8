//! What one streamed answer costs the ledger: entries and blob bytes.
//!
//! `cargo run --release -p easel-thread --example answer_ledger -- MB PIECES MS` streams PIECES
//! pieces of text, one every MS milliseconds (a model's pace), into a canvas of about MB
//! megabytes, with the real 250 ms rewrite interval, and prints what `.easel/` holds afterwards.

use easel_thread::{ModelFailure, Piece, SendOptions, Target, send};
use easel_vault::Vault;
use easel_vault::canvas::Actor;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1).map(|a| a.parse::<f64>());
    let mb = args.next().transpose()?.unwrap_or(3.0);
    let pieces = args.next().transpose()?.unwrap_or(150.0) as usize;
    let pace = Duration::from_millis(args.next().transpose()?.unwrap_or(30.0) as u64);

    let dir = tempfile::tempdir()?;
    let mut nodes = vec![
        r#"{"id":"q","type":"text","text":"Question?","x":0,"y":0,"width":250,"height":60}"#
            .to_owned(),
    ];
    let filler = "lorem ipsum ".repeat(20);
    let mut size = 0.0;
    let mut i = 0;
    while size < mb * 1e6 {
        let node = format!(
            r#"{{"id":"n{i:015}","type":"text","text":"{filler}","x":{},"y":-5000,"width":250,"height":60}}"#,
            i * 300
        );
        size += node.len() as f64;
        nodes.push(node);
        i += 1;
    }
    let canvas = format!("{{\"nodes\":[\n{}\n],\"edges\":[]}}", nodes.join(",\n"));
    std::fs::write(dir.path().join("big.canvas"), &canvas)?;
    let vault = Vault::open(dir.path())?;
    let actor = Actor::new("thread");
    let stream = (0..pieces).map(|i| {
        std::thread::sleep(pace);
        Ok::<_, ModelFailure>(Piece::Text(format!(" word{i}")))
    });
    let started = Instant::now();
    send(
        Target {
            vault: &vault,
            actor: &actor,
            canvas: "big",
            node: "q",
        },
        &SendOptions::default(),
        &AtomicBool::new(false),
        |_| Ok(stream),
        &mut |_| {},
    )?;
    let seconds = started.elapsed().as_secs_f64();
    let ledger = std::fs::read_to_string(dir.path().join(".easel/ledger.jsonl"))?;
    let entries = ledger.lines().count();
    let without_run = ledger
        .lines()
        .filter(|l| l.contains("\"run\":null"))
        .count();
    let mut blob_bytes = 0;
    let mut blobs = 0;
    for b in std::fs::read_dir(dir.path().join(".easel/blobs"))? {
        blob_bytes += b?.metadata()?.len();
        blobs += 1;
    }
    println!(
        "canvas {:.1} MB, {pieces} pieces in {seconds:.1} s: {entries} ledger entries ({without_run} without a run), {blobs} blobs, {:.1} MB of blobs",
        canvas.len() as f64 / 1e6,
        blob_bytes as f64 / 1e6
    );
    Ok(())
}
