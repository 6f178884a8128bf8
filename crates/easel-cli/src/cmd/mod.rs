//! One module per area of the command line.

pub mod canvas;
pub mod code;
pub mod code_board;
pub mod hooks;
pub mod ledger;
pub mod llm;
pub mod mcp;
pub mod thread;

use crate::failure::UsageError;
use easel_vault::{Rev, Vault};
use std::path::Path;

/// Finds the vault as DESIGN.md section 3 says.
pub fn open_vault(explicit: Option<&Path>) -> anyhow::Result<Vault> {
    let cwd = std::env::current_dir().map_err(|e| {
        UsageError::invalid(
            format!("cannot read the current directory: {e}"),
            "cd into an existing folder, or pass --vault DIR",
        )
    })?;
    let env = std::env::var_os("EASEL_VAULT");
    Ok(Vault::discover(explicit, env.as_deref(), &cwd)?)
}

/// Parses `--rev`.
pub fn parse_rev(rev: Option<&str>) -> anyhow::Result<Option<Rev>> {
    rev.map(|r| {
        r.parse::<Rev>().map_err(|e| {
            UsageError::invalid(
                format!("--rev {r:?} is not a revision: {e}"),
                "use the 16 hex digits of 'rev' printed by 'easel canvas read'",
            )
            .into()
        })
    })
    .transpose()
}
