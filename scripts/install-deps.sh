#!/usr/bin/env bash
# Installs what building and testing Easel needs on a fresh Debian/Ubuntu machine.
# Idempotent and quiet when everything is already there.
set -euo pipefail

need_apt=()
command -v cc >/dev/null 2>&1 || need_apt+=(build-essential)
command -v pkg-config >/dev/null 2>&1 || need_apt+=(pkg-config)
# The MCP client tests run the official Python SDK in a virtualenv.
python3 -c 'import venv, ensurepip' >/dev/null 2>&1 || need_apt+=(python3-venv)
# easel-llm's embedded model builds llama.cpp from source (llama-cpp-sys-2: cmake + bindgen).
command -v cmake >/dev/null 2>&1 || need_apt+=(cmake)
command -v clang >/dev/null 2>&1 || need_apt+=(clang)
ls /usr/lib/llvm-*/lib/libclang*.so* >/dev/null 2>&1 || ls /usr/lib/x86_64-linux-gnu/libclang*.so* >/dev/null 2>&1 || need_apt+=(libclang-dev)
# The web UI is bundled with esbuild from npm packages when easel-server is built.
command -v node >/dev/null 2>&1 || need_apt+=(nodejs)
command -v npm >/dev/null 2>&1 || need_apt+=(npm)
# The browser tests drive Debian's Chromium (never a browser Playwright downloads).
[ -x /usr/lib/chromium/chromium ] || command -v chromium >/dev/null 2>&1 || need_apt+=(chromium)

if [ ${#need_apt[@]} -gt 0 ]; then
  if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi
  echo "installing with apt: ${need_apt[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi

if ! command -v cargo >/dev/null 2>&1; then
  echo "error: cargo is not installed" >&2
  echo "hint: install Rust 1.95 or newer with rustup (https://rustup.rs), then run this again" >&2
  exit 1
fi
