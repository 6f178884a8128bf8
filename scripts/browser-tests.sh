#!/usr/bin/env bash
# Drives the web UI of `easel serve` in headless Chromium from Debian (`chromium`), with
# Playwright for Python. Never downloads a browser: Playwright is pointed at the system one.
# Creates its virtualenv under target/ on first use. Screenshots go to target/browser-shots/.
set -euo pipefail
cd "$(dirname "$0")/.."

CHROMIUM="${EASEL_CHROMIUM:-}"
if [ -z "$CHROMIUM" ]; then
  for c in /usr/lib/chromium/chromium /usr/bin/chromium /usr/bin/chromium-browser; do
    if [ -x "$c" ]; then CHROMIUM="$c"; break; fi
  done
fi
if [ -z "$CHROMIUM" ]; then
  echo "error: no Chromium found for the browser tests" >&2
  echo "hint: install Debian's package (sudo apt-get install chromium) or set EASEL_CHROMIUM" >&2
  exit 1
fi
export EASEL_CHROMIUM="$CHROMIUM"
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1

source scripts/lib/test-env.sh
VENV="${EASEL_BROWSER_VENV:-target/browser-venv}"
ensure_venv "$VENV" "Playwright (no browser download: Debian's chromium is used)" "playwright, pytest" \
  'playwright==1.65.2' 'pytest==9.2.0'
build_easel_for_tests
export EASEL_SHOTS="${EASEL_SHOTS:-$TARGET_DIR/browser-shots}"
mkdir -p "$EASEL_SHOTS"
PY="$(cd "$VENV" && pwd)/bin/python"
cd crates/easel-server/tests/browser
exec "$PY" -m pytest -q -p no:cacheprovider "$@"
