//! The tool catalogue: names, descriptions, input schemas, and the dispatch from a tool call to
//! the one library function behind it.
//!
//! Everything here is synchronous and transport-free: [`Tools::call`] takes the vault, the
//! actor and the JSON arguments and returns the JSON `easel --json` prints for the operation
//! (compact, as text), so the CLI and MCP cannot drift apart. The
//! server runs it on a blocking thread.

use crate::error::ToolError;
use easel_canvas::NodeQuery;
use easel_canvas::json::{Map, Value};
use easel_vault::canvas::{self as ops, Actor};
use easel_vault::{Rev, Vault, history};
use serde_json::{Value as Json, json};
use std::sync::{Arc, Mutex};

/// One tool as listed to clients.
#[derive(Clone, Debug)]
pub struct ToolSpec {
    /// The tool name, e.g. `canvas_read`.
    pub name: &'static str,
    /// A short tutorial: what it does, when to use it, one example.
    pub description: &'static str,
    /// JSON Schema of the arguments.
    pub schema: Json,
    /// True when the tool never changes the vault.
    pub read_only: bool,
}

const PATH_DOC: &str =
    "Canvas path relative to the vault, e.g. \"Projects/Plan.canvas\" ('.canvas' may be left out).";
const REV_DOC: &str = "Optional. The 'rev' from your last read; the write fails with a conflict if the canvas changed since, instead of overwriting someone else's edit.";

fn path_prop() -> Json {
    json!({"type": "string", "description": PATH_DOC})
}

fn rev_prop() -> Json {
    json!({"type": "string", "description": REV_DOC, "pattern": "^[0-9a-f]{16}$"})
}

pub(crate) fn object(props: Json, required: &[&str]) -> Json {
    json!({"type": "object", "properties": props, "required": required, "additionalProperties": false})
}

