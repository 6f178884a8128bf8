//! HTML documents: elements are those carrying `data-canon-id`.
//!
//! `tokens` reads the document with `lol_html`, `tree` closes elements the way a browser does,
//! `text` turns text nodes into what a reader sees (and back into bytes), and the edits are byte
//! splices of the original (`edit`, `redact`, `bulk`), so bytes outside them never change.

mod bulk;
mod edit;
mod ids;
pub(crate) mod redact;
pub(crate) mod text;
mod tokens;
mod tree;

use std::collections::{HashMap, HashSet};

use crate::document::{Document, Element};
use crate::edit::{Applied, Edit};
use crate::error::DocError;
use text::{Decoded, Flat};
use tokens::Kind;
use tree::Tree;

pub use ids::add_ids;

/// The attribute that names an element.
pub(crate) const ID_ATTR: &str = "data-canon-id";

/// Elements that start a new line of text: their edges read as a space.
const BREAKS: &[&str] = &[
    "p",
    "div",
    "li",
    "td",
    "th",
    "tr",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "blockquote",
    "pre",
    "section",
    "article",
    "ul",
    "ol",
    "dl",
    "dt",
    "dd",
    "table",
    "caption",
    "figcaption",
    "figure",
    "header",
    "footer",
    "br",
    "hr",
    "address",
    "aside",
    "nav",
    "main",
    "tbody",
    "thead",
    "tfoot",
    "body",
    "form",
    "fieldset",
    "details",
    "summary",
];

/// A document read for editing: its tree, and which elements carry which id.
pub(crate) struct Html<'t> {
    pub text: &'t str,
    pub tree: Tree,
    /// (element, id) in document order.
    pub ids: Vec<(usize, String)>,
    /// Element → its index in `ids`.
    by_node: HashMap<usize, usize>,
}

