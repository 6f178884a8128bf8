//! The document operations of the Registry (DESIGN.md section 10): `doc_show`, `doc_ids`,
//! `doc_scan`, one operation per edit (`doc_replace_text`, …), `doc_apply`, `doc_finalize` and
//! `doc_import`. Every change goes through the vault: atomic, checked against `rev`, and one
//! ledger entry per edit that records the touched element's bytes, so one edit can be undone
//! alone later.

mod apply;
mod edits;
mod finalize;
mod import;
mod read;
mod scan;

use std::sync::Arc;

use easel_llm::ops::Models;
use easel_ops::{Ctx, OpError, Registry};
use easel_vault::{Rev, VaultPath};

pub use apply::{AppliedEdit, DocApplied, DocApply, DocApplyInput, OperationItem, apply_list};
pub use edits::{
    DocAddComment, DocAddHighlight, DocDeleteElement, DocFindAndReplaceAll, DocRedactAllMatching,
    DocRedactElement, DocReplaceText,
};
pub use finalize::{DocFinalize, DocFinalizeInput, DocFinalized};
pub use import::{DocImport, DocImportInput, DocImported};
pub use read::{DocIds, DocIdsInput, DocIdsOutput, DocShow, DocShowInput, DocShown, ShownElement};
pub use scan::{DocScan, DocScanInput, DocScanOutput};

use crate::document::{Document, Format};
use crate::error::DocError;

/// Registers every document operation; `models` answers the semantic scan queries.
pub fn register(registry: &mut Registry, models: Arc<Models>) {
    registry
        .register(DocShow)
        .register(DocIds)
        .register(DocReplaceText)
        .register(DocRedactElement)
        .register(DocAddHighlight)
        .register(DocAddComment)
        .register(DocDeleteElement)
        .register(DocFindAndReplaceAll)
        .register(DocRedactAllMatching)
        .register(DocApply)
        .register(DocScan::new(models))
        .register(DocFinalize)
        .register(DocImport);
}

/// A document error as an operation error.
pub(crate) fn op_error(e: &DocError) -> OpError {
    OpError::from_diagnose(e)
}

/// The path of a document: an existing `.html`, `.htm` or `.md` file in the vault.
pub(crate) fn doc_path(
    ctx: &Ctx,
    path: &str,
    for_write: bool,
) -> Result<(VaultPath, Format), OpError> {
    let trimmed = path.trim();
    if trimmed.is_empty() {
        return Err(OpError::invalid(
            "the document path is empty",
            "give a path relative to the vault, e.g. \"Contracts/Lease.html\"; `vault_list` lists the files",
        ));
    }
    let Some(format) = Format::of_path(trimmed) else {
        return Err(OpError::invalid(
            format!("{trimmed} is not a document Easel edits"),
            "give an .html, .htm or .md file; make HTML from a PDF with `doc_import`",
        ));
    };
    let vault = ctx.vault();
    let p = if for_write {
        vault.resolve_for_write(trimmed)?
    } else {
        vault.resolve(trimmed)?
    };
    Ok((p, format))
}

/// Reads and parses a document: its path, the parsed document and its revision.
pub fn read_doc(ctx: &Ctx, path: &str) -> Result<(VaultPath, Document, Rev), OpError> {
    let (p, format) = doc_path(ctx, path, false)?;
    let (bytes, rev) = ctx.vault().read(&p).map_err(|e| match e.kind() {
        easel_core::ErrorKind::NotFound => missing(&p),
        _ => OpError::from(e),
    })?;
    let doc = Document::parse(format, &bytes).map_err(|e| in_file(&p, &e))?;
    Ok((p, doc, rev))
}

/// A document error, with the file named.
pub(crate) fn in_file(p: &VaultPath, e: &DocError) -> OpError {
    let mut err = op_error(e);
    err.message = format!("{}: {}", p.as_str(), err.message);
    err
}

pub(crate) fn missing(p: &VaultPath) -> OpError {
    OpError::not_found(
        format!("document not found: {}", p.as_str()),
        "check the path with `vault_list`",
    )
}

pub(crate) fn parse_rev(rev: Option<&str>) -> Result<Option<Rev>, OpError> {
    rev.map(|r| {
        r.trim().parse::<Rev>().map_err(|e| {
            OpError::invalid(
                format!("'rev' {r:?} is not a revision: {e}"),
                "use the 16 hex digits of 'rev' returned by `doc_show`, or leave 'rev' out",
            )
        })
    })
    .transpose()
}