/// Every tool Easel serves, in the order clients list them.
pub fn catalogue() -> Vec<ToolSpec> {
    let color = json!({"type": "string", "description": "A preset \"1\" (red) to \"6\" (purple), or a hex colour like \"#ff8800\"."});
    let side = json!({"type": "string", "enum": ["top", "right", "bottom", "left"]});
    let end = json!({"type": "string", "enum": ["none", "arrow"]});
    let canvas_data = json!({
        "type": "object",
        "description": "{\"nodes\":[...],\"edges\":[...]}. Nodes need 'type' plus 'text' (text), 'file' (file), 'url' (link) or 'label' (group); id, x, y, width and height are filled in when missing. Edges need 'fromNode' and 'toNode'.",
        "properties": {
            "nodes": {"type": "array", "items": {"type": "object"}},
            "edges": {"type": "array", "items": {"type": "object"}}
        }
    });
    let patch = json!({
        "type": "object",
        "description": "A JSON merge patch: the fields to change, e.g. {\"text\":\"new text\",\"color\":\"4\"}; null removes a field."
    });
    vec![
        ToolSpec {
            name: "canvas_list",
            description: "List the canvases (.canvas files) in the vault with their node and edge counts. \
Use it first, to find the path of the canvas you want; then call canvas_read.\n\
Example: {} lists every canvas; {\"folder\": \"Projects\"} only those under Projects/.",
            schema: object(
                json!({
                    "folder": {"type": "string", "description": "Only canvases under this folder."},
                    "recursive": {"type": "boolean", "description": "Look into subfolders (default true)."}
                }),
                &[],
            ),
            read_only: true,
        },
        ToolSpec {
            name: "canvas_read",
            description: "Read a whole canvas: every node and edge as JSON, plus its 'rev'. \
Read before you change anything, and pass the 'rev' to the write tools so you never overwrite an edit made meanwhile.\n\
Example: {\"path\": \"Research.canvas\"}",
            schema: object(json!({"path": path_prop()}), &["path"]),
            read_only: true,
        },
        ToolSpec {
            name: "canvas_write",
            description: "Create a NEW canvas from nodes and edges. Fails if the file exists: to change an existing canvas use canvas_update (replace everything) or the canvas_add_node / canvas_update_node tools (one change).\n\
Example: {\"path\": \"Ideas.canvas\", \"data\": {\"nodes\": [{\"id\": \"a\", \"type\": \"text\", \"text\": \"Idea\"}, {\"id\": \"b\", \"type\": \"text\", \"text\": \"Why\"}], \"edges\": [{\"fromNode\": \"a\", \"toNode\": \"b\"}]}}",
            schema: object(
                json!({"path": path_prop(), "data": canvas_data.clone()}),
                &["path", "data"],
            ),
            read_only: false,
        },
        ToolSpec {
            name: "canvas_update",
            description: "Replace ALL nodes and/or ALL edges of an existing canvas: read it with canvas_read, change the arrays, send them back with the 'rev' you read. \
Give only 'nodes' to keep the edges (edges to removed nodes are refused), only 'edges' to keep the nodes. For one small change, canvas_add_node or canvas_update_node is cheaper.\n\
Example: {\"path\": \"Ideas.canvas\", \"rev\": \"3f2a9c0d11e4b7a8\", \"data\": {\"nodes\": [...all nodes...]}}",
            schema: object(
                json!({"path": path_prop(), "data": canvas_data, "rev": rev_prop()}),
                &["path", "data"],
            ),
            read_only: false,
        },
        ToolSpec {
            name: "canvas_add_node",
            description: "Add one node to an existing canvas. type 'text' needs 'text' (Markdown), 'file' needs 'file' (a vault path), 'link' needs 'url', 'group' takes a 'label'. \
Without x/y the node goes where it overlaps nothing; the result holds the new node with its id (use it in canvas_add_edge).\n\
Example: {\"path\": \"Ideas.canvas\", \"type\": \"text\", \"text\": \"# New idea\", \"color\": \"4\"}",
            schema: object(
                json!({
                    "path": path_prop(),
                    "type": {"type": "string", "enum": ["text", "file", "link", "group"]},
                    "text": {"type": "string", "description": "Markdown text (text nodes)."},
                    "file": {"type": "string", "description": "Vault path of the file (file nodes)."},
                    "subpath": {"type": "string", "description": "'#Heading' or '#^block' inside the file (file nodes)."},
                    "url": {"type": "string", "description": "URL (link nodes)."},
                    "label": {"type": "string", "description": "Label (group nodes)."},
                    "x": {"type": "number"}, "y": {"type": "number"},
                    "width": {"type": "number"}, "height": {"type": "number"},
                    "color": color.clone(),
                    "id": {"type": "string", "description": "Use this id instead of a generated one."},
                    "rev": rev_prop()
                }),
                &["path", "type"],
            ),
            read_only: false,
        },
        ToolSpec {
            name: "canvas_update_node",
            description: "Change some fields of one node (move, resize, recolour, retext) with a merge patch; fields you leave out stay as they are, null removes one. \
Get the node id from canvas_read.\n\
Example: {\"path\": \"Ideas.canvas\", \"id\": \"6f0c2d1e9a8b7c3d\", \"data\": {\"text\": \"Revised\", \"x\": 400}}",
            schema: object(
                json!({"path": path_prop(), "id": {"type": "string", "description": "The node's id."}, "data": patch.clone(), "rev": rev_prop()}),
                &["path", "id", "data"],
            ),
            read_only: false,
        },
        ToolSpec {
            name: "canvas_remove_node",
            description: "Remove one node and every edge attached to it (their ids come back in 'removedEdges'). Undo with ledger_undo if it was a mistake.\n\
Example: {\"path\": \"Ideas.canvas\", \"id\": \"6f0c2d1e9a8b7c3d\"}",
            schema: object(
                json!({"path": path_prop(), "id": {"type": "string", "description": "The node's id."}, "rev": rev_prop()}),
                &["path", "id"],
            ),
            read_only: false,
        },
        ToolSpec {
            name: "canvas_add_edge",
            description: "Connect two existing nodes with an arrow. Sides are chosen from the nodes' positions unless you give them; the arrow points at 'to' by default.\n\
Example: {\"path\": \"Ideas.canvas\", \"from\": \"6f0c2d1e9a8b7c3d\", \"to\": \"a1b2c3d4e5f60718\", \"label\": \"leads to\"}",
            schema: object(
                json!({
                    "path": path_prop(),
                    "from": {"type": "string", "description": "Id of the node the edge starts at."},
                    "to": {"type": "string", "description": "Id of the node the edge ends at."},
                    "from_side": side.clone(), "to_side": side,
                    "from_end": end.clone(), "to_end": end,
                    "label": {"type": "string"},
                    "color": color,
                    "id": {"type": "string", "description": "Use this id instead of a generated one."},
                    "rev": rev_prop()
                }),
                &["path", "from", "to"],
            ),
            read_only: false,
        },
        ToolSpec {
            name: "canvas_update_edge",
            description: "Change some fields of one edge (label, colour, ends, sides) with a merge patch; null removes a field.\n\
Example: {\"path\": \"Ideas.canvas\", \"id\": \"0e9d8c7b6a5f4e3d\", \"data\": {\"label\": \"because\", \"toEnd\": \"none\"}}",
            schema: object(
                json!({"path": path_prop(), "id": {"type": "string", "description": "The edge's id."}, "data": patch, "rev": rev_prop()}),
                &["path", "id", "data"],
            ),
            read_only: false,
        },
        ToolSpec {
            name: "canvas_remove_edge",
            description: "Remove one edge; the nodes stay.\n\
Example: {\"path\": \"Ideas.canvas\", \"id\": \"0e9d8c7b6a5f4e3d\"}",
            schema: object(
                json!({"path": path_prop(), "id": {"type": "string", "description": "The edge's id."}, "rev": rev_prop()}),
                &["path", "id"],
            ),
            read_only: false,
        },
        ToolSpec {
            name: "canvas_find",
            description: "Find nodes of one canvas by type, colour, group or text (all given criteria must match). Cheaper than canvas_read on a big canvas when you look for a few nodes.\n\
Example: {\"path\": \"Research.canvas\", \"text\": \"budget\", \"type\": \"text\"}",
            schema: object(
                json!({
                    "path": path_prop(),
                    "type": {"type": "string", "enum": ["text", "file", "link", "group"]},
                    "color": {"type": "string"},
                    "group": {"type": "string", "description": "A group's id or label: nodes inside it."},
                    "text": {"type": "string", "description": "Case-insensitive text in the node's text, file path, URL or label."}
                }),
                &["path"],
            ),
            read_only: true,
        },
        ToolSpec {
            name: "canvas_validate",
            description: "Check a canvas against JSON Canvas 1.0: 'errors' break the spec (fix them), 'warnings' are tolerated deviations. Use it after large edits or when a canvas will not open.\n\
Example: {\"path\": \"Research.canvas\"}",
            schema: object(json!({"path": path_prop()}), &["path"]),
            read_only: true,
        },
        ToolSpec {
            name: "ledger_list",
            description: "Show recent changes made through Easel (by you, the command line, other agents), newest first, with their ids. Use it to see what changed, or to find the id for ledger_undo.\n\
Example: {\"limit\": 5}",
            schema: object(
                json!({"limit": {"type": "integer", "minimum": 1, "description": "How many entries (default 20)."}}),
                &[],
            ),
            read_only: true,
        },
        ToolSpec {
            name: "ledger_undo",
            description: "Undo a change: the latest one by default, or the one with 'id' from ledger_list. Refuses when the file changed again since, so it never destroys newer work.\n\
Example: {} undoes the latest change; {\"id\": \"019a4f2c3b1d8e7f6a5b\"} a given one.",
            schema: object(
                json!({
                    "id": {"type": "string", "description": "The ledger id of the change to undo."},
                    "run": {"type": "string", "description": "Undo every change of this run."}
                }),
                &[],
            ),
            read_only: false,
        },
    ]
}

