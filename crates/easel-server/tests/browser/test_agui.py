"""An Easel agent driven by an AG-UI client: `POST /api/ag-ui/agents/{name}` with a
RunAgentInput answers with the run as AG-UI events (no browser needed; a real `easel serve`
and the scripted model)."""

import json
import urllib.error
import urllib.request

import pytest

from conftest import Server
from scripted_model import call, text


@pytest.fixture
def agui_server(vault, model):
    model.configure(vault)
    (vault / ".easel" / "agents").mkdir(parents=True, exist_ok=True)
    (vault / ".easel" / "agents" / "writer.md").write_text(
        "---\ndescription: Writes notes\ntools: [note_write, vault_list]\n---\nYou write notes.\n")
    s = Server(vault)
    yield s
    s.stop()


def run(server, agent, body):
    req = urllib.request.Request(
        f"{server.base}/api/ag-ui/agents/{agent}", data=json.dumps(body).encode(), method="POST",
        headers={"content-type": "application/json", "accept": "text/event-stream",
                 "authorization": f"Bearer {server.token}"})
    events = []
    with urllib.request.urlopen(req, timeout=60) as r:
        assert r.headers["content-type"] == "text/event-stream"
        for line in r:
            line = line.decode().strip()
            if line.startswith("data: "):
                events.append(json.loads(line[6:]))
    return events


def test_a_run_streams_as_ag_ui_events(agui_server, model):
    model.push(call("vault_list", {}), text("The vault has notes."))
    events = run(agui_server, "writer", {
        "threadId": "t-1", "runId": "r-1", "state": {}, "tools": [], "context": [],
        "messages": [{"id": "m1", "role": "user", "content": "What is in the vault?"}]})
    types = [e["type"] for e in events]
    assert types[0] == "RUN_STARTED" and events[0]["threadId"] == "t-1" and events[0]["runId"] == "r-1"
    assert types[-1] == "RUN_FINISHED", types
    assert events[-1]["threadId"] == "t-1"
    i = types.index("TOOL_CALL_START")
    assert events[i]["toolCallName"] == "vault_list"
    assert types[i:i + 4] == ["TOOL_CALL_START", "TOOL_CALL_ARGS", "TOOL_CALL_END", "TOOL_CALL_RESULT"]
    text_events = [e for e in events if e["type"] == "TEXT_MESSAGE_CONTENT"]
    assert "".join(e["delta"] for e in text_events) == "The vault has notes."
    assert types.index("TEXT_MESSAGE_START") < types.index("TEXT_MESSAGE_END") < types.index("RUN_FINISHED")
    assert events[-1]["result"]["output"] == "The vault has notes."
    # The run's session continues when the client names it as its thread.
    session = events[-1]["result"]["session"]
    model.push(text("Still here."))
    events = run(agui_server, "writer", {
        "threadId": session, "runId": "r-2",
        "messages": [{"id": "m2", "role": "user", "content": "And now?"}]})
    assert events[-1]["result"]["session"] == session
    sent = model.requests[-1]["messages"]
    assert any(m.get("content") == "What is in the vault?" for m in sent), sent


def test_a_call_that_needs_approval_ends_the_run_and_names_the_session(agui_server, model):
    model.push(call("note_write", {"path": "New.md", "content": "hi\n"}))
    events = run(agui_server, "writer", {
        "threadId": "t-2", "runId": "r-3",
        "messages": [{"id": "m1", "role": "user", "content": "Write New.md"}]})
    custom = [e for e in events if e["type"] == "CUSTOM" and e["name"] == "approval_needed"]
    assert custom and custom[0]["value"]["name"] == "note_write"
    assert events[-1]["type"] == "RUN_FINISHED" and events[-1]["result"]["waiting"] is True
    assert not (agui_server.vault / "New.md").exists()


def test_bad_input_and_unknown_agents_say_what_to_do(agui_server):
    req = urllib.request.Request(
        f"{agui_server.base}/api/ag-ui/agents/writer", data=b'{"messages": []}', method="POST",
        headers={"content-type": "application/json", "authorization": f"Bearer {agui_server.token}"})
    try:
        urllib.request.urlopen(req, timeout=10)
        raise AssertionError("accepted")
    except urllib.error.HTTPError as e:
        body = json.loads(e.read())
        assert e.code == 400 and "user" in body["error"]["hint"]
    events = run(agui_server, "nobody", {"messages": [{"id": "1", "role": "user", "content": "hi"}]})
    assert events[-1]["type"] == "RUN_ERROR" and events[-1]["code"] == "not_found"
