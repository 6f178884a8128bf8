//! Operations as MCP tools: the registry's catalogue listed with titles, schemas and
//! annotations from each operation's effect, and a call turned into one `Registry::call`.
//!
//! Everything here is synchronous and transport-free: [`call`] takes the registry, the vault,
//! the actor and the JSON arguments and returns the JSON `easel --json` prints for the
//! operation (compact, as text). The server runs it on a blocking thread.

use crate::error::ToolError;
use base64::Engine;
use easel_core::{Actor, is_operation_name, spell_hint};
use easel_ops::{Ctx, OpError, OpInfo, OpOutput, Registry};
use easel_vault::Vault;
use rmcp::model::{ContentBlock, Tool, ToolAnnotations};
use serde_json::Value as Json;
use std::sync::Arc;

/// The registry's hints name operations in backticks; over MCP an operation is a tool of the
/// same name.
pub fn spell_for_mcp(hint: &str) -> String {
    spell_hint(hint, |op| is_operation_name(op).then(|| op.to_string()))
}

impl From<OpError> for ToolError {
    fn from(e: OpError) -> ToolError {
        ToolError {
            hint: crate::error::hint_for_mcp(&spell_for_mcp(&e.hint)),
            message: e.message,
            kind: e.kind,
        }
    }
}

/// One operation as an MCP tool: name, title, tutorial description, input schema, and
/// annotations from its effect.
pub fn tool_of(info: &OpInfo) -> Tool {
    let schema = match &info.input_schema {
        Json::Object(m) => m.clone(),
        _ => serde_json::Map::new(),
    };
    let effect = info.effect;
    let annotations = ToolAnnotations::new()
        .read_only(effect.is_read_only())
        .destructive(effect.is_destructive())
        .idempotent(info.idempotent)
        .open_world(effect.is_open_world());
    Tool::new(
        info.name.clone(),
        info.description.clone(),
        Arc::new(schema),
    )
    .with_title(info.title.clone())
    .with_annotations(annotations)
}

/// Runs operation `name` of `registry` with `arguments` as `actor`, and returns the result's
/// compact JSON text.
pub fn call(
    registry: &Registry,
    vault: &Vault,
    actor: &Actor,
    name: &str,
    arguments: Option<serde_json::Map<String, Json>>,
) -> Result<String, ToolError> {
    let ctx = Ctx::new(vault.clone(), actor.clone());
    Ok(call_in(registry, &ctx, name, arguments)?.json)
}

/// [`call`] with a prepared context (cancellation, progress), keeping the pictures the
/// operation returned beside its JSON.
pub fn call_in(
    registry: &Registry,
    ctx: &Ctx,
    name: &str,
    arguments: Option<serde_json::Map<String, Json>>,
) -> Result<OpOutput, ToolError> {
    let args = arguments.map_or(Json::Null, Json::Object);
    Ok(registry.call(ctx, name, args)?)
}

