//! Tasks from an optional `tasks.yaml`, so an agent can pick one and keep it on the board.
//!
//! ```yaml
//! tasks:
//!   - id: fix-timeout
//!     title: Requests time out after a retry
//!     description: Session.send retries without resetting the deadline.
//!     symbols: [Session.send]
//! ```
//!
//! A bare list of tasks (without `tasks:`) is read too.

use super::error::BoardError;
use super::state::TaskRef;
use serde::Deserialize;
use std::path::{Path, PathBuf};

#[derive(Deserialize)]
#[serde(untagged)]
enum File {
    Wrapped { tasks: Vec<Task> },
    Bare(Vec<Task>),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Task {
    id: IdValue,
    title: String,
    #[serde(default)]
    description: Option<String>,
    #[serde(default)]
    symbols: Vec<String>,
}

/// Ids like `7` are numbers in YAML; they name the task all the same.
#[derive(Deserialize)]
#[serde(untagged)]
enum IdValue {
    Text(String),
    Number(i64),
}

impl IdValue {
    fn text(&self) -> String {
        match self {
            IdValue::Text(s) => s.clone(),
            IdValue::Number(n) => n.to_string(),
        }
    }
}

/// Where the tasks file is: `tasks.yaml` at the root, else `.codecanvas/tasks.yaml`.
pub fn tasks_path(root: &Path) -> Option<PathBuf> {
    [
        root.join("tasks.yaml"),
        root.join(".codecanvas").join("tasks.yaml"),
    ]
    .into_iter()
    .find(|p| p.is_file())
}

/// Every task in the file.
pub fn load_tasks(root: &Path) -> Result<(PathBuf, Vec<TaskRef>), BoardError> {
    let path = tasks_path(root).ok_or_else(|| BoardError::NoTasks {
        root: root.to_path_buf(),
    })?;
    let text = std::fs::read_to_string(&path).map_err(|e| BoardError::BadTasks {
        path: path.clone(),
        reason: e.to_string(),
    })?;
    let file: File = serde_saphyr::from_str(&text).map_err(|e| BoardError::BadTasks {
        path: path.clone(),
        reason: e.to_string(),
    })?;
    let tasks = match file {
        File::Wrapped { tasks } | File::Bare(tasks) => tasks,
    };
    let tasks = tasks
        .into_iter()
        .map(|t| TaskRef {
            id: t.id.text(),
            title: t.title,
            description: t.description,
            symbols: t.symbols,
        })
        .collect();
    Ok((path, tasks))
}

/// The task with this id (ids compare case-insensitively, as people type them).
pub fn find_task(root: &Path, id: &str) -> Result<TaskRef, BoardError> {
    let (path, tasks) = load_tasks(root)?;
    let want = id.trim();
    if let Some(t) = tasks.iter().find(|t| t.id == want) {
        return Ok(t.clone());
    }
    if let Some(t) = tasks.iter().find(|t| t.id.eq_ignore_ascii_case(want)) {
        return Ok(t.clone());
    }
    Err(BoardError::UnknownTask {
        id: want.to_string(),
        path,
        known: tasks.iter().map(|t| t.id.clone()).collect(),
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn reads_wrapped_and_bare_lists_with_numeric_ids() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("tasks.yaml"),
            "tasks:\n  - id: fix-1\n    title: Fix it\n    symbols: [Session.send]\n  - id: 7\n    title: Seven\n",
        )
        .unwrap();
        let t = find_task(dir.path(), "FIX-1").unwrap();
        assert_eq!(t.title, "Fix it");
        assert_eq!(t.symbols, vec!["Session.send"]);
        assert_eq!(find_task(dir.path(), "7").unwrap().title, "Seven");
        match find_task(dir.path(), "8").unwrap_err() {
            BoardError::UnknownTask { known, .. } => assert_eq!(known, vec!["fix-1", "7"]),
            other => panic!("{other:?}"),
        }
        std::fs::write(dir.path().join("tasks.yaml"), "- id: a\n  title: A\n").unwrap();
        assert_eq!(find_task(dir.path(), "a").unwrap().title, "A");
    }

    #[test]
    fn missing_and_broken_files_say_so() {
        let dir = tempfile::tempdir().unwrap();
        assert!(matches!(
            find_task(dir.path(), "x"),
            Err(BoardError::NoTasks { .. })
        ));
        std::fs::write(dir.path().join("tasks.yaml"), "tasks: [{title: no id}]\n").unwrap();
        assert!(matches!(
            find_task(dir.path(), "x"),
            Err(BoardError::BadTasks { .. })
        ));
    }
}
