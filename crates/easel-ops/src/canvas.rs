//! The canvas operations: list, read, write, update, format, find, validate, and the node and
//! edge edits. Each is a thin typed shell over `easel_vault::canvas`, which does the work under
//! the vault's rules (paths, revisions, locks, ledger).

use easel_canvas::NodeQuery;
use easel_canvas::json::{Map, Value};
use easel_vault::Rev;
use easel_vault::canvas::{
    self as vc, FindResult, ItemResult, ListResult, ReadResult, ValidateResult, WriteResult,
};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Map as JsonMap, Number, Value as Json};

use crate::ctx::Ctx;
use crate::effect::Effect;
use crate::error::OpError;
use crate::op::{Op, OpOutput};
use std::sync::{Arc, Mutex};

/// A JSON object, as the schema says it.
pub type Object = JsonMap<String, Json>;

/// `nodes` and `edges` of a canvas. The items are kept as Easel's lossless JSON, so that a
/// canvas written from the shell keeps its numbers as written.
#[derive(Clone, Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CanvasArrays {
    /// Nodes need `type` plus `text` (text), `file` (file), `url` (link) or `label` (group); `id`,
    /// `x`, `y`, `width` and `height` are filled in when missing.
    #[serde(default)]
    #[schemars(with = "Option<Vec<Object>>")]
    pub nodes: Option<Vec<Value>>,
    /// Edges need `fromNode` and `toNode`.
    #[serde(default)]
    #[schemars(with = "Option<Vec<Object>>")]
    pub edges: Option<Vec<Value>>,
}

impl CanvasArrays {
    /// The arrays of a `{"nodes":[...],"edges":[...]}` value; anything else is refused.
    pub fn from_value(data: Value) -> Result<CanvasArrays, OpError> {
        let Value::Object(map) = data else {
            return Err(OpError::invalid(
                format!(
                    "canvas data must be a JSON object with \"nodes\" and/or \"edges\", it is {}",
                    data.type_name()
                ),
                "pass a JSON object like {\"nodes\":[...],\"edges\":[...]}",
            ));
        };
        let mut arrays = CanvasArrays::default();
        for (k, v) in map {
            let items = match v {
                Value::Array(items) => items,
                other => {
                    return Err(OpError::invalid(
                        format!("\"{k}\" must be an array, it is {}", other.type_name()),
                        "pass a JSON object like {\"nodes\":[...],\"edges\":[...]}",
                    ));
                }
            };
            match k.as_str() {
                "nodes" => arrays.nodes = Some(items),
                "edges" => arrays.edges = Some(items),
                other => {
                    return Err(OpError::invalid(
                        format!(
                            "unexpected key \"{other}\" in canvas data; only \"nodes\" and \"edges\" are accepted"
                        ),
                        "pass a JSON object like {\"nodes\":[...],\"edges\":[...]}",
                    ));
                }
            }
        }
        Ok(arrays)
    }
}

/// Parses an optional `rev` argument.
pub(crate) fn rev(rev: Option<&str>) -> Result<Option<Rev>, OpError> {
    rev.map(|r| {
        r.trim().parse::<Rev>().map_err(|e| {
            OpError::invalid(
                format!("'rev' {r:?} is not a revision: {e}"),
                "use the 16 hex digits of 'rev' returned by `canvas_read`, or leave 'rev' out",
            )
        })
    })
    .transpose()
}

/// `data`, or the seed's `nodes`/`edges` at the top level, as `{"nodes":[...],"edges":[...]}`.
fn arrays(
    op: &str,
    data: Option<CanvasArrays>,
    nodes: Option<Vec<Value>>,
    edges: Option<Vec<Value>>,
) -> Result<Value, OpError> {
    let top = nodes.is_some() || edges.is_some();
    let arrays = match (data, top) {
        (Some(_), true) => {
            return Err(OpError::invalid(
                format!(
                    "{op}: give the nodes and edges either inside 'data' or at the top level, not both"
                ),
                format!("pass {{\"path\": ..., \"nodes\": [...], \"edges\": [...]}} to `{op}`"),
            ));
        }
        (Some(d), false) => d,
        (None, _) => CanvasArrays { nodes, edges },
    };
    let mut map = Map::new();
    if let Some(n) = arrays.nodes {
        map.insert("nodes", Value::Array(n));
    }
    if let Some(e) = arrays.edges {
        map.insert("edges", Value::Array(e));
    }
    Ok(Value::Object(map))
}

