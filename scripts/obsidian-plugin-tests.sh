#!/usr/bin/env bash
# The Obsidian plugin (obsidian-plugin/): installs its pinned npm packages, type-checks and builds
# it (dist/main.js, manifest.json, styles.css, sizes printed), then runs its tests with Node's test
# runner against a real `easel serve` (EASEL_BIN, default the workspace's debug build).
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -z "${EASEL_BIN:-}" ]; then
  # The same build as `cargo nextest run --workspace` (see scripts/mcp-client-tests.sh).
  cargo test -q --workspace --no-run --locked
  TARGET_DIR="${CARGO_TARGET_DIR:-target}"
  case "$TARGET_DIR" in /*) ;; *) TARGET_DIR="$PWD/$TARGET_DIR" ;; esac
  export EASEL_BIN="$TARGET_DIR/debug/easel"
fi

cd obsidian-plugin
npm ci --no-audit --no-fund
npm run build
npm test
