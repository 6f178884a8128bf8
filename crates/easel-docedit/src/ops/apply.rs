//! `doc_apply`: a list of edits, all or nothing, against the `rev` it was made for.

use easel_core::RunId;
use easel_ops::{Ctx, Effect, Op, OpError};
use easel_vault::{Expect, Step};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::{doc_path, in_file, missing, parse_rev};
use crate::document::Document;
use crate::edit::Edit;

/// One operation of a list: the seed's `{"id","tool","input"}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OperationItem {
    /// The operation's id in its list (any text; kept in the result).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// replace_text, redact_element, add_highlight, add_comment, delete_element,
    /// find_and_replace_all or redact_all_matching.
    pub tool: String,
    /// The tool's arguments, e.g. {"elementId": "c1a2b3c4d"}.
    pub input: Value,
}

impl OperationItem {
    /// The edit it describes, or why it describes none.
    pub fn edit(&self) -> Result<Edit, OpError> {
        serde_json::from_value(json!({"tool": self.tool, "input": self.input})).map_err(|e| {
            OpError::invalid(
                format!("operation '{}' is not a valid edit: {e}", self.tool),
                "tools: replace_text {elementId, oldText, newText}, redact_element {elementId}, \
                 add_highlight {elementId}, add_comment {elementId, comment}, delete_element \
                 {elementId}, find_and_replace_all {find, replace, caseSensitive}, \
                 redact_all_matching {pattern}",
            )
        })
    }

    /// The item for an edit.
    pub fn of(id: Option<String>, edit: &Edit) -> OperationItem {
        let v = serde_json::to_value(edit).unwrap_or(Value::Null);
        OperationItem {
            id,
            tool: edit.tool().to_string(),
            input: v.get("input").cloned().unwrap_or_else(|| json!({})),
        }
    }
}

/// `doc_apply`'s input.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DocApplyInput {
    /// Document path relative to the vault (.html, .htm or .md).
    pub path: String,
    /// The edits, in order: [{"tool": "redact_element", "input": {"elementId": "c1a2b3c4d"}}].
    pub operations: Vec<OperationItem>,
    /// The 'rev' the list was made for: nothing is applied if the document changed since.
    #[serde(default)]
    pub rev: Option<String>,
}

/// One edit that was applied.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AppliedEdit {
    /// The operation's id from the list, if it had one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// The seed's tool name.
    pub tool: String,
    /// The ids of the elements it changed.
    pub elements: Vec<String>,
    /// The ledger line: the tool and the element.
    pub summary: String,
    /// The ledger entry: `ledger_undo` with this id takes back this edit alone.
    pub ledger_id: String,
}

/// What `doc_apply` (and each single-edit operation) returns.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DocApplied {
    /// The vault-relative path.
    pub path: String,
    /// The revision the edits were applied to.
    pub rev_before: Option<String>,
    /// The new revision.
    pub rev: Option<String>,
    /// The run id shared by the edits: `ledger_undo` with it takes them all back.
    pub run: String,
    /// The edits, in order.
    pub applied: Vec<AppliedEdit>,
}

