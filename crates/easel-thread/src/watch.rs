//! `easel thread watch`: answer every `/ask` typed into a canvas, in Obsidian or anywhere else.
//!
//! The watcher listens for file changes under the vault (debounced), rescans each changed
//! canvas for nodes that ask, takes each marker under the canvas's lock (so two watchers never
//! answer the same question) and hands the node to an answerer. Each canvas has at most one
//! answer in progress; a change that arrives meanwhile is rescanned once the answer is done.
//! Different canvases are answered in parallel.

use crate::ask::{ask_markers, take_ask};
use easel_vault::Vault;
use easel_vault::canvas::{Actor, CanvasOpError, load_canvas};
use foldhash::HashMap;
use notify_debouncer_mini::notify::RecursiveMode;
use notify_debouncer_mini::{DebounceEventResult, new_debouncer};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, mpsc};
use std::time::{Duration, Instant};

/// What to watch.
#[derive(Clone, Debug)]
pub struct WatchOptions {
    /// Vault-relative canvas paths (`.canvas` may be left out); empty means every canvas.
    pub canvases: Vec<String>,
    /// How long a file must be quiet before it is scanned.
    pub debounce: Duration,
}

impl Default for WatchOptions {
    fn default() -> WatchOptions {
        WatchOptions {
            canvases: Vec::new(),
            debounce: Duration::from_millis(300),
        }
    }
}

/// Why an answer failed, as the answerer reports it.
#[derive(Clone, Debug, PartialEq)]
pub struct AnswerFailure {
    pub error: String,
    pub hint: String,
}

/// What the watcher did, for the log.
#[derive(Clone, Debug, PartialEq)]
pub enum WatchEvent {
    /// Watching started on these canvases (an empty list means the whole vault).
    Watching { root: String, canvases: Vec<String> },
    /// A marker was taken; the answer is being written.
    Asked { canvas: String, node: String },
    /// The answer is complete in node `answer`.
    Answered {
        canvas: String,
        node: String,
        answer: String,
        elapsed: Duration,
    },
    /// The answer failed (the answerer has already written an error card if it could).
    Failed {
        canvas: String,
        node: String,
        failure: AnswerFailure,
    },
    /// A canvas could not be scanned (for example it is not valid JSON right now).
    Skipped { canvas: String, reason: String },
}

/// What can stop the watcher itself.
#[derive(Debug, thiserror::Error)]
pub enum WatchError {
    #[error("cannot watch {path}: {source}")]
    Notify {
        path: String,
        #[source]
        source: notify_debouncer_mini::notify::Error,
    },
    #[error(transparent)]
    Canvas(#[from] CanvasOpError),
}

impl WatchError {
    pub fn hint(&self) -> String {
        match self {
            WatchError::Notify { .. } => {
                "check that the vault folder exists and that the system's file watch limit (fs.inotify.max_user_watches) is not reached".into()
            }
            WatchError::Canvas(e) => e.hint(),
        }
    }

