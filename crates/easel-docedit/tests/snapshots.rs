//! Snapshots of representative edits: what a reviewer sees in the diff of a document.

use easel_docedit::{Document, Edit, Format, add_ids};

const REPORT: &str = r#"<!DOCTYPE html>
<html><head><title>Case 4411: Jane Roe</title>
<meta name="description" content="Complaint by jane.roe@example.com"></head>
<body>
<section data-page="1">
<h1>Complaint</h1>
<p>Filed by <a href="mailto:jane.roe@example.com">Jane Roe</a>, phone 555-0142.</p>
<ul><li>First visit<li>Second visit</ul>
<!-- reviewer: ask jane.roe@example.com -->
</section>
</body></html>
"#;

const NOTE: &str = "---\naliases: [case 4411]\ncontact: jane.roe@example.com\n---\n# Case 4411\n\n\
Filed by [Jane Roe](mailto:jane.roe@example.com), phone 555-0142. ^filed\n\n\
- First visit\n- Second visit\n\n%% ask jane.roe@example.com %%\n";

#[test]
fn html_ids_then_edits() {
    fastrand::seed(4411);
    let with_ids = add_ids(REPORT).expect("ids");
    insta::assert_snapshot!("html_add_ids", with_ids.text);
    let doc = Document::parse(Format::Html, with_ids.text.as_bytes()).expect("parses");
    insta::assert_json_snapshot!("html_elements", doc.elements());
    let filed = doc.elements()[1].id.clone();
    let redacted = doc
        .apply(&Edit::RedactElement {
            element_id: filed.clone(),
        })
        .expect("redacts");
    insta::assert_snapshot!(
        "html_redact_element",
        format!(
            "{}\n{:?}\n{}",
            redacted.summary, redacted.redacted, redacted.text
        )
    );
    let item = doc.elements()[2].id.clone();
    let commented = doc
        .apply(&Edit::AddComment {
            element_id: item,
            comment: "Date <unknown> & unconfirmed".into(),
        })
        .expect("comments");
    insta::assert_snapshot!(
        "html_add_comment",
        commented.text[commented.span].to_string()
    );
    let replaced = doc
        .apply(&Edit::FindAndReplaceAll {
            find: "visit".into(),
            replace: "hearing".into(),
            case_sensitive: false,
        })
        .expect("replaces");
    insta::assert_snapshot!(
        "html_find_and_replace_all",
        format!("{}\n{}", replaced.summary, replaced.text)
    );
}

#[test]
fn markdown_edits() {
    let doc = Document::parse(Format::Markdown, NOTE.as_bytes()).expect("parses");
    insta::assert_json_snapshot!("md_elements", doc.elements());
    let redacted = doc
        .apply(&Edit::RedactElement {
            element_id: "filed".into(),
        })
        .expect("redacts");
    insta::assert_snapshot!(
        "md_redact_element",
        format!(
            "{}\n{:?}\n{}",
            redacted.summary, redacted.redacted, redacted.text
        )
    );
    let highlighted = doc
        .apply(&Edit::AddHighlight {
            element_id: "b3".into(),
        })
        .expect("highlights");
    let then = Document::parse(Format::Markdown, highlighted.text.as_bytes()).expect("parses");
    let commented = then
        .apply(&Edit::AddComment {
            element_id: "b3".into(),
            comment: "which day?".into(),
        })
        .expect("comments");
    insta::assert_snapshot!("md_highlight_and_comment", commented.text);
    let numbers = doc
        .apply(&Edit::RedactAllMatching {
            pattern: r"/\d{3}-\d{4}/".into(),
        })
        .expect("redacts");
    insta::assert_snapshot!(
        "md_redact_all_matching",
        format!("{}\n{}", numbers.summary, numbers.text)
    );
}