fn num(n: Option<Number>) -> Option<Value> {
    n.map(|n| Value::from(&Json::Number(n)))
}

fn put(m: &mut Map, key: &str, v: Option<Value>) {
    if let Some(v) = v {
        m.insert(key, v);
    }
}

fn text(s: Option<String>) -> Option<Value> {
    s.map(Value::from)
}

/// `canvas_list`'s input.
#[derive(Clone, Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ListInput {
    /// Only canvases under this folder.
    #[serde(default)]
    pub folder: Option<String>,
    /// Look into subfolders (default true).
    #[serde(default)]
    pub recursive: Option<bool>,
}

/// List the canvases.
#[derive(Clone, Copy, Debug, Default)]
pub struct CanvasList;

impl Op for CanvasList {
    type Input = ListInput;
    type Output = ListResult;
    const NAME: &'static str = "canvas_list";
    const TITLE: &'static str = "List canvases";
    const DESCRIPTION: &'static str = "List the canvases (.canvas files) in the vault with their node and edge counts. \
Use it first, to find the path of the canvas you want; then call canvas_read.\n\
Example: {} lists every canvas; {\"folder\": \"Projects\"} only those under Projects/.";
    const EFFECT: Effect = Effect::Read;

    fn run(&self, ctx: &Ctx, input: ListInput) -> Result<ListResult, OpError> {
        Ok(vc::list(
            ctx.vault(),
            input.folder.as_deref(),
            input.recursive.unwrap_or(true),
        )?)
    }
}

/// An input naming one canvas.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PathInput {
    #[doc = "Canvas path relative to the vault, e.g. \"Projects/Plan.canvas\" ('.canvas' may be left out)."]
    pub path: String,
}

/// How many canvases [`CanvasRead`] keeps the encoded output of.
const KEPT_READS: usize = 8;

/// Read a whole canvas.
///
/// Keeps the encoded output of the last few canvases read, by path and rev: agents read the
/// same canvas again and again between small edits, and serving an unchanged file from here
/// skips parsing and encoding it (a 1,000-node canvas costs milliseconds each time). The rev is
/// the hash of the bytes just read, so a kept output is never stale.
#[derive(Debug, Default)]
pub struct CanvasRead {
    kept: Mutex<Vec<(String, Rev, Arc<OpOutput>)>>,
}

impl CanvasRead {
    fn kept(&self, path: &str, rev: Rev) -> Option<Arc<OpOutput>> {
        let mut kept = self.kept.lock().unwrap_or_else(|p| p.into_inner());
        let i = kept.iter().position(|(p, r, _)| p == path && *r == rev)?;
        let entry = kept.remove(i);
        let out = entry.2.clone();
        kept.push(entry);
        Some(out)
    }

    fn keep(&self, path: String, rev: Rev, out: Arc<OpOutput>) {
        let mut kept = self.kept.lock().unwrap_or_else(|p| p.into_inner());
        kept.retain(|(p, _, _)| *p != path);
        if kept.len() >= KEPT_READS {
            kept.remove(0);
        }
        kept.push((path, rev, out));
    }
}

impl Op for CanvasRead {
    type Input = PathInput;
    type Output = ReadResult;
    const NAME: &'static str = "canvas_read";
    const TITLE: &'static str = "Read a canvas";
    const DESCRIPTION: &'static str = "Read a whole canvas: every node and edge as JSON, plus its 'rev'. \
Read before you change anything, and pass the 'rev' to the write tools so you never overwrite an edit made meanwhile.\n\
Example: {\"path\": \"Research.canvas\"}";
    const EFFECT: Effect = Effect::Read;

    fn run(&self, ctx: &Ctx, input: PathInput) -> Result<ReadResult, OpError> {
        Ok(vc::read(ctx.vault(), &input.path)?)
    }

    fn run_json(&self, ctx: &Ctx, input: PathInput) -> Result<OpOutput, OpError> {
        let mut hit = None;
        let read = vc::read_unless(ctx.vault(), &input.path, |p, rev| {
            hit = self.kept(p, rev);
            hit.is_some()
        })?;
        match (read, hit) {
            (None, Some(out)) => Ok(Arc::unwrap_or_clone(out)),
            (Some(r), _) => {
                let out = OpOutput::of(&r)?;
                if let Ok(rev) = r.rev.parse::<Rev>() {
                    self.keep(r.path, rev, Arc::new(out.clone()));
                }
                Ok(out)
            }
            (None, None) => Err(OpError::failure(
                "canvas_read skipped a canvas it had not kept",
            )),
        }
    }
}

