//! `easel ledger` and `easel undo`: thin adapters over `easel_vault::history`.

use crate::output::Output;
use easel_vault::Vault;
use easel_vault::history;

pub fn list(vault: &Vault, out: &Output, limit: usize) -> anyhow::Result<()> {
    let r = history::ledger_list(vault, limit)?;
    out.emit(&r, |r| {
        if r.entries.is_empty() {
            outln!("no changes recorded yet");
        }
        for e in &r.entries {
            let undone = if e.is_undo() { " (undo)" } else { "" };
            outln!(
                "{}  {}  {:<10} {:<18} {}{}",
                e.id,
                e.time,
                e.actor,
                e.op,
                e.summary,
                undone
            );
        }
    })
}

pub fn undo(
    vault: &Vault,
    out: &Output,
    id: Option<String>,
    run: Option<String>,
) -> anyhow::Result<()> {
    let r = history::undo(vault, id, run, "cli")?;
    out.emit(&r, |r| {
        for u in &r.undone {
            let state = match u.rev_after {
                Some(rev) => format!("restored rev {rev}"),
                None => "removed the file it had created".to_owned(),
            };
            outln!("undid {} on {}: {state}", u.undid, u.path);
        }
    })
}