/// The accepted argument names of a tool, from its schema.
fn accepted(spec: &ToolSpec) -> Vec<&str> {
    spec.schema
        .get("properties")
        .and_then(Json::as_object)
        .map(|p| p.keys().map(String::as_str).collect())
        .unwrap_or_default()
}

/// The arguments of `spec`, refused when one of them is not in its schema.
pub(crate) fn check_arguments(
    spec: &ToolSpec,
    arguments: Option<serde_json::Map<String, Json>>,
) -> Result<Args<'_>, ToolError> {
    let a = Args {
        tool: spec.name,
        map: arguments.unwrap_or_default(),
    };
    let allowed = accepted(spec);
    if let Some(extra) = a.map.keys().find(|k| !allowed.contains(&k.as_str())) {
        return Err(a.bad(
            format!("unknown argument '{extra}'"),
            format!("{} takes: {}", spec.name, allowed.join(", ")),
        ));
    }
    Ok(a)
}

/// The arguments of one call, with typed accessors that produce model-readable errors.
pub(crate) struct Args<'a> {
    tool: &'a str,
    map: serde_json::Map<String, Json>,
}

impl Args<'_> {
    pub(crate) fn bad(&self, message: String, hint: String) -> ToolError {
        ToolError::invalid(format!("{}: {message}", self.tool), hint)
    }

    pub(crate) fn opt_str(&self, key: &str) -> Result<Option<String>, ToolError> {
        match self.map.get(key) {
            None | Some(Json::Null) => Ok(None),
            Some(Json::String(s)) => Ok(Some(s.clone())),
            // Small models often send numbers for ids or colours: accept them as text.
            Some(Json::Number(n)) => Ok(Some(n.to_string())),
            Some(other) => Err(self.bad(
                format!("'{key}' must be a string, got {}", json_type(other)),
                format!("pass \"{key}\": \"...\""),
            )),
        }
    }

    pub(crate) fn str(&self, key: &str) -> Result<String, ToolError> {
        self.opt_str(key)?.ok_or_else(|| {
            self.bad(
                format!("the argument '{key}' is missing"),
                format!("add \"{key}\" to the arguments"),
            )
        })
    }

    pub(crate) fn opt_num(&self, key: &str) -> Result<Option<Value>, ToolError> {
        match self.map.get(key) {
            None | Some(Json::Null) => Ok(None),
            Some(Json::Number(n)) => Ok(Some(Value::from(&Json::Number(n.clone())))),
            Some(Json::String(s)) if s.trim().parse::<f64>().is_ok_and(f64::is_finite) => Ok(Some(
                Value::from(s.trim().parse::<f64>().unwrap_or_default()),
            )),
            Some(other) => Err(self.bad(
                format!("'{key}' must be a number, got {}", json_type(other)),
                format!("pass \"{key}\": 120"),
            )),
        }
    }

    pub(crate) fn opt_bool(&self, key: &str) -> Result<Option<bool>, ToolError> {
        match self.map.get(key) {
            None | Some(Json::Null) => Ok(None),
            Some(Json::Bool(b)) => Ok(Some(*b)),
            Some(other) => Err(self.bad(
                format!("'{key}' must be true or false, got {}", json_type(other)),
                format!("pass \"{key}\": true"),
            )),
        }
    }

    /// A whole number of at least 1 (a count or a limit).
    pub(crate) fn opt_count(&self, key: &str) -> Result<Option<usize>, ToolError> {
        match self.opt_num(key)? {
            None => Ok(None),
            Some(v) => match v.as_f64() {
                Some(n) if n >= 1.0 && n.fract() == 0.0 && n <= usize::MAX as f64 => {
                    Ok(Some(n as usize))
                }
                _ => Err(self.bad(
                    format!("'{key}' must be a whole number of at least 1"),
                    format!("pass \"{key}\": 20"),
                )),
            },
        }
    }

    pub(crate) fn opt_rev(&self) -> Result<Option<Rev>, ToolError> {
        self.opt_str("rev")?
            .map(|r| {
                r.parse::<Rev>().map_err(|e| {
                    self.bad(
                        format!("'rev' {r:?} is not a revision: {e}"),
                        "use the 16 hex digits of 'rev' returned by canvas_read, or leave 'rev' out".into(),
                    )
                })
            })
            .transpose()
    }

    /// An object argument; a JSON object sent as a string is accepted too, because small
    /// models often stringify nested arguments.
    pub(crate) fn object(&self, key: &str) -> Result<Map, ToolError> {
        let raw = match self.map.get(key) {
            None | Some(Json::Null) => {
                return Err(self.bad(
                    format!("the argument '{key}' is missing"),
                    format!("add \"{key}\": {{...}} to the arguments"),
                ));
            }
            Some(Json::String(s)) => easel_canvas::json::parse(s).map_err(|e| {
                self.bad(
                    format!("'{key}' is a string that is not JSON: {e}"),
                    format!("pass \"{key}\" as a JSON object, not a string"),
                )
            })?,
            Some(v) => Value::from(v),
        };
        match raw {
            Value::Object(m) => Ok(m),
            other => Err(self.bad(
                format!("'{key}' must be a JSON object, got {}", other.type_name()),
                format!("pass \"{key}\": {{...}}"),
            )),
        }
    }
}

