//! Any bytes as an HTML document and as a Markdown note: reading them, giving ids and one edit
//! of each kind to the first element never panic, and an applied edit's span lies in its text.
#![no_main]

use easel_docedit::{Document, Edit, Format, add_ids};
use libfuzzer_sys::fuzz_target;

fn edits(id: &str, text: &str) -> Vec<Edit> {
    let word = text.split_whitespace().next().unwrap_or("x").to_string();
    vec![
        Edit::ReplaceText {
            element_id: id.into(),
            old_text: word.clone(),
            new_text: "<&\"new\">".into(),
        },
        Edit::RedactElement {
            element_id: id.into(),
        },
        Edit::AddHighlight {
            element_id: id.into(),
        },
        Edit::AddComment {
            element_id: id.into(),
            comment: "a \"comment\" %% <b>".into(),
        },
        Edit::DeleteElement {
            element_id: id.into(),
        },
        Edit::FindAndReplaceAll {
            find: word.clone(),
            replace: "&amp;".into(),
            case_sensitive: false,
        },
        Edit::RedactAllMatching { pattern: word },
    ]
}

fn exercise(format: Format, bytes: &[u8]) {
    let Ok(doc) = Document::parse(format, bytes) else {
        return;
    };
    let Some(first) = doc.elements().first() else {
        return;
    };
    for edit in edits(&first.id, &first.text) {
        if let Ok(applied) = doc.apply(&edit) {
            assert!(applied.span.start <= applied.span.end);
            assert!(applied.text.get(applied.span.clone()).is_some(), "span off the text");
        }
    }
}

fuzz_target!(|data: &[u8]| {
    exercise(Format::Html, data);
    exercise(Format::Markdown, data);
    if let Ok(text) = std::str::from_utf8(data)
        && let Ok(with_ids) = add_ids(text)
    {
        let _ = Document::parse(Format::Html, with_ids.text.as_bytes());
    }
});
