//! Errors shared by every vault operation, and the exit-code class front ends map them to.

use std::path::PathBuf;

use crate::rev::Rev;

pub use easel_core::ErrorKind;

/// Everything that can go wrong in `easel-vault`.
///
/// `Display` says what happened; [`VaultError::hint`] says what to do next; [`VaultError::kind`]
/// gives the exit-code class.
#[derive(thiserror::Error, Debug)]
#[non_exhaustive]
pub enum VaultError {
    /// The path was empty (or only `.` and `/`).
    #[error("the path is empty")]
    EmptyPath,
    /// An absolute path was given where a vault-relative one is required.
    #[error("'{path}' is an absolute path; vault paths are relative to the vault root")]
    AbsolutePath {
        /// The path as given.
        path: String,
    },
    /// A `..` segment was given.
    #[error("'{path}' contains a '..' segment; vault paths may not climb out of a folder")]
    ParentSegment {
        /// The path as given.
        path: String,
    },
    /// The path contains something no file name may contain.
    #[error("'{path}' is not a usable path: {reason}")]
    InvalidPath {
        /// The path as given.
        path: String,
        /// Why it is unusable.
        reason: String,
    },
    /// The path resolves, through a symbolic link, outside the vault (or to a link that cannot
    /// be checked because its target is missing).
    #[error("'{path}' leads outside the vault (through a symbolic link to '{}')", target.display())]
    EscapesVault {
        /// The vault-relative path.
        path: String,
        /// Where the link leads.
        target: PathBuf,
    },
    /// One of Easel's own files or folders under `.easel/` (the ledger, blobs, locks or
    /// temporary files) is a symbolic link, which Easel refuses to follow.
    #[error("'{}' is a symbolic link; Easel's own files under .easel/ must be real files and folders", path.display())]
    EaselLink {
        /// The link.
        path: PathBuf,
    },
    /// A file changed, by a program that takes no lock, while Easel was writing it, and the
    /// change could not be applied again on top.
    #[error(
        "'{path}' was changed by another program while Easel was writing it; nothing was written"
    )]
    ChangedDuringWrite {
        /// The vault-relative path.
        path: String,
    },
    /// A write into a folder Easel never changes (`.obsidian/`, `.git/`, `.trash/`, or the
    /// ledger, blobs and locks under `.easel/`).
    #[error("'{path}' is inside '{folder}', which Easel does not write to")]
    Protected {
        /// The vault-relative path.
        path: String,
        /// The protected folder or file.
        folder: String,
    },
    /// The vault folder does not exist.
    #[error("the vault folder '{}' does not exist", dir.display())]
    VaultNotFound {
        /// The folder that was looked for.
        dir: PathBuf,
    },
    /// The vault root is not a folder.
    #[error("the vault '{}' is not a folder", dir.display())]
    VaultNotADirectory {
        /// The path that was given as the vault.
        dir: PathBuf,
    },
    /// The file does not exist.
    #[error("'{path}' does not exist")]
    NotFound {
        /// The vault-relative path.
        path: String,
    },
    /// A folder was found where a file was expected.
    #[error("'{path}' is a folder, not a file")]
    NotAFile {
        /// The vault-relative path.
        path: String,
    },
    /// A file was found where a folder was expected.
    #[error("'{path}' is a file, not a folder")]
    NotAFolder {
        /// The vault-relative path.
        path: String,
    },
    /// The caller asked to create a file that is already there.
    #[error("'{path}' already exists")]
    AlreadyExists {
        /// The vault-relative path.
        path: String,
    },
    /// The file's revision is not the one the caller expected.
    #[error("'{path}' changed since it was read: expected rev {expected}, found {}", actual.map_or_else(|| "no file".to_string(), |r| format!("rev {r}")))]
    Conflict {
        /// The vault-relative path.
        path: String,
        /// The revision the caller expected.
        expected: Rev,
        /// The revision found, `None` when the file is gone.
        actual: Option<Rev>,
    },
    /// Another writer held the file's lock for longer than the lock timeout.
    #[error("'{path}' is locked by another writer (waited {waited_ms} ms)")]
    Locked {
        /// The vault-relative path, or `ledger` for the ledger itself.
        path: String,
        /// How long this call waited.
        waited_ms: u64,
    },
    /// A file system operation failed.
    #[error("cannot {action} '{}': {source}", path.display())]
    Io {
        /// What was being done, e.g. "read", "rename".
        action: &'static str,
        /// The file or folder involved.
        path: PathBuf,
        /// The operating system's error.
        #[source]
        source: std::io::Error,
    },
    /// No ledger entry has this id.
    #[error("the ledger has no entry with id '{id}'")]
    EntryNotFound {
        /// The id that was asked for.
        id: String,
    },
    /// No ledger entry belongs to this run.
    #[error("the ledger has no entry for run '{run}'")]
    RunNotFound {
        /// The run that was asked for.
        run: String,
    },
    /// Every change of the run has been undone already.
    #[error("every change of run '{run}' has already been undone")]
    RunAlreadyUndone {
        /// The run that was asked for.
        run: String,
    },
    /// There is no change left to undo.
    #[error("there is nothing to undo: every change in the ledger has been undone")]
    NothingToUndo,
    /// The bytes needed to undo a change are missing from `.easel/blobs/`.
    #[error(
        "cannot undo {id}: the saved copy of '{path}' at rev {rev} is missing from .easel/blobs"
    )]
    BlobMissing {
        /// The ledger entry.
        id: String,
        /// The vault-relative path.
        path: String,
        /// The revision whose bytes are missing.
        rev: Rev,
    },
    /// A ledger entry could not be encoded.
    #[error("cannot encode a ledger entry: {0}")]
    LedgerEncode(#[source] serde_json::Error),
    /// Undo was refused; nothing was changed.
    #[error("cannot undo {id} ('{path}'): {reason}")]
    UndoRefused {
        /// The ledger entry that was to be undone.
        id: String,
        /// The vault-relative path.
        path: String,
        /// Why it was refused.
        reason: String,
    },
}

