#!/usr/bin/env python3
"""`easel serve` under load (issue 20, DESIGN.md section 18 "Under load").

Starts `easel serve --port 0` on a temporary copy of examples/vault and, for a fixed time, runs
at once:

- writers: each adds text nodes to one shared canvas (`canvas_add_node`) in a loop;
- readers: `canvas_read` of that canvas and `canvas_list`;
- event-stream subscribers (`GET /api/events`), each of which must see the canvas's last change;
- misbehaving clients: headers sent byte by byte, a body trickled slowly, a client that reads
  its answer very slowly, clients that disconnect mid-request (and mid-write), event-stream
  subscribers that never read or vanish, a request that stalls in its headers;
- well-formed bodies just under the 16 MiB cap;
- bad requests: oversized bodies (413, declared and chunked), malformed JSON (400), a wrong
  content type (415), a wrong token (401), unknown operations (404), path escapes (422).

Then it checks the invariants and exits non-zero when one fails: the canvas holds exactly the
nodes the writers were told were added (no edit lost, none invented), every well-formed request
got an answer, every bad request got its status, every subscriber saw the canvas's final revision,
the server is still running and answers a fresh request quickly. It prints throughput, p50/p99
latencies, events delivered, answers by status and the server's peak RSS.

    cargo build --release -p easel-cli
    python3 scripts/bench-serve-load.py target/release/easel            # 20 s, 16 writers, 50 subscribers
    python3 scripts/bench-serve-load.py target/release/easel --quick    # 3 s, the invariants only

Python 3.11 standard library only: asyncio over raw sockets, so a client can misbehave at
the byte level.
"""

import argparse
import asyncio
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE_VAULT = ROOT / "examples" / "vault"
CANVAS = "Load.canvas"
# The server's cap (easel_http::DEFAULT_MAX_BODY_BYTES) and header deadline.
MAX_BODY = 16 * 1024 * 1024
HEADER_TIMEOUT = 10.0
# How long a well-formed request may go unanswered before it counts as lost.
ANSWER_TIMEOUT = 60.0


class Stats:
    """Everything the clients saw; the checks and the table read it."""

    def __init__(self):
        self.latency = defaultdict(list)  # kind -> seconds, answered requests only
        self.status = defaultdict(Counter)  # kind -> status -> count
        self.unanswered = Counter()  # kind -> well-formed requests without an answer
        self.wrong = []  # (kind, expected, got, detail): an answer other than the one due
        self.added = set()  # texts of the nodes the writers were told were added
        self.per_writer = Counter()  # writer -> acknowledged writes
        self.failures = []  # invariant failures, in words

    def record(self, kind, status, seconds):
        self.status[kind][status] += 1
        self.latency[kind].append(seconds)

    def expect(self, kind, expected, status, seconds, detail=""):
        self.record(kind, status, seconds)
        if status not in expected:
            self.wrong.append((kind, expected, status, detail[:200]))


class Closed(Exception):
    """The server closed the connection before answering."""


def http_request(method, path, host, token, body=b"", ctype="application/json", extra=()):
    head = [f"{method} {path} HTTP/1.1", f"Host: {host}"]
    if token is not None:
        head.append(f"Authorization: Bearer {token}")
    if body or method == "POST":
        head.append(f"Content-Type: {ctype}")
        head.append(f"Content-Length: {len(body)}")
    head.extend(extra)
    return ("\r\n".join(head) + "\r\n\r\n").encode() + body


async def read_response(reader):
    """Status, headers and body of one HTTP/1.1 response (Content-Length or chunked)."""
    try:
        head = await reader.readuntil(b"\r\n\r\n")
    except (asyncio.IncompleteReadError, ConnectionError) as e:
        raise Closed(str(e)) from e
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split(" ", 2)[1])
    headers = {}
    for line in lines[1:]:
        if ":" in line:
            k, v = line.split(":", 1)
            headers[k.strip().lower()] = v.strip()
    if "content-length" in headers:
        body = await reader.readexactly(int(headers["content-length"]))
    elif headers.get("transfer-encoding", "").lower() == "chunked":
        parts = []
        while True:
            size = int((await reader.readuntil(b"\r\n")).split(b";")[0], 16)
            if size == 0:
                await reader.readuntil(b"\r\n")
                break
            parts.append(await reader.readexactly(size))
            await reader.readexactly(2)
        body = b"".join(parts)
    else:
        body = await reader.read()
    return status, headers, body


