//! `add_ids`: a `data-canon-id` for every block with text of its own.

use std::collections::HashSet;

use super::edit::after_name;
use super::tokens::Kind;
use super::{Html, ID_ATTR};
use crate::edit::IdsAdded;
use crate::error::DocError;
use crate::splice::Splices;

/// Blocks that get an id when they hold text.
const GIVEN: &[&str] = &[
    "p",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "li",
    "td",
    "th",
    "blockquote",
    "figcaption",
    "caption",
    "pre",
    "dt",
    "dd",
    "div",
    "section",
    "article",
];
/// Blocks that hold other blocks: with `GIVEN`, the blocks that own the text inside them (the
/// nearest one around a text is its owner).
const CONTAINERS: &[&str] = &[
    "ul", "ol", "dl", "table", "tr", "tbody", "thead", "tfoot", "figure", "header", "footer",
    "main", "nav", "aside", "form", "fieldset", "details", "summary", "address", "body", "html",
    "hgroup", "menu", "dialog",
];

/// Gives every block-level element with its own text a `data-canon-id` (`c` + 8 hex digits,
/// never one the document already uses) and changes no other byte.
pub fn add_ids(text: &str) -> Result<IdsAdded, DocError> {
    let h = Html::load(text)?;
    let mut owns = HashSet::new();
    for (i, t) in h.tree.tokens.iter().enumerate() {
        if !matches!(t.kind, Kind::Text { decoded: true }) || h.tree.hidden(i) {
            continue;
        }
        if text.get(t.span.clone()).is_none_or(|s| s.trim().is_empty()) {
            continue;
        }
        let mut node = h.tree.owner.get(i).copied().flatten();
        while let Some(n) = node {
            let name = h.tree.nodes[n].name.as_str();
            if GIVEN.contains(&name) || CONTAINERS.contains(&name) {
                owns.insert(n);
                break;
            }
            node = h.tree.nodes[n].parent;
        }
    }
    let mut used: HashSet<String> = h.ids.iter().map(|(_, id)| id.clone()).collect();
    let mut s = Splices::new();
    let mut added = 0;
    for (n, node) in h.tree.nodes.iter().enumerate() {
        if !owns.contains(&n)
            || !GIVEN.contains(&node.name.as_str())
            || node.hidden
            || h.tree.attr(n, ID_ATTR).is_some()
        {
            continue;
        }
        let id = loop {
            let id = format!("c{:08x}", fastrand::u32(..));
            if used.insert(id.clone()) {
                break id;
            }
        };
        let at = after_name(&h, n);
        s.push(at..at, format!(" {ID_ATTR}=\"{id}\""));
        added += 1;
    }
    let (text, _) = s.apply(text, 0..0)?;
    tracing::debug!(added, existing = h.ids.len(), "data-canon-id given");
    Ok(IdsAdded { text, added })
}
