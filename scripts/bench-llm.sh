#!/usr/bin/env bash
# Compares the embedded model (easel-llm's local:smollm2) with llama.cpp's own `llama-bench`
# on the same GGUF file, the same llama.cpp sources and the same compile flags.
#
# llama-cpp-sys-2 vendors llama.cpp without its tools/, so the llama-bench sources come from
# the llama.cpp tree that llama-cpp-python's sdist carries (PyPI is reachable here; GitHub is
# not). They are built against the vendored library, so both sides run identical ggml code.
#
# Usage: scripts/bench-llm.sh [RUNS]     (results print as two tables; nothing is written)
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS="${1:-5}"
THREADS="$(nproc)"  # bench_local uses one thread per core too
TARGET_DIR="${CARGO_TARGET_DIR:-target}"
case "$TARGET_DIR" in /*) ;; *) TARGET_DIR="$PWD/$TARGET_DIR" ;; esac
WORK="$TARGET_DIR/llama-bench"
LCP_VERSION="0.3.36"
MODEL="${EASEL_LOCAL_MODEL:-$HOME/.cache/easel/models/SmolLM2-135M-Instruct.Q4_1.gguf}"

[ -f "$MODEL" ] || scripts/fetch-model.sh

# The options llama-cpp-sys-2 builds llama.cpp with here: no -march=native (so ggml's x86-64-v3
# defaults: AVX, AVX2, FMA, F16C, BMI2), OpenMP, and Release (.cargo/config.toml).
FLAGS=(-DGGML_NATIVE=OFF -DGGML_OPENMP=ON -DLLAMA_CURL=OFF -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF
  -DLLAMA_BUILD_SERVER=OFF -DLLAMA_BUILD_APP=OFF -DBUILD_SHARED_LIBS=OFF
  -DCMAKE_BUILD_TYPE=Release)

if [ ! -x "$WORK/build/bin/llama-bench" ]; then
  vendored="$(cargo metadata --format-version 1 --locked 2>/dev/null |
    python3 -c 'import json,sys,os; m=json.load(sys.stdin); print(next(os.path.dirname(p["manifest_path"]) for p in m["packages"] if p["name"]=="llama-cpp-sys-2"))')/llama.cpp"
  echo "building llama-bench against $vendored"
  rm -rf "$WORK" && mkdir -p "$WORK"
  python3 -m pip download -q --disable-pip-version-check --no-deps --no-binary :all: \
    "llama-cpp-python==$LCP_VERSION" -d "$WORK/sdist"
  tar xzf "$WORK/sdist/llama_cpp_python-$LCP_VERSION.tar.gz" -C "$WORK/sdist"
  cp -r "$vendored" "$WORK/src"
  cp "$WORK/sdist/llama_cpp_python-$LCP_VERSION/vendor/llama.cpp/tools/llama-bench/"* "$WORK/src/tools/llama-bench/"
  printf 'add_subdirectory(llama-bench)\n' > "$WORK/src/tools/CMakeLists.txt"
  cmake -S "$WORK/src" -B "$WORK/build" "${FLAGS[@]}" >/dev/null
  cmake --build "$WORK/build" --target llama-bench -j "$(nproc)" >/dev/null
fi

cargo build -q --release --locked -p easel-llm --example bench_local

echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $THREADS threads, model $(basename "$MODEL")"
echo
echo "llama.cpp llama-bench (prompt 539 tokens; 128 tokens generated after a 539-token context):"
"$WORK/build/bin/llama-bench" -m "$MODEL" -t "$THREADS" -r "$RUNS" -p 539 -n 0 2>/dev/null | grep -E '^\|'
"$WORK/build/bin/llama-bench" -m "$MODEL" -t "$THREADS" -r "$RUNS" -p 0 -n 128 -d 539 2>/dev/null | grep -E '^\|' | tail -n 1
echo
echo "easel-llm bench_local (the same prompt length and answer length):"
EASEL_LOCAL_MODEL="$MODEL" "$TARGET_DIR/release/examples/bench_local" "$RUNS"
