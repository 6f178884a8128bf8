//! The ledger and undo as operations with one result shape, behind `easel ledger`, `easel undo`
//! and the MCP tools `ledger_list` and `ledger_undo`.

use crate::error::VaultError;
use crate::ledger::LedgerEntry;
use crate::undo::{UndoTarget, Undone};
use crate::vault::Vault;
use serde::Serialize;

/// `ledger list`: recent changes, newest first.
#[derive(Clone, Debug, Serialize)]
pub struct LedgerListResult {
    /// The entries, newest first.
    pub entries: Vec<LedgerEntry>,
    /// How many entries were returned.
    pub total: usize,
}

/// Lists the newest `limit` ledger entries.
pub fn ledger_list(vault: &Vault, limit: usize) -> Result<LedgerListResult, VaultError> {
    let entries = vault.ledger_list(Some(limit))?;
    Ok(LedgerListResult {
        total: entries.len(),
        entries,
    })
}

/// `undo`: what was undone.
#[derive(Clone, Debug, Serialize)]
pub struct UndoResult {
    /// One item per change that was reverted.
    pub undone: Vec<Undone>,
}

/// Undoes the latest change, the change `id`, or every change of `run` (`id` wins when both
/// are given), recording the undo under `actor`.
pub fn undo(
    vault: &Vault,
    id: Option<String>,
    run: Option<String>,
    actor: &str,
) -> Result<UndoResult, VaultError> {
    let target = match (id, run) {
        (Some(id), _) => UndoTarget::Id(id),
        (None, Some(run)) => UndoTarget::Run(run),
        (None, None) => UndoTarget::Latest,
    };
    Ok(UndoResult {
        undone: vault.undo_as(target, actor)?,
    })
}
