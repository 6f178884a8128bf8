#!/usr/bin/env python3
"""Times `easel code init` after one edit of one file, for three kinds of edit:

- append:  a comment line at the end of the file (what `bench-code.sh` does);
- call:    a call added on a new line at the top of the file's first function (the lines below
           move; what other files see of the file does not change);
- def:     a new function at the end of the file (other files can see it).

Each edit is made, then `easel --json code init CORPUS` is run and timed (the process, start to
exit); RUNS times per file and kind (each run edits again), and the median, the range and how
many files were resolved again (`stats.resolved`) are printed as a Markdown table.

Usage: scripts/bench-code-edit.py EASEL CORPUS FILE [FILE ...]     (RUNS=7 by default)
The corpus is edited in place: use a copy (for example one made by bench-code.sh).
"""

import json
import os
import re
import statistics
import subprocess
import sys
import time

COMMENT = {".py": "#", ".rs": "//", ".ts": "//", ".js": "//", ".go": "//", ".java": "//"}
CALL = {".py": "print()", ".rs": "drop(());", ".ts": "console.log();", ".js": "console.log();"}
HEADER = {
    ".py": re.compile(r"^(\s*)def \w+\(.*\).*:\s*$"),
    ".rs": re.compile(r"^(\s*)(pub(\(\w+\))? )?fn \w+.*\{\s*$"),
    ".ts": re.compile(r"^(\s*)(export )?function \w+.*\{\s*$"),
    ".js": re.compile(r"^(\s*)(export )?function \w+.*\{\s*$"),
}
NEW_DEF = {
    ".py": "\n\ndef _bench_probe_{n}():\n    return len([])\n",
    ".rs": "\n\npub fn bench_probe_{n}() -> usize {{\n    Vec::<u8>::new().len()\n}}\n",
    ".ts": "\n\nexport function benchProbe{n}() {{\n  return [].length;\n}}\n",
    ".js": "\n\nexport function benchProbe{n}() {{\n  return [].length;\n}}\n",
}


def edit(path: str, kind: str, n: int) -> bool:
    ext = os.path.splitext(path)[1]
    text = open(path, encoding="utf-8").read()
    if kind == "append":
        text += f"{COMMENT.get(ext, '#')} edited by the benchmark {n}\n"
    elif kind == "call":
        lines = text.split("\n")
        for i, line in enumerate(lines):
            m = HEADER[ext].match(line)
            if m:
                lines.insert(i + 1, m.group(1) + "    " + CALL[ext])
                break
        else:
            return False
        text = "\n".join(lines)
    else:
        text += NEW_DEF[ext].format(n=n)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return True


def main() -> None:
    easel, corpus, files = sys.argv[1], sys.argv[2], sys.argv[3:]
    runs = int(os.environ.get("RUNS", "7"))
    subprocess.run([easel, "code", "init", corpus], stdout=subprocess.DEVNULL, check=True)
    print(f"load average before: {open('/proc/loadavg').read().split()[:3]}\n")
    print("| file | lines | edit | one file changed (median, min-max) | files resolved again |")
    print("|---|---:|---|---:|---:|")
    n = 0
    for rel in files:
        path = os.path.join(corpus, rel)
        lines = sum(1 for _ in open(path, encoding="utf-8"))
        for kind in ("append", "call", "def"):
            times, resolved = [], []
            for _ in range(runs):
                n += 1
                if not edit(path, kind, n):
                    break
                t0 = time.perf_counter()
                out = subprocess.run(
                    [easel, "--json", "code", "init", corpus],
                    capture_output=True,
                    check=True,
                ).stdout
                times.append((time.perf_counter() - t0) * 1000)
                resolved.append(json.loads(out)["stats"]["resolved"])
            if not times:
                continue
            times.sort()
            med = statistics.median(times)
            print(
                f"| `{rel}` | {lines} | {kind} | {med:.0f} ms ({times[0]:.0f}-{times[-1]:.0f}) "
                f"| {statistics.median(resolved):.0f} |"
            )
    print(f"\nload average after: {open('/proc/loadavg').read().split()[:3]}")


if __name__ == "__main__":
    main()
