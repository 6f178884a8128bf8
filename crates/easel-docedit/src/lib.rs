//! Atomic, reviewable edits of HTML documents and Markdown notes (DESIGN.md section 10).
//!
//! A [`Document`] is parsed from a file's bytes; its [`Element`]s are what edits address: in HTML
//! the elements carrying `data-canon-id`, in Markdown the blocks (an Obsidian `^id` where the
//! block has one, else `b<N>`). [`Document::apply`] performs one [`Edit`] and returns the whole
//! new text, which differs from the old one only inside the touched elements (and, for a
//! redaction, wherever an attribute, title or comment still held the redacted text).
//!
//! Nothing here reads or writes files: the vault operations of `easel-ops` style live in
//! [`ops`] on top of this.

#![warn(missing_docs)]

mod document;
mod edit;
mod error;
mod html;
mod markdown;
pub mod ops;
mod pattern;
mod pdf;
pub mod proposal;
pub mod scan;
pub mod semantic;
mod splice;

pub use document::{Document, Element, Format};
pub use edit::{Applied, Edit, IdsAdded};
pub use error::DocError;
pub use html::add_ids;
pub use pdf::{PdfHtml, pdf_to_html};