class Client:
    """One keep-alive connection, reopened when the server closes it."""

    def __init__(self, port, token):
        self.port, self.token = port, token
        self.host = f"127.0.0.1:{port}"
        self.reader = self.writer = None

    async def close(self):
        if self.writer is not None:
            self.writer.close()
            self.reader = self.writer = None

    async def op(self, name, args, token=None, ctype="application/json", raw=None):
        """(status, parsed JSON or None, seconds). Raises Closed or TimeoutError when no answer."""
        body = raw if raw is not None else json.dumps(args).encode()
        req = http_request("POST", f"/api/ops/{name}", self.host,
                           self.token if token is None else token, body, ctype)
        for attempt in (0, 1):
            if self.writer is None:
                self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
                fresh = True
            else:
                fresh = False
            started = time.perf_counter()
            try:
                self.writer.write(req)
                await self.writer.drain()
                status, headers, data = await asyncio.wait_for(
                    read_response(self.reader), ANSWER_TIMEOUT)
            except (Closed, ConnectionError) as e:
                await self.close()
                # A kept-alive connection the server closed while idle: try once more on a
                # new one. A new connection closed without an answer is a lost request.
                if fresh or attempt == 1:
                    raise Closed(str(e)) from e
                continue
            seconds = time.perf_counter() - started
            if headers.get("connection", "").lower() == "close":
                await self.close()
            try:
                parsed = json.loads(data) if data else None
            except ValueError:
                parsed = None
            return status, parsed, seconds
        raise Closed("no answer")


async def guarded(stats, kind, coro):
    """Runs one well-formed request; a missing answer is counted, not raised."""
    try:
        return await coro
    except (Closed, ConnectionError, asyncio.TimeoutError, asyncio.IncompleteReadError) as e:
        stats.unanswered[kind] += 1
        stats.failures.append(f"{kind}: a well-formed request got no answer ({e!r})")
        return None


# ----------------------------------------------------------------------------------------------
# Well-behaved clients


async def writer(stats, port, token, index, until):
    c = Client(port, token)
    n = 0
    while time.monotonic() < until:
        text = f"w{index}-{n}"
        n += 1
        got = await guarded(stats, "write", c.op(
            "canvas_add_node", {"path": CANVAS, "type": "text", "text": text}))
        if got is None:
            continue
        status, body, seconds = got
        stats.record("write", status, seconds)
        if status == 200 and isinstance(body, dict) and body.get("node", {}).get("text") == text:
            stats.added.add(text)
            stats.per_writer[index] += 1
        elif status == 200:
            stats.failures.append(f"write: 200 without the added node: {str(body)[:200]}")
    await c.close()


async def reader_client(stats, port, token, index, until):
    c = Client(port, token)
    n = index
    while time.monotonic() < until:
        n += 1
        name, args = ("canvas_read", {"path": CANVAS}) if n % 2 else ("canvas_list", {})
        got = await guarded(stats, "read", c.op(name, args))
        if got is None:
            continue
        status, body, seconds = got
        stats.record("read", status, seconds)
        if status != 200:
            stats.wrong.append(("read", {200}, status, str(body)[:200]))
    await c.close()


class Subscriber:
    """A `GET /api/events` client that reads every event and keeps the canvas's `changed` ones."""

    def __init__(self):
        self.revs = []  # the canvas's revisions, in the order they came
        self.events = 0
        self.lagged = 0
        self.hello = asyncio.Event()
        self.error = None


