//! `scan_document`'s deterministic half: reading a query, scanning elements, batching the rest
//! for a model.

use easel_docedit::scan::{Kind, Query, ScanMatch, parse_query, scan, semantic_batches};
use easel_docedit::{DocError, Element};

fn element(id: &str, text: &str) -> Element {
    Element {
        id: id.into(),
        tag: "p".into(),
        text: text.into(),
        span: 0..0,
        page: None,
    }
}

fn kinds(q: &str) -> Vec<Kind> {
    match parse_query(q) {
        Ok(Query::Kinds(kinds)) => kinds,
        other => panic!("{q:?} should name kinds, got {other:?}"),
    }
}

fn is_semantic(q: &str) -> bool {
    matches!(parse_query(q), Ok(Query::Semantic(s)) if s == q.trim())
}

#[test]
fn plain_english_names_kinds() {
    assert_eq!(kinds("emails"), [Kind::Email]);
    assert_eq!(kinds("redact all phone numbers"), [Kind::Phone]);
    assert_eq!(
        kinds("Phone numbers and e-mail addresses"),
        [Kind::Phone, Kind::Email]
    );
    assert_eq!(kinds("all numbers"), Kind::NUMERIC);
    assert_eq!(kinds("numbers"), Kind::NUMERIC);
    assert_eq!(kinds("personal data"), Kind::PERSONAL);
    assert_eq!(kinds("all personal information"), Kind::PERSONAL);
    assert_eq!(kinds("PII"), Kind::PERSONAL);
    assert_eq!(kinds("dates and amounts"), [Kind::Date, Kind::Money]);
    assert_eq!(kinds("credit card numbers"), [Kind::Card]);
    assert_eq!(kinds("bank account numbers"), [Kind::Iban]);
    assert_eq!(kinds("IBANs"), [Kind::Iban]);
    assert_eq!(kinds("links"), [Kind::Url]);
    assert_eq!(kinds("hide the client's bank details"), [Kind::Iban]);
}

#[test]
fn descriptions_are_semantic() {
    assert!(is_semantic("paragraphs that mention the merger"));
    assert!(is_semantic("paragraphs that discuss payment terms"));
    assert!(is_semantic("the names of people"));
    assert!(is_semantic("all postal addresses"));
    assert!(is_semantic("sentences about money"));
    // Names need the model; the phone numbers alone would drop them.
    assert!(is_semantic("names and phone numbers"));
    assert!(is_semantic("all numbers except the year"));
}

#[test]
fn quotes_and_regexes() {
    assert!(matches!(parse_query("\"Project X\""), Ok(Query::Quoted(s)) if s == "Project X"));
    assert!(matches!(parse_query("'Project X'"), Ok(Query::Quoted(s)) if s == "Project X"));
    assert!(
        matches!(parse_query("every mention of “Project X”"), Ok(Query::Quoted(s)) if s == "Project X")
    );
    // An apostrophe is not a quote.
    assert!(is_semantic("the client's complaints"));
    let Ok(Query::Regex(re)) = parse_query("/\\bACME\\b/i") else {
        panic!("a /regex/ with a flag is a regex");
    };
    assert!(re.is_match("acme corp") && !re.is_match("acmes"));
    assert!(matches!(
        parse_query("lines matching /INV-\\d+/"),
        Ok(Query::Regex(_))
    ));
}

#[test]
fn bad_queries_say_what_is_wrong() {
    assert!(matches!(
        parse_query("/(unclosed/"),
        Err(DocError::BadPattern { .. })
    ));
    assert!(matches!(
        parse_query("//"),
        Err(DocError::BadPattern { .. })
    ));
    assert!(matches!(parse_query("  "), Err(DocError::Invalid { .. })));
    assert!(matches!(parse_query("\"\""), Err(DocError::Invalid { .. })));
    let Err(err) = parse_query("/a{99999999}/") else {
        panic!("a pattern too large to compile is refused");
    };
    assert!(err.to_string().contains("a{99999999}"), "{err}");
}

#[test]
fn scan_gives_each_match_with_why_in_element_order() {
    let elements = [
        element("c1", "Mail jane@acme.com or call +44 20 7946 0958."),
        element("c2", "Nothing here."),
        element(
            "c3",
            "Pay DE89 3704 0044 0532 0130 00 by 27/11/2026, or bob@acme.com.",
        ),
    ];
    let personal = scan(
        &elements,
        &parse_query("personal data").unwrap_or(Query::Kinds(vec![])),
    );
    let got: Vec<(&str, &str, &str)> = personal
        .iter()
        .map(|m| (m.id.as_str(), m.text.as_str(), m.why.as_str()))
        .collect();
    assert_eq!(
        got,
        [
            ("c1", "jane@acme.com", "email"),
            ("c1", "+44 20 7946 0958", "phone number"),
            (
                "c3",
                "DE89 3704 0044 0532 0130 00",
                "IBAN (check digits valid)"
            ),
            ("c3", "bob@acme.com", "email"),
        ]
    );
    let json = serde_json::to_value(&personal[0]).unwrap_or_default();
    assert_eq!(
        json,
        serde_json::json!({"id": "c1", "text": "jane@acme.com", "why": "email"})
    );
}

#[test]
fn quoted_and_regex_scans() {
    let elements = [
        element("a", "Project X starts; project x ends."),
        element("b", "ACME and Acme, not ACMEs."),
    ];
    let quoted = scan(&elements, &Query::Quoted("Project X".into()));
    assert_eq!(
        quoted,
        [
            ScanMatch {
                id: "a".into(),
                text: "Project X".into(),
                why: "contains \"Project X\"".into()
            },
            ScanMatch {
                id: "a".into(),
                text: "project x".into(),
                why: "contains \"Project X\"".into()
            },
        ]
    );
    let Ok(query) = parse_query("/\\bACME\\b/i") else {
        panic!("valid regex");
    };
    let texts: Vec<String> = scan(&elements, &query)
        .into_iter()
        .map(|m| m.text)
        .collect();
    assert_eq!(texts, ["ACME", "Acme"]);
    let Ok(empty) = parse_query("/z*/") else {
        panic!("valid regex");
    };
    assert!(
        scan(&elements, &empty).is_empty(),
        "empty matches show nothing"
    );
    assert!(scan(&elements, &Query::Semantic("the merger".into())).is_empty());
}

#[test]
fn semantic_batches_respect_the_size() {
    let elements = [
        element("a", "12345"),
        element("b", "1234"),
        element("c", "é23"),
        element("d", ""),
        element("e", "a text longer than the batch"),
        element("f", "1"),
    ];
    let batches = semantic_batches(&elements, 10);
    let ids: Vec<Vec<&str>> = batches
        .iter()
        .map(|b| b.iter().map(|e| e.id.as_str()).collect())
        .collect();
    // `é23` is three characters: a+b is 9, a+b+c would be 12.
    assert_eq!(ids, [vec!["a", "b"], vec!["c"], vec!["e"], vec!["f"]]);
}
