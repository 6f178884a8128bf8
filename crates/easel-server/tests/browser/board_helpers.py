"""Helpers for the board tests: opening a board, finding nodes on screen, reading the view."""

import json
import re

from conftest import wait_until

QUESTION = "4d5e6f708192a3b4"  # "Summarise the spec…" in examples/vault/Research.canvas
SYSTEM = "1a2b3c4d5e6f7081"
LINK = "3c4d5e6f708192a3"
GROUP = "9c1d3f0a2b4e6d81"


def open_board(page, server, path="Research.canvas"):
    page.goto(f"{server.base}/canvas/{path}")
    board = page.locator("main.board[data-rev]")
    board.wait_for()
    return board


def rev_of(page):
    return page.locator("main.board").get_attribute("data-rev")


def file_rev(server, path="Research.canvas"):
    return server.op("canvas_read", {"path": path})["rev"]


def wait_synced(page, server, path="Research.canvas"):
    """Waits until the board shows the file's current revision."""
    wait_until(lambda: rev_of(page) == file_rev(server, path), what="the board to show the file's rev")


def node(page, node_id):
    return page.locator(f'[data-node-id="{node_id}"]')


def centre(page, node_id, dx=0, dy=0):
    box = node(page, node_id).bounding_box()
    return box["x"] + box["width"] / 2 + dx, box["y"] + box["height"] / 2 + dy


def transform(page):
    """(x, y, k) of the board's view, from the world layer's transform."""
    style = page.locator(".board-world").get_attribute("style") or ""
    m = re.search(r"translate\(([-\d.e]+)px,\s*([-\d.e]+)px\)\s*scale\(([-\d.e]+)\)", style)
    assert m, style
    return tuple(float(v) for v in m.groups())


def node_ids(page):
    return page.eval_on_selector_all("[data-node-id]", "els => els.map(e => e.dataset.nodeId)")


def selected_ids(page):
    return page.eval_on_selector_all(".node.selected", "els => els.map(e => e.dataset.nodeId)")


def without(canvas, node_id, *keys):
    """The canvas with `keys` of node `node_id` left out, to compare the rest exactly."""
    c = json.loads(json.dumps(canvas))
    for n in c["nodes"]:
        if n["id"] == node_id:
            for k in keys:
                n.pop(k, None)
    return c


def drag(page, start, end, steps=8):
    page.mouse.move(*start)
    page.mouse.down()
    page.mouse.move(*end, steps=steps)
    page.mouse.up()


def viewport_point(page, fx, fy):
    """A point of the board's viewport at fractions (fx, fy) of its size."""
    box = page.locator(".board-viewport").bounding_box()
    return box["x"] + box["width"] * fx, box["y"] + box["height"] * fy
