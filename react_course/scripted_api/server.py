"""A scripted chat model served over real HTTP, in the OpenAI protocols.

    with serve() as base_url:          # http://127.0.0.1:PORT/v1
        client = OpenAI(base_url=base_url, api_key="scripted", max_retries=0)
        client.chat.completions.create(model="react-course-demo", messages=[...], tools=[...])

``serve(model)`` runs a server on 127.0.0.1 at a free port for the length of
a ``with`` block; without a model it serves the course's demo chat model,
which solves the worked examples with tool calls. The same server runs
standalone for workshops (``react-course serve-model``, in ``standalone.py``).

It speaks Chat Completions (``POST /v1/chat/completions``, ``chat.py``),
Responses (``POST /v1/responses``, ``responses.py``) and text completions
(``POST /v1/completions``, ``completions.py``), lists its model at ``GET
/v1/models``, lets a page served from 127.0.0.1 or localhost call it (CORS), and answers
every malformed request with an error in the API's shape and status, so the
SDK raises its usual exception. It never crashes on a request: a body over
10 MB is refused (413) from its ``Content-Length`` before it is read (what the
client goes on sending is dropped, for at most 5 s, so that it can read the
refusal), or once its chunks (``Transfer-Encoding: chunked``) pass that size; a
connection dropped mid-body is closed, a connection idle for 15 s is closed, and
each connection runs in its own thread.

What a request asks for is answered by ``app.ScriptedAPI.handle``; this module
is the HTTP around it. In the browser, where nothing can listen, ``serve()``
yields an in-process address instead (``in_process.py``), which
``native_client``, ``scripted_client`` and ``openai_client`` reach without a
socket. Only the standard library's ``http.server`` is used. What it leaves
out: keys (any key is accepted), rate limits, HTTPS, and files, images or audio.
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from ..web import browser
from .app import MAX_BODY, POST_PATHS, Answer, ScriptedAPI, too_large
from .bodies import read_chunks
from .wire import APIError

__all__ = ["MAX_BODY", "ScriptedServer", "scripted_client", "serve"]

IDLE_SECONDS = 15  # a connection that sends nothing for this long is closed


class ScriptedServer(ThreadingHTTPServer):
    """The HTTP server around a ``ScriptedAPI`` (the model and its state), and its open connections."""

    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, model: Any = None, host: str = "127.0.0.1", port: int = 0) -> None:
        self.api = ScriptedAPI(model)
        self.model_name = self.api.model_name
        self.lock = threading.Lock()
        self.connections: set[socket.socket] = set()
        super().__init__((host, port), Handler)

    @property
    def base_url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{host}:{port}/v1"

    def close_connections(self) -> None:
        with self.lock:
            open_now = list(self.connections)
        for conn in open_now:
            with contextlib.suppress(OSError):
                conn.shutdown(socket.SHUT_RDWR)


@contextlib.contextmanager
def serve(model: Any = None) -> Iterator[str]:
    """Serve ``model`` (default: the demo chat model) on 127.0.0.1; yield the base URL ending in ``/v1``.

    In the browser it yields an in-process address (``in_process.hosted``) instead.

    >>> with serve() as base_url:
    ...     base_url.startswith("http://127.0.0.1:") and base_url.endswith("/v1")
    True
    """
    if browser.IN_BROWSER:
        from .in_process import hosted

        with hosted(ScriptedAPI(model).handle, "scripted") as site:
            yield site + "/v1"
        return
    server = ScriptedServer(model)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05},
                              name="scripted-api", daemon=True)
    thread.start()
    try:
        yield server.base_url
    finally:
        server.shutdown()
        server.close_connections()
        server.server_close()
        thread.join(timeout=5)


@contextlib.contextmanager
def scripted_client(model: Any = None, **options: Any) -> Iterator[Any]:
    """An ``openai.OpenAI`` that talks to ``model`` served by ``serve()``, for a ``with`` block.

    Short for ``with serve(model) as url: OpenAI(base_url=url, api_key="scripted",
    max_retries=0)``, but it works in the browser too, where the client reaches the
    model in-process. ``options`` are the SDK's, and win over these defaults.
    """
    from .in_process import openai_client

    with serve(model) as url:
        yield openai_client(url, **{"api_key": "scripted", "max_retries": 0, **options})


class Handler(BaseHTTPRequestHandler):
    """One connection: reads each request's body, lets ``ScriptedAPI.handle`` answer, sends the answer."""

    protocol_version = "HTTP/1.1"
    server_version = "react-course-scripted/1"
    timeout = IDLE_SECONDS
    server: ScriptedServer

    wbufsize = 1 << 16  # a reply leaves in one write, not head and body apart (delayed-ACK stalls)

    def setup(self) -> None:
        super().setup()
        with contextlib.suppress(OSError):
            self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        with self.server.lock:
            self.server.connections.add(self.connection)

    def finish(self) -> None:
        with self.server.lock:
            self.server.connections.discard(self.connection)
        with contextlib.suppress(OSError):
            super().finish()

    def log_message(self, format: str, *args: Any) -> None:  # quiet: no log lines in notebooks
        pass

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """A request http.server itself refuses (a bad request line, huge headers): the API's shape too."""
        error = APIError(code, message or explain or "Bad request.", None, None)
        self._send(self.server.api.error(error, getattr(self, "headers", None) or {}), close=True)

    def do_GET(self) -> None:
        self._send(self.server.api.handle("GET", self.path, self.headers, b""))

    def do_OPTIONS(self) -> None:
        self._send(self.server.api.handle("OPTIONS", self.path, self.headers, b""))

    def do_POST(self) -> None:
        if self.path.split("?")[0].rstrip("/") not in POST_PATHS:
            return self._refuse()
        try:
            body = self._read_body()
        except _Dropped:
            self.close_connection = True
            return
        except APIError as error:
            return self._send(self.server.api.error(error, self.headers))
        self._send(self.server.api.handle("POST", self.path, self.headers, body))

    def do_PUT(self) -> None:
        self._refuse()

    do_DELETE = do_PATCH = do_PUT

    def _refuse(self) -> None:
        """A 404 without reading the body, so the connection closes: a body we did not read may follow."""
        self._send(self.server.api.handle(self.command, self.path, self.headers, b""), close=True)

    def _read_body(self) -> bytes:
        """The body's bytes; refuses a large body before reading it."""
        length_header = self.headers.get("Content-Length")
        if length_header is None:
            if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
                self.close_connection = True  # one request per chunked connection: simpler to get right
                try:
                    return read_chunks(self.rfile, MAX_BODY)
                except (TimeoutError, OSError, EOFError) as error:
                    raise _Dropped from error
            length_header = "0"
        if not length_header.strip().isdigit():
            self.close_connection = True
            raise APIError(400, "Invalid Content-Length header.", None, "invalid_content_length")
        length = int(length_header)
        if length > MAX_BODY:
            self._send(self.server.api.error(too_large(length), self.headers), close=True)
            self._discard(length)
            raise _Dropped
        try:
            raw = self.rfile.read(length)
        except (TimeoutError, OSError) as error:
            raise _Dropped from error
        if len(raw) < length:
            raise _Dropped  # the client went away mid-body: nobody to answer
        return raw

    def _discard(self, length: int) -> None:
        """Read and drop what the client still sends, briefly, so it can read the refusal."""
        deadline = time.monotonic() + 5
        with contextlib.suppress(OSError, TimeoutError):
            self.connection.settimeout(1)
            while length > 0 and time.monotonic() < deadline:
                got = self.rfile.read1(min(length, 1 << 16)) if hasattr(self.rfile, "read1") else b""
                if not got:
                    break
                length -= len(got)

    def _send(self, answer: Answer, close: bool = False) -> None:
        """The answer on the wire: a body and its length, or events as they come, then a close."""
        streamed = not isinstance(answer.body, bytes)
        with contextlib.suppress(OSError):  # the client may have gone
            self.send_response(answer.status)
            for name, value in answer.headers.items():
                self.send_header(name, value)
            if not streamed:
                self.send_header("Content-Length", str(len(answer.body)))
            if close or streamed or self.close_connection:
                self.send_header("Connection", "close")
                self.close_connection = True
            self.end_headers()
            for data in [answer.body] if not streamed else answer.body:
                self.wfile.write(data)
                if streamed:
                    self.wfile.flush()
            self.wfile.flush()


class _Dropped(Exception):
    """The connection cannot carry an answer (the client left, or the body was refused)."""
