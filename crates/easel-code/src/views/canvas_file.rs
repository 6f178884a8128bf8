//! The JSON Canvas twin of a view: the same boxes at the same places, as group, file and text
//! nodes, so the picture opens in Obsidian and each box clicks through to its source file.
//!
//! Node ids are derived from what the node stands for (a module path, a symbol id), so that
//! drawing the view again gives the same ids and a diff of two versions shows what changed.

use super::drawing::Rect;
use crate::error::CodeError;
use easel_canvas::json::{Map, Value};
use easel_canvas::{Canvas, IdGen, Side};
use sha2::{Digest, Sha256};
use std::collections::HashSet;

pub(crate) struct CanvasFile {
    view: String,
    canvas: Canvas,
    ids: IdGen,
    taken: HashSet<String>,
}

impl CanvasFile {
    pub fn new(view: &str) -> CanvasFile {
        CanvasFile {
            view: view.to_owned(),
            canvas: Canvas::new(),
            ids: IdGen::with_seed(0),
            taken: HashSet::new(),
        }
    }

    /// A 16-hex-digit id from `key`, unique in this canvas.
    fn id_for(&mut self, key: &str) -> String {
        let mut salt = 0u32;
        loop {
            let mut h = Sha256::new();
            h.update(key.as_bytes());
            h.update(salt.to_le_bytes());
            let digest = h.finalize();
            let id: String = digest[..8].iter().map(|b| format!("{b:02x}")).collect();
            if self.taken.insert(id.clone()) {
                return id;
            }
            salt += 1;
        }
    }

    fn node(
        &mut self,
        key: &str,
        kind: &str,
        rect: Rect,
        extra: Vec<(&str, Value)>,
    ) -> Result<String, CodeError> {
        let id = self.id_for(key);
        let mut m = Map::new();
        m.push("id", Value::from(id.as_str()));
        m.push("type", Value::from(kind));
        for (k, v) in extra {
            m.push(k, v);
        }
        m.push("x", Value::from(rect.x.round() as i64));
        m.push("y", Value::from(rect.y.round() as i64));
        m.push("width", Value::from(rect.w.round().max(1.0) as i64));
        m.push("height", Value::from(rect.h.round().max(1.0) as i64));
        let view = self.view.clone();
        self.canvas
            .add_node(m, &mut self.ids)
            .map_err(|e| CodeError::CanvasFile {
                view,
                reason: e.to_string(),
            })?;
        Ok(id)
    }

    /// A group frame with a label; add groups before the nodes inside them, which Obsidian
    /// then draws on top.
    pub fn group(&mut self, key: &str, rect: Rect, label: &str) -> Result<String, CodeError> {
        self.node(
            &format!("group:{key}"),
            "group",
            rect,
            vec![("label", Value::from(label))],
        )
    }

    /// A node that opens `path` (relative to the repository root, which is the vault root
    /// when the repository is opened in Obsidian).
    pub fn file(&mut self, key: &str, rect: Rect, path: &str) -> Result<String, CodeError> {
        self.node(
            &format!("file:{key}"),
            "file",
            rect,
            vec![("file", Value::from(path))],
        )
    }

    pub fn text(
        &mut self,
        key: &str,
        rect: Rect,
        text: &str,
        color: Option<&str>,
    ) -> Result<String, CodeError> {
        let mut extra = vec![("text", Value::from(text))];
        if let Some(c) = color {
            extra.push(("color", Value::from(c)));
        }
        self.node(&format!("text:{key}"), "text", rect, extra)
    }

    pub fn edge(
        &mut self,
        from: &str,
        from_side: Option<Side>,
        to: &str,
        to_side: Option<Side>,
        label: Option<&str>,
    ) -> Result<(), CodeError> {
        let id = self.id_for(&format!("edge:{from}:{to}"));
        let mut m = Map::new();
        m.push("id", Value::from(id.as_str()));
        // Sides left out are chosen from the two nodes' places by easel-canvas.
        m.push("fromNode", Value::from(from));
        if let Some(s) = from_side {
            m.push("fromSide", Value::from(s.as_str()));
        }
        m.push("toNode", Value::from(to));
        if let Some(s) = to_side {
            m.push("toSide", Value::from(s.as_str()));
        }
        if let Some(l) = label {
            m.push("label", Value::from(l));
        }
        let view = self.view.clone();
        self.canvas
            .add_edge(m, &mut self.ids)
            .map_err(|e| CodeError::CanvasFile {
                view,
                reason: e.to_string(),
            })?;
        Ok(())
    }

    pub fn finish(self) -> String {
        self.canvas.to_obsidian_string()
    }
}
