"""The course's tool server over Streamable HTTP, on 127.0.0.1 and behind a token.

A stdio server (``tool_server.py``) belongs to the one agent that started it;
an HTTP server is shared, so it must say who may call it. ``serve_tools_http``
runs the course's MCP server (the official SDK's Streamable HTTP app) in a
background thread on an ephemeral port of 127.0.0.1, and refuses every
request without ``Authorization: Bearer <token>`` (401), comparing the token
in constant time. It yields ``HttpToolServer``: the URL, the token, and the
running ``MCPServer``, whose tools can change while it runs (``add_tool``,
``remove_tool``), as a real server's do after an update.

``tool_server.discover_tools(url=..., token=...)`` is the client: it lists the
tools once, pins that list, and ``changes()`` shows what the server offers now
that the agent did not approve.

What it leaves out: OAuth (the SDK has it), TLS, and more than one token.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import secrets
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any


class TokenGate:
    """ASGI middleware: HTTP requests without the bearer token get a 401; the rest pass through."""

    def __init__(self, app: Any, token: str) -> None:
        self.app, self.expected = app, f"Bearer {token}".encode()

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            given = dict(scope.get("headers") or []).get(b"authorization", b"")
            if not secrets.compare_digest(given, self.expected):
                while (await receive()).get("more_body"):  # read the request to its end first,
                    pass  # or the client may see the connection reset before the answer
                body = b'{"error": "missing or wrong token"}'
                headers = [(b"content-type", b"application/json"), (b"www-authenticate", b"Bearer"),
                           (b"content-length", str(len(body)).encode())]
                await send({"type": "http.response.start", "status": 401, "headers": headers})
                await send({"type": "http.response.body", "body": body})
                return
        await self.app(scope, receive, send)


@dataclass
class HttpToolServer:
    """A running tool server: where it is, the token it wants, and the server itself."""

    url: str
    token: str
    mcp: Any  # the MCPServer: add_tool / remove_tool change what it offers


@contextlib.contextmanager
def serve_tools_http(today: dt.date | None = None, *, token: str | None = None,
                     poisoned: bool = False, timeout: float = 20.0) -> Iterator[HttpToolServer]:
    """Serve the course's tools over Streamable HTTP on 127.0.0.1 until the block ends."""
    import uvicorn

    from .tool_server import course_server

    mcp = course_server(today, poisoned=poisoned)
    token = token or secrets.token_urlsafe(16)
    app = TokenGate(mcp.streamable_http_app(host="127.0.0.1"), token)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    server = uvicorn.Server(uvicorn.Config(app, log_level="critical", lifespan="on"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True, name="mcp-http")
    thread.start()
    began = time.monotonic()
    while not server.started and thread.is_alive() and time.monotonic() - began < timeout:
        time.sleep(0.02)
    try:
        yield HttpToolServer(f"http://127.0.0.1:{sock.getsockname()[1]}/mcp", token, mcp)
    finally:
        server.should_exit = True
        thread.join(timeout)
        sock.close()
