"""The board page (/canvas/{path}): rendering, view, live updates, editing, Send to LLM and the
layout/import/export menus, against a real `easel serve` (DESIGN section 17)."""

import json
import re

from board_helpers import (
    GROUP,
    LINK,
    QUESTION,
    SYSTEM,
    centre,
    drag,
    file_rev,
    node,
    node_ids,
    open_board,
    rev_of,
    selected_ids,
    transform,
    viewport_point,
    wait_synced,
    without,
)
from conftest import wait_until


def write_canvas(server, path, nodes, edges=()):
    (server.vault / path).write_text(json.dumps({"nodes": list(nodes), "edges": list(edges)}))


# --- Render ---------------------------------------------------------------------------------


def test_every_node_and_edge_of_the_file_is_on_the_board(page, server):
    board = open_board(page, server)
    canvas = server.read_canvas("Research.canvas")
    assert board.get_attribute("data-canvas-path") == "Research.canvas"
    assert rev_of(page) == file_rev(server)
    # Array order is z-order: the DOM keeps it (groups, which lie under everything, come first here).
    assert node_ids(page) == [n["id"] for n in canvas["nodes"]]
    edge_ids = page.eval_on_selector_all("[data-edge-id]", "els => els.map(e => e.dataset.edgeId)")
    assert sorted(edge_ids) == sorted(e["id"] for e in canvas["edges"])
    # Coordinates: the nodes keep their relative places and sizes at the board's zoom.
    x, y, k = transform(page)
    world = page.locator(".board-world").bounding_box()
    for n in canvas["nodes"]:
        box = node(page, n["id"]).bounding_box()
        assert abs(box["x"] - (world["x"] + n["x"] * k)) < 3, n["id"]
        assert abs(box["y"] - (world["y"] + n["y"] * k)) < 3, n["id"]
        assert abs(box["width"] - n["width"] * k) < 3, n["id"]
    # Colours: preset "6" is purple, the edge's hex colour is its stroke.
    purple = node(page, SYSTEM).evaluate("e => getComputedStyle(e).borderTopColor")
    assert purple == "rgb(120, 82, 238)"
    stroke = page.locator('[data-edge-id="c3d4e5f60718293a"] .edge-line').get_attribute("stroke")
    assert stroke.lower() == "#ff8800"
    # Ends: an arrow at `to` by default, none at `from`; a label is shown as text.
    assert page.locator('[data-edge-id="a1b2c3d4e5f60718"] polygon').count() == 1
    assert page.locator('[data-edge-label="b2c3d4e5f6071829"]').inner_text() == "source"
    # Markdown, the note of a file node, the link, the group's label.
    assert node(page, QUESTION).locator("strong").inner_text() == "three"
    assert "Sugiyama" in node(page, "2b3c4d5e6f708192").inner_text()
    assert "Later" not in node(page, "2b3c4d5e6f708192").inner_text()  # only #Papers
    link = node(page, LINK).locator("a")
    assert link.get_attribute("href") == "https://jsoncanvas.org/spec/1.0/"
    assert node(page, LINK).locator("iframe").count() == 0
    assert node(page, GROUP).locator(".group-label").inner_text() == "Research"


def test_markdown_from_the_file_is_sanitised(page, server):
    evil = 'Hello <img src=x onerror="window.__pwned=1"> <script>window.__pwned=2</script>\n\n[x](javascript:window.__pwned=3)'
    write_canvas(
        server,
        "Evil.canvas",
        [
            {"id": "e000000000000001", "type": "text", "text": evil, "x": 0, "y": 0, "width": 300, "height": 200},
            {"id": "e000000000000002", "type": "link", "url": "javascript:window.__pwned=4", "x": 400, "y": 0, "width": 300, "height": 100},
        ],
    )
    open_board(page, server, "Evil.canvas")
    n = node(page, "e000000000000001")
    n.wait_for()
    assert "Hello" in n.inner_text()
    assert n.locator("script").count() == 0
    assert n.locator("img").get_attribute("onerror") is None
    hrefs = n.locator("a").evaluate_all("els => els.map(e => e.getAttribute('href'))")
    assert not any(h and h.lower().startswith("javascript:") for h in hrefs), hrefs
    # A link node with a javascript: URL shows it as text, not as a link.
    assert node(page, "e000000000000002").locator("a").count() == 0
    assert "javascript:" in node(page, "e000000000000002").inner_text()
    assert page.evaluate("window.__pwned") is None


