#!/usr/bin/env python3
"""Hook latency: `easel code hook …` fed the JSON Claude Code sends, on real code fetched from
PyPI when the benchmark runs (the flask and requests sdists). Prints a Markdown table.

- SessionStart, PreToolUse *cold*: the first PreToolUse on a fresh checkout, which runs `init`
  (parse everything, draw the architecture and the board).
- PreToolUse *warm*: every later call (the board exists: one stat).
- PostToolUse *edit*: after an Edit changed one line inside a function, so that file is parsed
  again and the graph resolved again from the cache; the hook then reports the impact.
- SessionStart *warm*: a resumed session gets the board summary.

Each warm figure is the median of RUNS calls, process start included.

Usage: scripts/bench-hooks.py [WORKDIR]   (EASEL_BIN=path to skip building the release binary)
  CORPORA="requests flask mid"   folders of WORKDIR/src to measure (default: requests flask);
                                 others than those two must be there already, for example a
                                 copy of flask, requests and syn made from bench-code.sh's
  EDIT=flask/src/flask/app.py    the Python file whose function the PostToolUse runs edit
                                 (default: the first non-test file with a `return` at depth 2)
"""

import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RUNS = int(os.environ.get("RUNS", "9"))
ROOT = Path(__file__).resolve().parents[1]


def easel_bin():
    if os.environ.get("EASEL_BIN"):
        return os.environ["EASEL_BIN"]
    subprocess.run(["cargo", "build", "--release", "-q", "-p", "easel-cli", "--no-default-features"],
                   cwd=ROOT, check=True)
    target = os.environ.get("CARGO_TARGET_DIR", str(ROOT / "target"))
    return str(Path(target) / "release" / "easel")


def fetch(work):
    src = work / "src"
    src.mkdir(parents=True, exist_ok=True)
    if not (src / "flask").is_dir() or not (src / "requests").is_dir():
        dl = work / "dl"
        subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-binary", ":all:",
                        "--no-deps", "-d", str(dl), "flask", "requests"], check=True)
        for f in dl.glob("*.tar.gz"):
            subprocess.run(["tar", "xzf", str(f), "-C", str(src)], check=True)
        for name in ["flask", "requests"]:
            d = next(p for p in src.iterdir() if p.name.startswith(name + "-"))
            d.rename(src / name)
    return src


def run_hook(easel, event, payload):
    t0 = time.perf_counter()
    out = subprocess.run([easel, "code", "hook", event], input=json.dumps(payload).encode(),
                         capture_output=True, check=True)
    ms = (time.perf_counter() - t0) * 1000
    return ms, out.stdout.decode()


def base(cwd, event):
    return {"session_id": "bench", "transcript_path": "/tmp/bench.jsonl", "cwd": str(cwd),
            "permission_mode": "default", "hook_event_name": event}


SOURCE = {".py", ".rs", ".ts", ".js"}


def sources(repo):
    return [p for p in repo.rglob("*") if p.suffix in SOURCE and p.is_file()]


def lines_of(repo):
    return sum(sum(1 for _ in p.open(errors="replace")) for p in sources(repo))


def bench(easel, src, name):
    repo = Path(tempfile.mkdtemp(prefix=f"hooks-{name}-"))
    # Without any board a corpus folder may have from other benchmarks: the first PreToolUse
    # must initialise.
    shutil.copytree(src / name, repo, dirs_exist_ok=True,
                    ignore=shutil.ignore_patterns(".codecanvas"))
    (repo / ".git").mkdir(exist_ok=True)
    # A file with a function to edit: the first `return` indented inside a def.
    target, line_no = None, None
    chosen = os.environ.get("EDIT")
    for p in [repo / chosen] if chosen else sorted(repo.rglob("*.py")):
        if "test" in p.name or "/tests/" in str(p):
            continue
        text = p.read_text(errors="replace").splitlines()
        for i, l in enumerate(text):
            if re.match(r"^        return \w", l):
                target, line_no = p, i
                break
        if target:
            break
    pre = dict(base(repo, "PreToolUse"), tool_name="Read", tool_input={"file_path": str(target)})
    start = dict(base(repo, "SessionStart"), source="startup")
    cold_start, _ = run_hook(easel, "session-start", start)
    cold_pre, out = run_hook(easel, "pre-tool-use", pre)
    assert "AUTO-INIT" in out, out
    warm_pre = statistics.median(run_hook(easel, "pre-tool-use", pre)[0] for _ in range(RUNS))
    resume = dict(base(repo, "SessionStart"), source="resume")
    warm_start = statistics.median(run_hook(easel, "session-start", resume)[0] for _ in range(RUNS))
    post_times = []
    for k in range(RUNS):
        lines = target.read_text(errors="replace").splitlines(keepends=True)
        old = lines[line_no].rstrip("\n")
        new = re.sub(r"  # bench edit \d+$", "", old) + f"  # bench edit {k}"
        lines[line_no] = new + "\n"
        target.write_text("".join(lines))
        payload = dict(base(repo, "PostToolUse"), tool_name="Edit",
                       tool_input={"file_path": str(target), "old_string": old, "new_string": new,
                                   "replace_all": False},
                       tool_response={"filePath": str(target), "oldString": old, "newString": new})
        ms, out = run_hook(easel, "post-tool-use", payload)
        assert "IMPACT" in out, out
        post_times.append(ms)
    row = (name, len(sources(repo)), lines_of(repo), cold_start, cold_pre, warm_pre,
           warm_start, statistics.median(post_times), min(post_times))
    shutil.rmtree(repo)
    return row


def main():
    work = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(tempfile.mkdtemp(prefix="easel-hooks-bench."))
    easel = easel_bin()
    src = fetch(work)
    load = os.getloadavg()[0]
    print(f"load average {load:.1f} on {os.cpu_count()} cores; {RUNS} runs per warm figure; {easel}")
    print()
    print("| corpus | files | lines | SessionStart (no board) | PreToolUse cold (init) | PreToolUse warm | SessionStart warm | PostToolUse after an edit (median) | (best) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name in os.environ.get("CORPORA", "requests flask").split():
        r = bench(easel, src, name)
        print(f"| {r[0]} | {r[1]} | {r[2]} | {r[3]:.0f} ms | {r[4]:.0f} ms | {r[5]:.0f} ms | {r[6]:.0f} ms | {r[7]:.0f} ms | {r[8]:.0f} ms |")


if __name__ == "__main__":
    main()
