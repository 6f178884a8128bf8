"""The agent chat (/agent/{name}) and the agent editor (/agent-edit/{name}), against a real
`easel serve` whose model is the scripted one (scripted_model.py) over the openai-compat wire."""

import json
import threading

import pytest

from conftest import Server, wait_until
from scripted_model import ScriptedModel, call, held, text

TRIAGE = """---
name: triage
description: Sends each request to the right agent
handoffs: [writer]
---
You route requests.
"""

WRITER = """---
name: writer
description: Writes notes
tools: [note_write, note_read]
color: teal
---
You write notes.
"""


@pytest.fixture
def model():
    m = ScriptedModel([])
    yield m
    m.stop()


@pytest.fixture
def server(vault, model):
    """Overrides conftest's server: the vault gets the scripted model and two agents first,
    since the server reads its model configuration when it starts."""
    model.configure(vault)
    agents = vault / ".easel" / "agents"
    agents.mkdir(parents=True, exist_ok=True)
    (agents / "triage.md").write_text(TRIAGE)
    (agents / "writer.md").write_text(WRITER)
    s = Server(vault)
    yield s
    s.stop()


def open_chat(page, server, agent):
    page.goto(f"{server.base}/agent/{agent}")
    page.locator(f"main.chat[data-agent='{agent}']").wait_for()
    # Sessions are listed once the page has talked to the server.
    page.get_by_role("complementary", name="Sessions").locator("h2").wait_for()


def send(page, message):
    page.get_by_role("textbox", name="Message").fill(message)
    page.get_by_role("button", name="Send").click()


def transcript(page):
    return page.get_by_role("region", name="Conversation")


def session_files(vault):
    folder = vault / ".easel" / "sessions"
    return sorted(p.name for p in folder.glob("*.jsonl")) if folder.exists() else []


def test_a_message_streams_its_answer_then_shows_it_as_markdown(page, server, model):
    gate = threading.Event()
    model.push(held("**Hello** from the writer.", gate))
    open_chat(page, server, "writer")
    send(page, "Say hello")
    conv = transcript(page)
    conv.locator(".msg.user", has_text="Say hello").wait_for()
    # The first word is on screen while the model still holds the rest: it streamed.
    streaming = conv.locator(".msg.agent .streaming")
    streaming.wait_for()
    assert streaming.inner_text().strip() == "**Hello**"
    assert page.get_by_role("button", name="Stop").is_visible()
    gate.set()
    conv.locator(".msg.agent .md strong", has_text="Hello").wait_for()
    assert conv.locator(".msg.agent .md").inner_text().strip() == "Hello from the writer."
    assert conv.locator(".streaming").count() == 0
    page.get_by_role("button", name="Send").wait_for()
    session = page.locator("main.chat").get_attribute("data-session")
    assert session and session_files(server.vault) == [f"{session}.jsonl"]
    # The new session joins the list without a reload.
    listed = page.get_by_role("complementary", name="Sessions").locator(f"button[data-session='{session}']")
    listed.wait_for()
    assert "Say hello" in listed.inner_text()


def test_a_handoff_shows_who_hands_over_to_whom(page, server, model):
    model.push(call("transfer_to_writer", {}), text("Writer here."))
    open_chat(page, server, "triage")
    send(page, "Please write something")
    conv = transcript(page)
    conv.locator(".handoff", has_text="triage → writer").wait_for()
    conv.locator(".msg.agent[data-agent='writer'] .md", has_text="Writer here.").wait_for()
    tool = conv.locator("details.tool", has_text="transfer_to_writer")
    assert tool.count() == 1
    # Tool calls are collapsed until opened, then show their arguments and output.
    assert not tool.locator(".tool-output").is_visible()
    tool.locator("summary").click()
    assert tool.locator(".tool-output").inner_text().strip() == "transferred to writer"
    assert model.left() == 0


