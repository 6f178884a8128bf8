//! The change ledger (`.easel/ledger.jsonl`) and the saved bytes it refers to (`.easel/blobs/`).
//!
//! The ledger is append-only JSON Lines. Appends happen under a lock and each line is written
//! with a single `write` call, so concurrent writers never interleave. A process killed in the
//! middle of an append can leave a torn last line; readers skip unparsable lines with a warning,
//! and the next append starts on a fresh line so the damage never spreads.
//!
//! A change's entry is appended *before* its file is renamed into place, marked
//! `"pending":true`, and confirmed after the rename by a line `{"done":"<id>"}` (or withdrawn by
//! `{"void":"<id>"}` when the rename failed or another program changed the file first). A writer killed between the two leaves a pending
//! entry that nobody confirmed; [`settle`] decides whether its change happened from the
//! evidence the ledger and the file hold: the next entry for the same file starts from the
//! revision the file really had (every entry's `rev_before` is read under the file's lock), and
//! when there is no next entry the file's current revision says it. So a kill at any point
//! leaves the ledger agreeing with the files, and undo keeps working across it.

use std::collections::{HashMap, HashSet};
use std::fs::{self, File};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use jiff::Timestamp;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::atomic::{stage, sync_dir};
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
    /// The bytes of the file after the change that hold what the change is about (an edited
    /// element), as `[start, end)`: with it, [`crate::UndoTarget::Id`] can undo this change
    /// alone after later changes to other parts of the file, and refuses only when a later
    /// change touched these bytes. `None`: the whole file is the change's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub span: Option<[usize; 2]>,
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
            span: None,
        }
    }

    /// The same change, as part of `run`.
    pub fn with_run(mut self, run: impl Into<String>) -> Self {
        self.run = Some(run.into());
        self
    }

    /// The same change, about the bytes `span` of the file it leaves (see [`Change::span`]).
    pub fn with_span(mut self, span: std::ops::Range<usize>) -> Self {
        self.span = Some([span.start, span.end]);
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
    /// See [`Change::span`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub span: Option<[usize; 2]>,
    /// On the entries of one [`crate::Vault::modify_steps`] call: the id of its first entry.
    /// The steps reached the file in one write, so they happened all or none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub batch: Option<String>,
    /// Written before the file changed and not yet confirmed (see the module documentation).
    /// Entries handed out by the vault have been settled, so this is always `false` there.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub(crate) pending: bool,
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
    pub(crate) tmp: PathBuf,
}

