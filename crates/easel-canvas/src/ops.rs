//! Edit operations. Each one checks what it is given before it changes anything: on error the
//! canvas is exactly as it was.
//!
//! Operations validate the objects they touch, not the whole document, so that a file with an
//! unrelated problem (made by hand, or by another tool) can still be edited and repaired.
//! Replacing all nodes or edges is the exception: everything is new, so everything is checked.

use crate::error::CanvasError;
use crate::geometry::{self, Rect};
use crate::ids::IdGen;
use crate::json::{Map, Value};
use crate::model::{Canvas, Edge, Node, NodeKind};
use crate::validate::{self, Report};
use std::collections::{HashMap, HashSet};

/// Key order for objects Easel creates: identity, payload, geometry, colour, then the rest.
pub const NODE_KEY_ORDER: &[&str] = &[
    "id",
    "type",
    "text",
    "file",
    "subpath",
    "url",
    "label",
    "background",
    "backgroundStyle",
    "x",
    "y",
    "width",
    "height",
    "color",
];

/// Key order for edges Easel creates, as Obsidian writes them.
pub const EDGE_KEY_ORDER: &[&str] = &[
    "id", "fromNode", "fromSide", "fromEnd", "toNode", "toSide", "toEnd", "color", "label",
];

/// Size Obsidian gives a new node of each type.
pub fn default_size(kind: NodeKind<'_>) -> (f64, f64) {
    match kind {
        NodeKind::Text => (250.0, 60.0),
        _ => (400.0, 400.0),
    }
}

fn num(v: f64) -> Value {
    Value::from(v)
}

fn errors_only(report: Report) -> Result<(), CanvasError> {
    if report.errors.is_empty() {
        Ok(())
    } else {
        Err(CanvasError::Invalid(report.errors))
    }
}

/// Orders `incoming` like `existing`; keys `existing` lacks follow in `canonical` order.
fn order_like(incoming: &mut Map, existing: &Map, canonical: &[&str]) {
    let old: Vec<&str> = existing.keys().collect();
    let mut order: Vec<&str> = old.clone();
    order.extend(canonical.iter().filter(|k| !old.contains(k)));
    incoming.reorder(&order);
}

impl Canvas {
    fn taken_ids(&self) -> HashSet<String> {
        self.all_ids().map(str::to_owned).collect()
    }

    /// Fills what a new node may leave out: id, size by type, and a free position.
    fn complete_new_node(&self, fields: &mut Map, ids: &mut IdGen, taken: &mut HashSet<String>) {
        if !fields.contains_key("id") {
            fields.insert("id", Value::from(ids.fresh(taken)));
        }
        let kind = NodeKind::parse(fields.get("type").and_then(Value::as_str).unwrap_or(""));
        let (w, h) = default_size(kind);
        if !fields.contains_key("width") {
            fields.insert("width", num(w));
        }
        if !fields.contains_key("height") {
            fields.insert("height", num(h));
        }
        if !fields.contains_key("x") || !fields.contains_key("y") {
            let width = fields.get("width").and_then(Value::as_f64).unwrap_or(w);
            let height = fields.get("height").and_then(Value::as_f64).unwrap_or(h);
            let (x, y) = self.free_position(width, height);
            if !fields.contains_key("x") {
                fields.insert("x", num(x));
            }
            if !fields.contains_key("y") {
                fields.insert("y", num(y));
            }
        }
        fields.reorder(NODE_KEY_ORDER);
    }

    /// Sides from geometry for an edge that has none, as DESIGN.md section 4 requires.
    fn complete_new_edge(fields: &mut Map, rect_of_node: impl Fn(&str) -> Option<Rect>) {
        let rect_of = |key: &str| -> Option<Rect> { rect_of_node(fields.get(key)?.as_str()?) };
        if let (Some(from), Some(to)) = (rect_of("fromNode"), rect_of("toNode")) {
            let (fs, ts) = geometry::edge_sides(&from, &to);
            if !fields.contains_key("fromSide") {
                fields.insert("fromSide", Value::from(fs.as_str()));
            }
            if !fields.contains_key("toSide") {
                fields.insert("toSide", Value::from(ts.as_str()));
            }
        }
        fields.reorder(EDGE_KEY_ORDER);
    }