/// `canvas_write`'s input.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WriteInput {
    #[doc = "Canvas path relative to the vault, e.g. \"Projects/Plan.canvas\" ('.canvas' may be left out)."]
    pub path: String,
    /// {"nodes":[...],"edges":[...]}; or give `nodes` and `edges` at the top level instead.
    #[serde(default)]
    pub data: Option<CanvasArrays>,
    /// The nodes (instead of `data`). Nodes need `type` plus `text`, `file`, `url` or `label`.
    #[serde(default)]
    #[schemars(with = "Option<Vec<Object>>")]
    pub nodes: Option<Vec<Value>>,
    /// The edges (instead of `data`), each with `fromNode` and `toNode`.
    #[serde(default)]
    #[schemars(with = "Option<Vec<Object>>")]
    pub edges: Option<Vec<Value>>,
}

/// Create a new canvas.
#[derive(Clone, Copy, Debug, Default)]
pub struct CanvasWrite;

impl Op for CanvasWrite {
    type Input = WriteInput;
    type Output = WriteResult;
    const NAME: &'static str = "canvas_write";
    const TITLE: &'static str = "Create a canvas";
    const DESCRIPTION: &'static str = "Create a NEW canvas from nodes and edges. Fails if the file exists: to change an existing canvas use canvas_update (replace everything) or the canvas_add_node / canvas_update_node tools (one change).\n\
Example: {\"path\": \"Ideas.canvas\", \"nodes\": [{\"id\": \"a\", \"type\": \"text\", \"text\": \"Idea\"}, {\"id\": \"b\", \"type\": \"text\", \"text\": \"Why\"}], \"edges\": [{\"fromNode\": \"a\", \"toNode\": \"b\"}]}";
    const EFFECT: Effect = Effect::Write;

    fn run(&self, ctx: &Ctx, input: WriteInput) -> Result<WriteResult, OpError> {
        let data = arrays(Self::NAME, input.data, input.nodes, input.edges)?;
        Ok(vc::write(
            ctx.vault(),
            &ctx.canvas_actor(),
            &input.path,
            data,
        )?)
    }
}

/// `canvas_update`'s input.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UpdateInput {
    #[doc = "Canvas path relative to the vault, e.g. \"Projects/Plan.canvas\" ('.canvas' may be left out)."]
    pub path: String,
    /// {"nodes":[...all nodes...]} and/or {"edges":[...all edges...]}; or give `nodes` and/or
    /// `edges` at the top level instead.
    #[serde(default)]
    pub data: Option<CanvasArrays>,
    /// All nodes (instead of `data`).
    #[serde(default)]
    #[schemars(with = "Option<Vec<Object>>")]
    pub nodes: Option<Vec<Value>>,
    /// All edges (instead of `data`).
    #[serde(default)]
    #[schemars(with = "Option<Vec<Object>>")]
    pub edges: Option<Vec<Value>>,
    /// The 'rev' from your last read: the write fails with a conflict if the canvas changed
    /// since, instead of overwriting someone else's edit.
    #[serde(default)]
    pub rev: Option<String>,
}

/// Replace all nodes and/or all edges.
#[derive(Clone, Copy, Debug, Default)]
pub struct CanvasUpdate;

impl Op for CanvasUpdate {
    type Input = UpdateInput;
    type Output = WriteResult;
    const NAME: &'static str = "canvas_update";
    const TITLE: &'static str = "Replace a canvas's nodes or edges";
    const DESCRIPTION: &'static str = "Replace ALL nodes and/or ALL edges of an existing canvas: read it with canvas_read, change the arrays, send them back with the 'rev' you read. \
Give only 'nodes' to keep the edges (edges to removed nodes are refused), only 'edges' to keep the nodes. For one small change, canvas_add_node or canvas_update_node is cheaper.\n\
Example: {\"path\": \"Ideas.canvas\", \"rev\": \"3f2a9c0d11e4b7a8\", \"nodes\": [...all nodes...]}";
    const EFFECT: Effect = Effect::Destructive;
    const IDEMPOTENT: bool = true;

