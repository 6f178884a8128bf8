//! HTML documents: elements, ids, the seven edits, true redaction and bad input.

use easel_core::{Diagnose, ErrorKind};
use easel_docedit::{DocError, Document, Edit, Format, add_ids};

fn doc(html: &str) -> Document {
    Document::parse(Format::Html, html.as_bytes()).expect("parses")
}

fn id(edit: fn(String) -> Edit, id: &str) -> Edit {
    edit(id.to_string())
}

fn redact(e: &str) -> Edit {
    Edit::RedactElement {
        element_id: e.into(),
    }
}

#[test]
fn elements_have_tag_text_span_and_page() {
    let html = "<!doctype html><html><head><title>T</title><style>p{}</style></head><body>\n\
        <section data-page=\"3\"><p data-canon-id=\"c1\">Fish &amp; <b>chips</b>\n   today<script>var x = 'no';</script></p>\n\
        <img data-canon-id=\"c2\" alt=\"a cat\"><br data-canon-id=\"c3\"/></section>\n\
        <h2 data-canon-id=\"c4\">  Heading &#64; two </h2></body></html>";
    let d = doc(html);
    let els = d.elements();
    let ids: Vec<&str> = els.iter().map(|e| e.id.as_str()).collect();
    assert_eq!(ids, ["c1", "c2", "c3", "c4"]);
    assert_eq!(els[0].tag, "p");
    assert_eq!(els[0].text, "Fish & chips today");
    assert_eq!(els[0].page, Some(3));
    assert!(html[els[0].span.clone()].starts_with("<p data-canon-id"));
    assert!(html[els[0].span.clone()].ends_with("</script></p>"));
    assert_eq!(
        &html[els[1].span.clone()],
        "<img data-canon-id=\"c2\" alt=\"a cat\">"
    );
    assert_eq!(els[1].text, "");
    assert_eq!(&html[els[2].span.clone()], "<br data-canon-id=\"c3\"/>");
    assert_eq!(els[3].text, "Heading @ two");
    assert_eq!(els[3].page, None);
}

#[test]
fn unclosed_elements_end_where_a_browser_closes_them() {
    let html = "<body><p data-canon-id=\"a\">one\n<p data-canon-id=\"b\">two\n<div>x</div>\
        <ul><li data-canon-id=\"c\">three\n  <li data-canon-id=\"d\">four</ul>\
        <table><tr><td data-canon-id=\"e\">five<td data-canon-id=\"f\">six\n<tr><td data-canon-id=\"g\">seven</table>";
    let d = doc(html);
    let span = |i: &str| &html[d.element(i).unwrap().span.clone()];
    assert_eq!(span("a"), "<p data-canon-id=\"a\">one");
    assert_eq!(span("b"), "<p data-canon-id=\"b\">two");
    assert_eq!(span("c"), "<li data-canon-id=\"c\">three");
    assert_eq!(span("d"), "<li data-canon-id=\"d\">four");
    assert_eq!(span("e"), "<td data-canon-id=\"e\">five");
    assert_eq!(span("f"), "<td data-canon-id=\"f\">six");
    assert_eq!(span("g"), "<td data-canon-id=\"g\">seven");
    assert_eq!(d.element("b").unwrap().text, "two");
}

#[test]
fn duplicate_ids_are_an_error_naming_the_id() {
    let err = Document::parse(
        Format::Html,
        b"<p data-canon-id=\"x1\">a</p><p data-canon-id=\"x1\">b</p>",
    )
    .unwrap_err();
    assert!(matches!(err, DocError::Malformed { .. }));
    assert!(err.to_string().contains("'x1'"), "{err}");
    assert!(err.to_string().contains("line 1"), "{err}");
}