impl VaultError {
    /// The exit-code class of this error.
    pub fn kind(&self) -> ErrorKind {
        match self {
            VaultError::EmptyPath
            | VaultError::AbsolutePath { .. }
            | VaultError::ParentSegment { .. }
            | VaultError::InvalidPath { .. }
            | VaultError::EscapesVault { .. }
            | VaultError::EaselLink { .. }
            | VaultError::Protected { .. }
            | VaultError::NotAFile { .. }
            | VaultError::NotAFolder { .. } => ErrorKind::Invalid,
            VaultError::VaultNotADirectory { .. } => ErrorKind::Usage,
            VaultError::VaultNotFound { .. }
            | VaultError::NotFound { .. }
            | VaultError::EntryNotFound { .. }
            | VaultError::RunNotFound { .. }
            | VaultError::NothingToUndo => ErrorKind::NotFound,
            VaultError::AlreadyExists { .. }
            | VaultError::Conflict { .. }
            | VaultError::Locked { .. }
            | VaultError::ChangedDuringWrite { .. }
            | VaultError::UndoRefused { .. }
            | VaultError::RunAlreadyUndone { .. } => ErrorKind::Conflict,
            VaultError::Io { .. }
            | VaultError::BlobMissing { .. }
            | VaultError::LedgerEncode(_) => ErrorKind::Failure,
        }
    }

    /// What the user can do next, as one sentence without the `hint: ` prefix.
    pub fn hint(&self) -> String {
        match self {
            VaultError::EmptyPath => "give a path relative to the vault root, e.g. 'notes/idea.md'".into(),
            VaultError::AbsolutePath { .. } => {
                "drop the leading '/' or drive letter and give the path relative to the vault root".into()
            }
            VaultError::ParentSegment { .. } => {
                "write the path from the vault root without '..', e.g. 'notes/idea.md'".into()
            }
            VaultError::InvalidPath { .. } => {
                "choose a name without that character (rename the file if it already has one)".into()
            }
            VaultError::EscapesVault { .. } => {
                "use a path whose folders are real folders inside the vault, or open the other folder as its own vault with --vault".into()
            }
            VaultError::EaselLink { path } => format!(
                "remove the link ('rm {}'): a vault copied or synced from elsewhere can carry one, and Easel recreates the real file",
                path.display()
            ),
            VaultError::ChangedDuringWrite { .. } => {
                "run the command again: it starts from the other program's version".into()
            }
            VaultError::Protected { .. } => {
                "choose a path outside .obsidian/, .git/, .trash/ and Easel's own files in .easel/".into()
            }
            VaultError::VaultNotFound { .. } => {
                "check the --vault argument or the EASEL_VAULT variable".into()
            }
            VaultError::VaultNotADirectory { .. } => {
                "pass the vault's folder, not a file inside it, to --vault or EASEL_VAULT".into()
            }
            VaultError::NotFound { .. } => "check the spelling, or list the vault's files to find it".into(),
            VaultError::NotAFile { .. } => "give the path of a file inside that folder".into(),
            VaultError::NotAFolder { .. } => "give the folder that contains this file".into(),
            VaultError::AlreadyExists { .. } => {
                "choose another name, or edit the existing file instead of creating it".into()
            }
            VaultError::Conflict { .. } => {
                "read the file again to get its current rev, then retry the change on top of it".into()
            }
            VaultError::Locked { .. } => {
                "another Easel process is changing this file; wait for it to finish and try again".into()
            }
            VaultError::Io { .. } => {
                "check that the file and its folder exist and that you may read and write them".into()
            }
            VaultError::EntryNotFound { .. } | VaultError::RunNotFound { .. } => {
                "run 'easel ledger' to see the recorded changes and their ids".into()
            }
            VaultError::RunAlreadyUndone { .. } => {
                "nothing left to do; run 'easel ledger' to see the undo entries".into()
            }
            VaultError::NothingToUndo => "run 'easel ledger' to see the recorded changes".into(),
            VaultError::BlobMissing { .. } => {
                "restore the file by hand from a backup or version control; the ledger entry is kept".into()
            }
            VaultError::LedgerEncode(_) => "report this as a bug in Easel".into(),
            VaultError::UndoRefused { .. } => {
                "undo the later changes first (run 'easel ledger' to see them), or restore the file by hand".into()
            }
        }
    }

    /// Shorthand for [`VaultError::Io`].
    pub(crate) fn io(
        action: &'static str,
        path: impl Into<PathBuf>,
        source: std::io::Error,
    ) -> Self {
        VaultError::Io {
            action,
            path: path.into(),
            source,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exit_codes_match_design_section_5() {
        assert_eq!(ErrorKind::Failure.exit_code(), 1);
        assert_eq!(ErrorKind::Usage.exit_code(), 2);
        assert_eq!(ErrorKind::NotFound.exit_code(), 3);
        assert_eq!(ErrorKind::Conflict.exit_code(), 4);
        assert_eq!(ErrorKind::Invalid.exit_code(), 5);
    }

    #[test]
    fn conflict_message_names_both_revisions() {
        let e = VaultError::Conflict {
            path: "a.md".into(),
            expected: Rev::of(b"a"),
            actual: None,
        };
        assert_eq!(e.kind(), ErrorKind::Conflict);
        let msg = e.to_string();
        assert!(msg.contains("a.md") && msg.contains("no file"), "{msg}");
        assert!(!e.hint().is_empty());
    }
}
