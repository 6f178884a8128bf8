"""Fixtures for the browser tests: a vault copied from the fixtures, a real `easel serve` on it,
and a page of headless Chromium (Debian's, never a downloaded one) logged in with the token."""

import json
import os
import shutil
import subprocess
import threading
import time
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import sync_playwright

from scripted_model import ScriptedModel

HERE = Path(__file__).resolve().parent
EASEL = os.environ.get("EASEL_BIN", str(HERE.parents[3] / "target" / "debug" / "easel"))
CHROMIUM = os.environ.get("EASEL_CHROMIUM", "/usr/bin/chromium")
SHOTS = Path(os.environ.get("EASEL_SHOTS", HERE.parents[3] / "target" / "browser-shots"))
EXAMPLE_VAULT = HERE.parents[3] / "examples" / "vault"


class Server:
    """A running `easel serve`: its URL with the token, the API base, and a JSON API client."""

    def __init__(self, vault: Path, extra_args=(), env=None):
        self.vault = vault
        self.proc = subprocess.Popen(
            [EASEL, "--vault", str(vault), "serve", "--port", "0", *extra_args],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, **(env or {})},
        )
        line = self.proc.stdout.readline().strip()
        if not line.startswith("Easel at "):
            err = self.proc.stderr.read() if self.proc.poll() is not None else ""
            raise RuntimeError(f"easel serve printed {line!r} first; stderr: {err}")
        self.url = line.removeprefix("Easel at ")
        self.base, _, self.token = self.url.partition("/?token=")
        # Keep reading so a full pipe never blocks the server.
        threading.Thread(target=self.proc.stdout.read, daemon=True).start()
        self.stderr_lines = []
        threading.Thread(target=self._drain_stderr, daemon=True).start()

    def _drain_stderr(self):
        for line in self.proc.stderr:
            self.stderr_lines.append(line)

    def op(self, name: str, args: dict | None = None, expect_ok: bool = True):
        """Runs an operation over the API as a client with the bearer token."""
        req = urllib.request.Request(
            f"{self.base}/api/ops/{name}",
            data=json.dumps(args or {}).encode(),
            headers={"content-type": "application/json", "authorization": f"Bearer {self.token}"},
            method="POST",
        )
        try:
            with urllib.request.urlopen(req, timeout=120) as r:
                return json.loads(r.read())
        except urllib.error.HTTPError as e:
            body = json.loads(e.read())
            if expect_ok:
                raise AssertionError(f"{name} failed: {body}") from e
            return body

    def read_canvas(self, path: str) -> dict:
        return json.loads((self.vault / path).read_text())

    def stop(self):
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


@pytest.fixture
def model():
    """A scripted model with no turns yet; a test pushes the turns it expects."""
    m = ScriptedModel([])
    yield m
    m.stop()


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    """A fresh copy of examples/vault."""
    dest = tmp_path / "vault"
    shutil.copytree(EXAMPLE_VAULT, dest)
    return dest


@pytest.fixture
def server(vault: Path):
    s = Server(vault)
    yield s
    s.stop()


@pytest.fixture(scope="session")
def browser():
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
        yield b
        b.close()


@pytest.fixture
def page(browser, server, request):
    """A page logged in to `server` (the token URL turned into a cookie); a screenshot of it
    is kept under target/browser-shots/ when the test ends, passed or failed."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    pg = context.new_page()
    errors = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.goto(server.url)
    yield pg
    SHOTS.mkdir(parents=True, exist_ok=True)
    try:
        pg.screenshot(path=str(SHOTS / f"{request.node.name}.png"))
    except Exception:  # noqa: BLE001 - a failed screenshot must not hide the test's own result
        pass
    context.close()
    assert not errors, f"the page threw: {errors}"


def wait_until(check, timeout=10.0, interval=0.05, what="condition"):
    """Polls `check` until it returns something truthy; fails with `what` after `timeout`."""
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        last = check()
        if last:
            return last
        time.sleep(interval)
    raise AssertionError(f"timed out waiting for {what} (last: {last!r})")
