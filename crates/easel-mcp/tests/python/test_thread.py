"""The conversation tools, thread_context and thread_send, driven by the official MCP Python SDK.
thread_send is answered by the real embedded model (local:smollm2, fetched by
`easel llm fetch`; make test runs scripts/fetch-model.sh)."""

import json
import shutil
import subprocess
from pathlib import Path

import anyio
import pytest

from clients import err, ok, session
from conftest import http_server

pytestmark = pytest.mark.anyio

FIXTURE = Path(__file__).resolve().parents[3] / "easel-canvas/tests/data/obsidian-layout.canvas"
# In the fixture: a system node, then this prompt, with a link node joined at its left side.
SYSTEM, PROMPT, LINK = "1a2b3c4d5e6f7081", "4d5e6f708192a3b4", "3c4d5e6f708192a3"


@pytest.fixture
def anyio_backend():
    return "asyncio"


@pytest.fixture(params=["stdio", "http"])
def connect(request, easel, vault):
    if request.param == "stdio":
        return lambda name="pytest-client": session("stdio", easel, vault, name=name)
    cm = http_server(easel, vault)
    url = cm.__enter__()
    request.addfinalizer(lambda: cm.__exit__(None, None, None))
    return lambda name="pytest-client": session("http", easel, vault, url=url, name=name)


