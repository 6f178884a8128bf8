//! Crash-safe replacement of a file's contents.
//!
//! The new bytes go to a temporary file on the same file system as the target (so the rename
//! is atomic), are flushed to disk, and the temporary file is renamed over the target; then
//! the target's folder is flushed so the rename survives a power cut. A crash at any point
//! leaves either the old file or the new one.
//!
//! Vault writes stage their temporary files in `.easel/tmp/` ([`stage`]), so a writer killed
//! mid-write leaves nothing beside the vault's files; every temporary file's name carries its
//! writer's process id, and the next vault write removes those whose writer is gone
//! ([`clean_stale`]). [`write_atomic`], for files outside a vault, puts its temporary file
//! beside the target as `.<name>.easel-tmp-<pid>-<hex>`, a name [`crate::Vault::list_files`]
//! skips.

use std::fs::{self, File};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use crate::error::VaultError;

/// The marker in every temporary file name.
pub(crate) const TMP_MARKER: &str = ".easel-tmp-";

/// Whether a file name is one of our temporary files.
pub(crate) fn is_temp_name(name: &str) -> bool {
    name.starts_with('.') && name.contains(TMP_MARKER)
}

/// `.<name>.easel-tmp-<pid>-<hex>`, with the name shortened so the whole stays under the
/// 255-byte limit of file names.
fn temp_name(target: &Path) -> String {
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy())
        .unwrap_or_default();
    let mut short = name.as_ref();
    while short.len() > 200 {
        let mut cut = 200;
        while !short.is_char_boundary(cut) {
            cut -= 1;
        }
        short = &short[..cut];
    }
    format!(
        ".{short}{TMP_MARKER}{}-{:08x}",
        std::process::id(),
        fastrand::u32(..)
    )
}

/// The process id a temporary file name carries, if it has one (names from before ids were
/// added have only the random part).
fn writer_of(name: &str) -> Option<u32> {
    let (_, tail) = name.rsplit_once(TMP_MARKER)?;
    let (pid, _) = tail.split_once('-')?;
    pid.parse().ok()
}

/// Replace `target` with `bytes` atomically, creating missing parent folders. For files
/// outside a vault (e.g. generated pictures in a repository); vault files go through
/// [`crate::Vault`], which also records them in the ledger.
pub fn write_atomic(target: &Path, bytes: &[u8]) -> Result<(), VaultError> {
    let dir = parent_of(target)?;
    fs::create_dir_all(dir).map_err(|e| VaultError::io("create the folder", dir, e))?;
    let tmp = dir.join(temp_name(target));
    let result = write_temp(&tmp, target, bytes)
        .and_then(|()| fs::rename(&tmp, target).map_err(|e| VaultError::io("replace", target, e)));
    if result.is_err() {
        // Best effort: the temporary file is recognisable anyway if this fails too.
        let _ = fs::remove_file(&tmp);
    }
    result?;
    sync_dir(dir)
}

fn parent_of(target: &Path) -> Result<&Path, VaultError> {
    target.parent().ok_or_else(|| {
        VaultError::io(
            "find the folder of",
            target,
            io::ErrorKind::InvalidInput.into(),
        )
    })
}

/// Create `tmp` (never following or reusing an existing name), fill it with `bytes` and flush
/// it to disk, with the permissions `like` has.
fn write_temp(tmp: &Path, like: &Path, bytes: &[u8]) -> Result<(), VaultError> {
    let mut file = File::options()
        .write(true)
        .create_new(true)
        .open(tmp)
        .map_err(|e| VaultError::io("create the temporary file", tmp, e))?;
    // Keep the permissions of the file being replaced (e.g. an executable script tool).
    if let Ok(meta) = fs::metadata(like)
        && let Err(e) = file.set_permissions(meta.permissions())
    {
        tracing::debug!(file = %like.display(), error = %e, "could not copy permissions to the new version");
    }
    file.write_all(bytes)
        .map_err(|e| VaultError::io("write", tmp, e))?;
    file.sync_all()
        .map_err(|e| VaultError::io("flush to disk", tmp, e))
}

/// New bytes for a file, written and flushed to a temporary file, waiting to be put in place.
/// Dropping it without [`Staged::install`] removes the temporary file.
#[derive(Debug)]
pub(crate) struct Staged<'a> {
    tmp: Option<PathBuf>,
    bytes: &'a [u8],
}

/// Write `bytes` for `target` to a temporary file in `tmp_dir`.
pub(crate) fn stage<'a>(
    tmp_dir: &Path,
    target: &Path,
    bytes: &'a [u8],
) -> Result<Staged<'a>, VaultError> {
    fs::create_dir_all(tmp_dir).map_err(|e| VaultError::io("create the folder", tmp_dir, e))?;
    let tmp = tmp_dir.join(temp_name(target));
    let mut staged = Staged {
        tmp: Some(tmp.clone()),
        bytes,
    };
    if let Err(e) = write_temp(&tmp, target, bytes) {
        staged.tmp = None;
        let _ = fs::remove_file(&tmp);
        return Err(e);
    }
    Ok(staged)
}

impl Staged<'_> {
    /// Rename the temporary file over `target`, whose folder must exist. Does not flush the
    /// target's folder: the caller does, after recording the change.
    pub(crate) fn install(mut self, target: &Path) -> Result<(), VaultError> {
        let dir = parent_of(target)?;
        let Some(tmp) = self.tmp.take() else {
            return Err(VaultError::io(
                "replace",
                target,
                io::ErrorKind::NotFound.into(),
            ));
        };
        match fs::rename(&tmp, target) {
            Ok(()) => Ok(()),
            // The target is on another file system than `.easel/` (a mount inside the vault):
            // stage the bytes beside it instead.
            Err(e) if e.kind() == io::ErrorKind::CrossesDevices => {
                let _ = fs::remove_file(&tmp);
                let beside = dir.join(temp_name(target));
                let result = write_temp(&beside, target, self.bytes).and_then(|()| {
                    fs::rename(&beside, target).map_err(|e| VaultError::io("replace", target, e))
                });
                if result.is_err() {
                    let _ = fs::remove_file(&beside);
                }
                result
            }
            Err(e) => {
                let _ = fs::remove_file(&tmp);
                Err(VaultError::io("replace", target, e))
            }
        }
    }
}