/// An operation's output as MCP content: the JSON as one text block, then each picture as an
/// image block (a model client sees the views the code canvas draws).
pub fn content_of(out: OpOutput) -> Vec<ContentBlock> {
    let mut blocks = vec![ContentBlock::text(out.json)];
    for image in out.images {
        blocks.push(ContentBlock::image(
            base64::engine::general_purpose::STANDARD.encode(&image.data),
            image.mime_type,
        ));
    }
    blocks
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use serde_json::json;

    fn args(v: Json) -> Option<serde_json::Map<String, Json>> {
        v.as_object().cloned()
    }

    fn registry() -> Registry {
        let mut r = Registry::new();
        easel_ops::register(&mut r);
        r
    }

    #[test]
    fn every_tool_has_an_object_schema_a_title_and_an_example() {
        for info in registry().infos() {
            let tool = tool_of(info);
            assert_eq!(
                tool.input_schema.get("type"),
                Some(&json!("object")),
                "{}",
                info.name
            );
            assert!(tool.title.is_some(), "{}", info.name);
            assert!(info.description.contains("Example"), "{}", info.name);
        }
    }

    #[test]
    fn annotations_follow_the_effect() {
        let r = registry();
        let ann = |name: &str| tool_of(r.get(name).unwrap().info()).annotations.unwrap();
        for name in [
            "canvas_update_node",
            "canvas_update_edge",
            "ledger_undo",
            "canvas_update",
        ] {
            assert_eq!(ann(name).destructive_hint, Some(true), "{name}");
            assert_eq!(ann(name).read_only_hint, Some(false), "{name}");
        }
        assert_eq!(ann("canvas_read").read_only_hint, Some(true));
        assert_eq!(ann("canvas_add_node").destructive_hint, Some(false));
        assert_eq!(ann("canvas_update_node").idempotent_hint, Some(true));
        assert_eq!(ann("canvas_add_node").idempotent_hint, Some(false));
    }

    #[test]
    fn unknown_arguments_are_refused_with_the_accepted_names() {
        let dir = tempfile::tempdir().unwrap();
        let vault = Vault::open(dir.path()).unwrap();
        let e = call(
            &registry(),
            &vault,
            &Actor::new("mcp:test"),
            "canvas_read",
            args(json!({"path": "a", "colour": "1"})),
        )
        .unwrap_err();
        assert!(e.message.contains("unknown argument 'colour'"), "{e:?}");
        assert!(e.hint.contains("path"), "{e:?}");
        assert!(
            !e.hint.contains('`'),
            "hints name tools without backticks: {e:?}"
        );
    }

    #[test]
    fn stringified_objects_numeric_strings_and_seed_arguments_are_accepted() {
        let dir = tempfile::tempdir().unwrap();
        let vault = Vault::open(dir.path()).unwrap();
        let actor = Actor::new("mcp:test");
        let r = registry();
        call(
            &r,
            &vault,
            &actor,
            "canvas_write",
            args(json!({"path": "a", "data": "{\"nodes\":[]}"})),
        )
        .unwrap();
        let out = call(
            &r,
            &vault,
            &actor,
            "canvas_add_node",
            args(json!({"path": "a", "type": "text", "text": "hi", "x": "10", "y": 20})),
        )
        .unwrap();
        let v: Json = serde_json::from_str(&out).unwrap();
        assert_eq!(v["node"]["x"], 10);
        assert_eq!(v["node"]["y"], 20);
        // Seed 000's own arguments: nodes and edges at the top level.
        let out = call(
            &r,
            &vault,
            &actor,
            "canvas_write",
            args(json!({"path": "b", "nodes": [{"id": "n1", "type": "text", "text": "x"}, {"id": "n2", "type": "text", "text": "y"}], "edges": [{"fromNode": "n1", "toNode": "n2"}]})),
        )
        .unwrap();
        let v: Json = serde_json::from_str(&out).unwrap();
        assert_eq!(
            (v["nodeCount"].as_u64(), v["edgeCount"].as_u64()),
            (Some(2), Some(1))
        );
    }

    #[test]
    fn kept_reads_follow_every_change_to_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let vault = Vault::open(dir.path()).unwrap();
        let actor = Actor::new("mcp:test");
        let r = registry();
        let read = |r: &Registry| {
            let out = call(r, &vault, &actor, "canvas_read", args(json!({"path": "a"}))).unwrap();
            serde_json::from_str::<Json>(&out).unwrap()
        };
        call(
            &r,
            &vault,
            &actor,
            "canvas_write",
            args(json!({"path": "a", "data": {"nodes": [{"id": "n", "type": "text", "text": "one"}]}})),
        )
        .unwrap();
        let first = read(&r);
        assert_eq!(first["nodes"][0]["text"], "one");
        assert_eq!(read(&r), first);
        // Changed behind the server's back, to a file of the same length in the same instant:
        // a cache keyed on size and time would serve the old text.
        let file = dir.path().join("a.canvas");
        let before = std::fs::read_to_string(&file).unwrap();
        let after = before.replace("\"one\"", "\"two\"");
        assert_eq!(before.len(), after.len());
        std::fs::write(&file, after).unwrap();
        let second = read(&r);
        assert_eq!(second["nodes"][0]["text"], "two");
        assert_ne!(second["rev"], first["rev"]);
        call(
            &r,
            &vault,
            &actor,
            "canvas_update_node",
            args(json!({"path": "a", "id": "n", "data": {"text": "three"}})),
        )
        .unwrap();
        assert_eq!(read(&r)["nodes"][0]["text"], "three");
        std::fs::remove_file(&file).unwrap();
        let e = call(
            &r,
            &vault,
            &actor,
            "canvas_read",
            args(json!({"path": "a"})),
        )
        .unwrap_err();
        assert_eq!(e.kind_name(), "not_found");
    }
}
