"""Local stub servers that misbehave the way real model servers do.

Each stub listens on 127.0.0.1 (never beyond this machine), speaks just
enough of the OpenAI-compatible protocol (``/v1/chat/completions``,
``/v1/completions``, ``/v1/models``) and answers according to a *behaviour*:
a function from the request to a reply. The replies cover what was met on
real servers: a full context window (llama.cpp's 400, and llama-cpp-python's
500 when it fills mid-run), a server that never answers, error bodies that
echo the Authorization header, an HTML page with status 200, an empty
``choices`` list, malformed JSON, a dropped connection. For native tool calls
(``calling_tools``), what llama-cpp-python does: a 500 for an assistant turn
whose content is null (``demanding_string_content``), tools ignored unless
``tool_choice`` is sent (``dropping_tools_without_choice``), end-of-turn
markers left in the text, and a 404 for ``/v1/responses``, as most local
servers answer. For a small model on one laptop: a server that serves one
request at a time (``StubServer(one_at_a_time=True)``) with a reply too slow
for the client (``slow``: answered only once the client gave up, so no verdict
depends on how fast the machine is), empty replies, calls a chat template
wrote as text (``functions.NAME:``), and a refused response format
(``refusing_response_format``: the 500 llama-cpp-python sends).

One request at a time, as llama-cpp-python serves them: a request the client
gave up on is still worked on, and every later request waits behind it. A
model call waits until its client gives up too (the work outlasts any one
call's time-out); ``GET /v1/models``, which that server answers only between
requests, is where a client waits for the work to end, and it does end then
(``finishing=False``: never, a server stuck for good).

    with StubServer(answering(["Thought: t\\nFinal Answer: 4"])) as server:
        model = OpenAIChatModel("stub-model", base_url=server.url, api_key=KEY)

What it leaves out: streaming and the Responses API (the course's
``scripted_api`` serves those).
"""

from __future__ import annotations

import itertools
import json
import select
import socket
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

KEY = "sk-course-SECRET-0123456789abcdef"  # the key tests configure; it must never be shown
MODEL = "stub-model"

LLAMA_CPP_CONTEXT_FULL = (
    "the request exceeds the available context size, try increasing it")
OPENAI_CONTEXT_FULL = (
    "This model's maximum context length is 4096 tokens. However, your messages resulted in "
    "5120 tokens. Please reduce the length of the messages.")

LLAMA_CPP_PYTHON_BROADCAST = "could not broadcast input array from shape (48,) into shape (28,)"
LLAMA_CPP_PYTHON_NULL_CONTENT = (
    "1 validation error for ChatCompletionRequestAssistantMessage content: Input should be a valid "
    "string [type=string_type, input_value=None, input_type=NoneType]")


@dataclass
class Request:
    """One request as the stub saw it."""

    method: str
    path: str
    headers: dict[str, str]
    body: Any = None
    number: int = 0  # 1-based count of model calls (POSTs) so far, this one included


@dataclass(frozen=True)
class Reply:
    """What the stub sends back: a status and a body, or ``drop`` / ``hang``."""

    status: int = 200
    body: bytes = b""
    content_type: str = "application/json"
    drop: bool = False  # close the connection without a response
    hang: bool = False  # never answer (until the server shuts down)
    slow: bool = False  # still working when the client gives up: it never gets this reply


Behaviour = Callable[[Request], Reply]


def json_reply(data: Any, status: int = 200) -> Reply:
    return Reply(status, json.dumps(data).encode())


def model_reply(request: Request, text: str, finish_reason: str = "stop") -> Reply:
    """A well-formed reply carrying ``text``, in the shape the endpoint asked for."""
    usage = {"prompt_tokens": 50, "completion_tokens": 10, "total_tokens": 60}
    model = (request.body or {}).get("model", MODEL)
    if request.path.endswith("/chat/completions"):
        choice = {"index": 0, "finish_reason": finish_reason,
                  "message": {"role": "assistant", "content": text}}
        kind = "chat.completion"
    else:
        choice = {"index": 0, "finish_reason": finish_reason, "text": text, "logprobs": None}
        kind = "text_completion"
    return json_reply({"id": f"stub-{request.number}", "object": kind, "created": 0,
                       "model": model, "choices": [choice], "usage": usage})


def error_reply(status: int, message: str, request: Request | None = None, *,
                echo_auth: bool = False) -> Reply:
    """An error in the API's shape; ``echo_auth`` repeats the request's headers back, as some do."""
    if echo_auth and request is not None:
        auth = request.headers.get("authorization") or request.headers.get("Authorization")
        message += f" for Authorization: {auth} (request headers: {json.dumps(request.headers)})"
    return json_reply({"error": {"message": message, "type": "stub_error", "code": status}}, status)


