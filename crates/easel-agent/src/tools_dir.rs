//! The vault's own tools: `.easel/tools/*.js` (script tools) and `.easel/tools/*.toml`
//! (external commands), with their settings from `[tools.<name>]` in `.easel/config.toml`.
//!
//! ```
//! use easel_agent::{ToolsConfig, load_tools};
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let vault = tempfile::tempdir()?;
//! std::fs::create_dir_all(vault.path().join(".easel/tools"))?;
//! std::fs::write(
//!     vault.path().join(".easel/tools/word_count.js"),
//!     "module.exports = { name: 'word_count', description: 'Count words',
//!        parameters: { text: { type: 'string' } },
//!        execute: ({ text }) => text.split(/\\s+/).filter(Boolean).length };",
//! )?;
//! std::fs::write(vault.path().join(".easel/tools/broken.js"), "module.exports = {")?;
//!
//! let config = ToolsConfig::from_vault(vault.path())?;
//! let report = load_tools(vault.path(), &config);
//! assert_eq!(report.tools[0].name(), "word_count");
//! assert!(report.problems[0].1.contains("syntax error"));
//! # Ok(())
//! # }
//! ```

use crate::command::CommandTool;
use crate::script::{Limits, ScriptTool};
use crate::tool::AgentTool;
use easel_core::ErrorKind;
use serde::Deserialize;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

/// The tools found in a vault, and the files that could not be used.
pub struct ToolsReport {
    /// The usable tools, ordered by file name.
    pub tools: Vec<Arc<dyn AgentTool>>,
    /// Each unusable file with the reason.
    pub problems: Vec<(PathBuf, String)>,
}

impl std::fmt::Debug for ToolsReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ToolsReport")
            .field(
                "tools",
                &self.tools.iter().map(|t| t.name()).collect::<Vec<_>>(),
            )
            .field("problems", &self.problems)
            .finish()
    }
}

/// The `[tools]` table of `.easel/config.toml`: settings per tool name.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
pub struct ToolsConfig {
    #[serde(default)]
    pub tools: BTreeMap<String, ToolSettings>,
}

/// `[tools.<name>]`: what one tool may do.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ToolSettings {
    /// Hosts `ctx.fetch` may reach (`"api.example.com"`, or `"127.0.0.1:8080"` for one port).
    /// A script with any is external.
    #[serde(default)]
    pub allow_net: Vec<String>,
    /// A script's deadline in seconds (default 2).
    pub timeout_secs: Option<f64>,
    /// A script's memory limit in MiB (default 32).
    pub memory_mib: Option<u64>,
}

impl ToolSettings {
    /// The limits a script with these settings runs under.
    pub fn limits(&self) -> Limits {
        let mut limits = Limits::default();
        if let Some(secs) = self.timeout_secs.filter(|s| s.is_finite() && *s > 0.0) {
            limits.deadline = Duration::from_secs_f64(secs.min(3600.0));
        }
        if let Some(mib) = self.memory_mib.filter(|m| *m > 0) {
            limits.memory = usize::try_from(mib.min(4096) * 1024 * 1024).unwrap_or(limits.memory);
        }
        limits
    }
}

/// `.easel/config.toml` could not be read for its `[tools]` table.
#[derive(thiserror::Error, Debug)]
#[error("cannot read the [tools] settings of '{}': {reason}", path.display())]
pub struct ToolsConfigError {
    pub path: PathBuf,
    pub reason: String,
}

impl ToolsConfigError {
    /// The exit-code class.
    pub fn kind(&self) -> ErrorKind {
        ErrorKind::Invalid
    }

    /// What to do next.
    pub fn hint(&self) -> String {
        "fix the file: each [tools.<name>] table may hold allow_net = [\"host\"], timeout_secs and memory_mib".into()
    }
}

