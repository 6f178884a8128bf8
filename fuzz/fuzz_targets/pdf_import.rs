//! Any bytes as a PDF: `pdf_to_html` gives a document or a `DocError::Pdf`, never a panic that
//! escapes it, and an accepted document has one section per page and unique, well-formed ids.
#![no_main]

use std::collections::HashSet;
use std::sync::Once;

use libfuzzer_sys::fuzz_target;

static QUIET_PANICS: Once = Once::new();

fuzz_target!(|data: &[u8]| {
    // libfuzzer-sys's panic hook aborts on every panic, even one that `pdf_to_html` catches
    // from the PDF reader and turns into an error. A panic that escapes is still a crash: the
    // harness catches the unwind and aborts.
    QUIET_PANICS.call_once(|| std::panic::set_hook(Box::new(|_| {})));
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
