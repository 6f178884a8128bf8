//! The canvas document: nodes and edges in file order, every key kept.
//!
//! Nodes and edges are stored as the JSON objects they were read from, with typed accessors
//! on top. That keeps unknown keys (Advanced Canvas, other plugins), key order and number
//! text without a parallel "extra fields" structure, and makes a round trip trivially exact.
//! An object read from a file stays as its text until something needs it built
//! ([`crate::object`]): the accessors and validation read the text directly.

use crate::error::CanvasError;
use crate::geometry::Rect;
use crate::json::parse::{TopValue, parse_canvas};
use crate::json::{self, Map, ParseError, Value};
use crate::object::Obj;
use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

/// The four node types of JSON Canvas 1.0, plus whatever else a file holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeKind<'a> {
    Text,
    File,
    Link,
    Group,
    /// A type this crate does not know (kept verbatim, reported as a warning).
    Other(&'a str),
}

impl<'a> NodeKind<'a> {
    pub fn parse(s: &'a str) -> NodeKind<'a> {
        match s {
            "text" => NodeKind::Text,
            "file" => NodeKind::File,
            "link" => NodeKind::Link,
            "group" => NodeKind::Group,
            other => NodeKind::Other(other),
        }
    }

    pub fn as_str(&self) -> &'a str {
        match self {
            NodeKind::Text => "text",
            NodeKind::File => "file",
            NodeKind::Link => "link",
            NodeKind::Group => "group",
            NodeKind::Other(s) => s,
        }
    }
}

/// The side of a node an edge attaches to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    Top,
    Right,
    Bottom,
    Left,
}

impl Side {
    pub const ALL: [Side; 4] = [Side::Top, Side::Right, Side::Bottom, Side::Left];

    pub fn as_str(self) -> &'static str {
        match self {
            Side::Top => "top",
            Side::Right => "right",
            Side::Bottom => "bottom",
            Side::Left => "left",
        }
    }

    pub fn opposite(self) -> Side {
        match self {
            Side::Top => Side::Bottom,
            Side::Right => Side::Left,
            Side::Bottom => Side::Top,
            Side::Left => Side::Right,
        }
    }
}

impl FromStr for Side {
    type Err = String;
    fn from_str(s: &str) -> Result<Side, String> {
        match s {
            "top" => Ok(Side::Top),
            "right" => Ok(Side::Right),
            "bottom" => Ok(Side::Bottom),
            "left" => Ok(Side::Left),
            other => Err(format!("'{other}' is not a side (top|right|bottom|left)")),
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What an edge end looks like.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    None,
    Arrow,
}

impl End {
    pub fn as_str(self) -> &'static str {
        match self {
            End::None => "none",
            End::Arrow => "arrow",
        }
    }
}

impl FromStr for End {
    type Err = String;
    fn from_str(s: &str) -> Result<End, String> {
        match s {
            "none" => Ok(End::None),
            "arrow" => Ok(End::Arrow),
            other => Err(format!("'{other}' is not an edge end (none|arrow)")),
        }
    }
}

/// A node, as the JSON object it is in the file.
#[derive(Clone)]
pub struct Node {
    obj: Obj,
}

/// An edge, as the JSON object it is in the file.
#[derive(Clone)]
pub struct Edge {
    obj: Obj,
}

impl fmt::Debug for Node {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Node").field("fields", &self.obj).finish()
    }
}

impl fmt::Debug for Edge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Edge").field("fields", &self.obj).finish()
    }
}

// Equality is about content: where the text came from does not matter.
impl PartialEq for Node {
    fn eq(&self, other: &Node) -> bool {
        self.fields() == other.fields()
    }
}

impl PartialEq for Edge {
    fn eq(&self, other: &Edge) -> bool {
        self.fields() == other.fields()
    }
}

/// Slot numbers of [`crate::object::node_slot`].
mod node_key {
    pub const ID: usize = 0;
    pub const TYPE: usize = 1;
    pub const X: usize = 2;
    pub const Y: usize = 3;
    pub const WIDTH: usize = 4;
    pub const HEIGHT: usize = 5;
    pub const COLOR: usize = 6;
    pub const TEXT: usize = 7;
    pub const FILE: usize = 8;
    pub const SUBPATH: usize = 9;
    pub const URL: usize = 10;
    pub const LABEL: usize = 11;
}

