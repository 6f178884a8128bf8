"""The document capsule (/doc/{path}): proposals of the document agent applied, discarded and
undone, edits by hand on a selected element, and changes on disk showing up. The document agent
talks to the scripted model server, so every run is the real `doc_edit` over the real wire."""

import json
import threading

import pytest

from conftest import Server, wait_until
from scripted_model import ScriptedModel, call, text

NOTE = "Welcome.md"
PARAGRAPH = "This is an example vault for Easel. Open it in Obsidian to see the canvases Easel edits:"
LAST = "Every change Easel makes is recorded in `.easel/ledger.jsonl` and can be undone with `easel undo`."
BLOCKS = "█" * 40  # a redaction leaves one █ a character, at most 40


class GatedModel(ScriptedModel):
    """A scripted model whose turns marked `gate` wait until the test opens the gate, so the
    page can be seen while the document agent is still working."""

    def __init__(self, turns):
        super().__init__(turns)
        self.gate = threading.Event()

    def _events(self, turn, n):
        if turn.get("gate"):
            self.gate.wait(timeout=60)
        return ScriptedModel._events(turn, n)


@pytest.fixture
def model():
    m = GatedModel([])
    yield m
    m.stop()


@pytest.fixture
def server(vault, model):
    # The server reads the model configuration when it starts, so the vault is configured first.
    model.configure(vault)
    s = Server(vault)
    yield s
    s.stop()


def open_doc(page, server, path=NOTE):
    page.goto(f"{server.base}/doc/{path}")
    page.locator("[data-element-id]").first.wait_for()


def ledger_of(server, path=NOTE):
    return [e for e in server.op("ledger_list", {"limit": 100})["entries"] if e["path"] == path]


def propose(page, instruction):
    page.get_by_role("textbox", name="Instruction").fill(instruction)
    page.get_by_role("button", name="Propose edits").click()
    page.get_by_role("region", name="Proposal").wait_for()


def test_a_proposed_redaction_is_applied_then_undone_byte_for_byte(page, server, model):
    original = (server.vault / NOTE).read_bytes()
    model.push(call("redact_element", {"elementId": "b2"}), text("I redacted the second paragraph."))
    open_doc(page, server)
    propose(page, "redact the paragraph about the example vault")

    op = page.locator("[data-op-id]")
    assert op.count() == 1
    assert op.get_attribute("data-tool") == "redact_element"
    assert op.locator(".before").inner_text() == PARAGRAPH
    assert op.locator(".after").inner_text() == BLOCKS
    assert (server.vault / NOTE).read_bytes() == original, "a proposal must change nothing"
    # The agent was asked about this document, with the instruction.
    assert "redact the paragraph about the example vault" in json.dumps(model.requests[0])

    op.get_by_role("button", name="Apply", exact=True).click()
    expected = original.decode().replace(PARAGRAPH, BLOCKS).encode()
    wait_until(lambda: (server.vault / NOTE).read_bytes() == expected, what="the redaction on disk")
    page.locator('[data-element-id="b2"]', has_text=BLOCKS).wait_for()
    assert "applied" in op.get_attribute("class")

    entry = page.get_by_role("region", name="Ledger").locator("[data-ledger-id]", has_text="redact_element b2")
    entry.get_by_role("button", name="Undo").click()
    wait_until(lambda: (server.vault / NOTE).read_bytes() == original, what="the file back as it was")
    page.locator('[data-element-id="b2"]', has_text=PARAGRAPH).wait_for()
    page.get_by_role("region", name="Ledger").locator(".entry.undone", has_text="redact_element b2").wait_for()


def test_progress_shows_the_agent_s_tool_calls_while_it_works(page, server, model):
    model.push(call("redact_element", {"elementId": "b2"}), {**text("All done."), "gate": True})
    open_doc(page, server)
    page.get_by_role("textbox", name="Instruction").fill("redact the paragraph")
    page.get_by_role("button", name="Propose edits").click()
    progress = page.get_by_role("region", name="Instruction").get_by_role("status")
    progress.get_by_text('redact_element({"elementId":"b2"})').wait_for()
    assert "working" in progress.inner_text()
    assert page.get_by_role("button", name="Stop").is_visible()
    assert page.get_by_role("region", name="Proposal").count() == 0
    model.gate.set()
    page.get_by_role("region", name="Proposal").get_by_text("All done.").wait_for()
    assert progress.count() == 0


