//! `doc_finalize`: the originals of redacted text gone from the ledger's saved versions too.

use std::collections::{BTreeSet, HashMap};

use easel_ops::{Ctx, Effect, Op, OpError};
use easel_vault::LedgerEntry;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{in_file, read_doc};
use crate::document::{Document, Format};
use crate::scan;

/// `doc_finalize`'s input.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DocFinalizeInput {
    /// Document path relative to the vault.
    pub path: String,
}

/// What `doc_finalize` did.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DocFinalized {
    /// The vault-relative path.
    pub path: String,
    /// How many redactions of the document were found in the ledger.
    pub redactions: usize,
    /// How many saved versions (ledger blobs) holding redacted text were deleted.
    pub blobs_removed: usize,
    /// How many agent session files holding redacted text were deleted.
    pub sessions_removed: usize,
    /// Ledger entries that can no longer be undone.
    pub no_longer_undoable: Vec<String>,
    /// What it means, for people.
    pub note: String,
}

/// Drops the saved versions that still hold redacted text.
#[derive(Clone, Copy, Debug, Default)]
pub struct DocFinalize;

impl Op for DocFinalize {
    type Input = DocFinalizeInput;
    type Output = DocFinalized;
    const NAME: &'static str = "doc_finalize";
    const TITLE: &'static str = "Make redactions final";
    const DESCRIPTION: &'static str = "After redacting a document, delete every copy Easel kept of the redacted text: the saved earlier versions in the ledger (so those changes can no longer be undone) and agent sessions that quoted it. The document itself already holds no redacted text.\n\
Example: {\"path\": \"Lease.html\"}";
    const EFFECT: Effect = Effect::Destructive;

    fn run(&self, ctx: &Ctx, input: DocFinalizeInput) -> Result<DocFinalized, OpError> {
        let (p, current, _) = read_doc(ctx, &input.path)?;
        let vault = ctx.vault();
        let entries = vault.ledger_list(None)?;
        // Oldest first, this file only, and what undo entries took back.
        let mut mine: Vec<&LedgerEntry> = entries
            .iter()
            .rev()
            .filter(|e| e.path == p.as_str())
            .collect();
        let undone: BTreeSet<&str> = mine.iter().filter_map(|e| e.undoes.as_deref()).collect();
        mine.retain(|e| !e.is_undo());
        let mut secrets: BTreeSet<String> = BTreeSet::new();
        let mut redactions = 0;
        for (i, entry) in mine.iter().enumerate() {
            if !entry.op.starts_with("doc_redact") || undone.contains(entry.id.as_str()) {
                continue;
            }
            redactions += 1;
            let Some(before) = vault.ledger_before(entry)? else {
                continue;
            };
            let after = match mine.get(i + 1) {
                Some(next) if next.rev_before == entry.rev_after => vault.ledger_before(next)?,
                _ => None,
            };
            // The last change of the file, or the version after it is gone: compare with the
            // file as it is.
            let after = after.unwrap_or_else(|| current.text().as_bytes().to_vec());
            secrets.extend(redacted_strings(current.format(), &before, &after));
        }
        let current_flat = flatten(current.text());
        if let Some(back) = secrets.iter().find(|s| current_flat.contains(s.as_str())) {
            return Err(in_file(
                &p,
                &crate::error::DocError::Invalid {
                    message: format!(
                        "the document holds redacted text again ('{}…'): a redaction was undone or the text was typed back",
                        back.chars().take(3).collect::<String>()
                    ),
                    hint: "redact it again with `doc_redact_element`, then run `doc_finalize`"
                        .into(),
                },
            ));
        }
        let holds = |bytes: &[u8]| {
            let flat = flatten(&String::from_utf8_lossy(bytes));
            secrets.iter().any(|s| flat.contains(s.as_str()))
        };
        let purged = if secrets.is_empty() {
            easel_vault::Purged::default()
        } else {
            vault.purge_blobs(p.as_str(), holds)?
        };
        let sessions_removed = if secrets.is_empty() {
            0
        } else {
            purge_sessions(ctx, &holds)?
        };
        let note = if redactions == 0 {
            "the ledger records no redaction of this document; nothing to do".to_string()
        } else if purged.entries.is_empty() {
            "no saved version held redacted text".to_string()
        } else {
            format!(
                "the redacted text is gone from the ledger; {} change(s) of this document can no longer be undone",
                purged.entries.len()
            )
        };
        Ok(DocFinalized {
            path: p.as_str().to_string(),
            redactions,
            blobs_removed: purged.blobs_removed,
            sessions_removed,
            no_longer_undoable: purged.entries,
            note,
        })
    }
}