def test_geometry_that_is_not_numbers_never_reaches_a_style(page, server):
    (server.vault / "Odd.canvas").write_text(json.dumps({"nodes": [
        {"id": "a000000000000001", "type": "text", "text": "odd", "x": "0px;background:url(/api/files/evil.png);--a:", "y": 0, "width": 200, "height": 80},
    ], "edges": []}))
    seen = []
    page.on("request", lambda r: seen.append(r.url))
    open_board(page, server, "Odd.canvas")
    style = node(page, "a000000000000001").get_attribute("style")
    assert "url(" not in style and re.search(r"left:\s*0px", style), style
    assert not any("evil.png" in u for u in seen)


def test_an_image_file_node_shows_the_image(page, server):
    import base64

    png = base64.b64decode(
        "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
    )
    (server.vault / "pic.png").write_bytes(png)
    write_canvas(server, "Pic.canvas", [{"id": "f000000000000001", "type": "file", "file": "pic.png", "x": 0, "y": 0, "width": 200, "height": 200}])
    open_board(page, server, "Pic.canvas")
    img = node(page, "f000000000000001").locator("img")
    assert img.get_attribute("src") == "/api/files/pic.png"
    wait_until(lambda: img.evaluate("i => i.complete && i.naturalWidth") == 1, what="the image to load")


def test_a_missing_canvas_says_what_went_wrong_and_what_to_do(page, server):
    page.goto(f"{server.base}/canvas/Nowhere.canvas")
    alert = page.locator("main.board").get_by_role("alert")
    alert.wait_for()
    text = alert.inner_text()
    assert "Nowhere" in text
    assert alert.locator("small").inner_text().strip()  # the server's hint


# --- View -----------------------------------------------------------------------------------


def test_pan_by_dragging_and_by_wheel_and_zoom_about_the_pointer(page, server):
    open_board(page, server)
    x0, y0, k0 = transform(page)
    start = viewport_point(page, 0.02, 0.03)
    drag(page, start, (start[0] + 120, start[1] + 70))
    x1, y1, k1 = transform(page)
    assert (round(x1 - x0), round(y1 - y0), k1) == (120, 70, k0)
    page.mouse.move(*viewport_point(page, 0.5, 0.5))
    page.mouse.wheel(0, 100)
    wait_until(lambda: transform(page)[1] != y1, what="the wheel to pan")
    x2, y2, k2 = transform(page)
    assert round(y1 - y2) == 100 and k2 == k1
    # Ctrl+wheel zooms, keeping the world point under the pointer in place.
    vp = page.locator(".board-viewport").bounding_box()
    px, py = viewport_point(page, 0.3, 0.4)
    wx, wy = (px - vp["x"] - x2) / k2, (py - vp["y"] - y2) / k2
    page.mouse.move(px, py)
    page.keyboard.down("Control")
    page.mouse.wheel(0, -100)
    page.keyboard.up("Control")
    wait_until(lambda: transform(page)[2] != k2, what="ctrl+wheel to zoom")
    x3, y3, k3 = transform(page)
    assert k3 > k2
    assert abs((px - vp["x"] - x3) / k3 - wx) < 0.5 and abs((py - vp["y"] - y3) / k3 - wy) < 0.5
    # The zoom stays within 0.1–5×.
    page.keyboard.down("Control")
    for _ in range(15):
        page.mouse.wheel(0, -500)
    page.keyboard.up("Control")
    wait_until(lambda: transform(page)[2] == 5, what="zoom to stop at 5x")
    page.keyboard.down("Control")
    for _ in range(30):
        page.mouse.wheel(0, 500)
    page.keyboard.up("Control")
    wait_until(lambda: abs(transform(page)[2] - 0.1) < 1e-9, what="zoom to stop at 0.1x")
    # Zoom to fit: the button, and Shift+1, bring back the opening view.
    page.get_by_role("button", name="Zoom to fit").click()
    assert transform(page) == (x0, y0, k0)
    page.mouse.move(*viewport_point(page, 0.5, 0.5))
    page.mouse.wheel(0, 300)
    wait_until(lambda: transform(page) != (x0, y0, k0), what="a pan")
    page.keyboard.press("Shift+Digit1")
    wait_until(lambda: transform(page) == (x0, y0, k0), what="Shift+1 to fit")