    /// The exit-code class: a file watch the system refuses is a failure of the machine, a
    /// canvas path the vault refuses is the caller's.
    pub fn kind(&self) -> easel_vault::ErrorKind {
        match self {
            WatchError::Notify { .. } => easel_vault::ErrorKind::Failure,
            WatchError::Canvas(e) => e.kind(),
        }
    }
}

/// Answers one question: given a canvas and the node that asked, writes the answer and
/// returns the answer node's id.
pub type Answerer<'a> = dyn Fn(&str, &str) -> Result<String, AnswerFailure> + Sync + 'a;

/// Watches until `stop` is set, answering every node that asks. Canvases that already ask
/// when the watcher starts are answered first. Returns once running answers are complete.
pub fn watch(
    vault: &Vault,
    actor: &Actor,
    options: &WatchOptions,
    answer: &Answerer<'_>,
    report: &(dyn Fn(WatchEvent) + Sync),
    stop: &AtomicBool,
) -> Result<(), WatchError> {
    let wanted: Vec<String> = options
        .canvases
        .iter()
        .map(|c| easel_vault::canvas::canvas_path(vault, c, false).map(|p| p.as_str().to_owned()))
        .collect::<Result<_, _>>()?;
    let (tx, rx) = mpsc::channel::<DebounceEventResult>();
    let mut debouncer =
        new_debouncer(options.debounce, tx).map_err(|source| WatchError::Notify {
            path: vault.root().display().to_string(),
            source,
        })?;
    debouncer
        .watcher()
        .watch(vault.root(), RecursiveMode::Recursive)
        .map_err(|source| WatchError::Notify {
            path: vault.root().display().to_string(),
            source,
        })?;
    report(WatchEvent::Watching {
        root: vault.root().display().to_string(),
        canvases: wanted.clone(),
    });

    let initial: Vec<String> = if wanted.is_empty() {
        easel_vault::canvas::list(vault, None, true)?
            .canvases
            .into_iter()
            .map(|c| c.path)
            .collect()
    } else {
        wanted.clone()
    };

    let scheduler = Scheduler::default();
    std::thread::scope(|scope| {
        let schedule = |canvas: String| {
            if scheduler.claim(&canvas) {
                let scheduler = &scheduler;
                scope.spawn(move || {
                    loop {
                        answer_canvas(vault, actor, &canvas, answer, report);
                        if !scheduler.again(&canvas) {
                            break;
                        }
                    }
                });
            }
        };
        for canvas in initial {
            schedule(canvas);
        }
        while !stop.load(Ordering::Relaxed) {
            let events = match rx.recv_timeout(Duration::from_millis(100)) {
                Ok(Ok(events)) => events,
                Ok(Err(e)) => {
                    tracing::warn!("file watcher: {e}");
                    continue;
                }
                Err(mpsc::RecvTimeoutError::Timeout) => continue,
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            };
            let mut seen = Vec::new();
            for event in events {
                let Some(rel) = canvas_of(vault.root(), &event.path) else {
                    continue;
                };
                if (!wanted.is_empty() && !wanted.contains(&rel)) || seen.contains(&rel) {
                    continue;
                }
                seen.push(rel);
            }
            for canvas in seen {
                schedule(canvas);
            }
        }
    });
    Ok(())
}

/// The vault-relative path of a changed canvas, or `None` for anything else (other files,
/// Easel's and Obsidian's own folders, temporary files of atomic writes, deleted files).
fn canvas_of(root: &Path, path: &Path) -> Option<String> {
    let rel = path.strip_prefix(root).ok()?;
    if rel.extension()? != "canvas" || !path.is_file() {
        return None;
    }
    let rel = rel.to_str()?.replace('\\', "/");
    let hidden = rel.split('/').any(|part| part.starts_with('.'));
    (!hidden).then_some(rel)
}

/// Answers every node of `canvas` that asks, one at a time.
fn answer_canvas(
    vault: &Vault,
    actor: &Actor,
    canvas: &str,
    answer: &Answerer<'_>,
    report: &(dyn Fn(WatchEvent) + Sync),
) {
    let markers = match load_canvas(vault, canvas) {
        Ok((_, c, _)) => ask_markers(&c),
        Err(e) => {
            report(WatchEvent::Skipped {
                canvas: canvas.to_owned(),
                reason: e.to_string(),
            });
            return;
        }
    };
    for node in markers {
        match take_ask(vault, actor, canvas, &node) {
            Ok(true) => {}
            Ok(false) => continue,
            Err(e) => {
                report(WatchEvent::Skipped {
                    canvas: canvas.to_owned(),
                    reason: e.to_string(),
                });
                return;
            }
        }
        report(WatchEvent::Asked {
            canvas: canvas.to_owned(),
            node: node.clone(),
        });
        let started = Instant::now();
        match answer(canvas, &node) {
            Ok(answer) => report(WatchEvent::Answered {
                canvas: canvas.to_owned(),
                node,
                answer,
                elapsed: started.elapsed(),
            }),
            Err(failure) => report(WatchEvent::Failed {
                canvas: canvas.to_owned(),
                node,
                failure,
            }),
        }
    }
}

/// Which canvases have a worker, and which changed again while their worker ran.
#[derive(Default)]
struct Scheduler {
    state: Mutex<HashMap<String, bool>>,
}

impl Scheduler {
    /// Whether the caller should start a worker for `canvas`; if one runs, it will rescan.
    fn claim(&self, canvas: &str) -> bool {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        match state.get_mut(canvas) {
            Some(dirty) => {
                *dirty = true;
                false
            }
            None => {
                state.insert(canvas.to_owned(), false);
                true
            }
        }
    }

    /// Called by a worker when it is done: whether to scan once more (and so keep the claim).
    fn again(&self, canvas: &str) -> bool {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        match state.get_mut(canvas) {
            Some(dirty) if *dirty => {
                *dirty = false;
                true
            }
            _ => {
                state.remove(canvas);
                false
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_busy_canvas_is_rescanned_once_not_twice_in_parallel() {
        let s = Scheduler::default();
        assert!(s.claim("a.canvas"));
        assert!(!s.claim("a.canvas"));
        assert!(!s.claim("a.canvas"));
        assert!(s.claim("b.canvas"));
        assert!(s.again("a.canvas"), "changes arrived while busy");
        assert!(!s.again("a.canvas"));
        assert!(s.claim("a.canvas"), "free again");
    }

    #[test]
    fn only_visible_canvases_count() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        for f in ["a.canvas", "notes.md", ".easel/x.canvas", "sub/.tmp.canvas"] {
            let p = root.join(f);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(&p, "{}").unwrap();
        }
        std::fs::create_dir_all(root.join("sub/b.canvas")).unwrap();
        assert_eq!(
            canvas_of(root, &root.join("a.canvas")).as_deref(),
            Some("a.canvas")
        );
        assert_eq!(canvas_of(root, &root.join("notes.md")), None);
        assert_eq!(canvas_of(root, &root.join(".easel/x.canvas")), None);
        assert_eq!(canvas_of(root, &root.join("sub/.tmp.canvas")), None);
        assert_eq!(
            canvas_of(root, &root.join("sub/b.canvas")),
            None,
            "a folder"
        );
        assert_eq!(canvas_of(root, &root.join("gone.canvas")), None, "deleted");
    }
}