    fn run(&self, ctx: &Ctx, input: UpdateInput) -> Result<WriteResult, OpError> {
        let rev = rev(input.rev.as_deref())?;
        let data = arrays(Self::NAME, input.data, input.nodes, input.edges)?;
        Ok(vc::update(
            ctx.vault(),
            &ctx.canvas_actor(),
            &input.path,
            data,
            rev,
        )?)
    }
}

/// Rewrite a canvas in Obsidian's layout.
#[derive(Clone, Copy, Debug, Default)]
pub struct CanvasFmt;

impl Op for CanvasFmt {
    type Input = PathInput;
    type Output = WriteResult;
    const NAME: &'static str = "canvas_fmt";
    const TITLE: &'static str = "Format a canvas";
    const DESCRIPTION: &'static str = "Rewrite a canvas in Obsidian's own layout (tabs, one node or edge per line), keeping every value. \
Use it on a hand-written or tool-written canvas so that later diffs stay small. 'changed' is false when it already was in that layout.\n\
Example: {\"path\": \"Imported.canvas\"}";
    const EFFECT: Effect = Effect::Write;
    const IDEMPOTENT: bool = true;

    fn run(&self, ctx: &Ctx, input: PathInput) -> Result<WriteResult, OpError> {
        Ok(vc::fmt(ctx.vault(), &ctx.canvas_actor(), &input.path)?)
    }
}

/// A node's type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum NodeType {
    /// Markdown text.
    Text,
    /// A vault file.
    File,
    /// A web page.
    Link,
    /// A labelled area holding other nodes.
    Group,
}

impl NodeType {
    /// The JSON Canvas name.
    pub fn as_str(self) -> &'static str {
        match self {
            NodeType::Text => "text",
            NodeType::File => "file",
            NodeType::Link => "link",
            NodeType::Group => "group",
        }
    }
}

/// `canvas_add_node`'s input.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AddNodeInput {
    #[doc = "Canvas path relative to the vault, e.g. \"Projects/Plan.canvas\" ('.canvas' may be left out)."]
    pub path: String,
    /// The node's type.
    #[serde(rename = "type")]
    pub kind: NodeType,
    /// Markdown text (text nodes).
    #[serde(default)]
    pub text: Option<String>,
    /// Vault path of the file (file nodes).
    #[serde(default)]
    pub file: Option<String>,
    /// '#Heading' or '#^block' inside the file (file nodes).
    #[serde(default)]
    pub subpath: Option<String>,
    /// URL (link nodes).
    #[serde(default)]
    pub url: Option<String>,
    /// Label (group nodes).
    #[serde(default)]
    pub label: Option<String>,
    /// Left edge; without x and y the node goes where it overlaps nothing.
    #[serde(default)]
    pub x: Option<Number>,
    /// Top edge.
    #[serde(default)]
    pub y: Option<Number>,
    /// Width in pixels.
    #[serde(default)]
    pub width: Option<Number>,
    /// Height in pixels.
    #[serde(default)]
    pub height: Option<Number>,
    /// A preset "1" (red) to "6" (purple), or a hex colour like "#ff8800".
    #[serde(default)]
    pub color: Option<String>,
    /// Use this id instead of a generated one.
    #[serde(default)]
    pub id: Option<String>,
    /// The 'rev' from your last read: the write fails with a conflict if the canvas changed
    /// since.
    #[serde(default)]
    pub rev: Option<String>,
}

impl AddNodeInput {
    /// The node as a JSON Canvas object, in the key order new nodes get.
    pub fn node(&self) -> Map {
        let mut node = Map::new();
        put(&mut node, "id", text(self.id.clone()));
        node.insert("type", Value::from(self.kind.as_str()));
        for (key, v) in [
            ("text", &self.text),
            ("file", &self.file),
            ("subpath", &self.subpath),
            ("url", &self.url),
            ("label", &self.label),
        ] {
            put(&mut node, key, text(v.clone()));
        }
        for (key, v) in [
            ("x", &self.x),
            ("y", &self.y),
            ("width", &self.width),
            ("height", &self.height),
        ] {
            put(&mut node, key, num(v.clone()));
        }
        put(&mut node, "color", text(self.color.clone()));
        node
    }
}

/// Add one node.
#[derive(Clone, Copy, Debug, Default)]
pub struct CanvasAddNode;

