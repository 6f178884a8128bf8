//! What every registered operation promises to every front end.

#![allow(clippy::unwrap_used)]

use easel_ops::{Actor, Ctx, Effect, ErrorKind, Registry};
use serde_json::{Value, json};

fn registry() -> Registry {
    let mut r = Registry::new();
    easel_ops::register(&mut r);
    r
}

#[test]
fn every_operation_is_named_described_and_has_an_object_schema() {
    let r = registry();
    let mut names = std::collections::HashSet::new();
    for info in r.infos() {
        assert!(names.insert(info.name.clone()), "{} twice", info.name);
        assert!(easel_core::is_operation_name(&info.name), "{}", info.name);
        assert!(info.name.contains('_'), "{} has no area prefix", info.name);
        assert!(!info.title.is_empty(), "{}", info.name);
        assert!(
            info.description.contains("Example"),
            "{} has no example",
            info.name
        );
        assert_eq!(info.input_schema["type"], "object", "{}", info.name);
        assert!(info.input_schema.get("$ref").is_none(), "{}", info.name);
        assert!(
            !info.input_schema.to_string().contains("$defs"),
            "{}: subschemas are inline for small models",
            info.name
        );
        // Reads are idempotent; destructive writes are not read-only.
        if info.effect == Effect::Read {
            assert!(info.idempotent, "{}", info.name);
        }
    }
}

#[test]
fn arguments_are_checked_against_the_schema_with_a_hint_naming_them() {
    let dir = tempfile::tempdir().unwrap();
    let ctx = Ctx::new(easel_vault::Vault::open(dir.path()).unwrap(), Actor::cli());
    let r = registry();
    let e = r.call(&ctx, "canvas_read", json!({})).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Invalid);
    assert!(
        e.message.contains("the argument 'path' is missing"),
        "{}",
        e.message
    );
    assert!(
        e.hint
            .contains("`canvas_read` takes: path (string, required)"),
        "{}",
        e.hint
    );
    let e = r
        .call(
            &ctx,
            "canvas_add_node",
            json!({"path": "a", "type": "circle"}),
        )
        .unwrap_err();
    assert!(e.message.contains("circle"), "{}", e.message);
    assert!(
        e.hint
            .contains("type (one of text|file|link|group, required)"),
        "{}",
        e.hint
    );
    let e = r.call(&ctx, "canvas_list", json!([1, 2])).unwrap_err();
    assert!(e.message.contains("must be a JSON object"), "{}", e.message);
    // A whole argument object sent as text is read.
    let out = r
        .call(
            &ctx,
            "canvas_list",
            Value::from("{\"recursive\": \"false\"}"),
        )
        .unwrap();
    assert!(out.json.contains("\"total\":0"));
}

#[test]
fn unknown_operations_suggest_the_nearest_names() {
    let dir = tempfile::tempdir().unwrap();
    let ctx = Ctx::new(easel_vault::Vault::open(dir.path()).unwrap(), Actor::cli());
    let e = registry().call(&ctx, "canvas_raed", json!({})).unwrap_err();
    assert_eq!(e.kind, ErrorKind::NotFound);
    assert!(e.hint.contains("`canvas_read`"), "{}", e.hint);
    let e = registry().call(&ctx, "xyzzy", json!({})).unwrap_err();
    assert!(e.hint.contains("`note_read`"), "{}", e.hint);
}

#[test]
fn typed_and_json_calls_give_the_same_output() {
    use easel_ops::Op;
    let dir = tempfile::tempdir().unwrap();
    let ctx = Ctx::new(easel_vault::Vault::open(dir.path()).unwrap(), Actor::cli());
    let r = registry();
    r.call(
        &ctx,
        "canvas_write",
        json!({"path": "A", "nodes": [{"id": "n", "type": "text", "text": "x", "x": 1.5}]}),
    )
    .unwrap();
    let typed = easel_ops::canvas::CanvasRead::default()
        .run(&ctx, easel_ops::canvas::PathInput { path: "A".into() })
        .unwrap();
    let via_json = r.call(&ctx, "canvas_read", json!({"path": "A"})).unwrap();
    assert_eq!(serde_json::to_string(&typed).unwrap(), via_json.json);
    // Served from the kept output the second time, still the same.
    let again = r.call(&ctx, "canvas_read", json!({"path": "A"})).unwrap();
    assert_eq!(again.json, via_json.json);
}
