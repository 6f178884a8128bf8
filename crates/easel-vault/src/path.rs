//! Vault-relative paths: lexical normalisation and the folders Easel never writes to.
//!
//! The checks that need the file system (symbolic links) live in `vault.rs`; everything here is
//! pure so it can be property-tested.

use std::borrow::Cow;
use std::fmt;
use std::path::{Path, PathBuf};

use crate::error::VaultError;

/// A path inside a vault that has passed [`crate::Vault::resolve`] (or
/// [`crate::Vault::resolve_for_write`]).
///
/// `Display` prints the vault-relative form with `/` separators.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct VaultPath {
    rel: String,
    abs: PathBuf,
}

impl VaultPath {
    pub(crate) fn new(rel: String, abs: PathBuf) -> Self {
        VaultPath { rel, abs }
    }

    /// The vault-relative path, `/`-separated, without `.` or empty segments.
    pub fn as_str(&self) -> &str {
        &self.rel
    }

    /// The absolute path on disk (under the canonical vault root).
    pub fn abs(&self) -> &Path {
        &self.abs
    }

    /// The last segment, e.g. `idea.md` for `notes/idea.md`.
    pub fn file_name(&self) -> &str {
        self.rel.rsplit('/').next().unwrap_or(&self.rel)
    }

    /// The extension without the dot, if the file name has one (`.hidden` has none).
    pub fn extension(&self) -> Option<&str> {
        let name = self.file_name();
        match name.rfind('.') {
            Some(0) | None => None,
            Some(i) => Some(&name[i + 1..]),
        }
    }
}

impl fmt::Display for VaultPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.rel)
    }
}

impl AsRef<Path> for VaultPath {
    fn as_ref(&self) -> &Path {
        &self.abs
    }
}

/// Folders at the top of a vault that belong to other programs. Matched ignoring ASCII case,
/// because on case-insensitive file systems (macOS, Windows) `.Git/config` *is* `.git/config`.
pub(crate) const FOREIGN_FOLDERS: [&str; 3] = [".obsidian", ".git", ".trash"];

/// Easel's own folder; only some of it is reserved (see [`reserved_folder`]).
pub(crate) const EASEL_DIR: &str = ".easel";

/// The parts of `.easel/` that only this crate may write: changing them by hand would corrupt
/// the change history or the locks.
const EASEL_INTERNALS: [&str; 3] = ["ledger.jsonl", "blobs", "locks"];

/// Normalise a user-supplied vault-relative path.
///
/// `\` is treated as `/` (paths pasted from Windows), `.` and empty segments are dropped.
/// Refused: empty results, absolute paths (leading `/`, `\\`, or a drive letter such as `C:`),
/// `..` segments and NUL characters.
pub fn normalize(input: &str) -> Result<String, VaultError> {
    if input.contains('\0') {
        return Err(VaultError::InvalidPath {
            path: input.escape_debug().to_string(),
            reason: "it contains a NUL character".into(),
        });
    }
    let unified = input.replace('\\', "/");
    if unified.starts_with('/') || has_drive_prefix(&unified) {
        return Err(VaultError::AbsolutePath {
            path: input.to_string(),
        });
    }
    let mut segments = Vec::new();
    for segment in unified.split('/') {
        match segment {
            "" | "." => {}
            ".." => {
                return Err(VaultError::ParentSegment {
                    path: input.to_string(),
                });
            }
            s => segments.push(s),
        }
    }
    if segments.is_empty() {
        return Err(VaultError::EmptyPath);
    }
    Ok(segments.join("/"))
}