/// Slot numbers of [`crate::object::edge_slot`].
mod edge_key {
    pub const ID: usize = 0;
    pub const FROM_NODE: usize = 1;
    pub const TO_NODE: usize = 2;
    pub const FROM_SIDE: usize = 3;
    pub const TO_SIDE: usize = 4;
    pub const FROM_END: usize = 5;
    pub const TO_END: usize = 6;
    pub const LABEL: usize = 7;
    pub const COLOR: usize = 8;
}

impl Node {
    pub fn from_map(fields: Map) -> Node {
        Node {
            obj: Obj::Owned(fields),
        }
    }

    pub(crate) fn from_obj(obj: Obj) -> Node {
        Node { obj }
    }

    pub(crate) fn obj(&self) -> &Obj {
        &self.obj
    }

    /// The whole object. For a node read from a file and not changed since, the first call
    /// builds it from the text (the typed accessors below do not need that).
    pub fn fields(&self) -> &Map {
        self.obj.fields()
    }

    pub(crate) fn fields_mut(&mut self) -> &mut Map {
        self.obj.fields_mut()
    }

    pub fn into_map(self) -> Map {
        self.obj.into_map()
    }

    pub fn get(&self, key: &str) -> Option<&Value> {
        self.fields().get(key)
    }

    /// The id, or `""` when the node has none (validation reports that).
    pub fn id(&self) -> &str {
        self.obj.str_field(node_key::ID, "id").unwrap_or("")
    }

    pub fn kind(&self) -> NodeKind<'_> {
        NodeKind::parse(self.obj.str_field(node_key::TYPE, "type").unwrap_or(""))
    }

    pub fn text(&self) -> Option<&str> {
        self.obj.str_field(node_key::TEXT, "text")
    }

    pub fn file(&self) -> Option<&str> {
        self.obj.str_field(node_key::FILE, "file")
    }

    pub fn subpath(&self) -> Option<&str> {
        self.obj.str_field(node_key::SUBPATH, "subpath")
    }

    pub fn url(&self) -> Option<&str> {
        self.obj.str_field(node_key::URL, "url")
    }

    pub fn label(&self) -> Option<&str> {
        self.obj.str_field(node_key::LABEL, "label")
    }

    /// The colour as written when it is a string (`"1"`-`"6"` or `"#RRGGBB"`).
    pub fn color(&self) -> Option<&str> {
        self.obj.str_field(node_key::COLOR, "color")
    }

    /// Position and size, when all four are numbers.
    pub fn rect(&self) -> Option<Rect> {
        Some(Rect {
            x: self.obj.num_field(node_key::X, "x")?,
            y: self.obj.num_field(node_key::Y, "y")?,
            width: self.obj.num_field(node_key::WIDTH, "width")?,
            height: self.obj.num_field(node_key::HEIGHT, "height")?,
        })
    }

    /// The words a search should see: text, file path, URL or label.
    pub fn searchable_text(&self) -> Option<&str> {
        match self.kind() {
            NodeKind::Text => self.text(),
            NodeKind::File => self.file(),
            NodeKind::Link => self.url(),
            NodeKind::Group => self.label(),
            NodeKind::Other(_) => None,
        }
    }
}

impl Edge {
    pub fn from_map(fields: Map) -> Edge {
        Edge {
            obj: Obj::Owned(fields),
        }
    }

    pub(crate) fn from_obj(obj: Obj) -> Edge {
        Edge { obj }
    }

    pub(crate) fn obj(&self) -> &Obj {
        &self.obj
    }

    /// The whole object, built on first use as [`Node::fields`] is.
    pub fn fields(&self) -> &Map {
        self.obj.fields()
    }

    pub fn into_map(self) -> Map {
        self.obj.into_map()
    }

    pub fn get(&self, key: &str) -> Option<&Value> {
        self.fields().get(key)
    }

    pub fn id(&self) -> &str {
        self.obj.str_field(edge_key::ID, "id").unwrap_or("")
    }

