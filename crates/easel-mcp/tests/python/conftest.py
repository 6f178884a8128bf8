"""Fixtures for driving `easel mcp` with the official MCP Python SDK.

EASEL_BIN names the easel binary (scripts/mcp-client-tests.sh builds it and sets it)."""

import contextlib
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

EASEL = os.environ.get("EASEL_BIN") or str(
    Path(__file__).resolve().parents[4] / "target" / "debug" / "easel"
)


@pytest.fixture
def easel():
    if not Path(EASEL).exists():
        pytest.fail(f"easel binary not found at {EASEL}; build it or set EASEL_BIN")
    return EASEL


@pytest.fixture
def vault(tmp_path):
    v = tmp_path / "vault"
    (v / ".obsidian").mkdir(parents=True)
    return v


@contextlib.contextmanager
def http_server(easel, vault, *extra):
    """Starts `easel mcp --http 127.0.0.1:0` and yields its base URL (http://127.0.0.1:PORT)."""
    proc = subprocess.Popen(
        [easel, "--vault", str(vault), "mcp", "--http", "127.0.0.1:0", *extra],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        line = proc.stderr.readline()
        m = re.search(r"listening on (http://[^/\s]+)/mcp", line)
        if not m:
            rest = proc.stderr.read() if proc.poll() is not None else ""
            raise RuntimeError(f"easel mcp --http did not start: {line}{rest}")
        yield m.group(1)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@pytest.fixture
def http_url(easel, vault):
    with http_server(easel, vault) as base:
        yield base