fn json_type(v: &Json) -> &'static str {
    match v {
        Json::Null => "null",
        Json::Bool(_) => "a boolean",
        Json::Number(_) => "a number",
        Json::String(_) => "a string",
        Json::Array(_) => "an array",
        Json::Object(_) => "an object",
    }
}

fn put(m: &mut Map, key: &str, v: Option<Value>) {
    if let Some(v) = v {
        m.insert(key, v);
    }
}

/// A successful result: the JSON `easel --json` prints for the same operation, compact. The
/// server sends it as one text block; no tool declares an output schema, so there is no
/// `structuredContent` copy (it doubled every response, see BENCHMARKS.md).
#[derive(Clone, Debug, PartialEq)]
pub struct ToolOutput {
    /// The compact JSON text.
    pub text: String,
}

impl ToolOutput {
    /// The output for a result value.
    pub fn of<T: serde::Serialize>(value: &T) -> Result<ToolOutput, ToolError> {
        let text = serde_json::to_string(value)
            .map_err(|e| ToolError::failure(format!("could not encode the result: {e}")))?;
        Ok(ToolOutput { text })
    }
}

/// How many canvases [`Tools`] keeps the `canvas_read` output of.
const KEPT_READS: usize = 8;

/// The tool catalogue and what the tools keep between calls. One per server, shared by its
/// sessions.
#[derive(Debug)]
pub struct Tools {
    specs: Vec<ToolSpec>,
    /// The latest `canvas_read` outputs by vault path and rev, most recent last. Agents read
    /// the same canvas again and again between small edits; serving an unchanged file from here
    /// skips parsing and encoding it (a 1,000-node canvas costs milliseconds each time). The
    /// rev is the hash of the bytes just read, so an entry is never stale.
    reads: Mutex<Vec<(String, Rev, Arc<ToolOutput>)>>,
}

