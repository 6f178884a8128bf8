//! Dropping saved bytes for good: after a redaction, the blobs that undo would need still hold
//! what was redacted, and some documents must not keep it anywhere.

use std::collections::HashSet;
use std::fs;

use serde::Serialize;

use crate::error::VaultError;
use crate::rev::Rev;
use crate::vault::Vault;

/// What [`Vault::purge_blobs`] removed.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Purged {
    /// How many saved versions were deleted.
    pub blobs_removed: usize,
    /// The ledger entries that can no longer be undone, because the bytes they would restore
    /// are gone.
    pub entries: Vec<String>,
}

impl Vault {
    /// Deletes every saved earlier version of the file `path` (the blobs its ledger entries
    /// restore on undo) for which `holds` is true. Undo of the entries that needed them is
    /// impossible afterwards; they are listed. Runs under the undo lock, so no undo reads a
    /// blob while it goes.
    pub fn purge_blobs(
        &self,
        path: &str,
        holds: impl Fn(&[u8]) -> bool,
    ) -> Result<Purged, VaultError> {
        let _undo = self.lock_undo()?;
        let entries = self.settled_entries()?;
        let revs: HashSet<Rev> = entries
            .iter()
            .filter(|e| e.path == path)
            .filter_map(|e| e.rev_before)
            .collect();
        let blobs = &self.dirs().blobs;
        let dir = match fs::read_dir(blobs) {
            Ok(dir) => dir,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Purged::default()),
            Err(e) => return Err(VaultError::io("list", blobs, e)),
        };
        let mut removed: HashSet<Rev> = HashSet::new();
        let mut count = 0;
        for item in dir.flatten() {
            let name = item.file_name().to_string_lossy().into_owned();
            let Some(rev) = name.get(..16).and_then(|r| r.parse::<Rev>().ok()) else {
                continue;
            };
            if !revs.contains(&rev) || !item.file_type().is_ok_and(|t| t.is_file()) {
                continue;
            }
            let bytes =
                fs::read(item.path()).map_err(|e| VaultError::io("read", item.path(), e))?;
            if Rev::of(&bytes) == rev && holds(&bytes) {
                fs::remove_file(item.path())
                    .map_err(|e| VaultError::io("delete", item.path(), e))?;
                removed.insert(rev);
                count += 1;
            }
        }
        if count > 0 {
            crate::atomic::sync_dir(blobs)?;
        }
        let mut gone: Vec<String> = entries
            .iter()
            .filter(|e| e.rev_before.is_some_and(|r| removed.contains(&r)))
            .map(|e| e.id.clone())
            .collect();
        gone.dedup();
        tracing::info!(
            path,
            blobs = count,
            entries = gone.len(),
            "purged saved versions"
        );
        Ok(Purged {
            blobs_removed: count,
            entries: gone,
        })
    }
}
