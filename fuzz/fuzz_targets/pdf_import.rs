//! Any bytes as a PDF: `pdf_to_html` gives a document or a `DocError::Pdf`, never a panic that
//! escapes it, and an accepted document has one section per page and unique, well-formed ids.
#![no_main]

use std::collections::HashSet;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // libfuzzer-sys's panic hook aborts on every panic. `pdf_to_html` wraps it at its first call
    // in a hook that stays silent about the PDF reader's panics, which it catches and reports,
    // and hands any other panic to libfuzzer-sys's hook: that one is still a crash.
    let doc = match easel_docedit::pdf_to_html(data, "fuzz <&>") {
        Ok(doc) => doc,
        Err(easel_docedit::DocError::Pdf { message }) => {
            assert!(!message.is_empty());
            return;
        }
        Err(other) => panic!("not a Pdf error: {other:?}"),
    };
    assert_eq!(doc.html.matches("<section data-page=").count(), doc.pages);
    assert!(doc.html.contains("<title>fuzz &lt;&amp;&gt;</title>"));
    let ids: Vec<&str> = doc
        .html
        .split("data-canon-id=\"")
        .skip(1)
        .filter_map(|rest| rest.get(..9))
        .collect();
    assert_eq!(ids.len(), doc.paragraphs);
    assert!(ids.iter().all(|id| id.starts_with('c')
        && id[1..].bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))));
    assert_eq!(ids.iter().collect::<HashSet<_>>().len(), ids.len());
});
