//! What Claude Code sends a hook on stdin, where the workspace is, and which lines an edit
//! touched.

use crate::Lang;
use serde::Deserialize;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// The fields of Claude Code's hook input that the hooks use; the others are ignored.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct HookInput {
    #[serde(default)]
    pub session_id: Option<String>,
    #[serde(default)]
    pub cwd: Option<PathBuf>,
    #[serde(default)]
    pub hook_event_name: Option<String>,
    /// SessionStart: `startup`, `resume`, `clear` or `compact`.
    #[serde(default)]
    pub source: Option<String>,
    #[serde(default)]
    pub tool_name: Option<String>,
    #[serde(default)]
    pub tool_input: Value,
    #[serde(default)]
    pub tool_response: Value,
}

impl HookInput {
    pub fn parse(bytes: &[u8]) -> Result<HookInput, String> {
        serde_json::from_slice(bytes)
            .map_err(|e| format!("the hook input is not the JSON Claude Code sends: {e}"))
    }

    /// The file or folder the tool works on, made absolute against `cwd`.
    pub fn target_path(&self) -> Option<PathBuf> {
        let p = ["file_path", "notebook_path", "path"]
            .iter()
            .find_map(|k| self.tool_input.get(*k)?.as_str())
            .filter(|s| !s.is_empty())?;
        let p = Path::new(p);
        Some(match (&self.cwd, p.is_absolute()) {
            (Some(cwd), false) => cwd.join(p),
            _ => p.to_path_buf(),
        })
    }
}

/// Files and folders that mark the root of a project.
const MARKERS: &[&str] = &[
    ".codecanvas",
    ".git",
    ".hg",
    "Cargo.toml",
    "package.json",
    "pyproject.toml",
    "setup.py",
    "setup.cfg",
    "go.mod",
    "pom.xml",
    "build.gradle",
    "build.gradle.kts",
    "Gemfile",
    "composer.json",
    "CMakeLists.txt",
    "tsconfig.json",
];

/// The workspace root once it is clear, never the home folder or `/`:
/// 1. the nearest folder above the tool's target that already has a board
///    (`.codecanvas/state.json`);
/// 2. else the session's working directory, when it holds a project marker and the target is
///    inside it: a package nested in the repository (an example with its own `pyproject.toml`,
///    a workspace member with its own `package.json`) belongs to the project the session works
///    on, which should get one board, not one per package touched;
/// 3. else the nearest folder above the target (or the working directory) with a marker;
/// 4. else the folder of a real source file the tool touched.
///
/// `None` while nothing says where the project is (a session that starts in an empty folder
/// before the repository is cloned).
pub fn workspace_root(cwd: Option<&Path>, target: Option<&Path>) -> Option<PathBuf> {
    let home = std::env::var_os("HOME").map(PathBuf::from);
    let too_wide = |p: &Path| p.parent().is_none() || home.as_deref() == Some(p);
    let marked = |dir: &Path| MARKERS.iter().any(|m| dir.join(m).exists());
    let start = match target {
        Some(t) if t.is_dir() => Some(t.to_path_buf()),
        Some(t) => t.parent().map(Path::to_path_buf),
        None => cwd.map(Path::to_path_buf),
    }?;
    let above = || start.ancestors().take_while(|d| !too_wide(d));
    if let Some(board) = board_above(&start) {
        return Some(board);
    }
    if let Some(cwd) = cwd.filter(|c| !too_wide(c) && start.starts_with(c) && marked(c)) {
        return Some(cwd.to_path_buf());
    }
    if let Some(dir) = above().find(|d| marked(d)) {
        return Some(dir.to_path_buf());
    }
    let file = target.filter(|t| t.is_file() && Lang::from_path(t).is_some())?;
    file.parent()
        .filter(|d| !too_wide(d))
        .map(Path::to_path_buf)
}

/// The repository whose board a command, an MCP call or a hook run from `dir` works on: the
/// nearest folder at or above `dir` (below the home folder) that has a board, else `dir`
/// itself. The first step of [`workspace_root`], and what the command line and the `canvas`
/// tool use for every action but `init`: `easel code status` in a subfolder finds the board
/// of its repository as the hooks do. The path is absolute.
pub fn repo_root(dir: &Path) -> PathBuf {
    let abs = std::fs::canonicalize(dir)
        .or_else(|_| std::path::absolute(dir))
        .unwrap_or_else(|_| dir.to_path_buf());
    board_above(&abs).unwrap_or(abs)
}

/// The nearest folder at or above `start`, below the home folder and `/`, with a board.
fn board_above(start: &Path) -> Option<PathBuf> {
    let home = std::env::var_os("HOME").map(PathBuf::from);
    let too_wide = |p: &Path| p.parent().is_none() || home.as_deref() == Some(p);
    start
        .ancestors()
        .take_while(|d| !too_wide(d))
        .find(|d| crate::board::exists(d))
        .map(Path::to_path_buf)
}

