//! Vault IO for Easel: safe paths, atomic writes, revisions, locking, notes with frontmatter,
//! the change ledger and undo.
//!
//! Everything Easel changes in a vault goes through [`Vault`]:
//!
//! - paths are vault-relative and checked ([`Vault::resolve`], [`Vault::resolve_for_write`]):
//!   nothing outside the vault, nothing in `.obsidian/`, `.git/` or `.trash/`;
//! - every read returns the file's [`Rev`], and every write can insist on one ([`Expect`]), so
//!   an edit made meanwhile (in Obsidian, say) is never overwritten silently;
//! - writes are atomic, and read-modify-write ([`Vault::modify`]) runs under a per-file lock
//!   shared by all threads and processes;
//! - every change is appended to `.easel/ledger.jsonl` with the old bytes saved in
//!   `.easel/blobs/`, and [`Vault::undo`] puts them back when that is still safe;
//! - [`Note`] reads and edits Markdown frontmatter without disturbing anything it does not touch.
//!
//! Easel's own files in a vault:
//!
//! | path | what |
//! |---|---|
//! | `.easel/ledger.jsonl` | one JSON object per change: [`LedgerEntry`] |
//! | `.easel/blobs/<sha256>` | the bytes a file had before a change, once per distinct content |
//! | `.easel/locks/*.lock` | advisory lock files, one per changed path, plus `ledger.lock` and `undo.lock` |
//! | `.easel/tmp/` | new versions being written; a stopped writer's leftovers are removed by the next write |
//!
//! Every error converts to an exit code through [`VaultError::kind`] and carries a
//! [`VaultError::hint`], so the CLI, MCP and HTTP front ends report failures alike.
//!
//! ```
//! use easel_vault::{Change, Expect, Note, UndoTarget, Vault};
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let dir = tempfile::tempdir()?;
//! let vault = Vault::open(dir.path())?;
//! let change = Change::new("cli", "note.create", "start an idea");
//!
//! // Create a note; `Expect::Absent` refuses to overwrite an existing file.
//! let path = vault.resolve_for_write("notes/idea.md")?;
//! let created = vault.write(&path, b"---\nrole: user\n---\nWhat if?\n", Expect::Absent, &change)?;
//!
//! // Read it back with its revision, and change a property under the file's lock.
//! let (bytes, rev) = vault.read(&path)?;
//! assert_eq!(Some(rev), created.rev_after);
//! let edit = Change::new("cli", "note.set", "mark as draft").with_run("run-1");
//! let (_, role) = vault.modify(&path, Expect::Rev(rev), &edit, |old| {
//!     let mut note = Note::parse(&String::from_utf8_lossy(old.unwrap_or_default()));
//!     note.set("status", "draft".into())?;
//!     let role = note.get("role").cloned();
//!     // Any error type that a `VaultError` converts into works here.
//!     Ok::<_, Box<dyn std::error::Error>>((note.to_string().into_bytes(), role))
//! })?;
//! assert_eq!(role, Some("user".into()));
//!
//! // A stale revision is a conflict (exit code 4), and nothing is written.
//! let err = vault.write(&path, b"overwrite", Expect::Rev(rev), &change).unwrap_err();
//! assert_eq!(err.kind().exit_code(), 4);
//! println!("error: {err}\nhint: {}", err.hint());
//!
//! // Paths outside the vault are refused.
//! assert!(vault.resolve("../secrets.txt").is_err());
//! assert!(vault.resolve_for_write(".obsidian/app.json").is_err());
//!
//! // The ledger lists changes newest first; undo puts the previous bytes back.
//! assert_eq!(vault.ledger_list(None)?.len(), 2);
//! vault.undo(UndoTarget::Run("run-1".into()))?;
//! assert_eq!(vault.read(&path)?.1, rev);
//! # Ok(())
//! # }
//! ```

#![warn(missing_docs)]

mod atomic;
pub mod canvas;
mod commit;
mod draft;
mod error;
pub mod history;
mod ledger;
mod links;
mod list;
mod lock;
pub mod markdown;
mod note;
mod path;
mod purge;
mod rebase;
mod rev;
mod steps;
mod undo;
mod vault;

pub use atomic::write_atomic;
pub use error::{ErrorKind, VaultError};
pub use ledger::{Change, LedgerEntry, Written};
pub use list::FileInfo;
pub use note::{Frontmatter, FrontmatterError, Note};
pub use path::{VaultPath, normalize as normalize_path, printable};
pub use purge::Purged;
pub use rev::{ParseRevError, Rev};
pub use steps::Step;
pub use undo::{UndoTarget, Undone};
pub use vault::{Expect, Vault};
