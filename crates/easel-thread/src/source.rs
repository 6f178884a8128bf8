//! Where the contents of file nodes come from. The walker asks through a trait so that it can
//! be tested with data alone; [`VaultFiles`] reads from a vault.

use easel_vault::{Vault, VaultError};

/// The content of a file a file node points at.
#[derive(Clone, Debug, PartialEq)]
pub enum FileContent {
    /// A text file (Markdown or any other UTF-8 text).
    Text(String),
    /// An image, with its MIME type.
    Image { media_type: String, bytes: Vec<u8> },
    /// A file that is neither text nor a supported image.
    Binary,
}

/// Why a file could not be read.
#[derive(Clone, Debug, PartialEq)]
pub enum FileProblem {
    Missing,
    Unreadable(String),
}

/// Reads the files that file nodes point at.
pub trait FileSource {
    fn read(&self, path: &str) -> Result<FileContent, FileProblem>;
}

/// Image types models accept, by extension.
pub fn image_media_type(path: &str) -> Option<&'static str> {
    let ext = path.rsplit('.').next()?.to_ascii_lowercase();
    Some(match ext.as_str() {
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "webp" => "image/webp",
        _ => return None,
    })
}

/// Files from a vault, under the vault's path rules.
pub struct VaultFiles<'a> {
    pub vault: &'a Vault,
}

impl FileSource for VaultFiles<'_> {
    fn read(&self, path: &str) -> Result<FileContent, FileProblem> {
        let p = self.vault.resolve(path).map_err(|e| match e {
            VaultError::NotFound { .. } => FileProblem::Missing,
            other => FileProblem::Unreadable(other.to_string()),
        })?;
        let (bytes, _) = self.vault.read(&p).map_err(|e| match e {
            VaultError::NotFound { .. } => FileProblem::Missing,
            other => FileProblem::Unreadable(other.to_string()),
        })?;
        if let Some(media_type) = image_media_type(path) {
            return Ok(FileContent::Image {
                media_type: media_type.to_owned(),
                bytes,
            });
        }
        match String::from_utf8(bytes) {
            Ok(text) => Ok(FileContent::Text(text)),
            Err(_) => Ok(FileContent::Binary),
        }
    }
}

/// An in-memory file source, for tests and for callers that already hold the files.
#[derive(Clone, Debug, Default)]
pub struct MemoryFiles {
    pub files: std::collections::BTreeMap<String, FileContent>,
}

impl MemoryFiles {
    pub fn with(mut self, path: &str, content: FileContent) -> MemoryFiles {
        self.files.insert(path.to_owned(), content);
        self
    }
}

impl FileSource for MemoryFiles {
    fn read(&self, path: &str) -> Result<FileContent, FileProblem> {
        self.files.get(path).cloned().ok_or(FileProblem::Missing)
    }
}
