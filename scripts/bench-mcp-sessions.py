#!/usr/bin/env python3
"""Memory of `easel mcp --http` under clients that never send DELETE: N sessions (default
1,200), each initialize + initialized + tools/list and then abandoned, as clients that exit or
crash leave them. Prints the server's resident memory (VmRSS) before, after the sessions, and
after waiting past --session-idle, and how many sessions still answered.

    cargo build -p easel-cli && python3 scripts/bench-mcp-sessions.py [--sessions 1200] [--idle 5]
    # without expiry in sight, for comparison:
    python3 scripts/bench-mcp-sessions.py --idle 3600 --wait 11
"""

import argparse
import http.client
import json
import re
import subprocess
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
INIT = {"jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                   "clientInfo": {"name": "bench", "version": "1"}}}
HEADERS = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}


def rss_mb(pid):
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def post(port, body, headers):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    c.request("POST", "/mcp", json.dumps(body), {**HEADERS, **headers})
    r = c.getresponse()
    r.read()
    sid = r.getheader("mcp-session-id")
    c.close()
    return r.status, sid


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sessions", type=int, default=1200)
    ap.add_argument("--idle", type=int, default=5, help="--session-idle SECS for the server")
    ap.add_argument("--wait", type=int, help="seconds between the rounds (default 2 * idle + 1)")
    ap.add_argument("--easel", default=str(ROOT / "target/debug/easel"))
    a = ap.parse_args()
    vault = tempfile.mkdtemp(prefix="easel-sessions-")
    srv = subprocess.Popen([a.easel, "--vault", vault, "mcp", "--http", "127.0.0.1:0",
                            "--session-idle", str(a.idle)],
                           stderr=subprocess.PIPE, text=True)
    try:
        line = srv.stderr.readline()
        port = int(re.search(r"127\.0\.0\.1:(\d+)", line).group(1))
        before = rss_mb(srv.pid)
        def abandon(n):
            ids = []
            for _ in range(n):
                status, sid = post(port, INIT, {})
                assert status == 200, status
                h = {"Mcp-Session-Id": sid, "MCP-Protocol-Version": "2025-06-18"}
                post(port, {"jsonrpc": "2.0", "method": "notifications/initialized"}, h)
                status, _ = post(port, {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}, h)
                assert status == 200, status
                ids.append(sid)
            return ids

        ids = abandon(a.sessions)
        after = rss_mb(srv.pid)
        time.sleep(a.wait if a.wait is not None else a.idle * 2 + 1)
        alive = sum(post(port, {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
                         {"Mcp-Session-Id": s, "MCP-Protocol-Version": "2025-06-18"})[0] == 200
                    for s in ids[:50])
        # With the idle sessions gone, a second round reuses their memory instead of adding to it.
        abandon(a.sessions)
        again = rss_mb(srv.pid)
        print(f"sessions={a.sessions} idle={a.idle}s  rss: before={before:.0f} MB  "
              f"after {a.sessions}={after:.0f} MB  after another {a.sessions} "
              f"(first ones idle)={again:.0f} MB  first sessions still answering={alive}/50")
    finally:
        srv.terminate()
        srv.wait()


if __name__ == "__main__":
    main()