    pub fn from_node(&self) -> &str {
        self.obj
            .str_field(edge_key::FROM_NODE, "fromNode")
            .unwrap_or("")
    }

    pub fn to_node(&self) -> &str {
        self.obj
            .str_field(edge_key::TO_NODE, "toNode")
            .unwrap_or("")
    }

    /// `fromSide`, when present and valid.
    pub fn from_side(&self) -> Option<Side> {
        self.obj
            .str_field(edge_key::FROM_SIDE, "fromSide")
            .and_then(|s| s.parse().ok())
    }

    /// `toSide`, when present and valid.
    pub fn to_side(&self) -> Option<Side> {
        self.obj
            .str_field(edge_key::TO_SIDE, "toSide")
            .and_then(|s| s.parse().ok())
    }

    /// `fromEnd`, defaulting to `none` as the spec says.
    pub fn from_end(&self) -> End {
        self.obj
            .str_field(edge_key::FROM_END, "fromEnd")
            .and_then(|s| s.parse().ok())
            .unwrap_or(End::None)
    }

    /// `toEnd`, defaulting to `arrow` as the spec says.
    pub fn to_end(&self) -> End {
        self.obj
            .str_field(edge_key::TO_END, "toEnd")
            .and_then(|s| s.parse().ok())
            .unwrap_or(End::Arrow)
    }

    pub fn label(&self) -> Option<&str> {
        self.obj.str_field(edge_key::LABEL, "label")
    }

    pub fn color(&self) -> Option<&str> {
        self.obj.str_field(edge_key::COLOR, "color")
    }

    /// True when the edge touches node `id` at either end.
    pub fn touches(&self, id: &str) -> bool {
        self.from_node() == id || self.to_node() == id
    }
}

/// Where a top-level key sits in the file, so unknown keys keep their place around
/// `nodes` and `edges`.
#[derive(Clone, Debug, PartialEq)]
enum Top {
    Nodes,
    Edges,
    Other(String, Value),
}

/// A JSON Canvas document.
#[derive(Clone, Debug)]
pub struct Canvas {
    nodes: Vec<Node>,
    edges: Vec<Edge>,
    top: Vec<Top>,
    /// Length of the text this was read from: the output is about as long, and sizing the
    /// buffer once saves copying tens of megabytes on large canvases.
    size_hint: usize,
}

impl PartialEq for Canvas {
    fn eq(&self, other: &Canvas) -> bool {
        self.nodes == other.nodes && self.edges == other.edges && self.top == other.top
    }
}

impl Default for Canvas {
    /// An empty canvas with both arrays, as Obsidian writes it.
    fn default() -> Canvas {
        Canvas {
            nodes: Vec::new(),
            edges: Vec::new(),
            top: vec![Top::Nodes, Top::Edges],
            size_hint: 0,
        }
    }
}

impl Canvas {
    /// An empty canvas with `nodes` and `edges`.
    pub fn new() -> Canvas {
        Canvas::default()
    }

    /// Reads canvas text. Fails only when the text is not JSON, or when its shape cannot be a
    /// canvas at all (not an object, `nodes`/`edges` not arrays of objects); everything else
    /// is kept and left to [`crate::validate`].
    pub fn parse(text: &str) -> Result<Canvas, CanvasError> {
        // Some editors add a byte order mark; JSON forbids it but nothing is lost by skipping.
        let body = text.strip_prefix('\u{feff}').unwrap_or(text);
        Canvas::parse_body(&Arc::new(body.to_owned()))
    }

    /// [`Canvas::parse`] for text the caller no longer needs: the canvas keeps it (its nodes
    /// and edges are read from it on demand) instead of copying it first.
    pub fn parse_owned(text: String) -> Result<Canvas, CanvasError> {
        Canvas::parse_shared(Arc::new(text))
    }

    /// [`Canvas::parse_owned`] for text something else reads at the same time (the vault
    /// hashes a large file for its revision on a second thread while it is parsed): the
    /// canvas keeps a reference to it, no copy is made.
    pub fn parse_shared(text: Arc<String>) -> Result<Canvas, CanvasError> {
        if text.starts_with('\u{feff}') {
            return Canvas::parse(&text);
        }
        Canvas::parse_body(&text)
    }