async def sse_events(reader):
    """Yields the JSON of each `data:` line of a chunked SSE body."""
    buf = b""
    while True:
        size = int((await reader.readuntil(b"\r\n")).split(b";")[0], 16)
        if size == 0:
            return
        buf += await reader.readexactly(size)
        await reader.readexactly(2)
        while b"\n\n" in buf:
            block, buf = buf.split(b"\n\n", 1)
            for line in block.split(b"\n"):
                if line.startswith(b"data:"):
                    yield json.loads(line[5:].strip())


async def subscriber(port, token, sub, stop):
    try:
        reader, w = await asyncio.open_connection("127.0.0.1", port)
        w.write(http_request("GET", "/api/events", f"127.0.0.1:{port}", token,
                             extra=["Accept: text/event-stream"]))
        await w.drain()
        head = await reader.readuntil(b"\r\n\r\n")
        if b" 200 " not in head.split(b"\r\n")[0]:
            first = head.split(b"\r\n")[0]
            sub.error = f"status line {first!r}"
            sub.hello.set()
            return
        async for ev in sse_events(reader):
            sub.events += 1
            kind = ev.get("type")
            if kind == "hello":
                sub.hello.set()
            elif kind == "lagged":
                sub.lagged += 1
            elif kind == "changed" and ev.get("path") == CANVAS:
                sub.revs.append(ev.get("rev"))
            if stop.is_set():
                break
        else:
            sub.error = "the server ended the stream"
    except (ConnectionError, asyncio.IncompleteReadError, ValueError) as e:
        sub.error = repr(e)
    finally:
        sub.hello.set()
        if "w" in locals():
            w.close()


# ----------------------------------------------------------------------------------------------
# Misbehaving clients


async def raw_exchange(port, data, pause=0.0, piece=1, keep_open=False):
    """Sends `data` in pieces of `piece` bytes with `pause` between them; the answer's status
    and body, or None when the server closed first."""
    reader, w = await asyncio.open_connection("127.0.0.1", port)
    try:
        for i in range(0, len(data), piece):
            w.write(data[i:i + piece])
            await w.drain()
            if pause:
                await asyncio.sleep(pause)
        status, _, body = await asyncio.wait_for(read_response(reader), ANSWER_TIMEOUT)
        return status, body
    finally:
        if not keep_open:
            w.close()


async def slow_headers(stats, port, token, until, pause):
    """A whole request, one byte at a time: it must be answered (within the header deadline)."""
    host = f"127.0.0.1:{port}"
    while time.monotonic() < until:
        req = http_request("POST", "/api/ops/canvas_list", host, token, b"{}")
        started = time.perf_counter()
        try:
            got = await raw_exchange(port, req, pause=pause)
        except (Closed, ConnectionError, asyncio.TimeoutError, asyncio.IncompleteReadError) as e:
            # On a loaded machine the pauses can add up past the server's header deadline;
            # being disconnected then is the server doing its job.
            if time.perf_counter() - started >= HEADER_TIMEOUT:
                stats.status["slow-headers"]["cut off at the deadline"] += 1
            else:
                stats.unanswered["slow-headers"] += 1
                stats.failures.append(f"slow-headers: no answer ({e!r})")
            continue
        stats.expect("slow-headers", {200}, got[0], time.perf_counter() - started)


async def slow_body(stats, port, token, until, pause):
    """Headers at once, then the body a few bytes at a time."""
    host = f"127.0.0.1:{port}"
    # Whitespace pads the body so it takes a while to trickle in.
    body = ("{" + " " * 40 + json.dumps("path") + ": " + json.dumps(CANVAS) + "}").encode()
    while time.monotonic() < until:
        head = http_request("POST", "/api/ops/canvas_read", host, token, body)
        started = time.perf_counter()

        async def go():
            reader, w = await asyncio.open_connection("127.0.0.1", port)
            try:
                w.write(head[: len(head) - len(body)])
                await w.drain()
                for i in range(0, len(body), 4):
                    w.write(body[i:i + 4])
                    await w.drain()
                    await asyncio.sleep(pause)
                status, _, _ = await asyncio.wait_for(read_response(reader), ANSWER_TIMEOUT)
                return status
            finally:
                w.close()

        status = await guarded(stats, "slow-body", go())
        if status is not None:
            stats.expect("slow-body", {200}, status, time.perf_counter() - started)


