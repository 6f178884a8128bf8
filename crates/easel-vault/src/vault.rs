//! The vault: finding it, checking paths against it, and reading and changing its files.

use std::ffi::OsStr;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::error::VaultError;
use crate::ledger::{Change, EaselDirs, Written};
use crate::lock::{self, LockGuard};
use crate::path::{self, VaultPath};
use crate::rev::Rev;

/// What the caller believes about a file before changing it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expect {
    /// No expectation: last writer wins (but read-modify-write via [`Vault::modify`] still
    /// never loses a concurrent change).
    Any,
    /// Create only: [`VaultError::AlreadyExists`] (a conflict) if the file is there.
    Absent,
    /// The file must exist: [`VaultError::NotFound`] otherwise.
    Present,
    /// The file must still have this revision: [`VaultError::Conflict`] (exit code 4) if it
    /// changed or is gone.
    Rev(Rev),
}

/// A vault: a folder of notes and canvases, identified by its canonical root.
///
/// Cheap to clone and safe to share between threads; all coordination between writers goes
/// through lock files in the vault, so separate `Vault` values (and processes) cooperate too.
#[derive(Clone, Debug)]
pub struct Vault {
    root: PathBuf,
    dirs: EaselDirs,
    lock_timeout: Duration,
}

/// How long a writer waits for another writer's lock before giving up with
/// [`VaultError::Locked`]; generous, because holders only keep a lock for one file write.
const DEFAULT_LOCK_TIMEOUT: Duration = Duration::from_secs(30);

/// How often a write starts over because another program keeps changing the file under it;
/// each round is one read and one write, so only a program rewriting the file in a tight loop
/// exhausts this.
pub(crate) const MAX_ATTEMPTS: usize = 16;

impl Vault {
    /// Find the vault as DESIGN section 3 says: `explicit` (`--vault`), else `env_vault`
    /// (`EASEL_VAULT`, ignored when empty), else the nearest ancestor of `cwd` (itself included)
    /// holding `.obsidian/` or `.easel/`, else `cwd`. Relative paths are taken relative to `cwd`.
    ///
    /// Reads no environment itself, so callers (and tests) pass what they have.
    pub fn discover(
        explicit: Option<&Path>,
        env_vault: Option<&OsStr>,
        cwd: &Path,
    ) -> Result<Vault, VaultError> {
        if let Some(dir) = explicit {
            tracing::debug!(vault = %dir.display(), "vault from --vault");
            return Vault::open(cwd.join(dir));
        }
        if let Some(dir) = env_vault.filter(|d| !d.is_empty()) {
            tracing::debug!(vault = ?dir, "vault from EASEL_VAULT");
            return Vault::open(cwd.join(dir));
        }
        for ancestor in cwd.ancestors() {
            if ancestor.join(".obsidian").is_dir() || ancestor.join(path::EASEL_DIR).is_dir() {
                tracing::debug!(vault = %ancestor.display(), "vault found by its .obsidian/ or .easel/ folder");
                return Vault::open(ancestor);
            }
        }
        tracing::debug!(vault = %cwd.display(), "no marked vault above the current folder; using it");
        Vault::open(cwd)
    }

