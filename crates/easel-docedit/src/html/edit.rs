//! The edits of one element: replace text, highlight, comment, delete.

use super::Html;
use super::text::{escape_attr, escape_text};
use crate::edit::Applied;
use crate::error::DocError;
use crate::splice::Splices;

/// Elements whose content is rows, cells or items: a `<mark>` there would be moved out of the
/// table or list by a browser.
const STRUCTURAL: &[&str] = &[
    "table", "thead", "tbody", "tfoot", "tr", "ul", "ol", "dl", "select", "colgroup",
];

pub(crate) fn replace_text(
    h: &Html<'_>,
    node: usize,
    old: &str,
    new: &str,
) -> Result<Applied, DocError> {
    let id = h.id_of(node).to_string();
    if old.trim().is_empty() {
        return Err(DocError::Invalid {
            message: "oldText is empty".into(),
            hint: "give the exact text to replace, copied from the element's text".into(),
        });
    }
    let et = h.element_text(node);
    let found = match et.text.find(old.trim()) {
        Some(at) => Some(at..at + old.trim().len()),
        None => crate::pattern::literal(old, true)?
            .find(&et.text)
            .map(|m| m.range()),
    };
    let Some(range) = found else {
        return Err(DocError::TextNotInElement {
            id,
            old_text: old.to_string(),
        });
    };
    let (Some(&(p1, o1)), Some(&(p2, o2))) =
        (et.origin.get(range.start), et.origin.get(range.end - 1))
    else {
        return Err(crate::splice::internal("text without origin"));
    };
    if p1 != p2 {
        return Err(DocError::Invalid {
            message: format!(
                "the text '{old}' of element '{id}' is split by markup (a tag such as <b> or <a> \
                 lies inside it)"
            ),
            hint: "pick text that lies within one run of the element's text, or replace each \
                   part separately"
                .into(),
        });
    }
    let Some((_, piece)) = et.pieces.get(p1) else {
        return Err(crate::splice::internal("text without piece"));
    };
    let end = o2 + 1;
    let (src, wide) = piece.source(o1..end);
    let keep_before = piece.text.get(wide.start..o1).unwrap_or_default();
    let keep_after = piece.text.get(end..wide.end).unwrap_or_default();
    let mut s = Splices::new();
    s.push(
        src,
        format!(
            "{}{}{}",
            escape_text(keep_before),
            escape_text(new),
            escape_text(keep_after)
        ),
    );
    finish(h, node, s, "replace_text")
}

pub(crate) fn add_highlight(h: &Html<'_>, node: usize) -> Result<Applied, DocError> {
    let n = &h.tree.nodes[node];
    let id = h.id_of(node);
    if STRUCTURAL.contains(&n.name.as_str()) {
        return Err(DocError::Invalid {
            message: format!(
                "element '{id}' is a <{}>: its content is rows or items, which a highlight \
                 cannot wrap",
                n.name
            ),
            hint: "highlight its cells or items one by one".into(),
        });
    }
    let content = h.text.get(n.content.clone()).unwrap_or_default().trim();
    if content.is_empty() {
        return Err(DocError::Invalid {
            message: format!("element '{id}' has no content to highlight"),
            hint: "pick an element with text (`doc_show` lists them)".into(),
        });
    }
    if content.starts_with("<mark>") && content.ends_with("</mark>") {
        return Err(DocError::Invalid {
            message: format!("element '{id}' is highlighted already"),
            hint: "nothing to do; pick another element".into(),
        });
    }
    let mut s = Splices::new();
    s.push(n.content.start..n.content.start, "<mark>");
    s.push(n.content.end..n.content.end, "</mark>");
    finish(h, node, s, "add_highlight")
}

pub(crate) fn add_comment(h: &Html<'_>, node: usize, comment: &str) -> Result<Applied, DocError> {
    let comment = comment.trim();
    if comment.is_empty() {
        return Err(DocError::Invalid {
            message: "the comment is empty".into(),
            hint: "give the comment's text".into(),
        });
    }
    let mut s = Splices::new();
    match h.tree.attr(node, "data-canon-comment") {
        Some(old) => {
            let value = if old.value.trim().is_empty() {
                comment.to_string()
            } else {
                format!("{}\n{comment}", old.value)
            };
            s.push(
                old.span.clone(),
                format!("data-canon-comment=\"{}\"", escape_attr(&value)),
            );
        }
        None => s.push(
            before_close(h, node)..before_close(h, node),
            format!(" data-canon-comment=\"{}\"", escape_attr(comment)),
        ),
    }
    finish(h, node, s, "add_comment")
}

pub(crate) fn delete_element(h: &Html<'_>, node: usize) -> Result<Applied, DocError> {
    let span = h.tree.nodes[node].span();
    let bytes = h.text.as_bytes();
    // An element alone on its lines takes its indentation and line break with it.
    let line_start = bytes[..span.start]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |p| p + 1);
    let rest = &bytes[span.end..];
    let line_end = rest.iter().position(|&b| b == b'\n');
    let mut range = span.clone();
    if bytes[line_start..span.start]
        .iter()
        .all(u8::is_ascii_whitespace)
        && let Some(nl) = line_end
        && rest[..nl].iter().all(u8::is_ascii_whitespace)
    {
        range = line_start..span.end + nl + 1;
    }
    let mut s = Splices::new();
    s.push(range.clone(), "");
    let (text, new_span) = s.apply(h.text, range)?;
    Ok(Applied {
        text,
        touched: h.ids_within(node),
        span: new_span.start..new_span.start,
        redacted: Vec::new(),
        summary: h.summary("delete_element", node),
    })
}

/// The byte just after the tag name of the element's start tag, where an attribute goes.
pub(crate) fn after_name(h: &Html<'_>, node: usize) -> usize {
    let n = &h.tree.nodes[node];
    let tag = h.text.get(n.tag.clone()).unwrap_or_default();
    let len = tag
        .get(1..)
        .and_then(|t| t.find(|c: char| c.is_ascii_whitespace() || c == '/' || c == '>'))
        .unwrap_or(n.name.len());
    n.tag.start + 1 + len
}

/// The byte where an attribute goes at the end of the element's start tag: after its last
/// attribute (so `/>` and an unquoted value ending in `/` are left as they are).
pub(crate) fn before_close(h: &Html<'_>, node: usize) -> usize {
    let last = h.tree.attrs(node).iter().map(|a| a.span.end).max();
    last.unwrap_or(0).max(after_name(h, node))
}

/// Applies splices that change one element and reports it.
pub(crate) fn finish(
    h: &Html<'_>,
    node: usize,
    s: Splices,
    tool: &str,
) -> Result<Applied, DocError> {
    let span = h.tree.nodes[node].span();
    let (text, new_span) = s.apply(h.text, span)?;
    Ok(Applied {
        text,
        touched: vec![h.id_of(node).to_string()],
        span: new_span,
        redacted: Vec::new(),
        summary: h.summary(tool, node),
    })
}
