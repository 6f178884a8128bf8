#!/usr/bin/env bash
# What a user with a fresh machine does: install easel from this checkout, fetch the offline
# model with the binary alone, and ask the local model. Everything goes into a temporary folder
# (install root, model cache, configuration), so nothing of this machine's own setup is used.
#
#   scripts/check-clean-install.sh            # --no-default-features: no llama.cpp, no cmake/clang
#   FEATURES=default scripts/check-clean-install.sh   # the full build with the embedded model
#   EASEL_BIN=build/debug/easel scripts/check-clean-install.sh   # skip the install step
#
# A build without the embedded model cannot run local:smollm2; there the last step checks that it
# says so with the hint to rebuild or to use a local server (exit code 2), instead of an answer.
# A full release build: 10+ minutes on 2 cores. Not part of `make test`.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
features="${FEATURES:-none}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
export XDG_CACHE_HOME="$tmp/cache" XDG_CONFIG_HOME="$tmp/config" EASEL_VAULT="$tmp/vault"
unset EASEL_LOCAL_MODEL EASEL_MODEL
mkdir -p "$EASEL_VAULT"

step() { printf '\n== %s\n' "$*"; }

if [ -n "${EASEL_BIN:-}" ]; then
  # Checks an easel built elsewhere (the fetch and ask steps only).
  step "using $EASEL_BIN (features: $features)"
  easel="$EASEL_BIN"
else
  step "cargo install --root $tmp/root (features: $features)"
  args=(install --path "$root/crates/easel-cli" --locked --root "$tmp/root")
  [ "$features" = "default" ] || args+=(--no-default-features)
  # Its own target folder unless the caller shares one: an install must not reuse a dev build.
  CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$tmp/target}" cargo "${args[@]}"
  easel="$tmp/root/bin/easel"
fi

step "easel llm fetch"
"$easel" llm fetch
model="$XDG_CACHE_HOME/easel/models/SmolLM2-135M-Instruct.Q4_1.gguf"
[ -s "$model" ] || { echo "FAIL: $model was not written" >&2; exit 1; }
"$easel" llm fetch | grep -q "already" || { echo "FAIL: a second fetch did not keep the file" >&2; exit 1; }

step "easel llm ask --model local:smollm2"
set +e
answer="$("$easel" llm ask --model local:smollm2 --temperature 0 --max-tokens 24 "What is 2+2?" 2>"$tmp/err")"
code=$?
set -e
cat "$tmp/err" >&2
if [ "$features" = "default" ]; then
  [ "$code" -eq 0 ] && [ -n "$answer" ] || { echo "FAIL: no answer (exit $code)" >&2; exit 1; }
  echo "answer: $answer"
else
  [ "$code" -eq 2 ] && grep -q "ollama:MODEL" "$tmp/err" || {
    echo "FAIL: expected the 'built without the embedded model' error (exit 2), got exit $code" >&2
    exit 1
  }
fi
step "OK"