async def slow_reader(stats, port, token, until):
    """Asks for the whole (growing) canvas and reads the answer 512 bytes at a time with
    pauses: the server must keep it and go on answering everyone else."""
    host = f"127.0.0.1:{port}"
    while time.monotonic() < until:
        started = time.perf_counter()

        async def go():
            sock = socket.socket()
            # A small receive window, so the server really has to wait for this client.
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            sock.setblocking(False)
            await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", port))
            reader, w = await asyncio.open_connection(sock=sock, limit=512)
            try:
                w.write(http_request("POST", "/api/ops/canvas_read", host, token,
                                     json.dumps({"path": CANVAS}).encode()))
                await w.drain()
                data = b""
                while True:
                    piece = await asyncio.wait_for(reader.read(512), ANSWER_TIMEOUT)
                    if not piece:
                        break
                    data += piece
                    head, sep, rest = data.partition(b"\r\n\r\n")
                    if sep:
                        length = [line for line in head.split(b"\r\n")
                                  if line.lower().startswith(b"content-length:")]
                        if length and len(rest) >= int(length[0].split(b":")[1]):
                            json.loads(rest)  # the whole canvas arrived intact
                            return int(head.split(b" ")[1])
                    await asyncio.sleep(0.02)
                raise Closed("closed before the whole answer")
            finally:
                w.close()

        status = await guarded(stats, "slow-reader", go())
        if status is not None:
            stats.expect("slow-reader", {200}, status, time.perf_counter() - started)


async def disconnecters(stats, port, token, until):
    """Clients that leave mid-request; nothing is expected of them but that the server
    shrugs. Their writes add nodes named `gone-…`, which may or may not land."""
    host = f"127.0.0.1:{port}"
    n = 0
    while time.monotonic() < until:
        n += 1
        add = json.dumps({"path": CANVAS, "type": "text", "text": f"gone-{n}"}).encode()
        variants = [
            b"",  # connect and close
            http_request("POST", "/api/ops/canvas_list", host, token, b"{}")[:20],
            http_request("POST", "/api/ops/canvas_read", host, token,
                         json.dumps({"path": CANVAS}).encode())[:-5],  # body cut short
            http_request("POST", "/api/ops/canvas_add_node", host, token, add),  # never read
            http_request("GET", "/api/events", host, token),  # subscribe and leave
        ]
        data = variants[n % len(variants)]
        try:
            _, w = await asyncio.open_connection("127.0.0.1", port)
            w.write(data)
            await w.drain()
            await asyncio.sleep(0.01)
            sock = w.get_extra_info("socket")
            if n % 2:
                # Vanish without a FIN, as a killed process or a dropped network does.
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
            w.close()
            stats.status["disconnect"]["left"] += 1
        except ConnectionError:
            stats.status["disconnect"]["refused"] += 1
        await asyncio.sleep(0.02)


async def silent_subscribers(port, token, count, opened):
    """Event-stream subscribers that connect and never read a byte (with a tiny receive window):
    the server must drop or skip them, not wait for them."""
    host = f"127.0.0.1:{port}"
    for _ in range(count):
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
        sock.setblocking(False)
        await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", port))
        await asyncio.get_running_loop().sock_sendall(
            sock, http_request("GET", "/api/events", host, token))
        opened.append(sock)


async def stalled_headers(stats, port, token):
    """Half a request line, then silence: the server must close the connection after its
    header deadline instead of holding it forever."""
    reader, w = await asyncio.open_connection("127.0.0.1", port)
    w.write(b"POST /api/ops/canvas_list HTTP/1.1\r\nHost: 127.0.0.1\r\n")
    await w.drain()
    started = time.monotonic()
    try:
        data = await asyncio.wait_for(reader.read(), HEADER_TIMEOUT + 20)
        stats.status["stalled-headers"][f"closed after {time.monotonic() - started:.0f} s"] += 1
        del data
    except asyncio.TimeoutError:
        stats.failures.append("stalled-headers: the server kept a stalled connection open")
    finally:
        w.close()


