//! Markdown notes: blocks, ids, the seven edits, true redaction and bad input.

use easel_core::{Diagnose, ErrorKind};
use easel_docedit::{DocError, Document, Edit, Format};

fn doc(md: &str) -> Document {
    Document::parse(Format::Markdown, md.as_bytes()).expect("parses")
}

fn redact(e: &str) -> Edit {
    Edit::RedactElement {
        element_id: e.into(),
    }
}

const NOTE: &str = "---\ntags: [x]\n---\n# Plan **now** ^top\n\nFirst *para*\nwith two lines.\n\n\
- one\n- two ^two\n  - nested `code`\n- three\n\n> quoted\n> text\n\n| a | b |\n|---|---|\n| c | d |\n\n\
```rust\nlet x = 1;\n```\n\n%% a comment only %%\n\nLast [link](https://example.com).\n";

#[test]
fn blocks_are_elements_with_ids_tags_and_text() {
    let d = doc(NOTE);
    let got: Vec<(&str, &str, &str)> = d
        .elements()
        .iter()
        .map(|e| (e.id.as_str(), e.tag.as_str(), e.text.as_str()))
        .collect();
    assert_eq!(
        got,
        [
            ("top", "h1", "Plan now"),
            ("b2", "p", "First para with two lines."),
            ("b3", "li", "one"),
            ("two", "li", "two"),
            ("b5", "li", "nested code"),
            ("b6", "li", "three"),
            ("b7", "blockquote", "quoted text"),
            ("b8", "tr", "a b"),
            ("b9", "tr", "c d"),
            ("b10", "pre", "let x = 1;"),
            ("b11", "p", "Last link."),
        ]
    );
    let span = |id: &str| &NOTE[d.element(id).unwrap().span.clone()];
    assert_eq!(span("two"), "- two ^two");
    assert_eq!(span("b7"), "> quoted\n> text");
    assert_eq!(span("b10"), "```rust\nlet x = 1;\n```");
    assert_eq!(d.element("^two").unwrap().id, "two");
}

#[test]
fn edits_keep_markers_and_ids() {
    let d = doc(NOTE);
    let hl = d
        .apply(&Edit::AddHighlight {
            element_id: "two".into(),
        })
        .unwrap();
    assert_eq!(&hl.text[hl.span.clone()], "- ==two== ^two");
    let quote = d
        .apply(&Edit::AddHighlight {
            element_id: "b7".into(),
        })
        .unwrap();
    assert_eq!(&quote.text[quote.span.clone()], "> ==quoted==\n> ==text==");
    let c = d
        .apply(&Edit::AddComment {
            element_id: "top".into(),
            comment: "check  this".into(),
        })
        .unwrap();
    assert_eq!(
        &c.text[c.span.clone()],
        "# Plan **now** %%check this%% ^top"
    );
    let r = d
        .apply(&Edit::ReplaceText {
            element_id: "b2".into(),
            old_text: "two lines".into(),
            new_text: "2 lines".into(),
        })
        .unwrap();
    assert_eq!(&r.text[r.span.clone()], "First *para*\nwith 2 lines.");
    assert_eq!(r.summary, "replace_text b2");
}

#[test]
fn a_comment_after_a_code_block_shifts_no_id() {
    let d = doc(NOTE);
    let c = d
        .apply(&Edit::AddComment {
            element_id: "b10".into(),
            comment: "explain".into(),
        })
        .unwrap();
    assert!(
        c.text
            .contains("```\n\n%%explain%%\n\n%% a comment only %%")
    );
    let after = doc(&c.text);
    let ids: Vec<_> = after.elements().iter().map(|e| (&e.id, &e.text)).collect();
    let before: Vec<_> = d.elements().iter().map(|e| (&e.id, &e.text)).collect();
    assert_eq!(ids, before);
}

#[test]
fn delete_removes_the_block_and_its_blank_line() {
    let d = doc("A\n\nB\n\nC\n");
    let a = d
        .apply(&Edit::DeleteElement {
            element_id: "b2".into(),
        })
        .unwrap();
    assert_eq!(a.text, "A\n\nC\n");
    assert_eq!(a.span, 3..3);
    let after = doc(&a.text);
    assert_eq!(after.element("b2").unwrap().text, "C");
    let items = doc(NOTE)
        .apply(&Edit::DeleteElement {
            element_id: "two".into(),
        })
        .unwrap();
    assert!(items.text.contains("- one\n- three\n"));
    assert_eq!(items.touched, ["two", "b5"]);
    // The last item keeps the blank line that parts its list from the next paragraph.
    let last = doc("- a\n- b\n\nNext\n")
        .apply(&Edit::DeleteElement {
            element_id: "b2".into(),
        })
        .unwrap();
    assert_eq!(last.text, "- a\n\nNext\n");
    assert_eq!(doc(&last.text).elements().len(), 2);
}

