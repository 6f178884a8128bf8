"""`easel mcp` driven by the official MCP Python SDK over stdio and streamable HTTP."""

import json
import subprocess

import http.client
from urllib.parse import urlparse

import anyio
import pytest

from clients import err, ok, session
from conftest import http_server

pytestmark = pytest.mark.anyio

TOOLS = {
    "canvas_list", "canvas_read", "canvas_write", "canvas_update", "canvas_add_node",
    "canvas_update_node", "canvas_remove_node", "canvas_add_edge", "canvas_update_edge",
    "canvas_remove_edge", "canvas_find", "canvas_validate", "canvas_fmt",
    "ledger_list", "ledger_undo",
    "vault_list", "vault_search", "vault_query",
    "note_read", "note_write", "note_append", "note_edit",
    "canvas", "canvas_render", "llm_list", "llm_ask",
    "canvas_layout", "canvas_import", "canvas_export", "canvas_batch", "canvas_new",
    "thread_context", "thread_send",
    "agent_list", "agent_show", "agent_new", "agent_run", "agent_approve",
    "agent_save", "agent_tool_list", "agent_tool_call",
    "doc_show", "doc_ids", "doc_scan", "doc_replace_text", "doc_redact_element",
    "doc_add_highlight", "doc_add_comment", "doc_delete_element", "doc_find_and_replace_all",
    "doc_redact_all_matching", "doc_apply", "doc_finalize", "doc_import", "doc_edit",
}
# canvas_write only creates (the file must not exist), so a revision has nothing to match.
WRITE_TOOLS = {
    "canvas_update", "canvas_add_node", "canvas_update_node",
    "canvas_remove_node", "canvas_add_edge", "canvas_update_edge", "canvas_remove_edge",
    "doc_replace_text", "doc_redact_element", "doc_add_highlight", "doc_add_comment",
    "doc_delete_element", "doc_find_and_replace_all", "doc_redact_all_matching", "doc_apply",
    "agent_save",
}


@pytest.fixture
def anyio_backend():
    return "asyncio"


@pytest.fixture(params=["stdio", "http"])
def transport(request):
    return request.param


@pytest.fixture
def connect(transport, easel, vault, request):
    """A function opening a client session on the transport under test."""
    if transport == "stdio":
        return lambda name="pytest-client": session("stdio", easel, vault, name=name)
    cm = http_server(easel, vault)
    url = cm.__enter__()
    request.addfinalizer(lambda: cm.__exit__(None, None, None))
    return lambda name="pytest-client": session("http", easel, vault, url=url, name=name)


async def test_lists_every_tool_with_a_tutorial_description(connect):
    async with connect() as s:
        tools = (await s.list_tools()).tools
        assert {t.name for t in tools} == TOOLS
        for t in tools:
            assert "Example" in t.description, t.name
            assert t.input_schema["type"] == "object"
            if t.name in WRITE_TOOLS:
                assert "rev" in t.input_schema["properties"], t.name


async def test_tools_carry_titles_and_annotations_from_their_effect(connect):
    async with connect() as s:
        tools = {t.name: t for t in (await s.list_tools()).tools}
        for name in ("canvas_update_node", "canvas_update_edge", "ledger_undo", "note_write"):
            a = tools[name].annotations
            assert a.destructive_hint is True and a.read_only_hint is False, name
        for name in ("canvas_read", "canvas_list", "note_read", "vault_search"):
            a = tools[name].annotations
            assert a.read_only_hint is True and a.idempotent_hint is True, name
        add = tools["canvas_add_node"].annotations
        assert add.destructive_hint is False and add.idempotent_hint is False
        assert tools["thread_send"].annotations.open_world_hint is True
        assert tools["canvas_read"].annotations.open_world_hint is False
        assert all(t.title for t in tools.values())


async def test_canvas_write_takes_the_seeds_own_arguments(connect, vault):
    async with connect() as s:
        # Seed 000's shape: nodes and edges at the top level, not inside 'data'.
        w = await ok(s, "canvas_write", {
            "path": "Seed",
            "nodes": [{"id": "a", "type": "text", "text": "A"},
                      {"id": "b", "type": "text", "text": "B", "x": 400, "y": 0}],
            "edges": [{"fromNode": "a", "toNode": "b"}]})
        assert w["nodeCount"] == 2 and w["edgeCount"] == 1
        u = await ok(s, "canvas_update", {
            "path": "Seed", "rev": w["rev"],
            "nodes": [{"id": "a", "type": "text", "text": "A2", "x": 0, "y": 0, "width": 200, "height": 60}],
            "edges": []})
        assert u["nodeCount"] == 1 and u["edgeCount"] == 0
        text, e = await err(s, "canvas_write", {"path": "X", "data": {"nodes": []}, "nodes": []})
        assert e["kind"] == "invalid" and "either" in text