/// Applies `items` to the document at `path` in one write, one ledger entry per edit, all in
/// run `ctx.run()` (a new run when the context has none). Any failing edit fails the whole
/// list and nothing changes.
pub fn apply_list(
    ctx: &Ctx,
    path: &str,
    rev: Option<&str>,
    items: &[OperationItem],
) -> Result<DocApplied, OpError> {
    if items.is_empty() {
        return Err(OpError::invalid(
            "the list of operations is empty",
            "give at least one operation, e.g. [{\"tool\": \"redact_element\", \"input\": {\"elementId\": \"c1a2b3c4d\"}}]",
        ));
    }
    let edits = items
        .iter()
        .enumerate()
        .map(|(i, item)| item.edit().map_err(|e| numbered(e, i, items.len())))
        .collect::<Result<Vec<_>, _>>()?;
    let (p, format) = doc_path(ctx, path, true)?;
    let expect = match parse_rev(rev)? {
        Some(rev) => Expect::Rev(rev),
        None => Expect::Present,
    };
    let run = ctx
        .run()
        .map_or_else(|| RunId::new().to_string(), |r| r.as_str().to_string());
    let (written, applied) = ctx
        .vault()
        .modify_steps(&p, expect, |old| -> Result<_, OpError> {
            let Some(old) = old else {
                return Err(missing(&p));
            };
            let mut doc = Document::parse(format, old).map_err(|e| in_file(&p, &e))?;
            let mut steps = Vec::with_capacity(edits.len());
            let mut applied = Vec::with_capacity(edits.len());
            for (i, (edit, item)) in edits.iter().zip(items).enumerate() {
                let done = doc
                    .apply(edit)
                    .map_err(|e| numbered(in_file(&p, &e), i, edits.len()))?;
                let change = ctx
                    .change(&format!("doc_{}", edit.tool()), done.summary.clone())
                    .with_run(run.clone())
                    .with_span(done.span.clone());
                applied.push(AppliedEdit {
                    id: item.id.clone(),
                    tool: edit.tool().to_string(),
                    elements: done.touched.clone(),
                    summary: done.summary.clone(),
                    ledger_id: String::new(),
                });
                doc = Document::parse(format, done.text.as_bytes())
                    .map_err(|e| numbered(in_file(&p, &e), i, edits.len()))?;
                steps.push(Step {
                    bytes: done.text.into_bytes(),
                    change,
                });
            }
            Ok((steps, applied))
        })
        .map_err(|e| match e.kind {
            easel_core::ErrorKind::Conflict => OpError::conflict(
                format!("{}: {}; nothing was applied", p.as_str(), e.message),
                "read the document again with `doc_show` and make the edits for its new 'rev'",
            ),
            _ => e,
        })?;
    let applied = applied
        .into_iter()
        .zip(&written)
        .map(|(mut a, w)| {
            a.ledger_id = w.ledger_id.clone();
            a
        })
        .collect();
    Ok(DocApplied {
        path: p.as_str().to_string(),
        rev_before: written
            .first()
            .and_then(|w| w.rev_before)
            .map(|r| r.to_string()),
        rev: written
            .last()
            .and_then(|w| w.rev_after)
            .map(|r| r.to_string()),
        run,
        applied,
    })
}

/// An error of the `i`-th of `n` operations, saying that nothing was applied.
fn numbered(mut e: OpError, i: usize, n: usize) -> OpError {
    if n > 1 {
        e.message = format!(
            "operation {} of {n}: {}; nothing was applied",
            i + 1,
            e.message
        );
    }
    e
}

/// Applies a list of edits to a document.
#[derive(Clone, Copy, Debug, Default)]
pub struct DocApply;

impl Op for DocApply {
    type Input = DocApplyInput;
    type Output = DocApplied;
    const NAME: &'static str = "doc_apply";
    const TITLE: &'static str = "Apply edits to a document";
    const DESCRIPTION: &'static str = "Apply a list of document edits (the 'operations' of a `doc_edit` proposal) in order, all or nothing: if one fails, or the document changed since 'rev', nothing changes. Each edit becomes one ledger entry and all share one run id, so `ledger_undo` can take back one edit or the whole list.\n\
Example: {\"path\": \"Lease.html\", \"rev\": \"0123456789abcdef\", \"operations\": [{\"tool\": \"redact_element\", \"input\": {\"elementId\": \"c1a2b3c4d\"}}]}";
    const EFFECT: Effect = Effect::Destructive;

    fn run(&self, ctx: &Ctx, input: DocApplyInput) -> Result<DocApplied, OpError> {
        apply_list(ctx, &input.path, input.rev.as_deref(), &input.operations)
    }
}