def test_approve_runs_the_waiting_call_once_and_shows_the_rest_of_the_run(page, server, model):
    model.push(call("note_write", {"path": "drafts/hello.md", "content": "Hello from the agent"}), text("I wrote the note."))
    open_chat(page, server, "writer")
    send(page, "Write drafts/hello.md")
    approval = page.get_by_role("group", name="Approval for note_write")
    approval.wait_for()
    assert "drafts/hello.md" in approval.locator(".tool-args").inner_text()
    target = server.vault / "drafts" / "hello.md"
    assert not target.exists()
    assert page.get_by_role("button", name="Send").is_disabled()
    approval.get_by_role("button", name="Approve").click()
    conv = transcript(page)
    conv.locator(".msg.agent .md", has_text="I wrote the note.").wait_for()
    assert approval.locator(".answer").inner_text() == "Approved"
    assert approval.get_by_role("button", name="Approve").count() == 0
    assert target.read_text().rstrip("\n") == "Hello from the agent"
    # Once: one tool entry for the call, one write of the file in the ledger, two model calls.
    assert conv.locator("details.tool", has_text="note_write").count() == 1
    ledger = server.op("ledger_list", {"limit": 50})
    writes = [e for e in ledger["entries"] if e.get("path") == "drafts/hello.md"]
    assert len(writes) == 1 and writes[0]["actor"] == "agent:writer", ledger
    assert len(model.requests) == 2


def test_deny_leaves_the_file_absent_and_the_agent_is_told(page, server, model):
    model.push(call("note_write", {"path": "drafts/no.md", "content": "Nope"}), text("Understood, I did not write it."))
    open_chat(page, server, "writer")
    send(page, "Write drafts/no.md")
    approval = page.get_by_role("group", name="Approval for note_write")
    approval.get_by_role("button", name="Deny").click()
    conv = transcript(page)
    conv.locator(".msg.agent .md", has_text="Understood, I did not write it.").wait_for()
    assert approval.locator(".answer").inner_text() == "Denied"
    assert not (server.vault / "drafts" / "no.md").exists()
    tool = conv.locator("details.tool", has_text="note_write")
    tool.locator("summary").click()
    assert tool.locator(".tool-output").inner_text().startswith("error: refused")


def test_a_session_reopened_from_the_list_shows_its_messages_and_continues(page, server, model):
    model.push(text("The first answer."), text("The second answer."))
    open_chat(page, server, "writer")
    send(page, "First question")
    transcript(page).locator(".msg.agent .md", has_text="The first answer.").wait_for()
    session = page.locator("main.chat").get_attribute("data-session")

    page.goto(f"{server.base}/agent/triage")
    page.locator("main.chat[data-agent='triage']").wait_for()
    sessions = page.get_by_role("complementary", name="Sessions")
    entry = sessions.locator(f"button[data-session='{session}']")
    entry.wait_for()
    assert "First question" in entry.inner_text()
    entry.click()
    conv = transcript(page)
    conv.locator(".msg.user", has_text="First question").wait_for()
    assert conv.locator(".msg.agent .md").inner_text().strip() == "The first answer."
    # The session's agent comes back with it.
    page.locator(f"main.chat[data-agent='writer'][data-session='{session}']").wait_for()

    send(page, "Second question")
    conv.locator(".msg.agent .md", has_text="The second answer.").wait_for()
    sent = json.dumps(model.requests[-1]["messages"])
    assert "First question" in sent and "The first answer." in sent and "Second question" in sent
    assert page.locator("main.chat").get_attribute("data-session") == session
    assert session_files(server.vault) == [f"{session}.jsonl"]


def test_stop_cancels_a_running_turn_and_keeps_its_text(page, server, model):
    gate = threading.Event()
    model.push(held("Partial answer that goes on and on.", gate))
    open_chat(page, server, "writer")
    send(page, "Talk")
    conv = transcript(page)
    conv.locator(".msg.agent .streaming", has_text="Partial").wait_for()
    page.get_by_role("button", name="Stop").click()
    gate.set()
    conv.locator(".note", has_text="Stopped").wait_for()
    assert "Partial" in conv.locator(".msg.agent").inner_text()
    page.get_by_role("button", name="Send").wait_for()


def test_a_failing_run_says_what_went_wrong_and_what_to_do(page, server, model):
    # No scripted turn: the model answers HTTP 500.
    open_chat(page, server, "writer")
    send(page, "Anything")
    err = transcript(page).locator(".error")
    err.wait_for()
    assert err.locator(".error-message").inner_text().strip()
    assert err.locator(".error-hint").inner_text().strip()
    page.get_by_role("button", name="Send").wait_for()
