#!/usr/bin/env python3
"""How many edits of a program that takes no lock survive while Easel writes the same canvas.

Obsidian saves a canvas by reading it, changing it in memory, writing a temporary file and
renaming it over the canvas, without any lock. This script does exactly that WRITES times (one
new text node each, a few milliseconds apart) while WRITERS loops of `easel canvas add-node`
add nodes to the same canvas, then counts which nodes are in the final file.

Usage: scripts/bench-unlocked-writers.py EASEL_BINARY [WRITES=200] [WRITERS=3]

Prints how many of the unlocked writer's nodes survived, and how many of Easel's (an Easel node
can only be lost to the unlocked writer's own read-to-rename window, which Easel cannot see).
"""

import json
import os
import random
import subprocess
import sys
import tempfile
import threading
import time


def main():
    easel = os.path.abspath(sys.argv[1])
    writes = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    writers = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    vault = tempfile.mkdtemp(prefix="easel-unlocked-")
    os.mkdir(os.path.join(vault, ".obsidian"))
    canvas = os.path.join(vault, "board.canvas")
    with open(canvas, "w") as f:
        json.dump({"nodes": [], "edges": []}, f)

    stop = threading.Event()
    added = []  # texts of the nodes Easel reported as added
    lock = threading.Lock()

    def easel_loop(w):
        k = 0
        while not stop.is_set():
            text = f"easel {w}-{k}"
            k += 1
            r = subprocess.run(
                [easel, "--vault", vault, "canvas", "add-node", "board", "--type", "text", "--text", text],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
            )
            if r.returncode == 0:
                with lock:
                    added.append(text)
            else:
                print(f"easel failed: {r.stderr.decode().strip()}", file=sys.stderr)

    threads = [threading.Thread(target=easel_loop, args=(w,)) for w in range(writers)]
    for t in threads:
        t.start()
    time.sleep(0.3)  # let the Easel loops get going

    ours = []
    for k in range(writes):
        with open(canvas, "rb") as f:
            data = json.loads(f.read())
        text = f"unlocked {k}"
        data["nodes"].append(
            {"id": f"u{k:04d}", "type": "text", "text": text, "x": 0, "y": 40 * k, "width": 200, "height": 40}
        )
        tmp = os.path.join(vault, f".board.canvas.unlocked-{k}")
        with open(tmp, "w") as f:
            f.write(json.dumps(data, indent="\t"))
        os.rename(tmp, canvas)
        ours.append(text)
        time.sleep(random.uniform(0.002, 0.02))

    stop.set()
    for t in threads:
        t.join()
    with open(canvas) as f:
        final = {n.get("text") for n in json.load(f)["nodes"]}
    kept = sum(t in final for t in ours)
    easel_kept = sum(t in final for t in added)
    print(f"unlocked writer: {kept}/{len(ours)} edits survived ({len(ours) - kept} lost)")
    print(f"easel writers:   {easel_kept}/{len(added)} nodes survived ({len(added) - easel_kept} lost)")


if __name__ == "__main__":
    main()
