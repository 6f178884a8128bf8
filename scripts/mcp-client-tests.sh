#!/usr/bin/env bash
# Drives `easel mcp` with the official MCP Python SDK (a client this project did not write),
# over stdio and streamable HTTP. Creates its virtualenv under target/ on first use.
set -euo pipefail
cd "$(dirname "$0")/.."

VENV="${EASEL_MCP_VENV:-target/mcp-venv}"
if [ ! -x "$VENV/bin/python" ] || ! "$VENV/bin/python" -c 'import mcp, pytest' >/dev/null 2>&1; then
  echo "creating $VENV with the MCP Python SDK"
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install -q --disable-pip-version-check 'mcp==2.3.0' 'pytest==9.2.0'
fi

# The same build as `cargo nextest run --workspace` (which `make test` has just run, so this is
# a no-op there): any other selection of packages or profile resolves the build scripts'
# dependencies differently and compiles llama.cpp's C++ a second time (about 10 minutes on 2
# cores). Integration tests need the `easel` binary, so this build puts it in target/debug.
cargo test -q --workspace --no-run --locked
TARGET_DIR="${CARGO_TARGET_DIR:-target}"
case "$TARGET_DIR" in /*) ;; *) TARGET_DIR="$PWD/$TARGET_DIR" ;; esac
export EASEL_BIN="$TARGET_DIR/debug/easel"
PY="$(cd "$VENV" && pwd)/bin/python"
cd crates/easel-mcp/tests/python
exec "$PY" -m pytest -q -p no:cacheprovider "$@"
