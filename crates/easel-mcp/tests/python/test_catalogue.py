"""Every registered operation is the same over MCP, over HTTP and on the shell: the same name,
schema and effect in `tools/list` and `easel op list`, and the same JSON from an MCP call, from
`POST /api/ops/{name}` of `easel serve` and from `easel --json op run` on identical copies of a
fixture vault."""

import http.server
import json
import re
import shutil
import subprocess
import threading
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from clients import session

pytestmark = pytest.mark.anyio

BOARD = {
    "nodes": [
        {"id": "a", "type": "text", "text": "Goal", "x": 0, "y": 0, "width": 250, "height": 60},
        {"id": "b", "type": "text", "text": "Step", "x": 0, "y": 200, "width": 250, "height": 60},
        {"id": "g", "type": "group", "label": "Plan", "x": -50, "y": -50, "width": 400, "height": 400},
    ],
    "edges": [{"id": "e1", "fromNode": "a", "fromSide": "bottom", "toNode": "b", "toSide": "top"}],
}

# One call per operation, on the fixture below. A new operation without a line here fails
# test_every_operation_has_a_case, so none is left out.
CASES = {
    "canvas_list": {},
    "canvas_read": {"path": "Board"},
    "canvas_write": {"path": "New", "nodes": [{"id": "n1", "type": "text", "text": "x", "x": 0, "y": 0}]},
    "canvas_update": {"path": "Board", "nodes": BOARD["nodes"][:2]},
    "canvas_add_node": {"path": "Board", "type": "text", "text": "t", "id": "n9", "x": 0, "y": 500},
    "canvas_update_node": {"path": "Board", "id": "a", "data": {"text": "changed", "x": 1.5}},
    "canvas_remove_node": {"path": "Board", "id": "b"},
    "canvas_add_edge": {"path": "Board", "from": "b", "to": "a", "id": "e9"},
    "canvas_update_edge": {"path": "Board", "id": "e1", "data": {"label": "then"}},
    "canvas_remove_edge": {"path": "Board", "id": "e1"},
    "canvas_find": {"path": "Board", "text": "goal"},
    "canvas_validate": {"path": "Board"},
    "canvas_fmt": {"path": "Board"},
    "canvas_layout": {"path": "Board", "algo": "tree", "pin": ["a"]},
    "canvas_import": {"path": "Flow", "text": "flowchart LR\n  A[Idea] -->|why| B(Draft)\n"},
    "canvas_export": {"path": "Board", "to": "mermaid"},
    "canvas_batch": {"path": "Board", "ops": [
        {"op": "add_node", "ref": "c", "id": "c1", "type": "text", "text": "New"},
        {"op": "add_edge", "id": "e2", "fromNode": "a", "toNode": "@c", "label": "then"},
        {"op": "layout", "algo": "layered"}]},
    "canvas_new": {"path": "Trip", "template": "mindmap", "set": {"topic": "Summer trip"}},
    "ledger_list": {"limit": 5},
    "ledger_undo": {},
    "vault_list": {},
    "vault_search": {"query": "tomato"},
    "vault_query": {"tag": "garden"},
    "note_read": {"path": "Garden", "section": "#Beds"},
    "note_write": {"path": "Fresh", "content": "# Fresh\n"},
    "note_append": {"path": "Garden", "text": "- basil"},
    "note_edit": {"path": "Garden", "old_text": "May", "new_text": "June"},
    "llm_list": {},
    "canvas_render": {"path": "Board", "format": "png", "out": "Pictures/Board.png", "scale": 0.5},
    # The code board of the vault (initialised by the fixture): an impact, recorded on it.
    "canvas": {"action": "impact", "symbol": "helper"},
    # The embedded model, greedy: the same answer on both sides.
    "llm_ask": {"prompt": "Say hello", "temperature": 0, "max_tokens": 4, "model": "local:smollm2"},
    "thread_context": {"canvas": "Board", "node": "b"},
    # Greedy again; the answer node's id, its edge's and the answer's run are new on each side.
    "thread_send": {"canvas": "Board", "node": "b", "model": "local:smollm2", "temperature": 0,
                    "max_tokens": 4},
    # The agent files of the vault (the fixture has a Claude Code subagent).
    "agent_list": {},
    "agent_show": {"name": "reviewer"},
    "agent_new": {"name": "scribe", "description": "Writes things down", "tools": ["note_read"]},
    # The editor's save keeps the gardener's other keys; a script tool of the fixture, tried.
    "agent_save": {"name": "gardener", "description": "Tends the garden", "tools": ["note_read"]},
    "agent_tool_list": {},
    "agent_tool_call": {"name": "word_count", "arguments": {"text": "one two three"}},
    # The agent's model is a local server that always answers "Done." (below): the same
    # answer on both sides.
    "agent_run": {"agent": "gardener", "input": "Say hello"},
    # The fixture's session waits for its note_append; approving runs it once and goes on.
    "agent_approve": {"session": "0000000000aa00000000"},
    # Documents: the fixture's Lease.html has ids, Plain.html has none, letter.pdf is a PDF.
    "doc_show": {"path": "Lease.html"},
    "doc_ids": {"path": "Plain.html"},
    "doc_scan": {"path": "Lease.html", "query": "emails"},
    "doc_replace_text": {"path": "Lease.html", "elementId": "c00000002", "oldText": "Rent",
                         "newText": "Fee"},
    "doc_redact_element": {"path": "Lease.html", "elementId": "c00000001"},
    "doc_add_highlight": {"path": "Lease.html", "elementId": "c00000002"},
    "doc_add_comment": {"path": "Lease.html", "elementId": "c00000002", "comment": "Check"},
    "doc_delete_element": {"path": "Lease.html", "elementId": "c00000002"},
    "doc_find_and_replace_all": {"path": "Lease.html", "find": "rent", "replace": "fee"},
    "doc_redact_all_matching": {"path": "Lease.html", "pattern": "/\\d{4}/"},
    "doc_apply": {"path": "Lease.html", "operations": [
        {"tool": "redact_element", "input": {"elementId": "c00000001"}},
        {"tool": "add_highlight", "input": {"elementId": "c00000002"}}]},
    "doc_finalize": {"path": "Lease.html"},
    "doc_import": {"path": "letter.pdf"},
    # The answering server proposes nothing: the same (empty) proposal on both sides.
    "doc_edit": {"path": "Lease.html", "instruction": "Say hello", "model": "openai-compat:done"},
}

