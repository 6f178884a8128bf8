//! `easel ledger` and `easel undo`.

use crate::output::Output;
use easel_vault::{UndoTarget, Vault};
use serde::Serialize;

#[derive(Serialize)]
struct LedgerResult {
    entries: Vec<easel_vault::LedgerEntry>,
    total: usize,
}

pub fn list(vault: &Vault, out: &Output, limit: usize) -> anyhow::Result<()> {
    let entries = vault.ledger_list(Some(limit))?;
    let r = LedgerResult {
        total: entries.len(),
        entries,
    };
    out.emit(&r, |r| {
        if r.entries.is_empty() {
            println!("no changes recorded yet");
        }
        for e in &r.entries {
            let undone = if e.is_undo() { " (undo)" } else { "" };
            println!(
                "{}  {}  {:<10} {:<18} {}{}",
                e.id, e.time, e.actor, e.op, e.summary, undone
            );
        }
    })
}

#[derive(Serialize)]
struct UndoResult {
    undone: Vec<easel_vault::Undone>,
}

pub fn undo(
    vault: &Vault,
    out: &Output,
    id: Option<String>,
    run: Option<String>,
) -> anyhow::Result<()> {
    let target = match (id, run) {
        (Some(id), _) => UndoTarget::Id(id),
        (None, Some(run)) => UndoTarget::Run(run),
        (None, None) => UndoTarget::Latest,
    };
    let undone = vault.undo_as(target, "cli")?;
    let r = UndoResult { undone };
    out.emit(&r, |r| {
        for u in &r.undone {
            let state = match u.rev_after {
                Some(rev) => format!("restored rev {rev}"),
                None => "removed the file it had created".to_owned(),
            };
            println!("undid {} on {}: {state}", u.undid, u.path);
        }
    })
}
