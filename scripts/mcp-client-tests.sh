#!/usr/bin/env bash
# Drives `easel mcp` with the official MCP Python SDK (a client this project did not write),
# over stdio and streamable HTTP. Creates its virtualenv under target/ on first use.
set -euo pipefail
cd "$(dirname "$0")/.."

source scripts/lib/test-env.sh
VENV="${EASEL_MCP_VENV:-target/mcp-venv}"
ensure_venv "$VENV" "the MCP Python SDK" "mcp, pytest" 'mcp==2.3.0' 'pytest==9.2.0'
build_easel_for_tests
PY="$(cd "$VENV" && pwd)/bin/python"
cd crates/easel-mcp/tests/python
exec "$PY" -m pytest -q -p no:cacheprovider "$@"
