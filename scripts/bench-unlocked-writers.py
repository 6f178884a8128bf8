#!/usr/bin/env python3
"""How many edits of a program that takes no lock survive while Easel writes the same canvas.

Obsidian saves a canvas by reading it, changing it in memory, writing a temporary file and
renaming it over the canvas, without any lock. This script does exactly that WRITES times (one
new text node each, a few milliseconds apart) while WRITERS loops of `easel canvas add-node`
add nodes to the same canvas, then counts which nodes are in the final file.

Usage: scripts/bench-unlocked-writers.py EASEL_BINARY [WRITES=200] [WRITERS=3] [--stream]

With --stream the Easel writers are `easel thread send` runs with the embedded model instead:
each answer streams into the canvas, rewritten every 250 ms, which is the case the issue saw
(an Obsidian save lost while an answer was being written). WRITERS is then ignored: one answer
at a time, one after another.

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
    args = [a for a in sys.argv[1:] if a != "--stream"]
    stream = "--stream" in sys.argv
    easel = os.path.abspath(args[0])
    writes = int(args[1]) if len(args) > 1 else 200
    writers = 1 if stream else (int(args[2]) if len(args) > 2 else 3)
    vault = tempfile.mkdtemp(prefix="easel-unlocked-")
    os.mkdir(os.path.join(vault, ".obsidian"))
    canvas = os.path.join(vault, "board.canvas")
    question = {"id": "q", "type": "text", "text": "Tell a long story about a lighthouse keeper.",
                "x": -400, "y": 0, "width": 300, "height": 60}
    with open(canvas, "w") as f:
        json.dump({"nodes": [question] if stream else [], "edges": []}, f)

    stop = threading.Event()
    added = []  # texts of the nodes Easel reported as added
    lock = threading.Lock()

    def easel_loop(w):
        k = 0
        while not stop.is_set():
            text = f"easel {w}-{k}"
            k += 1
            if stream:
                command = [easel, "--vault", vault, "--json", "thread", "send", "board", "q",
                           "--model", "local:smollm2", "--max-tokens", "200"]
            else:
                command = [easel, "--vault", vault, "canvas", "add-node", "board", "--type", "text", "--text", text]
            r = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            if r.returncode == 0 and stream:
                text = json.loads(r.stdout)["node"]
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
        nodes = json.load(f)["nodes"]
    final = {n.get("text") for n in nodes}
    ids = {n.get("id") for n in nodes}
    kept = sum(t in final for t in ours)
    # With --stream an Easel write is an answer node, found by its id.
    easel_kept = sum((t in ids) if stream else (t in final) for t in added)
    print(f"unlocked writer: {kept}/{len(ours)} edits survived ({len(ours) - kept} lost)")
    what = "answers" if stream else "nodes"
    print(f"easel writers:   {easel_kept}/{len(added)} {what} survived ({len(added) - easel_kept} lost)")


if __name__ == "__main__":
    main()