async def test_notes_and_the_vault_through_the_note_tools(connect, vault):
    (vault / "Plan.md").write_text("---\ntags: [garden]\n---\n# Plan\n\nTomatoes in May.\n\nSetext\n======\n\nbody\n")
    async with connect() as s:
        r = await ok(s, "note_read", {"path": "Plan"})
        assert r["frontmatter"] == {"tags": ["garden"]} and len(r["rev"]) == 16
        assert r["headings"] == ["# Plan", "# Setext"]
        sec = await ok(s, "note_read", {"path": "Plan.md", "section": "#Setext"})
        assert sec["body"] == "Setext\n======\n\nbody\n"
        e = await ok(s, "note_edit", {"path": "Plan", "old_text": "in May", "new_text": "in June", "rev": r["rev"]})
        assert e["line"] == 6
        assert "in June" in (vault / "Plan.md").read_text()
        found = await ok(s, "vault_search", {"query": "june"})
        assert [(m["path"], m["line"]) for m in found["matches"]] == [("Plan.md", 6)]
        q = await ok(s, "vault_query", {"tag": "garden"})
        assert [n["path"] for n in q["notes"]] == ["Plan.md"] and q["notes"][0]["title"] == "Plan"
        text, e = await err(s, "note_read", {"path": "../x"})
        assert e["kind"] == "invalid" and e["hint"]
        text, e = await err(s, "note_write", {"path": "/etc/passwd", "content": "x"})
        assert e["kind"] == "invalid"
        assert not (vault.parent / "x.md").exists()


async def test_every_tool_end_to_end(connect, vault):
    async with connect() as s:
        assert (await ok(s, "canvas_list", {}))["total"] == 0

        w = await ok(s, "canvas_write", {"path": "Plan", "data": {
            "nodes": [{"id": "a", "type": "text", "text": "Goal"},
                      {"id": "b", "type": "text", "text": "Step", "x": 400, "y": 0}],
            "edges": [{"fromNode": "a", "toNode": "b"}]}})
        assert w["path"] == "Plan.canvas" and w["nodeCount"] == 2 and w["edgeCount"] == 1
        assert len(w["rev"]) == 16

        lst = await ok(s, "canvas_list", {})
        assert [c["path"] for c in lst["canvases"]] == ["Plan.canvas"]

        r = await ok(s, "canvas_read", {"path": "Plan.canvas"})
        assert r["rev"] == w["rev"] and [n["id"] for n in r["nodes"]] == ["a", "b"]
        assert r["edges"][0]["fromSide"] and r["edges"][0]["toSide"]

        add = await ok(s, "canvas_add_node", {"path": "Plan", "type": "text", "text": "New",
                                              "color": "4", "rev": r["rev"]})
        nid = add["node"]["id"]
        assert add["rev"] != r["rev"] and add["node"]["color"] == "4"

        up = await ok(s, "canvas_update_node", {"path": "Plan", "id": nid,
                                                "data": {"text": "Renamed"}, "rev": add["rev"]})
        assert up["node"]["text"] == "Renamed"

        e = await ok(s, "canvas_add_edge", {"path": "Plan", "from": "b", "to": nid,
                                            "label": "then", "rev": up["rev"]})
        eid = e["edge"]["id"]
        assert e["edge"]["label"] == "then" and e["edge"]["fromSide"]

        ue = await ok(s, "canvas_update_edge", {"path": "Plan", "id": eid,
                                                "data": {"label": "after"}})
        assert ue["edge"]["label"] == "after"

        found = await ok(s, "canvas_find", {"path": "Plan", "text": "renamed"})
        assert [n["id"] for n in found["nodes"]] == [nid]

        re_ = await ok(s, "canvas_remove_edge", {"path": "Plan", "id": eid, "rev": ue["rev"]})
        assert re_["edge"]["id"] == eid

        rn = await ok(s, "canvas_remove_node", {"path": "Plan", "id": "a"})
        assert rn["node"]["id"] == "a" and len(rn["removedEdges"]) == 1

        cur = await ok(s, "canvas_read", {"path": "Plan"})
        nodes = cur["nodes"] + [{"type": "group", "label": "All", "x": -50, "y": -50,
                                 "width": 900, "height": 400}]
        upd = await ok(s, "canvas_update", {"path": "Plan", "data": {"nodes": nodes},
                                           "rev": cur["rev"]})
        assert upd["nodeCount"] == 3

        v = await ok(s, "canvas_validate", {"path": "Plan"})
        assert v["valid"] is True and v["errors"] == []

        led = await ok(s, "ledger_list", {"limit": 3})
        assert led["total"] == 3
        assert led["entries"][0]["op"] == "canvas.update"
        assert all(x["actor"] == "mcp:pytest-client" for x in led["entries"])

        und = await ok(s, "ledger_undo", {})
        assert und["undone"][0]["undid"] == led["entries"][0]["id"]
        back = await ok(s, "canvas_read", {"path": "Plan"})
        assert back["rev"] == upd["rev"] or back["nodeCount"] == 2
        assert back["nodeCount"] == 2

        # The canvas on disk is a valid Obsidian-layout file.
        text = (vault / "Plan.canvas").read_text()
        assert text.startswith('{\n\t"nodes":[\n') and json.loads(text)["nodes"]


