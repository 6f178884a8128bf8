//! The evidence board: what a coding agent found, believes and decided while changing code,
//! kept in `.codecanvas/state.json` so it survives restarts and context compaction.
//!
//! Every action returns an [`Outcome`] in three parts, the same for the command line, the MCP
//! `canvas` tool and the hooks: the result with its numbers, the one-line board summary
//! (`Board: 2 evidence, 1 claims, 0 decisions | Focus: send | Progress: 1/4 addressed`), and a
//! `Next:` hint worked out from the state, so that a small model always knows what to do.
//!
//! ```
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use easel_code::board::{self, Action, BoardOptions, Front};
//! let dir = tempfile::tempdir()?;
//! std::fs::write(dir.path().join("app.py"), "def helper():\n    pass\n\ndef main():\n    helper()\n")?;
//! let opts = BoardOptions { images: false, ..BoardOptions::new(Front::Mcp, "doc") };
//! board::run(dir.path(), Action::Init, &opts)?;
//! let out = board::run(dir.path(), Action::Impact { symbol: "helper".into(), depth: 2, max_nodes: 20 }, &opts)?;
//! assert!(out.result.starts_with("Created E2 (impact \"app.helper\"): 1 callers, 0 callees."));
//! assert_eq!(out.board, "Board: 2 evidence, 0 claims, 0 decisions | Focus: app.helper | Progress: 0/2 addressed");
//! assert!(out.next.starts_with("Next: record your analysis with canvas(action=\"claim\""));
//! # Ok(()) }
//! ```

mod actions;
mod error;
mod render;
mod state;
mod tasks;
mod text;

pub use actions::{
    Action, BoardOptions, Image, Outcome, Progress, init_repo, record_architecture, record_impact,
    run,
};
pub use error::BoardError;
pub use state::{
    Affected, Claim, ClaimKind, Decision, DecisionKind, Evidence, EvidenceKind, Focus, STATE_FILE,
    State, TaskRef,
};
pub use tasks::{find_task, load_tasks, tasks_path};
pub use text::{Front, board_line, call, next_hint};

use easel_vault::{Change, Expect, Vault, VaultPath};
use std::path::{Path, PathBuf};

/// The folder of the board, the cache and the views, relative to the repository root.
pub const BOARD_DIR: &str = ".codecanvas";

/// Whether `root` has a board.
pub fn exists(root: &Path) -> bool {
    root.join(BOARD_DIR).join(STATE_FILE).is_file()
}

/// Reads the board of `root` without taking any lock (writes are atomic, so a reader sees
/// one whole version); `None` when there is none.
pub fn load(root: &Path) -> Result<Option<State>, BoardError> {
    let path = root.join(BOARD_DIR).join(STATE_FILE);
    match std::fs::read(&path) {
        Ok(bytes) => State::parse(&bytes, &path).map(Some),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(BoardError::Code(crate::CodeError::Io { path, source: e })),
    }
}

/// The board file of one repository, changed only under its lock.
pub(crate) struct Store {
    root: PathBuf,
    vault: Vault,
    path: VaultPath,
}

impl Store {
    /// Opens (creating `.codecanvas/` when `create`) the board of `root`.
    pub(crate) fn open(root: &Path, create: bool) -> Result<Store, BoardError> {
        if !root.is_dir() {
            return Err(crate::CodeError::Graph(crate::GraphError::NotADirectory {
                path: root.to_path_buf(),
            })
            .into());
        }
        let dir = root.join(BOARD_DIR);
        if !create && !dir.join(STATE_FILE).is_file() {
            return Err(BoardError::NotInitialized {
                root: root.to_path_buf(),
            });
        }
        std::fs::create_dir_all(&dir).map_err(|e| crate::CodeError::Io {
            path: dir.clone(),
            source: e,
        })?;
        let vault = Vault::open(&dir)?;
        let path = vault.resolve_for_write(STATE_FILE)?;
        Ok(Store {
            root: root.to_path_buf(),
            vault,
            path,
        })
    }

    pub(crate) fn root(&self) -> &Path {
        &self.root
    }

    /// Read-modify-write under the board's lock: `f` sees the current state (a fresh one when
    /// there is none) and the result is written atomically and recorded in the ledger.
    pub(crate) fn change<T>(
        &self,
        actor: &str,
        op: &str,
        summary: &str,
        f: impl FnOnce(&mut State) -> Result<T, BoardError>,
    ) -> Result<(State, T), BoardError> {
        let abs = self.path.abs().to_path_buf();
        let change = Change::new(actor, format!("board.{op}"), summary);
        let (_, out) = self.vault.modify(&self.path, Expect::Any, &change, |old| {
            let mut state = match old {
                Some(bytes) => State::parse(bytes, &abs)?,
                None => State::default(),
            };
            let value = f(&mut state)?;
            let bytes = state.to_bytes(&abs)?;
            Ok::<_, BoardError>((bytes, (state, value)))
        })?;
        Ok(out)
    }

    /// The current state, read without a lock.
    pub(crate) fn read(&self) -> Result<State, BoardError> {
        load(&self.root)?.ok_or_else(|| BoardError::NotInitialized {
            root: self.root.clone(),
        })
    }
}
