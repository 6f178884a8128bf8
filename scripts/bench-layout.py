#!/usr/bin/env python3
"""Layout quality against Graphviz: every example graph of Debian's graphviz-doc is placed by
`dot -Tjson` and by easel-layout's `layered` algorithm with the same node sizes, and both
drawings are measured the way JSON Canvas draws edges (straight, side to side): crossings,
edges through nodes, node overlaps, total edge length, area. Layout time is easel's only.

    apt-get install -y graphviz graphviz-doc
    scripts/bench-layout.py [--out BENCH.json]
"""

import glob
import gzip
import json
import os
import subprocess
import sys
import tempfile

EXAMPLES = "/usr/share/doc/graphviz/examples/graphs/directed"
PT = 72.0  # dot sizes are inches; canvases and dot positions are points


def graph_of(path):
    raw = gzip.open(path).read() if path.endswith(".gz") else open(path, "rb").read()
    try:
        out = subprocess.run(["dot", "-Tjson"], input=raw, capture_output=True, timeout=60)
    except subprocess.TimeoutExpired:
        return None
    if out.returncode != 0:
        return None
    g = json.loads(out.stdout)
    objects = [o for o in g.get("objects", []) if "pos" in o and "width" in o]
    index = {o["_gvid"]: i for i, o in enumerate(objects)}
    height = float(g["bb"].split(",")[3]) if "bb" in g else 0.0
    nodes = []
    for o in objects:
        x, y = (float(v) for v in o["pos"].split(",")[:2])
        w, h = float(o["width"]) * PT, float(o["height"]) * PT
        # dot's y grows upwards; a canvas's grows downwards.
        nodes.append({"w": w, "h": h, "x": x - w / 2, "y": (height - y) - h / 2})
    edges = [[index[e["tail"]], index[e["head"]]] for e in g.get("edges", [])
             if e["tail"] in index and e["head"] in index]
    # Subgraphs with a `rank` (same, min, max, source, sink) constrain the layout, as
    # `easel canvas import` keeps them for DOT files.
    ranks = []
    for o in g.get("objects", []):
        kind = o.get("rank")
        members = [index[v] for v in o.get("nodes", []) if v in index]
        if "pos" not in o and kind in ("same", "min", "max", "source", "sink") and members:
            ranks.append([kind, members])
    rankdir = str(g.get("rankdir", "TB")).upper()
    return {"name": os.path.basename(path).replace(".gz", ""), "right": rankdir in ("LR", "RL"),
            "nodes": nodes, "edges": edges, "ranks": ranks}


def main():
    files = sorted(glob.glob(os.path.join(EXAMPLES, "*.gv")) + glob.glob(os.path.join(EXAMPLES, "*.gv.gz")))
    if not files:
        sys.exit(f"no example graphs in {EXAMPLES}: apt-get install -y graphviz graphviz-doc")
    graphs = [g for g in (graph_of(f) for f in files) if g and g["nodes"]]
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(graphs, f)
        data = f.name
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    subprocess.run(["cargo", "run", "--quiet", "--release", "-p", "easel-layout", "--example",
                    "graphviz_bench", "--", data], cwd=root, check=True)
    os.unlink(data)


if __name__ == "__main__":
    main()