def cli_json(easel, vault, *argv):
    out = subprocess.run([easel, "--vault", str(vault), "--json", *argv],
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


async def test_thread_context_is_the_cli_context(connect, easel, vault):
    shutil.copy(FIXTURE, vault / "Research.canvas")
    async with connect() as s:
        tools = {t.name: t for t in (await s.list_tools()).tools}
        for name in ["thread_context", "thread_send"]:
            assert "Example" in tools[name].description
            assert set(tools[name].input_schema["required"]) == {"canvas", "node"}
        assert tools["thread_context"].annotations.read_only_hint is True
        assert tools["thread_send"].annotations.read_only_hint is False

        res = await s.call_tool("thread_context", {"canvas": "Research", "node": PROMPT})
        assert not res.is_error, res.content[0].text
        ctx = json.loads(res.content[0].text)
        assert list(ctx) == ["chain", "messages", "warnings", "model"]
        assert ctx["chain"] == [SYSTEM, PROMPT]
        assert [m["role"] for m in ctx["messages"]] == ["system", "user", "user"]
        # The prompt's context comes before the prompt, which is always last.
        assert [m["node"] for m in ctx["messages"]] == [SYSTEM, LINK, PROMPT]
        assert ctx["messages"][2]["content"] == "Summarise the spec in **three** bullet points."
        assert ctx["model"] == "local:smollm2"
        assert ctx == cli_json(easel, vault, "thread", "context", "Research", PROMPT)

        other = await ok(s, "thread_context", {"canvas": "Research.canvas", "node": PROMPT,
                                               "model": "ollama:llama3.1",
                                               "context_window": 4096})
        assert other["model"] == "ollama:llama3.1"
        assert other == cli_json(easel, vault, "thread", "context", "Research", PROMPT,
                                 "--model", "ollama:llama3.1", "--context-window", "4096")

        text, e = await err(s, "thread_context", {"canvas": "Research", "node": "nope"})
        assert text.startswith("Node 'nope' does not exist in this canvas")
        assert e["kind"] == "not_found" and "canvas_read" in e["hint"]
        assert "easel " not in e["hint"]
        text, e = await err(s, "thread_context", {"canvas": "Missing", "node": PROMPT})
        assert e["kind"] == "not_found" and "canvas_list" in e["hint"]
        text, e = await err(s, "thread_send", {"canvas": "Research", "node": PROMPT,
                                               "temperature": -1})
        assert e["kind"] == "invalid" and "temperature" in text
        text, e = await err(s, "thread_context", {"canvas": "Research"})
        assert "'node' is missing" in text
    # Nothing was sent, so nothing was written.
    assert (vault / "Research.canvas").read_bytes() == FIXTURE.read_bytes()


async def test_thread_send_writes_the_local_models_answer(connect, vault):
    async with connect("thread-tester") as s:
        await ok(s, "canvas_write", {"path": "Chat", "data": {"nodes": [
            {"id": "q", "type": "text", "text": "What is 2+2? Answer in one sentence.",
             "x": 0, "y": 0, "width": 250, "height": 80}]}})
        res = await s.call_tool("thread_send", {"canvas": "Chat", "node": "q",
                                                "model": "local:smollm2", "temperature": 0,
                                                "max_tokens": 40})
        assert not res.is_error, res.content[0].text
        sent = json.loads(res.content[0].text)
        assert {"node", "edge", "model", "text", "usage"} <= set(sent)
        assert sent["model"] == "local:smollm2" and sent["partial"] is False
        answer = sent["text"]
        assert "4" in answer or "four" in answer.lower(), answer
        assert sent["usage"]["completion_tokens"] > 0

        c = await ok(s, "canvas_read", {"path": "Chat"})
        nodes = {n["id"]: n for n in c["nodes"]}
        assert set(nodes) == {"q", sent["node"]}
        node = nodes[sent["node"]]
        assert node["type"] == "text" and node["color"] == "3"
        assert (node["x"], node["y"], node["width"]) == (0, 140, 400)
        assert node["height"] > 0
        body = node["text"]
        assert body.startswith("---\nrole: assistant\nmodel: local:smollm2\ncreated: "), body
        assert body.endswith(f"---\n\n{answer}"), body
        assert nodes["q"]["text"] == "What is 2+2? Answer in one sentence."
        [edge] = c["edges"]
        assert edge["id"] == sent["edge"]
        assert (edge["fromNode"], edge["fromSide"]) == ("q", "bottom")
        assert (edge["toNode"], edge["toSide"]) == (sent["node"], "top")

        # The answer is in the ledger under this client's name, so ledger_undo can take it back.
        entries = (await ok(s, "ledger_list", {"limit": 50}))["entries"]
        assert any(e["actor"] == "mcp:thread-tester" and e["path"] == "Chat.canvas"
                   for e in entries), entries

        text, e = await err(s, "thread_send", {"canvas": "Chat", "node": "nope",
                                               "model": "local:smollm2"})
        assert e["kind"] == "not_found" and "canvas_read" in e["hint"]
        text, e = await err(s, "thread_send", {"canvas": "Chat", "node": "q",
                                               "model": "local:no-such-model"})
        assert "unknown local model" in text.lower()
        # A failed call leaves a red error card, so the failure is visible on the canvas too.
        cards = [n for n in (await ok(s, "canvas_read", {"path": "Chat"}))["nodes"]
                 if "role: error" in n.get("text", "")]
        assert len(cards) == 1 and cards[0]["color"] == "1"


async def test_thread_send_reports_its_text_as_progress(connect):
    async with connect() as s:
        await ok(s, "canvas_write", {"path": "Chat", "data": {"nodes": [
            {"id": "q", "type": "text", "text": "Name three colours.",
             "x": 0, "y": 0, "width": 250, "height": 80}]}})
        seen = []

        async def on_progress(progress, total, message):
            seen.append((progress, message))

        res = await s.call_tool("thread_send", {"canvas": "Chat", "node": "q",
                                                "model": "local:smollm2", "temperature": 0,
                                                "max_tokens": 30},
                                progress_callback=on_progress)
        assert not res.is_error, res.content[0].text
        sent = json.loads(res.content[0].text)
        assert len(seen) > 1, seen
        steps = [p for p, _ in seen]
        assert steps == sorted(steps) and len(set(steps)) == len(steps), steps
        # The first says where the answer goes (an event, as JSON); the others carry the
        # answer's text, piece by piece.
        started = json.loads(seen[0][1])
        assert started["type"] == "answer_started", seen[0]
        assert (started["node"], started["edge"]) == (sent["node"], sent["edge"])
        assert "".join(m for _, m in seen[1:]).strip() == sent["text"], (seen, sent)


async def test_a_client_that_goes_away_leaves_the_answer_marked_partial(easel, vault):
    """The client closes stdio while thread_send streams: the answer node keeps what was written
    and says `partial: true`, and the server exits."""
    (vault / "Chat.canvas").write_text(json.dumps({"nodes": [
        {"id": "q", "type": "text", "text": "Write a long story about the sea.",
         "x": 0, "y": 0, "width": 250, "height": 80}], "edges": []}))
    async with session("stdio", easel, vault) as s:
        async def send():
            await s.call_tool("thread_send", {"canvas": "Chat", "node": "q",
                                              "model": "local:smollm2", "max_tokens": 400})

        async with anyio.create_task_group() as tg:
            tg.start_soon(send)
            # Wait until the answer node has some text, then hang up.
            with anyio.fail_after(120):
                while True:
                    c = json.loads((vault / "Chat.canvas").read_text() or "{}")
                    answers = [n for n in c.get("nodes", []) if n["id"] != "q"]
                    if answers and answers[0]["text"].rstrip().split("---")[-1].strip():
                        break
                    await anyio.sleep(0.05)
            tg.cancel_scope.cancel()
    c = json.loads((vault / "Chat.canvas").read_text())
    [answer] = [n for n in c["nodes"] if n["id"] != "q"]
    assert "\npartial: true\n---" in answer["text"], answer["text"]
