//! One module per area of the command line.

pub mod agent;
pub mod agent_run;
pub mod canvas;
pub mod code;
pub mod code_board;
pub mod diagram;
pub mod doc;
pub mod hooks;
pub mod ledger;
pub mod llm;
pub mod mcp;
pub mod op;
pub mod serve;
pub mod thread;

use crate::failure::UsageError;
use easel_vault::Vault;
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
