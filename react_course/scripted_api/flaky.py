"""A model server that fails on purpose, and the smallest client for it.

Lesson 05 shows retries against real HTTP without a network or a key:
``serve_flaky(plan)`` starts a server on 127.0.0.1 (an ephemeral port) that
answers each request with the next entry of ``plan``:

- ``429`` or ``(429, seconds)``: "too many requests", with a ``Retry-After``;
- ``500``, ``503``, ``401``, ``404``...: that status, with a JSON error body;
- ``("slow", seconds)``: waits that long before answering (a client time-out);
- ``("quota", seconds)``: a 429 that says the account has no quota left, in
  OpenAI's shape (``code`` and ``type`` ``insufficient_quota``), with a
  ``Retry-After`` of ``seconds``: the 429 that no wait fixes;
- any other text: a 200 answer whose reply is that text.

Past the end of the plan it repeats the last entry. ``HttpModel(url)`` is a
model (``model(prompt, stop) -> text``) that posts to it and turns failures
into ``ModelError`` (with ``status`` and ``retry_after``) or ``TimeoutError``.

What it leaves out: the real Chat Completions protocol (``scripted_api.py``
serves that), streaming and keep-alive.
"""

from __future__ import annotations

import contextlib
import json
import socket
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from ..errors import ModelError

MESSAGES = {400: "bad request", 401: "invalid API key", 404: "no such model",
            429: "rate limit reached", 500: "internal server error", 503: "server overloaded"}


class _Handler(BaseHTTPRequestHandler):
    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        self.rfile.read(length)
        entry = self.server.next_entry()  # type: ignore[attr-defined]
        if isinstance(entry, tuple) and entry[0] == "slow":
            time.sleep(entry[1])
            entry = "late reply"
        status, headers, body = _response(entry)
        with contextlib.suppress(OSError):  # the client may have given up already
            self.send_response(status)
            for name, value in headers.items():
                self.send_header(name, value)
            data = json.dumps(body).encode()
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    def log_message(self, *args: Any) -> None:  # keep notebooks and tests quiet
        return


QUOTA_BODY = {"error": {"message": "You exceeded your current quota, please check your plan and "
                                   "billing details.", "type": "insufficient_quota",
                        "param": None, "code": "insufficient_quota"}}


def _response(entry: Any) -> tuple[int, dict[str, str], dict]:
    if isinstance(entry, tuple) and entry[0] == "quota":
        return 429, {"Retry-After": f"{entry[1]:g}"}, QUOTA_BODY
    if isinstance(entry, tuple):
        status, after = entry
        return status, {"Retry-After": f"{after:g}"}, {"error": MESSAGES.get(status, "error")}
    if isinstance(entry, int):
        headers = {"Retry-After": "1"} if entry == 429 else {}
        return entry, headers, {"error": MESSAGES.get(entry, "error")}
    return 200, {}, {"text": str(entry)}


class _FlakyServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, plan: Sequence[Any]) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.plan, self.served, self.lock = list(plan) or ["ok"], 0, threading.Lock()

    def next_entry(self) -> Any:
        with self.lock:
            entry = self.plan[min(self.served, len(self.plan) - 1)]
            self.served += 1
            return entry


@contextlib.contextmanager
def serve_flaky(plan: Sequence[Any]) -> Iterator[_FlakyServer]:
    """Serve ``plan`` on 127.0.0.1; yields the server (``.url``, ``.served``)."""
    server = _FlakyServer(plan)
    server.url = f"http://127.0.0.1:{server.server_address[1]}/complete"  # type: ignore[attr-defined]
    # A short poll interval: shutdown() waits for the serving loop to look up (0.5 s by default).
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.02},
                              daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


class HttpModel:
    """A model behind HTTP: posts the prompt, returns the reply's text."""

    def __init__(self, url: str, timeout: float = 2.0) -> None:
        self.url, self.timeout = url, timeout

    def __call__(self, prompt: str, stop: Sequence[str] | None = None) -> str:
        data = json.dumps({"prompt": prompt, "stop": list(stop or [])}).encode()
        request = urllib.request.Request(self.url, data=data, headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                return json.loads(response.read())["text"]
        except urllib.error.HTTPError as error:
            body = error.read().decode(errors="replace")
            raise ModelError(f"HTTP {error.code}: {json.loads(body or '{}').get('error', '')}",
                             status=error.code, retry_after=error.headers.get("Retry-After")) from None
        except TimeoutError as error:
            raise TimeoutError(f"no reply within {self.timeout:g} s") from error
        except urllib.error.URLError as error:
            if isinstance(error.reason, TimeoutError | socket.timeout):
                raise TimeoutError(f"no reply within {self.timeout:g} s") from error
            raise ConnectionError(str(error.reason)) from error
