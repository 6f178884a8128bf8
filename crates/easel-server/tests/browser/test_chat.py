"""The agent chat (/agent/{name}) and the agent editor (/agent-edit/{name}), against a real
`easel serve` whose model is the scripted one (scripted_model.py) over the openai-compat wire."""

import json
import threading

import pytest

from conftest import Server, wait_until
from scripted_model import call, held, text

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


def test_a_waiting_session_reopened_after_a_reload_can_still_be_approved(page, server, model):
    model.push(call("note_write", {"path": "later.md", "content": "Approved later"}), text("Written after all."))
    open_chat(page, server, "writer")
    send(page, "Write later.md")
    page.get_by_role("group", name="Approval for note_write").wait_for()
    session = page.locator("main.chat").get_attribute("data-session")

    page.reload()
    page.locator("main.chat[data-agent='writer']").wait_for()
    assert transcript(page).locator(".msg").count() == 0
    entry = page.get_by_role("complementary", name="Sessions").locator(f"button[data-session='{session}']")
    entry.locator(".badge", has_text="waiting").wait_for()
    entry.click()
    approval = page.get_by_role("group", name="Approval for note_write")
    approval.get_by_role("button", name="Approve").click()
    transcript(page).locator(".msg.agent .md", has_text="Written after all.").wait_for()
    assert (server.vault / "later.md").read_text().rstrip("\n") == "Approved later"
    assert not (server.vault / ".easel" / "sessions" / f"{session}.waiting.json").exists()


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


# The agent editor.

WORD_COUNT = """module.exports = {
  name: 'word_count',
  description: 'Count the words of a text',
  parameters: { text: { type: 'string', description: 'The text' } },
  execute: async ({ text }) => text.split(/\\s+/).filter(Boolean).length,
};
"""


def read_agent(server, name):
    """The agent file as Easel reads it: frontmatter (every key) and body."""
    note = server.op("note_read", {"path": f".easel/agents/{name}.md"})
    return note["frontmatter"], note["body"]


def open_editor(page, server, name=""):
    page.goto(f"{server.base}/agent-edit/{name}")
    # The catalogue is in once the first area of operations is listed.
    page.get_by_role("group", name="Operations: canvas").wait_for()
    if name:
        page.locator(f"main.agent-editor[data-agent='{name}']:not([data-rev=''])").wait_for()


def test_the_editor_creates_an_agent_file(page, server):
    open_editor(page, server)
    page.get_by_label("Name").fill("researcher")
    page.get_by_label("Description").fill("Finds and summarises notes")
    page.get_by_label("Model").select_option("local:smollm2")
    page.get_by_label("Instructions").fill("You find notes and summarise them.\n")
    page.get_by_label("Use the default tools").uncheck()
    ops = page.get_by_role("group", name="Operations: note")
    ops.get_by_label("note_write").check()
    page.get_by_role("group", name="Handoffs").get_by_label("writer").check()
    page.get_by_role("group", name="Agents as tools").get_by_label("triage").check()
    page.get_by_role("button", name="Save").click()
    page.get_by_role("status").wait_for()
    assert page.url.endswith("/agent-edit/researcher")

    fm, body = read_agent(server, "researcher")
    read_only = sorted(o["name"] for o in server_ops(server) if o["effect"] == "read")
    assert fm["name"] == "researcher"
    assert fm["description"] == "Finds and summarises notes"
    assert fm["model"] == "local:smollm2"
    assert sorted(fm["tools"]) == sorted(read_only + ["note_write"])
    assert fm["handoffs"] == ["writer"]
    assert fm["agents_as_tools"] == ["triage"]
    assert body.strip() == "You find notes and summarise them."
    agents = {a["name"]: a for a in server.op("agent_list")["agents"]}
    assert agents["researcher"]["handoffs"] == ["writer"]
    # The chat is one link away.
    page.get_by_role("link", name="Open chat").click()
    page.locator("main.chat[data-agent='researcher']").wait_for()


def server_ops(server):
    import urllib.request

    req = urllib.request.Request(f"{server.base}/api/ops", headers={"authorization": f"Bearer {server.token}"})
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())["operations"]


def test_the_editor_changes_an_agent_and_keeps_its_unknown_keys(page, server):
    before_fm, before_body = read_agent(server, "writer")
    open_editor(page, server, "writer")
    assert page.get_by_label("Description").input_value() == "Writes notes"
    notes = page.get_by_role("group", name="Operations: note")
    assert notes.get_by_label("note_write").is_checked() and notes.get_by_label("note_read").is_checked()
    assert page.get_by_role("button", name="Save").is_disabled()
    page.get_by_label("Description").fill("Writes and tidies notes")
    notes.get_by_label("note_read").uncheck()
    page.get_by_role("group", name="Handoffs").get_by_label("triage").check()
    page.get_by_role("button", name="Save").click()
    page.get_by_role("status").wait_for()

    fm, body = read_agent(server, "writer")
    assert fm == {
        **before_fm,
        "description": "Writes and tidies notes",
        "tools": ["note_write"],
        "handoffs": ["triage"],
    }
    assert fm["color"] == "teal"
    assert body == before_body
    # Saved once, and the page now holds the new revision.
    rev = server.op("note_read", {"path": ".easel/agents/writer.md"})["rev"]
    page.locator(f"main.agent-editor[data-rev='{rev}']").wait_for()


def test_the_editor_refuses_to_overwrite_a_file_changed_meanwhile(page, server):
    open_editor(page, server, "writer")
    path = server.vault / ".easel" / "agents" / "writer.md"
    path.write_text(WRITER.replace("Writes notes", "Changed in Obsidian"))
    page.get_by_text("The agent file changed on disk").wait_for()
    page.get_by_label("Description").fill("My edit")
    page.get_by_role("button", name="Save").click()
    err = page.locator(".agent-editor > .error .error-hint")
    err.wait_for()
    assert err.inner_text().strip()
    assert "Changed in Obsidian" in path.read_text() and "My edit" not in path.read_text()
    page.get_by_role("button", name="Reload").click()
    page.wait_for_function("document.querySelector('input[placeholder^=\"What it does\"]').value === 'Changed in Obsidian'")


def test_script_tools_are_listed_with_their_source_and_can_be_tried(page, server):
    tools = server.vault / ".easel" / "tools"
    tools.mkdir(parents=True, exist_ok=True)
    (tools / "word_count.js").write_text(WORD_COUNT)
    open_editor(page, server, "writer")
    page.get_by_role("group", name="Script tools").get_by_label("word_count").wait_for()
    card = page.locator(".script-tool[data-tool='word_count']")
    card.locator("summary").click()
    assert "text.split" in card.locator(".tool-source").inner_text()
    card.get_by_label("Arguments for word_count").fill('{"text": "one two three"}')
    card.get_by_role("button", name="Try it").click()
    out = card.locator(".try-output")
    out.wait_for()
    assert out.inner_text().strip() == "3"


def test_the_chat_links_to_the_editor(page, server):
    open_chat(page, server, "writer")
    page.get_by_label("Agent", exact=True).select_option("triage")
    page.locator("main.chat[data-agent='triage']").wait_for()
    assert page.url.endswith("/agent/triage")
    page.get_by_role("link", name="Edit agent").click()
    page.locator("main.agent-editor[data-agent='triage']").wait_for()
    assert page.get_by_role("group", name="Handoffs").get_by_label("writer").is_checked()