    /// Adds a node at the top of the z-order. Missing `id`, `width`/`height` and `x`/`y`
    /// are filled in (a free spot right of the newest node).
    pub fn add_node(&mut self, mut fields: Map, ids: &mut IdGen) -> Result<&Node, CanvasError> {
        let mut taken = self.taken_ids();
        if let Some(id) = fields.get("id").and_then(Value::as_str)
            && taken.contains(id)
        {
            return Err(CanvasError::DuplicateId(id.to_owned()));
        }
        self.complete_new_node(&mut fields, ids, &mut taken);
        let node = Node::from_map(fields);
        let mut report = Report::default();
        validate::check_node(&node, &mut report);
        errors_only(report)?;
        let nodes = self.nodes_mut();
        nodes.push(node);
        Ok(&nodes[nodes.len() - 1])
    }

    /// Applies a JSON merge patch (RFC 7396) to one node. The id cannot change.
    pub fn update_node(&mut self, id: &str, patch: &Map) -> Result<&Node, CanvasError> {
        let idx = self
            .node_index(id)
            .ok_or_else(|| CanvasError::NodeNotFound(id.to_owned()))?;
        if let Some(new_id) = patch.get("id")
            && new_id.as_str() != Some(id)
        {
            return Err(CanvasError::IdChange {
                what: "node",
                id: id.to_owned(),
            });
        }
        let mut fields = self.nodes()[idx].fields().clone();
        fields.merge_patch(patch);
        let node = Node::from_map(fields);
        let mut report = Report::default();
        validate::check_node(&node, &mut report);
        errors_only(report)?;
        let nodes = self.nodes_mut();
        nodes[idx] = node;
        Ok(&nodes[idx])
    }

    /// Removes a node and every edge that touches it; returns them.
    pub fn remove_node(&mut self, id: &str) -> Result<(Node, Vec<Edge>), CanvasError> {
        let idx = self
            .node_index(id)
            .ok_or_else(|| CanvasError::NodeNotFound(id.to_owned()))?;
        let node = self.nodes_mut().remove(idx);
        let mut removed = Vec::new();
        if self.has_edges() {
            let edges = self.edges_mut();
            let mut kept = Vec::with_capacity(edges.len());
            for e in edges.drain(..) {
                if e.touches(id) {
                    removed.push(e);
                } else {
                    kept.push(e);
                }
            }
            *edges = kept;
        }
        Ok((node, removed))
    }

    fn has_edges(&self) -> bool {
        !self.edges().is_empty()
    }

    /// Moves a node to `(x, y)`. Moving a group moves the nodes inside it too, as in Obsidian.
    pub fn move_node(&mut self, id: &str, x: f64, y: f64) -> Result<&Node, CanvasError> {
        let node = self
            .node(id)
            .ok_or_else(|| CanvasError::NodeNotFound(id.to_owned()))?;
        let rect = node.rect().ok_or_else(|| {
            CanvasError::BadInput(format!("node '{id}' has no valid position to move from"))
        })?;
        let (dx, dy) = (x - rect.x, y - rect.y);
        let mut moving: Vec<String> = vec![id.to_owned()];
        if node.kind() == NodeKind::Group {
            moving.extend(self.nodes_in_group(id).iter().map(|n| n.id().to_owned()));
        }
        for n in self.nodes_mut().iter_mut() {
            if !moving.iter().any(|m| m == n.id()) {
                continue;
            }
            if let Some(r) = n.rect() {
                let f = n.fields_mut();
                f.insert("x", num(r.x + dx));
                f.insert("y", num(r.y + dy));
            }
        }
        self.node(id)
            .ok_or_else(|| CanvasError::NodeNotFound(id.to_owned()))
    }

    /// Sets a node's size.
    pub fn resize_node(&mut self, id: &str, width: f64, height: f64) -> Result<&Node, CanvasError> {
        if !(width.is_finite() && height.is_finite() && width >= 0.0 && height >= 0.0) {
            return Err(CanvasError::BadInput(format!(
                "size {width}x{height} is not valid: width and height must be finite and not negative"
            )));
        }
        let mut patch = Map::new();
        patch.insert("width", num(width));
        patch.insert("height", num(height));
        self.update_node(id, &patch)
    }

