#!/usr/bin/env python3
"""Round-trip latency of the MCP tool canvas_read on a 1,000-node canvas, over stdio and over
streamable HTTP: p50 and p99 of N calls (default 1,000), each timed from sending the request to
having parsed the whole JSON-RPC response. Uses a raw JSON-RPC client (the standard library
only) so the numbers are the server's and the transport's, not a client SDK's.

    cargo build --release -p easel-cli && python3 scripts/bench-mcp.py [--calls 1000]
"""

import argparse
import http.client
import json
import os
import re
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
INIT = {"protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "bench", "version": "1"}}


def make_vault(easel, nodes):
    vault = Path(tempfile.mkdtemp(prefix="easel-bench-"))
    (vault / ".easel").mkdir()
    data = {"nodes": [{"id": f"{i:016x}", "type": "text", "text": f"Node {i} with some **text**",
                       "x": (i % 40) * 300, "y": (i // 40) * 200, "width": 250, "height": 120}
                      for i in range(nodes)],
            "edges": [{"id": f"e{i:015x}", "fromNode": f"{i:016x}", "toNode": f"{i + 1:016x}"}
                      for i in range(nodes - 1)]}
    src = vault / "data.json"
    src.write_text(json.dumps(data))
    subprocess.run([easel, "--vault", str(vault), "canvas", "write", "Big", "--data", str(src)],
                   check=True, capture_output=True)
    return vault


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


def bench_stdio(easel, vault, calls):
    proc = subprocess.Popen([easel, "--vault", str(vault), "mcp"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE)

    def send(msg):
        proc.stdin.write((json.dumps(msg) + "\n").encode())
        proc.stdin.flush()

    def recv():
        return json.loads(proc.stdout.readline())

    send({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": INIT})
    recv()
    send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    times = []
    for i in range(1, calls + 1):
        t = time.perf_counter()
        send({"jsonrpc": "2.0", "id": i, "method": "tools/call",
              "params": {"name": "canvas_read", "arguments": {"path": "Big"}}})
        r = recv()
        times.append(time.perf_counter() - t)
        assert r["id"] == i and not r["result"]["isError"], r
    proc.stdin.close()
    proc.wait(timeout=10)
    return times, r


def bench_http(easel, vault, calls):
    proc = subprocess.Popen([easel, "--vault", str(vault), "mcp", "--http", "127.0.0.1:0"],
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    try:
        port = int(re.search(r":(\d+)/mcp", proc.stderr.readline()).group(1))
        conn = http.client.HTTPConnection("127.0.0.1", port)
        headers = {"Content-Type": "application/json",
                   "Accept": "application/json, text/event-stream"}

        def post(msg):
            conn.request("POST", "/mcp", json.dumps(msg), headers)
            resp = conn.getresponse()
            body = resp.read().decode()
            return resp, body

        resp, _ = post({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": INIT})
        sid = resp.getheader("Mcp-Session-Id")
        if sid:
            headers["Mcp-Session-Id"] = sid
        headers["MCP-Protocol-Version"] = INIT["protocolVersion"]
        post({"jsonrpc": "2.0", "method": "notifications/initialized"})
        times = []
        for i in range(1, calls + 1):
            t = time.perf_counter()
            resp, body = post({"jsonrpc": "2.0", "id": i, "method": "tools/call",
                               "params": {"name": "canvas_read", "arguments": {"path": "Big"}}})
            if resp.getheader("Content-Type", "").startswith("text/event-stream"):
                r = next(json.loads(line[5:]) for line in body.splitlines()
                         if line.startswith("data:") and line[5:].strip())
            else:
                r = json.loads(body)
            times.append(time.perf_counter() - t)
            assert r["id"] == i and not r["result"]["isError"], r
        return times, r
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--calls", type=int, default=1000)
    ap.add_argument("--nodes", type=int, default=1000)
    ap.add_argument("--transport", choices=["stdio", "http", "both"], default="both")
    ap.add_argument("--easel", default=os.environ.get("EASEL_BIN",
                                                      str(ROOT / "target/release/easel")))
    a = ap.parse_args()
    vault = make_vault(a.easel, a.nodes)
    print(f"canvas_read on a {a.nodes}-node canvas, {a.calls} calls, {os.cpu_count()} cores")
    print("| transport | p50 (ms) | p99 (ms) | mean (ms) | response bytes |")
    print("|---|---|---|---|---|")
    for key, name, fn in [("stdio", "stdio", bench_stdio), ("http", "streamable HTTP", bench_http)]:
        if a.transport not in (key, "both"):
            continue
        times, last = fn(a.easel, vault, a.calls)
        size = len(json.dumps(last))
        ms = [t * 1000 for t in times]
        print(f"| {name} | {pct(ms, 50):.2f} | {pct(ms, 99):.2f} | "
              f"{statistics.mean(ms):.2f} | {size} |")


if __name__ == "__main__":
    main()
