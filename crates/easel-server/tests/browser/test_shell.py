"""The shell: the token becomes a cookie, the vault panel lists the vault, and nothing loads
from outside the server."""

import json
import urllib.request
import urllib.error

from conftest import wait_until


def test_the_token_url_logs_in_and_leaves_the_address_bar(page, server):
    assert "token=" not in page.url
    cookies = page.context.cookies()
    assert any(c["name"].startswith("easel_token_") and c["httpOnly"] for c in cookies)


def test_the_vault_panel_lists_canvases_and_notes(page, server):
    nav = page.get_by_role("navigation", name="Vault")
    nav.get_by_role("link", name="Research.canvas").wait_for()
    assert nav.get_by_role("link", name="notes/Reading list.md").is_visible()
    assert nav.get_by_role("link", name="boards/Project plan.canvas").is_visible()


def test_a_file_created_on_disk_appears_in_the_panel(page, server):
    nav = page.get_by_role("navigation", name="Vault")
    nav.get_by_role("link", name="Research.canvas").wait_for()
    (server.vault / "Fresh.canvas").write_text('{"nodes":[],"edges":[]}')
    nav.get_by_role("link", name="Fresh.canvas").wait_for(timeout=5000)


def test_the_api_refuses_a_request_without_the_token(server):
    req = urllib.request.Request(
        f"{server.base}/api/ops/canvas_list", data=b"{}", headers={"content-type": "application/json"}
    )
    try:
        urllib.request.urlopen(req, timeout=10)
        raise AssertionError("the request went through")
    except urllib.error.HTTPError as e:
        assert e.code == 401


def test_every_request_the_page_makes_goes_to_the_server(browser, server):
    context = browser.new_context()
    pg = context.new_page()
    seen = []
    pg.on("request", lambda r: seen.append(r.url))
    pg.goto(server.url)
    pg.get_by_role("link", name="Research.canvas").wait_for()
    context.close()
    assert seen and all(u.startswith(server.base) for u in seen), seen


def test_a_canvas_is_created_from_a_template_in_the_panel(page, server):
    nav = page.get_by_role("navigation", name="Vault")
    nav.get_by_role("button", name="New canvas").click()
    nav.get_by_label("Path").fill("Plans/Trip.canvas")
    nav.get_by_label("Template").select_option("mindmap")
    nav.get_by_role("button", name="Create").click()
    page.wait_for_url("**/canvas/Plans/Trip.canvas")
    made = json.loads((server.vault / "Plans" / "Trip.canvas").read_text())
    assert made["nodes"], "the template's nodes are in the file"
    assert any("Trip" in n.get("text", "") for n in made["nodes"]), "the topic is filled in"
    ledger = server.op("ledger_list", {"limit": 1})["entries"][0]
    assert ledger["actor"] == "http" and ledger["path"] == "Plans/Trip.canvas", ledger


def test_a_blank_canvas_and_a_refused_path_say_what_happened(page, server):
    nav = page.get_by_role("navigation", name="Vault")
    nav.get_by_role("button", name="New canvas").click()
    nav.get_by_label("Path").fill("../outside")
    nav.get_by_role("button", name="Create").click()
    alert = nav.get_by_role("alert")
    alert.wait_for()
    assert "outside" in alert.inner_text() or "vault" in alert.inner_text()
    assert not (server.vault.parent / "outside.canvas").exists()
    nav.get_by_label("Path").fill("Empty.canvas")
    nav.get_by_role("button", name="Create").click()
    page.wait_for_url("**/canvas/Empty.canvas")
    assert json.loads((server.vault / "Empty.canvas").read_text()) == {"nodes": [], "edges": []}


def test_an_agent_written_on_disk_and_a_deleted_file_update_the_panel(page, server):
    nav = page.get_by_role("navigation", name="Vault")
    nav.get_by_role("link", name="Research.canvas").wait_for()
    (server.vault / ".easel" / "agents").mkdir(parents=True, exist_ok=True)
    (server.vault / ".easel" / "agents" / "scout.md").write_text(
        "---\ndescription: Looks around\n---\nYou look around.\n")
    nav.get_by_role("link", name="scout").wait_for(timeout=5000)
    (server.vault / "Research.canvas").unlink()
    nav.get_by_role("link", name="Research.canvas").wait_for(state="detached", timeout=5000)