async def test_errors_are_tool_errors_with_hints_and_the_server_survives(connect):
    async with connect() as s:
        text, e = await err(s, "canvas_read", {"path": "Missing"})
        assert text.startswith("Canvas not found: Missing.canvas")
        assert "hint: use canvas_list" in text and e["kind"] == "not_found"

        await ok(s, "canvas_write", {"path": "A", "data": {"nodes": []}})
        text, e = await err(s, "canvas_write", {"path": "A", "data": {"nodes": []}})
        assert e["kind"] == "conflict" and "canvas_update" in e["hint"]

        text, e = await err(s, "canvas_add_node", {"path": "A", "type": "text", "text": "x",
                                                   "rev": "0000000000000000"})
        assert e["kind"] == "conflict" and "easel " not in text

        text, e = await err(s, "canvas_update_node", {"path": "A", "id": "nope", "data": {"x": 1}})
        assert e["kind"] == "not_found"

        text, e = await err(s, "canvas_add_edge", {"path": "A", "from": "x", "to": "y"})
        assert e["kind"] in ("not_found", "invalid")

        text, e = await err(s, "canvas_read", {"path": "../outside"})
        assert e["kind"] == "invalid" and e["hint"]

        text, e = await err(s, "canvas_read", {})
        assert "'path' is missing" in text

        text, e = await err(s, "canvas_read", {"path": "A", "bogus": 1})
        assert "unknown argument 'bogus'" in text and "path" in e["hint"]

        text, e = await err(s, "canvas_add_node", {"path": "A", "type": "text", "rev": "zz"})
        assert "not a revision" in text

        text, e = await err(s, "no_such_tool", {})
        assert "canvas_read" in e["hint"]

        text, e = await err(s, "ledger_undo", {"id": "ffffffffffffffffffff"})
        assert e["kind"] == "not_found"

        # Still serving after all of that.
        assert (await ok(s, "canvas_list", {}))["total"] == 1


async def test_canvases_are_resources(connect):
    async with connect() as s:
        await ok(s, "canvas_write", {"path": "Folder/My Board", "data": {
            "nodes": [{"type": "text", "text": "hello"}]}})
        res = (await s.list_resources()).resources
        assert [str(r.uri) for r in res] == ["canvas://Folder/My%20Board.canvas"]
        assert res[0].mime_type == "application/json"
        content = (await s.read_resource(res[0].uri)).contents[0]
        assert json.loads(content.text)["nodes"][0]["text"] == "hello"
        templates = (await s.list_resource_templates()).resource_templates
        assert templates[0].uri_template == "canvas://{path}"
        with pytest.raises(Exception, match="(?i)not found"):
            await s.read_resource("canvas://Nope.canvas")


