//! `doc_show` and `doc_ids`: what a document's elements are, and giving HTML elements ids.

use easel_ops::{Ctx, Effect, Op, OpError};
use easel_vault::Expect;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{doc_path, in_file, missing, read_doc};
use crate::document::Format;

/// `doc_show`'s input.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DocShowInput {
    /// Document path relative to the vault (.html, .htm or .md).
    pub path: String,
}

/// One element as `doc_show` lists it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ShownElement {
    /// The id edits use.
    pub id: String,
    /// The tag (`p`, `h2`, `li`, …).
    pub tag: String,
    /// Its text.
    pub text: String,
    /// The page, in a document made from a PDF.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page: Option<u32>,
}

/// What `doc_show` returns.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DocShown {
    /// The vault-relative path.
    pub path: String,
    /// The revision: give it to edits so they apply to this version only.
    pub rev: String,
    /// The elements in document order.
    pub elements: Vec<ShownElement>,
}

/// Lists a document's elements.
#[derive(Clone, Copy, Debug, Default)]
pub struct DocShow;

impl Op for DocShow {
    type Input = DocShowInput;
    type Output = DocShown;
    const NAME: &'static str = "doc_show";
    const TITLE: &'static str = "List a document's elements";
    const DESCRIPTION: &'static str = "List the elements of an HTML document or Markdown note: each paragraph, heading, list item, table cell or row with its id, tag and text. Edits name elements by these ids; the 'rev' makes sure they apply to this version.\n\
Example: {\"path\": \"Lease.html\"}";
    const EFFECT: Effect = Effect::Read;

    fn run(&self, ctx: &Ctx, input: DocShowInput) -> Result<DocShown, OpError> {
        let (p, doc, rev) = read_doc(ctx, &input.path)?;
        if doc.format() == Format::Html && doc.elements().is_empty() {
            return Err(in_file(&p, &crate::error::DocError::NoIds));
        }
        Ok(DocShown {
            path: p.as_str().to_string(),
            rev: rev.to_string(),
            elements: doc
                .elements()
                .iter()
                .map(|e| ShownElement {
                    id: e.id.clone(),
                    tag: e.tag.clone(),
                    text: e.text.clone(),
                    page: e.page,
                })
                .collect(),
        })
    }
}

/// `doc_ids`'s input.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DocIdsInput {
    /// HTML document path relative to the vault.
    pub path: String,
}

/// What `doc_ids` returns.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DocIdsOutput {
    /// The vault-relative path.
    pub path: String,
    /// The revision after (unchanged when no id was added).
    pub rev: String,
    /// How many elements got an id.
    pub added: usize,
    /// How many elements the document has now.
    pub elements: usize,
}

/// Gives an HTML document's text elements ids.
#[derive(Clone, Copy, Debug, Default)]
pub struct DocIds;

impl Op for DocIds {
    type Input = DocIdsInput;
    type Output = DocIdsOutput;
    const NAME: &'static str = "doc_ids";
    const TITLE: &'static str = "Give a document's elements ids";
    const DESCRIPTION: &'static str = "Give every paragraph, heading, list item, table cell and other text block of an HTML document a stable data-canon-id, changing no other byte, so that edits can address them. Elements that have one keep it. Markdown notes need none: their blocks are the elements.\n\
Example: {\"path\": \"Lease.html\"}";
    const EFFECT: Effect = Effect::Write;
    const IDEMPOTENT: bool = true;

    fn run(&self, ctx: &Ctx, input: DocIdsInput) -> Result<DocIdsOutput, OpError> {
        let (p, format) = doc_path(ctx, &input.path, true)?;
        if format == Format::Markdown {
            return Err(OpError::invalid(
                format!(
                    "{} is a Markdown note: its blocks are its elements already",
                    p.as_str()
                ),
                "list them with `doc_show`; to pin a block's id, end it with an Obsidian block id like ^intro",
            ));
        }
        let vault = ctx.vault();
        let (bytes, rev) = vault.read(&p).map_err(|e| match e.kind() {
            easel_core::ErrorKind::NotFound => missing(&p),
            _ => OpError::from(e),
        })?;
        let text = check(&p, &bytes)?;
        let added = crate::html::add_ids(text).map_err(|e| in_file(&p, &e))?;
        if added.added == 0 {
            let doc = crate::Document::parse(format, &bytes).map_err(|e| in_file(&p, &e))?;
            return Ok(DocIdsOutput {
                path: p.as_str().to_string(),
                rev: rev.to_string(),
                added: 0,
                elements: doc.elements().len(),
            });
        }
        let doc =
            crate::Document::parse(format, added.text.as_bytes()).map_err(|e| in_file(&p, &e))?;
        let written = vault.write(
            &p,
            added.text.as_bytes(),
            Expect::Rev(rev),
            &ctx.change(Self::NAME, format!("doc_ids: {} ids added", added.added)),
        )?;
        Ok(DocIdsOutput {
            path: p.as_str().to_string(),
            rev: written.rev_after.map(|r| r.to_string()).unwrap_or_default(),
            added: added.added,
            elements: doc.elements().len(),
        })
    }
}

fn check<'a>(p: &easel_vault::VaultPath, bytes: &'a [u8]) -> Result<&'a str, OpError> {
    if bytes.contains(&0) {
        return Err(in_file(
            p,
            &crate::error::DocError::NotText {
                reason: "it holds NUL bytes".into(),
            },
        ));
    }
    std::str::from_utf8(bytes).map_err(|e| {
        in_file(
            p,
            &crate::error::DocError::NotText {
                reason: format!("it is not UTF-8 (byte {})", e.valid_up_to()),
            },
        )
    })
}
