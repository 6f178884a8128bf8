"""The board page (/canvas/{path}): rendering, view, live updates, editing, Send to LLM and the
layout/import/export menus, against a real `easel serve` (DESIGN section 17)."""

import json

from conftest import wait_until


def open_board(page, server, path="Research.canvas"):
    page.goto(f"{server.base}/canvas/{path}")
    board = page.locator("main.board[data-rev]")
    board.wait_for()
    return board


def rev_of(page):
    return page.locator("main.board").get_attribute("data-rev")


def test_every_node_and_edge_of_the_file_is_on_the_board(page, server):
    board = open_board(page, server)
    canvas = server.read_canvas("Research.canvas")
    assert board.get_attribute("data-canvas-path") == "Research.canvas"
    assert rev_of(page) == server.op("canvas_read", {"path": "Research.canvas"})["rev"]
    ids = page.eval_on_selector_all("[data-node-id]", "els => els.map(e => e.dataset.nodeId)")
    # Array order is z-order: the DOM keeps it.
    assert ids == [n["id"] for n in canvas["nodes"]]
    edge_ids = page.eval_on_selector_all("[data-edge-id]", "els => els.map(e => e.dataset.edgeId)")
    assert sorted(edge_ids) == sorted(e["id"] for e in canvas["edges"])