impl EaselDirs {
    pub(crate) fn new(root: &Path) -> Self {
        let easel = root.join(crate::path::EASEL_DIR);
        EaselDirs {
            ledger: easel.join("ledger.jsonl"),
            blobs: easel.join("blobs"),
            locks: easel.join("locks"),
            tmp: easel.join("tmp"),
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

/// A confirmation or withdrawal of a pending entry.
#[derive(Serialize, Deserialize)]
struct Done {
    done: String,
}

#[derive(Serialize, Deserialize)]
struct Void {
    void: String,
}

/// Append `entry` as pending, without flushing: the caller renames the file next, then calls
/// [`confirm`]. The caller must hold the ledger lock.
pub(crate) fn append_pending(ledger: &Path, entry: &LedgerEntry) -> Result<(), VaultError> {
    let mut entry = entry.clone();
    entry.pending = true;
    let line = serde_json::to_string(&entry).map_err(VaultError::LedgerEncode)?;
    append_line(ledger, line, false)
}

/// Confirm a pending entry and flush the ledger. The caller must hold the ledger lock.
pub(crate) fn confirm(ledger: &Path, id: &str) -> Result<(), VaultError> {
    let line = serde_json::to_string(&Done {
        done: id.to_string(),
    })
    .map_err(VaultError::LedgerEncode)?;
    append_line(ledger, line, true)
}

/// Withdraw a pending entry whose change did not happen. The caller must hold the ledger lock.
pub(crate) fn withdraw(ledger: &Path, id: &str) -> Result<(), VaultError> {
    let line = serde_json::to_string(&Void {
        void: id.to_string(),
    })
    .map_err(VaultError::LedgerEncode)?;
    append_line(ledger, line, true)
}

/// Append one complete entry and flush it. The caller must hold the ledger lock.
#[cfg(test)]
pub(crate) fn append(ledger: &Path, entry: &LedgerEntry) -> Result<(), VaultError> {
    let line = serde_json::to_string(entry).map_err(VaultError::LedgerEncode)?;
    append_line(ledger, line, true)
}

fn append_line(ledger: &Path, mut line: String, flush: bool) -> Result<(), VaultError> {
    line.push('\n');
    if let Some(dir) = ledger.parent() {
        fs::create_dir_all(dir).map_err(|e| VaultError::io("create the folder", dir, e))?;
    }
    let mut file =
        crate::links::open_no_follow(File::options().read(true).append(true).create(true), ledger)
            .map_err(|e| crate::links::open_error("open the ledger", ledger, e))?;
    if ends_with_torn_line(&mut file).map_err(|e| VaultError::io("read the ledger", ledger, e))? {
        tracing::warn!(ledger = %ledger.display(), "the ledger's last line is incomplete (an earlier crash?); starting a new line");
        line.insert(0, '\n');
    }
    file.write_all(line.as_bytes())
        .map_err(|e| VaultError::io("append to the ledger", ledger, e))?;
    if flush {
        file.sync_data()
            .map_err(|e| VaultError::io("flush the ledger", ledger, e))?;
    }
    Ok(())
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

/// The ledger's lines: entries oldest first, and which pending ones were confirmed or
/// withdrawn.
#[derive(Debug, Default)]
pub(crate) struct Lines {
    pub(crate) entries: Vec<LedgerEntry>,
    done: HashSet<String>,
    void: HashSet<String>,
}

/// Read every readable line. Unreadable lines are skipped with a warning: a crash can tear the
/// last line, and one bad line must not hide the rest of the history.
pub(crate) fn read_lines(ledger: &Path) -> Result<Lines, VaultError> {
    let mut bytes = Vec::new();
    match crate::links::open_no_follow(File::options().read(true), ledger) {
        Ok(mut file) => {
            file.read_to_end(&mut bytes)
                .map_err(|e| VaultError::io("read the ledger", ledger, e))?;
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Lines::default()),
        Err(e) => return Err(crate::links::open_error("read the ledger", ledger, e)),
    }
    let mut lines = Lines::default();
    for (index, line) in bytes.split(|&b| b == b'\n').enumerate() {
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        // Confirmations are short and start alike; only they are tried as such.
        if line.starts_with(b"{\"done\":")
            && let Ok(done) = serde_json::from_slice::<Done>(line)
        {
            lines.done.insert(done.done);
            continue;
        }
        if line.starts_with(b"{\"void\":")
            && let Ok(void) = serde_json::from_slice::<Void>(line)
        {
            lines.void.insert(void.void);
            continue;
        }
        match serde_json::from_slice::<LedgerEntry>(line) {
            Ok(entry) => lines.entries.push(entry),
            Err(e) => tracing::warn!(
                ledger = %ledger.display(),
                line = index + 1,
                error = %e,
                "skipping an unreadable ledger line"
            ),
        }
    }
    Ok(lines)
}

/// The changes that happened, oldest first: confirmed entries, old entries (which were only
/// written after their change), and the pending entries the evidence says happened.
///
/// `current_rev` gives a file's revision now (`Some(None)` when it is absent, `None` when it
/// cannot be told); it is asked only about a pending entry that is the last one for its file.
/// A pending entry counts as not having happened only on positive evidence: the file still had
/// its `rev_before` afterwards (and the change was not a rewrite of the same bytes).
pub(crate) fn settle(
    lines: Lines,
    mut current_rev: impl FnMut(&str) -> Option<Option<Rev>>,
) -> Vec<LedgerEntry> {
    let Lines {
        entries,
        done,
        void,
    } = lines;
    // For each entry, the revision its file had when the next change to it was read.
    let mut next_before: Vec<Option<Option<Rev>>> = vec![None; entries.len()];
    let mut seen: HashMap<&str, Option<Rev>> = HashMap::new();
    for (i, entry) in entries.iter().enumerate().rev() {
        next_before[i] = seen.get(entry.path.as_str()).copied();
        seen.insert(&entry.path, entry.rev_before);
    }
    // A batch reached the file in one rename: its steps happened all or none, and the evidence
    // is what follows its last step, measured against its first step's start.
    let mut batches: HashMap<&str, (Option<Rev>, usize)> = HashMap::new();
    for (i, entry) in entries.iter().enumerate() {
        if let Some(batch) = entry.batch.as_deref() {
            batches
                .entry(batch)
                .and_modify(|(_, last)| *last = i)
                .or_insert((entry.rev_before, i));
        }
    }
    let mut settled = Vec::with_capacity(entries.len());
    for (i, entry) in entries.iter().enumerate() {
        if void.contains(&entry.id) {
            continue;
        }
        let (start, last) = match entry.batch.as_deref().and_then(|b| batches.get(b)) {
            Some(&(start, last)) => (start, last),
            None => (entry.rev_before, i),
        };
        let unconfirmed = match entry.batch.as_deref() {
            Some(_) => !done.contains(&entries[last].id),
            None => !done.contains(&entry.id),
        };
        if entry.pending && unconfirmed && start != entries[last].rev_after {
            let after = match next_before[last] {
                Some(next) => Some(next),
                None => current_rev(&entry.path),
            };
            if after == Some(start) {
                tracing::debug!(id = %entry.id, path = %entry.path, "a pending ledger entry whose change never reached the file (its writer was stopped); ignoring it");
                continue;
            }
        }
        let mut entry = entry.clone();
        entry.pending = false;
        settled.push(entry);
    }
    settled
}

/// Save `bytes` under `.easel/blobs/<sha256>` unless already there; returns the hex digest.
/// The temporary file is staged in `.easel/tmp/`.
pub(crate) fn store_blob(dirs: &EaselDirs, bytes: &[u8]) -> Result<String, VaultError> {
    let hex = sha256_hex(bytes);
    let path = dirs.blobs.join(&hex);
    // Not followed: a link planted here is replaced by the real blob.
    let present = fs::symlink_metadata(&path)
        .map(|m| m.is_file() && m.len() == bytes.len() as u64)
        .unwrap_or(false);
    if !present {
        fs::create_dir_all(&dirs.blobs)
            .map_err(|e| VaultError::io("create the folder", &dirs.blobs, e))?;
        stage(&dirs.tmp, &path, bytes)?.install(&path)?;
        sync_dir(&dirs.blobs)?;
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
        let read = crate::links::open_no_follow(File::options().read(true), &candidate).and_then(
            |mut file| {
                let mut bytes = Vec::new();
                file.read_to_end(&mut bytes).map(|_| bytes)
            },
        );
        match read {
            Ok(bytes) if Rev::of(&bytes) == rev => return Ok(bytes),
            Ok(_) => {
                tracing::warn!(blob = %candidate.display(), "blob content does not match its name; ignoring it")
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(crate::links::open_error("read", &candidate, e)),
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
            span: None,
            batch: None,
            pending: false,
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
        assert_eq!(read_lines(&ledger).unwrap().entries.len(), 1);
        append(&ledger, &entry("two")).unwrap();
        let ids: Vec<_> = read_lines(&ledger)
            .unwrap()
            .entries
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
        let dirs = EaselDirs::new(dir.path());
        let blobs = dirs.blobs.clone();
        let a = store_blob(&dirs, b"same").unwrap();
        let b = store_blob(&dirs, b"same").unwrap();
        assert_eq!(a, b);
        assert_eq!(fs::read_dir(&blobs).unwrap().count(), 1);
        let rev = Rev::of(b"same");
        assert_eq!(load_blob(&blobs, &entry("x"), rev).unwrap(), b"same");
        let err = load_blob(&blobs, &entry("x"), Rev::of(b"other")).unwrap_err();
        assert!(matches!(err, VaultError::BlobMissing { .. }));
    }

    fn change(id: &str, before: &[u8], after: &[u8]) -> LedgerEntry {
        LedgerEntry {
            rev_before: Some(Rev::of(before)),
            rev_after: Some(Rev::of(after)),
            pending: true,
            ..entry(id)
        }
    }

    fn settled_ids(lines: Lines, file: &[u8]) -> Vec<String> {
        settle(lines, |_| Some(Some(Rev::of(file))))
            .into_iter()
            .map(|e| e.id)
            .collect()
    }

    #[test]
    fn pending_entries_are_settled_by_the_next_entry_or_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let ledger = dir.path().join("ledger.jsonl");
        // a: confirmed. b: killed after its rename (c starts from its result). c: killed before
        // its rename (d starts from c's start). d: withdrawn. e: killed, the file says how far.
        append_pending(&ledger, &change("a", b"0", b"1")).unwrap();
        confirm(&ledger, "a").unwrap();
        append_pending(&ledger, &change("b", b"1", b"2")).unwrap();
        append_pending(&ledger, &change("c", b"2", b"3")).unwrap();
        append_pending(&ledger, &change("d", b"2", b"4")).unwrap();
        withdraw(&ledger, "d").unwrap();
        append_pending(&ledger, &change("e", b"2", b"5")).unwrap();
        let read = || read_lines(&ledger).unwrap();
        assert_eq!(settled_ids(read(), b"5"), ["a", "b", "e"]);
        assert_eq!(settled_ids(read(), b"2"), ["a", "b"]);
        // Another program changed the file since: no evidence that e did not happen.
        assert_eq!(settled_ids(read(), b"x"), ["a", "b", "e"]);
        let settled = settle(read(), |_| None);
        assert!(settled.iter().all(|e| !e.pending));
        // Pending marks stay out of what readers are given.
        let json = serde_json::to_string(&settled[0]).unwrap();
        assert!(!json.contains("pending"), "{json}");
        assert!(
            fs::read_to_string(&ledger)
                .unwrap()
                .contains("\"pending\":true")
        );
    }

    #[test]
    fn a_batch_killed_before_or_after_its_rename_settles_as_a_whole() {
        let dir = tempfile::tempdir().unwrap();
        let ledger = dir.path().join("ledger.jsonl");
        let step = |id: &str, before: &[u8], after: &[u8]| LedgerEntry {
            batch: Some("s1".into()),
            ..change(id, before, after)
        };
        // Three steps 0 -> 1 -> 2 -> 3, appended pending, never confirmed.
        for e in [
            step("s1", b"0", b"1"),
            step("s2", b"1", b"2"),
            step("s3", b"2", b"3"),
        ] {
            append_pending(&ledger, &e).unwrap();
        }
        let read = || read_lines(&ledger).unwrap();
        // Killed before the rename: the file is still at the start, so none happened (the
        // chain alone would have said the first two did).
        assert!(settled_ids(read(), b"0").is_empty());
        // Killed after it: all three happened.
        assert_eq!(settled_ids(read(), b"3"), ["s1", "s2", "s3"]);
        // A later writer's entry is the evidence once the file moved on.
        append_pending(&ledger, &change("n", b"0", b"9")).unwrap();
        confirm(&ledger, "n").unwrap();
        assert_eq!(settled_ids(read(), b"9"), ["n"]);
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