impl ToolsConfig {
    /// The `[tools]` table of `<vault>/.easel/config.toml`; empty when the file is missing.
    pub fn from_vault(vault_root: &Path) -> Result<ToolsConfig, ToolsConfigError> {
        let path = vault_root.join(".easel").join("config.toml");
        match std::fs::read_to_string(&path) {
            Ok(text) => {
                ToolsConfig::parse(&text).map_err(|reason| ToolsConfigError { path, reason })
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(ToolsConfig::default()),
            Err(e) => Err(ToolsConfigError {
                path,
                reason: e.to_string(),
            }),
        }
    }

    /// The `[tools]` table of a configuration file's text; other tables are left to their
    /// readers.
    pub fn parse(text: &str) -> Result<ToolsConfig, String> {
        let table: toml::Table = toml::from_str(text).map_err(|e| e.message().to_string())?;
        match table.get("tools") {
            None => Ok(ToolsConfig::default()),
            Some(tools) => {
                let tools: BTreeMap<String, ToolSettings> = tools
                    .clone()
                    .try_into()
                    .map_err(|e: toml::de::Error| format!("[tools]: {}", e.message()))?;
                Ok(ToolsConfig { tools })
            }
        }
    }

    /// The settings of one tool (the defaults when it has none).
    pub fn settings(&self, name: &str) -> ToolSettings {
        self.tools.get(name).cloned().unwrap_or_default()
    }
}

/// Loads every tool of `<vault_root>/.easel/tools/`. A file that cannot be used is a problem
/// with its path and the reason; the others still load. Files other than `.js` and `.toml` are
/// left alone, and a name defined twice keeps its first file (by file name).
pub fn load_tools(vault_root: &Path, config: &ToolsConfig) -> ToolsReport {
    let dir = vault_root.join(".easel").join("tools");
    let mut report = ToolsReport {
        tools: Vec::new(),
        problems: Vec::new(),
    };
    let entries = match std::fs::read_dir(&dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return report,
        Err(e) => {
            report
                .problems
                .push((dir, format!("cannot list the folder: {e}")));
            return report;
        }
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file())
        .filter(|p| matches!(p.extension().and_then(|e| e.to_str()), Some("js" | "toml")))
        .collect();
    files.sort();
    let mut seen: HashMap<String, PathBuf> = HashMap::new();
    for path in files {
        let loaded: Result<Arc<dyn AgentTool>, String> =
            match path.extension().and_then(|e| e.to_str()) {
                Some("js") => {
                    ScriptTool::load(&path, config).map(|t| Arc::new(t) as Arc<dyn AgentTool>)
                }
                _ => CommandTool::load(&path).map(|t| Arc::new(t) as Arc<dyn AgentTool>),
            };
        match loaded {
            Ok(tool) => {
                if let Some(first) = seen.get(tool.name()) {
                    let reason = format!(
                        "the tool name '{}' is already defined by {}",
                        tool.name(),
                        first.display()
                    );
                    tracing::warn!(path = %path.display(), %reason, "tool file left out");
                    report.problems.push((path, reason));
                    continue;
                }
                seen.insert(tool.name().to_string(), path);
                report.tools.push(tool);
            }
            Err(reason) => {
                tracing::warn!(path = %path.display(), %reason, "tool file left out");
                report.problems.push((path, reason));
            }
        }
    }
    report
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_are_read_from_the_tools_table() {
        let config = ToolsConfig::parse(
            "default_model = 'local:smollm2'\n[tools.weather]\nallow_net = ['api.example.com']\ntimeout_secs = 5\n",
        )
        .unwrap();
        let weather = config.settings("weather");
        assert_eq!(weather.allow_net, vec!["api.example.com"]);
        assert_eq!(weather.limits().deadline, Duration::from_secs(5));
        assert_eq!(config.settings("other"), ToolSettings::default());
    }

    #[test]
    fn a_misspelt_setting_is_an_error() {
        let err = ToolsConfig::parse("[tools.weather]\nallow_hosts = ['x']\n").unwrap_err();
        assert!(err.contains("allow_hosts"), "{err}");
    }
}