# Fields an operation makes up afresh on each run (new ids, a new run).
VOLATILE_BY_OP = {"thread_send": {"node", "edge", "run"}, "agent_run": {"session", "run"},
                  "doc_edit": {"session", "run"},
                  # New ids are random: the file's revision differs.
                  "doc_ids": {"rev"}, "doc_import": {"rev"}}
# Each edit list is one run, new on each side.
VOLATILE_BY_OP.update({name: {"run"} for name in CASES if name.startswith("doc_")
                       and name not in VOLATILE_BY_OP})
# Answers carry the time they were made.
CREATED = re.compile(r"created: [^\n]*\n")

# Fields that differ between two runs by design: ledger ids and times, file times.
VOLATILE = {"id", "time", "ledger_id", "undid", "modified"}
# Objects that differ between runs as a whole: how long a model took.
VOLATILE_OBJECTS = {"timing"}


class _Done(http.server.BaseHTTPRequestHandler):
    """An OpenAI-compatible model that answers every request with the text "Done."."""

    def do_POST(self):
        self.rfile.read(int(self.headers.get("content-length", 0)))
        chunk = {"choices": [{"index": 0, "delta": {"role": "assistant", "content": "Done."},
                              "finish_reason": None}]}
        end = {"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}
        body = f"data: {json.dumps(chunk)}\n\ndata: {json.dumps(end)}\n\ndata: [DONE]\n\n".encode()
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


_MODEL = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Done)
threading.Thread(target=_MODEL.serve_forever, daemon=True).start()

PDF = Path(__file__).resolve().parents[3] / "easel-docedit" / "tests" / "pdf" / "letter.pdf"

SESSION = "0000000000aa00000000"
WAITING = {"session": SESSION, "run": "0000000000bb00000000", "agent": "gardener", "id": "call_1",
           "name": "note_append", "arguments": {"path": "Garden", "text": "- basil"}}


