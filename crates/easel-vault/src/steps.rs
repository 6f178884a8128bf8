//! Several recorded changes to one file that reach it in one write: each step is its own ledger
//! entry (so each can be listed and undone on its own), but the file goes from the first
//! step's start to the last step's result in a single rename, so a failure or a kill leaves
//! all of the steps done or none.

use std::fs;

use jiff::Timestamp;

use crate::atomic::{clean_stale, stage, sync_dir};
use crate::commit::Stamp;
use crate::error::VaultError;
use crate::ledger::{self, Change, LedgerEntry, Written};
use crate::links::check_internals;
use crate::lock;
use crate::path::VaultPath;
use crate::rev::Rev;
use crate::vault::{Expect, Vault, check_expect};

/// One step of [`Vault::modify_steps`]: the whole file after it, and its ledger record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The file's bytes after this step.
    pub bytes: Vec<u8>,
    /// Who, what and why; [`Change::span`] lets the step be undone alone later.
    pub change: Change,
}

impl Vault {
    /// Read-modify-write of one file in several recorded steps: under the file's lock, read it,
    /// check `expect`, let `f` compute the steps from the current bytes, then write the last
    /// step's bytes once, recording one ledger entry per step (sharing a `batch` id). No steps:
    /// nothing is written or recorded.
    ///
    /// When a program that takes no lock changes the file between the read and the rename,
    /// nothing is written and the result is [`VaultError::ChangedDuringWrite`].
    pub fn modify_steps<T, E: From<VaultError>>(
        &self,
        p: &VaultPath,
        expect: Expect,
        f: impl FnOnce(Option<&[u8]>) -> Result<(Vec<Step>, T), E>,
    ) -> Result<(Vec<Written>, T), E> {
        let _guard = self.lock_path(p)?;
        let snap = self.snapshot(p)?;
        check_expect(p, expect, snap.rev())?;
        let (steps, value) = f(snap.bytes())?;
        if steps.is_empty() {
            return Ok((Vec::new(), value));
        }
        match self.apply_steps(p, snap.current, snap.stamp, &steps)? {
            Some(written) => Ok((written, value)),
            None => Err(VaultError::ChangedDuringWrite {
                path: p.as_str().to_string(),
            }
            .into()),
        }
    }

    /// Lock order as for single changes: path lock (held by the caller), then the ledger lock.
    /// `Ok(None)`: the file changed since `stamp`, and nothing was written or recorded.
    fn apply_steps(
        &self,
        p: &VaultPath,
        first: Option<(Vec<u8>, Rev)>,
        stamp: Stamp,
        steps: &[Step],
    ) -> Result<Option<Vec<Written>>, VaultError> {
        let dirs = self.dirs();
        check_internals(self.root(), dirs)?;
        clean_stale(&dirs.tmp);
        let time = Timestamp::now();
        let mut entries: Vec<LedgerEntry> = Vec::with_capacity(steps.len());
        let mut before = first;
        for step in steps {
            // Every blob first, so that no entry ever points at bytes that were not saved.
            let blob = match &before {
                Some((bytes, _)) => Some(ledger::store_blob(dirs, bytes)?),
                None => None,
            };
            let rev_after = Rev::of(&step.bytes);
            let id = ledger::new_id(time);
            entries.push(LedgerEntry {
                batch: Some(entries.first().map_or_else(|| id.clone(), |e| e.id.clone())),
                id,
                time,
                actor: step.change.actor.clone(),
                op: step.change.op.clone(),
                path: p.as_str().to_string(),
                rev_before: before.as_ref().map(|(_, rev)| *rev),
                rev_after: Some(rev_after),
                summary: step.change.summary.clone(),
                run: step.change.run.clone(),
                undoes: None,
                blob,
                span: step.change.span,
                pending: false,
            });
            before = Some((step.bytes.clone(), rev_after));
        }
        let Some(last) = steps.last() else {
            return Ok(Some(Vec::new()));
        };
        let staged = stage(&dirs.tmp, p.abs(), &last.bytes)?;
        if let Some(dir) = p.abs().parent() {
            fs::create_dir_all(dir).map_err(|e| VaultError::io("create the folder", dir, e))?;
        }

        let ledger_guard = lock::acquire(&dirs.ledger_lock(), "ledger", self.lock_timeout())?;
        for entry in &entries {
            ledger::append_pending(&dirs.ledger, entry)?;
        }
        let withdraw_all = |why: &str| {
            for entry in &entries {
                if let Err(e) = ledger::withdraw(&dirs.ledger, &entry.id) {
                    // Readers settle the batch from the file, which kept its old revision.
                    tracing::warn!(id = %entry.id, error = %e, "{why}");
                }
            }
        };
        if Stamp::now(p)? != stamp {
            tracing::info!(path = %p, "the file changed while Easel was writing it (a program that takes no lock?); nothing written");
            withdraw_all("could not withdraw a step of a change that was not written");
            return Ok(None);
        }
        if let Err(e) = staged.install(p.abs()) {
            withdraw_all("could not withdraw a step of a change that failed");
            return Err(e);
        }
        drop(ledger_guard);
        if let Some(dir) = p.abs().parent() {
            sync_dir(dir)?;
        }
        let confirmed =
            lock::acquire(&dirs.ledger_lock(), "ledger", self.lock_timeout()).and_then(|_guard| {
                entries
                    .iter()
                    .try_for_each(|e| ledger::confirm(&dirs.ledger, &e.id))
            });
        if let Err(e) = confirmed {
            tracing::warn!(path = %p, error = %e, "could not confirm the steps of a change; readers will settle them from the file");
        }
        Ok(Some(
            entries
                .into_iter()
                .map(|e| Written {
                    path: e.path,
                    rev_before: e.rev_before,
                    rev_after: e.rev_after,
                    ledger_id: e.id,
                })
                .collect(),
        ))
    }
}
