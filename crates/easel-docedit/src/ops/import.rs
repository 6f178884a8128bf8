//! `doc_import`: a PDF becomes an HTML document Easel can edit.

use easel_ops::{Ctx, Effect, Op, OpError};
use easel_vault::Expect;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{in_file, missing};

/// `doc_import`'s input.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DocImportInput {
    /// The PDF, relative to the vault.
    pub path: String,
    /// Where to write the HTML (default: the PDF's path with .html).
    #[serde(default)]
    pub to: Option<String>,
    /// Replace an existing file at 'to' (default false).
    #[serde(default)]
    pub overwrite: Option<bool>,
}

/// What `doc_import` returns.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DocImported {
    /// The PDF.
    pub from: String,
    /// The HTML document written.
    pub path: String,
    /// Its revision.
    pub rev: String,
    /// Pages (one `<section data-page="N">` each).
    pub pages: usize,
    /// Paragraphs with ids.
    pub paragraphs: usize,
    /// Pages without text and the like.
    pub warnings: Vec<String>,
}

/// Makes an editable HTML document from a PDF.
#[derive(Clone, Copy, Debug, Default)]
pub struct DocImport;

impl Op for DocImport {
    type Input = DocImportInput;
    type Output = DocImported;
    const NAME: &'static str = "doc_import";
    const TITLE: &'static str = "Import a PDF as a document";
    const DESCRIPTION: &'static str = "Turn a PDF of the vault into an HTML document with one section per page and an id on every paragraph, so that it can be read with `doc_show`, edited and redacted. The PDF itself is not changed.\n\
Example: {\"path\": \"Scans/Lease.pdf\"}";
    const EFFECT: Effect = Effect::Write;

    fn run(&self, ctx: &Ctx, input: DocImportInput) -> Result<DocImported, OpError> {
        let vault = ctx.vault();
        let from = vault.resolve(input.path.trim())?;
        if !from.as_str().to_ascii_lowercase().ends_with(".pdf") {
            return Err(OpError::invalid(
                format!("{} is not a PDF", from.as_str()),
                "give a .pdf file of the vault; `vault_list` lists the files",
            ));
        }
        let (bytes, _) = vault.read(&from).map_err(|e| match e.kind() {
            easel_core::ErrorKind::NotFound => missing(&from),
            _ => OpError::from(e),
        })?;
        let to = match input.to.as_deref().map(str::trim) {
            Some(to) if !to.is_empty() => to.to_string(),
            _ => format!("{}.html", &from.as_str()[..from.as_str().len() - 4]),
        };
        if crate::Format::of_path(&to) != Some(crate::Format::Html) {
            return Err(OpError::invalid(
                format!("'{to}' is not an .html path"),
                "give 'to' a path ending in .html",
            ));
        }
        let target = vault.resolve_for_write(&to)?;
        let title = from
            .as_str()
            .rsplit('/')
            .next()
            .unwrap_or(from.as_str())
            .trim_end_matches(".pdf")
            .trim_end_matches(".PDF");
        let made = crate::pdf_to_html(&bytes, title).map_err(|e| in_file(&from, &e))?;
        let expect = if input.overwrite == Some(true) {
            Expect::Any
        } else {
            Expect::Absent
        };
        let written = vault
            .write(
                &target,
                made.html.as_bytes(),
                expect,
                &ctx.change(
                    Self::NAME,
                    format!("doc_import {} ({} pages)", from.as_str(), made.pages),
                ),
            )
            .map_err(|e| match e.kind() {
                easel_core::ErrorKind::Conflict => OpError::conflict(
                    format!("{} exists already", target.as_str()),
                    "give another 'to', or set 'overwrite' to replace it",
                ),
                _ => OpError::from(e),
            })?;
        Ok(DocImported {
            from: from.as_str().to_string(),
            path: target.as_str().to_string(),
            rev: written.rev_after.map(|r| r.to_string()).unwrap_or_default(),
            pages: made.pages,
            paragraphs: made.paragraphs,
            warnings: made.warnings,
        })
    }
}
