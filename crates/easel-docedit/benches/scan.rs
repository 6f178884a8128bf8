//! The scanner on a ten-page document: about 30 KB of text in about 300 elements, made from
//! the blocks of the generated test set (`tests/scan_set/`), scanned for every structured kind.
//!
//! `cargo bench -p easel-docedit --bench scan`

use criterion::{Criterion, criterion_group, criterion_main};
use easel_docedit::Element;
use easel_docedit::scan::{Kind, Query, parse_query, scan};

/// The blocks of the test set, in order, until there are `bytes` of text.
fn document(bytes: usize) -> Vec<Element> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/scan_set/expected.json");
    let json = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("read {path}: {e}"));
    let set: serde_json::Value =
        serde_json::from_str(&json).unwrap_or_else(|e| panic!("parse {path}: {e}"));
    let texts = set["documents"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|d| d["blocks"].as_array().into_iter().flatten())
        .filter_map(|b| b["text"].as_str());
    // Blocks of the set joined until at least 70 bytes make one element: 100 bytes on average.
    let mut elements = Vec::new();
    let mut total = 0;
    let mut text = String::new();
    for block in texts {
        if total >= bytes {
            break;
        }
        if !text.is_empty() {
            text.push(' ');
        }
        text.push_str(block);
        if text.len() >= 70 {
            total += text.len();
            elements.push(Element {
                id: format!("c{:08x}", elements.len()),
                tag: "p".into(),
                text: std::mem::take(&mut text),
                span: 0..0,
                page: None,
            });
        }
    }
    elements
}

fn bench(c: &mut Criterion) {
    let elements = document(30_000);
    let bytes: usize = elements.iter().map(|e| e.text.len()).sum();
    let all = Query::Kinds(Kind::STRUCTURED.to_vec());
    let matches = scan(&elements, &all).len();
    eprintln!(
        "document: {} elements, {bytes} bytes of text, {matches} matches",
        elements.len()
    );
    c.bench_function("scan 30 KB, all structured kinds", |b| {
        b.iter(|| scan(std::hint::black_box(&elements), &all))
    });
    let personal = parse_query("all personal information").unwrap_or(all.clone());
    c.bench_function("scan 30 KB, personal data", |b| {
        b.iter(|| scan(std::hint::black_box(&elements), &personal))
    });
    c.bench_function("parse_query", |b| {
        b.iter(|| parse_query(std::hint::black_box("redact all phone numbers and emails")))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
