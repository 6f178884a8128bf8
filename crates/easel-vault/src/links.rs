//! Easel's own files under `.easel/` are never reached through symbolic links.
//!
//! A vault cloned or synced from someone else can carry links; one at `.easel/ledger.jsonl`,
//! `.easel/blobs`, `.easel/locks` or `.easel/tmp` would make every write append to, copy into or
//! create files at wherever it points. Vault paths are checked by [`crate::Vault::resolve`];
//! these internal paths are checked here: the folders before each change ([`check_internals`]),
//! and every file in them is opened without following a link ([`open_no_follow`]), so a link
//! planted after the check is refused too.

use std::fs::{self, File, OpenOptions};
use std::io;
use std::path::{Path, PathBuf};

use crate::error::VaultError;
use crate::ledger::EaselDirs;

/// Open `path` with `options`, failing (with `ELOOP` on Unix) when its last component is a
/// symbolic link.
pub(crate) fn open_no_follow(options: &mut OpenOptions, path: &Path) -> io::Result<File> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        // The flag's bits fit an i32 on every Unix rustix supports.
        #[allow(clippy::cast_possible_wrap)]
        options.custom_flags(rustix::fs::OFlags::NOFOLLOW.bits() as i32);
    }
    options.open(path)
}

/// The error for a failed [`open_no_follow`]: a link gets its own error and hint.
pub(crate) fn open_error(action: &'static str, path: &Path, e: io::Error) -> VaultError {
    #[cfg(unix)]
    if e.raw_os_error() == Some(rustix::io::Errno::LOOP.raw_os_error()) {
        return VaultError::EaselLink {
            path: path.to_path_buf(),
        };
    }
    VaultError::io(action, path, e)
}

/// Refuse to work with a vault whose `.easel/` leads outside it, or whose ledger, blobs, locks
/// or temporary folder is a link at all (Easel never makes them links).
pub(crate) fn check_internals(root: &Path, dirs: &EaselDirs) -> Result<(), VaultError> {
    let easel = root.join(crate::path::EASEL_DIR);
    let escapes = |target: PathBuf| VaultError::EscapesVault {
        path: crate::path::EASEL_DIR.to_string(),
        target,
    };
    match fs::canonicalize(&easel) {
        Ok(real) if real.starts_with(root) => {}
        Ok(real) => return Err(escapes(real)),
        Err(e) if e.kind() == io::ErrorKind::NotFound => match fs::read_link(&easel) {
            // A dangling link: creating the folder would follow it.
            Ok(target) => return Err(escapes(target)),
            // Nothing there yet: the first change creates real folders.
            Err(_) => return Ok(()),
        },
        Err(e) => return Err(VaultError::io("inspect", easel, e)),
    }
    for internal in [&dirs.ledger, &dirs.blobs, &dirs.locks, &dirs.tmp] {
        match fs::symlink_metadata(internal) {
            Ok(meta) if meta.file_type().is_symlink() => {
                return Err(VaultError::EaselLink {
                    path: internal.clone(),
                });
            }
            Ok(_) => {}
            Err(e) if e.kind() == io::ErrorKind::NotFound => {}
            Err(e) => return Err(VaultError::io("inspect", internal, e)),
        }
    }
    Ok(())
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn a_linked_file_is_not_opened() {
        let dir = tempfile::tempdir().unwrap();
        let outside = dir.path().join("outside.txt");
        fs::write(&outside, b"secret").unwrap();
        let link = dir.path().join("ledger.jsonl");
        std::os::unix::fs::symlink(&outside, &link).unwrap();
        let e = open_no_follow(File::options().append(true), &link).unwrap_err();
        assert!(matches!(
            open_error("open", &link, e),
            VaultError::EaselLink { .. }
        ));
        assert_eq!(fs::read(&outside).unwrap(), b"secret");
    }
}
