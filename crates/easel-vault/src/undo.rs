//! Reading the ledger back, and undoing recorded changes.

use std::collections::{BTreeMap, HashSet};

use serde::{Deserialize, Serialize};

use crate::error::VaultError;
use crate::ledger::{self, Change, LedgerEntry};
use crate::path::VaultPath;
use crate::rebase;
use crate::rev::Rev;
use crate::vault::Vault;

/// Which recorded change(s) to undo.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UndoTarget {
    /// The newest change that is not itself an undo and has not been undone yet.
    Latest,
    /// The change with this ledger id.
    Id(String),
    /// Every change of this run that has not been undone yet, newest first.
    Run(String),
}

/// One change that was undone.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Undone {
    /// The id of the entry that was undone.
    pub undid: String,
    /// The id of the new ledger entry recording the undo.
    pub ledger_id: String,
    /// The vault-relative path.
    pub path: String,
    /// The file's revision before the undo (the undone entry's `rev_after`).
    pub rev_before: Option<Rev>,
    /// The file's revision after the undo (the undone entry's `rev_before`); `None` when the
    /// undo deleted a file the change had created.
    pub rev_after: Option<Rev>,
}

impl Vault {
    /// Ledger entries, newest first, at most `limit` of them.
    pub fn ledger_list(&self, limit: Option<usize>) -> Result<Vec<LedgerEntry>, VaultError> {
        let mut entries = self.settled_entries()?;
        entries.reverse();
        if let Some(limit) = limit {
            entries.truncate(limit);
        }
        Ok(entries)
    }

    /// The bytes the file had before `entry`'s change (what undo would restore); `None` when
    /// the change created the file.
    pub fn ledger_before(&self, entry: &LedgerEntry) -> Result<Option<Vec<u8>>, VaultError> {
        entry
            .rev_before
            .map(|rev| ledger::load_blob(&self.dirs().blobs, entry, rev))
            .transpose()
    }

    /// Undo recorded changes, recording each undo as actor `cli`. See [`Vault::undo_as`].
    pub fn undo(&self, target: UndoTarget) -> Result<Vec<Undone>, VaultError> {
        self.undo_as(target, "cli")
    }

    /// Undo recorded changes: put back the bytes each file had before the change (or delete
    /// it, when the change created it).
    ///
    /// A change is undone only while its file still has the change's `rev_after` (or is still
    /// absent, for a deletion); otherwise the undo is refused with [`VaultError::UndoRefused`]
    /// and nothing changes. For a run, every change is checked, newest first, against the
    /// state the later undos will leave, before any file is touched. Each undo is a ledger entry
    /// of its own (`op: "undo"`, `undoes: <id>`) made by `actor`. Only a file system failure
    /// in the middle of a run (a full disk, say) can leave it partly undone; the undos that did
    /// happen are in the ledger, and running the same undo again finishes the rest.
    pub fn undo_as(&self, target: UndoTarget, actor: &str) -> Result<Vec<Undone>, VaultError> {
        // One undo at a time, so two "undo latest" calls never pick the same entry.
        let _undo_guard = self.lock_undo()?;
        for _ in 0..PLAN_ATTEMPTS {
            let entries = self.settled_entries()?;
            let plan = plan(&entries, &target)?;

            // Lock every file involved, in a fixed order (sorted by real path, each once, even
            // when two recorded paths now name one file) so that concurrent multi-file undos
            // cannot deadlock.
            let mut resolved = Vec::with_capacity(plan.len());
            for entry in &plan {
                let p = self
                    .resolve_for_write(&entry.path)
                    .map_err(|e| refused(entry, &format!("its path is no longer writable: {e}")))?;
                resolved.push(p);
            }
            let files: BTreeMap<&str, &VaultPath> =
                resolved.iter().map(|p| (p.as_str(), p)).collect();
            let mut guards = Vec::with_capacity(files.len());
            for p in files.values() {
                guards.push(self.lock_path(p)?);
            }
            // A writer that held one of these locks may have finished a change meanwhile (or
            // settled a pending one); plan again with the files held, and go on only if
            // nothing moved.
            let entries = self.settled_entries()?;
            if plan_ids(&self::plan(&entries, &target)?) != plan_ids(&plan) {
                drop(guards);
                continue;
            }
            let whole_run = matches!(target, UndoTarget::Run(_));
            let done = self.undo_locked(&entries, &plan, &resolved, actor, whole_run)?;
            drop(guards);
            return Ok(done);
        }
        Err(VaultError::Locked {
            path: "undo".into(),
            waited_ms: 0,
        })
    }

