//! The operation catalogue: every capability of Easel as an operation with one name, one typed
//! input (and its JSON Schema), one JSON output, one effect and one set of errors, whichever
//! front end calls it (the shell, MCP, HTTP, an agent).
//!
//! - [`Op`]: a typed operation. [`DynOp`]: the same with JSON in and out, what a [`Registry`]
//!   holds.
//! - [`Ctx`]: the vault, the actor, the run, a cancellation flag and an event sink.
//! - [`OpError`]: an [`ErrorKind`] and a hint that names operations in backticks, which each
//!   front end spells its own way (`easel_core::spell_hint`).
//! - This crate's own operations: the canvas and ledger operations, and the note and vault
//!   operations agents use ([`register`] adds them all).
//!
//! ```
//! use easel_ops::{Ctx, Registry};
//! use easel_core::Actor;
//! use serde_json::json;
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let dir = tempfile::tempdir()?;
//! let vault = easel_vault::Vault::open(dir.path())?;
//! let mut registry = Registry::new();
//! easel_ops::register(&mut registry);
//!
//! let ctx = Ctx::new(vault, Actor::cli());
//! let args = json!({"path": "Ideas", "nodes": [{"type": "text", "text": "Hello"}]});
//! let out = registry.call(&ctx, "canvas_write", args)?;
//! assert!(out.json.contains("\"nodeCount\":1"));
//!
//! // Small models' mistakes are forgiven where the meaning is clear ("10" for 10) ...
//! registry.call(&ctx, "canvas_add_node", json!({"path": "Ideas", "type": "text", "text": "x", "x": "10", "y": 0}))?;
//! // ... and explained where it is not.
//! let err = registry.call(&ctx, "canvas_read", json!({"path": "Ideas", "colour": "1"})).unwrap_err();
//! assert!(err.message.contains("unknown argument 'colour'"));
//! assert!(err.hint.contains("path (string, required)"));
//! # Ok(())
//! # }
//! ```

#![warn(missing_docs)]

mod args;
pub mod batch;
pub mod canvas;
mod ctx;
mod effect;
mod error;
pub mod import;
pub mod layout;
pub mod ledger;
pub mod note;
mod op;
mod registry;
pub mod template;
pub mod vault;

pub use ctx::{Cancel, Ctx, EventSink, OpEvent};
pub use easel_core::{Actor, Diagnostic, ErrorKind, RunId};
pub use effect::Effect;
pub use error::OpError;
pub use op::{DynOp, Op, OpImage, OpInfo, OpOutput, Typed, input_schema};
pub use registry::Registry;

/// Adds this crate's operations to `registry`, in the order clients list them.
pub fn register(registry: &mut Registry) {
    registry
        .register(canvas::CanvasList)
        .register(canvas::CanvasRead::default())
        .register(canvas::CanvasWrite)
        .register(canvas::CanvasUpdate)
        .register(canvas::CanvasAddNode)
        .register(canvas::CanvasUpdateNode)
        .register(canvas::CanvasRemoveNode)
        .register(canvas::CanvasAddEdge)
        .register(canvas::CanvasUpdateEdge)
        .register(canvas::CanvasRemoveEdge)
        .register(canvas::CanvasFind)
        .register(canvas::CanvasValidate)
        .register(canvas::CanvasFmt)
        .register(layout::CanvasLayout)
        .register(import::CanvasImport)
        .register(batch::CanvasBatch)
        .register(template::CanvasNew)
        .register(ledger::LedgerList)
        .register(ledger::LedgerUndo)
        .register(vault::VaultList)
        .register(vault::VaultSearch)
        .register(vault::VaultQuery)
        .register(note::NoteRead)
        .register(note::NoteWrite)
        .register(note::NoteAppend)
        .register(note::NoteEdit);
}