    /// Open the vault at `root`, which must be an existing folder.
    pub fn open(root: impl AsRef<Path>) -> Result<Vault, VaultError> {
        let given = root.as_ref();
        let root = match fs::canonicalize(given) {
            Ok(r) => r,
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                return Err(VaultError::VaultNotFound {
                    dir: given.to_path_buf(),
                });
            }
            Err(e) => return Err(VaultError::io("open the vault", given, e)),
        };
        if !root.is_dir() {
            return Err(VaultError::VaultNotADirectory {
                dir: given.to_path_buf(),
            });
        }
        Ok(Vault {
            dirs: EaselDirs::new(&root),
            root,
            lock_timeout: DEFAULT_LOCK_TIMEOUT,
        })
    }

    /// The same vault with another lock timeout (see [`VaultError::Locked`]).
    pub fn with_lock_timeout(mut self, timeout: Duration) -> Vault {
        self.lock_timeout = timeout;
        self
    }

    /// The canonical vault root.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Check a vault-relative path for reading.
    ///
    /// `/` separates segments (`\` is treated as `/`); `.` and empty segments are dropped.
    /// Refused: empty paths, absolute paths, `..` segments, and paths that lead outside the
    /// vault through a symbolic link (checked on the deepest part of the path that exists, so
    /// a new file under a linked folder is caught too). A symbolic link whose target is missing
    /// is refused as well, because where it leads cannot be checked.
    ///
    /// Links that stay inside the vault are followed, and the result names the real file
    /// (`alias/x.md` becomes `real/x.md` when `alias` links to `real`): one file then has one
    /// name, one lock and one ledger history, and writing keeps the link instead of replacing
    /// it with a copy.
    ///
    /// The check happens now; a link swapped in afterwards by another program is not seen.
    pub fn resolve(&self, rel: &str) -> Result<VaultPath, VaultError> {
        self.resolve_checked(rel).map(|(p, _)| p)
    }

    /// Like [`Vault::resolve`], and also refuse paths in `.obsidian/`, `.git/`, `.trash/`
    /// (ignoring case) and Easel's internal `.easel/ledger.jsonl`, `.easel/blobs/`,
    /// `.easel/locks/` — including paths that only reach them through a symbolic link.
    ///
    /// Names with control characters (newline, tab, escape…) or invisible bidirectional-text
    /// controls are refused too: such a name could print as something else in a listing.
    pub fn resolve_for_write(&self, rel: &str) -> Result<VaultPath, VaultError> {
        if let Some(c) = rel.chars().find(|&c| path::is_unprintable(c)) {
            return Err(VaultError::InvalidPath {
                path: path::printable(rel).into_owned(),
                reason: format!("it contains the control character {}", c.escape_default()),
            });
        }
        let (path, given) = self.resolve_checked(rel)?;
        // Both names count: `.obsidian/x` is refused even if `.obsidian` links elsewhere.
        for candidate in [given.as_str(), path.as_str()] {
            if let Some(folder) = path::reserved_folder(candidate) {
                return Err(VaultError::Protected {
                    path: path.as_str().to_string(),
                    folder,
                });
            }
        }
        Ok(path)
    }

    /// The checked path (links followed), and the normalised path as given.
    fn resolve_checked(&self, input: &str) -> Result<(VaultPath, String), VaultError> {
        let rel = path::normalize(input)?;
        let segments: Vec<&str> = rel.split('/').collect();
        let abs = segments.iter().fold(self.root.clone(), |p, s| p.join(s));
        // Walk up from the full path to the deepest part that exists, and check where it
        // really is; the parts below it do not exist yet, so they cannot be links.
        for depth in (1..=segments.len()).rev() {
            let candidate = segments[..depth]
                .iter()
                .fold(self.root.clone(), |p, s| p.join(s));
            match fs::symlink_metadata(&candidate) {
                Ok(_) => {}
                Err(e)
                    if matches!(
                        e.kind(),
                        io::ErrorKind::NotFound | io::ErrorKind::NotADirectory
                    ) =>
                {
                    continue;
                }
                Err(e) => return Err(VaultError::io("inspect", candidate, e)),
            }
            let real = match fs::canonicalize(&candidate) {
                Ok(real) => real,
                Err(e) if e.kind() == io::ErrorKind::NotFound => {
                    let target = fs::read_link(&candidate).unwrap_or(candidate);
                    return Err(VaultError::EscapesVault { path: rel, target });
                }
                Err(e) => return Err(VaultError::io("follow the links of", candidate, e)),
            };
            let Ok(inside) = real.strip_prefix(&self.root) else {
                return Err(VaultError::EscapesVault {
                    path: rel,
                    target: real,
                });
            };
            let mut real_rel: Vec<String> = inside
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            real_rel.extend(segments[depth..].iter().map(|s| s.to_string()));
            if real_rel.is_empty() {
                return Err(VaultError::InvalidPath {
                    path: rel,
                    reason: "it is a link to the vault folder itself".into(),
                });
            }
            let real_abs = segments[depth..].iter().fold(real, |p, s| p.join(s));
            return Ok((VaultPath::new(real_rel.join("/"), real_abs), rel));
        }
        Ok((VaultPath::new(rel.clone(), abs), rel))
    }

    /// Read a file and its revision. [`VaultError::NotFound`] when it is missing.
    pub fn read(&self, p: &VaultPath) -> Result<(Vec<u8>, Rev), VaultError> {
        match self.read_optional(p)? {
            Some(found) => Ok(found),
            None => Err(VaultError::NotFound {
                path: p.as_str().to_string(),
            }),
        }
    }

    /// Whether a file or folder exists at this path.
    pub fn exists(&self, p: &VaultPath) -> bool {
        p.abs().exists()
    }

    pub(crate) fn read_optional(
        &self,
        p: &VaultPath,
    ) -> Result<Option<(Vec<u8>, Rev)>, VaultError> {
        Ok(self.read_optional_bytes(p)?.map(|bytes| {
            let rev = Rev::of(&bytes);
            (bytes, rev)
        }))
    }

    /// [`Vault::read`] without the revision, for a caller that computes it itself (on another
    /// thread, while it parses a large file).
    pub(crate) fn read_bytes(&self, p: &VaultPath) -> Result<Vec<u8>, VaultError> {
        self.read_optional_bytes(p)?
            .ok_or_else(|| VaultError::NotFound {
                path: p.as_str().to_string(),
            })
    }

    fn read_optional_bytes(&self, p: &VaultPath) -> Result<Option<Vec<u8>>, VaultError> {
        match fs::read(p.abs()) {
            Ok(bytes) => Ok(Some(bytes)),
            Err(e)
                if matches!(
                    e.kind(),
                    io::ErrorKind::NotFound | io::ErrorKind::NotADirectory
                ) =>
            {
                Ok(None)
            }
            Err(e) if e.kind() == io::ErrorKind::IsADirectory => Err(VaultError::NotAFile {
                path: p.as_str().to_string(),
            }),
            Err(e) => Err(VaultError::io("read", p.abs(), e)),
        }
    }

    /// Replace (or create) a file atomically, after checking `expect`, and record the change
    /// in the ledger with a copy of the old bytes.
    ///
    /// When a program that takes no lock (Obsidian saving its copy) changes the file during
    /// the write, the write starts over: `expect` is checked against that program's version,
    /// so with [`Expect::Rev`] the result is a [`VaultError::Conflict`] and the other edit
    /// stays.
    pub fn write(
        &self,
        p: &VaultPath,
        bytes: &[u8],
        expect: Expect,
        change: &Change,
    ) -> Result<Written, VaultError> {
        self.update(p, expect, change, |_| {
            Ok::<_, VaultError>((bytes.to_vec(), ()))
        })
        .map(|(written, ())| written)
    }

    /// Read-modify-write under the file's lock: lock, re-read (`None` when the file is absent),
    /// check `expect`, call `f`, write the bytes it returns atomically, record the change,
    /// unlock. Because the read happens under the lock, concurrent `modify` calls on one file,
    /// from any thread or process, each see the previous one's result.
    ///
    /// `f`'s error is passed through unchanged and nothing is written. When `f` returns the
    /// bytes it was given, the file is still rewritten and the call still recorded, so every
    /// successful call leaves exactly one ledger entry.
    ///
    /// `f` runs once, so when a program that takes no lock changes the file between the read
    /// and the rename, nothing is written and the result is
    /// [`VaultError::ChangedDuringWrite`]; [`Vault::update`] applies `f` again instead.
    pub fn modify<T, E: From<VaultError>>(
        &self,
        p: &VaultPath,
        expect: Expect,
        change: &Change,
        f: impl FnOnce(Option<&[u8]>) -> Result<(Vec<u8>, T), E>,
    ) -> Result<(Written, T), E> {
        let _guard = self.lock_path(p)?;
        let snap = self.snapshot(p)?;
        check_expect(p, expect, snap.rev())?;
        let (new_bytes, value) = f(snap.bytes())?;
        match self.commit_snapshot(p, snap, Some(&new_bytes), change, None)? {
            Some(written) => Ok((written, value)),
            None => Err(VaultError::ChangedDuringWrite {
                path: p.as_str().to_string(),
            }
            .into()),
        }
    }

    /// [`Vault::modify`] for an `f` that can run more than once: when a program that takes no
    /// lock (Obsidian saving its copy) changes the file between the read and the rename,
    /// nothing is written, the file is read again and `expect` and `f` are applied on top of
    /// that program's version, so neither edit is lost.
    pub fn update<T, E: From<VaultError>>(
        &self,
        p: &VaultPath,
        expect: Expect,
        change: &Change,
        mut f: impl FnMut(Option<&[u8]>) -> Result<(Vec<u8>, T), E>,
    ) -> Result<(Written, T), E> {
        let _guard = self.lock_path(p)?;
        for _ in 0..MAX_ATTEMPTS {
            let snap = self.snapshot(p)?;
            check_expect(p, expect, snap.rev())?;
            let (new_bytes, value) = f(snap.bytes())?;
            if let Some(written) = self.commit_snapshot(p, snap, Some(&new_bytes), change, None)? {
                return Ok((written, value));
            }
        }
        Err(VaultError::ChangedDuringWrite {
            path: p.as_str().to_string(),
        }
        .into())
    }

    /// Delete a file after checking `expect`, keeping its bytes for undo.
    /// [`VaultError::NotFound`] when it is already gone.
    pub fn delete(
        &self,
        p: &VaultPath,
        expect: Expect,
        change: &Change,
    ) -> Result<Written, VaultError> {
        let _guard = self.lock_path(p)?;
        for _ in 0..MAX_ATTEMPTS {
            let snap = self.snapshot(p)?;
            check_expect(p, expect, snap.rev())?;
            if snap.current.is_none() {
                return Err(VaultError::NotFound {
                    path: p.as_str().to_string(),
                });
            }
            if let Some(written) = self.commit_snapshot(p, snap, None, change, None)? {
                return Ok(written);
            }
        }
        Err(VaultError::ChangedDuringWrite {
            path: p.as_str().to_string(),
        })
    }

    /// Take the lock guarding one path.
    pub(crate) fn lock_path(&self, p: &VaultPath) -> Result<LockGuard, VaultError> {
        self.check_easel_dir()?;
        lock::acquire(
            &lock::lock_file_for(&self.dirs.locks, p.as_str()),
            p.as_str(),
            self.lock_timeout,
        )
    }

    pub(crate) fn lock_undo(&self) -> Result<LockGuard, VaultError> {
        self.check_easel_dir()?;
        lock::acquire(&self.dirs.undo_lock(), "undo", self.lock_timeout)
    }

    /// Every change writes blobs, locks and the ledger under `.easel/`; if any of that is a
    /// link leading elsewhere, those writes would land there, so refuse them.
    fn check_easel_dir(&self) -> Result<(), VaultError> {
        crate::links::check_internals(&self.root, &self.dirs)
    }

    pub(crate) fn lock_timeout(&self) -> Duration {
        self.lock_timeout
    }

    pub(crate) fn dirs(&self) -> &EaselDirs {
        &self.dirs
    }

    pub(crate) fn read_current_rev(&self, p: &VaultPath) -> Result<Option<Rev>, VaultError> {
        Ok(self.read_optional(p)?.map(|(_, rev)| rev))
    }
}

