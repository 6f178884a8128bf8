//! Vault changes from a file watcher, as `{"type":"changed","path","rev"}` events: edits made
//! in Obsidian, by an agent or by any other process reach every open page.

use crate::error::ServerError;
use crate::events::Hub;
use easel_vault::{Rev, Vault};
use notify_debouncer_mini::notify::event::{AccessKind, AccessMode};
use notify_debouncer_mini::notify::{
    self, Event, EventKind, RecommendedWatcher, RecursiveMode, Watcher as _,
};
use serde_json::json;
use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Short enough for "a change on disk shown in under 200 ms", long enough to see an atomic
/// write (temporary file, rename) as one change.
const QUIET: Duration = Duration::from_millis(30);
/// The longest a change waits for the vault to be quiet.
const MAX_WAIT: Duration = Duration::from_millis(100);

/// Which vault files pages care about: not Easel's own bookkeeping (saved versions, the ledger,
/// locks), not other tools' folders, not temporary files.
pub(crate) fn watched(rel: &str) -> bool {
    if rel.is_empty() {
        return false;
    }
    if let Some(rest) = rel.strip_prefix(".easel/") {
        // Agents, script tools and sessions have views of their own.
        return ["agents/", "tools/", "sessions/", "templates/"]
            .iter()
            .any(|d| rest.starts_with(d))
            && !rest.contains(".easel-tmp-");
    }
    // A code board's state and views (not its parse cache) are shown by the code board page.
    if let Some((_, rest)) = rel.split_once(".codecanvas/") {
        return !rest.starts_with("cache/")
            && !rest.starts_with(".easel/")
            && !rest.contains(".easel-tmp-");
    }
    !rel.split('/').any(|seg| seg.starts_with('.')) && !rel.ends_with('~')
}

/// Whether an event can mean new content: reads (every open, including our own) cannot.
fn changes_content(kind: &EventKind) -> bool {
    match kind {
        EventKind::Access(AccessKind::Close(AccessMode::Write)) => true,
        EventKind::Access(_) => false,
        _ => true,
    }
}

fn relative(root: &Path, path: &Path) -> Option<String> {
    let rel = path.strip_prefix(root).ok()?;
    let parts: Option<Vec<&str>> = rel.components().map(|c| c.as_os_str().to_str()).collect();
    Some(parts?.join("/"))
}

/// The running watcher; dropping it stops the watching.
pub(crate) struct Watching {
    _watcher: RecommendedWatcher,
}

/// Watches the vault until the returned value is dropped.
pub(crate) fn start(vault: &Vault, hub: Hub) -> Result<Watching, ServerError> {
    // The canonical root: events name real paths, and the vault may be opened through a symlink.
    let root = std::fs::canonicalize(vault.root()).unwrap_or_else(|_| vault.root().to_path_buf());
    let (tx, rx) = mpsc::channel::<PathBuf>();
    let mut watcher = notify::recommended_watcher(move |res: notify::Result<Event>| match res {
        Ok(ev) if changes_content(&ev.kind) => {
            for p in ev.paths {
                let _ = tx.send(p);
            }
        }
        Ok(_) => {}
        Err(e) => tracing::warn!(error = %e, "file watcher error"),
    })
    .map_err(|e| ServerError::Watch(e.to_string()))?;
    watcher
        .watch(&root, RecursiveMode::Recursive)
        .map_err(|e| ServerError::Watch(e.to_string()))?;
    std::thread::Builder::new()
        .name("easel-watch".into())
        .spawn(move || publish_changes(&root, &rx, &hub))
        .map_err(ServerError::Io)?;
    Ok(Watching { _watcher: watcher })
}

/// The files under `dir`, up to a bound (a folder moved into the vault may be large).
fn files_in(dir: &Path) -> Vec<PathBuf> {
    const MAX: usize = 2000;
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.push(p);
            }
            if out.len() >= MAX {
                return out;
            }
        }
    }
    out
}

/// Gathers paths until the vault is quiet for a moment, then publishes each file whose content
/// changed; ends when the watcher is dropped.
fn publish_changes(root: &Path, rx: &mpsc::Receiver<PathBuf>, hub: &Hub) {
    let mut last: HashMap<String, Option<Rev>> = HashMap::new();
    while let Ok(first) = rx.recv() {
        let mut batch = BTreeSet::from([first]);
        let started = Instant::now();
        // A file rewritten without pause still shows up, at most every MAX_WAIT.
        while started.elapsed() < MAX_WAIT
            && let Ok(p) = rx.recv_timeout(QUIET)
        {
            batch.insert(p);
        }
        // A folder made with files in it at once: the files may be written before the watch
        // on the new folder is in place, so they are looked for.
        let folders: Vec<PathBuf> = batch.iter().filter(|p| p.is_dir()).cloned().collect();
        for dir in folders {
            batch.extend(files_in(&dir));
        }
        for path in batch {
            let Some(rel) = relative(root, &path) else {
                continue;
            };
            if !watched(&rel) || path.is_dir() {
                continue;
            }
            let rev = std::fs::read(&path).ok().map(|b| Rev::of(&b));
            if last.get(&rel) == Some(&rev) {
                continue;
            }
            last.insert(rel.clone(), rev);
            hub.publish(json!({"type": "changed", "path": rel, "rev": rev.map(|r| r.to_string())}));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_hear_of_vault_files_and_agent_files_only() {
        assert!(watched("Board.canvas"));
        assert!(watched("notes/a.md"));
        assert!(watched(".easel/agents/writer.md"));
        assert!(!watched(".easel/ledger.jsonl"));
        assert!(!watched(".easel/blobs/ab/cdef"));
        assert!(!watched(".obsidian/workspace.json"));
        assert!(!watched("notes/.a.md.easel-tmp-1-ff"));
        assert!(!watched(".git/index"));
        assert!(!watched("a.md~"));
        assert!(watched(".codecanvas/state.json"));
        assert!(watched("repo/.codecanvas/views/architecture.svg"));
        assert!(!watched(".codecanvas/cache/graph.bin"));
        assert!(!watched(".codecanvas/.easel/ledger.jsonl"));
    }
}
