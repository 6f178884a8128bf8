//! A parsed document and its elements.

use std::ops::Range;

use serde::Serialize;

use crate::edit::{Applied, Edit};
use crate::error::DocError;

/// The kind of a document, from its file name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// `.html` or `.htm`: the elements are those carrying `data-canon-id`.
    Html,
    /// `.md`: the elements are the blocks.
    Markdown,
}

impl Format {
    /// The format a path's extension names, if any (case-insensitive).
    pub fn of_path(path: &str) -> Option<Format> {
        let ext = path.rsplit_once('.')?.1.to_ascii_lowercase();
        match ext.as_str() {
            "html" | "htm" => Some(Format::Html),
            "md" => Some(Format::Markdown),
            _ => None,
        }
    }
}

/// One element of a document: what an edit addresses.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Element {
    /// `c1a2b3c4d` in HTML (the `data-canon-id`), `^id` or `b<N>` in Markdown (without `^`).
    pub id: String,
    /// The HTML tag name (`p`, `h2`, `li`, `td`, …); Markdown blocks use the tag they render
    /// to (`p`, `h1`…`h6`, `li`, `tr`, `blockquote`, `pre`).
    pub tag: String,
    /// The element's text as a reader sees it: tags, entities and Markdown syntax resolved,
    /// whitespace runs collapsed to one space, trimmed.
    pub text: String,
    /// The element's bytes in the document, from its start tag (or first byte of the block) to
    /// the end of its end tag (or the block's last byte).
    #[serde(skip)]
    pub span: Range<usize>,
    /// The page, in a document made from a PDF (`<section data-page="N">`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page: Option<u32>,
}

/// A document parsed for editing. Cheap to re-create: every edit returns new text, and the
/// caller parses that again for the next one.
#[derive(Clone, Debug)]
pub struct Document {
    format: Format,
    text: String,
    elements: Vec<Element>,
}

impl Document {
    /// Parses `bytes` as a document of `format`. Refuses binary and non-UTF-8 bytes.
    pub fn parse(format: Format, bytes: &[u8]) -> Result<Document, DocError> {
        let text = check_text(bytes)?;
        let elements = match format {
            Format::Html => crate::html::elements(text)?,
            Format::Markdown => crate::markdown::elements(text)?,
        };
        Ok(Document {
            format,
            text: text.to_string(),
            elements,
        })
    }

    /// The format.
    pub fn format(&self) -> Format {
        self.format
    }

    /// The whole text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The elements in document order.
    pub fn elements(&self) -> &[Element] {
        &self.elements
    }

    /// The element with this id, or an error naming a few that exist.
    pub fn element(&self, id: &str) -> Result<&Element, DocError> {
        let id = id.trim().trim_start_matches('^');
        self.elements
            .iter()
            .find(|e| e.id == id)
            .ok_or_else(|| DocError::UnknownElement {
                id: id.to_string(),
                known: self.elements.iter().take(5).map(|e| e.id.clone()).collect(),
            })
    }

    /// Performs one edit. The result's text differs from this document's only inside the
    /// touched elements, except that a redaction also scrubs the redacted text from every
    /// attribute, title and comment of the document. Nothing is changed on error.
    pub fn apply(&self, edit: &Edit) -> Result<Applied, DocError> {
        match self.format {
            Format::Html => crate::html::apply(self, edit),
            Format::Markdown => crate::markdown::apply(self, edit),
        }
    }
}

/// The bytes as text, or why they are not a document.
fn check_text(bytes: &[u8]) -> Result<&str, DocError> {
    if bytes.contains(&0) {
        return Err(DocError::NotText {
            reason: "it holds NUL bytes".into(),
        });
    }
    std::str::from_utf8(bytes).map_err(|e| DocError::NotText {
        reason: format!("it is not UTF-8 (byte {})", e.valid_up_to()),
    })
}