    /// Check every step against the state the earlier ones leave, then undo them in order.
    /// The caller holds the undo lock and every file's lock. A change that records its span
    /// and whose file changed since is taken back alone through the later changes
    /// ([`rebase::revert`]) when none of them touched its span.
    fn undo_locked(
        &self,
        entries: &[LedgerEntry],
        plan: &[LedgerEntry],
        resolved: &[VaultPath],
        actor: &str,
        whole_run: bool,
    ) -> Result<Vec<Undone>, VaultError> {
        let mut state: BTreeMap<&str, Option<Rev>> = BTreeMap::new();
        for p in resolved {
            if !state.contains_key(p.as_str()) {
                state.insert(p.as_str(), self.read_current_rev(p)?);
            }
        }
        let starts = if whole_run {
            self.run_starts(entries, plan, &state)?
        } else {
            BTreeMap::new()
        };
        // Versions this undo will have written, per file, for the steps planned after them.
        let mut planned: BTreeMap<&str, Vec<Vec<u8>>> = BTreeMap::new();
        let mut steps = Vec::with_capacity(plan.len());
        for (entry, p) in plan.iter().zip(resolved) {
            let current = state.get(p.as_str()).copied().flatten();
            if let Some((rev, bytes)) = starts.get(entry.path.as_str()) {
                state.insert(p.as_str(), Some(*rev));
                steps.push((entry, p, current, Some(bytes.clone())));
                continue;
            }
            if current != entry.rev_after
                && let Some(span) = entry.span
                && entry.rev_before.is_some()
            {
                let later = planned.get(p.as_str()).map_or(&[][..], Vec::as_slice);
                let bytes = self.revert_alone(entries, entry, p, later, span)?;
                let rev = Rev::of(&bytes);
                state.insert(p.as_str(), Some(rev));
                planned.entry(p.as_str()).or_default().push(bytes.clone());
                steps.push((entry, p, current, Some(bytes)));
                continue;
            }
            if current != entry.rev_after {
                let reason = match (entry.rev_after, current) {
                    (Some(after), Some(now)) => format!(
                        "the file changed since (it has rev {now}, the change left rev {after})"
                    ),
                    (Some(after), None) => {
                        format!("the file was deleted since (the change left rev {after})")
                    }
                    (None, _) => "the change deleted the file, but it exists again".to_string(),
                };
                return Err(refused(entry, &reason));
            }
            let restore = match entry.rev_before {
                Some(rev) => Some(ledger::load_blob(&self.dirs().blobs, entry, rev)?),
                None => None,
            };
            state.insert(p.as_str(), entry.rev_before);
            if let Some(bytes) = &restore {
                planned.entry(p.as_str()).or_default().push(bytes.clone());
            }
            steps.push((entry, p, entry.rev_after, restore));
        }

        let mut done = Vec::with_capacity(steps.len());
        for (entry, p, expected, restore) in steps {
            let snap = self.snapshot(p)?;
            if snap.rev() != expected {
                return Err(refused(entry, "the file changed while undoing"));
            }
            let change = Change {
                actor: actor.to_string(),
                op: "undo".into(),
                summary: format!("undo {}: {}", entry.id, entry.summary),
                run: None,
                span: None,
            };
            let written = self
                .commit_snapshot(p, snap, restore.as_deref(), &change, Some(&entry.id))?
                .ok_or_else(|| refused(entry, "another program changed the file while undoing"))?;
            tracing::info!(undid = %entry.id, path = %entry.path, "undone");
            done.push(Undone {
                undid: entry.id.clone(),
                ledger_id: written.ledger_id,
                path: written.path,
                rev_before: written.rev_before,
                rev_after: written.rev_after,
            });
        }
        Ok(done)
    }
}