def test_stop_ends_the_agent_s_run_and_changes_nothing(page, server, model):
    original = (server.vault / NOTE).read_bytes()
    model.push(call("redact_element", {"elementId": "b2"}), {**text("Never sent."), "gate": True})
    open_doc(page, server)
    page.get_by_role("textbox", name="Instruction").fill("redact the paragraph")
    page.get_by_role("button", name="Propose edits").click()
    progress = page.get_by_role("region", name="Instruction").get_by_role("status")
    progress.get_by_text("redact_element").wait_for()
    page.get_by_role("button", name="Stop").click()
    page.get_by_role("note").get_by_text("nothing was proposed or applied").wait_for()
    assert progress.count() == 0
    model.gate.set()
    # The run, if the server finishes it anyway, must not bring its proposal back.
    wait_until(lambda: model.left() == 0, what="the model's last turn taken")
    page.get_by_role("button", name="Propose edits").wait_for()
    assert page.get_by_role("region", name="Proposal").count() == 0
    assert (server.vault / NOTE).read_bytes() == original
    assert ledger_of(server) == []


def test_an_instruction_about_the_selected_element_names_it_to_the_agent(page, server, model):
    model.push(call("redact_element", {"elementId": "b5"}), text("Redacted it."))
    open_doc(page, server)
    page.locator('[data-element-id="b5"]').click()
    propose(page, "redact this")
    assert page.locator("[data-op-id]").get_attribute("data-tool") == "redact_element"
    sent = json.dumps(model.requests[0])
    assert "b5" in sent and "redact this" in sent
    # The selection is the context: the other paragraphs are not sent.
    assert "example vault for Easel" not in sent


def test_discard_applies_nothing(page, server, model):
    original = (server.vault / NOTE).read_bytes()
    model.push(
        call("redact_element", {"elementId": "b2"}),
        call("add_highlight", {"elementId": "b1"}),
        text("Done."),
    )
    open_doc(page, server)
    propose(page, "redact the paragraph and highlight the title")
    assert page.locator("[data-op-id]").count() == 2

    page.get_by_role("group", name="All proposed edits").get_by_role("button", name="Discard").click()
    wait_until(lambda: page.locator(".operation.discarded").count() == 2, what="both edits discarded")
    assert page.get_by_role("button", name="Apply", exact=True).count() == 0
    assert page.get_by_role("button", name="Apply all").count() == 0
    assert (server.vault / NOTE).read_bytes() == original
    assert ledger_of(server) == []


def test_one_edit_of_a_proposal_is_applied_and_the_other_discarded(page, server, model):
    original = (server.vault / NOTE).read_text()
    model.push(
        call("add_highlight", {"elementId": "b1"}),
        call("redact_element", {"elementId": "b5"}),
        text("Done."),
    )
    open_doc(page, server)
    propose(page, "highlight the title and redact the last paragraph")
    ops = page.locator("[data-op-id]")
    ops.nth(1).get_by_role("button", name="Discard").click()
    ops.nth(0).get_by_role("button", name="Apply", exact=True).click()
    expected = original.replace("# Welcome", "# ==Welcome==")
    wait_until(lambda: (server.vault / NOTE).read_text() == expected, what="only the highlight on disk")
    assert [e["summary"] for e in ledger_of(server)] == ["add_highlight b1"]


def test_a_proposal_made_before_a_change_on_disk_is_refused_and_can_be_made_again(page, server, model):
    model.push(call("redact_element", {"elementId": "b2"}), text("Done."))
    open_doc(page, server)
    propose(page, "redact the paragraph")
    changed = (server.vault / NOTE).read_text() + "\nA line added elsewhere.\n"
    (server.vault / NOTE).write_text(changed)
    page.locator("[data-element-id]", has_text="A line added elsewhere.").wait_for()

    page.get_by_role("button", name="Apply all").click()
    alert = page.get_by_role("region", name="Proposal").get_by_role("alert")
    alert.wait_for()
    assert "changed" in alert.inner_text()
    assert (server.vault / NOTE).read_text() == changed

    model.push(call("redact_element", {"elementId": "b2"}), text("Done again."))
    alert.get_by_role("button", name="Propose again").click()
    page.get_by_text("Done again.").wait_for()
    page.get_by_role("button", name="Apply all").click()
    expected = changed.replace(PARAGRAPH, BLOCKS)
    wait_until(lambda: (server.vault / NOTE).read_text() == expected, what="the new proposal applied")


def test_a_selected_element_is_redacted_by_hand_without_a_model(page, server, model):
    original = (server.vault / NOTE).read_text()
    open_doc(page, server)
    page.locator('[data-element-id="b5"]').click()
    assert page.locator('[data-element-id="b5"]').get_attribute("aria-selected") == "true"
    page.get_by_role("region", name="Selected element").get_by_role("button", name="Redact").click()
    expected = original.replace(LAST, BLOCKS)
    wait_until(lambda: (server.vault / NOTE).read_text() == expected, what="the hand redaction on disk")
    page.locator('[data-element-id="b5"]', has_text=BLOCKS).wait_for()
    assert model.requests == []
    assert [e["summary"] for e in ledger_of(server)] == ["redact_element b5"]


