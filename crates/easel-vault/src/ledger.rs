//! The change ledger (`.easel/ledger.jsonl`) and the saved bytes it refers to (`.easel/blobs/`).
//!
//! The ledger is append-only JSON Lines. Appends happen under a lock and each line is written
//! with a single `write` call, so concurrent writers never interleave. A process killed in the
//! middle of an append can leave a torn last line; readers skip unparsable lines with a warning,
//! and the next append starts on a fresh line so the damage never spreads.

use std::fs::{self, File};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use jiff::Timestamp;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::atomic::write_atomic;
use crate::error::VaultError;
use crate::rev::Rev;

/// Who changed a file, how, and why: the caller's half of a ledger entry.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Change {
    /// `cli`, `mcp:<client>`, `agent:<name>`, `thread` or `http`.
    pub actor: String,
    /// The operation's name, e.g. `canvas.add_node`.
    pub op: String,
    /// One line for people reading the ledger.
    pub summary: String,
    /// Groups the changes of one agent run or command so they can be undone together.
    pub run: Option<String>,
}

impl Change {
    /// A change outside any run.
    pub fn new(
        actor: impl Into<String>,
        op: impl Into<String>,
        summary: impl Into<String>,
    ) -> Self {
        Change {
            actor: actor.into(),
            op: op.into(),
            summary: summary.into(),
            run: None,
        }
    }

    /// The same change, as part of `run`.
    pub fn with_run(mut self, run: impl Into<String>) -> Self {
        self.run = Some(run.into());
        self
    }
}

/// One line of `.easel/ledger.jsonl`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LedgerEntry {
    /// Unique id: 12 hex digits of milliseconds since the epoch, then 8 random hex digits.
    pub id: String,
    /// When the change was made (RFC 3339, UTC).
    pub time: Timestamp,
    /// See [`Change::actor`].
    pub actor: String,
    /// See [`Change::op`]; `undo` for undo entries.
    pub op: String,
    /// The vault-relative path of the changed file.
    pub path: String,
    /// The file's revision before the change; `None` when the change created it.
    pub rev_before: Option<Rev>,
    /// The file's revision after the change; `None` when the change deleted it.
    pub rev_after: Option<Rev>,
    /// See [`Change::summary`].
    pub summary: String,
    /// See [`Change::run`].
    pub run: Option<String>,
    /// On undo entries: the id of the entry this one undid.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub undoes: Option<String>,
    /// The full SHA-256 (hex) naming the blob that holds the bytes before the change. Optional
    /// because the blob can also be found from `rev_before`, which is its prefix.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub blob: Option<String>,
}

impl LedgerEntry {
    /// Whether this entry records an undo.
    pub fn is_undo(&self) -> bool {
        self.undoes.is_some()
    }
}

/// What a successful write, modify, delete or undo did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Written {
    /// The vault-relative path.
    pub path: String,
    /// The revision before; `None` when the file was created.
    pub rev_before: Option<Rev>,
    /// The revision after; `None` when the file was deleted.
    pub rev_after: Option<Rev>,
    /// The id of the ledger entry recording the change.
    pub ledger_id: String,
}

/// The locations of Easel's own files in a vault.
#[derive(Clone, Debug)]
pub(crate) struct EaselDirs {
    pub(crate) ledger: PathBuf,
    pub(crate) blobs: PathBuf,
    pub(crate) locks: PathBuf,
}

impl EaselDirs {
    pub(crate) fn new(root: &Path) -> Self {
        let easel = root.join(crate::path::EASEL_DIR);
        EaselDirs {
            ledger: easel.join("ledger.jsonl"),
            blobs: easel.join("blobs"),
            locks: easel.join("locks"),
        }
    }

    pub(crate) fn ledger_lock(&self) -> PathBuf {
        self.locks.join("ledger.lock")
    }

    pub(crate) fn undo_lock(&self) -> PathBuf {
        self.locks.join("undo.lock")
    }
}

/// A fresh ledger id.
pub(crate) fn new_id(now: Timestamp) -> String {
    let ms = u64::try_from(now.as_millisecond()).unwrap_or(0) & 0xffff_ffff_ffff;
    format!("{ms:012x}{:08x}", fastrand::u32(..))
}

/// Append one entry. The caller must hold the ledger lock.
pub(crate) fn append(ledger: &Path, entry: &LedgerEntry) -> Result<(), VaultError> {
    let mut line = serde_json::to_string(entry).map_err(VaultError::LedgerEncode)?;
    line.push('\n');
    if let Some(dir) = ledger.parent() {
        fs::create_dir_all(dir).map_err(|e| VaultError::io("create the folder", dir, e))?;
    }
    let mut file = File::options()
        .read(true)
        .append(true)
        .create(true)
        .open(ledger)
        .map_err(|e| VaultError::io("open the ledger", ledger, e))?;
    if ends_with_torn_line(&mut file).map_err(|e| VaultError::io("read the ledger", ledger, e))? {
        tracing::warn!(ledger = %ledger.display(), "the ledger's last line is incomplete (an earlier crash?); starting a new line");
        line.insert(0, '\n');
    }
    file.write_all(line.as_bytes())
        .map_err(|e| VaultError::io("append to the ledger", ledger, e))?;
    file.sync_data()
        .map_err(|e| VaultError::io("flush the ledger", ledger, e))
}

fn ends_with_torn_line(file: &mut File) -> std::io::Result<bool> {
    let len = file.metadata()?.len();
    if len == 0 {
        return Ok(false);
    }
    file.seek(SeekFrom::Start(len - 1))?;
    let mut last = [0u8; 1];
    file.read_exact(&mut last)?;
    Ok(last[0] != b'\n')
}