impl Op for CanvasAddNode {
    type Input = AddNodeInput;
    type Output = ItemResult;
    const NAME: &'static str = "canvas_add_node";
    const TITLE: &'static str = "Add a node";
    const DESCRIPTION: &'static str = "Add one node to an existing canvas. type 'text' needs 'text' (Markdown), 'file' needs 'file' (a vault path), 'link' needs 'url', 'group' takes a 'label'. \
Without x/y the node goes where it overlaps nothing; the result holds the new node with its id (use it in canvas_add_edge).\n\
Example: {\"path\": \"Ideas.canvas\", \"type\": \"text\", \"text\": \"# New idea\", \"color\": \"4\"}";
    const EFFECT: Effect = Effect::Write;

    fn run(&self, ctx: &Ctx, input: AddNodeInput) -> Result<ItemResult, OpError> {
        let rev = rev(input.rev.as_deref())?;
        Ok(vc::add_node(
            ctx.vault(),
            &ctx.canvas_actor(),
            &input.path,
            input.node(),
            rev,
        )?)
    }
}

/// `canvas_update_node` / `canvas_update_edge`'s input.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PatchInput {
    #[doc = "Canvas path relative to the vault, e.g. \"Projects/Plan.canvas\" ('.canvas' may be left out)."]
    pub path: String,
    /// The node's or edge's id.
    pub id: String,
    /// A JSON merge patch: the fields to change, e.g. {"text":"new text","color":"4"}; null
    /// removes a field.
    #[schemars(with = "Object")]
    pub data: Value,
    /// The 'rev' from your last read: the write fails with a conflict if the canvas changed
    /// since.
    #[serde(default)]
    pub rev: Option<String>,
}

fn patch(data: Value) -> Result<Map, OpError> {
    match data {
        Value::Object(m) => Ok(m),
        other => Err(OpError::invalid(
            format!("'data' must be a JSON object, it is {}", other.type_name()),
            "pass the fields to change, e.g. {\"text\":\"new text\",\"color\":\"4\"}",
        )),
    }
}

/// Change some fields of one node.
#[derive(Clone, Copy, Debug, Default)]
pub struct CanvasUpdateNode;

impl Op for CanvasUpdateNode {
    type Input = PatchInput;
    type Output = ItemResult;
    const NAME: &'static str = "canvas_update_node";
    const TITLE: &'static str = "Change a node";
    const DESCRIPTION: &'static str = "Change some fields of one node (move, resize, recolour, retext) with a merge patch; fields you leave out stay as they are, null removes one. \
Get the node id from canvas_read.\n\
Example: {\"path\": \"Ideas.canvas\", \"id\": \"6f0c2d1e9a8b7c3d\", \"data\": {\"text\": \"Revised\", \"x\": 400}}";
    const EFFECT: Effect = Effect::Destructive;
    const IDEMPOTENT: bool = true;

    fn run(&self, ctx: &Ctx, input: PatchInput) -> Result<ItemResult, OpError> {
        let rev = rev(input.rev.as_deref())?;
        Ok(vc::update_node(
            ctx.vault(),
            &ctx.canvas_actor(),
            &input.path,
            &input.id,
            patch(input.data)?,
            rev,
        )?)
    }
}

/// An input naming one node or edge.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ItemInput {
    #[doc = "Canvas path relative to the vault, e.g. \"Projects/Plan.canvas\" ('.canvas' may be left out)."]
    pub path: String,
    /// The node's or edge's id.
    pub id: String,
    /// The 'rev' from your last read: the write fails with a conflict if the canvas changed
    /// since.
    #[serde(default)]
    pub rev: Option<String>,
}

/// Remove one node and its edges.
#[derive(Clone, Copy, Debug, Default)]
pub struct CanvasRemoveNode;

impl Op for CanvasRemoveNode {
    type Input = ItemInput;
    type Output = ItemResult;
    const NAME: &'static str = "canvas_remove_node";
    const TITLE: &'static str = "Remove a node";
    const DESCRIPTION: &'static str = "Remove one node and every edge attached to it (their ids come back in 'removedEdges'). Undo with ledger_undo if it was a mistake.\n\
Example: {\"path\": \"Ideas.canvas\", \"id\": \"6f0c2d1e9a8b7c3d\"}";
    const EFFECT: Effect = Effect::Destructive;
    const IDEMPOTENT: bool = false;

    fn run(&self, ctx: &Ctx, input: ItemInput) -> Result<ItemResult, OpError> {
        let rev = rev(input.rev.as_deref())?;
        Ok(vc::remove_node(
            ctx.vault(),
            &ctx.canvas_actor(),
            &input.path,
            &input.id,
            rev,
        )?)
    }
}

