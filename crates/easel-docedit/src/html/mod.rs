//! HTML documents: elements are those carrying `data-canon-id`.

use crate::document::{Document, Element};
use crate::edit::{Applied, Edit, IdsAdded};
use crate::error::DocError;

/// The elements of an HTML document, in document order.
pub(crate) fn elements(_text: &str) -> Result<Vec<Element>, DocError> {
    Err(DocError::Malformed {
        message: "HTML documents are not supported yet".into(),
    })
}

/// One edit of an HTML document.
pub(crate) fn apply(_doc: &Document, _edit: &Edit) -> Result<Applied, DocError> {
    Err(DocError::Malformed {
        message: "HTML documents are not supported yet".into(),
    })
}

/// Gives every block-level element with its own text a `data-canon-id` (`c` + 8 hex digits,
/// never one the document already uses) and changes no other byte.
pub fn add_ids(_text: &str) -> Result<IdsAdded, DocError> {
    Err(DocError::Malformed {
        message: "HTML documents are not supported yet".into(),
    })
}
