#!/usr/bin/env bash
# Benchmarks `easel code init` on real code fetched from the package registries at bench time:
# the flask and requests sdists (PyPI), a large npm package (rxjs: mostly compiled JavaScript), an
# npm package that ships its TypeScript sources (effect: `src/*.ts` with `.js` specifiers), a
# large crate (crates.io through cargo), all of them together, and the django sdist (PyPI) as a
# large Python project. Prints a Markdown table: lines, files, cold init, warm
# re-init with nothing changed, re-init after one file changed, and peak memory.
#
# Usage: scripts/bench-code.sh [WORKDIR]    (default: a fresh folder under /tmp)
#   CORPORA="flask all"   measure only these corpora (default: all seven)
#   EASEL=path/to/easel   measure this binary instead of building the release one
set -euo pipefail
cd "$(dirname "$0")/.."

NPM_PKG=${NPM_PKG:-rxjs@7.8.2}
NPM_TS_PKG=${NPM_TS_PKG:-effect@3.12.0}
CRATE=${CRATE:-syn@2.0.110}
WORK=${1:-$(mktemp -d /tmp/easel-code-bench.XXXXXX)}
mkdir -p "$WORK/src"

CORPORA=${CORPORA:-flask requests npm npm-ts crate all django}
if [ -z "${EASEL:-}" ]; then
  cargo build --release -q -p easel-cli
  EASEL="${CARGO_TARGET_DIR:-$PWD/target}/release/easel"
fi

fetch() {
  cd "$WORK/src"
  if [ ! -d flask ] || [ ! -d requests ]; then
    pip download -q --no-binary :all: --no-deps -d "$WORK/dl" flask requests >/dev/null
    for f in "$WORK"/dl/*.tar.gz; do tar xzf "$f"; done
    mv flask-*/ flask && mv requests-*/ requests
  fi
  if [ ! -d django ] && [[ " $CORPORA " == *" django "* ]]; then
    pip download -q --no-binary :all: --no-deps -d "$WORK/dl-django" django >/dev/null
    tar xzf "$WORK"/dl-django/*.tar.gz && mv django-*/ django
  fi
  if [ ! -d npm ]; then
    (cd "$WORK/dl" && npm pack -q "$NPM_PKG" >/dev/null)
    mkdir npm && tar xzf "$WORK"/dl/*.tgz -C npm
  fi
  if [ ! -d npm-ts ] && [[ " $CORPORA " == *" npm-ts "* ]]; then
    mkdir -p "$WORK/dl-ts"
    (cd "$WORK/dl-ts" && npm pack -q "$NPM_TS_PKG" >/dev/null)
    mkdir npm-ts && tar xzf "$WORK"/dl-ts/*.tgz -C npm-ts
  fi
  if [ ! -d crate ]; then
    # Let cargo itself fetch the crate's source from crates.io.
    local p="$WORK/fetch"
    mkdir -p "$p/src" && echo 'fn main() {}' > "$p/src/main.rs"
    printf '[package]\nname = "fetch"\nversion = "0.0.0"\nedition = "2021"\n[dependencies]\n%s = "=%s"\n' \
      "${CRATE%@*}" "${CRATE#*@}" > "$p/Cargo.toml"
    (cd "$p" && cargo fetch -q)
    local name="${CRATE%@*}-${CRATE#*@}"
    local src
    src=$(ls -d "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/"$name" | head -1)
    cp -r "$src" crate
  fi
  if [ ! -d all ]; then
    mkdir all && cp -r flask requests npm crate all/
  fi
  cd - >/dev/null
}

# Wall-clock milliseconds of one run of `easel code init DIR`, its peak memory in MiB, and
# its CPU time (user + system) in milliseconds: on a shared machine the CPU time says what the
# work costs when the wall clock also counts waiting for a core.
run() {
  local dir=$1 t0 t1 out rss cpu
  t0=$(date +%s%N)
  out=$( { /usr/bin/time -f '%M %U %S' "$EASEL" code init "$dir" >/dev/null; } 2>&1 | tail -1)
  t1=$(date +%s%N)
  read -r rss u s <<<"$out"
  cpu=$(python3 -c "print(round(($u + $s) * 1000))")
  echo "$(( (t1 - t0) / 1000000 )) $(( rss / 1024 )) $cpu"
}

# The median of three runs of a command that prints "ms mib".
median3() {
  local a b c
  a=$("$@"); b=$("$@"); c=$("$@")
  printf '%s\n%s\n%s\n' "$a" "$b" "$c" | sort -n | sed -n 2p
}

cold() { rm -rf "$1/.codecanvas"; run "$1"; }

changed() {
  local dir=$1 file
  file=$(cd "$dir" && find . -name '*.py' -o -name '*.ts' -o -name '*.rs' | grep -v '/\.' | sort | head -1)
  echo "# touched by the benchmark $(date +%s%N)" >> "$dir/$file"
  run "$dir"
}

fetch
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| corpus | files | lines | cold init | cold CPU | warm re-init | one file changed | peak memory (cold) |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|"
for c in $CORPORA; do
  dir="$WORK/src/$c"
  read -r cold_ms cold_mb cold_cpu < <(median3 cold "$dir")
  stats=$("$EASEL" --json code init "$dir")
  files=$(echo "$stats" | python3 -c 'import json,sys; print(json.load(sys.stdin)["stats"]["files"])')
  lines=$(echo "$stats" | python3 -c 'import json,sys; print(json.load(sys.stdin)["stats"]["lines"])')
  read -r warm_ms _ < <(median3 run "$dir")
  read -r one_ms _ < <(median3 changed "$dir")
  echo "| $c | $files | $lines | ${cold_ms} ms | ${cold_cpu} ms | ${warm_ms} ms | ${one_ms} ms | ${cold_mb} MiB |"
done
echo
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
