//! PDF import: a PDF becomes an HTML document with one `<section data-page="N">` per page and
//! a `data-canon-id` on each paragraph and heading, ready for the edits of this crate.
//!
//! Text comes from `pdf-extract` (on `lopdf`), which hands over every glyph with its position
//! and size; `layout` rebuilds lines, paragraphs and headings from those. `pdf-extract`
//! panics on some malformed input by its author's choice, so every call into it runs under
//! `catch_unwind` and a panic becomes [`DocError::Pdf`] (or, for one page, a warning). This
//! relies on `panic = "unwind"`, the default, which the workspace's profiles keep. So that such a
//! panic prints nothing on stderr, the first import wraps the process's panic hook in one that
//! stays silent while the reader runs on that thread and calls the previous hook otherwise.

#[cfg(feature = "pdf")]
mod layout;
#[cfg(feature = "pdf")]
mod read;
#[cfg(feature = "pdf")]
mod render;

use crate::error::DocError;

/// An imported PDF.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PdfHtml {
    /// The whole HTML5 document.
    pub html: String,
    /// How many pages the PDF has (and sections the HTML has).
    pub pages: usize,
    /// How many elements got an id: paragraphs and headings.
    pub paragraphs: usize,
    /// What the reader should know: pages without text, pages that could not be read.
    pub warnings: Vec<String>,
}

/// Turns a PDF into an editable HTML document titled `title`.
///
/// Fails with [`DocError::Pdf`] on bytes that are not a PDF, a damaged or encrypted PDF, or one
/// with no page; a page that cannot be read, or holds no text, gives an empty section and a
/// warning instead. Without the `pdf` feature it always fails, saying so.
#[cfg(feature = "pdf")]
pub fn pdf_to_html(bytes: &[u8], title: &str) -> Result<PdfHtml, DocError> {
    let read::Pages { pages, warnings } = read::pages(bytes)?;
    let rendered = render::document(title, &pages);
    Ok(PdfHtml {
        html: rendered.html,
        pages: pages.len(),
        paragraphs: rendered.elements,
        warnings,
    })
}

/// Without the `pdf` feature there is no PDF reader: every import fails, saying how to get one.
#[cfg(not(feature = "pdf"))]
pub fn pdf_to_html(_bytes: &[u8], _title: &str) -> Result<PdfHtml, DocError> {
    Err(DocError::Pdf {
        message: "this build has no PDF support; rebuild easel with the `pdf` feature of \
                  easel-docedit (on by default)"
            .into(),
    })
}