    /// The canvas read from `body`, which its nodes and edges keep pointing into.
    fn parse_body(body: &Arc<String>) -> Result<Canvas, CanvasError> {
        let doc = match parse_canvas(body).map_err(CanvasError::Parse)? {
            Ok(doc) => doc,
            Err(value) => return Canvas::from_value_at(value, Some(body.as_str())),
        };
        let shape = |message: String| CanvasError::Parse(ParseError::at(body, 0, message));
        let mut canvas = Canvas {
            nodes: Vec::new(),
            edges: Vec::new(),
            top: Vec::with_capacity(doc.members.len()),
            size_hint: body.len(),
        };
        for (key, v) in doc.members {
            let items = match v {
                TopValue::Items(items) => items,
                TopValue::Other(v) => match key.as_str() {
                    "nodes" | "edges" => {
                        canvas.claim_slot(key == "nodes", &key, &shape)?;
                        return Err(shape(format!(
                            "\"{key}\" must be an array, it is {}",
                            v.type_name()
                        )));
                    }
                    _ => {
                        canvas.top.push(Top::Other(key.into(), v));
                        continue;
                    }
                },
            };
            let is_nodes = key == "nodes";
            canvas.claim_slot(is_nodes, &key, &shape)?;
            if let Some((i, type_name)) = items.not_object {
                return Err(shape(format!(
                    "\"{key}\"[{i}] must be an object, it is {type_name}"
                )));
            }
            // Same layout, so these collect in place.
            if is_nodes {
                canvas.nodes = items.objects.into_iter().map(Node::from_obj).collect();
            } else {
                canvas.edges = items.objects.into_iter().map(Edge::from_obj).collect();
            }
        }
        Ok(canvas)
    }

    /// Records that the `nodes` (or `edges`) array was read; a second one is an error.
    fn claim_slot(
        &mut self,
        is_nodes: bool,
        key: &str,
        shape: &dyn Fn(String) -> CanvasError,
    ) -> Result<(), CanvasError> {
        let slot = if is_nodes { Top::Nodes } else { Top::Edges };
        if self.top.contains(&slot) {
            return Err(shape(format!("\"{key}\" appears twice")));
        }
        self.top.push(slot);
        Ok(())
    }

    /// Builds a canvas from an already parsed JSON value (for example MCP arguments).
    pub fn from_value(value: Value) -> Result<Canvas, CanvasError> {
        Canvas::from_value_at(value, None)
    }

    fn from_value_at(value: Value, text: Option<&str>) -> Result<Canvas, CanvasError> {
        // Shape errors point at the start of the document: the tree has no positions, and
        // the message names the key.
        let shape = |message: String| match text {
            Some(t) => CanvasError::Parse(ParseError::at(t, 0, message)),
            None => CanvasError::Shape(message),
        };
        let Value::Object(map) = value else {
            return Err(shape(format!(
                "a canvas must be a JSON object, this is {}",
                value.type_name()
            )));
        };
        let mut canvas = Canvas {
            nodes: Vec::new(),
            edges: Vec::new(),
            top: Vec::with_capacity(map.len()),
            size_hint: 0,
        };
        for (key, v) in map {
            match key.as_str() {
                "nodes" | "edges" => {
                    let is_nodes = key == "nodes";
                    if canvas
                        .top
                        .contains(&if is_nodes { Top::Nodes } else { Top::Edges })
                    {
                        return Err(shape(format!("\"{key}\" appears twice")));
                    }
                    let Value::Array(items) = v else {
                        return Err(shape(format!(
                            "\"{key}\" must be an array, it is {}",
                            v.type_name()
                        )));
                    };
                    let mut objects = Vec::with_capacity(items.len());
                    for (i, item) in items.into_iter().enumerate() {
                        match item {
                            Value::Object(m) => objects.push(m),
                            other => {
                                return Err(shape(format!(
                                    "\"{key}\"[{i}] must be an object, it is {}",
                                    other.type_name()
                                )));
                            }
                        }
                    }
                    if is_nodes {
                        canvas.nodes = objects.into_iter().map(Node::from_map).collect();
                        canvas.top.push(Top::Nodes);
                    } else {
                        canvas.edges = objects.into_iter().map(Edge::from_map).collect();
                        canvas.top.push(Top::Edges);
                    }
                }
                _ => canvas.top.push(Top::Other(key.into(), v)),
            }
        }
        Ok(canvas)
    }