# --- Live -----------------------------------------------------------------------------------


def test_a_change_on_disk_appears_without_reload_keeping_view_and_selection(page, server):
    open_board(page, server)
    page.mouse.click(*centre(page, SYSTEM))
    assert selected_ids(page) == [SYSTEM]
    page.mouse.move(*viewport_point(page, 0.5, 0.5))
    page.mouse.wheel(40, 60)
    wait_until(lambda: transform(page)[0] != 0 and True, what="pan")
    view = transform(page)
    page.evaluate("window.__sameDocument = true")
    # An unchanged node keeps its very elements through the re-read (nothing is redrawn).
    node(page, SYSTEM).locator(".md > *").first.evaluate("e => { e.__kept = true }")
    canvas = server.read_canvas("Research.canvas")
    canvas["nodes"].append({"id": "0000000000000abc", "type": "text", "text": "Written **on disk**", "x": 100, "y": 420, "width": 300, "height": 80})
    for n in canvas["nodes"]:
        if n["id"] == QUESTION:
            n["text"] = "Changed by another program"
    (server.vault / "Research.canvas").write_text(json.dumps(canvas))
    node(page, "0000000000000abc").wait_for()
    wait_until(lambda: "Changed by another program" in node(page, QUESTION).inner_text(), what="the edited text")
    wait_synced(page, server)
    assert page.evaluate("window.__sameDocument") is True  # no reload
    assert transform(page) == view
    assert selected_ids(page) == [SYSTEM]
    assert node(page, SYSTEM).locator(".md > *").first.evaluate("e => e.__kept === true")


# --- Edit -----------------------------------------------------------------------------------


def test_select_by_click_shift_click_box_ctrl_a_and_esc(page, server):
    open_board(page, server)
    page.mouse.click(*centre(page, SYSTEM))
    assert selected_ids(page) == [SYSTEM]
    page.keyboard.down("Shift")
    page.mouse.click(*centre(page, QUESTION))
    page.keyboard.up("Shift")
    assert sorted(selected_ids(page)) == sorted([SYSTEM, QUESTION])
    page.keyboard.press("Escape")
    assert selected_ids(page) == []
    page.keyboard.press("Control+a")
    assert sorted(selected_ids(page)) == sorted(n["id"] for n in server.read_canvas("Research.canvas")["nodes"])
    page.mouse.click(*viewport_point(page, 0.02, 0.03))
    assert selected_ids(page) == []
    # Shift+drag on the background: a box selects the nodes wholly inside it. The group covers
    # the middle, so the box starts on the bare background above it and ends inside the group.
    vp = page.locator(".board-viewport").bounding_box()
    sys_box = node(page, SYSTEM).bounding_box()
    page.keyboard.down("Shift")
    drag(page, (vp["x"] + 5, vp["y"] + 5), (sys_box["x"] + sys_box["width"] + 10, sys_box["y"] + sys_box["height"] + 10))
    page.keyboard.up("Shift")
    assert selected_ids(page) == [SYSTEM]
    grp = node(page, GROUP).bounding_box()
    page.keyboard.down("Shift")
    drag(page, (vp["x"] + 5, vp["y"] + 5), (grp["x"] + grp["width"] + 10, grp["y"] + grp["height"] + 10))
    page.keyboard.up("Shift")
    assert sorted(selected_ids(page)) == sorted(n["id"] for n in server.read_canvas("Research.canvas")["nodes"])