def answering(replies: Sequence[str] | Callable[[Request], str]) -> Behaviour:
    """Answer each call with the next reply (the last one repeats), or with ``replies(request)``."""
    if callable(replies):
        return lambda request: model_reply(request, replies(request))
    items = list(replies) or [""]
    return lambda request: model_reply(request, items[min(request.number, len(items)) - 1])


def then_fail(behaviour: Behaviour, after: int, failure: Behaviour) -> Behaviour:
    """``behaviour`` for the first ``after`` calls, then ``failure`` for every later one."""
    return lambda request: behaviour(request) if request.number <= after else failure(request)


def context_full(request: Request) -> Reply:
    return error_reply(400, LLAMA_CPP_CONTEXT_FULL, request)


def context_full_500(request: Request) -> Reply:
    """llama-cpp-python when its context window fills mid-run: a 500 that does not say "context"."""
    return error_reply(500, LLAMA_CPP_PYTHON_BROADCAST, request)


def tool_call_reply(request: Request, name: str, arguments: str, text: str | None = None) -> Reply:
    """A Chat Completions reply that calls one tool (content null, as most servers send it)."""
    call = {"id": f"call_{request.number}", "type": "function",
            "function": {"name": name, "arguments": arguments}}
    message = {"role": "assistant", "content": text, "tool_calls": [call]}
    return json_reply({"id": f"stub-{request.number}", "object": "chat.completion", "created": 0,
                       "model": MODEL, "choices": [{"index": 0, "finish_reason": "tool_calls",
                                                    "message": message}],
                       "usage": {"prompt_tokens": 50, "completion_tokens": 10, "total_tokens": 60}})


def calling_tools(name: str, arguments: str, answer: str) -> Behaviour:
    """A chat model with tools: it calls ``name`` until a tool result comes back, then answers.

    Without tools in the request (a server that dropped them) it can only answer,
    and says so in its answer.
    """
    def behaviour(request: Request) -> Reply:
        body = request.body if isinstance(request.body, dict) else {}
        answered = any(m.get("role") == "tool" for m in body.get("messages", []) if isinstance(m, dict))
        if not body.get("tools"):
            return model_reply(request, "I have no tools, so I guess.")
        if answered or body.get("tool_choice") == "none":
            return model_reply(request, answer)
        return tool_call_reply(request, name, arguments)

    return behaviour


def demanding_string_content(behaviour: Behaviour) -> Behaviour:
    """llama-cpp-python: an assistant message whose content is null is refused with a 500."""
    def strict(request: Request) -> Reply:
        body = request.body if isinstance(request.body, dict) else {}
        if any(isinstance(m, dict) and "content" in m and m["content"] is None
               for m in body.get("messages", [])):
            return error_reply(500, LLAMA_CPP_PYTHON_NULL_CONTENT, request)
        return behaviour(request)

    return strict


def dropping_tools_without_choice(behaviour: Behaviour) -> Behaviour:
    """llama-cpp-python: with no ``tool_choice`` in the request, the tools never reach the model."""
    def dropping(request: Request) -> Reply:
        if isinstance(request.body, dict) and "tool_choice" not in request.body:
            request.body = {k: v for k, v in request.body.items() if k != "tools"}
        return behaviour(request)

    return dropping


def html_page(request: Request) -> Reply:
    page = "<!doctype html><html><head><title>Welcome</title></head><body>Router login</body></html>"
    return Reply(200, page.encode(), "text/html; charset=utf-8")


def empty_choices(request: Request) -> Reply:
    return json_reply({"id": "x", "object": "chat.completion", "created": 0, "model": MODEL,
                       "choices": [], "usage": {"prompt_tokens": 5, "completion_tokens": 0,
                                                "total_tokens": 5}})


def malformed_json(request: Request) -> Reply:
    return Reply(200, b'{"id": "x", "choices": [{"message": {"content": "Thought: ')


def dropped(request: Request) -> Reply:
    return Reply(drop=True)


def hanging(request: Request) -> Reply:
    return Reply(hang=True)


def slow(request: Request) -> Reply:
    """A reply that takes longer than the client waits (see ``StubServer.one_at_a_time``)."""
    return Reply(slow=True)


def slow_first(behaviour: Behaviour, calls: int = 1) -> Behaviour:
    """The first ``calls`` model calls are too slow for the client; then ``behaviour``."""
    return then_fail(slow, calls, behaviour)


