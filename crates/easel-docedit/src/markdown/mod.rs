//! Markdown notes: elements are the blocks.

use crate::document::{Document, Element};
use crate::edit::{Applied, Edit};
use crate::error::DocError;

/// The blocks of a note, in document order.
pub(crate) fn elements(_text: &str) -> Result<Vec<Element>, DocError> {
    Err(DocError::Malformed {
        message: "Markdown notes are not supported yet".into(),
    })
}

/// One edit of a note.
pub(crate) fn apply(_doc: &Document, _edit: &Edit) -> Result<Applied, DocError> {
    Err(DocError::Malformed {
        message: "Markdown notes are not supported yet".into(),
    })
}
