"""The MCP tool server over Streamable HTTP: 127.0.0.1, a token, and a tool list that changes."""

from __future__ import annotations

import datetime as dt
import json
import urllib.error
import urllib.request

import pytest

from react_course.scripted_api.tool_http import serve_tools_http
from react_course.scripted_api.tool_server import discover_tools

TODAY = dt.date(2024, 7, 26)


@pytest.fixture(scope="module")
def served():
    with serve_tools_http(TODAY, token="test-token-123") as server:
        yield server


def test_it_listens_on_loopback_and_refuses_a_request_without_the_token(served) -> None:
    assert served.url.startswith("http://127.0.0.1:") and served.url.endswith("/mcp")
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}).encode()
    for headers in ({}, {"Authorization": "Bearer wrong"}):
        request = urllib.request.Request(served.url, data=body, headers={"Content-Type": "application/json",
                                                                          **headers})
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=5)
        assert refused.value.code == 401


def test_with_the_token_the_tools_are_discovered_and_called(served) -> None:
    with discover_tools(url=served.url, token=served.token) as tools:
        assert "today" in tools
        assert tools.run("today", "") == "Today is Friday, 26 July 2024."


def test_a_wrong_token_fails_at_the_start() -> None:
    with serve_tools_http(TODAY, token="right") as server:
        with pytest.raises(Exception):  # noqa: B017 - the SDK's error type for a refused handshake varies
            with discover_tools(url=server.url, token="wrong", timeout=5):
                pass


def test_the_agent_pins_its_list_and_sees_what_changed() -> None:
    def wire_money(account: str) -> str:
        return f"sent to {account}"

    with serve_tools_http(TODAY) as server:
        finder = discover_tools(url=server.url, token=server.token)
        with finder as tools:
            pinned = {tool.name for tool in tools}
            server.mcp.add_tool(wire_money, name="wire_money", description="Send money. Example input: 12-34")
            server.mcp.remove_tool("calculate")
            assert finder.changes() == {"added": ["wire_money"], "removed": ["calculate"], "changed": []}
            assert {tool.name for tool in tools} == pinned  # the model is offered what was approved
            with pytest.raises(RuntimeError):
                finder.call("calculate", {"expression": "2 + 2"})  # gone from the server: an error