/// A side of a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// The top side.
    Top,
    /// The right side.
    Right,
    /// The bottom side.
    Bottom,
    /// The left side.
    Left,
}

impl Side {
    /// The JSON Canvas name.
    pub fn as_str(self) -> &'static str {
        match self {
            Side::Top => "top",
            Side::Right => "right",
            Side::Bottom => "bottom",
            Side::Left => "left",
        }
    }
}

/// How an end of an edge is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum End {
    /// A plain line.
    None,
    /// An arrow head.
    Arrow,
}

impl End {
    /// The JSON Canvas name.
    pub fn as_str(self) -> &'static str {
        match self {
            End::None => "none",
            End::Arrow => "arrow",
        }
    }
}

/// `canvas_add_edge`'s input.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AddEdgeInput {
    #[doc = "Canvas path relative to the vault, e.g. \"Projects/Plan.canvas\" ('.canvas' may be left out)."]
    pub path: String,
    /// Id of the node the edge starts at.
    pub from: String,
    /// Id of the node the edge ends at.
    pub to: String,
    /// The side of `from` the edge leaves (from the positions when left out).
    #[serde(default)]
    pub from_side: Option<Side>,
    /// The side of `to` the edge enters (from the positions when left out).
    #[serde(default)]
    pub to_side: Option<Side>,
    /// How the start is drawn (default none).
    #[serde(default)]
    pub from_end: Option<End>,
    /// How the end is drawn (default arrow).
    #[serde(default)]
    pub to_end: Option<End>,
    /// Text on the edge.
    #[serde(default)]
    pub label: Option<String>,
    /// A preset "1" (red) to "6" (purple), or a hex colour like "#ff8800".
    #[serde(default)]
    pub color: Option<String>,
    /// Use this id instead of a generated one.
    #[serde(default)]
    pub id: Option<String>,
    /// The 'rev' from your last read: the write fails with a conflict if the canvas changed
    /// since.
    #[serde(default)]
    pub rev: Option<String>,
}

impl AddEdgeInput {
    /// The edge as a JSON Canvas object.
    pub fn edge(&self) -> Map {
        let mut edge = Map::new();
        put(&mut edge, "id", text(self.id.clone()));
        edge.insert("fromNode", Value::from(self.from.as_str()));
        put(
            &mut edge,
            "fromSide",
            self.from_side.map(|s| Value::from(s.as_str())),
        );
        put(
            &mut edge,
            "fromEnd",
            self.from_end.map(|e| Value::from(e.as_str())),
        );
        edge.insert("toNode", Value::from(self.to.as_str()));
        put(
            &mut edge,
            "toSide",
            self.to_side.map(|s| Value::from(s.as_str())),
        );
        put(
            &mut edge,
            "toEnd",
            self.to_end.map(|e| Value::from(e.as_str())),
        );
        put(&mut edge, "color", text(self.color.clone()));
        put(&mut edge, "label", text(self.label.clone()));
        edge
    }
}

/// Connect two nodes.
#[derive(Clone, Copy, Debug, Default)]
pub struct CanvasAddEdge;

impl Op for CanvasAddEdge {
    type Input = AddEdgeInput;
    type Output = ItemResult;
    const NAME: &'static str = "canvas_add_edge";
    const TITLE: &'static str = "Connect two nodes";
    const DESCRIPTION: &'static str = "Connect two existing nodes with an arrow. Sides are chosen from the nodes' positions unless you give them; the arrow points at 'to' by default.\n\
Example: {\"path\": \"Ideas.canvas\", \"from\": \"6f0c2d1e9a8b7c3d\", \"to\": \"a1b2c3d4e5f60718\", \"label\": \"leads to\"}";
    const EFFECT: Effect = Effect::Write;

    fn run(&self, ctx: &Ctx, input: AddEdgeInput) -> Result<ItemResult, OpError> {
        let rev = rev(input.rev.as_deref())?;
        Ok(vc::add_edge(
            ctx.vault(),
            &ctx.canvas_actor(),
            &input.path,
            input.edge(),
            rev,
        )?)
    }
}

/// Change some fields of one edge.
#[derive(Clone, Copy, Debug, Default)]
pub struct CanvasUpdateEdge;

impl Op for CanvasUpdateEdge {
    type Input = PatchInput;
    type Output = ItemResult;
    const NAME: &'static str = "canvas_update_edge";
    const TITLE: &'static str = "Change an edge";
    const DESCRIPTION: &'static str = "Change some fields of one edge (label, colour, ends, sides) with a merge patch; null removes a field.\n\
Example: {\"path\": \"Ideas.canvas\", \"id\": \"0e9d8c7b6a5f4e3d\", \"data\": {\"label\": \"because\", \"toEnd\": \"none\"}}";
    const EFFECT: Effect = Effect::Destructive;
    const IDEMPOTENT: bool = true;

