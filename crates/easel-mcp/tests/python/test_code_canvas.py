"""The `canvas` tool (code canvas) driven by the official MCP Python SDK: a full workflow on a
sample repository inside the vault, checking the three-part answers (the operation's JSON) and
decoding the inline PNG images; a repository outside the vault is refused."""

import base64
import json
import struct

import pytest

from clients import session
from conftest import http_server

pytestmark = pytest.mark.anyio

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


@pytest.fixture
def anyio_backend():
    return "asyncio"


@pytest.fixture
def repo(vault):
    r = vault / "repo"
    (r / "shop").mkdir(parents=True)
    (r / ".git").mkdir()
    (r / "shop" / "prices.py").write_text(
        "def net(amount, rate):\n    return amount * (1 - rate)\n\n\n"
        "def gross(amount, tax):\n    return net(amount, 0) * (1 + tax)\n"
    )
    (r / "shop" / "cart.py").write_text(
        "from shop.prices import gross, net\n\n\n"
        "class Cart:\n    def total(self, items):\n        return sum(gross(i, 0.2) for i in items)\n\n"
        "    def discount(self, amount):\n        return net(amount, 0.1)\n\n\n"
        "def checkout(items):\n    return Cart().total(items)\n"
    )
    return r


@pytest.fixture(params=["stdio", "http"])
def connect(request, easel, vault):
    if request.param == "stdio":
        return lambda: session("stdio", easel, vault)
    cm = http_server(easel, vault)
    url = cm.__enter__()
    request.addfinalizer(lambda: cm.__exit__(None, None, None))
    return lambda: session("http", easel, vault, url=url)


def png_size(data):
    """Width and height of a PNG, read from its IHDR chunk after checking the signature."""
    assert data[:8] == PNG_SIGNATURE, data[:16]
    assert data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


async def call(s, args, images):
    """Calls canvas; checks the three parts and the number of images; returns (text, pngs)."""
    res = await s.call_tool("canvas", args)
    assert not res.is_error, res.content[0].text
    assert res.content[0].type == "text"
    # The operation's JSON: the three parts, and where the pictures were written.
    out = json.loads(res.content[0].text)
    text = f"{out['result']}\n\n{out['board']}\n{out['next']}"
    board = [l for l in text.splitlines() if l.startswith("Board: ")]
    assert len(board) == 1, text
    assert text.splitlines()[-1].startswith("Next: "), text
    pngs = []
    for block in res.content[1:]:
        assert block.type == "image" and block.mime_type == "image/png"
        data = base64.b64decode(block.data)
        w, h = png_size(data)
        assert w > 50 and h > 50, (w, h)
        pngs.append(data)
    assert len(pngs) == images, text
    return text, pngs


async def test_lists_the_canvas_tool_with_its_tutorial(connect):
    async with connect() as s:
        tools = {t.name: t for t in (await s.list_tools()).tools}
        t = tools["canvas"]
        assert "WORKFLOW" in t.description and "Example" in t.description
        assert t.input_schema["required"] == ["action"]
        assert "task_select" in t.input_schema["properties"]["action"]["enum"]


async def test_a_full_workflow_with_texts_and_images(connect, repo):
    async with connect() as s:
        text, pngs = await call(s, {"action": "init", "repo_path": str(repo)}, images=2)
        assert text.startswith("Created E1 (architecture): 2 files"), text
        assert "Board: 1 evidence, 0 claims, 0 decisions | Focus: none" in text
        assert 'Next: canvas(action="impact", symbol="shop.prices.net")' in text

        text, pngs = await call(s, {"action": "impact", "symbol": "net", "depth": 2}, images=2)
        assert text.startswith('Created E2 (impact "shop.prices.net"): 2 callers, 0 callees.'), text
        assert "Blast radius: 3 nodes may be affected by changes (2 at depth 1, 1 at depth 2)." in text
        assert "| Focus: shop.prices.net | Progress: 0/4 addressed" in text

        text, _ = await call(s, {"action": "claim", "text": "gross passes rate 0", "kind": "finding"}, images=1)
        assert text.startswith('Created C1 (finding, linked to E2): "gross passes rate 0"'), text

        text, _ = await call(s, {"action": "decide", "text": "clamp rate to [0, 1]"}, images=1)
        assert text.startswith("Created D1 (plan, linked to E2)"), text

        text, _ = await call(s, {"action": "mark", "symbol": "gross", "text": "tests pass"}, images=1)
        assert "Progress on shop.prices.net: 1/4 affected nodes addressed." in text

        text, _ = await call(s, {"action": "skip", "symbol": "discount", "text": "rate is fixed"}, images=1)
        assert "2/4" in text

        text, pngs = await call(s, {"action": "status"}, images=1)
        assert "Board: 2 evidence, 1 claims, 3 decisions | Focus: shop.prices.net | Progress: 2/4 addressed" in text

        # read is for models without vision: text only.
        text, _ = await call(s, {"action": "read"}, images=0)
        assert "[x] shop.prices.gross" in text and "[x] shop.cart.Cart.discount" in text
        assert "[ ] shop.cart.Cart.total" in text


async def test_errors_say_how_to_recover(connect, repo, vault):
    async with connect() as s:
        res = await s.call_tool("canvas", {"action": "status", "repo_path": str(vault)})
        assert res.is_error
        assert 'hint: run canvas(action="init") first' in res.content[0].text
        res = await s.call_tool("canvas", {"action": "init", "repo_path": str(vault / "none")})
        assert res.is_error
        assert 'canvas(action="init", repo_path=".")' in res.content[0].text

        await call(s, {"action": "init", "repo_path": str(repo)}, images=2)
        res = await s.call_tool("canvas", {"action": "impact", "symbol": "grosss"})
        assert res.is_error
        text = res.content[0].text
        assert "did you mean gross" in text, text
        assert 'hint: use one of the suggested names, e.g. canvas(action="impact", symbol="gross")' in text

        res = await s.call_tool("canvas", {"action": "fly"})
        assert res.is_error and "use one of: init, impact" in res.content[0].text


async def test_a_repository_outside_the_vault_is_refused(connect, vault, tmp_path):
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "x.py").write_text("def f():\n    pass\n")
    async with connect() as s:
        for path in [str(outside), "../elsewhere", "/"]:
            res = await s.call_tool("canvas", {"action": "init", "repo_path": path})
            assert res.is_error, path
            text = res.content[0].text
            assert "inside the vault" in text and "hint: " in text, text
            assert res.structured_content["error"]["kind"] == "invalid"
    assert not (outside / ".codecanvas").exists()
