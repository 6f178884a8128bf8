//! The per-file fact cache: facts keyed by the SHA-256 of (format, language, path, bytes),
//! kept in one pack file under `.codecanvas/cache/` so that a warm start is one read.

use crate::error::CodeError;
use crate::extract::FileFacts;
use foldhash::{HashMap, HashMapExt};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// Where the cache lives, relative to the repository root.
pub const CACHE_DIR: &str = ".codecanvas/cache";
/// Bumped whenever the facts or the queries change shape, so that old entries are not read.
pub(crate) const FORMAT: &str = "easel-code-facts-1";
const FILE: &str = "facts.bin";

#[derive(Serialize, Deserialize)]
struct Pack {
    format: String,
    entries: Vec<([u8; 32], FileFacts)>,
}

#[derive(Default)]
pub(crate) struct Cache {
    map: HashMap<[u8; 32], FileFacts>,
}

impl Cache {
    /// Reads the cache; a missing, old or damaged cache is an empty one.
    pub(crate) fn load(root: &Path) -> Cache {
        let path = root.join(CACHE_DIR).join(FILE);
        let Ok(bytes) = std::fs::read(&path) else {
            return Cache::default();
        };
        match postcard::from_bytes::<Pack>(&bytes) {
            Ok(p) if p.format == FORMAT => {
                let mut map = HashMap::with_capacity(p.entries.len());
                map.extend(p.entries);
                Cache { map }
            }
            Ok(_) => Cache::default(),
            Err(e) => {
                tracing::warn!("ignoring the damaged cache {}: {e}", path.display());
                Cache::default()
            }
        }
    }

    pub(crate) fn get(&self, key: &[u8; 32]) -> Option<FileFacts> {
        self.map.get(key).cloned()
    }

    pub(crate) fn len(&self) -> usize {
        self.map.len()
    }

    /// Replaces the cache with these entries (entries of deleted files go away).
    pub(crate) fn store(
        root: &Path,
        keys: &[[u8; 32]],
        facts: &[FileFacts],
    ) -> Result<(), CodeError> {
        let dir = root.join(CACHE_DIR);
        let io = |path: &Path, e: std::io::Error| CodeError::Io {
            path: path.to_path_buf(),
            source: e,
        };
        std::fs::create_dir_all(&dir).map_err(|e| io(&dir, e))?;
        let pack = Pack {
            format: FORMAT.to_string(),
            entries: keys.iter().copied().zip(facts.iter().cloned()).collect(),
        };
        let bytes = postcard::to_stdvec(&pack).map_err(|e| io(&dir, std::io::Error::other(e)))?;
        let tmp = dir.join(format!("{FILE}.{}.tmp", std::process::id()));
        std::fs::write(&tmp, bytes).map_err(|e| io(&tmp, e))?;
        let path = dir.join(FILE);
        std::fs::rename(&tmp, &path).map_err(|e| io(&path, e))?;
        Ok(())
    }
}