impl Drop for Staged<'_> {
    fn drop(&mut self) {
        if let Some(tmp) = self.tmp.take()
            && let Err(e) = fs::remove_file(&tmp)
        {
            tracing::debug!(file = %tmp.display(), error = %e, "could not remove an unused temporary file");
        }
    }
}

/// Remove the temporary files in `dir` whose writer process no longer runs (killed in the
/// middle of a write). Best effort: a file that cannot be removed is left for the next time.
pub(crate) fn clean_stale(dir: &Path) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if !is_temp_name(&name) {
            continue;
        }
        // A name without a process id comes from an older Easel that is long gone.
        if writer_of(&name).is_some_and(process_runs) {
            continue;
        }
        match fs::remove_file(entry.path()) {
            Ok(()) => {
                tracing::info!(file = %entry.path().display(), "removed a temporary file left by a writer that was stopped")
            }
            Err(e) => {
                tracing::debug!(file = %entry.path().display(), error = %e, "could not remove a stale temporary file")
            }
        }
    }
}

/// Whether a process with this id runs on this machine.
fn process_runs(pid: u32) -> bool {
    if pid == std::process::id() {
        return true;
    }
    #[cfg(unix)]
    {
        let Some(pid) = i32::try_from(pid)
            .ok()
            .and_then(rustix::process::Pid::from_raw)
        else {
            return false;
        };
        // EPERM means it runs under another user; only "no such process" means gone.
        !matches!(
            rustix::process::test_kill_process(pid),
            Err(rustix::io::Errno::SRCH)
        )
    }
    #[cfg(not(unix))]
    {
        // Without a cheap liveness check, keep every file rather than remove a live one.
        true
    }
}

/// Flush a folder's entries (renames, creations, removals) to disk.
pub(crate) fn sync_dir(dir: &Path) -> Result<(), VaultError> {
    #[cfg(unix)]
    {
        File::open(dir)
            .and_then(|d| d.sync_all())
            .map_err(|e| VaultError::io("flush the folder", dir, e))?;
    }
    #[cfg(not(unix))]
    {
        // Folders cannot be opened as files on Windows; NTFS journals the rename itself.
        let _ = dir;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaces_content_and_leaves_no_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("sub/folder/a.md");
        write_atomic(&target, b"one").unwrap();
        write_atomic(&target, b"two").unwrap();
        assert_eq!(fs::read(&target).unwrap(), b"two");
        let names: Vec<_> = fs::read_dir(target.parent().unwrap())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, vec![std::ffi::OsString::from("a.md")]);
    }

    #[cfg(unix)]
    #[test]
    fn keeps_permissions() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("tool.sh");
        fs::write(&target, b"old").unwrap();
        fs::set_permissions(&target, fs::Permissions::from_mode(0o755)).unwrap();
        write_atomic(&target, b"new").unwrap();
        assert_eq!(
            fs::metadata(&target).unwrap().permissions().mode() & 0o777,
            0o755
        );
    }

    #[test]
    fn very_long_names_still_get_a_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join(format!("{}.md", "é".repeat(120)));
        write_atomic(&target, b"x").unwrap();
        assert_eq!(fs::read(&target).unwrap(), b"x");
    }

    #[test]
    fn recognises_temporary_names() {
        assert!(is_temp_name(".a.md.easel-tmp-0123abcd"));
        assert!(!is_temp_name("a.md"));
        assert!(!is_temp_name("notes.easel-tmp-x"));
        assert_eq!(writer_of(".a.md.easel-tmp-4242-0123abcd"), Some(4242));
        assert_eq!(writer_of(".a.md.easel-tmp-0123abcd"), None);
    }

    #[test]
    fn a_staged_file_that_is_never_installed_leaves_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let tmp_dir = dir.path().join("tmp");
        let target = dir.path().join("a.md");
        drop(stage(&tmp_dir, &target, b"new").unwrap());
        assert_eq!(fs::read_dir(&tmp_dir).unwrap().count(), 0);
        stage(&tmp_dir, &target, b"new")
            .unwrap()
            .install(&target)
            .unwrap();
        assert_eq!(fs::read(&target).unwrap(), b"new");
        assert_eq!(fs::read_dir(&tmp_dir).unwrap().count(), 0);
    }

    #[cfg(unix)]
    #[test]
    fn stale_temporary_files_of_stopped_writers_are_removed() {
        let dir = tempfile::tempdir().unwrap();
        // A process that has exited: its id names no running process (until reused, which
        // takes the kernel a full lap of the id space).
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let gone = child.id();
        child.wait().unwrap();
        let stale = format!(".a.md{TMP_MARKER}{gone}-0123abcd");
        let old_style = format!(".b.md{TMP_MARKER}0123abcd");
        let live = format!(".c.md{TMP_MARKER}{}-0123abcd", std::process::id());
        for name in [&stale, &old_style, &live, &"notes.md".to_string()] {
            fs::write(dir.path().join(name), b"x").unwrap();
        }
        clean_stale(dir.path());
        let mut left: Vec<String> = fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        left.sort();
        assert_eq!(left, [live, "notes.md".to_string()]);
    }
}