impl Default for Tools {
    fn default() -> Tools {
        Tools::new()
    }
}

/// Runs tool `name` with `arguments` as `actor` and returns the result's compact JSON text.
/// A server keeps one [`Tools`] instead, so that reads are cached.
pub fn call(
    vault: &Vault,
    actor: &Actor,
    name: &str,
    arguments: Option<serde_json::Map<String, Json>>,
) -> Result<String, ToolError> {
    Tools::new()
        .call(vault, actor, name, arguments)
        .map(|o| o.text)
}

impl Tools {
    /// The canvas and ledger tools, with nothing kept yet.
    pub fn new() -> Tools {
        Tools {
            specs: catalogue(),
            reads: Mutex::new(Vec::new()),
        }
    }

    /// The catalogue.
    pub fn specs(&self) -> &[ToolSpec] {
        &self.specs
    }

    fn kept_read(&self, path: &str, rev: Rev) -> Option<Arc<ToolOutput>> {
        let mut reads = self.reads.lock().unwrap_or_else(|p| p.into_inner());
        let i = reads.iter().position(|(p, r, _)| p == path && *r == rev)?;
        let entry = reads.remove(i);
        let out = entry.2.clone();
        reads.push(entry);
        Some(out)
    }

    fn keep_read(&self, path: String, rev: Rev, out: Arc<ToolOutput>) {
        let mut reads = self.reads.lock().unwrap_or_else(|p| p.into_inner());
        reads.retain(|(p, _, _)| *p != path);
        if reads.len() >= KEPT_READS {
            reads.remove(0);
        }
        reads.push((path, rev, out));
    }

    fn read(&self, vault: &Vault, path: &str) -> Result<ToolOutput, ToolError> {
        let mut kept = None;
        let read = ops::read_unless(vault, path, |p, rev| {
            kept = self.kept_read(p, rev);
            kept.is_some()
        })?;
        match (read, kept) {
            (None, Some(out)) => Ok(Arc::unwrap_or_clone(out)),
            (Some(r), _) => {
                let out = ToolOutput::of(&r)?;
                if let Ok(rev) = r.rev.parse::<Rev>() {
                    self.keep_read(r.path, rev, Arc::new(out.clone()));
                }
                Ok(out)
            }
            (None, None) => Err(ToolError::failure(
                "canvas_read skipped a canvas it had not kept",
            )),
        }
    }