    fn run(&self, ctx: &Ctx, input: PatchInput) -> Result<ItemResult, OpError> {
        let rev = rev(input.rev.as_deref())?;
        Ok(vc::update_edge(
            ctx.vault(),
            &ctx.canvas_actor(),
            &input.path,
            &input.id,
            patch(input.data)?,
            rev,
        )?)
    }
}

/// Remove one edge.
#[derive(Clone, Copy, Debug, Default)]
pub struct CanvasRemoveEdge;

impl Op for CanvasRemoveEdge {
    type Input = ItemInput;
    type Output = ItemResult;
    const NAME: &'static str = "canvas_remove_edge";
    const TITLE: &'static str = "Remove an edge";
    const DESCRIPTION: &'static str = "Remove one edge; the nodes stay.\n\
Example: {\"path\": \"Ideas.canvas\", \"id\": \"0e9d8c7b6a5f4e3d\"}";
    const EFFECT: Effect = Effect::Destructive;

    fn run(&self, ctx: &Ctx, input: ItemInput) -> Result<ItemResult, OpError> {
        let rev = rev(input.rev.as_deref())?;
        Ok(vc::remove_edge(
            ctx.vault(),
            &ctx.canvas_actor(),
            &input.path,
            &input.id,
            rev,
        )?)
    }
}

/// `canvas_find`'s input.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FindInput {
    #[doc = "Canvas path relative to the vault, e.g. \"Projects/Plan.canvas\" ('.canvas' may be left out)."]
    pub path: String,
    /// Only nodes of this type.
    #[serde(default, rename = "type")]
    pub kind: Option<NodeType>,
    /// Only nodes of this colour ("1" to "6" or a hex colour).
    #[serde(default)]
    pub color: Option<String>,
    /// A group's id or label: nodes inside it.
    #[serde(default)]
    pub group: Option<String>,
    /// Case-insensitive text in the node's text, file path, URL or label.
    #[serde(default)]
    pub text: Option<String>,
}

/// Find nodes.
#[derive(Clone, Copy, Debug, Default)]
pub struct CanvasFind;

impl Op for CanvasFind {
    type Input = FindInput;
    type Output = FindResult;
    const NAME: &'static str = "canvas_find";
    const TITLE: &'static str = "Find nodes";
    const DESCRIPTION: &'static str = "Find nodes of one canvas by type, colour, group or text (all given criteria must match). Cheaper than canvas_read on a big canvas when you look for a few nodes.\n\
Example: {\"path\": \"Research.canvas\", \"text\": \"budget\", \"type\": \"text\"}";
    const EFFECT: Effect = Effect::Read;

    fn run(&self, ctx: &Ctx, input: FindInput) -> Result<FindResult, OpError> {
        let query = NodeQuery {
            kind: input.kind.map(NodeType::as_str),
            color: input.color.as_deref(),
            group: input.group.as_deref(),
            text: input.text.as_deref(),
        };
        Ok(vc::find(ctx.vault(), &input.path, &query)?)
    }
}

/// Check a canvas against JSON Canvas 1.0.
#[derive(Clone, Copy, Debug, Default)]
pub struct CanvasValidate;

impl Op for CanvasValidate {
    type Input = PathInput;
    type Output = ValidateResult;
    const NAME: &'static str = "canvas_validate";
    const TITLE: &'static str = "Validate a canvas";
    const DESCRIPTION: &'static str = "Check a canvas against JSON Canvas 1.0: 'errors' break the spec (fix them), 'warnings' are tolerated deviations. Use it after large edits or when a canvas will not open.\n\
Example: {\"path\": \"Research.canvas\"}";
    const EFFECT: Effect = Effect::Read;

    fn run(&self, ctx: &Ctx, input: PathInput) -> Result<ValidateResult, OpError> {
        Ok(vc::validate(ctx.vault(), &input.path)?)
    }
}
