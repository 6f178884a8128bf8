//! Any text as a scan query and as an element's text (`QUERY \0 TEXT`, or the same text for
//! both): reading the query gives a query or an error, never a panic; the structured scanner
//! returns ordered, disjoint, non-empty ranges on char boundaries; the scan's matches are the
//! element's own text.
#![no_main]

use easel_docedit::Element;
use easel_docedit::scan::{parse_query, scan, semantic_batches, structured};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(input) = std::str::from_utf8(data) else {
        return;
    };
    let (query, text) = input.split_once('\0').unwrap_or((input, input));

    let mut end = 0;
    for hit in structured(text) {
        assert!(hit.range.start >= end, "hits out of order or overlapping");
        assert!(hit.range.start < hit.range.end, "an empty hit");
        assert!(text.is_char_boundary(hit.range.start) && text.is_char_boundary(hit.range.end));
        end = hit.range.end;
    }

    let element = Element {
        id: "c00000001".into(),
        tag: "p".into(),
        text: text.to_string(),
        span: 0..0,
        page: None,
    };
    let elements = [element];
    if let Ok(query) = parse_query(query) {
        for m in scan(&elements, &query) {
            assert!(text.contains(&m.text), "a match that is not in the text");
        }
    }
    for batch in semantic_batches(&elements, 64) {
        assert!(!batch.is_empty(), "an empty batch");
    }
});
