//! Listing the files of a vault.

use std::fs;
use std::time::UNIX_EPOCH;

use serde::{Deserialize, Serialize};
use walkdir::WalkDir;

use crate::atomic::is_temp_name;
use crate::error::VaultError;
use crate::path::{VaultPath, is_skipped_folder};
use crate::vault::Vault;

/// A file found by [`Vault::list_files`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileInfo {
    /// The vault-relative path.
    pub path: String,
    /// Last modification, in milliseconds since the Unix epoch (0 when the file system does
    /// not say).
    pub modified: i64,
    /// Size in bytes.
    pub size: u64,
}

impl Vault {
    /// Files under `folder` (the whole vault when `None`), sorted by path.
    ///
    /// `ext` filters by extension, without the dot and ignoring case (`""` lists every file).
    /// Skipped: `.obsidian/`, `.git/`, `.trash/` and `.easel/` at any depth, Easel's leftover
    /// temporary files, symbolic links to anything outside the vault, and links to folders
    /// (which could form cycles). Entries that cannot be read are skipped with a warning.
    pub fn list_files(
        &self,
        folder: Option<&VaultPath>,
        recursive: bool,
        ext: &str,
    ) -> Result<Vec<FileInfo>, VaultError> {
        let start = match folder {
            Some(p) => {
                let meta = fs::metadata(p.abs()).map_err(|e| match e.kind() {
                    std::io::ErrorKind::NotFound => VaultError::NotFound {
                        path: p.as_str().to_string(),
                    },
                    _ => VaultError::io("inspect", p.abs(), e),
                })?;
                if !meta.is_dir() {
                    return Err(VaultError::NotAFolder {
                        path: p.as_str().to_string(),
                    });
                }
                p.abs().to_path_buf()
            }
            None => self.root().to_path_buf(),
        };
        let ext = ext.trim_start_matches('.');
        let walker = WalkDir::new(&start)
            .min_depth(1)
            .max_depth(if recursive { usize::MAX } else { 1 })
            .follow_links(false);
        let mut files = Vec::new();
        let mut iter = walker.into_iter();
        while let Some(item) = iter.next() {
            let entry = match item {
                Ok(entry) => entry,
                Err(e) => {
                    tracing::warn!(error = %e, "skipping an unreadable entry while listing files");
                    continue;
                }
            };
            let name = entry.file_name().to_string_lossy();
            if entry.file_type().is_dir() {
                if is_skipped_folder(&name) {
                    iter.skip_current_dir();
                }
                continue;
            }
            if is_temp_name(&name) || !has_extension(&name, ext) {
                continue;
            }
            let meta = if entry.path_is_symlink() {
                // Only links that land on a file inside the vault count as the vault's files.
                match fs::canonicalize(entry.path()) {
                    Ok(real) if real.starts_with(self.root()) => match fs::metadata(&real) {
                        Ok(meta) if meta.is_file() => meta,
                        _ => continue,
                    },
                    _ => {
                        tracing::debug!(link = %entry.path().display(), "skipping a link that leads outside the vault or nowhere");
                        continue;
                    }
                }
            } else {
                match entry.metadata() {
                    Ok(meta) if meta.is_file() => meta,
                    Ok(_) => continue,
                    Err(e) => {
                        tracing::warn!(error = %e, "skipping a file whose details cannot be read");
                        continue;
                    }
                }
            };
            let Ok(rel) = entry.path().strip_prefix(self.root()) else {
                continue;
            };
            let rel: Vec<String> = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            let modified = meta
                .modified()
                .ok()
                .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
                .and_then(|d| i64::try_from(d.as_millis()).ok())
                .unwrap_or(0);
            files.push(FileInfo {
                path: rel.join("/"),
                modified,
                size: meta.len(),
            });
        }
        files.sort_by(|a, b| a.path.cmp(&b.path));
        Ok(files)
    }
}

fn has_extension(name: &str, ext: &str) -> bool {
    if ext.is_empty() {
        return true;
    }
    match name.rfind('.') {
        Some(i) if i > 0 => name[i + 1..].eq_ignore_ascii_case(ext),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extension_filter() {
        assert!(has_extension("a.md", "md"));
        assert!(has_extension("a.MD", "md"));
        assert!(has_extension("a.md", ""));
        assert!(!has_extension("a.md", "canvas"));
        assert!(!has_extension(".md", "md"));
        assert!(!has_extension("md", "md"));
    }
}
