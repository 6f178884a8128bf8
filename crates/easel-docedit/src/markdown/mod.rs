//! Markdown notes: elements are the blocks.
//!
//! `blocks` reads the note with pulldown-cmark (blocks, their bytes, their text, and the parts
//! a reader does not see); `lines` finds the content of each line of a block (without list
//! markers, `#`, `>` and a trailing `^id`); the edits are byte splices of the note (`edit`,
//! `redact`), so bytes outside them never change.

mod blocks;
mod edit;
mod lines;
mod redact;

use crate::document::{Document, Element};
use crate::edit::{Applied, Edit};
use crate::error::DocError;

pub(crate) use blocks::Block;

/// The blocks of a note, in document order.
pub(crate) fn elements(text: &str) -> Result<Vec<Element>, DocError> {
    Ok(blocks::read(text)
        .blocks
        .into_iter()
        .map(|b| Element {
            tag: b.kind.tag(),
            id: b.id,
            text: b.text,
            span: b.span,
            page: None,
        })
        .collect())
}

/// One edit of a note.
pub(crate) fn apply(doc: &Document, edit: &Edit) -> Result<Applied, DocError> {
    let text = doc.text();
    let note = blocks::read(text);
    if let Some(id) = edit.element_id() {
        let element = doc.element(id)?;
        let block = note
            .blocks
            .iter()
            .find(|b| b.id == element.id)
            .ok_or_else(|| crate::splice::internal("a block listed is not in the note"))?;
        return match edit {
            Edit::ReplaceText {
                old_text, new_text, ..
            } => edit::replace_text(text, block, old_text, new_text),
            Edit::RedactElement { .. } => redact::redact_element(text, &note, block),
            Edit::AddHighlight { .. } => edit::add_highlight(text, block),
            Edit::AddComment { comment, .. } => edit::add_comment(text, block, comment),
            Edit::DeleteElement { .. } => edit::delete_element(text, &note, block),
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
        } => redact::find_and_replace_all(text, &note, find, replace, *case_sensitive),
        Edit::RedactAllMatching { pattern } => redact::redact_all_matching(text, &note, pattern),
        _ => Err(crate::splice::internal(
            "an edit of one element without an id",
        )),
    }
}

/// Applies splices that change one block and reports it.
pub(crate) fn finish(
    text: &str,
    block: &Block,
    s: crate::splice::Splices,
    tool: &str,
) -> Result<Applied, DocError> {
    let (new, span) = s.apply(text, block.span.clone())?;
    Ok(Applied {
        text: new,
        touched: vec![block.id.clone()],
        span,
        redacted: Vec::new(),
        summary: format!("{tool} {}", block.id),
    })
}
