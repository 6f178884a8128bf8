#!/usr/bin/env python3
"""The web UI's speed aims (issue 20), measured in headless Chromium (Debian's) with Playwright:

- the JavaScript a page downloads, and the whole bundle, gzipped (aim: under 60 KB);
- a 1,000-node canvas painted, from navigation to its nodes on screen (aim: under 300 ms);
- panning a 5,000-node canvas: one wheel step per frame for 2 s (aim: 60 frames per second),
  and how many node elements are in the DOM meanwhile (only the visible ones should be);
- a change written to disk by another program, shown on the open board (aim: under 200 ms);
- the first streamed token on screen after it reached the server: the agent chat and Send to
  LLM on the board, against a scripted model that records when it sent the first word
  (aim: within 100 ms).

Usage: scripts/bench-web.py [EASEL_BINARY] [--runs N]
Runs with the Playwright virtualenv of scripts/browser-tests.sh (target/browser-venv).
"""

import argparse
import hashlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "crates/easel-server/tests/browser"))

from playwright.sync_api import sync_playwright  # noqa: E402

from scripted_model import ScriptedModel, held  # noqa: E402

CHROMIUM = os.environ.get("EASEL_CHROMIUM", "/usr/lib/chromium/chromium")


def grid_canvas(n: int) -> dict:
    side = int(n**0.5) + 1
    nodes = [
        {"id": f"n{i:05d}", "type": "text", "text": f"Node **{i}**\n\nsome text", "x": (i % side) * 300,
         "y": (i // side) * 200, "width": 250, "height": 120, **({"color": str(i % 6 + 1)} if i % 3 == 0 else {})}
        for i in range(n)
    ]
    edges = [
        {"id": f"e{i:05d}", "fromNode": f"n{i:05d}", "fromSide": "right", "toNode": f"n{i + 1:05d}",
         "toSide": "left"}
        for i in range(0, n - 1, 2)
    ]
    return {"nodes": nodes, "edges": edges}


class Serve:
    def __init__(self, easel: str, vault: Path):
        self.proc = subprocess.Popen([easel, "--vault", str(vault), "serve", "--port", "0"],
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        line = self.proc.stdout.readline().strip()
        if not line.startswith("Easel at "):
            raise SystemExit(f"easel serve printed {line!r}")
        self.url = line.removeprefix("Easel at ")
        self.base = self.url.split("/?token=")[0]
        threading.Thread(target=self.proc.stdout.read, daemon=True).start()

    def stop(self):
        self.proc.terminate()
        self.proc.wait(timeout=10)


def bundle_sizes() -> int:
    out = subprocess.run(["node", str(ROOT / "crates/easel-server/web/build.mjs"), "--outdir",
                          tempfile.mkdtemp()], capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        if line.startswith("all JavaScript:"):
            return int(line.split()[2])
    raise SystemExit(f"build.mjs printed no total: {out}")


def page_js(page) -> int:
    """Bytes of JavaScript the page downloaded (as transferred, gzipped)."""
    return page.evaluate("""() => performance.getEntriesByType('resource')
        .filter(e => e.name.endsWith('.js'))
        .reduce((s, e) => s + e.encodedBodySize, 0)""")


PAINTED = """() => {
  const root = document.querySelector('[data-canvas-path][data-rev]');
  return root && root.dataset.rev && document.querySelectorAll('[data-node-id]').length > 0;
}"""


def open_board(page, base, path):
    page.goto(f"{base}/canvas/{path}")
    page.wait_for_function(PAINTED, timeout=30000)
    # Two frames: the one that laid out the nodes, and the one that painted them.
    return page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(performance.now()))))")


PAN = """async () => {
  const root = document.querySelector('[data-canvas-path]');
  const box = root.getBoundingClientRect();
  const x = box.left + box.width / 2, y = box.top + box.height / 2;
  const target = document.elementFromPoint(x, y) || root;
  const times = [];
  let maxNodes = 0;
  await new Promise(done => {
    const start = performance.now();
    function frame(t) {
      times.push(t);
      maxNodes = Math.max(maxNodes, document.querySelectorAll('[data-node-id]').length);
      if (t - start > 2000) return done();
      target.dispatchEvent(new WheelEvent('wheel', {deltaX: 9, deltaY: 15, clientX: x, clientY: y,
                                                    bubbles: true, cancelable: true}));
      requestAnimationFrame(frame);
    }
    requestAnimationFrame(frame);
  });
  const gaps = times.slice(1).map((t, i) => t - times[i]).sort((a, b) => a - b);
  return {frames: times.length - 1, seconds: (times[times.length - 1] - times[0]) / 1000,
          p95: gaps[Math.floor(gaps.length * 0.95)], worst: gaps[gaps.length - 1], maxNodes};
}"""

# Each watcher returns at once and leaves the moment it saw the change in window.__seen;
# `seen_at` waits for it.
# Each watcher returns at once and records in window.__seen when the change first showed,
# checked on every frame (so within one frame of the paint that shows it); `seen_at` waits for it.
WATCH_REV = """(rev) => {
  window.__seen = null;
  const check = () => {
    const root = document.querySelector('[data-canvas-path]');
    if (root && root.dataset.rev === rev) window.__seen = Date.now(); else requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
}"""

WATCH_TEXT = """(marker) => {
  window.__seen = null;
  const check = () => {
    if (document.body.textContent.includes(marker)) window.__seen = Date.now(); else requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
}"""


def seen_at(page):
    """When the watcher saw its change (ms since the epoch), or None after 20 s."""
    try:
        page.wait_for_function("() => window.__seen !== null", timeout=20000)
    except Exception:  # noqa: BLE001 - a change never shown is reported as a missing run
        return None
    return page.evaluate("window.__seen")


def first_tokens(page, model, runs, prefix, answer, prepare, send, settle_ms):
    """Milliseconds from a held answer's first token reaching the server to it being on screen.

    Each run scripts an answer whose first word is new, `prepare()`s the page, watches for the
    word, `send()`s, and releases the rest of the answer once the word is seen."""
    lags = []
    for i in range(runs):
        gate = threading.Event()
        word = f"{prefix}{i}x{time.time_ns() % 100000}"
        turn = held(answer.format(word), gate)
        model.push(turn)
        prepare()
        page.evaluate(WATCH_TEXT, word)
        send()
        seen = seen_at(page)
        gate.set()
        if seen is not None and "first_sent_at" in turn:
            lags.append(seen - turn["first_sent_at"] * 1000)
        page.wait_for_timeout(settle_ms)
    return lags


def med(xs):
    return statistics.median(xs) if xs else float("nan")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("easel", nargs="?", default=str(ROOT / "target/release/easel"))
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    rows = []
    work = Path(tempfile.mkdtemp())
    vault = work / "vault"
    shutil.copytree(ROOT / "examples/vault", vault)
    (vault / "Big1000.canvas").write_text(json.dumps(grid_canvas(1000)))
    (vault / "Big5000.canvas").write_text(json.dumps(grid_canvas(5000)))
    (vault / "Ask.canvas").write_text(json.dumps({"nodes": [
        {"id": "q", "type": "text", "text": "What is 2+2?", "x": 0, "y": 0, "width": 250, "height": 80}],
        "edges": []}))
    model = ScriptedModel([])
    model.configure(vault)
    (vault / ".easel/agents").mkdir(parents=True, exist_ok=True)
    (vault / ".easel/agents/talker.md").write_text("---\ndescription: Talks\ntools: []\n---\nYou talk.\n")
    server = Serve(args.easel, vault)
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
            ctx = browser.new_context(viewport={"width": 1280, "height": 800})
            page = ctx.new_page()
            page.goto(server.url)
            page.wait_for_selector("nav")

            total = bundle_sizes()
            rows.append(("all JavaScript of the bundle, gzipped", f"{total / 1024:.1f} KB", "< 60 KB"))
            fresh = ctx.new_page()
            fresh.goto(f"{server.base}/canvas/Big1000.canvas")
            fresh.wait_for_function(PAINTED, timeout=30000)
            rows.append(("JavaScript the board page downloads, gzipped", f"{page_js(fresh) / 1024:.1f} KB", "< 60 KB"))
            fresh.close()

            paints = [open_board(page, server.base, "Big1000.canvas") for _ in range(args.runs)]
            rows.append(("1,000-node canvas painted after navigation (median)",
                         f"{med(paints):.0f} ms (runs: {', '.join(f'{x:.0f}' for x in paints)})", "< 300 ms"))

            open_board(page, server.base, "Big5000.canvas")
            pans = [page.evaluate(PAN) for _ in range(3)]
            fps = [r["frames"] / r["seconds"] for r in pans]
            rows.append(("panning 5,000 nodes, frames per second (median of 3 × 2 s)",
                         f"{med(fps):.1f} fps (p95 frame {med([r['p95'] for r in pans]):.1f} ms, worst {max(r['worst'] for r in pans):.0f} ms)",
                         "60 fps"))
            rows.append(("node elements in the DOM while panning 5,000", str(max(r["maxNodes"] for r in pans)),
                         "only visible ones"))

            # Shown = the board re-read the file and shows its new revision (data-rev). Zoomed to
            # fit, 1,000 nodes are drawn as boxes, so the text itself is not in the page.
            open_board(page, server.base, "Big1000.canvas")
            lags = []
            for i in range(args.runs):
                c = grid_canvas(1000)
                c["nodes"][0]["text"] = f"DISK-{i}-{time.time_ns()}"
                data = json.dumps(c).encode()
                rev = hashlib.sha256(data).hexdigest()[:16]
                page.evaluate(WATCH_REV, rev)
                tmp = vault / ".Big1000.canvas.tmp"
                tmp.write_bytes(data)
                t0 = time.time() * 1000
                os.replace(tmp, vault / "Big1000.canvas")
                seen = seen_at(page)
                if seen is not None:
                    lags.append(seen - t0)
            rows.append(("a change on disk shown on the open board (median)",
                         f"{med(lags):.0f} ms (runs: {', '.join(f'{x:.0f}' for x in lags)})", "< 200 ms"))

            # The agent chat: the first word of a held answer.
            def open_chat():
                page.goto(f"{server.base}/agent/talker")
                page.get_by_role("complementary", name="Sessions").locator("h2").wait_for()
                page.get_by_role("textbox", name="Message").fill("hello")

            chat = first_tokens(page, model, args.runs, "First", "{} and the rest", open_chat,
                                lambda: page.get_by_role("button", name="Send").click(), 300)
            rows.append(("agent chat: first token on screen after it reached the server (median)",
                         f"{med(chat):.0f} ms (runs: {', '.join(f'{x:.0f}' for x in chat)})", "< 100 ms"))

            def select_question():
                open_board(page, server.base, "Ask.canvas")
                page.get_by_role("combobox", name="Model").locator("option").nth(1).wait_for(state="attached")
                box = page.locator('[data-node-id="q"]').bounding_box()
                page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)

            board = first_tokens(page, model, args.runs, "Board", "{} is four", select_question,
                                 lambda: page.get_by_role("button", name="Send to LLM").first.click(), 500)
            rows.append(("Send to LLM: first token on screen after it reached the server (median)",
                         f"{med(board):.0f} ms (runs: {', '.join(f'{x:.0f}' for x in board)})", "< 100 ms"))
            browser.close()
    finally:
        server.stop()
        model.stop()
        shutil.rmtree(work, ignore_errors=True)
    load = os.getloadavg()
    print(f"easel: {args.easel}; load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}")
    print("| measure | result | aim |\n|---|---|---|")
    for r in rows:
        print(f"| {r[0]} | {r[1]} | {r[2]} |")


if __name__ == "__main__":
    main()
