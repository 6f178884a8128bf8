//! Diagrams to canvases (nodes sized to their text, laid out) and canvases to diagrams.

use crate::error::ConvertError;
use crate::model::{DEdge, DGroup, DNode, Diagram, EndRef, Warnings};
use easel_canvas::json::{Map, Value};
use easel_canvas::{Canvas, End, IdGen, NodeKind};
use easel_layout::{Algo, Direction, Options, RankSet, Request, Scope, layout_canvas};
use std::collections::{HashMap, HashSet};

/// A stable canvas id from a source name: re-importing the same text gives the same ids, so
/// two imports diff cleanly.
fn stable_id(kind: &str, key: &str, taken: &mut HashSet<String>) -> String {
    let mut salt = 0u32;
    loop {
        // FNV-1a, 64 bits: 16 hex digits like every other Easel id.
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for b in kind
            .bytes()
            .chain([0])
            .chain(key.bytes())
            .chain(salt.to_le_bytes())
        {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        let id = format!("{h:016x}");
        if taken.insert(id.clone()) {
            return id;
        }
        salt += 1;
    }
}

/// Width and height for a text node: lines wrap at about 40 characters.
pub fn text_size(text: &str) -> (f64, f64) {
    const CHAR: f64 = 8.5;
    const LINE: f64 = 26.0;
    let longest = text.lines().map(|l| l.chars().count()).max().unwrap_or(0);
    let width = (longest as f64 * CHAR + 48.0).clamp(120.0, 400.0);
    let per_line = ((width - 48.0) / CHAR).max(1.0);
    let lines: f64 = text
        .lines()
        .map(|l| (l.chars().count() as f64 / per_line).ceil().max(1.0))
        .sum::<f64>()
        .max(1.0);
    (width.round(), (lines * LINE + 34.0).max(60.0).round())
}

/// How to build the canvas.
#[derive(Clone, Copy, Debug)]
pub struct Build {
    pub algo: Algo,
    /// Overrides the diagram's own direction.
    pub direction: Option<Direction>,
}

/// A new canvas holding `diagram`, laid out.
pub fn to_canvas(
    diagram: &Diagram,
    build: Build,
    warnings: &mut Warnings,
) -> Result<Canvas, ConvertError> {
    let mut canvas = Canvas::new();
    let mut ids = IdGen::new();
    let mut taken = HashSet::new();
    let group_ids: Vec<String> = diagram
        .groups
        .iter()
        .map(|g| stable_id("group", &g.key, &mut taken))
        .collect();
    let node_ids: Vec<String> = diagram
        .nodes
        .iter()
        .map(|n| stable_id("node", &n.key, &mut taken))
        .collect();
    let mut membership = Vec::new();
    // Groups first: lower in the z-order, so their members are drawn on top of them.
    for (g, id) in diagram.groups.iter().zip(&group_ids) {
        let mut m = Map::new();
        m.insert("id", Value::from(id.as_str()));
        m.insert("type", Value::from("group"));
        m.insert("label", Value::from(g.label.as_str()));
        for (k, v) in [("x", 0.0), ("y", 0.0), ("width", 200.0), ("height", 100.0)] {
            m.insert(k, Value::from(v));
        }
        if let Some(c) = &g.color {
            m.insert("color", Value::from(c.as_str()));
        }
        canvas.add_node(m, &mut ids)?;
        if let Some(p) = g.parent.and_then(|p| group_ids.get(p)) {
            membership.push((id.clone(), p.clone()));
        }
    }
    for (n, id) in diagram.nodes.iter().zip(&node_ids) {
        let (w, h) = text_size(&n.label);
        let mut m = Map::new();
        m.insert("id", Value::from(id.as_str()));
        m.insert("type", Value::from("text"));
        m.insert("text", Value::from(n.label.as_str()));
        m.insert("x", Value::from(0.0));
        m.insert("y", Value::from(0.0));
        m.insert("width", Value::from(w));
        m.insert("height", Value::from(h));
        if let Some(c) = &n.color {
            m.insert("color", Value::from(c.as_str()));
        }
        canvas.add_node(m, &mut ids)?;
        if let Some(p) = n.group.and_then(|p| group_ids.get(p)) {
            membership.push((id.clone(), p.clone()));
        }
    }
    let end_id = |e: EndRef| match e {
        EndRef::Node(i) => node_ids.get(i),
        EndRef::Group(i) => group_ids.get(i),
    };
    for (k, e) in diagram.edges.iter().enumerate() {
        let (Some(from), Some(to)) = (end_id(e.from), end_id(e.to)) else {
            continue;
        };
        let mut m = Map::new();
        m.insert(
            "id",
            Value::from(stable_id("edge", &format!("{k}:{from}:{to}"), &mut taken)),
        );
        m.insert("fromNode", Value::from(from.as_str()));
        if e.back_arrow {
            m.insert("fromEnd", Value::from("arrow"));
        }
        m.insert("toNode", Value::from(to.as_str()));
        if !e.arrow {
            m.insert("toEnd", Value::from("none"));
        }
        if let Some(c) = &e.color {
            m.insert("color", Value::from(c.as_str()));
        }
        if let Some(l) = &e.label {
            m.insert("label", Value::from(l.as_str()));
        }
        canvas.add_edge(m, &mut ids)?;
    }
    let request = Request {
        options: Options {
            algo: build.algo,
            direction: build.direction.or(diagram.direction).unwrap_or_default(),
            ..Options::default()
        },
        scope: Scope::All,
        pins: Vec::new(),
        groups: Some(membership),
        ranks: diagram
            .ranks
            .iter()
            .map(|set| RankSet {
                kind: set.kind,
                members: set
                    .members
                    .iter()
                    .filter_map(|&i| node_ids.get(i).cloned())
                    .collect(),
            })
            .collect(),
    };
    let outcome = layout_canvas(&mut canvas, &request)?;
    for w in outcome.warnings {
        warnings.add(w);
    }
    Ok(canvas)
}

/// The diagram a canvas draws: text, file and link nodes become labelled nodes, groups keep
/// their members (by geometry, as Obsidian decides), edges keep labels, colours and ends.
pub fn from_canvas(canvas: &Canvas, warnings: &mut Warnings) -> Diagram {
    let mut d = Diagram::default();
    let mut node_at = HashMap::new();
    let mut group_at = HashMap::new();
    for n in canvas.nodes() {
        match n.kind() {
            NodeKind::Group => {
                group_at.insert(n.id().to_owned(), d.groups.len());
                d.groups.push(DGroup {
                    key: n.id().to_owned(),
                    label: n.label().unwrap_or("").to_owned(),
                    color: n.color().map(str::to_owned),
                    parent: None,
                });
            }
            kind => {
                let label = match kind {
                    NodeKind::Text => n.text().unwrap_or("").to_owned(),
                    NodeKind::File => match n.subpath() {
                        Some(s) => format!("{}{s}", n.file().unwrap_or("")),
                        None => n.file().unwrap_or("").to_owned(),
                    },
                    NodeKind::Link => n.url().unwrap_or("").to_owned(),
                    _ => {
                        warnings.add(format!(
                            "a '{}' node is written as a plain node",
                            kind.as_str()
                        ));
                        n.searchable_text().unwrap_or(n.id()).to_owned()
                    }
                };
                if matches!(kind, NodeKind::File | NodeKind::Link) {
                    warnings.add(
                        "file and link nodes are written as nodes labelled with their path or URL",
                    );
                }
                node_at.insert(n.id().to_owned(), d.nodes.len());
                d.nodes.push(DNode {
                    key: n.id().to_owned(),
                    label,
                    color: n.color().map(str::to_owned),
                    group: None,
                });
            }
        }
    }
    for n in canvas.nodes() {
        let Some(g) = canvas.group_of(n.id()).and_then(|g| group_at.get(g.id())) else {
            continue;
        };
        if let Some(&i) = node_at.get(n.id()) {
            d.nodes[i].group = Some(*g);
        } else if let Some(&i) = group_at.get(n.id()) {
            d.groups[i].parent = Some(*g);
        }
    }
    let end = |id: &str| {
        node_at
            .get(id)
            .map(|&i| EndRef::Node(i))
            .or_else(|| group_at.get(id).map(|&i| EndRef::Group(i)))
    };
    // The direction the drawing reads in: where most edges leave their nodes.
    let sideways = canvas
        .edges()
        .iter()
        .filter(|e| e.from_side() == Some(easel_canvas::Side::Right))
        .count();
    let downwards = canvas
        .edges()
        .iter()
        .filter(|e| e.from_side() == Some(easel_canvas::Side::Bottom))
        .count();
    d.direction = Some(if sideways > downwards {
        Direction::Right
    } else {
        Direction::Down
    });
    for e in canvas.edges() {
        let (Some(from), Some(to)) = (end(e.from_node()), end(e.to_node())) else {
            warnings.add("an edge to a node that does not exist was left out");
            continue;
        };
        d.edges.push(DEdge {
            from,
            to,
            label: e.label().map(str::to_owned),
            color: e.color().map(str::to_owned),
            arrow: e.to_end() == End::Arrow,
            back_arrow: e.from_end() == End::Arrow,
        });
    }
    d
}
