"""The code board (/code/{folder}) of a small Python repository opened as a vault: the views that
`easel code init` and the `canvas` operation draw, and the evidence, claims and decisions."""

import json
import subprocess

import pytest

from conftest import EASEL, SHOTS, Server, wait_until

FILES = {
    "README.md": "# app\n\nA tiny settings loader.\n",
    "app/config.py": (
        "def parse_config(text):\n"
        "    return dict(line.split('=', 1) for line in text.splitlines() if '=' in line)\n\n"
        "def load_settings(path):\n"
        "    with open(path) as f:\n"
        "        return parse_config(f.read())\n"
    ),
    "app/main.py": (
        "from app.config import load_settings\n\n"
        "class Session:\n"
        "    def __init__(self, settings):\n"
        "        self.settings = settings\n\n"
        "    def send(self, msg):\n"
        "        return f\"{self.settings.get('host')}: {msg}\"\n\n"
        "def main():\n"
        "    s = Session(load_settings('app.ini'))\n"
        "    print(s.send('hi'))\n"
    ),
}


def write_repo(root):
    for path, text in FILES.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text)


@pytest.fixture
def repo(tmp_path):
    root = tmp_path / "repo"
    write_repo(root)
    subprocess.run([EASEL, "--vault", str(root), "code", "init"], cwd=root, check=True, capture_output=True)
    return root


@pytest.fixture
def server(repo):
    s = Server(repo)
    yield s
    s.stop()


def state(repo):
    return json.loads((repo / ".codecanvas" / "state.json").read_text())


def image_loaded(page, view):
    return page.locator(f'[data-view="{view}"] img').evaluate("img => img.complete && img.naturalWidth > 0")


def test_the_vault_panel_links_to_the_board_and_it_shows_the_views_and_evidence(page, server, repo):
    nav = page.get_by_role("navigation", name="Vault")
    nav.get_by_role("link", name="Code board").click()
    page.wait_for_url("**/code/")
    views = page.get_by_role("region", name="Views")
    views.locator('[data-kind="architecture"]').wait_for()
    views.locator('[data-kind="board"]').wait_for()
    wait_until(lambda: image_loaded(page, "architecture"), what="the architecture picture")
    wait_until(lambda: image_loaded(page, "board"), what="the board picture")
    link = views.locator('[data-view="architecture"]').get_by_role("link", name="Open as canvas")
    assert link.get_attribute("href") == "/canvas/.codecanvas/architecture.canvas"
    evidence = page.get_by_role("region", name="Evidence")
    assert "architecture" in evidence.locator('[data-item="E1"]').inner_text()
    assert "None yet." in page.get_by_role("region", name="Claims").inner_text()
    # The canvas view opens on the board page.
    link.click()
    page.wait_for_url("**/canvas/.codecanvas/architecture.canvas")


def test_impact_claim_and_decision_are_recorded_and_shown(page, server, repo):
    page.goto(f"{server.base}/code/")
    page.get_by_role("region", name="Views").locator('[data-kind="architecture"]').wait_for()

    page.get_by_role("textbox", name="Symbol").fill("load_settings")
    page.get_by_role("button", name="Show impact").click()
    impact = page.get_by_role("region", name="Views").locator('[data-kind="impact"]')
    impact.wait_for()
    wait_until(lambda: image_loaded(page, impact.get_attribute("data-view")), what="the impact picture")
    assert impact.get_by_role("link", name="Open as canvas").get_attribute("href").endswith(".canvas")
    page.get_by_role("region", name="Evidence").locator('[data-item="E2"]', has_text="app.config.load_settings").wait_for()
    focus = page.get_by_role("region", name="Focus")
    assert "app.main.main" in focus.inner_text()
    assert "Callers: app.main.main" in page.get_by_role("status", name="Last answer").inner_text()

    page.get_by_role("textbox", name="Claim").fill("load_settings passes None")
    page.get_by_role("button", name="Add claim").click()
    page.get_by_role("region", name="Claims").locator('[data-item="C1"]', has_text="load_settings passes None").wait_for()

    page.get_by_role("textbox", name="Decision").fill("add a default in parse_config")
    page.get_by_role("combobox", name="Decision kind").select_option("test")
    page.get_by_role("button", name="Add decision").click()
    page.get_by_role("region", name="Decisions").locator('[data-item="D1"]', has_text="add a default").wait_for()

    s = state(repo)
    assert [e["kind"] for e in s["evidence"]] == ["architecture", "impact"]
    assert [(c["kind"], c["text"]) for c in s["claims"]] == [("finding", "load_settings passes None")]
    assert [(d["kind"], d["text"]) for d in s["decisions"]] == [("test", "add a default in parse_config")]


def test_a_claim_added_elsewhere_shows_up(page, server, repo):
    page.goto(f"{server.base}/code/")
    page.get_by_role("region", name="Claims").wait_for()
    server.op("canvas", {"action": "claim", "text": "made by another client", "kind": "question"})
    page.get_by_role("region", name="Claims").locator('[data-item="C1"]', has_text="made by another client").wait_for()


def test_a_repository_without_a_board_is_parsed_on_request(browser, tmp_path):
    root = tmp_path / "fresh"
    write_repo(root)
    s = Server(root)
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        pg = context.new_page()
        pg.goto(s.url)
        pg.goto(f"{s.base}/code/")
        pg.get_by_role("button", name="Parse the code").wait_for()
        # The panel has listed the vault by now: a folder without .codecanvas/ gets no link.
        pg.get_by_role("navigation", name="Vault").get_by_role("link", name="README.md").wait_for()
        assert pg.get_by_role("navigation", name="Vault").get_by_role("link", name="Code board").count() == 0
        pg.get_by_role("button", name="Parse the code").click()
        pg.get_by_role("region", name="Views").locator('[data-kind="architecture"]').wait_for()
        pg.get_by_role("region", name="Evidence").locator('[data-item="E1"]').wait_for()
        assert (root / ".codecanvas" / "state.json").exists()
        pg.reload()
        pg.get_by_role("navigation", name="Vault").get_by_role("link", name="Code board").wait_for()
        pg.screenshot(path=str(SHOTS / "test_a_repository_without_a_board_is_parsed_on_request.png"))
    finally:
        context.close()
        s.stop()