def agents(root):
    """An agent on the answering server, and a session of it waiting for an approval."""
    (root / ".easel" / "agents").mkdir(parents=True)
    (root / ".easel" / "config.toml").write_text(
        f'[providers.openai-compat]\nbase_url = "http://127.0.0.1:{_MODEL.server_port}/v1"\n')
    (root / ".easel" / "agents" / "gardener.md").write_text(
        "---\ndescription: Tends the garden note\nmodel: openai-compat:done\n"
        "tools: [note_read, note_append]\n---\nYou keep the garden note.\n")
    (root / ".easel" / "tools").mkdir()
    (root / ".easel" / "tools" / "word_count.js").write_text(
        "module.exports = { name: 'word_count', description: 'Count words',\n"
        "  parameters: { text: { type: 'string' } }, effect: 'read',\n"
        "  execute: async ({ text }) => text.split(/\\s+/).filter(Boolean).length };\n")
    sessions = root / ".easel" / "sessions"
    sessions.mkdir()
    call = {"id": "call_1", "name": "note_append", "arguments": json.dumps(WAITING["arguments"])}
    lines = [
        {"kind": "run_started", "run": WAITING["run"], "agent": "gardener", "input": "Add basil"},
        {"kind": "message", "agent": "gardener",
         "message": {"role": "user", "parts": [{"type": "text", "text": "Add basil"}]}},
        {"kind": "message", "agent": "gardener",
         "message": {"role": "assistant", "parts": [], "tool_calls": [call]}},
        {"kind": "approval", "agent": "gardener", "id": "call_1", "name": "note_append",
         "arguments": WAITING["arguments"], "answer": "waiting"},
        {"kind": "run_ended", "run": WAITING["run"], "status": "waiting"},
    ]
    (sessions / f"{SESSION}.jsonl").write_text(
        "".join(json.dumps({"time": "2026-11-26T00:00:00Z", **l}) + "\n" for l in lines))
    (sessions / f"{SESSION}.waiting.json").write_text(json.dumps(WAITING))


def fixture(root, easel):
    root.mkdir()
    (root / ".obsidian").mkdir()
    (root / "Garden.md").write_text("---\ntags: [garden]\n---\n# Beds\n\nTomatoes in May\n")
    (root / "Board.canvas").write_text(json.dumps(BOARD))
    (root / "Lease.html").write_text(
        '<!doctype html>\n<html><head><title>Lease</title></head><body>\n'
        '<p data-canon-id="c00000001">Tenant: ana@example.com, phone +44 20 7946 0958.</p>\n'
        '<p data-canon-id="c00000002">Rent is due in December 2026.</p>\n</body></html>\n')
    (root / "Plain.html").write_text("<h1>Plan</h1>\n<p>Ship it.</p>\n")
    shutil.copy(PDF, root / "letter.pdf")
    agents(root)
    (root / ".claude" / "agents").mkdir(parents=True)
    (root / ".claude" / "agents" / "reviewer.md").write_text(
        "---\nname: reviewer\ndescription: Reviews notes\ntools: Read, Grep, Bash\n---\nReview.\n")
    # One recorded change, so that ledger_list and ledger_undo have something to show.
    subprocess.run([easel, "--vault", str(root), "canvas", "fmt", "Board"],
                   check=True, capture_output=True)
    # A code board at the vault's root, so that the code canvas has something to read.
    (root / "tools.py").write_text("def helper():\n    pass\n\n\ndef main():\n    helper()\n")
    subprocess.run([easel, "code", "init", str(root)], check=True, capture_output=True)


def strip(value, volatile=VOLATILE):
    if isinstance(value, dict):
        return {k: strip(v, volatile) for k, v in value.items()
                if k not in VOLATILE_OBJECTS and (k not in volatile or not isinstance(v, (str, int)))}
    if isinstance(value, list):
        return [strip(v, volatile) for v in value]
    return value