def test_a_comment_by_hand_is_written_as_an_obsidian_comment(page, server, model):
    original = (server.vault / NOTE).read_text()
    open_doc(page, server)
    page.locator('[data-element-id="b1"]').click()
    actions = page.get_by_role("region", name="Selected element")
    actions.get_by_role("textbox", name="Comment text").fill("check the title")
    actions.get_by_role("button", name="Comment").click()
    wait_until(lambda: (server.vault / NOTE).read_text() != original, what="the comment on disk")
    after = (server.vault / NOTE).read_text()
    assert "%%check the title%%" in after
    assert after.replace(" %%check the title%%", "").replace("\n%%check the title%%", "") == original
    assert model.requests == []


def test_an_undo_the_ledger_refuses_shows_why(page, server, model):
    open_doc(page, server)
    page.locator('[data-element-id="b1"]').click()
    page.get_by_role("region", name="Selected element").get_by_role("button", name="Highlight").click()
    ledger = page.get_by_role("region", name="Ledger")
    ledger.locator("[data-ledger-id]", has_text="add_highlight b1").wait_for()
    # A later edit on disk touches the same element: undoing the highlight would destroy it.
    path = server.vault / NOTE
    path.write_text(path.read_text().replace("# ==Welcome==", "# ==Welcome home=="))
    page.locator('[data-element-id="b1"]', has_text="Welcome home").wait_for()
    before = path.read_text()
    ledger.locator("[data-ledger-id]", has_text="add_highlight b1").get_by_role("button", name="Undo").click()
    alert = ledger.get_by_role("alert")
    alert.wait_for()
    assert alert.locator(".hint").inner_text().strip()
    assert path.read_text() == before


def test_an_edit_on_disk_shows_up(page, server, model):
    open_doc(page, server)
    root = page.locator("main.capsule")
    rev = root.get_attribute("data-rev")
    (server.vault / NOTE).write_text("# Renamed\n\nA paragraph written by another program.\n")
    page.locator('[data-element-id="b2"]', has_text="A paragraph written by another program.").wait_for()
    assert page.locator("[data-element-id]").count() == 2
    assert root.get_attribute("data-rev") != rev


def test_html_element_text_is_shown_as_text_never_as_markup(page, server, model):
    doc = (
        '<html><body><h1 data-canon-id="c00000001">Lease</h1>'
        '<p data-canon-id="c00000002">&lt;img src=x onerror="window.pwned=1"&gt; Tenant: Ann</p>'
        "</body></html>"
    )
    (server.vault / "Lease.html").write_text(doc)
    open_doc(page, server, "Lease.html")
    block = page.locator('[data-element-id="c00000002"]')
    assert block.inner_text().startswith('<img src=x onerror="window.pwned=1">')
    assert page.locator(".doc-flow img").count() == 0
    assert page.evaluate("window.pwned") is None


def test_an_html_document_without_ids_gets_them_on_request(page, server, model):
    (server.vault / "Plain.html").write_text("<html><body><h1>Plain</h1><p>Body text.</p></body></html>")
    page.goto(f"{server.base}/doc/Plain.html")
    page.get_by_role("button", name="Add element ids").click()
    page.locator("[data-element-id]", has_text="Body text.").wait_for()
    assert "data-canon-id" in (server.vault / "Plain.html").read_text()


def test_finalize_asks_first_and_explains_it_is_permanent(page, server, model):
    open_doc(page, server)
    page.locator('[data-element-id="b5"]').click()
    page.get_by_role("region", name="Selected element").get_by_role("button", name="Redact").click()
    page.get_by_role("region", name="Ledger").locator("[data-ledger-id]").first.wait_for()
    page.get_by_role("button", name="Finalize redactions…").click()
    dialog = page.get_by_role("alertdialog", name="Confirm finalizing")
    assert "can no longer be undone" in dialog.inner_text()
    dialog.get_by_role("button", name="Cancel").click()
    assert dialog.count() == 0
    page.get_by_role("button", name="Finalize redactions…").click()
    page.get_by_role("alertdialog").get_by_role("button", name="Finalize", exact=True).click()
    page.get_by_role("region", name="Finalize redactions").get_by_role("status").wait_for()
    assert "redaction(s) finalized" in page.get_by_role("region", name="Finalize redactions").inner_text()
