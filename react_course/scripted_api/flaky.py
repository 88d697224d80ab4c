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

The plan is played by one function, ``FlakyPlan.handle``: the HTTP server
calls it for each request, and in the browser (where nothing can listen)
``serve_flaky`` hosts it in-process instead (``in_process.py``), so the same
statuses and ``Retry-After`` come back; a slow entry there makes the client
wait as long as its time-out, then give up, as over a socket.

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
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from ..errors import ModelError
from ..web import browser
from .app import Answer

MESSAGES = {400: "bad request", 401: "invalid API key", 404: "no such model",
            429: "rate limit reached", 500: "internal server error", 503: "server overloaded"}

QUOTA_BODY = {"error": {"message": "You exceeded your current quota, please check your plan and "
                                   "billing details.", "type": "insufficient_quota",
                        "param": None, "code": "insufficient_quota"}}


class FlakyPlan:
    """The plan, and how many requests it has answered: one entry per request, whatever was asked."""

    def __init__(self, plan: Sequence[Any]) -> None:
        self.plan, self.served, self.lock = list(plan) or ["ok"], 0, threading.Lock()

    def next_entry(self) -> Any:
        with self.lock:
            entry = self.plan[min(self.served, len(self.plan) - 1)]
            self.served += 1
            return entry

    def handle(self, method: str, path: str, headers: Mapping[str, str], body: bytes) -> Answer:
        """The next entry's answer (the HTTP server's and the in-process route's).

        >>> FlakyPlan([(429, 0.5)]).handle("POST", "/complete", {}, b"{}")[:2]
        (429, {'Retry-After': '0.5', 'Content-Type': 'application/json'})
        """
        entry = self.next_entry()
        delay = 0.0
        if isinstance(entry, tuple) and entry[0] == "slow":
            entry, delay = "late reply", entry[1]
        status, extra, payload = _response(entry)
        return Answer(status, {**extra, "Content-Type": "application/json"}, json.dumps(payload).encode(),
                      delay)


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


class _Handler(BaseHTTPRequestHandler):
    server: _FlakyServer

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        answer = self.server.plan.handle("POST", self.path, self.headers, body)
        time.sleep(answer.delay)
        with contextlib.suppress(OSError):  # the client may have given up already
            self.send_response(answer.status)
            for name, value in answer.headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(answer.body)))
            self.end_headers()
            self.wfile.write(answer.body)  # type: ignore[arg-type]

    def log_message(self, *args: Any) -> None:  # keep notebooks and tests quiet
        return


class _FlakyServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, plan: FlakyPlan) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.plan = plan


@dataclass
class Flaky:
    """What ``serve_flaky`` yields: where to post, and the plan (``served`` counts its requests)."""

    url: str
    plan: FlakyPlan

    @property
    def served(self) -> int:
        return self.plan.served


@contextlib.contextmanager
def serve_flaky(plan: Sequence[Any]) -> Iterator[Flaky]:
    """Serve ``plan`` on 127.0.0.1 (in the browser: in-process); yields its ``.url`` and ``.served``."""
    played = FlakyPlan(plan)
    if browser.IN_BROWSER:
        from .in_process import hosted

        with hosted(played.handle, "flaky") as site:
            yield Flaky(site + "/complete", played)
        return
    server = _FlakyServer(played)
    # A short poll interval: shutdown() waits for the serving loop to look up (0.5 s by default).
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.02},
                              daemon=True)
    thread.start()
    try:
        yield Flaky(f"http://127.0.0.1:{server.server_address[1]}/complete", played)
    finally:
        server.shutdown()
        server.server_close()


class HttpModel:
    """A model behind HTTP: posts the prompt, returns the reply's text."""

    def __init__(self, url: str, timeout: float = 2.0) -> None:
        self.url, self.timeout = url, timeout

    def __call__(self, prompt: str, stop: Sequence[str] | None = None) -> str:
        data = json.dumps({"prompt": prompt, "stop": list(stop or [])}).encode()
        status, retry_after, body = self._post(data)
        if status != 200:
            said = json.loads(body.decode(errors="replace") or "{}").get("error", "")
            raise ModelError(f"HTTP {status}: {said}",
                             status=status, retry_after=retry_after)
        return json.loads(body)["text"]

    def _post(self, data: bytes) -> tuple[int, str | None, bytes]:
        """The status, the Retry-After header and the body: in-process if the URL is, else over HTTP."""
        from .in_process import handler_at, is_in_process, ready

        if is_in_process(self.url):
            handle = handler_at(self.url)
            if handle is None:
                raise ConnectionError(f"nothing is hosted in-process at {self.url}")
            answer = handle("POST", "/complete", {"Content-Type": "application/json"}, data)
            if not ready(answer, self.timeout):
                raise TimeoutError(f"no reply within {self.timeout:g} s")
            return answer.status, answer.headers.get("Retry-After"), answer.body  # type: ignore[return-value]
        request = urllib.request.Request(self.url, data=data, headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                return response.status, response.headers.get("Retry-After"), response.read()
        except urllib.error.HTTPError as error:
            return error.code, error.headers.get("Retry-After"), error.read()
        except TimeoutError as error:
            raise TimeoutError(f"no reply within {self.timeout:g} s") from error
        except urllib.error.URLError as error:
            if isinstance(error.reason, TimeoutError | socket.timeout):
                raise TimeoutError(f"no reply within {self.timeout:g} s") from error
            raise ConnectionError(str(error.reason)) from error
