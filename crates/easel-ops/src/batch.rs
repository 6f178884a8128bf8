//! `canvas_batch`: many node and edge changes (and layouts) applied all or nothing, in one
//! write and one ledger entry. A node added in the batch gets a `ref` that later operations
//! use as `"@ref"` in place of its id, so a whole diagram is built in one call.

use easel_canvas::json::{Map, Value};
use easel_canvas::{Canvas, IdGen};
use easel_layout::Metrics;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value as Json;
use std::collections::BTreeMap;

use crate::canvas::Object;
use crate::ctx::Ctx;
use crate::effect::Effect;
use crate::error::OpError;
use crate::layout::{LayoutSpec, edit_canvas};
use crate::op::Op;

/// `canvas_batch`'s input.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BatchInput {
    #[doc = "Canvas path relative to the vault, e.g. \"Projects/Plan.canvas\" ('.canvas' may be left out)."]
    pub path: String,
    /// The operations, in order. Each is an object with "op": "add_node" (node fields, plus
    /// "ref" to name it for later operations), "update_node" ("id", "data"), "remove_node"
    /// ("id"), "add_edge" ("fromNode", "toNode", optional "label", "color", sides, ends),
    /// "update_edge" ("id", "data"), "remove_edge" ("id") or "layout" ("algo", "direction",
    /// "nodes", "group", "pin", "spacing"). Write "@ref" wherever an id is expected.
    pub ops: Vec<Object>,
    /// The 'rev' from your last read: the write fails with a conflict if the canvas changed
    /// since.
    #[serde(default)]
    pub rev: Option<String>,
}

/// `canvas_batch`'s output.
#[derive(Clone, Debug, Serialize)]
pub struct BatchOutput {
    /// Vault-relative path.
    pub path: String,
    /// The new revision.
    pub rev: Option<String>,
    /// How many operations were applied (all of them).
    pub applied: usize,
    /// The id each `ref` got.
    pub refs: BTreeMap<String, String>,
    /// Nodes now.
    #[serde(rename = "nodeCount")]
    pub node_count: usize,
    /// Edges now.
    #[serde(rename = "edgeCount")]
    pub edge_count: usize,
    /// The quality of the last layout, when the batch laid out.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub metrics: Option<Metrics>,
    /// What a layout could not honour.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
}

struct State {
    refs: BTreeMap<String, String>,
    ids: IdGen,
    metrics: Option<Metrics>,
    warnings: Vec<String>,
}

impl State {
    /// An id as given, or the id of an earlier `ref` when it starts with '@'.
    fn resolve(&self, v: &Json, key: &str) -> Result<String, OpError> {
        let Some(s) = v.as_str() else {
            return Err(OpError::invalid(
                format!("'{key}' must be a node or edge id (a string)"),
                "give an id from `canvas_read`, or \"@name\" for a node added earlier in this batch with \"ref\": \"name\"",
            ));
        };
        match s.strip_prefix('@') {
            Some(name) => self.refs.get(name).cloned().ok_or_else(|| {
                OpError::invalid(
                    format!("'{s}' does not name a node added earlier in this batch"),
                    format!("add a node with \"ref\": \"{name}\" before the operation that uses '@{name}'"),
                )
            }),
            None => Ok(s.to_owned()),
        }
    }