/// Every readable entry, oldest first. Unreadable lines are skipped with a warning: a crash can
/// tear the last line, and one bad line must not hide the rest of the history.
pub(crate) fn read_all(ledger: &Path) -> Result<Vec<LedgerEntry>, VaultError> {
    let bytes = match fs::read(ledger) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(VaultError::io("read the ledger", ledger, e)),
    };
    let mut entries = Vec::new();
    for (index, line) in bytes.split(|&b| b == b'\n').enumerate() {
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        match serde_json::from_slice::<LedgerEntry>(line) {
            Ok(entry) => entries.push(entry),
            Err(e) => tracing::warn!(
                ledger = %ledger.display(),
                line = index + 1,
                error = %e,
                "skipping an unreadable ledger line"
            ),
        }
    }
    Ok(entries)
}

/// Save `bytes` under `.easel/blobs/<sha256>` unless already there; returns the hex digest.
pub(crate) fn store_blob(blobs: &Path, bytes: &[u8]) -> Result<String, VaultError> {
    let hex = sha256_hex(bytes);
    let path = blobs.join(&hex);
    let present = fs::metadata(&path)
        .map(|m| m.len() == bytes.len() as u64)
        .unwrap_or(false);
    if !present {
        write_atomic(&path, bytes)?;
    }
    Ok(hex)
}

/// The bytes an entry's `rev_before` refers to, verified against the revision.
pub(crate) fn load_blob(
    blobs: &Path,
    entry: &LedgerEntry,
    rev: Rev,
) -> Result<Vec<u8>, VaultError> {
    let missing = || VaultError::BlobMissing {
        id: entry.id.clone(),
        path: entry.path.clone(),
        rev,
    };
    let mut candidates = Vec::new();
    if let Some(hex) = &entry.blob
        && hex.len() == 64
        && hex.bytes().all(|b| b.is_ascii_hexdigit())
    {
        candidates.push(blobs.join(hex));
    }
    // Entries written without a `blob` field (or with a damaged one) still find their bytes,
    // because a revision is the prefix of the blob's name.
    let prefix = rev.to_string();
    match fs::read_dir(blobs) {
        Ok(dir) => {
            for item in dir.flatten() {
                if item.file_name().to_string_lossy().starts_with(&prefix) {
                    candidates.push(item.path());
                }
            }
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(VaultError::io("list", blobs, e)),
    }
    for candidate in candidates {
        match fs::read(&candidate) {
            Ok(bytes) if Rev::of(&bytes) == rev => return Ok(bytes),
            Ok(_) => {
                tracing::warn!(blob = %candidate.display(), "blob content does not match its name; ignoring it")
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(VaultError::io("read", &candidate, e)),
        }
    }
    Err(missing())
}

fn sha256_hex(bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    let mut hex = String::with_capacity(64);
    for b in digest {
        hex.push_str(&format!("{b:02x}"));
    }
    hex
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(id: &str) -> LedgerEntry {
        LedgerEntry {
            id: id.into(),
            time: Timestamp::UNIX_EPOCH,
            actor: "cli".into(),
            op: "test".into(),
            path: "a.md".into(),
            rev_before: None,
            rev_after: Some(Rev::of(b"a")),
            summary: "s".into(),
            run: None,
            undoes: None,
            blob: None,
        }
    }

    #[test]
    fn torn_last_line_is_skipped_and_next_append_starts_fresh() {
        let dir = tempfile::tempdir().unwrap();
        let ledger = dir.path().join("ledger.jsonl");
        append(&ledger, &entry("one")).unwrap();
        let mut f = File::options().append(true).open(&ledger).unwrap();
        f.write_all(b"{\"id\":\"torn").unwrap();
        drop(f);
        assert_eq!(read_all(&ledger).unwrap().len(), 1);
        append(&ledger, &entry("two")).unwrap();
        let ids: Vec<_> = read_all(&ledger)
            .unwrap()
            .into_iter()
            .map(|e| e.id)
            .collect();
        assert_eq!(ids, ["one", "two"]);
    }

    #[test]
    fn serialized_entry_has_the_design_fields_in_order() {
        let json = serde_json::to_string(&entry("x")).unwrap();
        assert_eq!(
            json,
            r#"{"id":"x","time":"1970-01-01T00:00:00Z","actor":"cli","op":"test","path":"a.md","rev_before":null,"rev_after":"ca978112ca1bbdca","summary":"s","run":null}"#
        );
    }

    #[test]
    fn blobs_are_deduplicated_and_found_by_rev() {
        let dir = tempfile::tempdir().unwrap();
        let blobs = dir.path().join("blobs");
        let a = store_blob(&blobs, b"same").unwrap();
        let b = store_blob(&blobs, b"same").unwrap();
        assert_eq!(a, b);
        assert_eq!(fs::read_dir(&blobs).unwrap().count(), 1);
        let rev = Rev::of(b"same");
        assert_eq!(load_blob(&blobs, &entry("x"), rev).unwrap(), b"same");
        let err = load_blob(&blobs, &entry("x"), Rev::of(b"other")).unwrap_err();
        assert!(matches!(err, VaultError::BlobMissing { .. }));
    }

    #[test]
    fn ids_are_unique_and_twenty_hex_digits() {
        let now = Timestamp::now();
        let a = new_id(now);
        assert_eq!(a.len(), 20);
        assert!(a.bytes().all(|b| b.is_ascii_hexdigit()));
        assert_ne!(a, new_id(now));
    }
}