/// The strings a redaction removed: in every element whose text changed, the runs of words
/// that are gone, and the structured pieces (emails, numbers, …) that are gone.
pub(crate) fn redacted_strings(format: Format, before: &[u8], after: &[u8]) -> Vec<String> {
    let (Ok(old), Ok(new)) = (
        Document::parse(format, before),
        Document::parse(format, after),
    ) else {
        return Vec::new();
    };
    let new_texts: HashMap<&str, &str> = new
        .elements()
        .iter()
        .map(|e| (e.id.as_str(), e.text.as_str()))
        .collect();
    let mut out = Vec::new();
    for element in old.elements() {
        let now = new_texts.get(element.id.as_str()).copied().unwrap_or("");
        if now == element.text || !now.contains('█') {
            continue;
        }
        let kept: BTreeSet<&str> = now.split_whitespace().collect();
        let mut run: Vec<&str> = Vec::new();
        for word in element.text.split_whitespace().chain([""]) {
            if !word.is_empty() && !kept.contains(word) {
                run.push(word);
            } else if !run.is_empty() {
                out.push(run.join(" "));
                run.clear();
            }
        }
        for hit in scan::structured(&element.text) {
            if let Some(piece) = element.text.get(hit.range)
                && !now.contains(piece)
            {
                out.push(piece.to_string());
            }
        }
    }
    out.retain(|s| s.chars().count() >= 2);
    out.iter().map(|s| flatten(s)).collect()
}

/// Text compared with whitespace runs as one space and the common character references
/// decoded, so that a line break or `&#64;` does not hide a redacted string.
fn flatten(text: &str) -> String {
    let decoded = decode_references(text);
    decoded.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn decode_references(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        let tail = &rest[at..];
        let end = tail.find(';').filter(|&e| e <= 10);
        let decoded = end.and_then(|e| {
            let name = &tail[1..e];
            let c = match name {
                "amp" => Some('&'),
                "lt" => Some('<'),
                "gt" => Some('>'),
                "quot" => Some('"'),
                "apos" => Some('\''),
                "nbsp" => Some(' '),
                _ => {
                    let code = name.strip_prefix('#')?;
                    let n = match code.strip_prefix(['x', 'X']) {
                        Some(hex) => u32::from_str_radix(hex, 16).ok()?,
                        None => code.parse().ok()?,
                    };
                    char::from_u32(n)
                }
            }?;
            Some((c, e))
        });
        match decoded {
            Some((c, e)) => {
                out.push(c);
                rest = &tail[e + 1..];
            }
            None => {
                out.push('&');
                rest = &tail[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// Deletes agent session files that hold redacted text (the document agent quotes the
/// document to its model); returns how many.
fn purge_sessions(ctx: &Ctx, holds: &dyn Fn(&[u8]) -> bool) -> Result<usize, OpError> {
    let dir = ctx.vault().root().join(".easel").join("sessions");
    let Ok(list) = std::fs::read_dir(&dir) else {
        return Ok(0);
    };
    let mut removed = 0;
    for item in list.flatten() {
        if !item.file_type().is_ok_and(|t| t.is_file()) {
            continue;
        }
        let Ok(bytes) = std::fs::read(item.path()) else {
            continue;
        };
        // Sessions are JSON: the text in them is escaped the JSON way.
        let text = String::from_utf8_lossy(&bytes);
        let unescaped = text.replace("\\n", " ").replace("\\\"", "\"");
        if holds(unescaped.as_bytes()) {
            std::fs::remove_file(item.path()).map_err(|e| {
                OpError::failure(format!(
                    "could not delete the session {}: {e}",
                    item.path().display()
                ))
            })?;
            removed += 1;
        }
    }
    Ok(removed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn references_and_line_breaks_do_not_hide_a_string() {
        assert_eq!(
            flatten("a&#64;b.com\n  and &lt;x&gt; &#x41;"),
            "a@b.com and <x> A"
        );
        assert_eq!(flatten("AT&T &bogus; &"), "AT&T &bogus; &");
    }
}