impl<'t> Html<'t> {
    pub fn load(text: &'t str) -> Result<Html<'t>, DocError> {
        let tree = tree::build(text, tokens::tokenize(text)?);
        let mut ids = Vec::new();
        let mut seen = HashSet::new();
        for node in 0..tree.nodes.len() {
            let Some(attr) = tree.attr(node, ID_ATTR) else {
                continue;
            };
            let id = attr.value.trim().to_string();
            if id.is_empty() {
                return Err(DocError::Malformed {
                    message: format!(
                        "an element on line {} has an empty {ID_ATTR}",
                        line_of(text, attr.span.start)
                    ),
                });
            }
            if !seen.insert(id.clone()) {
                return Err(DocError::Malformed {
                    message: format!(
                        "the id '{id}' is used twice (again on line {}); ids must be unique",
                        line_of(text, attr.span.start)
                    ),
                });
            }
            ids.push((node, id));
        }
        let by_node = ids.iter().enumerate().map(|(i, (n, _))| (*n, i)).collect();
        Ok(Html {
            text,
            tree,
            ids,
            by_node,
        })
    }

    /// The element with this id.
    pub fn node(&self, id: &str) -> Option<usize> {
        self.ids.iter().find(|(_, i)| i == id).map(|(n, _)| *n)
    }

    /// The id of the innermost element with an id around `node` (itself included).
    pub fn owner_id(&self, mut node: usize) -> Option<usize> {
        loop {
            if self.by_node.contains_key(&node) {
                return Some(node);
            }
            node = self.tree.nodes.get(node)?.parent?;
        }
    }

    pub fn id_of(&self, node: usize) -> &str {
        self.by_node
            .get(&node)
            .and_then(|&i| self.ids.get(i))
            .map_or("", |(_, id)| id)
    }

    /// The ids of the element and of the elements with ids inside it, in document order: what
    /// an edit that removes its content or the element changes.
    pub fn ids_within(&self, node: usize) -> Vec<String> {
        let Some(n) = self.tree.nodes.get(node) else {
            return Vec::new();
        };
        let span = n.span();
        self.ids
            .iter()
            .filter(|(m, _)| {
                *m == node
                    || self
                        .tree
                        .nodes
                        .get(*m)
                        .is_some_and(|x| x.tag.start > span.start && x.tag.start < span.end)
            })
            .map(|(_, id)| id.clone())
            .collect()
    }

    /// The element's text and how to find each of its characters in the source.
    pub fn element_text(&self, node: usize) -> ElementText {
        let mut flat = Flat::default();
        let mut pieces = Vec::new();
        for tok in self.tree.inside(node) {
            let Some(t) = self.tree.tokens.get(tok) else {
                continue;
            };
            match &t.kind {
                Kind::Text { decoded: true } => {
                    let d = text::decode(self.text, t.span.clone(), true);
                    flat.push(pieces.len(), &d.text);
                    pieces.push((tok, d));
                }
                Kind::Start { name, .. } | Kind::End { name } if BREAKS.contains(&&**name) => {
                    flat.brk(pieces.len(), 0);
                }
                _ => {}
            }
        }
        let (text, origin) = flat.finish();
        ElementText {
            text,
            origin,
            pieces,
        }
    }

    /// The page of a document made from a PDF: the nearest `<section data-page="N">` around.
    pub fn page(&self, mut node: usize) -> Option<u32> {
        loop {
            let n = self.tree.nodes.get(node)?;
            if n.name == "section"
                && let Some(p) = self.tree.attr(node, "data-page")
                && let Ok(page) = p.value.trim().parse()
            {
                return Some(page);
            }
            node = n.parent?;
        }
    }

    /// `tool id` plus the page, for the ledger.
    pub fn summary(&self, tool: &str, node: usize) -> String {
        match self.page(node) {
            Some(p) => format!("{tool} {} (page {p})", self.id_of(node)),
            None => format!("{tool} {}", self.id_of(node)),
        }
    }
}

/// An element's text, with each byte's origin: (piece, byte in the piece's decoded text).
pub(crate) struct ElementText {
    pub text: String,
    pub origin: Vec<(usize, usize)>,
    /// (token, its decoded text).
    pub pieces: Vec<(usize, Decoded)>,
}

/// The 1-based line of a byte.
pub(crate) fn line_of(text: &str, at: usize) -> usize {
    text.as_bytes()
        .iter()
        .take(at)
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}

/// The elements of an HTML document, in document order.
pub(crate) fn elements(text: &str) -> Result<Vec<Element>, DocError> {
    let h = Html::load(text)?;
    Ok(h.ids
        .iter()
        .map(|(node, id)| Element {
            id: id.clone(),
            tag: h.tree.nodes[*node].name.clone(),
            text: h.element_text(*node).text,
            span: h.tree.nodes[*node].span(),
            page: h.page(*node),
        })
        .collect())
}

/// One edit of an HTML document.
pub(crate) fn apply(doc: &Document, edit: &Edit) -> Result<Applied, DocError> {
    let h = Html::load(doc.text())?;
    if let Some(id) = edit.element_id() {
        if h.ids.is_empty() {
            return Err(DocError::NoIds);
        }
        let element = doc.element(id)?;
        let node = h
            .node(&element.id)
            .ok_or_else(|| crate::splice::internal("an element listed is not in the tree"))?;
        return match edit {
            Edit::ReplaceText {
                old_text, new_text, ..
            } => edit::replace_text(&h, node, old_text, new_text),
            Edit::RedactElement { .. } => redact::redact_element(&h, node),
            Edit::AddHighlight { .. } => edit::add_highlight(&h, node),
            Edit::AddComment { comment, .. } => edit::add_comment(&h, node, comment),
            Edit::DeleteElement { .. } => edit::delete_element(&h, node),
            Edit::FindAndReplaceAll { .. } | Edit::RedactAllMatching { .. } => {
                Err(crate::splice::internal("a bulk edit named an element"))
            }
        };
    }
    match edit {
        Edit::FindAndReplaceAll {
            find,
            replace,
            case_sensitive,
        } => bulk::find_and_replace_all(&h, find, replace, *case_sensitive),
        Edit::RedactAllMatching { pattern } => bulk::redact_all_matching(&h, pattern),
        _ => Err(crate::splice::internal(
            "an edit of one element without an id",
        )),
    }
}
