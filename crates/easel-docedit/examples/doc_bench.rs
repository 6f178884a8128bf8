//! Times reading and editing a large document: `cargo run --release -p easel-docedit --example
//! doc_bench [PARAGRAPHS]` (default 5,000). Prints the median of 5 runs of each step.

use std::time::{Duration, Instant};

use easel_docedit::{Document, Edit, Format, add_ids};

fn median(mut f: impl FnMut()) -> Duration {
    let mut times: Vec<Duration> = (0..5)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .collect();
    times.sort();
    times[2]
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let n: usize = std::env::args().nth(1).map_or(Ok(5_000), |a| a.parse())?;
    let mut html = String::from("<!DOCTYPE html><html><head><title>Report</title></head><body>\n");
    let mut md = String::from("---\ntitle: Report\n---\n");
    for i in 0..n {
        if i % 50 == 0 {
            html.push_str(&format!("<section data-page=\"{}\">\n", i / 50 + 1));
        }
        let line = format!(
            "Paragraph {i}: contact person{i}@example.com or call 555-{:04} about &amp; invoice {i}.",
            i % 10_000
        );
        html.push_str(&format!("<p>{line}</p>\n"));
        md.push_str(&format!("{}\n\n", line.replace("&amp;", "&")));
        if i % 50 == 49 {
            html.push_str("</section>\n");
        }
    }
    html.push_str("</body></html>\n");
    println!(
        "{n} paragraphs: HTML {} KB, Markdown {} KB",
        html.len() / 1024,
        md.len() / 1024
    );

    let t = median(|| drop(add_ids(&html)));
    println!("add_ids                      {t:>10.2?}");
    let html = add_ids(&html)?.text;
    let t = median(|| drop(Document::parse(Format::Html, html.as_bytes())));
    println!("HTML parse + elements        {t:>10.2?}");
    let doc = Document::parse(Format::Html, html.as_bytes())?;
    let mid = doc.elements()[n / 2].id.clone();
    let edits = [
        (
            "redact_element",
            Edit::RedactElement {
                element_id: mid.clone(),
            },
        ),
        (
            "replace_text",
            Edit::ReplaceText {
                element_id: mid.clone(),
                old_text: "invoice".into(),
                new_text: "bill".into(),
            },
        ),
        (
            "find_and_replace_all",
            Edit::FindAndReplaceAll {
                find: "invoice".into(),
                replace: "bill".into(),
                case_sensitive: false,
            },
        ),
        (
            "redact_all_matching /\\d{3}-\\d{4}/",
            Edit::RedactAllMatching {
                pattern: r"/\d{3}-\d{4}/".into(),
            },
        ),
    ];
    for (name, edit) in &edits {
        let t = median(|| drop(doc.apply(edit)));
        println!("HTML {name:<32} {t:>10.2?}");
    }
    let t = median(|| drop(Document::parse(Format::Markdown, md.as_bytes())));
    println!("Markdown parse + elements    {t:>10.2?}");
    let note = Document::parse(Format::Markdown, md.as_bytes())?;
    let mid = format!("b{}", n / 2);
    let edits = [
        (
            "redact_element",
            Edit::RedactElement {
                element_id: mid.clone(),
            },
        ),
        (
            "find_and_replace_all",
            Edit::FindAndReplaceAll {
                find: "invoice".into(),
                replace: "bill".into(),
                case_sensitive: false,
            },
        ),
        (
            "redact_all_matching /\\d{3}-\\d{4}/",
            Edit::RedactAllMatching {
                pattern: r"/\d{3}-\d{4}/".into(),
            },
        ),
    ];
    for (name, edit) in &edits {
        let t = median(|| drop(note.apply(edit)));
        println!("Markdown {name:<28} {t:>10.2?}");
    }
    Ok(())
}
