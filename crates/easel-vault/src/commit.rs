//! Applying one change to a vault file, so that a kill at any point leaves the file old or new
//! and the ledger agreeing with it, and so that a program writing without Easel's locks
//! (Obsidian saving its copy) does not lose its edit to an Easel write.
//!
//! Order of one change, under the file's lock:
//!
//! 1. read the file and note its identity ([`Snapshot`]: revision plus inode, size and times);
//! 2. save the old bytes as a blob, write the new bytes to `.easel/tmp/` and flush them;
//! 3. under the ledger lock: append the entry as pending, check the file's identity again — if
//!    another program changed it meanwhile, the entry is withdrawn, nothing is written and the
//!    caller starts over from that version — and rename the new bytes into place;
//! 4. flush the folder, and confirm the entry (flushing the ledger).
//!
//! The window in which an unlocked writer's edit can still be lost is between the check and
//! the rename: two system calls, instead of two flushes to disk.

use std::fs::{self, File};
use std::io::{self, Read};
use std::time::SystemTime;

use jiff::Timestamp;

use crate::atomic::{Staged, clean_stale, stage, sync_dir};
use crate::error::VaultError;
use crate::ledger::{self, Change, LedgerEntry, Written};
use crate::links::check_internals;
use crate::lock;
use crate::path::VaultPath;
use crate::rev::Rev;
use crate::vault::Vault;

/// What identifies one version of a file without reading it: a rename puts a new inode in
/// place, an in-place write changes the size or the times.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stamp {
    Absent,
    Present {
        dev: u64,
        ino: u64,
        len: u64,
        modified: Option<SystemTime>,
        changed: Option<(i64, i64)>,
    },
}

impl Stamp {
    fn of(meta: &fs::Metadata) -> Stamp {
        #[cfg(unix)]
        let (dev, ino, changed) = {
            use std::os::unix::fs::MetadataExt;
            (
                meta.dev(),
                meta.ino(),
                Some((meta.ctime(), meta.ctime_nsec())),
            )
        };
        #[cfg(not(unix))]
        let (dev, ino, changed) = (0, 0, None);
        Stamp::Present {
            dev,
            ino,
            len: meta.len(),
            modified: meta.modified().ok(),
            changed,
        }
    }

    /// The stamp of whatever is at `p` now.
    pub(crate) fn now(p: &VaultPath) -> Result<Stamp, VaultError> {
        match fs::metadata(p.abs()) {
            Ok(meta) => Ok(Stamp::of(&meta)),
            Err(e)
                if matches!(
                    e.kind(),
                    io::ErrorKind::NotFound | io::ErrorKind::NotADirectory
                ) =>
            {
                Ok(Stamp::Absent)
            }
            Err(e) => Err(VaultError::io("inspect", p.abs(), e)),
        }
    }
}

/// A file as read under its lock: its bytes and revision (`None` when absent) and its stamp.
#[derive(Debug)]
pub(crate) struct Snapshot {
    pub(crate) current: Option<(Vec<u8>, Rev)>,
    pub(crate) stamp: Stamp,
}

impl Snapshot {
    pub(crate) fn bytes(&self) -> Option<&[u8]> {
        self.current.as_ref().map(|(b, _)| b.as_slice())
    }

    pub(crate) fn rev(&self) -> Option<Rev> {
        self.current.as_ref().map(|(_, r)| *r)
    }
}

impl Vault {
    /// Read a file with the stamp of the very version read (taken from the open file).
    pub(crate) fn snapshot(&self, p: &VaultPath) -> Result<Snapshot, VaultError> {
        let mut file = match File::open(p.abs()) {
            Ok(f) => f,
            Err(e)
                if matches!(
                    e.kind(),
                    io::ErrorKind::NotFound | io::ErrorKind::NotADirectory
                ) =>
            {
                return Ok(Snapshot {
                    current: None,
                    stamp: Stamp::Absent,
                });
            }
            Err(e) => return Err(VaultError::io("read", p.abs(), e)),
        };
        let meta = file
            .metadata()
            .map_err(|e| VaultError::io("inspect", p.abs(), e))?;
        if meta.is_dir() {
            return Err(VaultError::NotAFile {
                path: p.as_str().to_string(),
            });
        }
        let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
        file.read_to_end(&mut bytes)
            .map_err(|e| VaultError::io("read", p.abs(), e))?;
        let rev = Rev::of(&bytes);
        Ok(Snapshot {
            current: Some((bytes, rev)),
            stamp: Stamp::of(&meta),
        })
    }

    /// Apply a change whose preconditions the caller checked on `snap` under the path's lock.
    /// `Ok(None)`: the file changed since `snap` was read, by a program that takes no lock, and
    /// nothing was written or recorded.
    pub(crate) fn commit_snapshot(
        &self,
        p: &VaultPath,
        snap: Snapshot,
        after: Option<&[u8]>,
        change: &Change,
        undoes: Option<&str>,
    ) -> Result<Option<Written>, VaultError> {
        let stamp = snap.stamp;
        self.apply(p, snap.current, Some(stamp), after, change, undoes)
    }

    /// A change recorded with undo bytes of the caller's choosing (`undo_to`, not the bytes of
    /// `snap`), checked against `snap` like any other change. `Ok(None)`: the file changed since
    /// `snap` was read, and nothing was written or recorded.
    pub(crate) fn commit_snapshot_undoing_to(
        &self,
        p: &VaultPath,
        snap: Snapshot,
        undo_to: Option<(Vec<u8>, Rev)>,
        after: &[u8],
        change: &Change,
    ) -> Result<Option<Written>, VaultError> {
        self.apply(p, undo_to, Some(snap.stamp), Some(after), change, None)
    }