def refusing_response_format(behaviour: Behaviour) -> Behaviour:
    """llama-cpp-python with a JSON-schema response format it cannot turn into a grammar: a 500."""
    def refusing(request: Request) -> Reply:
        if isinstance(request.body, dict) and request.body.get("response_format"):
            return error_reply(500, "Internal Server Error: failed to build a grammar for the "
                                    "json_schema response format", request)
        return behaviour(request)

    return refusing


def echoing_error(status: int) -> Behaviour:
    """An error whose text repeats the Authorization header (seen with some proxies)."""
    return lambda request: error_reply(status, "upstream refused", request, echo_auth=True)


@dataclass
class StubServer:
    """A threaded HTTP server on 127.0.0.1 driven by ``behaviour``; a context manager."""

    behaviour: Behaviour
    models: Sequence[str] | None = (MODEL,)  # what GET /v1/models lists; None answers 404
    requests: list[Request] = field(default_factory=list)
    one_at_a_time: bool = False  # llama-cpp-python: one request at a time, abandoned work kept
    finishing: bool = True  # one at a time: abandoned work ends while a client waits on /v1/models

    def __post_init__(self) -> None:
        self._stopping = threading.Event()
        self._count = itertools.count(1)
        self._lock = threading.Lock()
        self._free = threading.Condition()
        self._busy = False  # one at a time: a request is being worked on (maybe an abandoned one)
        self.abandoned = 0  # one at a time: requests still worked on after their client gave up
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler_for(self))
        self._server.daemon_threads = True

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_port}/v1"

    @property
    def calls(self) -> list[Request]:
        """The model calls (POSTs) received so far."""
        return [r for r in self.requests if r.method == "POST"]

    def __enter__(self) -> StubServer:
        threading.Thread(target=self._server.serve_forever, args=(0.05,), daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stopping.set()  # releases hanging handlers
        self._server.shutdown()
        self._server.server_close()

    def take_turn(self, request: Request, gone: Callable[[], bool]) -> bool:
        """One at a time: wait until the server is free, or the client gave up (False).

        A client waiting on ``/v1/models`` is where abandoned work ends (``finishing``).
        """
        is_list = request.method == "GET"
        with self._free:
            while self._busy:
                if is_list and self.finishing and self.abandoned:
                    self._busy, self.abandoned = False, 0
                    break
                if gone() or self._stopping.is_set():
                    return False
                self._free.wait(0.02)
            self._busy = not is_list
            return True

    def end_turn(self, abandoned: bool) -> None:
        """A request done, or given up by its client while the server works on (``abandoned``)."""
        with self._free:
            if abandoned:
                self.abandoned += 1
            else:
                self._busy = False
            self._free.notify_all()

    def answer(self, request: Request) -> Reply:
        if request.method == "GET" and request.path.rstrip("/").endswith("/models"):
            if self.models is None:
                return error_reply(404, "Not Found")
            return json_reply({"object": "list", "data": [
                {"id": name, "object": "model", "created": 0, "owned_by": "stub"}
                for name in self.models]})
        if not request.path.rstrip("/").endswith(("/chat/completions", "/completions")):
            return error_reply(404, f"Not Found: {request.path}")  # e.g. /v1/responses, as most do
        with self._lock:
            request.number = next(self._count)
        return self.behaviour(request)


def _handler_for(stub: StubServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self._serve("GET")

        def do_POST(self) -> None:
            self._serve("POST")

        def _serve(self, method: str) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b""
            try:
                body = json.loads(raw) if raw else None
            except ValueError:
                body = raw.decode(errors="replace")
            request = Request(method, self.path, dict(self.headers.items()), body)
            stub.requests.append(request)
            if stub.one_at_a_time and not stub.take_turn(request, self._client_gone):
                return  # its client gave up while it waited behind another request
            reply = stub.answer(request)
            if reply.slow:  # worked on until the client gives up (one at a time: and on after that)
                while not (self._client_gone() or stub._stopping.wait(0.02)):
                    pass
            if stub.one_at_a_time and method == "POST":
                stub.end_turn(abandoned=reply.slow)
            if reply.slow:
                return
            if reply.hang:
                stub._stopping.wait(120)
                return
            if reply.drop:
                self.close_connection = True
                return
            self.send_response(reply.status)
            self.send_header("Content-Type", reply.content_type)
            self.send_header("Content-Length", str(len(reply.body)))
            self.end_headers()
            self.wfile.write(reply.body)

        def _client_gone(self) -> bool:
            """Has the client closed the connection (it gave up waiting)?"""
            try:
                readable, _, _ = select.select([self.connection], [], [], 0)
                return bool(readable) and self.connection.recv(1, socket.MSG_PEEK) == b""
            except OSError:
                return True

        def log_message(self, *args: object) -> None:
            pass

    return Handler