    /// Adds an edge. Missing `id` is generated; missing sides come from the nodes' geometry.
    pub fn add_edge(&mut self, mut fields: Map, ids: &mut IdGen) -> Result<&Edge, CanvasError> {
        let mut taken = self.taken_ids();
        match fields.get("id").and_then(Value::as_str) {
            Some(id) if taken.contains(id) => return Err(CanvasError::DuplicateId(id.to_owned())),
            Some(_) => {}
            None => {
                let id = ids.fresh(&mut taken);
                fields.insert("id", Value::from(id));
            }
        }
        Canvas::complete_new_edge(&mut fields, |id| self.node(id)?.rect());
        let edge = Edge::from_map(fields);
        let mut report = Report::default();
        validate::check_edge(&edge, &|id| self.node(id).is_some(), &mut report);
        errors_only(report)?;
        let edges = self.edges_mut();
        edges.push(edge);
        Ok(&edges[edges.len() - 1])
    }

    /// Applies a JSON merge patch to one edge. The id cannot change; endpoints must exist.
    pub fn update_edge(&mut self, id: &str, patch: &Map) -> Result<&Edge, CanvasError> {
        let idx = self
            .edge_index(id)
            .ok_or_else(|| CanvasError::EdgeNotFound(id.to_owned()))?;
        if let Some(new_id) = patch.get("id")
            && new_id.as_str() != Some(id)
        {
            return Err(CanvasError::IdChange {
                what: "edge",
                id: id.to_owned(),
            });
        }
        let mut fields = self.edges()[idx].fields().clone();
        fields.merge_patch(patch);
        let edge = Edge::from_map(fields);
        let mut report = Report::default();
        validate::check_edge(&edge, &|n| self.node(n).is_some(), &mut report);
        errors_only(report)?;
        let edges = self.edges_mut();
        edges[idx] = edge;
        Ok(&edges[idx])
    }

    /// Removes one edge and returns it.
    pub fn remove_edge(&mut self, id: &str) -> Result<Edge, CanvasError> {
        let idx = self
            .edge_index(id)
            .ok_or_else(|| CanvasError::EdgeNotFound(id.to_owned()))?;
        Ok(self.edges_mut().remove(idx))
    }

    /// Replaces all nodes and/or all edges (the seed's `update`), all or nothing.
    ///
    /// Objects whose id already exists keep their key order, so an agent that sends back
    /// what it read produces no diff. New objects get ids, sizes, positions and edge sides
    /// filled in. The result must pass full validation.
    pub fn replace(
        &mut self,
        nodes: Option<Vec<Map>>,
        edges: Option<Vec<Map>>,
        ids: &mut IdGen,
    ) -> Result<(), CanvasError> {
        let mut next = self.clone();
        // Id → existing object, so matching incoming objects is linear, not quadratic.
        let old_nodes: HashMap<&str, &Node> = self.nodes().iter().map(|n| (n.id(), n)).collect();
        let old_edges: HashMap<&str, &Edge> = self.edges().iter().map(|e| (e.id(), e)).collect();
        // Ids in the incoming data are reserved first, so generated ones never collide.
        let mut taken: HashSet<String> = HashSet::new();
        for m in nodes.iter().chain(edges.iter()).flatten() {
            if let Some(id) = m.get("id").and_then(Value::as_str) {
                taken.insert(id.to_owned());
            }
        }
        if nodes.is_none() {
            taken.extend(self.nodes().iter().map(|n| n.id().to_owned()));
        }
        if edges.is_none() {
            taken.extend(self.edges().iter().map(|e| e.id().to_owned()));
        }
        if let Some(nodes) = nodes {
            next.nodes_mut().clear();
            for mut fields in nodes {
                let existing = fields
                    .get("id")
                    .and_then(Value::as_str)
                    .and_then(|id| old_nodes.get(id));
                match existing {
                    Some(old) => order_like(&mut fields, old.fields(), NODE_KEY_ORDER),
                    None => next.complete_new_node(&mut fields, ids, &mut taken),
                }
                next.nodes_mut().push(Node::from_map(fields));
            }
        }
        if let Some(edges) = edges {
            next.edges_mut().clear();
            let rects: HashMap<String, Rect> = next
                .nodes()
                .iter()
                .filter_map(|n| Some((n.id().to_owned(), n.rect()?)))
                .collect();
            for mut fields in edges {
                let existing = fields
                    .get("id")
                    .and_then(Value::as_str)
                    .and_then(|id| old_edges.get(id));
                match existing {
                    Some(old) => order_like(&mut fields, old.fields(), EDGE_KEY_ORDER),
                    None => {
                        if !fields.contains_key("id") {
                            fields.insert("id", Value::from(ids.fresh(&mut taken)));
                        }
                        Canvas::complete_new_edge(&mut fields, |id| rects.get(id).copied());
                    }
                }
                next.edges_mut().push(Edge::from_map(fields));
            }
        }
        errors_only(validate::validate(&next))?;
        *self = next;
        Ok(())
    }
}

