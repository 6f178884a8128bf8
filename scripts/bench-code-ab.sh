#!/usr/bin/env bash
# Compares `easel code init` after one file changed between several easel binaries, taking
# their runs in turn so that every binary sees the same load of a shared machine. Each binary
# works on its own copy of the corpus (their caches and boards differ in format).
#
# Usage: [FILE=path/in/corpus] scripts/bench-code-ab.sh WORKDIR CORPUS RUNS NAME=BINARY [NAME=BINARY ...]
#   WORKDIR is the folder of scripts/bench-code.sh (the corpus is WORKDIR/src/CORPUS).
# Prints, per binary, the times of the runs (ms, sorted) and their median.
set -euo pipefail
work=$1 corpus=$2 runs=$3
shift 3
declare -A times bins
names=()
for nb in "$@"; do
  name=${nb%%=*}
  names+=("$name")
  bins[$name]=${nb#*=}
  copy="$work/src/$corpus-ab-$name"
  if [ ! -d "$copy" ]; then
    cp -r "$work/src/$corpus" "$copy"
    rm -rf "$copy/.codecanvas"
  fi
  # A first init, and one to settle: the timed runs start warm.
  "${bins[$name]}" code init "$copy" >/dev/null
  "${bins[$name]}" code init "$copy" >/dev/null
done
for _ in $(seq "$runs"); do
  for name in "${names[@]}"; do
    copy="$work/src/$corpus-ab-$name"
    file=${FILE:-}; [ -n "$file" ] || file=$(cd "$copy" && find . -name '*.py' -o -name '*.ts' -o -name '*.rs' | grep -v '/\.' | sort | sed -n 1p)
    echo "# touched by the benchmark $(date +%s%N)" >> "$copy/$file"
    t0=$(date +%s%N)
    "${bins[$name]}" code init "$copy" >/dev/null
    t1=$(date +%s%N)
    times[$name]="${times[$name]:-} $(( (t1 - t0) / 1000000 ))"
  done
done
for name in "${names[@]}"; do
  sorted=$(echo "${times[$name]}" | tr ' ' '\n' | grep . | sort -n | tr '\n' ' ')
  median=$(echo "$sorted" | tr ' ' '\n' | grep . | sed -n "$(( (runs + 1) / 2 ))p")
  echo "$name: $sorted median $median ms"
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