/// Characters no path Easel creates may contain: control characters (newline, tab, escape…),
/// which let a name print as several lines or move the cursor, and the invisible
/// bidirectional-text controls, which let a name print as another.
pub(crate) fn is_unprintable(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// `s` with every character a path may not contain (see [`Vault::resolve_for_write`]) written
/// as an escape (`\n`, `\u{1b}`): names found on disk are shown this way, so a crafted one
/// cannot print a line of its own.
///
/// [`Vault::resolve_for_write`]: crate::Vault::resolve_for_write
///
/// ```
/// assert_eq!(easel_vault::printable("a\nb\u{202e}.md"), "a\\nb\\u{202e}.md");
/// assert_eq!(easel_vault::printable("plain.md"), "plain.md");
/// ```
pub fn printable(s: &str) -> Cow<'_, str> {
    if !s.chars().any(is_unprintable) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if is_unprintable(c) {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

fn has_drive_prefix(path: &str) -> bool {
    let b = path.as_bytes();
    b.len() >= 2 && b[0].is_ascii_alphabetic() && b[1] == b':'
}

/// The protected folder a normalised path lies in, if any: one of [`FOREIGN_FOLDERS`] or an
/// internal part of `.easel/`.
pub(crate) fn reserved_folder(rel: &str) -> Option<String> {
    let mut segments = rel.split('/');
    let first = segments.next()?;
    if let Some(folder) = FOREIGN_FOLDERS
        .iter()
        .find(|f| f.eq_ignore_ascii_case(first))
    {
        return Some(format!("{folder}/"));
    }
    if first.eq_ignore_ascii_case(EASEL_DIR) {
        let second = segments.next()?;
        if let Some(internal) = EASEL_INTERNALS
            .iter()
            .find(|i| i.eq_ignore_ascii_case(second))
        {
            return Some(format!("{EASEL_DIR}/{internal}"));
        }
    }
    None
}

/// Whether a folder with this name is skipped when listing files: other programs' folders and
/// Easel's own.
pub(crate) fn is_skipped_folder(name: &str) -> bool {
    FOREIGN_FOLDERS
        .iter()
        .chain(std::iter::once(&EASEL_DIR))
        .any(|f| f.eq_ignore_ascii_case(name))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn normalises_separators_and_dots() {
        assert_eq!(normalize("notes/idea.md").unwrap(), "notes/idea.md");
        assert_eq!(normalize("./notes//idea.md/").unwrap(), "notes/idea.md");
        assert_eq!(
            normalize("notes\\sub\\idea.md").unwrap(),
            "notes/sub/idea.md"
        );
        assert_eq!(normalize("a/./b").unwrap(), "a/b");
    }

    #[test]
    fn refuses_escapes_and_absolute_paths() {
        assert!(matches!(
            normalize(".."),
            Err(VaultError::ParentSegment { .. })
        ));
        assert!(matches!(
            normalize("a/../../x"),
            Err(VaultError::ParentSegment { .. })
        ));
        assert!(matches!(
            normalize("a\\..\\x"),
            Err(VaultError::ParentSegment { .. })
        ));
        assert!(matches!(
            normalize("/etc/passwd"),
            Err(VaultError::AbsolutePath { .. })
        ));
        assert!(matches!(
            normalize("\\\\server\\share"),
            Err(VaultError::AbsolutePath { .. })
        ));
        assert!(matches!(
            normalize("C:/Windows"),
            Err(VaultError::AbsolutePath { .. })
        ));
        assert!(matches!(normalize(""), Err(VaultError::EmptyPath)));
        assert!(matches!(normalize("./."), Err(VaultError::EmptyPath)));
        assert!(matches!(
            normalize("a\0b"),
            Err(VaultError::InvalidPath { .. })
        ));
    }

    #[test]
    fn unprintable_characters_are_escaped_for_display() {
        assert_eq!(printable("a\tb\r\n\u{1b}[2J"), "a\\tb\\r\\n\\u{1b}[2J");
        assert_eq!(printable("é ü.md"), "é ü.md");
        assert!(printable("x\u{2066}y").contains("\\u{2066}"));
    }

    #[test]
    fn names_that_merely_contain_dots_are_fine() {
        assert_eq!(normalize("..hidden/a...md").unwrap(), "..hidden/a...md");
    }

    #[test]
    fn reserved_folders() {
        assert_eq!(
            reserved_folder(".obsidian/app.json").as_deref(),
            Some(".obsidian/")
        );
        assert_eq!(reserved_folder(".git").as_deref(), Some(".git/"));
        assert_eq!(reserved_folder(".Trash/x.md").as_deref(), Some(".trash/"));
        assert_eq!(
            reserved_folder(".easel/ledger.jsonl").as_deref(),
            Some(".easel/ledger.jsonl")
        );
        assert_eq!(
            reserved_folder(".easel/blobs/ab").as_deref(),
            Some(".easel/blobs")
        );
        assert_eq!(reserved_folder(".easel/agents/writer.md"), None);
        assert_eq!(reserved_folder("notes/.obsidian/x"), None);
        assert_eq!(reserved_folder(".gitignore"), None);
    }

    #[test]
    fn extension_and_file_name() {
        let p = VaultPath::new("a/b.canvas".into(), PathBuf::from("/v/a/b.canvas"));
        assert_eq!(p.file_name(), "b.canvas");
        assert_eq!(p.extension(), Some("canvas"));
        assert_eq!(
            VaultPath::new(".env".into(), PathBuf::new()).extension(),
            None
        );
    }

    proptest! {
        #[test]
        fn normalised_paths_are_clean_and_stable(input in "[a-z./\\\\]{0,24}") {
            match normalize(&input) {
                Ok(rel) => {
                    prop_assert!(!rel.starts_with('/'));
                    prop_assert!(!rel.contains('\\'));
                    prop_assert!(rel.split('/').all(|s| !s.is_empty() && s != "." && s != ".."));
                    prop_assert_eq!(normalize(&rel).unwrap(), rel);
                }
                Err(_) => {
                    let unified = input.replace('\\', "/");
                    prop_assert!(
                        unified.starts_with('/')
                            || unified.split('/').any(|s| s == "..")
                            || unified.split('/').all(|s| s.is_empty() || s == ".")
                    );
                }
            }
        }

        #[test]
        fn arbitrary_input_never_panics(input in "\\PC{0,40}") {
            if let Ok(rel) = normalize(&input) {
                prop_assert_eq!(normalize(&rel).unwrap(), rel);
            }
        }

        #[test]
        fn any_parent_segment_is_refused(prefix in "[a-z]{0,5}(/[a-z]{1,5}){0,3}", suffix in "(/[a-z]{1,5}){0,3}") {
            let input = format!("{prefix}/..{suffix}");
            prop_assert!(normalize(&input).is_err());
        }
    }
}