def file_state(path, name):
    """A file's bytes, or for an operation that makes new ids, its canvas without them."""
    if not path.exists():
        return None
    if name not in VOLATILE_BY_OP or path.suffix != ".canvas":
        return path.read_bytes()
    c = json.loads(path.read_text())
    nodes = [{k: CREATED.sub("", v) if k == "text" else v for k, v in n.items() if k != "id"}
             for n in c["nodes"]]
    edges = [{k: v for k, v in e.items() if k not in ("id", "fromNode", "toNode")}
             for e in c.get("edges", [])]
    return nodes, edges


def untexted(state, name):
    """Greedy decoding of the embedded model is not bit-for-bit repeatable across processes on
    a loaded machine (llama.cpp's threads sum in another order), so for the answering
    operation the file's shape is compared, not the answer's words."""
    if name != "thread_send" or not isinstance(state, tuple):
        return state
    nodes, edges = state
    return [{k: v for k, v in n.items() if k not in ("text", "height")} for n in nodes], edges


def op_list(easel, vault):
    out = subprocess.run([easel, "--vault", str(vault), "--json", "op", "list"],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)["operations"]


@pytest.fixture
def anyio_backend():
    return "asyncio"


def test_every_operation_has_a_case(easel, tmp_path):
    names = {op["name"] for op in op_list(easel, tmp_path)}
    assert names == set(CASES), f"missing: {names - set(CASES)}, stale: {set(CASES) - names}"


async def test_tool_list_and_op_list_agree(easel, tmp_path):
    ops = {op["name"]: op for op in op_list(easel, tmp_path)}
    async with session("stdio", easel, tmp_path) as s:
        tools = {t.name: t for t in (await s.list_tools()).tools}
    for name, op in ops.items():
        tool = tools[name]
        assert tool.input_schema == op["inputSchema"], name
        assert tool.title == op["title"], name
        assert tool.description == op["description"], name
        a = tool.annotations
        assert a.read_only_hint == (op["effect"] == "read"), name
        assert a.destructive_hint == (op["effect"] == "destructive"), name
        assert a.open_world_hint == (op["effect"] == "external"), name
        assert a.idempotent_hint == op["idempotent"], name


def http_call(easel, vault, name, args):
    """The operation over `easel serve`'s API (DESIGN.md section 15): status and JSON body."""
    proc = subprocess.Popen([easel, "--vault", str(vault), "serve", "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline().strip()
        assert line.startswith("Easel at "), (line, proc.stderr.read() if proc.poll() else "")
        base, _, token = line.removeprefix("Easel at ").partition("/?token=")
        req = urllib.request.Request(
            f"{base}/api/ops/{name}", data=json.dumps(args).encode(), method="POST",
            headers={"content-type": "application/json", "authorization": f"Bearer {token}"})
        try:
            with urllib.request.urlopen(req, timeout=300) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read())
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@pytest.mark.parametrize("name", sorted(CASES))
async def test_shell_mcp_and_http_give_the_same_json(name, easel, tmp_path):
    args = CASES[name]
    shell_vault, mcp_vault, http_vault = tmp_path / "shell", tmp_path / "mcp", tmp_path / "http"
    fixture(shell_vault, easel)
    shutil.copytree(shell_vault, mcp_vault, copy_function=shutil.copy2)
    shutil.copytree(shell_vault, http_vault, copy_function=shutil.copy2)
    run = subprocess.run(
        [easel, "--vault", str(shell_vault), "--json", "op", "run", name, "--args", json.dumps(args)],
        capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    async with session("stdio", easel, mcp_vault) as s:
        res = await s.call_tool(name, args)
    assert not res.is_error, res.content[0].text
    status, http = http_call(easel, http_vault, name, args)
    assert status == 200, http
    shell, mcp = json.loads(run.stdout), json.loads(res.content[0].text)
    volatile = VOLATILE | VOLATILE_BY_OP.get(name, set())
    assert strip(shell, volatile) == strip(mcp, volatile)
    assert strip(shell, volatile) == strip(http, volatile)
    # And the vaults were changed alike.
    for f in ("Board.canvas", "Garden.md", "Lease.html"):
        a, b, c = shell_vault / f, mcp_vault / f, http_vault / f
        assert untexted(file_state(a, name), name) == untexted(file_state(b, name), name), f
        assert untexted(file_state(a, name), name) == untexted(file_state(c, name), name), f
