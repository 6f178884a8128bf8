//! Crash-safe replacement of a file's contents.
//!
//! The new bytes go to a temporary file in the target's folder (same file system, so the
//! rename is atomic), are flushed to disk, and the temporary file is renamed over the target;
//! then the folder itself is flushed so the rename survives a power cut. A crash at any point
//! leaves either the old file or the new one. Leftover temporary files are named
//! `.<name>.easel-tmp-<hex>` so that people and [`crate::Vault::list_files`] recognise them.

use std::fs::{self, File};
use std::io::Write;
use std::path::Path;

use crate::error::VaultError;

/// The marker in every temporary file name.
pub(crate) const TMP_MARKER: &str = ".easel-tmp-";

/// Whether a file name is one of our temporary files.
pub(crate) fn is_temp_name(name: &str) -> bool {
    name.starts_with('.') && name.contains(TMP_MARKER)
}

/// Replace `target` with `bytes` atomically, creating missing parent folders. For files
/// outside a vault (e.g. generated pictures in a repository); vault files go through
/// [`crate::Vault`], which also records them in the ledger.
pub fn write_atomic(target: &Path, bytes: &[u8]) -> Result<(), VaultError> {
    let dir = target.parent().ok_or_else(|| {
        VaultError::io(
            "find the folder of",
            target,
            std::io::ErrorKind::InvalidInput.into(),
        )
    })?;
    fs::create_dir_all(dir).map_err(|e| VaultError::io("create the folder", dir, e))?;
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy())
        .unwrap_or_default();
    // File names are limited to 255 bytes; keep room for the marker and the random suffix.
    let mut short = name.as_ref();
    while short.len() > 200 {
        let mut cut = 200;
        while !short.is_char_boundary(cut) {
            cut -= 1;
        }
        short = &short[..cut];
    }
    let tmp = dir.join(format!(".{short}{TMP_MARKER}{:08x}", fastrand::u32(..)));

    let result = write_and_rename(&tmp, target, bytes);
    if result.is_err() {
        // Best effort: the temporary file is recognisable anyway if this fails too.
        let _ = fs::remove_file(&tmp);
    }
    result?;
    sync_dir(dir)
}

fn write_and_rename(tmp: &Path, target: &Path, bytes: &[u8]) -> Result<(), VaultError> {
    let mut file = File::options()
        .write(true)
        .create_new(true)
        .open(tmp)
        .map_err(|e| VaultError::io("create the temporary file", tmp, e))?;
    // Keep the permissions of the file being replaced (e.g. an executable script tool).
    if let Ok(meta) = fs::metadata(target)
        && let Err(e) = file.set_permissions(meta.permissions())
    {
        tracing::debug!(file = %target.display(), error = %e, "could not copy permissions to the new version");
    }
    file.write_all(bytes)
        .map_err(|e| VaultError::io("write", tmp, e))?;
    file.sync_all()
        .map_err(|e| VaultError::io("flush to disk", tmp, e))?;
    drop(file);
    fs::rename(tmp, target).map_err(|e| VaultError::io("replace", target, e))
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
    }
}
