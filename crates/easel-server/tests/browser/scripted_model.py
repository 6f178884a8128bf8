"""A scripted model server for browser tests, the Python twin of easel-agent's `scripted.rs`:
an HTTP server on 127.0.0.1 speaking OpenAI's streamed Chat Completions, answering each request
with the next turn of a script and recording what it was sent. Easel reaches it through its
real `openai-compat` provider, so the page is tested over the real wire format.

    model = ScriptedModel([call("note_write", {"path": "a.md", "content": "x"}), text("Done.")])
    model.configure(vault)          # writes .easel/config.toml
    ...
    model.stop()
"""

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path


def text(t: str) -> dict:
    """A turn that answers with text (streamed word by word)."""
    return {"text": t}


def held(t: str, gate: threading.Event) -> dict:
    """A text turn that streams its first word, then waits for `gate` to be set before the rest."""
    return {"text": t, "hold": gate}


def call(name: str, args: dict) -> dict:
    """A turn that calls one tool."""
    return {"calls": [(name, args)]}


def calls(*pairs) -> dict:
    """A turn that calls several tools: calls(("a", {...}), ("b", {...}))."""
    return {"calls": list(pairs)}


class ScriptedModel:
    def __init__(self, turns):
        self.turns = list(turns)
        self.requests = []
        self.lock = threading.Lock()
        owner = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):  # quiet
                pass

            def do_POST(self):
                length = int(self.headers.get("content-length", "0"))
                body = json.loads(self.rfile.read(length) or b"null")
                with owner.lock:
                    owner.requests.append(body)
                    turn = owner.turns.pop(0) if owner.turns else None
                    n = len(owner.requests)
                if turn is None:
                    msg = b'{"error":{"message":"the script has no more turns"}}'
                    self.send_response(500)
                    self.send_header("content-type", "application/json")
                    self.send_header("content-length", str(len(msg)))
                    self.end_headers()
                    self.wfile.write(msg)
                    return
                parts = [f"data: {json.dumps(e)}\n\n".encode() for e in owner._events(turn, n)]
                parts.append(b"data: [DONE]\n\n")
                data = b"".join(parts)
                self.send_response(200)
                self.send_header("content-type", "text/event-stream")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                if "hold" in turn:
                    self.wfile.write(parts[0])
                    self.wfile.flush()
                    # When the first word left, for latency measurements (scripts/bench-web.py).
                    turn["first_sent_at"] = time.time()
                    turn["hold"].wait(30)
                    self.wfile.write(b"".join(parts[1:]))
                else:
                    self.wfile.write(data)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.httpd.server_address[1]
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    @staticmethod
    def _events(turn, n):
        def chunk(delta, finish=None):
            return {"id": f"r{n}", "object": "chat.completion.chunk", "model": "scripted",
                    "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}

        events = []
        if "text" in turn:
            words = turn["text"].split(" ")
            for i, w in enumerate(words):
                piece = w if i == len(words) - 1 else w + " "
                events.append(chunk({"role": "assistant", "content": piece}))
            finish = "stop"
        else:
            for i, (name, args) in enumerate(turn["calls"]):
                a = json.dumps(args)
                half = len(a) // 2
                events.append(chunk({"tool_calls": [{"index": i, "id": f"call_{n}_{i}", "type": "function",
                                                     "function": {"name": name, "arguments": a[:half]}}]}))
                events.append(chunk({"tool_calls": [{"index": i, "function": {"arguments": a[half:]}}]}))
            finish = "tool_calls"
        events.append(chunk({}, finish))
        events.append({"id": f"r{n}", "object": "chat.completion.chunk", "choices": [],
                       "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}})
        return events

    def push(self, *turns):
        with self.lock:
            self.turns.extend(turns)

    def left(self) -> int:
        with self.lock:
            return len(self.turns)

    def config(self) -> str:
        return (
            '[llm]\ndefault_model = "openai-compat:scripted"\nmax_retries = 0\n\n'
            f'[providers.openai-compat]\nbase_url = "http://127.0.0.1:{self.port}/v1"\n'
        )

    def configure(self, vault: Path):
        (vault / ".easel").mkdir(parents=True, exist_ok=True)
        (vault / ".easel" / "config.toml").write_text(self.config())

    def stop(self):
        self.httpd.shutdown()
