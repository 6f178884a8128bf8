"""`easel serve` under load, the quick variant of scripts/bench-serve-load.py: a few seconds of
concurrent writers, readers, event-stream subscribers, slow and vanishing clients and bad
requests, then its invariants (no edit lost, every request answered with its status, every
subscriber current, the server still up). No browser needed: the script speaks raw HTTP."""

import os
import subprocess
import sys
from pathlib import Path

from conftest import EASEL

SCRIPT = Path(__file__).resolve().parents[4] / "scripts" / "bench-serve-load.py"


def test_the_server_keeps_every_edit_and_answers_everyone_under_load():
    run = subprocess.run(
        [sys.executable, str(SCRIPT), os.environ.get("EASEL_BIN", EASEL), "--quick"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "OK: no edit lost" in run.stdout, run.stdout