pub(crate) fn check_expect(
    p: &VaultPath,
    expect: Expect,
    current: Option<Rev>,
) -> Result<(), VaultError> {
    let path = || p.as_str().to_string();
    match (expect, current) {
        (Expect::Any, _) | (Expect::Absent, None) | (Expect::Present, Some(_)) => Ok(()),
        (Expect::Absent, Some(_)) => Err(VaultError::AlreadyExists { path: path() }),
        (Expect::Present, None) => Err(VaultError::NotFound { path: path() }),
        (Expect::Rev(expected), actual) if actual == Some(expected) => Ok(()),
        (Expect::Rev(expected), actual) => Err(VaultError::Conflict {
            path: path(),
            expected,
            actual,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn path() -> VaultPath {
        VaultPath::new("a.md".into(), PathBuf::from("/v/a.md"))
    }

    #[test]
    fn expectations_against_every_state() {
        let (one, two) = (Rev::of(b"1"), Rev::of(b"2"));
        let ok = |e, c| check_expect(&path(), e, c).is_ok();
        assert!(ok(Expect::Any, None) && ok(Expect::Any, Some(one)));
        assert!(ok(Expect::Absent, None) && !ok(Expect::Absent, Some(one)));
        assert!(ok(Expect::Present, Some(one)) && !ok(Expect::Present, None));
        assert!(ok(Expect::Rev(one), Some(one)));
        assert!(!ok(Expect::Rev(one), Some(two)) && !ok(Expect::Rev(one), None));
        let err = check_expect(&path(), Expect::Rev(one), Some(two)).unwrap_err();
        assert!(
            matches!(err, VaultError::Conflict { expected, actual: Some(a), .. } if expected == one && a == two)
        );
    }

    #[test]
    fn vaults_can_be_shared_between_threads() {
        fn shareable<T: Send + Sync + Clone>() {}
        shareable::<Vault>();
    }
}
