//! The Claude Code plugin of the repository (`claude-plugin/`, listed by
//! `.claude-plugin/marketplace.json`) registers what `easel mcp` and `easel code hooks install`
//! set up by hand: the same server command and exactly the hooks the binary installs.
#![allow(clippy::unwrap_used)]

use serde_json::{Value, json};
use std::path::{Path, PathBuf};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn read(rel: &str) -> Value {
    let p = repo().join(rel);
    let text = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

#[test]
fn the_marketplace_lists_the_plugin_at_its_version() {
    let market = read(".claude-plugin/marketplace.json");
    let entry = &market["plugins"][0];
    assert_eq!(entry["name"], "easel");
    let source = entry["source"].as_str().unwrap();
    let manifest = read(&format!("{source}/.claude-plugin/plugin.json"));
    assert_eq!(manifest["name"], "easel");
    assert_eq!(manifest["version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(entry["version"], env!("CARGO_PKG_VERSION"));
    for key in ["mcpServers", "hooks"] {
        let rel = manifest[key].as_str().unwrap();
        assert!(
            repo().join(source).join(rel).is_file(),
            "{key} points at {rel}"
        );
    }
}

#[test]
fn the_plugin_starts_easel_mcp() {
    let mcp = read("claude-plugin/.mcp.json");
    assert_eq!(
        mcp["mcpServers"]["easel"],
        json!({"command": "easel", "args": ["mcp"]})
    );
}

#[test]
fn the_plugin_hooks_are_the_ones_the_binary_installs() {
    assert_eq!(
        read("claude-plugin/hooks/hooks.json"),
        json!({"hooks": easel_code::hooks::hooks_settings("easel")}),
        "regenerate with: easel --json code hooks install --command easel --project TMP"
    );
}