async def oversized(stats, port, token, until, chunked):
    """A body over the cap: 413, and the server stays up. With `chunked` the size is not
    declared, so the server has to count."""
    host = f"127.0.0.1:{port}"
    kind = "oversized-chunked" if chunked else "oversized"
    block = b"[" + b"0," * (512 * 1024)
    while time.monotonic() < until:
        started = time.perf_counter()
        reader, w = await asyncio.open_connection("127.0.0.1", port)
        try:
            if chunked:
                w.write(http_request("POST", "/api/ops/canvas_list", host, token, b"",
                                     extra=["Transfer-Encoding: chunked"]).replace(
                    b"Content-Length: 0\r\n", b""))
            else:
                w.write(http_request("POST", "/api/ops/canvas_list", host, token, b"")
                        .replace(b"Content-Length: 0", f"Content-Length: {MAX_BODY + 1024}".encode()))
            sent = 0
            answer = asyncio.ensure_future(read_response(reader))
            # Keep sending until the answer comes (or the whole body is out).
            while sent < MAX_BODY + 1024 and not answer.done():
                piece = block if not chunked else b"%x\r\n" % len(block) + block + b"\r\n"
                w.write(piece)
                try:
                    await asyncio.wait_for(w.drain(), 5)
                except (ConnectionError, asyncio.TimeoutError):
                    break
                sent += len(block)
            status = None
            try:
                status, _, _ = await asyncio.wait_for(answer, ANSWER_TIMEOUT)
            except (Closed, ConnectionError, asyncio.IncompleteReadError):
                pass
            if status is None:
                stats.expect(kind, {413}, "reset before 413", time.perf_counter() - started)
            else:
                stats.expect(kind, {413}, status, time.perf_counter() - started)
        finally:
            w.close()
        await asyncio.sleep(0.2)


async def big_bodies(stats, port, token, until):
    """Well-formed requests just under the cap (whitespace-padded JSON): answered like any
    other (or 503 when the server already holds its budget of bodies), and the server's memory
    must not grow with how many of them it has seen or hold at once."""
    c = Client(port, token)
    body = b"{" + b" " * (MAX_BODY - 1024) + b"}"
    while time.monotonic() < until:
        got = await guarded(stats, "big-body", c.op("canvas_list", None, raw=body))
        if got:
            # 503 is the server's memory budget for bodies held at once (128 MiB) at work.
            stats.expect("big-body", {200, 503}, got[0], got[2], str(got[1]))
        # Paced: pumping 16 MiB bodies flat out would load this script more than the server.
        await asyncio.sleep(0.5)
    await c.close()


async def bad_requests(stats, port, token, until):
    """Each kind of bad request, in turn, with the status it must get."""
    c = Client(port, token)
    cases = [
        ("malformed", {400}, dict(name="canvas_list", args=None, raw=b"{\"path\": ")),
        ("wrong-type", {415}, dict(name="canvas_list", args={}, ctype="text/plain")),
        ("wrong-token", {401}, dict(name="canvas_list", args={}, token="not-the-token")),
        ("unknown-op", {404}, dict(name="canvas_frobnicate", args={})),
        ("path-escape", {422}, dict(name="canvas_read", args={"path": "../../etc/passwd.canvas"})),
        ("path-escape", {422}, dict(name="note_read", args={"path": "/etc/passwd"})),
    ]
    n = 0
    while time.monotonic() < until:
        kind, expected, kw = cases[n % len(cases)]
        n += 1
        got = await guarded(stats, kind, c.op(**kw))
        if got:
            stats.expect(kind, expected, got[0], got[2], str(got[1]))
        await asyncio.sleep(0.005)
    await c.close()
    # A vault file outside the vault, through the files route.
    for path in ("/api/files/..%2F..%2Fetc%2Fpasswd", "/api/files/%2Fetc%2Fpasswd"):
        started = time.perf_counter()
        got = await guarded(stats, "path-escape", raw_exchange(
            port, http_request("GET", path, f"127.0.0.1:{port}", token)))
        if got:
            stats.expect("path-escape", {404, 422}, got[0], time.perf_counter() - started,
                         got[1].decode("utf-8", "replace"))