    /// Runs tool `name` with `arguments` as `actor`.
    pub fn call(
        &self,
        vault: &Vault,
        actor: &Actor,
        name: &str,
        arguments: Option<serde_json::Map<String, Json>>,
    ) -> Result<ToolOutput, ToolError> {
        let Some(spec) = self.specs.iter().find(|s| s.name == name) else {
            let names: Vec<&str> = self
                .specs
                .iter()
                .chain(crate::thread::catalogue().iter())
                .map(|s| s.name)
                .collect();
            return Err(ToolError::not_found(
                format!("there is no tool named '{name}'"),
                format!("use one of: {}", names.join(", ")),
            ));
        };
        let a = check_arguments(spec, arguments)?;
        run(self, vault, actor, spec, &a)
    }
}

fn run(
    tools: &Tools,
    vault: &Vault,
    actor: &Actor,
    spec: &ToolSpec,
    a: &Args<'_>,
) -> Result<ToolOutput, ToolError> {
    fn to_text<T: serde::Serialize>(value: &T) -> Result<ToolOutput, ToolError> {
        ToolOutput::of(value)
    }
    match spec.name {
        "canvas_list" => {
            let folder = a.opt_str("folder")?;
            let recursive = a.opt_bool("recursive")?.unwrap_or(true);
            to_text(&ops::list(vault, folder.as_deref(), recursive)?)
        }
        "canvas_read" => tools.read(vault, &a.str("path")?),
        "canvas_write" => {
            let data = Value::Object(a.object("data")?);
            to_text(&ops::write(vault, actor, &a.str("path")?, data)?)
        }
        "canvas_update" => {
            let data = Value::Object(a.object("data")?);
            let rev = a.opt_rev()?;
            to_text(&ops::update(vault, actor, &a.str("path")?, data, rev)?)
        }
        "canvas_add_node" => {
            let mut node = Map::new();
            put(&mut node, "id", a.opt_str("id")?.map(Value::from));
            node.insert("type", Value::from(a.str("type")?));
            for key in ["text", "file", "subpath", "url", "label"] {
                put(&mut node, key, a.opt_str(key)?.map(Value::from));
            }
            for key in ["x", "y", "width", "height"] {
                put(&mut node, key, a.opt_num(key)?);
            }
            put(&mut node, "color", a.opt_str("color")?.map(Value::from));
            let rev = a.opt_rev()?;
            to_text(&ops::add_node(vault, actor, &a.str("path")?, node, rev)?)
        }
        "canvas_update_node" => {
            let (path, id, patch, rev) = (
                a.str("path")?,
                a.str("id")?,
                a.object("data")?,
                a.opt_rev()?,
            );
            to_text(&ops::update_node(vault, actor, &path, &id, patch, rev)?)
        }
        "canvas_remove_node" => {
            let (path, id, rev) = (a.str("path")?, a.str("id")?, a.opt_rev()?);
            to_text(&ops::remove_node(vault, actor, &path, &id, rev)?)
        }
        "canvas_add_edge" => {
            let mut edge = Map::new();
            put(&mut edge, "id", a.opt_str("id")?.map(Value::from));
            edge.insert("fromNode", Value::from(a.str("from")?));
            put(
                &mut edge,
                "fromSide",
                a.opt_str("from_side")?.map(Value::from),
            );
            put(
                &mut edge,
                "fromEnd",
                a.opt_str("from_end")?.map(Value::from),
            );
            edge.insert("toNode", Value::from(a.str("to")?));
            put(&mut edge, "toSide", a.opt_str("to_side")?.map(Value::from));
            put(&mut edge, "toEnd", a.opt_str("to_end")?.map(Value::from));
            put(&mut edge, "color", a.opt_str("color")?.map(Value::from));
            put(&mut edge, "label", a.opt_str("label")?.map(Value::from));
            let rev = a.opt_rev()?;
            to_text(&ops::add_edge(vault, actor, &a.str("path")?, edge, rev)?)
        }
        "canvas_update_edge" => {
            let (path, id, patch, rev) = (
                a.str("path")?,
                a.str("id")?,
                a.object("data")?,
                a.opt_rev()?,
            );
            to_text(&ops::update_edge(vault, actor, &path, &id, patch, rev)?)
        }
        "canvas_remove_edge" => {
            let (path, id, rev) = (a.str("path")?, a.str("id")?, a.opt_rev()?);
            to_text(&ops::remove_edge(vault, actor, &path, &id, rev)?)
        }
        "canvas_find" => {
            let (kind, color, group, text) = (
                a.opt_str("type")?,
                a.opt_str("color")?,
                a.opt_str("group")?,
                a.opt_str("text")?,
            );
            let query = NodeQuery {
                kind: kind.as_deref(),
                color: color.as_deref(),
                group: group.as_deref(),
                text: text.as_deref(),
            };
            to_text(&ops::find(vault, &a.str("path")?, &query)?)
        }
        "canvas_validate" => to_text(&ops::validate(vault, &a.str("path")?)?),
        "ledger_list" => {
            let limit = a.opt_count("limit")?.unwrap_or(20);
            to_text(&history::ledger_list(vault, limit)?)
        }
        "ledger_undo" => {
            let (id, run) = (a.opt_str("id")?, a.opt_str("run")?);
            to_text(&history::undo(vault, id, run, &actor.name)?)
        }
        other => Err(ToolError::failure(format!(
            "the tool '{other}' is listed but not wired to an operation"
        ))),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn args(v: Json) -> Option<serde_json::Map<String, Json>> {
        v.as_object().cloned()
    }

    #[test]
    fn every_tool_has_an_object_schema_and_an_example() {
        for spec in catalogue() {
            assert_eq!(spec.schema["type"], "object", "{}", spec.name);
            assert!(spec.description.contains("Example"), "{}", spec.name);
        }
    }

    #[test]
    fn unknown_arguments_are_refused_with_the_accepted_names() {
        let dir = tempfile::tempdir().unwrap();
        let vault = Vault::open(dir.path()).unwrap();
        let e = call(
            &vault,
            &Actor::new("mcp:test"),
            "canvas_read",
            args(json!({"path": "a", "colour": "1"})),
        )
        .unwrap_err();
        assert!(e.message.contains("unknown argument 'colour'"), "{e:?}");
        assert!(e.hint.contains("path"), "{e:?}");
    }

    #[test]
    fn stringified_objects_and_numeric_strings_are_accepted() {
        let dir = tempfile::tempdir().unwrap();
        let vault = Vault::open(dir.path()).unwrap();
        let actor = Actor::new("mcp:test");
        call(
            &vault,
            &actor,
            "canvas_write",
            args(json!({"path": "a", "data": "{\"nodes\":[]}"})),
        )
        .unwrap();
        let out = call(
            &vault,
            &actor,
            "canvas_add_node",
            args(json!({"path": "a", "type": "text", "text": "hi", "x": "10", "y": 20})),
        )
        .unwrap();
        let v: Json = serde_json::from_str(&out).unwrap();
        assert_eq!(v["node"]["x"], 10.0);
        assert_eq!(v["node"]["y"], 20);
    }

    #[test]
    fn kept_reads_follow_every_change_to_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let vault = Vault::open(dir.path()).unwrap();
        let actor = Actor::new("mcp:test");
        let tools = Tools::new();
        let read = |tools: &Tools| {
            let out = tools
                .call(&vault, &actor, "canvas_read", args(json!({"path": "a"})))
                .unwrap();
            serde_json::from_str::<Json>(&out.text).unwrap()
        };
        tools
            .call(
                &vault,
                &actor,
                "canvas_write",
                args(json!({"path": "a", "data": {"nodes": [{"id": "n", "type": "text", "text": "one"}]}})),
            )
            .unwrap();
        let first = read(&tools);
        assert_eq!(first["nodes"][0]["text"], "one");
        assert_eq!(read(&tools), first);
        // Changed behind the server's back, to a file of the same length in the same instant:
        // a cache keyed on size and time would serve the old text.
        let file = dir.path().join("a.canvas");
        let before = std::fs::read_to_string(&file).unwrap();
        let after = before.replace("\"one\"", "\"two\"");
        assert_eq!(before.len(), after.len());
        std::fs::write(&file, after).unwrap();
        let second = read(&tools);
        assert_eq!(second["nodes"][0]["text"], "two");
        assert_ne!(second["rev"], first["rev"]);
        // Changed through a tool.
        tools
            .call(
                &vault,
                &actor,
                "canvas_update_node",
                args(json!({"path": "a", "id": "n", "data": {"text": "three"}})),
            )
            .unwrap();
        assert_eq!(read(&tools)["nodes"][0]["text"], "three");
        // A canvas that disappeared is not found, whatever was kept.
        std::fs::remove_file(&file).unwrap();
        let e = tools
            .call(&vault, &actor, "canvas_read", args(json!({"path": "a"})))
            .unwrap_err();
        assert_eq!(e.kind_name(), "not_found");
    }
}
