#!/usr/bin/env bash
# The JavaScript/TypeScript call-graph suites (crates/easel-codegraph/tests/jscg-blind*): runs
# every case under Node with the dynamic oracle (tests/jscg/trace.mjs, its pinned TypeScript
# installed with npm ci) and fails when a case's expected graph is not what running it records.
set -euo pipefail
cd "$(dirname "$0")/../crates/easel-codegraph/tests/jscg"

major=$(node -p 'process.versions.node.split(".")[0]')
if [ "$major" -lt 18 ]; then
  echo "error: the call-graph oracle needs Node 18 or newer, found $(node --version)" >&2
  echo "hint: install a newer Node (Debian bookworm's nodejs is 18), then run make jscg again" >&2
  exit 1
fi
npm ci --no-audit --no-fund
# The oracle's own tests: graphs written by hand from the naming and caller rules.
node trace.mjs --all selftest --check
for suite in ../jscg-blind*/; do
  node trace.mjs --all "$suite" --check
done
