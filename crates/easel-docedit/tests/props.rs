//! Random documents and random edits: every edit changes only the bytes of what it touches,
//! and the result parses with every untouched element as it was.

use std::collections::HashSet;

use easel_docedit::{Applied, Document, Edit, Format};
use proptest::prelude::*;

const WORDS: &[&str] = &[
    "alpha", "beta", "Gamma", "delta", "echo", "fox", "golf", "hotel", "café", "x1",
];

fn words() -> impl Strategy<Value = Vec<&'static str>> {
    prop::collection::vec(prop::sample::select(WORDS), 1..5)
}

fn sentence(ws: &[&str]) -> String {
    ws.join(" ")
}

/// An HTML block: (kind, words of each element in it).
fn html_doc() -> impl Strategy<Value = String> {
    let block = (
        0u8..4,
        prop::collection::vec(words(), 1..4),
        any::<bool>(),
        any::<bool>(),
    );
    prop::collection::vec(block, 1..7).prop_map(|blocks| {
        let mut n = 0;
        let mut next = || {
            n += 1;
            format!("c{n:08x}")
        };
        let mut out = String::from("<!doctype html>\n<html><head><title>T</title></head><body>\n");
        for (kind, parts, bold, closed) in blocks {
            let text = |ws: &Vec<&str>| {
                let mut s = sentence(ws);
                if bold && ws.len() > 1 {
                    s = format!("<b>{}</b> {}", ws[0], sentence(&ws[1..]));
                }
                s.replace("café", "caf&eacute;")
            };
            match kind {
                // Attributes and comments that hold words of the text, for redaction to scrub.
                0 => out.push_str(&format!(
                    "<p data-canon-id=\"{}\" title=\"{}\">{}</p>\n<!-- {} -->\n",
                    next(),
                    sentence(&parts[parts.len() - 1]),
                    text(&parts[0]),
                    sentence(&parts[0])
                )),
                1 => out.push_str(&format!(
                    "<h2 data-canon-id=\"{}\">{}</h2>\n",
                    next(),
                    text(&parts[0])
                )),
                2 => {
                    out.push_str("<ul>\n");
                    for p in &parts {
                        let end = if closed { "</li>" } else { "" };
                        out.push_str(&format!(
                            "  <li data-canon-id=\"{}\">{}{end}\n",
                            next(),
                            text(p)
                        ));
                    }
                    out.push_str("</ul>\n");
                }
                _ => {
                    out.push_str("<table>\n<tr>");
                    for p in &parts {
                        let end = if closed { "</td>" } else { "" };
                        out.push_str(&format!(
                            "<td data-canon-id=\"{}\">{}{end}",
                            next(),
                            text(p)
                        ));
                    }
                    out.push_str("</tr>\n</table>\n");
                }
            }
        }
        out.push_str("</body></html>\n");
        out
    })
}

fn md_doc() -> impl Strategy<Value = String> {
    let block = (
        0u8..6,
        prop::collection::vec(words(), 1..4),
        any::<bool>(),
        any::<bool>(),
    );
    prop::collection::vec(block, 1..7).prop_map(|blocks| {
        let mut n = 0;
        let mut out = String::from("---\ntitle: t\n---\n");
        for (kind, parts, bold, named) in blocks {
            let mut tag = || {
                n += 1;
                if named {
                    format!(" ^id{n}")
                } else {
                    String::new()
                }
            };
            let text = |ws: &Vec<&str>| {
                if bold && ws.len() > 1 {
                    format!("**{}** {}", ws[0], sentence(&ws[1..]))
                } else {
                    sentence(ws)
                }
            };
            let block = match kind {
                // A link whose target holds a word, and a comment holding the text: hidden
                // places a redaction scrubs.
                0 => format!(
                    "{} [{w}](https://example.com/{w}){}\n\n%% {} %%",
                    text(&parts[0]),
                    tag(),
                    sentence(&parts[0]),
                    w = parts[parts.len() - 1][0]
                ),
                1 => format!("## {}{}", text(&parts[0]), tag()),
                2 => parts
                    .iter()
                    .map(|p| format!("- {}{}", text(p), tag()))
                    .collect::<Vec<_>>()
                    .join("\n"),
                3 => format!(
                    "> {}",
                    parts.iter().map(text).collect::<Vec<_>>().join("\n> ")
                ),
                4 => format!(
                    "```\n{}\n```",
                    parts
                        .iter()
                        .map(|p| sentence(p))
                        .collect::<Vec<_>>()
                        .join("\n")
                ),
                _ => {
                    let row = |p: &Vec<&str>| format!("| {} | {} |", p[0], p[p.len() - 1]);
                    let mut t = format!("{}\n|---|---|", row(&parts[0]));
                    for p in &parts[1..] {
                        t.push('\n');
                        t.push_str(&row(p));
                    }
                    t
                }
            };
            out.push_str(&block);
            out.push_str("\n\n");
        }
        out
    })
}