impl Vault {
    /// For undoing a whole run: the files whose changes cannot be undone one by one in order
    /// (another change came between, since taken back) but whose every change since the run's
    /// first one is the run's own, an undo, or undone: those are put back to their bytes from
    /// before the run, which is exactly the run taken back.
    fn run_starts(
        &self,
        entries: &[LedgerEntry],
        plan: &[LedgerEntry],
        state: &BTreeMap<&str, Option<Rev>>,
    ) -> Result<BTreeMap<String, (Rev, Vec<u8>)>, VaultError> {
        let mut out = BTreeMap::new();
        let paths: HashSet<&str> = plan.iter().map(|e| e.path.as_str()).collect();
        for path in paths {
            // Newest first, as the plan is.
            let mine: Vec<&LedgerEntry> = plan.iter().filter(|e| e.path == path).collect();
            let mut rev = state.get(path).copied().flatten();
            let in_order = mine.iter().all(|e| {
                let ok = rev == e.rev_after;
                rev = e.rev_before;
                ok
            });
            let Some(newest) = mine.first() else { continue };
            if in_order {
                continue;
            }
            // The run's first change of the file, undone alone since or not.
            let run = newest.run.as_deref();
            let Some(first) = entries
                .iter()
                .position(|e| e.path == path && !e.is_undo() && e.run.as_deref() == run)
            else {
                continue;
            };
            let oldest = &entries[first];
            // Only the run's own changes, and other changes made and taken back within the
            // same stretch of the file's history (an undo of an older change is not neutral).
            let window: Vec<&LedgerEntry> =
                entries[first..].iter().filter(|e| e.path == path).collect();
            let ids: HashSet<&str> = window.iter().map(|e| e.id.as_str()).collect();
            let taken_back: HashSet<&str> =
                window.iter().filter_map(|e| e.undoes.as_deref()).collect();
            let only_cancelled = window.iter().all(|e| {
                e.run.as_deref() == run
                    || e.undoes.as_deref().is_some_and(|u| ids.contains(u))
                    || taken_back.contains(e.id.as_str())
            });
            if let (true, Some(start)) = (only_cancelled, oldest.rev_before) {
                let bytes = ledger::load_blob(&self.dirs().blobs, oldest, start)?;
                out.insert(path.to_string(), (start, bytes));
            }
        }
        Ok(out)
    }

    /// The file `p` with `entry`'s change taken back alone, keeping every later change (and the
    /// versions `planned` earlier steps of this undo will write): read from the blobs of the
    /// later ledger entries of the file, which must form one unbroken chain to its current
    /// bytes.
    fn revert_alone(
        &self,
        entries: &[LedgerEntry],
        entry: &LedgerEntry,
        p: &VaultPath,
        planned: &[Vec<u8>],
        span: [usize; 2],
    ) -> Result<Vec<u8>, VaultError> {
        let blobs = &self.dirs().blobs;
        let position = entries.iter().position(|e| e.id == entry.id);
        let later: Vec<&LedgerEntry> = entries
            .iter()
            .skip(position.map_or(entries.len(), |i| i + 1))
            .filter(|e| e.path == entry.path)
            .collect();
        let mut versions: Vec<Vec<u8>> = Vec::with_capacity(later.len() + 2 + planned.len());
        let before = entry
            .rev_before
            .ok_or_else(|| refused(entry, "it created the file"))?;
        versions.push(ledger::load_blob(blobs, entry, before)?);
        let mut expected = entry.rev_after;
        for next in &later {
            let (Some(rev), true) = (next.rev_before, next.rev_before == expected) else {
                return Err(refused(
                    entry,
                    &format!(
                        "the file was changed outside Easel before change {} ({})",
                        next.id, next.summary
                    ),
                ));
            };
            versions.push(ledger::load_blob(blobs, next, rev)?);
            expected = next.rev_after;
        }
        let snap = self.snapshot(p)?;
        match snap.current {
            Some((bytes, rev)) if Some(rev) == expected => versions.push(bytes),
            _ => {
                return Err(refused(
                    entry,
                    "the file was changed outside Easel since its last recorded change",
                ));
            }
        }
        versions.extend(planned.iter().cloned());
        let views: Vec<&[u8]> = versions.iter().map(Vec::as_slice).collect();
        rebase::revert(&views, span[0]..span[1]).map_err(|blocked| match blocked {
            rebase::Blocked::Touched(step) => match later.get(step) {
                Some(by) => refused(
                    entry,
                    &format!(
                        "a later change touched the same element: {} ({}); undo that one first",
                        by.id, by.summary
                    ),
                ),
                None => refused(
                    entry,
                    "another change undone in this same undo touched the same element",
                ),
            },
            rebase::Blocked::BadSpan => refused(
                entry,
                "the later changes around it cannot be followed exactly; undo those first, or the whole run",
            ),
        })
    }
}

/// How often undo plans again because writers kept finishing changes to its files.
const PLAN_ATTEMPTS: usize = 8;