def test_dragging_a_node_writes_its_new_place_and_nothing_else(page, server):
    open_board(page, server)
    before = server.read_canvas("Research.canvas")
    shown_rev = rev_of(page)
    writes = []
    page.on("request", lambda r: writes.append(json.loads(r.post_data)) if "/api/ops/canvas_update_node" in r.url else None)
    k = transform(page)[2]
    start = centre(page, QUESTION)
    drag(page, start, (start[0] + 100 * k, start[1] + 40 * k))
    wait_until(lambda: server.read_canvas("Research.canvas") != before, what="the move to be written")
    after = server.read_canvas("Research.canvas")
    old = next(n for n in before["nodes"] if n["id"] == QUESTION)
    new = next(n for n in after["nodes"] if n["id"] == QUESTION)
    assert abs(new["x"] - (old["x"] + 100)) <= 1 and abs(new["y"] - (old["y"] + 40)) <= 1
    assert without(after, QUESTION, "x", "y") == without(before, QUESTION, "x", "y")
    wait_synced(page, server)
    # One write, carrying the revision the board showed.
    assert writes == [{"id": QUESTION, "data": {"x": new["x"], "y": new["y"]}, "path": "Research.canvas", "rev": shown_rev}]


def test_dragging_a_group_carries_its_members(page, server):
    open_board(page, server)
    before = server.read_canvas("Research.canvas")
    k = transform(page)[2]
    gbox = node(page, GROUP).bounding_box()
    # Grab the group by its own background (its bottom strip, under no member).
    start = (gbox["x"] + gbox["width"] - 20, gbox["y"] + gbox["height"] - 10)
    drag(page, start, (start[0] + 50 * k, start[1] + 30 * k))
    wait_until(lambda: server.read_canvas("Research.canvas") != before, what="the move to be written")
    after = server.read_canvas("Research.canvas")
    for old, new in zip(before["nodes"], after["nodes"]):
        assert (new["x"] - old["x"], new["y"] - old["y"]) in {(50, 30), (49, 30), (50, 29), (51, 30), (50, 31)}, new["id"]
        assert {k2: v for k2, v in new.items() if k2 not in ("x", "y")} == {k2: v for k2, v in old.items() if k2 not in ("x", "y")}
    assert after["edges"] == before["edges"]


def test_resize_with_the_corner_handle(page, server):
    open_board(page, server)
    before = server.read_canvas("Research.canvas")
    k = transform(page)[2]
    page.mouse.click(*centre(page, QUESTION))
    handle = node(page, QUESTION).locator(".resize-handle").bounding_box()
    start = (handle["x"] + handle["width"] / 2, handle["y"] + handle["height"] / 2)
    drag(page, start, (start[0] + 80 * k, start[1] + 60 * k))
    wait_until(lambda: server.read_canvas("Research.canvas") != before, what="the resize to be written")
    after = server.read_canvas("Research.canvas")
    new = next(n for n in after["nodes"] if n["id"] == QUESTION)
    assert abs(new["width"] - 480) <= 8 and abs(new["height"] - 200) <= 8
    assert without(after, QUESTION, "width", "height") == without(before, QUESTION, "width", "height")


def test_double_click_edits_text_ctrl_enter_saves_and_esc_cancels(page, server):
    open_board(page, server)
    before = server.read_canvas("Research.canvas")
    page.mouse.dblclick(*centre(page, QUESTION))
    editor = page.get_by_role("textbox", name="Node text")
    assert editor.input_value() == "Summarise the spec in **three** bullet points."
    editor.fill("Not saved")
    editor.press("Escape")
    assert editor.count() == 0
    assert server.read_canvas("Research.canvas") == before
    page.mouse.dblclick(*centre(page, QUESTION))
    editor.fill("Summarise it in *two* points.")
    editor.press("Control+Enter")
    wait_until(lambda: server.read_canvas("Research.canvas") != before, what="the text to be written")
    after = server.read_canvas("Research.canvas")
    assert next(n for n in after["nodes"] if n["id"] == QUESTION)["text"] == "Summarise it in *two* points."
    assert without(after, QUESTION, "text") == without(before, QUESTION, "text")
    node(page, QUESTION).locator("em", has_text="two").wait_for()


