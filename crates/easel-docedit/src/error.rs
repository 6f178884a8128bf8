//! What can stop a document edit, and what to do about it.

use easel_core::{Diagnose, ErrorKind};

/// Every way a document operation can fail. Nothing is changed when one is returned.
#[derive(Debug, thiserror::Error)]
pub enum DocError {
    /// No element has this id.
    #[error("no element '{id}' in the document")]
    UnknownElement {
        /// The id asked for.
        id: String,
        /// A few ids that do exist, for the hint.
        known: Vec<String>,
    },
    /// `oldText` does not occur in the element's text.
    #[error("the text '{old_text}' does not occur in element '{id}'")]
    TextNotInElement {
        /// The element.
        id: String,
        /// The text asked for.
        old_text: String,
    },
    /// The file is not text (a NUL byte, or not UTF-8).
    #[error("the file is not a text document ({reason})")]
    NotText {
        /// What gave it away.
        reason: String,
    },
    /// The HTML or Markdown cannot be worked on.
    #[error("the document cannot be read: {message}")]
    Malformed {
        /// What is wrong, with a line number where known.
        message: String,
    },
    /// An HTML document without any `data-canon-id` element.
    #[error("the document has no element ids yet")]
    NoIds,
    /// A bad `/regex/` or pattern.
    #[error("the pattern '{pattern}' is not valid: {reason}")]
    BadPattern {
        /// The pattern given.
        pattern: String,
        /// The regex engine's complaint.
        reason: String,
    },
    /// An argument that makes no sense (an empty `find`, an empty comment).
    #[error("{message}")]
    Invalid {
        /// What is wrong.
        message: String,
        /// What to do.
        hint: String,
    },
    /// A bulk edit that matched nothing.
    #[error("nothing in the document matches '{what}'")]
    NoMatch {
        /// The text or pattern.
        what: String,
    },
    /// A PDF that could not be turned into HTML.
    #[error("the PDF cannot be imported: {message}")]
    Pdf {
        /// What the PDF reader said.
        message: String,
    },
}

impl Diagnose for DocError {
    fn kind(&self) -> ErrorKind {
        match self {
            DocError::UnknownElement { .. } => ErrorKind::NotFound,
            _ => ErrorKind::Invalid,
        }
    }

    fn hint(&self) -> String {
        match self {
            DocError::UnknownElement { known, .. } if known.is_empty() => {
                "run `doc_show` to list the document's elements".into()
            }
            DocError::UnknownElement { known, .. } => format!(
                "use an id that `doc_show` lists (for example {})",
                known.join(", ")
            ),
            DocError::TextNotInElement { .. } => {
                "copy oldText exactly from the element's text as `doc_show` prints it".into()
            }
            DocError::NotText { .. } => {
                "give an .html, .htm or .md file; a PDF becomes HTML with `doc_import`".into()
            }
            DocError::Malformed { .. } => "fix the document, or re-create it".into(),
            DocError::NoIds => "run `doc_ids` on the file first to give its elements ids".into(),
            DocError::BadPattern { .. } => {
                "give a plain text or a valid regular expression between slashes, like /\\d{4}/"
                    .into()
            }
            DocError::Invalid { hint, .. } => hint.clone(),
            DocError::NoMatch { .. } => "run `doc_scan` to see what the document holds".into(),
            DocError::Pdf { .. } => {
                "check that the PDF opens in a viewer and holds text (a scanned image has none)"
                    .into()
            }
        }
    }
}