    /// Nodes in file order, which is z-order: later nodes are drawn on top.
    pub fn nodes(&self) -> &[Node] {
        &self.nodes
    }

    /// Edges in file order.
    pub fn edges(&self) -> &[Edge] {
        &self.edges
    }

    pub fn node(&self, id: &str) -> Option<&Node> {
        self.nodes.iter().find(|n| n.id() == id)
    }

    pub fn edge(&self, id: &str) -> Option<&Edge> {
        self.edges.iter().find(|e| e.id() == id)
    }

    pub(crate) fn node_index(&self, id: &str) -> Option<usize> {
        self.nodes.iter().position(|n| n.id() == id)
    }

    pub(crate) fn edge_index(&self, id: &str) -> Option<usize> {
        self.edges.iter().position(|e| e.id() == id)
    }

    pub(crate) fn nodes_mut(&mut self) -> &mut Vec<Node> {
        self.ensure_slot(Top::Nodes);
        &mut self.nodes
    }

    pub(crate) fn edges_mut(&mut self) -> &mut Vec<Edge> {
        self.ensure_slot(Top::Nodes);
        self.ensure_slot(Top::Edges);
        &mut self.edges
    }

    /// A canvas read from `{}` has no arrays; the first change adds them in Obsidian's order.
    fn ensure_slot(&mut self, slot: Top) {
        if self.top.contains(&slot) {
            return;
        }
        let at = match slot {
            Top::Nodes => 0,
            _ => self
                .top
                .iter()
                .position(|t| *t == Top::Nodes)
                .map_or(0, |p| p + 1),
        };
        self.top.insert(at, slot);
    }

    /// Top-level keys other than `nodes` and `edges`, in file order.
    pub fn extra(&self) -> impl Iterator<Item = (&str, &Value)> {
        self.top.iter().filter_map(|t| match t {
            Top::Other(k, v) => Some((k.as_str(), v)),
            _ => None,
        })
    }

    /// True when the file had a `nodes` key (or a change added one).
    pub fn has_nodes_key(&self) -> bool {
        self.top.contains(&Top::Nodes)
    }

    /// Serializes in Obsidian's own layout: one compact object per line, tab indentation,
    /// no trailing newline. A file already in this layout comes back byte for byte.
    pub fn to_obsidian_string(&self) -> String {
        // Roughly what the objects take, to avoid regrowing the buffer on large canvases.
        let estimate = 64 + (self.nodes.len() + self.edges.len()) * 160;
        let mut out = String::with_capacity(self.size_hint.max(estimate) + 256);
        if self.top.is_empty() {
            out.push_str("{}");
            return out;
        }
        out.push_str("{\n");
        for (i, slot) in self.top.iter().enumerate() {
            if i > 0 {
                out.push_str(",\n");
            }
            match slot {
                Top::Nodes => write_array(&mut out, "nodes", self.nodes.iter().map(|n| &n.obj)),
                Top::Edges => write_array(&mut out, "edges", self.edges.iter().map(|e| &e.obj)),
                Top::Other(k, v) => {
                    out.push('\t');
                    json::write_string(&mut out, k);
                    out.push(':');
                    json::write_compact(&mut out, v);
                }
            }
        }
        out.push_str("\n}");
        out
    }

    /// The whole document as one JSON value (for tool results).
    pub fn to_value(&self) -> Value {
        let mut map = Map::with_capacity(self.top.len());
        for slot in &self.top {
            match slot {
                Top::Nodes => map.push(
                    "nodes",
                    Value::Array(
                        self.nodes
                            .iter()
                            .map(|n| n.fields().clone().into())
                            .collect(),
                    ),
                ),
                Top::Edges => map.push(
                    "edges",
                    Value::Array(
                        self.edges
                            .iter()
                            .map(|e| e.fields().clone().into())
                            .collect(),
                    ),
                ),
                Top::Other(k, v) => map.push(k.as_str(), v.clone()),
            }
        }
        Value::Object(map)
    }