def test_double_click_on_the_background_makes_a_text_node(page, server):
    open_board(page, server)
    before = server.read_canvas("Research.canvas")
    page.mouse.dblclick(*viewport_point(page, 0.03, 0.5))
    editor = page.get_by_role("textbox", name="Node text")
    editor.wait_for()
    editor.fill("A new idea")
    page.mouse.click(*viewport_point(page, 0.02, 0.03))  # blur saves
    wait_until(
        lambda: any(n.get("text") == "A new idea" for n in server.read_canvas("Research.canvas")["nodes"]),
        what="the new node's text",
    )
    after = server.read_canvas("Research.canvas")
    assert after["nodes"][: len(before["nodes"])] == before["nodes"]
    assert len(after["nodes"]) == len(before["nodes"]) + 1 and after["edges"] == before["edges"]
    new = after["nodes"][-1]
    assert new["type"] == "text"
    node(page, new["id"]).wait_for()
    # Inside a group's empty area too (the group's label is what edits the group).
    g = node(page, GROUP).bounding_box()
    page.mouse.dblclick(g["x"] + g["width"] - 60, g["y"] + g["height"] - 20)
    editor.wait_for()
    editor.fill("In the group")
    editor.press("Control+Enter")
    wait_until(lambda: server.read_canvas("Research.canvas")["nodes"][-1].get("text") == "In the group", what="the second node")
    inner = server.read_canvas("Research.canvas")["nodes"][-1]
    group = next(n for n in before["nodes"] if n["id"] == GROUP)
    assert group["x"] < inner["x"] + 125 < group["x"] + group["width"] and group["y"] < inner["y"] + 30 < group["y"] + group["height"]
    assert next(n for n in server.read_canvas("Research.canvas")["nodes"] if n["id"] == GROUP) == group


def test_drag_from_a_side_handle_to_another_node_draws_an_edge(page, server):
    open_board(page, server)
    before = server.read_canvas("Research.canvas")
    page.mouse.move(*centre(page, SYSTEM))
    handle = node(page, SYSTEM).locator(".handle-right").bounding_box()
    drag(page, (handle["x"] + 6, handle["y"] + 6), centre(page, "2b3c4d5e6f708192", dx=-100))
    wait_until(lambda: len(server.read_canvas("Research.canvas")["edges"]) == len(before["edges"]) + 1, what="the new edge")
    after = server.read_canvas("Research.canvas")
    e = after["edges"][-1]
    assert (e["fromNode"], e["fromSide"], e["toNode"], e["toSide"]) == (SYSTEM, "right", "2b3c4d5e6f708192", "left")
    assert after["nodes"] == before["nodes"] and after["edges"][:-1] == before["edges"]
    page.locator(f'[data-edge-id="{e["id"]}"]').wait_for()


def test_delete_removes_the_selection_and_undo_redo_go_through_the_ledger(page, server):
    open_board(page, server)
    before = server.read_canvas("Research.canvas")
    page.mouse.click(*centre(page, QUESTION))
    page.keyboard.press("Delete")
    wait_until(lambda: server.read_canvas("Research.canvas") != before, what="the removal")
    removed = server.read_canvas("Research.canvas")
    assert [n["id"] for n in removed["nodes"]] == [n["id"] for n in before["nodes"] if n["id"] != QUESTION]
    assert all(QUESTION not in (e["fromNode"], e["toNode"]) for e in removed["edges"])
    wait_until(lambda: node(page, QUESTION).count() == 0, what="the node to leave the board")
    page.keyboard.press("Control+z")
    wait_until(lambda: server.read_canvas("Research.canvas") == before, what="undo")
    node(page, QUESTION).wait_for()
    page.keyboard.press("Control+Shift+z")
    wait_until(lambda: server.read_canvas("Research.canvas") == removed, what="redo")
    wait_until(lambda: node(page, QUESTION).count() == 0, what="the node to leave again")
    page.get_by_role("button", name="Undo").click()
    wait_until(lambda: server.read_canvas("Research.canvas") == before, what="undo again")
    wait_synced(page, server)