/// Reads a JSON value that must be an object (a node, an edge or a patch).
pub fn expect_object(v: Value, what: &str) -> Result<Map, CanvasError> {
    match v {
        Value::Object(m) => Ok(m),
        other => Err(CanvasError::BadInput(format!(
            "{what} must be a JSON object, it is {}",
            other.type_name()
        ))),
    }
}

/// Reads a JSON value that must be an array of objects (`nodes` or `edges`).
pub fn expect_objects(v: Value, what: &str) -> Result<Vec<Map>, CanvasError> {
    match v {
        Value::Array(items) => items
            .into_iter()
            .enumerate()
            .map(|(i, item)| expect_object(item, &format!("{what}[{i}]")))
            .collect(),
        other => Err(CanvasError::BadInput(format!(
            "{what} must be an array of objects, it is {}",
            other.type_name()
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    fn obj(text: &str) -> Map {
        expect_object(json::parse(text).unwrap(), "test").unwrap()
    }

    fn sample() -> Canvas {
        Canvas::parse(include_str!("../tests/data/obsidian-layout.canvas")).unwrap()
    }

    const SYSTEM: &str = "1a2b3c4d5e6f7081";
    const PROMPT: &str = "4d5e6f708192a3b4";

    #[test]
    fn add_node_fills_id_size_and_free_position() {
        let mut c = sample();
        let mut ids = IdGen::with_seed(3);
        let node = c
            .add_node(obj(r#"{"type":"text","text":"new"}"#), &mut ids)
            .unwrap()
            .clone();
        assert!(crate::ids::is_easel_id(node.id()));
        let keys: Vec<_> = node.fields().keys().collect();
        assert_eq!(keys, ["id", "type", "text", "x", "y", "width", "height"]);
        let r = node.rect().unwrap();
        assert_eq!((r.width, r.height), (250.0, 60.0));
        let others: Vec<_> = c
            .nodes()
            .iter()
            .filter(|n| n.id() != node.id())
            .filter_map(Node::rect)
            .collect();
        assert!(others.iter().all(|o| !o.overlaps(&r)), "{r:?} overlaps");
    }

    #[test]
    fn invalid_additions_change_nothing() {
        let mut c = sample();
        let before = c.clone();
        let mut ids = IdGen::with_seed(1);
        assert!(matches!(
            c.add_node(obj(r#"{"type":"text"}"#), &mut ids),
            Err(CanvasError::Invalid(_))
        ));
        assert!(matches!(
            c.add_node(
                obj(&format!(r#"{{"id":"{SYSTEM}","type":"text","text":"x"}}"#)),
                &mut ids
            ),
            Err(CanvasError::DuplicateId(_))
        ));
        assert!(matches!(
            c.add_edge(
                obj(r#"{"fromNode":"nope","toNode":"1a2b3c4d5e6f7081"}"#),
                &mut ids
            ),
            Err(CanvasError::Invalid(_))
        ));
        assert_eq!(c, before);
    }

    #[test]
    fn new_edges_get_sides_from_geometry() {
        let mut c = sample();
        let mut ids = IdGen::with_seed(1);
        // The system prompt sits above the question.
        let e = c
            .add_edge(
                obj(&format!(
                    r#"{{"fromNode":"{SYSTEM}","toNode":"{PROMPT}","label":"x"}}"#
                )),
                &mut ids,
            )
            .unwrap();
        assert_eq!(
            e.fields().keys().collect::<Vec<_>>(),
            ["id", "fromNode", "fromSide", "toNode", "toSide", "label"]
        );
        assert_eq!(e.from_side().map(|s| s.as_str()), Some("bottom"));
        assert_eq!(e.to_side().map(|s| s.as_str()), Some("top"));
    }

    #[test]
    fn update_node_merges_and_keeps_key_positions() {
        let mut c = sample();
        let n = c
            .update_node(
                PROMPT,
                &obj(r#"{"text":"changed","styleAttributes":null,"color":"2"}"#),
            )
            .unwrap();
        assert_eq!(
            json::Value::Object(n.fields().clone()).to_json(),
            r#"{"id":"4d5e6f708192a3b4","x":-380,"y":-60,"width":400,"height":140,"type":"text","text":"changed","color":"2"}"#
        );
        assert!(matches!(
            c.update_node(PROMPT, &obj(r#"{"id":"other"}"#)),
            Err(CanvasError::IdChange { .. })
        ));
        assert!(matches!(
            c.update_node(PROMPT, &obj(r#"{"text":null}"#)),
            Err(CanvasError::Invalid(_))
        ));
        assert!(matches!(
            c.update_node("missing", &obj("{}")),
            Err(CanvasError::NodeNotFound(_))
        ));
    }

    #[test]
    fn removing_a_node_removes_its_edges() {
        let mut c = sample();
        let (node, edges) = c.remove_node(PROMPT).unwrap();
        assert_eq!(node.id(), PROMPT);
        assert_eq!(edges.len(), 3);
        assert_eq!(c.edges().len(), 1);
        assert!(c.edges().iter().all(|e| !e.touches(PROMPT)));
    }

    #[test]
    fn moving_a_group_moves_its_members() {
        let mut c = sample();
        c.move_node("9c1d3f0a2b4e6d81", -320.0, -320.0).unwrap();
        assert_eq!(c.node(SYSTEM).unwrap().rect().unwrap().x, -280.0);
        let json = c.to_obsidian_string();
        assert!(json.contains(r#""x":-280,"y":-280"#), "{json}");
        c.resize_node(SYSTEM, 500.0, 100.0).unwrap();
        assert_eq!(c.node(SYSTEM).unwrap().rect().unwrap().width, 500.0);
        assert!(c.resize_node(SYSTEM, f64::NAN, 1.0).is_err());
    }

    #[test]
    fn edge_updates_check_endpoints() {
        let mut c = sample();
        let e = "a1b2c3d4e5f60718";
        c.update_edge(e, &obj(r#"{"label":"flows"}"#)).unwrap();
        assert_eq!(c.edge(e).unwrap().label(), Some("flows"));
        assert!(matches!(
            c.update_edge(e, &obj(r#"{"toNode":"gone"}"#)),
            Err(CanvasError::Invalid(_))
        ));
        assert_eq!(c.remove_edge(e).unwrap().id(), e);
        assert!(matches!(
            c.remove_edge(e),
            Err(CanvasError::EdgeNotFound(_))
        ));
    }

    #[test]
    fn replace_keeps_existing_key_order_and_completes_new_objects() {
        let mut c = sample();
        let original = c.to_obsidian_string();
        // Sending back exactly what was read, with keys in another order, changes nothing.
        let value = json::parse(&original).unwrap();
        let Value::Object(mut top) = value else {
            panic!()
        };
        let mut nodes = expect_objects(top.remove("nodes").unwrap(), "nodes").unwrap();
        for n in &mut nodes {
            n.reorder(&["y", "x"]);
        }
        c.replace(Some(nodes.clone()), None, &mut IdGen::with_seed(1))
            .unwrap();
        assert_eq!(c.to_obsidian_string(), original);

        nodes.push(obj(r#"{"id":"fresh","type":"text","text":"hello"}"#));
        let edges = vec![obj(&format!(
            r#"{{"fromNode":"{SYSTEM}","toNode":"fresh"}}"#
        ))];
        c.replace(Some(nodes), Some(edges), &mut IdGen::with_seed(1))
            .unwrap();
        assert_eq!(c.edges().len(), 1);
        assert!(c.edges()[0].from_side().is_some());
        assert!(c.node("fresh").unwrap().rect().is_some());
    }

    #[test]
    fn replace_is_all_or_nothing() {
        let mut c = sample();
        let before = c.clone();
        let edges = vec![obj(r#"{"id":"e","fromNode":"a","toNode":"b"}"#)];
        let err = c
            .replace(None, Some(edges), &mut IdGen::with_seed(1))
            .unwrap_err();
        assert!(err.to_string().contains("does not exist"), "{err}");
        assert_eq!(c, before);
    }
}
