//! The edits (the seed's tools) and what applying one gives.

use std::ops::Range;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// One edit, under the seed's tool name, with the seed's argument names. As JSON it is the
/// `{"tool": "...", "input": {...}}` pair of an operation list (DESIGN.md section 10).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "tool", content = "input", rename_all = "snake_case")]
pub enum Edit {
    /// Replace the one occurrence of `old_text` in the element by `new_text`.
    ReplaceText {
        /// The element.
        #[serde(rename = "elementId")]
        element_id: String,
        /// Text that occurs in the element (its first occurrence is replaced).
        #[serde(rename = "oldText")]
        old_text: String,
        /// The replacement.
        #[serde(rename = "newText")]
        new_text: String,
    },
    /// Replace the element's text by `█` (one per character, at most 40) and scrub it from
    /// every attribute, title and comment of the document.
    RedactElement {
        /// The element.
        #[serde(rename = "elementId")]
        element_id: String,
    },
    /// Highlight the element's content (`<mark>` in HTML, `==…==` in Markdown).
    AddHighlight {
        /// The element.
        #[serde(rename = "elementId")]
        element_id: String,
    },
    /// Attach a comment (`data-canon-comment` in HTML, `%%…%%` after the block in Markdown).
    AddComment {
        /// The element.
        #[serde(rename = "elementId")]
        element_id: String,
        /// The comment's text.
        comment: String,
    },
    /// Remove the element.
    DeleteElement {
        /// The element.
        #[serde(rename = "elementId")]
        element_id: String,
    },
    /// Replace every occurrence of `find` in the elements' text.
    FindAndReplaceAll {
        /// The text to find.
        find: String,
        /// Its replacement.
        replace: String,
        /// Match case exactly (default false).
        #[serde(rename = "caseSensitive", default)]
        case_sensitive: bool,
    },
    /// Redact every match of `pattern` (a plain text, or a `/regex/`) in the elements' text,
    /// and scrub it from attributes, titles and comments.
    RedactAllMatching {
        /// Plain text, or a regular expression between slashes.
        pattern: String,
    },
}

impl Edit {
    /// The seed's tool name: `replace_text`, `redact_element`, ….
    pub fn tool(&self) -> &'static str {
        match self {
            Edit::ReplaceText { .. } => "replace_text",
            Edit::RedactElement { .. } => "redact_element",
            Edit::AddHighlight { .. } => "add_highlight",
            Edit::AddComment { .. } => "add_comment",
            Edit::DeleteElement { .. } => "delete_element",
            Edit::FindAndReplaceAll { .. } => "find_and_replace_all",
            Edit::RedactAllMatching { .. } => "redact_all_matching",
        }
    }

    /// The element an edit of one element addresses; `None` for the bulk edits.
    pub fn element_id(&self) -> Option<&str> {
        match self {
            Edit::ReplaceText { element_id, .. }
            | Edit::RedactElement { element_id }
            | Edit::AddHighlight { element_id }
            | Edit::AddComment { element_id, .. }
            | Edit::DeleteElement { element_id } => Some(element_id),
            Edit::FindAndReplaceAll { .. } | Edit::RedactAllMatching { .. } => None,
        }
    }
}

/// What one applied edit gives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Applied {
    /// The whole new document.
    pub text: String,
    /// The ids of the elements the edit changed, as they were before it, in document order.
    pub touched: Vec<String>,
    /// The bytes of the new text that hold the touched elements: from the first touched
    /// element's start to the last one's end. For a deleted element, the empty range where it
    /// was. Undo of one edit refuses when a later change overlaps this range.
    pub span: Range<usize>,
    /// The strings a redaction removed (the element's text, and each sensitive piece of it that
    /// was scrubbed from attributes and comments); empty for other edits.
    pub redacted: Vec<String>,
    /// One line for the ledger: the tool and the element(s), e.g. `redact_element c1a2b3c4d`,
    /// with ` (page 3)` in a document made from a PDF.
    pub summary: String,
}

/// What `add_ids` did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IdsAdded {
    /// The new text: the old one with ` data-canon-id="c…"` inserted into start tags, and no
    /// other byte changed.
    pub text: String,
    /// How many ids were added.
    pub added: usize,
}