# ----------------------------------------------------------------------------------------------
# The server


class Server:
    def __init__(self, binary, vault):
        self.proc = subprocess.Popen(
            [binary, "--vault", str(vault), "serve", "--port", "0"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline().strip()
        if not line.startswith("Easel at "):
            self.proc.kill()
            raise SystemExit(f"easel serve printed {line!r} first: {self.proc.stderr.read()}")
        url = line.removeprefix("Easel at ")
        base, _, self.token = url.partition("/?token=")
        self.port = int(base.rsplit(":", 1)[1])
        self.stderr = []
        threading.Thread(target=self.proc.stdout.read, daemon=True).start()
        threading.Thread(target=self._drain, daemon=True).start()
        self.peak_sampled = 0

    def _drain(self):
        for line in self.proc.stderr:
            self.stderr.append(line)
            del self.stderr[:-50]

    def memory_kb(self, field):
        try:
            for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
                if line.startswith(field + ":"):
                    return int(line.split()[1])
        except OSError:
            pass
        return 0

    def stop(self):
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


async def sample_memory(server, stop):
    while not stop.is_set():
        server.peak_sampled = max(server.peak_sampled, server.memory_kb("VmRSS"))
        await asyncio.sleep(0.2)


def pct(values, p):
    if not values:
        return float("nan")
    s = sorted(values)
    return s[min(len(s) - 1, int(round(p / 100 * (len(s) - 1))))]


async def run(args, server, stats):
    port, token = server.port, server.token
    setup = Client(port, token)
    status, body, _ = await setup.op("canvas_write", {"path": CANVAS, "nodes": [], "edges": []})
    if status != 200:
        raise SystemExit(f"could not create {CANVAS}: {status} {body}")
    await setup.close()

    stop = asyncio.Event()
    subs = [Subscriber() for _ in range(args.subscribers)]
    sub_tasks = [asyncio.create_task(subscriber(port, token, s, stop)) for s in subs]
    await asyncio.wait_for(asyncio.gather(*(s.hello.wait() for s in subs)), 30)
    silent = []
    await silent_subscribers(port, token, args.silent, silent)
    mem_stop = asyncio.Event()
    mem_task = asyncio.create_task(sample_memory(server, mem_stop))
    rss_before = server.memory_kb("VmRSS")

    started = time.monotonic()
    until = started + args.duration
    # Byte-by-byte headers must finish within the server's header deadline.
    header_pause = min(0.03, (HEADER_TIMEOUT * 0.5) / 160)
    tasks = [asyncio.create_task(writer(stats, port, token, i, until)) for i in range(args.writers)]
    tasks += [asyncio.create_task(reader_client(stats, port, token, i, until))
              for i in range(args.readers)]
    tasks += [
        asyncio.create_task(slow_headers(stats, port, token, until, header_pause)),
        asyncio.create_task(slow_body(stats, port, token, until, 0.05)),
        asyncio.create_task(slow_reader(stats, port, token, until)),
        asyncio.create_task(disconnecters(stats, port, token, until)),
        asyncio.create_task(bad_requests(stats, port, token, until)),
        asyncio.create_task(oversized(stats, port, token, until, chunked=False)),
        asyncio.create_task(oversized(stats, port, token, until, chunked=True)),
    ]
    tasks += [asyncio.create_task(big_bodies(stats, port, token, until)) for _ in range(args.big)]
    if not args.quick:
        tasks.append(asyncio.create_task(stalled_headers(stats, port, token)))
    await asyncio.gather(*tasks)
    elapsed = time.monotonic() - started

    # The canvas as the server has it now; every subscriber must get to this revision.
    check = Client(port, token)
    status, final, _ = await check.op("canvas_read", {"path": CANVAS})
    final_rev = final.get("rev") if isinstance(final, dict) else None
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline and not all(
            s.revs and s.revs[-1] == final_rev for s in subs if not s.error):
        await asyncio.sleep(0.05)
    stop.set()

    # Still up, still quick, still answering a subscriber nobody slowed.
    fresh = Client(port, token)
    t0 = time.perf_counter()
    try:
        fresh_status, _, _ = await asyncio.wait_for(fresh.op("canvas_list", {}), 10)
    except (Closed, ConnectionError, asyncio.TimeoutError) as e:
        fresh_status = repr(e)
    fresh_seconds = time.perf_counter() - t0
    await fresh.close()
    mem_stop.set()
    await mem_task
    rss_after = server.memory_kb("VmRSS")
    for t in sub_tasks:
        t.cancel()
    await asyncio.gather(*sub_tasks, return_exceptions=True)
    for sock in silent:
        sock.close()
    await check.close()
    return dict(elapsed=elapsed, final=final, final_rev=final_rev, subs=subs,
                fresh_status=fresh_status, fresh_seconds=fresh_seconds,
                rss_before=rss_before, rss_after=rss_after)


def check_and_report(args, server, stats, r, vault):
    failures = list(dict.fromkeys(stats.failures))
    on_disk = json.loads((vault / CANVAS).read_text())
    texts = [n.get("text", "") for n in on_disk.get("nodes", [])]
    ids = [n.get("id") for n in on_disk.get("nodes", [])]
    written = {t for t in texts if t.startswith("w")}
    gone = sum(1 for t in texts if t.startswith("gone-"))
    if len(ids) != len(set(ids)):
        failures.append("the canvas has duplicate node ids")
    lost = stats.added - written
    invented = written - stats.added
    if lost:
        failures.append(f"{len(lost)} acknowledged edits are missing from the canvas, e.g. {sorted(lost)[:5]}")
    if invented:
        failures.append(f"{len(invented)} nodes on the canvas were never acknowledged, e.g. {sorted(invented)[:5]}")
    served = r["final"].get("nodes", []) if isinstance(r["final"], dict) else []
    if len(served) != len(texts):
        failures.append(f"the server reads {len(served)} nodes, the file has {len(texts)}")
    for kind, expected, got, detail in stats.wrong:
        failures.append(f"{kind}: expected {sorted(expected)}, got {got} {detail}")
    subs = r["subs"]
    union = set()
    for s in subs:
        union.update(s.revs)
    broken = [s.error for s in subs if s.error]
    if broken:
        failures.append(f"{len(broken)} subscribers lost their stream: {broken[:3]}")
    behind = [s for s in subs if not s.error and (not s.revs or s.revs[-1] != r["final_rev"])]
    if behind:
        failures.append(f"{len(behind)} of {len(subs)} subscribers never saw the final revision")
    complete = sum(1 for s in subs if set(s.revs) == union)
    lagged = sum(s.lagged for s in subs)
    if server.proc.poll() is not None:
        failures.append(f"the server exited with {server.proc.returncode}")
    if r["fresh_status"] != 200:
        failures.append(f"a fresh request after the run got {r['fresh_status']}")
    elif r["fresh_seconds"] > args.fresh_limit:
        failures.append(f"a fresh request after the run took {r['fresh_seconds']:.2f} s")
    peak = max(server.memory_kb("VmHWM"), server.peak_sampled)
    if args.max_rss_mb and peak / 1024 > args.max_rss_mb:
        failures.append(f"peak RSS {peak / 1024:.0f} MiB is over --max-rss-mb {args.max_rss_mb}")

    el = r["elapsed"]
    total = sum(sum(c.values()) for k, c in stats.status.items() if k != "disconnect")
    print(f"easel serve under load: {args.binary}")
    print(f"{el:.1f} s, {args.writers} writers, {args.readers} readers, "
          f"{args.subscribers} subscribers (+{args.silent} that never read), "
          f"{args.big} near-cap bodies at a time")
    print()
    print(f"{'kind':<20}{'answers':>9}{'per s':>9}{'p50 ms':>10}{'p99 ms':>10}  statuses")
    for kind in sorted(stats.status):
        c = stats.status[kind]
        n = sum(c.values())
        lat = stats.latency.get(kind, [])
        sts = ", ".join(f"{k}: {v}" for k, v in sorted(c.items(), key=lambda kv: str(kv[0])))
        p50 = f"{pct(lat, 50) * 1000:.1f}" if lat else "-"
        p99 = f"{pct(lat, 99) * 1000:.1f}" if lat else "-"
        print(f"{kind:<20}{n:>9}{n / el:>9.1f}{p50:>10}{p99:>10}  {sts}")
    print(f"{'all requests':<20}{total:>9}{total / el:>9.1f}")
    print()
    errors = Counter()
    for kind, c in stats.status.items():
        for st, v in c.items():
            if isinstance(st, int) and st >= 400:
                errors[st] += v
    print("errors by status: " + (", ".join(f"{k}: {v}" for k, v in sorted(errors.items())) or "none"))
    per_writer = [stats.per_writer[i] for i in range(args.writers)]
    print(f"writes acknowledged: {len(stats.added)} (per writer min {min(per_writer, default=0)}, "
          f"max {max(per_writer, default=0)}); on the canvas: {len(written)} "
          f"(+{gone} from clients that disconnected mid-write); lost: {len(lost)}")
    delivered = sum(s.events for s in subs)
    per = [len(s.revs) for s in subs]
    print(f"events delivered: {delivered} ({delivered / el:.0f}/s); canvas changes per subscriber "
          f"min {min(per, default=0)} max {max(per, default=0)} of {len(union)} published; "
          f"{complete}/{len(subs)} saw every one, {len(subs) - len(behind)}/{len(subs)} the last; "
          f"lagged notices: {lagged}")
    print(f"unanswered well-formed requests: {sum(stats.unanswered.values())}")
    print(f"fresh request after the run: {r['fresh_status']} in {r['fresh_seconds'] * 1000:.1f} ms")
    print(f"server RSS: {r['rss_before'] / 1024:.0f} MiB before, peak {peak / 1024:.0f} MiB, "
          f"{r['rss_after'] / 1024:.0f} MiB after")
    print()
    if failures:
        print(f"FAILED: {len(failures)} invariant(s)")
        for f in failures[:30]:
            print(f"  - {f}")
        if server.stderr:
            print("server stderr (last lines):")
            print("".join(server.stderr[-10:]))
        return 1
    print("OK: no edit lost, every request answered, every subscriber current, server up")
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("binary", help="the easel binary, e.g. target/release/easel")
    ap.add_argument("--duration", type=float, default=20.0, help="seconds of load (default 20)")
    ap.add_argument("--writers", type=int, default=16)
    ap.add_argument("--readers", type=int, default=8)
    ap.add_argument("--subscribers", type=int, default=50)
    ap.add_argument("--silent", type=int, default=10,
                    help="event-stream subscribers that never read")
    ap.add_argument("--big", type=int, default=2,
                    help="clients sending well-formed bodies just under the 16 MiB cap")
    ap.add_argument("--fresh-limit", type=float, default=2.0,
                    help="seconds a fresh request after the run may take")
    ap.add_argument("--max-rss-mb", type=float, default=0, help="fail above this peak RSS")
    ap.add_argument("--quick", action="store_true",
                    help="3 s, 4 writers, 2 readers, 8 subscribers: the invariants only")
    args = ap.parse_args()
    if args.quick:
        args.duration, args.writers, args.readers = 3.0, 4, 2
        args.subscribers, args.silent, args.big = 8, 2, 1
    binary = shutil.which(args.binary) or args.binary
    if not os.access(binary, os.X_OK):
        raise SystemExit(f"no easel binary at {args.binary}; build one with cargo build -p easel-cli")
    args.binary = binary
    with tempfile.TemporaryDirectory(prefix="easel-load-") as tmp:
        vault = Path(tmp) / "vault"
        shutil.copytree(EXAMPLE_VAULT, vault)
        server = Server(binary, vault)
        stats = Stats()
        try:
            result = asyncio.run(run(args, server, stats))
            code = check_and_report(args, server, stats, result, vault)
        finally:
            server.stop()
    sys.exit(code)


if __name__ == "__main__":
    main()