def test_a_clicked_edge_is_selected_and_delete_removes_only_it(page, server):
    open_board(page, server)
    before = server.read_canvas("Research.canvas")
    edge = page.locator('[data-edge-id="a1b2c3d4e5f60718"] .edge-hit')
    # The vertical edge from the system node down to the question: click its middle.
    top = node(page, SYSTEM).bounding_box()
    below = node(page, QUESTION).bounding_box()
    x = top["x"] + top["width"] / 2
    page.mouse.click(x, (top["y"] + top["height"] + below["y"]) / 2)
    page.locator('[data-edge-id="a1b2c3d4e5f60718"].selected').wait_for()
    assert edge.count() == 1
    page.keyboard.press("Delete")
    wait_until(lambda: server.read_canvas("Research.canvas") != before, what="the edge removal")
    after = server.read_canvas("Research.canvas")
    assert after["nodes"] == before["nodes"]
    assert after["edges"] == [e for e in before["edges"] if e["id"] != "a1b2c3d4e5f60718"]


def test_a_move_that_meets_a_conflict_is_applied_on_the_new_file(page, server):
    open_board(page, server)
    k = transform(page)[2]
    fired = []

    # Another writer changes the file just as the board's write goes out: the write meets a
    # 409 conflict, and the board re-reads and moves the node on the new file.
    def meddle(route):
        if not fired:
            fired.append(1)
            server.op("canvas_update_node", {"path": "Research.canvas", "id": SYSTEM, "data": {"text": "Edited elsewhere"}})
        route.continue_()

    page.route("**/api/ops/canvas_update_node", meddle)
    start = centre(page, QUESTION)
    drag(page, start, (start[0] + 60 * k, start[1]))
    # rev_of(page) lets Playwright run the route handler while we wait.
    wait_until(
        lambda: rev_of(page) and next(n for n in server.read_canvas("Research.canvas")["nodes"] if n["id"] == QUESTION)["x"] != -380,
        what="the move",
    )
    after = server.read_canvas("Research.canvas")
    assert fired
    assert next(n for n in after["nodes"] if n["id"] == SYSTEM)["text"] == "Edited elsewhere"
    assert abs(next(n for n in after["nodes"] if n["id"] == QUESTION)["x"] - (-320)) <= 1
    wait_synced(page, server)


def test_a_move_of_a_node_deleted_meanwhile_reloads_and_says_so(page, server):
    open_board(page, server)
    fired = []

    def meddle(route):
        if not fired:
            fired.append(1)
            server.op("canvas_remove_node", {"path": "Research.canvas", "id": QUESTION})
        route.continue_()

    page.route("**/api/ops/canvas_update_node", meddle)
    start = centre(page, QUESTION)
    drag(page, start, (start[0] + 60, start[1]))
    page.get_by_role("status").filter(has_text="no longer applies").wait_for()
    assert fired
    assert all(n["id"] != QUESTION for n in server.read_canvas("Research.canvas")["nodes"])
    wait_until(lambda: node(page, QUESTION).count() == 0, what="the deleted node to go")
    wait_synced(page, server)


# --- Send to LLM ----------------------------------------------------------------------------


def start_send(page, server, max_tokens, opened=False):
    if not opened:
        open_board(page, server)
    page.get_by_role("combobox", name="Model").locator("option", has_text="local:smollm2").first.wait_for(state="attached")
    page.mouse.click(*centre(page, QUESTION))
    page.get_by_role("spinbutton", name="Max tokens").fill(str(max_tokens))
    page.get_by_role("button", name="Send to LLM").click()


