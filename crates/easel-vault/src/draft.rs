//! Changes made in steps and recorded once: an answer streaming into a canvas rewrites the file
//! every 250 ms, but it is one change to the person reading the ledger and to `easel undo`.
//!
//! The steps go through [`Vault::modify_draft`] (the lock, a re-read and an atomic write, no
//! ledger entry, no blob); the last step goes through [`Vault::modify_with_undo`], which records
//! one entry whose undo gives back what the caller says the change added to, not the bytes the
//! last step happened to read. So undoing the finished change removes exactly what it added,
//! and edits other writers made between the steps are kept.

use crate::error::VaultError;
use crate::ledger::{Change, Written};
use crate::path::VaultPath;
use crate::rev::Rev;
use crate::vault::{Expect, MAX_ATTEMPTS, Vault};

impl Vault {
    /// Read-modify-write under the file's lock, like [`Vault::update`], but not recorded: an
    /// intermediate state of a change that [`Vault::modify_with_undo`] records when it is
    /// complete. `f` sees the current bytes (`None` when the file is absent); its error is
    /// passed through and nothing is written. When a program that takes no lock (Obsidian
    /// saving its copy) changes the file between the read and the rename, nothing is written
    /// and `f` is applied again on top of that program's version, so its edit is kept.
    pub fn modify_draft<T, E: From<VaultError>>(
        &self,
        p: &VaultPath,
        mut f: impl FnMut(Option<&[u8]>) -> Result<(Vec<u8>, T), E>,
    ) -> Result<T, E> {
        let _guard = self.lock_path(p)?;
        for _ in 0..MAX_ATTEMPTS {
            let snap = self.snapshot(p)?;
            let (bytes, value) = f(snap.bytes())?;
            if self.install_unrecorded(p, &snap, &bytes)? {
                return Ok(value);
            }
        }
        Err(VaultError::ChangedDuringWrite {
            path: p.as_str().to_string(),
        }
        .into())
    }

    /// Read-modify-write under the file's lock, recorded as one ledger entry whose undo puts
    /// back the bytes `f` returns second (`None`: undo deletes the file) instead of the bytes
    /// read now. The entry's `rev_before` is the revision of those bytes, and they are kept as
    /// its blob. Use it to finish a change whose steps went through [`Vault::modify_draft`].
    /// Like [`Vault::update`], it applies `f` again when an unlocked writer saved meanwhile.
    pub fn modify_with_undo<T, E: From<VaultError>>(
        &self,
        p: &VaultPath,
        expect: Expect,
        change: &Change,
        mut f: impl FnMut(Option<&[u8]>) -> Result<(Vec<u8>, Option<Vec<u8>>, T), E>,
    ) -> Result<(Written, T), E> {
        let _guard = self.lock_path(p)?;
        for _ in 0..MAX_ATTEMPTS {
            let snap = self.snapshot(p)?;
            crate::vault::check_expect(p, expect, snap.rev())?;
            let (bytes, undo_to, value) = f(snap.bytes())?;
            let undo_to = undo_to.map(|b| {
                let rev = Rev::of(&b);
                (b, rev)
            });
            if let Some(written) =
                self.commit_snapshot_undoing_to(p, snap, undo_to, &bytes, change)?
            {
                return Ok((written, value));
            }
        }
        Err(VaultError::ChangedDuringWrite {
            path: p.as_str().to_string(),
        }
        .into())
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::UndoTarget;

    #[test]
    fn drafts_leave_no_entries_and_undo_of_the_record_keeps_other_edits() {
        let dir = tempfile::tempdir().unwrap();
        let vault = Vault::open(dir.path()).unwrap();
        let p = vault.resolve_for_write("a.txt").unwrap();
        vault
            .write(&p, b"mine\n", Expect::Absent, &Change::new("cli", "w", "s"))
            .unwrap();
        for step in ["mine\nans", "mine\nanswer so"] {
            vault
                .modify_draft(&p, |_| Ok::<_, VaultError>((step.as_bytes().to_vec(), ())))
                .unwrap();
        }
        assert_eq!(vault.ledger_list(None).unwrap().len(), 1);
        // Someone else's edit lands between two steps; the finished change keeps it.
        std::fs::write(p.abs(), "mine, edited\nanswer so").unwrap();
        let change = Change::new("thread", "thread.answer", "answer").with_run("r1");
        vault
            .modify_with_undo(&p, Expect::Present, &change, |now| {
                let now = String::from_utf8(now.unwrap().to_vec()).unwrap();
                let without = now.replace("answer so", "");
                let with = format!("{without}answer so far.");
                Ok::<_, VaultError>((with.into_bytes(), Some(without.into_bytes()), ()))
            })
            .unwrap();
        let entries = vault.ledger_list(None).unwrap();
        assert_eq!(entries.len(), 2);
        assert_eq!(entries[0].run.as_deref(), Some("r1"));
        assert_eq!(entries[0].rev_before, Some(Rev::of(b"mine, edited\n")));
        vault.undo(UndoTarget::Latest).unwrap();
        assert_eq!(std::fs::read(p.abs()).unwrap(), b"mine, edited\n");
    }
}
