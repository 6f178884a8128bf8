# Shared by the scripts that drive the `easel` binary from Python test suites. Source it from the
# repository root.

# ensure_venv VENV WHAT IMPORTS PACKAGE...: a virtualenv at VENV in which `import IMPORTS` works,
# created with pip's PACKAGEs on first use (WHAT says what for).
ensure_venv() {
  local venv="$1" what="$2" imports="$3"
  shift 3
  if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c "import $imports" >/dev/null 2>&1; then
    echo "creating $venv with $what"
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q --disable-pip-version-check "$@"
  fi
}

# build_easel_for_tests: the same build as `cargo nextest run --workspace` (which `make test` has
# just run, so this is a no-op there): any other selection of packages or profile resolves the
# build scripts' dependencies differently and compiles llama.cpp's C++ a second time (about 10
# minutes on 2 cores). Sets TARGET_DIR (absolute) and EASEL_BIN (target/debug/easel unless set).
build_easel_for_tests() {
  cargo test -q --workspace --no-run --locked
  TARGET_DIR="${CARGO_TARGET_DIR:-target}"
  case "$TARGET_DIR" in /*) ;; *) TARGET_DIR="$PWD/$TARGET_DIR" ;; esac
  export EASEL_BIN="${EASEL_BIN:-$TARGET_DIR/debug/easel}"
}