#[test]
fn add_ids_inserts_only_the_attributes_and_is_idempotent() {
    let html = "<html><head><title>Not me</title></head><body>\n\
        <div>Direct text<p>Para &amp; more</p></div>\n<div><p>Inside</p></div>\n\
        <blockquote><p>Quoted</p></blockquote>\n<ul><li>One<li>Two</ul>\n\
        <table><tr><th>H</th><td>Cell</td><td> </td></tr></table>\n\
        <p data-canon-id=\"c00000001\">Has one</p><pre>code</pre><script>var t = 'x';</script>\n\
        <section>Sec</section><article><h1 class=\"big\">Title</h1></article><p></p></body></html>";
    let added = add_ids(html).unwrap();
    assert_eq!(added.added, 11);
    let re = regex::Regex::new(r#" data-canon-id="c[0-9a-f]{8}""#).unwrap();
    let mut stripped = added.text.clone();
    for m in re
        .find_iter(&added.text)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
    {
        if m.as_str() != " data-canon-id=\"c00000001\"" {
            stripped.replace_range(m.range(), "");
        }
    }
    assert_eq!(stripped, html);
    let d = doc(&added.text);
    let tags: Vec<&str> = d.elements().iter().map(|e| e.tag.as_str()).collect();
    assert_eq!(
        tags,
        [
            "div", "p", "p", "p", "li", "li", "th", "td", "p", "pre", "section", "h1"
        ]
    );
    let again = add_ids(&added.text).unwrap();
    assert_eq!(again.added, 0);
    assert_eq!(again.text, added.text);
}

#[test]
fn replace_text_changes_the_first_occurrence_and_escapes() {
    let html = "<p data-canon-id=\"p\">Tom &amp; Jerry and Tom</p><p data-canon-id=\"q\">Tom</p>";
    let d = doc(html);
    let a = d
        .apply(&Edit::ReplaceText {
            element_id: "p".into(),
            old_text: "& Jerry".into(),
            new_text: "<Spike> & co".into(),
        })
        .unwrap();
    assert_eq!(
        a.text,
        "<p data-canon-id=\"p\">Tom &lt;Spike&gt; &amp; co and Tom</p><p data-canon-id=\"q\">Tom</p>"
    );
    assert_eq!(
        &a.text[a.span.clone()],
        "<p data-canon-id=\"p\">Tom &lt;Spike&gt; &amp; co and Tom</p>"
    );
    assert_eq!(a.touched, ["p"]);
    assert_eq!(a.summary, "replace_text p");
    assert_eq!(
        doc(&a.text).element("p").unwrap().text,
        "Tom <Spike> & co and Tom"
    );
}

#[test]
fn replace_text_across_inline_tags_is_refused_clearly() {
    let d = doc("<p data-canon-id=\"p\">Hello <b>big</b> world</p>");
    let err = d
        .apply(&Edit::ReplaceText {
            element_id: "p".into(),
            old_text: "big world".into(),
            new_text: "x".into(),
        })
        .unwrap_err();
    assert!(err.to_string().contains("split by markup"), "{err}");
    assert!(err.hint().contains("within one run"));
    let ok = d
        .apply(&Edit::ReplaceText {
            element_id: "p".into(),
            old_text: "big".into(),
            new_text: "small".into(),
        })
        .unwrap();
    assert_eq!(
        ok.text,
        "<p data-canon-id=\"p\">Hello <b>small</b> world</p>"
    );
}

#[test]
fn attributes_go_after_the_last_one_whatever_the_quoting() {
    let d = doc("<p data-canon-id=a/>one<br><p data-canon-id='b' >two</p>");
    assert_eq!(d.element("a/").unwrap().text, "one");
    let a = d
        .apply(&Edit::AddComment {
            element_id: "a/".into(),
            comment: "c".into(),
        })
        .unwrap();
    assert!(
        a.text
            .starts_with("<p data-canon-id=a/ data-canon-comment=\"c\">one"),
        "{}",
        a.text
    );
    let b = d.apply(&redact("b")).unwrap();
    assert!(
        b.text
            .ends_with("<p data-canon-id='b' data-canon-redacted=\"\" >███</p>"),
        "{}",
        b.text
    );
}

#[test]
fn highlight_comment_and_delete() {
    let html = "<ul>\n  <li data-canon-id=\"a\" class=\"x\">First</li>\n  <li data-canon-id=\"b\">Second</li>\n</ul>";
    let d = doc(html);
    let hl = d
        .apply(&id(|e| Edit::AddHighlight { element_id: e }, "a"))
        .unwrap();
    assert_eq!(
        &hl.text[hl.span.clone()],
        "<li data-canon-id=\"a\" class=\"x\"><mark>First</mark></li>"
    );
    let c1 = d
        .apply(&Edit::AddComment {
            element_id: "b".into(),
            comment: "check \"this\" & that".into(),
        })
        .unwrap();
    assert_eq!(
        &c1.text[c1.span.clone()],
        "<li data-canon-id=\"b\" data-canon-comment=\"check &quot;this&quot; &amp; that\">Second</li>"
    );
    let c2 = doc(&c1.text)
        .apply(&Edit::AddComment {
            element_id: "b".into(),
            comment: "again".into(),
        })
        .unwrap();
    assert!(
        c2.text
            .contains("data-canon-comment=\"check &quot;this&quot; &amp; that\nagain\"")
    );
    let del = d
        .apply(&id(|e| Edit::DeleteElement { element_id: e }, "a"))
        .unwrap();
    assert_eq!(
        del.text,
        "<ul>\n  <li data-canon-id=\"b\">Second</li>\n</ul>"
    );
    assert!(del.span.is_empty());
    assert_eq!(del.span.start, 5);
}

#[test]
fn bulk_edits_touch_every_element_with_a_match() {
    let html = "<head><title>ACME</title></head><p data-canon-id=\"a\">Acme and acme</p>\
        <p data-canon-id=\"b\">nothing</p><p data-canon-id=\"c\">ACME<!-- acme --></p>";
    let d = doc(html);
    let a = d
        .apply(&Edit::FindAndReplaceAll {
            find: "acme".into(),
            replace: "Initech".into(),
            case_sensitive: false,
        })
        .unwrap();
    assert_eq!(a.touched, ["a", "c"]);
    assert_eq!(
        a.summary,
        "find_and_replace_all 'acme' → 'Initech' (2 elements)"
    );
    assert!(a.text.contains("<title>ACME</title>"));
    assert!(a.text.contains("Initech and Initech"));
    assert!(a.text.contains("<!-- acme -->"));
    let cs = d
        .apply(&Edit::FindAndReplaceAll {
            find: "acme".into(),
            replace: "x".into(),
            case_sensitive: true,
        })
        .unwrap();
    assert_eq!(cs.touched, ["a"]);
    let none = d
        .apply(&Edit::FindAndReplaceAll {
            find: "zebra".into(),
            replace: "x".into(),
            case_sensitive: false,
        })
        .unwrap_err();
    assert!(matches!(none, DocError::NoMatch { .. }));
}

#[test]
fn redact_all_matching_blots_every_match_and_scrubs() {
    let html = "<p data-canon-id=\"a\" title=\"since 2019\">Born 1984, moved 2001.</p>\
        <p data-canon-id=\"b\">No years</p><p data-canon-id=\"c\">In 2019</p>";
    let a = doc(html)
        .apply(&Edit::RedactAllMatching {
            pattern: r"/\d{4}/".into(),
        })
        .unwrap();
    assert_eq!(
        a.text,
        "<p data-canon-id=\"a\" title=\"since ████\">Born ████, moved ████.</p>\
        <p data-canon-id=\"b\">No years</p><p data-canon-id=\"c\">In ████</p>"
    );
    assert_eq!(a.touched, ["a", "c"]);
    assert!(a.redacted.contains(&"1984".to_string()));
    let bad = doc(html).apply(&Edit::RedactAllMatching {
        pattern: "/(/".into(),
    });
    assert!(matches!(bad, Err(DocError::BadPattern { .. })));
}

/// The redacted string put everywhere a reader does not look, some of it entity-encoded.
const LEAKY: &str = "<!DOCTYPE html><html><head>\
    <title>File of jane.doe@example.com</title>\
    <meta name=\"author\" content=\"jane.doe&#64;example.com\">\
    <script type=\"application/ld+json\">{\"email\": \"jane.doe@example.com\"}</script>\
    </head><body>\
    <!-- contact: jane.doe&#x40;example.com -->\n\
    <section data-page=\"2\">\
    <p data-canon-id=\"c1a2b3c4d\" title=\"Jane Doe, jane.doe@example.com\" data-owner=\"Jane Doe\">\
    Write to <a href=\"mailto:jane.doe@example.com\" title=\"mail\">Jane Doe</a> or call 555-0100.</p>\
    </section>\
    <p data-canon-id=\"other\"><img alt=\"photo of jane.doe@example.com\" src=\"x.png\">\
    <a href=\"mailto:JANE.DOE@example.com\">mail</a> <input value='jane.doe@example.com'></p>\
    </body></html>";

#[test]
fn redaction_leaves_the_string_nowhere_in_the_file() {
    let d = doc(LEAKY);
    let a = d.apply(&redact("c1a2b3c4d")).unwrap();
    let decoded = htmlize::unescape(a.text.as_str()).to_lowercase();
    for secret in ["jane.doe@example.com", "jane doe", "555-0100"] {
        assert!(
            !decoded.contains(secret),
            "{secret} survives in\n{}",
            a.text
        );
    }
    assert_eq!(a.summary, "redact_element c1a2b3c4d (page 2)");
    assert_eq!(a.touched, ["c1a2b3c4d"]);
    for s in [
        "jane.doe@example.com",
        "Jane Doe",
        "Write to Jane Doe or call 555-0100.",
    ] {
        assert!(
            a.redacted.iter().any(|r| r == s),
            "{s} not in {:?}",
            a.redacted
        );
    }
    let after = doc(&a.text);
    let el = after.element("c1a2b3c4d").unwrap();
    assert!(el.text.chars().all(|c| c == '█'));
    assert_eq!(el.text.chars().count(), 35);
    let html = &a.text[el.span.clone()];
    assert!(html.contains("data-canon-redacted=\"\""), "{html}");
    assert!(!html.contains("title=") && !html.contains("data-owner") && !html.contains("href"));
    assert_eq!(&a.text[a.span.clone()], html);
    // Elsewhere only the redacted strings changed: the other paragraph keeps its id and image.
    assert!(a.text.contains(
        "<p data-canon-id=\"other\"><img alt=\"photo of ████████████████████\" src=\"x.png\">"
    ));
}

#[test]
fn redacting_again_reports_no_blots_as_secrets() {
    let once = doc("<p data-canon-id=\"a\">hotel</p><!-- hotel -->")
        .apply(&redact("a"))
        .unwrap();
    assert_eq!(once.redacted, ["hotel"]);
    let twice = doc(&once.text).apply(&redact("a")).unwrap();
    assert!(twice.redacted.is_empty(), "{:?}", twice.redacted);
    assert_eq!(twice.text, once.text);
}

#[test]
fn redaction_caps_at_forty_and_keeps_the_structure() {
    let long = "x".repeat(100);
    let html = format!(
        "<table data-canon-id=\"t\"><tr><td class=\"k\">{long}</td><td>more</td></tr></table>"
    );
    let a = doc(&html).apply(&redact("t")).unwrap();
    assert_eq!(
        a.text,
        format!(
            "<table data-canon-id=\"t\" data-canon-redacted=\"\"><tr><td>{}</td><td></td></tr></table>",
            "█".repeat(40)
        )
    );
}

#[test]
fn removing_content_touches_the_elements_inside() {
    let html = "<div data-canon-id=\"d\">Intro<p data-canon-id=\"p\">inner</p></div><p data-canon-id=\"q\">x</p>";
    let d = doc(html);
    assert_eq!(d.apply(&redact("d")).unwrap().touched, ["d", "p"]);
    let del = d
        .apply(&Edit::DeleteElement {
            element_id: "d".into(),
        })
        .unwrap();
    assert_eq!(del.touched, ["d", "p"]);
    assert_eq!(del.text, "<p data-canon-id=\"q\">x</p>");
}

#[test]
fn bad_input_is_a_clear_error() {
    let d = doc("<p data-canon-id=\"a\">text</p>");
    let unknown = d.apply(&redact("nope")).unwrap_err();
    assert_eq!(unknown.kind(), ErrorKind::NotFound);
    assert!(unknown.hint().contains("a"), "{}", unknown.hint());
    let missing = d
        .apply(&Edit::ReplaceText {
            element_id: "a".into(),
            old_text: "absent".into(),
            new_text: "x".into(),
        })
        .unwrap_err();
    assert!(matches!(missing, DocError::TextNotInElement { .. }));
    assert_eq!(missing.kind(), ErrorKind::Invalid);
    let binary = Document::parse(Format::Html, b"<p>\0\x01</p>").unwrap_err();
    assert!(matches!(binary, DocError::NotText { .. }));
    let latin1 = Document::parse(Format::Html, b"<p data-canon-id=\"a\">caf\xe9</p>").unwrap_err();
    assert!(matches!(latin1, DocError::NotText { .. }));
    let no_ids = doc("<p>plain</p>");
    assert!(no_ids.elements().is_empty());
    assert!(matches!(no_ids.apply(&redact("a")), Err(DocError::NoIds)));
    let table = doc("<table data-canon-id=\"t\"><tr><td>x</td></tr></table>");
    let mark = table
        .apply(&Edit::AddHighlight {
            element_id: "t".into(),
        })
        .unwrap_err();
    assert!(mark.hint().contains("one by one"));
    let empty = d.apply(&Edit::AddComment {
        element_id: "a".into(),
        comment: "  ".into(),
    });
    assert!(matches!(empty, Err(DocError::Invalid { .. })));
}