/// An edit of the element at `pick` (modulo the count), with words from `ws`.
fn edit(doc: &Document, kind: u8, pick: usize, ws: (&str, &str)) -> Edit {
    let els = doc.elements();
    let el = &els[pick % els.len()];
    let element_id = el.id.clone();
    match kind {
        0 => Edit::ReplaceText {
            element_id,
            old_text: el.text.split(' ').next().unwrap_or("x").to_string(),
            new_text: ws.0.to_string(),
        },
        1 => Edit::RedactElement { element_id },
        2 => Edit::AddHighlight { element_id },
        3 => Edit::AddComment {
            element_id,
            comment: format!("{} {}", ws.0, ws.1),
        },
        4 => Edit::DeleteElement { element_id },
        5 => Edit::FindAndReplaceAll {
            find: ws.0.to_string(),
            replace: ws.1.to_string(),
            case_sensitive: pick.is_multiple_of(2),
        },
        _ => Edit::RedactAllMatching {
            pattern: ws.0.to_string(),
        },
    }
}

fn check(format: Format, old: &Document, e: &Edit, a: &Applied) -> Result<(), TestCaseError> {
    let (old_text, new) = (old.text(), a.text.as_str());
    prop_assert!(a.span.start <= a.span.end && a.span.end <= new.len());
    // Bytes before and after the touched span are the old ones, except where a redaction
    // scrubbed what it redacted from attributes and comments.
    let scrubbed = match e {
        Edit::RedactAllMatching { .. } => true,
        Edit::RedactElement { element_id } => {
            // Scrubbing happens where a redacted string also stands outside the element.
            let span = old
                .element(element_id)
                .map(|el| el.span.clone())
                .unwrap_or(0..0);
            let outside = format!("{} {}", &old_text[..span.start], &old_text[span.end..]);
            let norm = |s: &str| {
                s.split_whitespace()
                    .collect::<Vec<_>>()
                    .join(" ")
                    .to_lowercase()
            };
            let outside = norm(&outside);
            a.redacted.iter().any(|r| outside.contains(&norm(r)))
        }
        _ => false,
    };
    if format == Format::Markdown && matches!(e, Edit::RedactElement { .. }) {
        // No comment keeps a redacted string.
        let norm = |s: &str| {
            s.split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
                .to_lowercase()
        };
        let comments = regex::Regex::new(r"(?s)%%(.*?)%%").unwrap_or_else(|_| unreachable!());
        for c in comments.captures_iter(new) {
            let value = norm(c.get(1).map_or("", |m| m.as_str()));
            for r in a.redacted.iter().filter(|r| r.chars().count() >= 3) {
                prop_assert!(
                    !value.contains(&norm(r)),
                    "{:?} left {:?} in {:?}",
                    e,
                    r,
                    value
                );
            }
        }
    }
    if format == Format::Html && matches!(e, Edit::RedactElement { .. }) {
        // No title attribute and no comment keeps a redacted string.
        let norm = |s: &str| {
            htmlize::unescape(s)
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
                .to_lowercase()
        };
        let hidden =
            regex::Regex::new(r#"title="([^"]*)"|<!--(.*?)-->"#).unwrap_or_else(|_| unreachable!());
        for c in hidden.captures_iter(new) {
            let value = norm(c.get(1).or(c.get(2)).map_or("", |m| m.as_str()));
            for r in a.redacted.iter().filter(|r| r.chars().count() >= 3) {
                prop_assert!(
                    !value.contains(&norm(r)),
                    "{:?} left {:?} in {:?}",
                    e,
                    r,
                    value
                );
            }
        }
    }
    let suffix = &new[a.span.end..];
    if !scrubbed {
        prop_assert_eq!(
            old_text.get(..a.span.start),
            new.get(..a.span.start),
            "prefix of {:?}",
            e
        );
        prop_assert!(
            old_text.ends_with(suffix),
            "suffix of {:?}: {:?}",
            e,
            suffix
        );
        let touched_end = old
            .elements()
            .iter()
            .filter(|el| a.touched.contains(&el.id))
            .map(|el| el.span.end)
            .max()
            .unwrap_or(0);
        prop_assert!(
            old_text.len() - suffix.len() >= touched_end,
            "{:?} left the suffix inside the element",
            e
        );
    }
    let after = Document::parse(format, new.as_bytes());
    prop_assert!(
        after.is_ok(),
        "{:?} gave an unreadable document: {:?}",
        e,
        after.err()
    );
    let after = after.unwrap_or_else(|_| unreachable!());
    let touched: HashSet<&String> = a.touched.iter().collect();
    let deleted = matches!(e, Edit::DeleteElement { .. });
    // A delete removes its element (later `b<N>` shift); other edits keep every element in place.
    let pairs: Vec<_> = if deleted {
        let kept: Vec<_> = old
            .elements()
            .iter()
            .filter(|el| !touched.contains(&el.id))
            .collect();
        prop_assert_eq!(kept.len(), after.elements().len(), "{:?}", e);
        kept.into_iter().zip(after.elements()).collect()
    } else {
        prop_assert_eq!(old.elements().len(), after.elements().len(), "{:?}", e);
        old.elements()
            .iter()
            .zip(after.elements())
            .filter(|(k, _)| !touched.contains(&k.id))
            .collect()
    };
    for (k, n) in pairs {
        prop_assert_eq!(&k.tag, &n.tag, "{:?}", e);
        prop_assert_eq!(&k.text, &n.text, "{:?}", e);
        if format == Format::Html || !deleted || !k.id.starts_with('b') {
            prop_assert_eq!(&k.id, &n.id, "{:?}", e);
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn html_edits_change_only_what_they_touch(
        html in html_doc(),
        steps in prop::collection::vec((0u8..7, any::<usize>(), prop::sample::select(WORDS), prop::sample::select(WORDS)), 1..4),
    ) {
        let mut doc = Document::parse(Format::Html, html.as_bytes()).map_err(|e| TestCaseError::fail(e.to_string()))?;
        for (kind, pick, w1, w2) in steps {
            if doc.elements().is_empty() {
                break;
            }
            let e = edit(&doc, kind, pick, (w1, w2));
            let Ok(a) = doc.apply(&e) else { continue };
            check(Format::Html, &doc, &e, &a)?;
            doc = Document::parse(Format::Html, a.text.as_bytes()).map_err(|e| TestCaseError::fail(e.to_string()))?;
        }
    }

    #[test]
    fn markdown_edits_change_only_what_they_touch(
        md in md_doc(),
        steps in prop::collection::vec((0u8..7, any::<usize>(), prop::sample::select(WORDS), prop::sample::select(WORDS)), 1..4),
    ) {
        let mut doc = Document::parse(Format::Markdown, md.as_bytes()).map_err(|e| TestCaseError::fail(e.to_string()))?;
        for (kind, pick, w1, w2) in steps {
            if doc.elements().is_empty() {
                break;
            }
            let e = edit(&doc, kind, pick, (w1, w2));
            let Ok(a) = doc.apply(&e) else { continue };
            check(Format::Markdown, &doc, &e, &a)?;
            doc = Document::parse(Format::Markdown, a.text.as_bytes()).map_err(|e| TestCaseError::fail(e.to_string()))?;
        }
    }
}