    /// Write a step of a change without recording it, under the same check as a recorded change:
    /// `Ok(false)` when a program that takes no lock changed the file since `snap` was read, and
    /// nothing was written.
    pub(crate) fn install_unrecorded(
        &self,
        p: &VaultPath,
        snap: &Snapshot,
        after: &[u8],
    ) -> Result<bool, VaultError> {
        let dirs = self.dirs();
        check_internals(self.root(), dirs)?;
        clean_stale(&dirs.tmp);
        if let Some(dir) = p.abs().parent() {
            fs::create_dir_all(dir).map_err(|e| VaultError::io("create the folder", dir, e))?;
        }
        let staged = stage(&dirs.tmp, p.abs(), after)?;
        if Stamp::now(p)? != snap.stamp {
            tracing::info!(path = %p, "the file changed while Easel was writing a step of a change; starting over from its version");
            return Ok(false);
        }
        staged.install(p.abs())?;
        if let Some(dir) = p.abs().parent() {
            sync_dir(dir)?;
        }
        Ok(true)
    }

    /// Lock order everywhere: undo lock, then path locks (sorted), then the ledger lock.
    pub(crate) fn apply(
        &self,
        p: &VaultPath,
        before: Option<(Vec<u8>, Rev)>,
        stamp: Option<Stamp>,
        after: Option<&[u8]>,
        change: &Change,
        undoes: Option<&str>,
    ) -> Result<Option<Written>, VaultError> {
        let dirs = self.dirs();
        check_internals(self.root(), dirs)?;
        clean_stale(&dirs.tmp);
        // The blob first, so that no entry ever points at bytes that were not saved.
        let blob = match &before {
            Some((bytes, _)) => Some(ledger::store_blob(dirs, bytes)?),
            None => None,
        };
        let rev_before = before.as_ref().map(|(_, rev)| *rev);
        let staged: Option<Staged<'_>> = match after {
            Some(bytes) => Some(stage(&dirs.tmp, p.abs(), bytes)?),
            None => None,
        };
        let time = Timestamp::now();
        let entry = LedgerEntry {
            id: ledger::new_id(time),
            time,
            actor: change.actor.clone(),
            op: change.op.clone(),
            path: p.as_str().to_string(),
            rev_before,
            rev_after: after.map(Rev::of),
            summary: change.summary.clone(),
            run: change.run.clone(),
            undoes: undoes.map(str::to_string),
            blob,
            span: change.span,
            batch: None,
            pending: false,
        };

        if let Some(dir) = p.abs().parent() {
            fs::create_dir_all(dir).map_err(|e| VaultError::io("create the folder", dir, e))?;
        }

        let ledger_guard = lock::acquire(&dirs.ledger_lock(), "ledger", self.lock_timeout())?;
        ledger::append_pending(&dirs.ledger, &entry)?;
        // Checked after the append, so that nothing but the rename itself separates the check
        // from the rename.
        if let Some(stamp) = stamp
            && Stamp::now(p)? != stamp
        {
            tracing::info!(path = %p, "the file changed while Easel was writing it (a program that takes no lock?); starting over from its version");
            ledger::withdraw(&dirs.ledger, &entry.id)?;
            return Ok(None);
        }
        let replaced = match staged {
            Some(staged) => staged.install(p.abs()),
            None => match fs::remove_file(p.abs()) {
                Ok(()) => Ok(()),
                Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
                Err(e) => Err(VaultError::io("delete", p.abs(), e)),
            },
        };
        if let Err(e) = replaced {
            if let Err(void) = ledger::withdraw(&dirs.ledger, &entry.id) {
                // Readers still see that the file kept its old revision.
                tracing::warn!(id = %entry.id, error = %void, "could not withdraw a ledger entry whose change failed");
            }
            return Err(e);
        }
        drop(ledger_guard);

        if let Some(dir) = p.abs().parent() {
            sync_dir(dir)?;
        }
        // A kill before the confirmation leaves a pending entry that readers settle from the
        // file; so a confirmation that fails (a busy ledger, a full disk) is no reason to report
        // a change that happened as failed.
        let confirmed = lock::acquire(&dirs.ledger_lock(), "ledger", self.lock_timeout())
            .and_then(|_guard| ledger::confirm(&dirs.ledger, &entry.id));
        if let Err(e) = confirmed {
            tracing::warn!(id = %entry.id, error = %e, "could not confirm a ledger entry; readers will settle it from the file");
        }
        tracing::debug!(path = %p, op = %entry.op, actor = %entry.actor, id = %entry.id, "recorded change");
        Ok(Some(Written {
            path: entry.path,
            rev_before,
            rev_after: entry.rev_after,
            ledger_id: entry.id,
        }))
    }

    /// Every change that happened, oldest first, with pending entries settled (see
    /// [`ledger::settle`]).
    pub(crate) fn settled_entries(&self) -> Result<Vec<LedgerEntry>, VaultError> {
        check_internals(self.root(), self.dirs())?;
        let lines = ledger::read_lines(&self.dirs().ledger)?;
        Ok(ledger::settle(lines, |path| {
            let p = self.resolve(path).ok()?;
            self.read_current_rev(&p).ok()
        }))
    }
}