#[test]
fn replace_across_syntax_is_refused_clearly() {
    let d = doc(NOTE);
    let err = d
        .apply(&Edit::ReplaceText {
            element_id: "b2".into(),
            old_text: "First para".into(),
            new_text: "x".into(),
        })
        .unwrap_err();
    assert!(
        err.to_string().contains("split by Markdown syntax"),
        "{err}"
    );
    let missing = d
        .apply(&Edit::ReplaceText {
            element_id: "b2".into(),
            old_text: "zebra".into(),
            new_text: "x".into(),
        })
        .unwrap_err();
    assert!(matches!(missing, DocError::TextNotInElement { .. }));
}

const LEAKY: &str = "---\nauthor: Jane Roe <jane.roe@example.com>\n---\n\
Mail [Jane Roe](mailto:jane.roe@example.com) today. ^secret\n\n\
See [her page][p] and ![jane.roe@example.com](pic.png \"jane.roe@example.com\").\n\n\
%% jane.roe@example.com %%\n\n<!-- JANE.ROE@example.com -->\n\n\
[p]: mailto:jane.roe%40example.com \"Jane Roe\"\n";

#[test]
fn redaction_scrubs_links_comments_and_frontmatter() {
    let d = doc(LEAKY);
    let a = d.apply(&redact("secret")).unwrap();
    let lower = a.text.to_lowercase();
    assert!(!lower.contains("jane.roe"), "{}", a.text);
    // The link's text (the name behind the mailto:) is scrubbed as well.
    assert!(!lower.contains("jane roe"), "{}", a.text);
    assert!(!lower.contains("jane.roe%40example.com"), "{}", a.text);
    let el = doc(&a.text);
    let secret = el.element("secret").unwrap();
    assert!(secret.text.chars().all(|c| c == '█'));
    assert!(a.text[a.span.clone()].ends_with(" ^secret"));
    assert!(a.redacted.contains(&"jane.roe@example.com".to_string()));
    // The other paragraph's visible words stay.
    assert!(a.text.contains("See [her page][p] and"));
    // An encoded form (%40) is found too; the reference's label stays so the link still parses.
    assert!(a.text.contains("\n[p]: █"), "{}", a.text);
    assert!(a.text.ends_with("█ \"████████\"\n"), "{}", a.text);
}

#[test]
fn bulk_edits_in_notes() {
    let d = doc("Call 555-0100 now.\n\nNo number.\n\n- 555-0199\n");
    let a = d
        .apply(&Edit::RedactAllMatching {
            pattern: r"/555-\d{4}/".into(),
        })
        .unwrap();
    assert_eq!(a.text, "Call ████████ now.\n\nNo number.\n\n- ████████\n");
    assert_eq!(a.touched, ["b1", "b3"]);
    let f = d
        .apply(&Edit::FindAndReplaceAll {
            find: "NUMBER".into(),
            replace: "digits".into(),
            case_sensitive: false,
        })
        .unwrap();
    assert_eq!(f.text, "Call 555-0100 now.\n\nNo digits.\n\n- 555-0199\n");
    assert_eq!(
        f.summary,
        "find_and_replace_all 'NUMBER' → 'digits' (1 element)"
    );
}

#[test]
fn bad_input_is_a_clear_error() {
    let d = doc(NOTE);
    let err = d.apply(&redact("b99")).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::NotFound);
    assert!(err.hint().contains("top"));
    assert!(matches!(
        Document::parse(Format::Markdown, b"# \xff\xfe"),
        Err(DocError::NotText { .. })
    ));
    assert!(matches!(
        Document::parse(Format::Markdown, b"a\0b"),
        Err(DocError::NotText { .. })
    ));
    let code = d.apply(&Edit::AddHighlight {
        element_id: "b10".into(),
    });
    assert!(matches!(code, Err(DocError::Invalid { .. })));
    // Deleting a table's header row would turn the table into a paragraph.
    let header = d
        .apply(&Edit::DeleteElement {
            element_id: "b8".into(),
        })
        .unwrap_err();
    assert!(header.to_string().contains("header row"), "{header}");
    let row = d
        .apply(&Edit::DeleteElement {
            element_id: "b9".into(),
        })
        .unwrap();
    assert!(
        row.text.contains("| a | b |\n|---|---|\n\n```rust"),
        "{}",
        row.text
    );
}
