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

Only the standard library's ``http.server`` is used. What it leaves out:
keys (any key is accepted), rate limits, HTTPS, and files, images or audio.
"""

from __future__ import annotations

import contextlib
import json
import re
import socket
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from .bodies import parse_body, read_chunks
from .wire import APIError, Ids

MAX_BODY = 10 * 1024 * 1024  # bytes; the real API's limit is larger, a classroom's is not
POST_PATHS = ("/v1/chat/completions", "/v1/responses", "/v1/completions")
LOCAL_ORIGIN = re.compile(r"^https?://(127\.0\.0\.1|localhost|\[::1\])(:\d{1,5})?$")
IDLE_SECONDS = 15  # a connection that sends nothing for this long is closed


class ScriptedServer(ThreadingHTTPServer):
    """The HTTP server and its state: the model, ids, and the responses kept for ``previous_response_id``."""

    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, model: Any = None, host: str = "127.0.0.1", port: int = 0) -> None:
        if model is None:
            from .demo import demo_chat_model

            model = demo_chat_model()
        from .models import check_chat_model

        check_chat_model(model)
        self.model = model
        self.model_name = getattr(model, "name", "scripted-chat")
        self.ids = Ids()
        self.lock = threading.Lock()
        self.responses: dict[str, dict[str, Any]] = {}  # id -> {"items": [...], "response": {...}}
        self.reasoning_of: dict[str, str] = {}  # call_id -> id of the reasoning item before it
        self.connections: set[socket.socket] = set()
        super().__init__((host, port), Handler)

    def check_supported(self, body: dict[str, Any]) -> None:
        """Refuse the parameters the model rejects, as the API does for a reasoning model."""
        for key in sorted(set(body) & set(getattr(self.model, "rejects", ()))):
            raise APIError(400, f"Unsupported parameter: '{key}' is not supported with this model.", key,
                           "unsupported_parameter")

    def answer(self, request: Any) -> Any:
        """The model's turn for a ``ChatRequest``; a plain string is a text turn."""
        from .models import as_turn

        try:
            return as_turn(self.model(request))
        except Exception as error:
            raise ModelFailed from error

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

    >>> with serve() as base_url:
    ...     base_url.startswith("http://127.0.0.1:") and base_url.endswith("/v1")
    True
    """
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


class Handler(BaseHTTPRequestHandler):
    """One connection: routes requests, and turns every failure into an API-shaped error."""

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
        self.close_connection = True
        error = APIError(code, message or explain or "Bad request.", None, None)
        self._send_json(code, error.body(), close=True)

    def do_GET(self) -> None:
        path = self.path.split("?")[0].rstrip("/")
        models = {"object": "list", "data": [self._model_card()]}
        try:
            if path == "/v1/models":
                return self._send_json(200, models)
            if path == "/v1/models/" + self.server.model_name:
                return self._send_json(200, self._model_card())
            if path.startswith("/v1/responses/"):
                from .responses import retrieve

                return self._send_json(200, retrieve(path.rsplit("/", 1)[1], self.server))
            raise _not_found("GET", self.path)
        except APIError as error:
            self._send_json(error.status, error.body())

    def do_OPTIONS(self) -> None:
        """A browser's preflight: allowed for pages on this machine, refused for any other origin."""
        allowed = self._cors_origin() is not None
        self._send_json(204 if allowed else 403, {} if allowed else APIError(
            403, "Only pages served from 127.0.0.1 or localhost may call the scripted server.", None,
            "cors_refused").body())

    def do_POST(self) -> None:
        if self.path.split("?")[0].rstrip("/") not in POST_PATHS:
            return self._refuse()
        try:
            body = self._read_json()
        except _Dropped:
            self.close_connection = True
            return
        except APIError as error:
            return self._send_json(error.status, error.body())
        try:
            result = self._route(body)
        except APIError as error:
            return self._send_json(error.status, error.body())
        except Exception as error:  # say what failed, and keep serving
            cause = error.__cause__ if isinstance(error, ModelFailed) else error
            who = "model" if isinstance(error, ModelFailed) else "server"
            message = f"The scripted {who} failed: {type(cause).__name__}: {cause}"
            return self._send_json(500, APIError(500, message, None, None, "server_error").body())
        if isinstance(result, dict):
            return self._send_json(200, result)
        self._send_stream(result, done_marker=not self.path.startswith("/v1/responses"))

    def do_PUT(self) -> None:
        self._refuse()

    do_DELETE = do_PATCH = do_PUT

    def _refuse(self) -> None:
        self.close_connection = True  # a body we did not read may follow
        self._send_json(404, _not_found(self.command, self.path).body())

    def _route(self, body: dict[str, Any]) -> dict[str, Any] | Iterator[dict[str, Any]]:
        path = self.path.split("?")[0].rstrip("/")
        if path == "/v1/chat/completions":
            from .chat import chat_completion

            return chat_completion(body, self.server)
        if path == "/v1/responses":
            from .responses import create_response

            return create_response(body, self.server)
        from .completions import text_completion

        return text_completion(body, self.server)

    def _read_json(self) -> dict[str, Any]:
        """The body as a JSON object; refuses a large body before reading it."""
        length_header = self.headers.get("Content-Length")
        if length_header is None:
            if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
                self.close_connection = True  # one request per chunked connection: simpler to get right
                try:
                    return parse_body(read_chunks(self.rfile, MAX_BODY))
                except (TimeoutError, OSError, EOFError) as error:
                    raise _Dropped from error
            length_header = "0"
        if not length_header.strip().isdigit():
            self.close_connection = True
            raise APIError(400, "Invalid Content-Length header.", None, "invalid_content_length")
        length = int(length_header)
        if length > MAX_BODY:
            self._send_json(413, APIError(413, f"Request body too large: {length} bytes; the scripted "
                                          f"server accepts at most {MAX_BODY} bytes.", None,
                                          "request_too_large").body(), close=True)
            self._discard(length)
            raise _Dropped
        try:
            raw = self.rfile.read(length)
        except (TimeoutError, OSError) as error:
            raise _Dropped from error
        if len(raw) < length:
            raise _Dropped  # the client went away mid-body: nobody to answer
        return parse_body(raw)

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

    def _model_card(self) -> dict[str, Any]:
        return {"id": self.server.model_name, "object": "model", "created": 0, "owned_by": "react-course"}

    def _cors_origin(self) -> str | None:
        """The request's Origin when it is a page on this machine (``http://127.0.0.1:PORT`` or localhost)."""
        origin = self.headers.get("Origin") or ""
        return origin if LOCAL_ORIGIN.match(origin) else None

    def _headers(self, status: int, content_type: str, length: int | None, close: bool) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        origin = self._cors_origin()
        if origin is not None:
            self.send_header("Access-Control-Allow-Origin", origin)
            self.send_header("Vary", "Origin")
            if self.command == "OPTIONS":
                self.send_header("Access-Control-Allow-Methods", "GET, POST, OPTIONS")
                self.send_header("Access-Control-Allow-Headers", self.headers.get(
                    "Access-Control-Request-Headers") or "authorization, content-type")
                self.send_header("Access-Control-Max-Age", "600")
        self.send_header("x-request-id", self.server.ids.new("req"))
        if length is not None:
            self.send_header("Content-Length", str(length))
        if close or self.close_connection:
            self.send_header("Connection", "close")
            self.close_connection = True
        self.end_headers()

    def _send_json(self, status: int, payload: dict[str, Any], close: bool = False) -> None:
        data = b"" if status == 204 else json.dumps(payload, ensure_ascii=False).encode()
        with contextlib.suppress(OSError):
            self._headers(status, "application/json", len(data), close)
            self.wfile.write(data)
            self.wfile.flush()

    def _send_stream(self, events: Iterator[dict[str, Any]], done_marker: bool) -> None:
        """Server-sent events, one JSON object each; the connection closes at the end."""
        with contextlib.suppress(OSError):
            self._headers(200, "text/event-stream; charset=utf-8", None, close=True)
            for event in events:
                name = "" if done_marker else f"event: {event['type']}\n"
                self.wfile.write(f"{name}data: {json.dumps(event, ensure_ascii=False)}\n\n".encode())
                self.wfile.flush()
            if done_marker:
                self.wfile.write(b"data: [DONE]\n\n")
            self.wfile.flush()


class ModelFailed(Exception):
    """The scripted model raised (a script ran out, a respond function failed): a 500, as from an API."""


class _Dropped(Exception):
    """The connection cannot carry an answer (the client left, or the body was refused)."""


def _not_found(method: str, path: str) -> APIError:
    return APIError(404, f"Invalid URL ({method} {path})", None, "unknown_url")
