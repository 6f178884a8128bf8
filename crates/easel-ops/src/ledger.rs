//! `ledger_list` and `ledger_undo`.

use easel_vault::history::{self, LedgerListResult, UndoResult};
use schemars::JsonSchema;
use serde::Deserialize;

use crate::ctx::Ctx;
use crate::effect::Effect;
use crate::error::OpError;
use crate::op::Op;

/// `ledger_list`'s input.
#[derive(Clone, Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LedgerListInput {
    /// How many entries (default 20).
    #[serde(default)]
    #[schemars(range(min = 1))]
    pub limit: Option<u32>,
}

/// Recent changes, newest first.
#[derive(Clone, Copy, Debug, Default)]
pub struct LedgerList;

impl Op for LedgerList {
    type Input = LedgerListInput;
    type Output = LedgerListResult;
    const NAME: &'static str = "ledger_list";
    const TITLE: &'static str = "List recent changes";
    const DESCRIPTION: &'static str = "Show recent changes made through Easel (by you, the command line, other agents), newest first, with their ids. Use it to see what changed, or to find the id for ledger_undo.\n\
Example: {\"limit\": 5}";
    const EFFECT: Effect = Effect::Read;

    fn run(&self, ctx: &Ctx, input: LedgerListInput) -> Result<LedgerListResult, OpError> {
        let limit = match input.limit {
            Some(0) => {
                return Err(OpError::invalid(
                    "'limit' must be a whole number of at least 1",
                    "pass \"limit\": 20, or leave it out",
                ));
            }
            Some(n) => n as usize,
            None => 20,
        };
        Ok(history::ledger_list(ctx.vault(), limit)?)
    }
}

/// `ledger_undo`'s input.
#[derive(Clone, Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UndoInput {
    /// The ledger id of the change to undo (default: the latest change).
    #[serde(default)]
    pub id: Option<String>,
    /// Undo every change of this run.
    #[serde(default)]
    pub run: Option<String>,
}

/// Undo a change or a run.
#[derive(Clone, Copy, Debug, Default)]
pub struct LedgerUndo;

impl Op for LedgerUndo {
    type Input = UndoInput;
    type Output = UndoResult;
    const NAME: &'static str = "ledger_undo";
    const TITLE: &'static str = "Undo a change";
    const DESCRIPTION: &'static str = "Undo a change: the latest one by default, the one with 'id' from ledger_list, or every change of a 'run'. Refuses when the file changed again since, so it never destroys newer work.\n\
Example: {} undoes the latest change; {\"id\": \"019a4f2c3b1d8e7f6a5b\"} a given one.";
    const EFFECT: Effect = Effect::Destructive;

    fn run(&self, ctx: &Ctx, input: UndoInput) -> Result<UndoResult, OpError> {
        Ok(history::undo(
            ctx.vault(),
            input.id,
            input.run,
            ctx.actor().as_str(),
        )?)
    }
}