/// Lines (counted from 1, inclusive) an Edit, MultiEdit or Write changed in `text`, the file
/// as it is now. Claude Code's `structuredPatch` is exact when present; otherwise the new
/// strings are looked up in the file. Empty when nothing says (a new file: all of it).
pub fn edited_lines(input: &HookInput, text: &str) -> Vec<(u32, u32)> {
    let from_patch = patch_lines(&input.tool_response);
    if !from_patch.is_empty() {
        return from_patch;
    }
    let mut news: Vec<&str> = Vec::new();
    if let Some(s) = input.tool_input.get("new_string").and_then(Value::as_str) {
        news.push(s);
    }
    if let Some(edits) = input.tool_input.get("edits").and_then(Value::as_array) {
        news.extend(
            edits
                .iter()
                .filter_map(|e| e.get("new_string").and_then(Value::as_str)),
        );
    }
    news.into_iter()
        .filter(|s| !s.trim().is_empty())
        .filter_map(|s| {
            let at = text.find(s)?;
            let first = text[..at].matches('\n').count() as u32 + 1;
            let last = first + s.trim_end_matches('\n').matches('\n').count() as u32;
            Some((first, last))
        })
        .collect()
}

/// Changed lines from the hunks of a `structuredPatch`: `+` lines, and the place of `-` lines.
fn patch_lines(response: &Value) -> Vec<(u32, u32)> {
    let Some(hunks) = response.get("structuredPatch").and_then(Value::as_array) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for h in hunks {
        let Some(mut line) = h.get("newStart").and_then(Value::as_u64) else {
            continue;
        };
        let mut first: Option<u64> = None;
        let mut last = 0;
        for l in h
            .get("lines")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
        {
            match l.as_bytes().first() {
                Some(b'+') => {
                    first.get_or_insert(line);
                    last = line;
                    line += 1;
                }
                Some(b'-') => {
                    first.get_or_insert(line);
                    last = last.max(line);
                }
                _ => line += 1,
            }
        }
        if let Some(f) = first {
            out.push((f as u32, last.max(f) as u32));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use serde_json::json;

    #[test]
    fn roots_need_a_marker_or_a_real_source_file() {
        let dir = tempfile::tempdir().unwrap();
        let repo = dir.path().join("work/repo");
        std::fs::create_dir_all(repo.join("src")).unwrap();
        std::fs::write(repo.join("src/a.py"), "x = 1\n").unwrap();
        std::fs::write(dir.path().join("work/loose.py"), "x = 1\n").unwrap();
        // No marker anywhere: a real source file decides; a folder alone does not.
        assert_eq!(
            workspace_root(None, Some(&repo.join("src/a.py"))),
            Some(repo.join("src"))
        );
        assert_eq!(workspace_root(Some(&dir.path().join("work")), None), None);
        std::fs::create_dir(repo.join(".git")).unwrap();
        assert_eq!(
            workspace_root(None, Some(&repo.join("src/a.py"))),
            Some(repo.clone())
        );
        assert_eq!(
            workspace_root(Some(&repo.join("src")), None),
            Some(repo.clone())
        );
        assert_eq!(
            workspace_root(None, Some(&dir.path().join("work/loose.py"))),
            Some(dir.path().join("work"))
        );
    }

    #[test]
    fn a_package_nested_in_the_session_folder_belongs_to_its_project() {
        let dir = tempfile::tempdir().unwrap();
        let repo = dir.path().join("repo");
        let example = repo.join("examples/celery");
        std::fs::create_dir_all(example.join("src")).unwrap();
        std::fs::create_dir(repo.join(".git")).unwrap();
        std::fs::write(example.join("pyproject.toml"), "").unwrap();
        let file = example.join("src/app.py");
        std::fs::write(&file, "x = 1\n").unwrap();
        // The session works on the repository: its board, not the example's.
        assert_eq!(workspace_root(Some(&repo), Some(&file)), Some(repo.clone()));
        // Without a session folder that holds it, the nearest marker.
        assert_eq!(workspace_root(None, Some(&file)), Some(example.clone()));
        let elsewhere = dir.path().join("elsewhere");
        std::fs::create_dir(&elsewhere).unwrap();
        assert_eq!(
            workspace_root(Some(&elsewhere), Some(&file)),
            Some(example.clone())
        );
        // A board already made is where the file's project is, whatever the session folder.
        let board = example.join(crate::board::BOARD_DIR);
        std::fs::create_dir(&board).unwrap();
        std::fs::write(board.join(crate::board::STATE_FILE), "{}").unwrap();
        assert_eq!(workspace_root(Some(&repo), Some(&file)), Some(example));
    }

    #[test]
    fn edited_lines_come_from_the_patch_or_the_new_string() {
        let patch = json!({"structuredPatch": [{"oldStart": 3, "oldLines": 3, "newStart": 3, "newLines": 4,
            "lines": [" a", "-b", "+B", "+B2", " c"]}]});
        let input = HookInput {
            tool_response: patch,
            ..HookInput::default()
        };
        assert_eq!(edited_lines(&input, ""), vec![(4, 5)]);
        let input = HookInput {
            tool_input: json!({"file_path": "x.py", "old_string": "b", "new_string": "def g():\n    pass"}),
            ..HookInput::default()
        };
        assert_eq!(
            edited_lines(&input, "a\n\ndef g():\n    pass\n"),
            vec![(3, 4)]
        );
        let input = HookInput {
            tool_input: json!({"edits": [{"old_string": "q", "new_string": "z = 2"}]}),
            ..HookInput::default()
        };
        assert_eq!(edited_lines(&input, "y\nz = 2\n"), vec![(2, 2)]);
    }
}