def words(text):
    """The plain words of a text, Markdown syntax aside, to compare a file with its rendering."""
    return re.findall(r"[A-Za-z]{2,}", text)


def answer_nodes(server):
    return [n for n in server.read_canvas("Research.canvas")["nodes"] if "role: assistant" in n.get("text", "") and "model:" in n.get("text", "")]


def test_send_to_llm_streams_the_answer_into_a_new_node(page, server):
    # While the answer streams, the board's reads of the file are held back: the answer node
    # and its text must come from the run's events alone.
    held = []
    released = []

    def hold(route):
        if released:
            route.continue_()
        else:
            held.append(route)

    open_board(page, server)
    rev = rev_of(page)
    page.route("**/api/ops/canvas_read", hold)
    start_send(page, server, 24, opened=True)
    stop = page.get_by_role("button", name="Stop")
    streamed = wait_until(
        lambda: stop.is_visible() and (page.locator(".node.streaming .md").all_inner_texts() or [""])[0].strip(),
        timeout=120,
        what="streamed text while the run goes",
    )
    assert streamed and rev_of(page) == rev
    released.append(1)
    for r in held:
        r.continue_()
    wait_until(lambda: stop.count() == 0, timeout=180, what="the run to finish")
    answers = answer_nodes(server)
    assert len(answers) == 1
    a = answers[0]
    edges = server.read_canvas("Research.canvas")["edges"]
    assert any(e["fromNode"] == QUESTION and e["toNode"] == a["id"] for e in edges)
    assert "partial: true" not in a["text"]
    node(page, a["id"]).wait_for()
    body = a["text"].split("---", 2)[2]
    assert words(body)[:3] == words(node(page, a["id"]).locator(".md").inner_text())[:3]


def test_stop_keeps_the_partial_answer(page, server):
    start_send(page, server, 400)
    stop = page.get_by_role("button", name="Stop")
    wait_until(
        lambda: (page.locator(".node.streaming .md").all_inner_texts() or [""])[0].strip(),
        timeout=120,
        what="streamed text",
    )
    stop.click()
    wait_until(lambda: stop.count() == 0, timeout=60, what="the run to stop")
    answers = answer_nodes(server)
    assert len(answers) == 1 and "partial: true" in answers[0]["text"]
    body = answers[0]["text"].split("---", 2)[2]
    shown = wait_until(lambda: node(page, answers[0]["id"]).locator(".md").inner_text().strip(), what="the partial answer shown")
    assert words(shown)[:3] == words(body)[:3]


def test_the_context_menu_sends_esc_stops_and_the_model_picker_lists_the_models(page, server):
    open_board(page, server)
    options = page.get_by_role("combobox", name="Model").locator("option")
    wait_until(lambda: "local:smollm2" in options.all_inner_texts(), what="the model list")
    assert options.first.inner_text() == "Default (local:smollm2)"
    page.get_by_role("combobox", name="Model").select_option("local:smollm2")
    page.get_by_role("spinbutton", name="Max tokens").fill("400")
    page.mouse.click(*centre(page, QUESTION), button="right")
    page.get_by_role("menuitem", name="Send to LLM").click()
    wait_until(lambda: (page.locator(".node.streaming .md").all_inner_texts() or [""])[0].strip(), timeout=120, what="streamed text")
    page.locator(".board-viewport").focus()
    page.keyboard.press("Escape")
    wait_until(lambda: page.get_by_role("button", name="Stop").count() == 0, timeout=60, what="Esc to stop the run")
    answers = answer_nodes(server)
    assert len(answers) == 1 and "partial: true" in answers[0]["text"]
    assert "model: local:smollm2" in answers[0]["text"]


# --- Menus ----------------------------------------------------------------------------------