    fn field<'a>(op: &'a Object, key: &str, what: &str) -> Result<&'a Json, OpError> {
        op.get(key).ok_or_else(|| {
            OpError::invalid(
                format!("{what} needs '{key}'"),
                format!("add \"{key}\" to the {what} operation"),
            )
        })
    }

    fn apply(&mut self, canvas: &mut Canvas, op: &Object) -> Result<(), OpError> {
        let kind = Self::field(op, "op", "every operation")?
            .as_str()
            .unwrap_or("");
        let mut rest: serde_json::Map<String, Json> = op.clone();
        rest.remove("op");
        let patch = |rest: &serde_json::Map<String, Json>, what: &str| -> Result<Map, OpError> {
            match rest.get("data").map(Value::from) {
                Some(Value::Object(m)) => Ok(m),
                _ => Err(OpError::invalid(
                    format!("{what} needs 'data', an object of the fields to change"),
                    "pass \"data\": {\"text\": \"new text\"}",
                )),
            }
        };
        match kind {
            "add_node" => {
                let name = match rest.remove("ref") {
                    Some(Json::String(r)) => Some(r),
                    Some(_) => {
                        return Err(OpError::invalid(
                            "'ref' must be a string",
                            "name the node, e.g. \"ref\": \"idea\"",
                        ));
                    }
                    None => None,
                };
                if let Some(r) = &name
                    && self.refs.contains_key(r)
                {
                    return Err(OpError::invalid(
                        format!("the ref '{r}' is used twice"),
                        "give every added node its own ref",
                    ));
                }
                let Value::Object(fields) = Value::from(&Json::Object(rest)) else {
                    return Err(OpError::failure("a JSON object stopped being one"));
                };
                let id = canvas.add_node(fields, &mut self.ids)?.id().to_owned();
                if let Some(r) = name {
                    self.refs.insert(r, id);
                }
            }
            "add_edge" => {
                for key in ["fromNode", "toNode"] {
                    let id = self.resolve(Self::field(op, key, "add_edge")?, key)?;
                    rest.insert(key.to_owned(), Json::String(id));
                }
                let Value::Object(fields) = Value::from(&Json::Object(rest)) else {
                    return Err(OpError::failure("a JSON object stopped being one"));
                };
                canvas.add_edge(fields, &mut self.ids)?;
            }
            "update_node" => {
                let id = self.resolve(Self::field(op, "id", kind)?, "id")?;
                canvas.update_node(&id, &patch(&rest, kind)?)?;
            }
            "update_edge" => {
                let id = self.resolve(Self::field(op, "id", kind)?, "id")?;
                canvas.update_edge(&id, &patch(&rest, kind)?)?;
            }
            "remove_node" => {
                let id = self.resolve(Self::field(op, "id", kind)?, "id")?;
                canvas.remove_node(&id)?;
            }
            "remove_edge" => {
                let id = self.resolve(Self::field(op, "id", kind)?, "id")?;
                canvas.remove_edge(&id)?;
            }
            "layout" => {
                for key in ["nodes", "pin"] {
                    if let Some(Json::Array(items)) = rest.get(key).cloned() {
                        let ids = items
                            .iter()
                            .map(|v| self.resolve(v, key).map(Json::String))
                            .collect::<Result<Vec<_>, _>>()?;
                        rest.insert(key.to_owned(), Json::Array(ids));
                    }
                }
                if let Some(g) = rest.get("group").cloned() {
                    rest.insert("group".into(), Json::String(self.resolve(&g, "group")?));
                }
                let spec: LayoutSpec = serde_json::from_value(Json::Object(rest)).map_err(|e| {
                    OpError::invalid(
                        format!("layout: {e}"),
                        "a layout takes \"algo\", \"direction\", \"nodes\", \"group\", \"pin\" and \"spacing\"",
                    )
                })?;
                let outcome = easel_layout::layout_canvas(canvas, &spec.request()?)?;
                self.metrics = Some(outcome.metrics);
                self.warnings.extend(outcome.warnings);
            }
            other => {
                return Err(OpError::invalid(
                    format!("'{other}' is not a batch operation"),
                    "use add_node, update_node, remove_node, add_edge, update_edge, remove_edge or layout",
                ));
            }
        }
        Ok(())
    }
}

/// Apply many changes at once.
#[derive(Clone, Copy, Debug, Default)]
pub struct CanvasBatch;

impl Op for CanvasBatch {
    type Input = BatchInput;
    type Output = BatchOutput;
    const NAME: &'static str = "canvas_batch";
    const TITLE: &'static str = "Apply many canvas changes at once";
    const DESCRIPTION: &'static str = "Build or change a diagram in ONE call: a list of operations applied all or nothing (if one fails, nothing changes). \
Give each new node a \"ref\" and connect nodes with \"@ref\" instead of ids; leave out x/y and end with {\"op\": \"layout\"} so Easel places everything.\n\
Example: {\"path\": \"Plan.canvas\", \"ops\": [{\"op\": \"add_node\", \"ref\": \"goal\", \"type\": \"text\", \"text\": \"Launch\"}, \
{\"op\": \"add_node\", \"ref\": \"step\", \"type\": \"text\", \"text\": \"Write docs\"}, \
{\"op\": \"add_edge\", \"fromNode\": \"@goal\", \"toNode\": \"@step\", \"label\": \"needs\"}, {\"op\": \"layout\", \"algo\": \"tree\"}]}";
    const EFFECT: Effect = Effect::Destructive;

    fn run(&self, ctx: &Ctx, input: BatchInput) -> Result<BatchOutput, OpError> {
        if input.ops.is_empty() {
            return Err(OpError::invalid(
                "the batch has no operations",
                "pass \"ops\": [{\"op\": \"add_node\", ...}, ...]",
            ));
        }
        let count = input.ops.len();
        let (path, rev, (state, nodes, edges)) = edit_canvas(
            ctx,
            &input.path,
            input.rev.as_deref(),
            Self::NAME,
            |p| format!("apply {count} changes to {p}"),
            |canvas| {
                let mut state = State {
                    refs: BTreeMap::new(),
                    ids: IdGen::new(),
                    metrics: None,
                    warnings: Vec::new(),
                };
                for (i, op) in input.ops.iter().enumerate() {
                    let kind = op.get("op").and_then(Json::as_str).unwrap_or("?");
                    state.apply(canvas, op).map_err(|e| {
                        let mut e = e.in_op(&format!("operation {} ({kind})", i + 1));
                        e.message.push_str("; nothing was changed");
                        e
                    })?;
                }
                Ok((state, canvas.nodes().len(), canvas.edges().len()))
            },
        )?;
        Ok(BatchOutput {
            path,
            rev,
            applied: count,
            refs: state.refs,
            node_count: nodes,
            edge_count: edges,
            metrics: state.metrics,
            warnings: state.warnings,
        })
    }
}
