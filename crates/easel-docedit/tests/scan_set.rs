//! The scanner against a generated test set (`scan_set/`, made by `scan_set/generate.py`):
//! letters, invoices, contracts, CVs and minutes in HTML and Markdown with fake personal data,
//! and the exact bytes of every structured piece. Recall and precision per kind come out of
//! this run; print them with `cargo nextest run -p easel-docedit --test scan_set --no-capture`.

use std::collections::BTreeMap;
use std::path::Path;

use easel_docedit::scan::{Kind, structured};
use regex::Regex;
use serde::Deserialize;

#[derive(Deserialize)]
struct Set {
    documents: Vec<Doc>,
}

#[derive(Deserialize)]
struct Doc {
    file: String,
    blocks: Vec<Block>,
}

#[derive(Deserialize)]
struct Block {
    text: String,
    spans: Vec<Span>,
}

#[derive(Deserialize)]
struct Span {
    kind: String,
    start: usize,
    end: usize,
}

fn kind_name(kind: Kind) -> &'static str {
    match kind {
        Kind::Email => "email",
        Kind::Phone => "phone",
        Kind::Url => "url",
        Kind::Iban => "iban",
        Kind::Card => "card",
        Kind::Date => "date",
        Kind::Money => "money",
        Kind::Number => "number",
        Kind::Quoted => "quoted",
        Kind::Regex => "regex",
    }
}

fn regex(pattern: &str) -> Regex {
    Regex::new(pattern).unwrap_or_else(|e| panic!("test pattern {pattern}: {e}"))
}

fn collapse(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The text of each block element of an HTML document, as a reader sees it. The generated
/// documents do not nest blocks, so the first closing block tag ends the block.
fn html_blocks(doc: &str) -> Vec<String> {
    let block = regex(r"(?s)<(?:p|h[1-6]|li|td|th)\b[^>]*>(.*?)</(?:p|h[1-6]|li|td|th)>");
    let tag = regex(r"<[^>]*>");
    block
        .captures_iter(doc)
        .map(|c| {
            let inner = tag.replace_all(&c[1], "");
            let text = inner
                .replace("&lt;", "<")
                .replace("&gt;", ">")
                .replace("&quot;", "\"")
                .replace("&#x27;", "'")
                .replace("&#39;", "'")
                .replace("&amp;", "&");
            collapse(&text)
        })
        .collect()
}

/// The text of each block of a Markdown note: headings, paragraphs, list items, table rows
/// (cells joined by ` | `), without their syntax, `**` or autolink brackets.
fn markdown_blocks(doc: &str) -> Vec<String> {
    let separator = regex(r"^\|[-|: ]+\|$");
    let marker = regex(r"^(?:#{1,6} |- )");
    let autolink = regex(r"<((?:https?|ftp)://[^>\s]+)>");
    let mut blocks = Vec::new();
    for line in doc.lines().map(str::trim).filter(|l| !l.is_empty()) {
        if separator.is_match(line) {
            continue;
        }
        let text = if let Some(row) = line.strip_prefix('|') {
            let row = row.strip_suffix('|').unwrap_or(row);
            row.split('|')
                .map(str::trim)
                .collect::<Vec<_>>()
                .join(" | ")
        } else {
            marker.replace(line, "").into_owned()
        };
        let text = autolink.replace_all(&text, "$1").replace("**", "");
        blocks.push(collapse(&text));
    }
    blocks
}

#[derive(Default)]
struct Tally {
    expected: usize,
    found: usize,
    right: usize,
}

#[test]
fn recall_and_precision_per_kind() {
    // Another generated set (`generate.py --seed S --count N --out DIR`) when one is named.
    let dir = std::env::var_os("EASEL_SCAN_SET").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scan_set"),
        std::path::PathBuf::from,
    );
    let json = std::fs::read_to_string(dir.join("expected.json"))
        .unwrap_or_else(|e| panic!("read expected.json: {e}"));
    let set: Set = serde_json::from_str(&json).unwrap_or_else(|e| panic!("expected.json: {e}"));
    assert!(
        set.documents.len() >= 100,
        "the set has {} documents",
        set.documents.len()
    );

    let mut tally: BTreeMap<&str, Tally> = BTreeMap::new();
    let mut misses: Vec<String> = Vec::new();
    for doc in &set.documents {
        let raw = std::fs::read_to_string(dir.join("docs").join(&doc.file))
            .unwrap_or_else(|e| panic!("read {}: {e}", doc.file));
        let texts = if doc.file.ends_with(".md") {
            markdown_blocks(&raw)
        } else {
            html_blocks(&raw)
        };
        let expected_texts: Vec<&str> = doc.blocks.iter().map(|b| b.text.as_str()).collect();
        assert_eq!(
            texts, expected_texts,
            "the blocks of {} as read here",
            doc.file
        );

        for (text, block) in texts.iter().zip(&doc.blocks) {
            let want: Vec<(&str, usize, usize)> = block
                .spans
                .iter()
                .map(|s| (s.kind.as_str(), s.start, s.end))
                .collect();
            let got: Vec<(&str, usize, usize)> = structured(text)
                .into_iter()
                .map(|h| (kind_name(h.kind), h.range.start, h.range.end))
                .collect();
            for w in &want {
                let t = tally.entry(w.0).or_default();
                t.expected += 1;
                if got.contains(w) {
                    t.right += 1;
                } else {
                    misses.push(format!(
                        "{}: missed {} {:?} in {text:?}",
                        doc.file,
                        w.0,
                        text.get(w.1..w.2)
                    ));
                }
            }
            for g in &got {
                tally.entry(g.0).or_default().found += 1;
                if !want.contains(g) {
                    misses.push(format!(
                        "{}: wrong {} {:?} in {text:?}",
                        doc.file,
                        g.0,
                        text.get(g.1..g.2)
                    ));
                }
            }
        }
    }

    println!("kind     expected  found  right  recall  precision");
    let mut failing = Vec::new();
    for (kind, t) in &tally {
        let recall = t.right as f64 / t.expected.max(1) as f64;
        let precision = t.right as f64 / t.found.max(1) as f64;
        println!(
            "{kind:<8} {:>8} {:>6} {:>6}  {recall:>6.3}  {precision:>9.3}",
            t.expected, t.found, t.right
        );
        if *kind != "number" && (recall < 0.98 || precision < 0.95) {
            failing.push(*kind);
        }
    }
    for miss in misses.iter().take(40) {
        println!("{miss}");
    }
    for kind in ["email", "phone", "url", "iban", "card", "date", "money"] {
        assert!(
            tally.get(kind).is_some_and(|t| t.expected > 0),
            "the set holds no {kind}"
        );
    }
    assert!(
        failing.is_empty(),
        "below recall 0.98 or precision 0.95: {failing:?} (table above)"
    );
}
