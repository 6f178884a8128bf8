//! Every case of the shared validation fixture: the verdict and the offending id and field.
//! A new case in the fixture fails this test until its expectation is added below.

use easel_canvas::{Canvas, Finding, Verdict, validate};

/// (case name, expected findings as (node or edge id, field)); the verdict comes from the file.
const EXPECTED: &[(&str, &[(&str, &str)])] = &[
    ("minimal-empty-object", &[]),
    ("empty-arrays", &[]),
    ("all-node-types", &[]),
    ("unknown-fields-preserved", &[]),
    ("missing-required-node-field", &[("t", "height")]),
    ("text-node-without-text", &[("t", "text")]),
    ("file-node-without-file", &[("f", "file")]),
    ("link-node-without-url", &[("l", "url")]),
    ("subpath-without-hash", &[("f", "subpath")]),
    ("bad-background-style", &[("g", "backgroundStyle")]),
    ("unknown-node-type", &[("w", "type")]),
    ("duplicate-node-id", &[("a", "id")]),
    ("duplicate-edge-id", &[("e", "id")]),
    ("node-and-edge-share-id", &[("x", "id")]),
    ("dangling-edge", &[("e", "toNode")]),
    ("bad-side", &[("e", "fromSide")]),
    ("bad-end", &[("e", "toEnd")]),
    ("edge-defaults", &[]),
    ("preset-and-hex-colors", &[]),
    (
        "nonstandard-colors",
        &[("a", "color"), ("b", "color"), ("c", "color")],
    ),
    ("float-coordinates", &[("a", "x")]),
    ("z-order", &[]),
];

fn subject(f: &Finding) -> (&str, &str) {
    let id = f.node.as_deref().or(f.edge.as_deref()).unwrap_or("");
    (id, f.field.as_deref().unwrap_or(""))
}

#[test]
fn every_fixture_case_gets_its_verdict() {
    let fixture: serde_json::Value =
        serde_json::from_str(include_str!("data/canvas-validation.json")).unwrap();
    let cases = fixture["cases"].as_array().unwrap();
    assert_eq!(
        cases.len(),
        EXPECTED.len(),
        "fixture and expectations differ in size"
    );
    for case in cases {
        let name = case["name"].as_str().unwrap();
        let (_, expected) = EXPECTED
            .iter()
            .find(|(n, _)| *n == name)
            .unwrap_or_else(|| panic!("no expectation for fixture case {name}"));
        let text = serde_json::to_string_pretty(&case["canvas"]).unwrap();
        let canvas = Canvas::parse(&text).unwrap();
        let report = validate(&canvas);
        let verdict = match case["verdict"].as_str().unwrap() {
            "valid" => Verdict::Valid,
            "warning" => Verdict::Warning,
            "error" => Verdict::Error,
            other => panic!("unknown verdict {other}"),
        };
        assert_eq!(report.verdict(), verdict, "{name}: {report:#?}");
        let relevant = if verdict == Verdict::Error {
            &report.errors
        } else {
            &report.warnings
        };
        let got: Vec<_> = relevant.iter().map(subject).collect();
        assert_eq!(got, *expected, "{name}: {report:#?}");
        // Whatever the verdict, the data survives a round trip unchanged.
        let again = Canvas::parse(&canvas.to_obsidian_string()).unwrap();
        assert_eq!(again, canvas, "{name}");
    }
}

#[test]
fn unknown_fields_survive_a_round_trip() {
    let text = r#"{"nodes":[{"x":0,"y":0,"width":250,"height":60,"id":"t","type":"text","text":"hi","styleAttributes":{"shape":"pill"}}],"edges":[],"metadata":{"version":"1.0-1.0"}}"#;
    let out = Canvas::parse(text).unwrap().to_obsidian_string();
    assert!(
        out.contains(r#""styleAttributes":{"shape":"pill"}"#),
        "{out}"
    );
    assert!(
        out.contains("\t\"metadata\":{\"version\":\"1.0-1.0\"}"),
        "{out}"
    );
}
