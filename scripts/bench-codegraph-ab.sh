#!/usr/bin/env bash
# Compares builds of the code graph engine alone (no CLI, no board) between several binaries of
# the `build_once` example of easel-codegraph, taking their runs in turn so that every binary
# sees the same load of a shared machine: cold (no cache) and after one file changed. Each
# binary works on its own copy of the corpus.
#
# Usage: [FILE=path/in/corpus] scripts/bench-codegraph-ab.sh CORPUS_DIR RUNS NAME=BINARY [NAME=BINARY ...]
#   build a binary with: cargo build --release -p easel-codegraph --example build_once
#   (then copy target/release/examples/build_once aside before changing the code).
# Prints, per binary: median wall and CPU (user + system) milliseconds, cold and one file changed.
set -euo pipefail
corpus=$1 runs=$2
shift 2
declare -A bins
names=()
for nb in "$@"; do
  name=${nb%%=*}
  names+=("$name")
  bins[$name]=${nb#*=}
  copy="$corpus-ab-$name"
  rm -rf "$copy" && cp -r "$corpus" "$copy"
done
file=${FILE:-$(cd "$corpus" && find . -name '*.ts' -o -name '*.js' -o -name '*.py' | grep -v '/\.' | sort | sed -n 1p)}

# Wall and CPU milliseconds of one run. CPU is the child's user + system time from getrusage,
# which Linux keeps to the nanosecond (`/usr/bin/time` rounds it to 10 ms, too coarse for a
# one-file re-init of ~100 ms).
timed() {
  python3 - "$@" <<'PY'
import resource, subprocess, sys, time
# Before as well as after: a python3 started through a wrapper (pyenv's shim) already counts
# the wrapper's own children.
r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
t0 = time.monotonic_ns()
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=True)
wall = (time.monotonic_ns() - t0) / 1e6
r = resource.getrusage(resource.RUSAGE_CHILDREN)
cpu = r.ru_utime + r.ru_stime - r0.ru_utime - r0.ru_stime
print(round(wall), round(cpu * 1000))
PY
}

declare -A cold_w cold_c one_w one_c
for _ in $(seq "$runs"); do
  for name in "${names[@]}"; do
    copy="$corpus-ab-$name"
    rm -rf "$copy/.codecanvas"
    read -r w c < <(timed "${bins[$name]}" "$copy")
    cold_w[$name]+="$w "; cold_c[$name]+="$c "
    echo "// touched by the benchmark $(date +%s%N)" >> "$copy/$file"
    read -r w c < <(timed "${bins[$name]}" "$copy")
    one_w[$name]+="$w "; one_c[$name]+="$c "
  done
done
median() { tr ' ' '\n' | grep . | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg); $runs runs each, file changed: $file"
echo "| binary | cold wall | cold CPU | one file changed wall | one file changed CPU |"
echo "|---|---:|---:|---:|---:|"
for name in "${names[@]}"; do
  echo "| $name | $(median <<<"${cold_w[$name]}") ms | $(median <<<"${cold_c[$name]}") ms | $(median <<<"${one_w[$name]}") ms | $(median <<<"${one_c[$name]}") ms |"
done
