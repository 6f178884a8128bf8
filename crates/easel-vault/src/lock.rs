//! Advisory locks between Easel writers, in this process and in others.
//!
//! Locks live in separate files under `.easel/locks/`, never on the target itself: an atomic
//! write renames a new inode over the target, so a lock held on the old inode would protect
//! nothing. `flock`-style locks belong to the open file description, so two threads of one
//! process exclude each other just like two processes do, and the kernel drops a lock when its
//! holder dies, so a crash never leaves a stale lock behind.

use std::fs::{self, File, TryLockError};
use std::path::{Path, PathBuf};
use std::thread;
use std::time::{Duration, Instant};

use sha2::{Digest, Sha256};

use crate::error::VaultError;

/// Held while a lock is owned; dropping it releases the lock.
#[derive(Debug)]
pub(crate) struct LockGuard {
    file: File,
    path: PathBuf,
}

impl Drop for LockGuard {
    fn drop(&mut self) {
        // Closing the file releases the lock anyway; unlocking first just makes it prompt.
        if let Err(e) = self.file.unlock() {
            tracing::debug!(lock = %self.path.display(), error = %e, "unlocking failed; closing the file releases it");
        }
    }
}

/// The lock file guarding one vault-relative path: named by a hash so that any path, however
/// long or strange, maps to a short, valid file name.
pub(crate) fn lock_file_for(locks_dir: &Path, rel: &str) -> PathBuf {
    let digest = Sha256::digest(rel.as_bytes());
    let mut name = String::with_capacity(21);
    for b in &digest[..8] {
        name.push_str(&format!("{b:02x}"));
    }
    name.push_str(".lock");
    locks_dir.join(name)
}

/// The first and the longest pause between attempts to take a busy lock. The longest is kept
/// close to the time one write takes (a few fsyncs): much longer, and a writer that releases
/// and re-takes a lock in a loop would starve the waiters.
const MIN_BACKOFF: Duration = Duration::from_micros(100);
const MAX_BACKOFF: Duration = Duration::from_millis(4);

/// Take the exclusive lock on `lock_path`, waiting up to `timeout`.
///
/// `what` names the locked thing in the error (a vault path, or "ledger").
pub(crate) fn acquire(
    lock_path: &Path,
    what: &str,
    timeout: Duration,
) -> Result<LockGuard, VaultError> {
    if let Some(dir) = lock_path.parent() {
        fs::create_dir_all(dir).map_err(|e| VaultError::io("create the lock folder", dir, e))?;
    }
    let file = crate::links::open_no_follow(
        File::options().create(true).truncate(false).write(true),
        lock_path,
    )
    .map_err(|e| crate::links::open_error("open the lock file", lock_path, e))?;
    let start = Instant::now();
    // Polling instead of a blocking lock() so that a wedged writer turns into a clear error
    // instead of a hang; the backoff stays short because writes take milliseconds.
    let mut delay = MIN_BACKOFF;
    loop {
        match file.try_lock() {
            Ok(()) => {
                return Ok(LockGuard {
                    file,
                    path: lock_path.to_path_buf(),
                });
            }
            Err(TryLockError::WouldBlock) => {
                let waited = start.elapsed();
                if waited >= timeout {
                    return Err(VaultError::Locked {
                        path: what.to_string(),
                        waited_ms: u64::try_from(waited.as_millis()).unwrap_or(u64::MAX),
                    });
                }
                // Random jitter so waiters do not wake in lockstep.
                let nap = delay.mul_f64(0.5 + fastrand::f64() / 2.0);
                thread::sleep(nap.min(timeout.saturating_sub(waited)));
                delay = (delay * 2).min(MAX_BACKOFF);
            }
            Err(TryLockError::Error(e)) => {
                return Err(VaultError::io("lock", lock_path, e));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn second_holder_times_out_with_locked() {
        let dir = tempfile::tempdir().unwrap();
        let path = lock_file_for(dir.path(), "a.md");
        let held = acquire(&path, "a.md", Duration::from_secs(1)).unwrap();
        let err = acquire(&path, "a.md", Duration::from_millis(30)).unwrap_err();
        assert!(matches!(err, VaultError::Locked { .. }), "{err}");
        drop(held);
        acquire(&path, "a.md", Duration::from_millis(30)).unwrap();
    }

    #[test]
    fn lock_names_are_short_and_distinct() {
        let a = lock_file_for(Path::new("/l"), "a.md");
        let b = lock_file_for(Path::new("/l"), "b.md");
        assert_ne!(a, b);
        assert_eq!(a.file_name().unwrap().len(), 21);
    }
}
