#!/usr/bin/env python3
"""`easel canvas validate` end to end on a large canvas, two binaries side by side.

Writes the synthetic canvas of `easel_canvas::synth::grid_canvas(NODES)` (the criterion
benchmark's) into a temporary vault, then runs OLD and NEW alternately RUNS times each and prints
the median wall time and the median CPU time (user + sys) of each. CPU time is the number to read
on a machine shared with other work; wall time is what a user waits.

Usage: scripts/bench-canvas-validate.py OLD_BINARY NEW_BINARY [NODES=100000] [RUNS=15]
"""

import math
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def grid_canvas(nodes: int) -> str:
    """The text `easel_canvas::synth::grid_canvas` writes, line for line."""
    cols = max(1, math.ceil(math.sqrt(nodes)))
    out = ['{\n\t"nodes":[']
    for i in range(nodes):
        out.append("\n\t\t" if i == 0 else ",\n\t\t")
        x, y = (i % cols) * 300, (i // cols) * 200
        nid = "%016x" % (i * 0x9E3779B9 + 1)
        kind = i % 4
        if kind == 0:
            out.append('{"id":"%s","type":"text","text":"Note %d\\nwith **markdown** and a second line","x":%d,"y":%d,"width":250,"height":120}' % (nid, i, x, y))
        elif kind == 1:
            out.append('{"id":"%s","type":"file","file":"notes/Note %d.md","subpath":"#Heading","x":%d,"y":%d,"width":250,"height":120,"color":"4"}' % (nid, i, x, y))
        elif kind == 2:
            out.append('{"id":"%s","type":"link","url":"https://example.com/%d","x":%d,"y":%d,"width":250,"height":120}' % (nid, i, x, y))
        else:
            out.append('{"id":"%s","type":"text","text":"Card %d","x":%d,"y":%d,"width":250,"height":120,"color":"#ff8800","styleAttributes":{"shape":"pill"}}' % (nid, i, x, y))
    out.append('\n\t],\n\t"edges":[')
    for i in range(1, nodes):
        out.append("\n\t\t" if i == 1 else ",\n\t\t")
        src = "%016x" % ((i - 1) * 0x9E3779B9 + 1)
        dst = "%016x" % (i * 0x9E3779B9 + 1)
        out.append('{"id":"e%015x","fromNode":"%s","fromSide":"right","toNode":"%s","toSide":"left"}' % (i, src, dst))
    out.append("\n\t]\n}" if nodes > 1 else "]\n}")
    return "".join(out)


def run(binary: str, vault: str) -> tuple[float, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([binary, "--vault", vault, "canvas", "validate", "Big.canvas"], stdout=subprocess.DEVNULL, check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main() -> None:
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    old, new = sys.argv[1], sys.argv[2]
    nodes = int(sys.argv[3]) if len(sys.argv) > 3 else 100_000
    runs = int(sys.argv[4]) if len(sys.argv) > 4 else 15
    with tempfile.TemporaryDirectory() as vault:
        text = grid_canvas(nodes)
        Path(vault, "Big.canvas").write_text(text)
        print(f"{nodes} nodes, {len(text) / 1e6:.1f} MB, {runs} runs each, alternating")
        results: dict[str, list[tuple[float, float]]] = {"old": [], "new": []}
        for _ in range(runs):
            for name, binary in (("old", old), ("new", new)):
                results[name].append(run(binary, vault))
        for name, samples in results.items():
            walls = [w * 1000 for w, _ in samples]
            cpus = [c * 1000 for _, c in samples]
            print(f"{name}: wall median {statistics.median(walls):.0f} ms (min {min(walls):.0f}), "
                  f"CPU median {statistics.median(cpus):.0f} ms (min {min(cpus):.0f})")


if __name__ == "__main__":
    main()
