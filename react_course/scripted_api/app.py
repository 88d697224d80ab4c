"""The scripted API as a function: a request's method, path, headers and body in, an answer out.

``ScriptedAPI(model).handle(method, path, headers, body)`` is everything the
scripted server does with a request once its bytes have arrived: route it,
read the JSON, ask the model, and shape the answer (or the error) as the API
does, streamed answers included. Two callers share it, so the protocol lives
in one place: ``server.py`` reads requests off real HTTP connections, and
``in_process.py`` hands it the ``openai`` SDK's requests directly, for the
browser edition, where no socket can listen.

>>> answer = ScriptedAPI().handle("GET", "/v1/models/react-course-demo", {}, b"")
>>> answer.status, answer.body
(200, b'{"id": "react-course-demo", "object": "model", "created": 0, "owned_by": "react-course"}')

What it leaves out: connections (reading a body whole or in chunks, refusing
one by its ``Content-Length`` before reading it, keep-alive, idle time-outs):
those are ``server.py``'s.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Iterator, Mapping
from typing import Any, NamedTuple

from .bodies import parse_body
from .wire import APIError, Ids

MAX_BODY = 10 * 1024 * 1024  # bytes; the real API's limit is larger, a classroom's is not
POST_PATHS = ("/v1/chat/completions", "/v1/responses", "/v1/completions")
LOCAL_ORIGIN = re.compile(r"^https?://(127\.0\.0\.1|localhost|\[::1\])(:\d{1,5})?$")


class Answer(NamedTuple):
    """What goes back: a status, headers, the body (bytes, or server-sent events as they come),
    and how many seconds it takes to be ready (a slow server; the client may give up first)."""

    status: int
    headers: dict[str, str]
    body: bytes | Iterator[bytes]
    delay: float = 0.0


class ModelFailed(Exception):
    """The scripted model raised (a script ran out, a respond function failed): a 500, as from an API."""


class ScriptedAPI:
    """The model, the ids it hands out, and the responses kept for ``previous_response_id``."""

    def __init__(self, model: Any = None) -> None:
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

    def handle(self, method: str, path: str, headers: Mapping[str, str], body: bytes) -> Answer:
        """Answer one request; ``headers`` is case-insensitive (http.server's or httpx2's)."""
        route = path.split("?")[0].rstrip("/")
        origin = local_origin(headers)
        if method == "OPTIONS":  # a browser's preflight: allowed for pages on this machine only
            if origin is None:
                return self.error(APIError(403, "Only pages served from 127.0.0.1 or localhost may call "
                                                "the scripted server.", None, "cors_refused"), headers)
            return Answer(204, self._headers("application/json", headers, preflight=True), b"")
        try:
            if method == "GET":
                return self._json(200, self._get(route, path), headers)
            if method != "POST" or route not in POST_PATHS:
                raise not_found(method, path)
            if len(body) > MAX_BODY:
                raise too_large(len(body))
            result = self._post(route, parse_body(body))
        except APIError as error:
            return self.error(error, headers)
        except Exception as error:  # say what failed, and keep serving
            cause = error.__cause__ if isinstance(error, ModelFailed) else error
            who = "model" if isinstance(error, ModelFailed) else "server"
            message = f"The scripted {who} failed: {type(cause).__name__}: {cause}"
            return self.error(APIError(500, message, None, None, "server_error"), headers)
        if isinstance(result, dict):
            return self._json(200, result, headers)
        return Answer(200, self._headers("text/event-stream; charset=utf-8", headers),
                      server_sent(result, done_marker=route != "/v1/responses"))

    def error(self, error: APIError, headers: Mapping[str, str]) -> Answer:
        """An error in the API's shape, with its status."""
        return self._json(error.status, error.body(), headers)

    def model_card(self) -> dict[str, Any]:
        return {"id": self.model_name, "object": "model", "created": 0, "owned_by": "react-course"}

    def _get(self, route: str, path: str) -> dict[str, Any]:
        if route == "/v1/models":
            return {"object": "list", "data": [self.model_card()]}
        if route == "/v1/models/" + self.model_name:
            return self.model_card()
        if route.startswith("/v1/responses/"):
            from .responses import retrieve

            return retrieve(route.rsplit("/", 1)[1], self)
        raise not_found("GET", path)

    def _post(self, route: str, body: dict[str, Any]) -> dict[str, Any] | Iterator[dict[str, Any]]:
        if route == "/v1/chat/completions":
            from .chat import chat_completion

            return chat_completion(body, self)
        if route == "/v1/responses":
            from .responses import create_response

            return create_response(body, self)
        from .completions import text_completion

        return text_completion(body, self)

    def _json(self, status: int, payload: dict[str, Any], headers: Mapping[str, str]) -> Answer:
        data = json.dumps(payload, ensure_ascii=False).encode()
        return Answer(status, self._headers("application/json", headers), data)

    def _headers(self, content_type: str, request: Mapping[str, str],
                 preflight: bool = False) -> dict[str, str]:
        """Content type, CORS for a page on this machine, and a request id (after the answer's own ids)."""
        out = {"Content-Type": content_type}
        origin = local_origin(request)
        if origin is not None:
            out.update({"Access-Control-Allow-Origin": origin, "Vary": "Origin"})
            if preflight:
                out.update({"Access-Control-Allow-Methods": "GET, POST, OPTIONS",
                            "Access-Control-Allow-Headers": request.get("Access-Control-Request-Headers")
                            or "authorization, content-type", "Access-Control-Max-Age": "600"})
        out["x-request-id"] = self.ids.new("req")
        return out


def server_sent(events: Iterator[dict[str, Any]], done_marker: bool) -> Iterator[bytes]:
    r"""Server-sent events, one JSON object each; Chat Completions ends with ``[DONE]``.

    >>> list(server_sent(iter([{"type": "a"}]), done_marker=False))
    [b'event: a\ndata: {"type": "a"}\n\n']
    """
    for event in events:
        name = "" if done_marker else f"event: {event['type']}\n"
        yield f"{name}data: {json.dumps(event, ensure_ascii=False)}\n\n".encode()
    if done_marker:
        yield b"data: [DONE]\n\n"


def local_origin(headers: Mapping[str, str]) -> str | None:
    """The request's Origin when it is a page on this machine (``http://127.0.0.1:PORT`` or localhost),
    or a page served from the same address as this server (a room's site on the instructor's laptop).

    >>> local_origin({"Origin": "http://localhost:8888"}), local_origin({"Origin": "https://evil.example"})
    ('http://localhost:8888', None)
    >>> local_origin({"Origin": "http://192.168.1.20:8000", "Host": "192.168.1.20:8001"})
    'http://192.168.1.20:8000'
    """
    origin = headers.get("Origin") or ""
    same_host = origin.split("://", 1)[-1].rsplit(":", 1)[0] == (headers.get("Host") or "").rsplit(":", 1)[0]
    return origin if LOCAL_ORIGIN.match(origin) or (same_host and origin.startswith("http")) else None


def not_found(method: str, path: str) -> APIError:
    return APIError(404, f"Invalid URL ({method} {path})", None, "unknown_url")


def too_large(length: int) -> APIError:
    return APIError(413, f"Request body too large: {length} bytes; the scripted server accepts at most "
                    f"{MAX_BODY} bytes.", None, "request_too_large")