async def test_results_match_the_cli_json(connect, easel, vault):
    async with connect() as s:
        await ok(s, "canvas_write", {"path": "Same", "data": {
            "nodes": [{"id": "n1", "type": "text", "text": "x", "x": 1.50, "y": 0}]}})
        for tool, argv in [
            ("canvas_read", ["canvas", "read", "Same"]),
            ("canvas_list", ["canvas", "list"]),
            ("canvas_validate", ["canvas", "validate", "Same"]),
        ]:
            res = await s.call_tool(tool, {"path": "Same"} if tool != "canvas_list" else {})
            cli = subprocess.run([easel, "--vault", str(vault), "--json", *argv],
                                 capture_output=True, text=True, check=True)
            # The same JSON, sent once, compact, as text.
            assert json.loads(res.content[0].text) == json.loads(cli.stdout), tool
            assert res.structured_content is None, tool
            assert "\n" not in res.content[0].text, tool


async def test_two_clients_writing_at_once_lose_nothing(connect):
    per_client = 25
    async with connect("writer-a") as a, connect("writer-b") as b:
        await ok(a, "canvas_write", {"path": "Shared", "data": {"nodes": []}})

        async def writer(s, tag):
            for i in range(per_client):
                await ok(s, "canvas_add_node", {"path": "Shared", "type": "text",
                                                "text": f"{tag}-{i}"})

        async with anyio.create_task_group() as tg:
            tg.start_soon(writer, a, "a")
            tg.start_soon(writer, b, "b")

        r = await ok(a, "canvas_read", {"path": "Shared"})
        texts = sorted(n["text"] for n in r["nodes"])
        assert texts == sorted([f"a-{i}" for i in range(per_client)] +
                               [f"b-{i}" for i in range(per_client)])
        actors = {e["actor"] for e in (await ok(b, "ledger_list", {"limit": 100}))["entries"]}
        assert actors == {"mcp:writer-a", "mcp:writer-b"}


class Raw:
    """A bare HTTP client, so the test controls every header (the SDK's client sends no Origin)."""

    def __init__(self, base):
        self.base = urlparse(base)

    def post(self, path, json, headers):
        conn = http.client.HTTPConnection(self.base.hostname, self.base.port, timeout=30)
        body = __import__("json").dumps(json)
        conn.putrequest("POST", path, skip_host="Host" in headers)
        for k, v in headers.items():
            conn.putheader(k, v)
        conn.putheader("Content-Length", str(len(body)))
        conn.endheaders(body.encode())
        resp = conn.getresponse()
        resp.status_code = resp.status
        data = resp.read(65536) if resp.status != 200 else b""
        resp.json = lambda: __import__("json").loads(data)
        conn.close()
        return resp


def test_http_refuses_foreign_origin_and_host(http_url):
    init = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "raw", "version": "1"}}}
    headers = {"Accept": "application/json, text/event-stream",
               "Content-Type": "application/json"}
    c = Raw(http_url)
    if True:
        good = c.post("/mcp", json=init, headers=headers)
        assert good.status_code == 200
        evil = c.post("/mcp", json=init,
                      headers={**headers, "Origin": "https://evil.example"})
        assert evil.status_code == 403 and "Origin" in evil.json()["error"]
        local_origin = c.post("/mcp", json=init,
                              headers={**headers, "Origin": "http://localhost:5173"})
        assert local_origin.status_code == 200
        rebound = c.post("/mcp", json=init,
                         headers={**headers, "Host": "attacker.example:80"})
        assert rebound.status_code == 403 and rebound.json()["hint"]


def test_http_token_is_required_when_set(easel, vault):
    init = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "raw", "version": "1"}}}
    headers = {"Accept": "application/json, text/event-stream",
               "Content-Type": "application/json"}
    with http_server(easel, vault, "--token", "s3cret") as url:
        c = Raw(url)
        assert c.post("/mcp", json=init, headers=headers).status_code == 401
        ok_ = c.post("/mcp", json=init,
                     headers={**headers, "Authorization": "Bearer s3cret"})
        assert ok_.status_code == 200


def test_remote_address_needs_allow_remote_and_token(easel, vault):
    r = subprocess.run([easel, "--vault", str(vault), "mcp", "--http", "0.0.0.0:0"],
                       capture_output=True, text=True, timeout=30)
    assert r.returncode == 2 and "hint: bind to 127.0.0.1" in r.stderr
    r = subprocess.run([easel, "--vault", str(vault), "mcp", "--http", "0.0.0.0:0",
                        "--allow-remote"], capture_output=True, text=True, timeout=30,
                       env={"PATH": "/usr/bin:/bin"})
    assert r.returncode == 2 and "--token" in r.stderr
