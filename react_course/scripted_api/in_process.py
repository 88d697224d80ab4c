"""The scripted servers without a socket: the browser edition's route to them.

In a browser tab nothing can listen on a port, so ``serve()`` and
``serve_flaky()`` cannot start a server there. Instead they *host* their
request handler here, under an address that no network resolves
(``http://scripted-1.in-process.invalid``), and a client for that address
hands each request straight to the handler:

- the ``openai`` SDK, through ``InProcessTransport``, an ``httpx2`` transport
  (the SDK's HTTP library) that calls the handler instead of opening a
  connection; ``openai_client(url)`` builds such an ``openai.OpenAI``;
- lesson 05's ``HttpModel``, through ``handler_at(url)``.

A handler is ``handle(method, path, headers, body) -> app.Answer``: the very
function the HTTP server calls (``ScriptedAPI.handle``, ``FlakyPlan.handle``),
so a request gets the same answer either way. An answer that takes longer
than the client waits (a slow server) ends in the client's own time-out, after
waiting as long as the client would.

What it leaves out: everything between the bytes and the handler (headers'
sizes, chunked bodies, keep-alive): an in-process request cannot be malformed
on the wire.
"""

from __future__ import annotations

import contextlib
import itertools
import time
from collections.abc import Callable, Iterator, Mapping
from typing import Any
from urllib.parse import urlsplit

import httpx2

from .app import Answer

DOMAIN = "in-process.invalid"  # ".invalid" never resolves (RFC 2606): nothing leaves the process

Handler = Callable[[str, str, Mapping[str, str], bytes], Answer]

_HOSTED: dict[str, Handler] = {}
_NUMBERS = itertools.count(1)


@contextlib.contextmanager
def hosted(handle: Handler, name: str) -> Iterator[str]:
    """Make ``handle`` reachable in-process for the ``with`` block; yield its address.

    >>> with hosted(lambda *request: Answer(200, {}, b"hi"), "demo") as url:
    ...     url.endswith(".in-process.invalid"), handler_at(url + "/v1") is not None
    (True, True)
    >>> handler_at(url) is None   # gone with the block, as a stopped server is
    True
    """
    host = f"{name}-{next(_NUMBERS)}.{DOMAIN}"
    _HOSTED[host] = handle
    try:
        yield f"http://{host}"
    finally:
        del _HOSTED[host]


def handler_at(url: str) -> Handler | None:
    """The handler hosted at ``url``'s host, or None (a real address, or a block that has ended)."""
    return _HOSTED.get(urlsplit(url).hostname or "")


def is_in_process(url: str | None) -> bool:
    """Whether ``url`` names an in-process address (hosted or not), rather than a real server.

    >>> is_in_process("http://scripted-3.in-process.invalid/v1"), is_in_process("http://127.0.0.1:8000/v1")
    (True, False)
    """
    return (urlsplit(url or "").hostname or "").endswith("." + DOMAIN)


def ready(answer: Answer, timeout: float | None) -> bool:
    """Wait for a slow answer as a client with ``timeout`` would: True if it came in time.

    >>> ready(Answer(200, {}, b""), timeout=1.0), ready(Answer(200, {}, b"", delay=5.0), timeout=0.0)
    (True, False)
    """
    late = timeout is not None and answer.delay > timeout
    time.sleep(min(answer.delay, timeout) if late else answer.delay)
    return not late


class InProcessTransport(httpx2.BaseTransport):
    """An ``httpx2`` transport that hands each request to the handler hosted at its address."""

    def handle_request(self, request: httpx2.Request) -> httpx2.Response:
        handle = handler_at(str(request.url))
        if handle is None:
            raise httpx2.ConnectError(f"nothing is hosted in-process at {request.url.host} (its "
                                      "with-block has ended?)", request=request)
        path = request.url.raw_path.decode("ascii")
        answer = handle(request.method, path, request.headers, request.read())
        if not ready(answer, request.extensions.get("timeout", {}).get("read")):
            raise httpx2.ReadTimeout("the in-process server answered later than the client waits",
                                     request=request)
        if isinstance(answer.body, bytes):
            return httpx2.Response(answer.status, headers=answer.headers, content=answer.body)
        return httpx2.Response(answer.status, headers=answer.headers, stream=_Events(answer.body))


class _Events(httpx2.SyncByteStream):
    """A streamed answer's chunks, produced as the client reads them (as over a socket)."""

    def __init__(self, chunks: Iterator[bytes]) -> None:
        self.chunks = chunks

    def __iter__(self) -> Iterator[bytes]:
        yield from self.chunks


def openai_client(base_url: str, **options: Any) -> Any:
    """An ``openai.OpenAI`` for ``base_url``: through ``InProcessTransport`` if the address is in-process.

    ``options`` are the SDK's (``api_key``, ``max_retries``, ``timeout``...).
    A real address gets the SDK's own HTTP client, as if this function were not there.
    """
    import openai

    if is_in_process(base_url):
        options["http_client"] = httpx2.Client(transport=InProcessTransport())
    return openai.OpenAI(base_url=base_url, **options)
