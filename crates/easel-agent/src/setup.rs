//! A vault's runtime as it is on disk now: its agent files, its script and command tools and
//! their settings, over the operations the binary gives it.

use crate::error::AgentError;
use crate::load::load_agents;
use crate::model::Model;
use crate::runner::Runtime;
use crate::tools_dir::{ToolsConfig, load_tools};
use easel_ops::Registry;
use easel_vault::Vault;
use std::collections::HashSet;
use std::sync::Arc;

/// The runtime of `vault`, and the lines to show people about files that could not be used
/// (and why) or were read with a change (a tool name with no equivalent, a name defined twice).
pub fn load_runtime(
    vault: &Vault,
    registry: Registry,
    model: Arc<dyn Model>,
) -> Result<(Runtime, Vec<String>), AgentError> {
    let root = vault.root();
    let config = ToolsConfig::from_vault(root).map_err(|e| AgentError::BadAgentFile {
        path: e.path.clone(),
        reason: e.reason.clone(),
    })?;
    let mut notes = Vec::new();
    let tools = load_tools(root, &config);
    for (path, reason) in &tools.problems {
        notes.push(format!("{}: {reason}", rel(root, path)));
    }
    // An operation's name means the operation: a script tool may not take it.
    let mut kept = Vec::new();
    for t in tools.tools {
        if registry.contains(t.name()) {
            notes.push(format!(
                "the tool '{}' of .easel/tools/ has the name of an operation and is left out; rename it",
                t.name()
            ));
        } else {
            kept.push(t);
        }
    }
    let mut names: HashSet<String> = registry.infos().map(|i| i.name.clone()).collect();
    names.extend(kept.iter().map(|t| t.name().to_string()));
    let report = load_agents(root, &|n| names.contains(n));
    for p in &report.problems {
        notes.push(format!("{}: {}", p.path, p.reason));
    }
    notes.extend(report.warnings.iter().cloned());
    Ok((
        Runtime {
            vault: vault.clone(),
            registry,
            agents: report.agents,
            tools: kept,
            model,
            cancel: easel_ops::Cancel::new(),
        },
        notes,
    ))
}

fn rel(root: &std::path::Path, p: &std::path::Path) -> String {
    p.strip_prefix(root).unwrap_or(p).display().to_string()
}
