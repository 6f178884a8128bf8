"""Opening an MCP client session over either transport, with the official SDK."""

import contextlib
import json

from mcp import ClientSession, StdioServerParameters, types
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client


@contextlib.asynccontextmanager
async def session(transport, easel, vault, url=None, name="pytest-client"):
    info = types.Implementation(name=name, version="1.0")
    if transport == "stdio":
        params = StdioServerParameters(command=easel, args=["--vault", str(vault), "mcp"])
        async with stdio_client(params) as (r, w):
            async with ClientSession(r, w, client_info=info) as s:
                await s.initialize()
                yield s
    else:
        async with streamable_http_client(f"{url}/mcp") as streams:
            r, w = streams[0], streams[1]
            async with ClientSession(r, w, client_info=info) as s:
                await s.initialize()
                yield s


async def ok(s, tool, args):
    """Calls a tool that must succeed; returns its result, parsed from the JSON text."""
    res = await s.call_tool(tool, args)
    text = res.content[0].text
    assert not res.is_error, f"{tool} failed: {text}"
    return json.loads(text)


async def err(s, tool, args):
    """Calls a tool that must fail; returns (text, structured error)."""
    res = await s.call_tool(tool, args)
    text = res.content[0].text
    assert res.is_error, f"{tool} should have failed but returned {text}"
    return text, res.structured_content["error"]