def test_layout_import_and_export_menus(page, server):
    open_board(page, server, "boards/Project plan.canvas")
    path = "boards/Project plan.canvas"
    before = server.read_canvas(path)
    page.get_by_role("button", name="Layout").click()
    page.get_by_role("combobox", name="Algorithm").select_option("grid")
    page.get_by_role("button", name="Apply layout").click()
    wait_until(lambda: server.read_canvas(path) != before, what="the layout")
    after = server.read_canvas(path)
    assert [n["id"] for n in after["nodes"]] == [n["id"] for n in before["nodes"]]
    for old, new in zip(before["nodes"], after["nodes"]):
        assert {k: v for k, v in new.items() if k not in ("x", "y", "width", "height")} == {
            k: v for k, v in old.items() if k not in ("x", "y", "width", "height")
        }
    wait_synced(page, server, path)

    page.get_by_role("button", name="Export").click()
    page.get_by_role("combobox", name="Export format").select_option("mermaid")
    page.get_by_role("dialog", name="Export").get_by_role("button", name="Export").click()
    text = page.get_by_role("textbox", name="Exported text")
    wait_until(lambda: text.input_value().startswith("flowchart"), what="the Mermaid text")
    assert "Canvas core" in text.input_value()

    page.get_by_role("button", name="Import").first.click()
    dialog = page.get_by_role("dialog", name="Import")
    dialog.get_by_role("textbox", name="Diagram text").fill("flowchart TD\n  A[Idea] --> B[Draft]")
    dialog.get_by_role("textbox", name="New canvas path").fill("Flow.canvas")
    dialog.get_by_role("button", name="Import").click()
    dialog.get_by_role("link", name="Flow.canvas").wait_for()
    made = server.read_canvas("Flow.canvas")
    assert sorted(n["text"] for n in made["nodes"]) == ["Draft", "Idea"] and len(made["edges"]) == 1


# --- Scale ----------------------------------------------------------------------------------


def test_a_5000_node_canvas_keeps_only_the_nodes_near_the_view_in_the_dom(page, server):
    nodes = [
        {"id": f"{i:016x}", "type": "text", "text": f"Node {i}", "x": (i % 100) * 260, "y": (i // 100) * 140, "width": 200, "height": 100}
        for i in range(5000)
    ]
    edges = [{"id": f"{i + 100000:016x}", "fromNode": f"{i:016x}", "toNode": f"{i + 1:016x}"} for i in range(4999)]
    write_canvas(server, "Big.canvas", nodes, edges)
    open_board(page, server, "Big.canvas")
    first = node_ids(page)
    assert 0 < len(first) <= 400, len(first)
    assert page.locator("[data-edge-id]").count() <= 400
    page.mouse.move(*viewport_point(page, 0.5, 0.5))
    for _ in range(10):
        page.mouse.wheel(900, 500)
    wait_until(lambda: set(node_ids(page)) - set(first), what="other nodes after panning")
    assert 0 < len(node_ids(page)) <= 400
    # Far out, the nodes are drawn on one canvas element instead.
    page.keyboard.down("Control")
    for _ in range(20):
        page.mouse.wheel(0, 500)
    page.keyboard.up("Control")
    page.locator("canvas.board-overview").wait_for()
    assert len(node_ids(page)) == 0


def test_a_link_node_opens_its_link_on_click_but_not_after_a_drag(page, server):
    url = f"{server.base}/api/files/Welcome.md"
    write_canvas(server, "Links.canvas", [{"id": "1000000000000001", "type": "link", "url": url, "x": 0, "y": 0, "width": 400, "height": 120}])
    open_board(page, server, "Links.canvas")
    link = node(page, "1000000000000001").get_by_role("link")
    with page.expect_popup() as popup:
        link.click()
    assert popup.value.url == url
    popup.value.close()
    pages = len(page.context.pages)
    box = link.bounding_box()
    drag(page, (box["x"] + 5, box["y"] + 5), (box["x"] + 45, box["y"] + 5))
    wait_until(lambda: server.read_canvas("Links.canvas")["nodes"][0]["x"] != 0, what="the move")
    assert len(page.context.pages) == pages