    pub(crate) fn all_ids(&self) -> impl Iterator<Item = &str> {
        self.nodes
            .iter()
            .map(Node::id)
            .chain(self.edges.iter().map(Edge::id))
    }
}

fn write_array<'a>(out: &mut String, key: &str, items: impl ExactSizeIterator<Item = &'a Obj>) {
    out.push('\t');
    json::write_string(out, key);
    out.push_str(":[");
    if items.len() == 0 {
        out.push(']');
        return;
    }
    for (i, item) in items.enumerate() {
        out.push_str(if i == 0 { "\n\t\t" } else { ",\n\t\t" });
        // Text already in compact form is copied; the rest is written from the object.
        match item.verbatim() {
            Some(text) => out.push_str(text),
            None => json::write_compact_map(out, item.fields()),
        }
    }
    out.push_str("\n\t]");
}

impl fmt::Display for Canvas {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_obsidian_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const OBSIDIAN: &str = include_str!("../tests/data/obsidian-layout.canvas");

    #[test]
    fn obsidian_file_round_trips_byte_for_byte() {
        let canvas = Canvas::parse(OBSIDIAN).unwrap();
        assert_eq!(canvas.to_obsidian_string(), OBSIDIAN);
        assert_eq!(canvas.nodes().len(), 6);
        assert_eq!(canvas.edges().len(), 4);
    }

    #[test]
    fn owned_text_parses_as_borrowed_text_does() {
        for text in [OBSIDIAN.to_owned(), format!("\u{feff}{OBSIDIAN}")] {
            let owned = Canvas::parse_owned(text.clone()).unwrap();
            assert_eq!(owned, Canvas::parse(&text).unwrap());
            assert_eq!(owned.to_obsidian_string(), OBSIDIAN);
            let shared = Arc::new(text.clone());
            let from_shared = Canvas::parse_shared(Arc::clone(&shared)).unwrap();
            assert_eq!(from_shared, owned);
            assert_eq!(from_shared.to_obsidian_string(), OBSIDIAN);
            // The canvas reads the caller's text instead of a copy of it.
            if !text.starts_with('\u{feff}') {
                assert!(Arc::strong_count(&shared) > 1);
            }
        }
    }

    #[test]
    fn other_layouts_are_rewritten_into_obsidians() {
        let pretty = "{\n  \"edges\": [],\n  \"meta\": {\"v\": 1.0},\n  \"nodes\": [\n    {\"id\": \"a\", \"x\": 1.50}\n  ]\n}\n";
        let canvas = Canvas::parse(pretty).unwrap();
        assert_eq!(
            canvas.to_obsidian_string(),
            "{\n\t\"edges\":[],\n\t\"meta\":{\"v\":1.0},\n\t\"nodes\":[\n\t\t{\"id\":\"a\",\"x\":1.50}\n\t]\n}"
        );
    }

    #[test]
    fn empty_object_stays_empty_until_changed() {
        let mut canvas = Canvas::parse("{}").unwrap();
        assert_eq!(canvas.to_obsidian_string(), "{}");
        canvas.edges_mut();
        assert_eq!(
            canvas.to_obsidian_string(),
            "{\n\t\"nodes\":[],\n\t\"edges\":[]\n}"
        );
    }

    #[test]
    fn shape_errors_are_clear() {
        for (text, needle) in [
            ("[]", "must be a JSON object"),
            ("{\"nodes\":{}}", "\"nodes\" must be an array"),
            ("{\"edges\":[1]}", "\"edges\"[0] must be an object"),
            ("{\"nodes\":[],\"nodes\":[]}", "appears twice"),
        ] {
            let err = Canvas::parse(text).unwrap_err().to_string();
            assert!(err.contains(needle), "{text}: {err}");
        }
    }

    #[test]
    fn edge_defaults_follow_the_spec() {
        let c = Canvas::parse(r#"{"edges":[{"id":"e","fromNode":"a","toNode":"b"}]}"#).unwrap();
        let e = &c.edges()[0];
        assert_eq!((e.from_end(), e.to_end()), (End::None, End::Arrow));
        assert_eq!((e.from_side(), e.to_side()), (None, None));
    }
}