/// The entries to undo, newest first, cloned out of the ledger.
fn plan(entries: &[LedgerEntry], target: &UndoTarget) -> Result<Vec<LedgerEntry>, VaultError> {
    let undone: HashSet<&str> = entries.iter().filter_map(|e| e.undoes.as_deref()).collect();
    Ok(select(entries, &undone, target)?
        .into_iter()
        .cloned()
        .collect())
}

fn plan_ids(plan: &[LedgerEntry]) -> Vec<&str> {
    plan.iter().map(|e| e.id.as_str()).collect()
}

fn refused(entry: &LedgerEntry, reason: &str) -> VaultError {
    VaultError::UndoRefused {
        id: entry.id.clone(),
        path: entry.path.clone(),
        reason: reason.to_string(),
    }
}

/// The entries to undo, newest first.
fn select<'a>(
    entries: &'a [LedgerEntry],
    undone: &HashSet<&str>,
    target: &UndoTarget,
) -> Result<Vec<&'a LedgerEntry>, VaultError> {
    let open = |e: &&LedgerEntry| !e.is_undo() && !undone.contains(e.id.as_str());
    match target {
        UndoTarget::Latest => entries
            .iter()
            .rev()
            .find(open)
            .map(|e| vec![e])
            .ok_or(VaultError::NothingToUndo),
        UndoTarget::Id(id) => {
            let entry = entries
                .iter()
                .find(|e| &e.id == id)
                .ok_or_else(|| VaultError::EntryNotFound { id: id.clone() })?;
            if entry.is_undo() {
                return Err(refused(
                    entry,
                    "it is itself an undo; undo entries cannot be undone",
                ));
            }
            if undone.contains(entry.id.as_str()) {
                return Err(refused(entry, "it has already been undone"));
            }
            Ok(vec![entry])
        }
        UndoTarget::Run(run) => {
            let in_run: Vec<&LedgerEntry> = entries
                .iter()
                .rev()
                .filter(|e| e.run.as_deref() == Some(run.as_str()))
                .collect();
            if in_run.is_empty() {
                return Err(VaultError::RunNotFound { run: run.clone() });
            }
            let plan: Vec<&LedgerEntry> = in_run.into_iter().filter(open).collect();
            if plan.is_empty() {
                return Err(VaultError::RunAlreadyUndone { run: run.clone() });
            }
            Ok(plan)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use jiff::Timestamp;

    fn entry(id: &str, run: Option<&str>, undoes: Option<&str>) -> LedgerEntry {
        LedgerEntry {
            id: id.into(),
            time: Timestamp::UNIX_EPOCH,
            actor: "cli".into(),
            op: if undoes.is_some() { "undo" } else { "edit" }.into(),
            path: "a.md".into(),
            rev_before: None,
            rev_after: None,
            summary: String::new(),
            run: run.map(str::to_string),
            undoes: undoes.map(str::to_string),
            blob: None,
            span: None,
            batch: None,
            pending: false,
        }
    }

    fn ids(plan: Result<Vec<&LedgerEntry>, VaultError>) -> Vec<String> {
        plan.unwrap().into_iter().map(|e| e.id.clone()).collect()
    }

    #[test]
    fn latest_skips_undo_entries_and_undone_changes() {
        let entries = [
            entry("a", None, None),
            entry("b", None, None),
            entry("u", None, Some("b")),
        ];
        let undone: HashSet<&str> = ["b"].into();
        assert_eq!(ids(select(&entries, &undone, &UndoTarget::Latest)), ["a"]);
        let all: HashSet<&str> = ["a", "b"].into();
        assert!(matches!(
            select(&entries, &all, &UndoTarget::Latest),
            Err(VaultError::NothingToUndo)
        ));
    }

    #[test]
    fn a_run_is_planned_newest_first_without_undone_entries() {
        let entries = [
            entry("1", Some("r"), None),
            entry("2", Some("other"), None),
            entry("3", Some("r"), None),
            entry("4", Some("r"), None),
        ];
        let undone: HashSet<&str> = ["4"].into();
        assert_eq!(
            ids(select(&entries, &undone, &UndoTarget::Run("r".into()))),
            ["3", "1"]
        );
        let all: HashSet<&str> = ["1", "3", "4"].into();
        assert!(matches!(
            select(&entries, &all, &UndoTarget::Run("r".into())),
            Err(VaultError::RunAlreadyUndone { .. })
        ));
        assert!(matches!(
            select(&entries, &undone, &UndoTarget::Run("none".into())),
            Err(VaultError::RunNotFound { .. })
        ));
    }
}
