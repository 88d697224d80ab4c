"""Where the course runs in a browser tab (JupyterLite's Pyodide kernel), and what differs there.

The browser edition runs the same lessons on Python compiled to WebAssembly.
Three things a laptop has are missing there, and the library asks this module
instead of finding out by failing:

- no threads: ``threading.Thread.start()`` raises ``RuntimeError``, and so does
  ``ThreadPoolExecutor.submit`` (``threads_work``, ``inline_pools``);
- no child processes: ``os.fork`` exists but fails, so nothing can be killed;
- no sockets to listen on: a local server cannot start, so the scripted API
  is reached in-process instead.

What the tab has instead of a disk: JupyterLite mounts the file browser's
contents at ``/drive`` and starts each kernel in its notebook's folder there.
Files written under it are kept in the browser's storage (IndexedDB) and show
in the file browser; anything else (``/tmp``, ``~``) is gone on reload.
``course_folder`` finds the course there, ``results_file`` is where checks
keep their results.

>>> IN_BROWSER
False
>>> laptop_only("needs a subprocess") is None   # on a laptop: nothing to say
True
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

IN_BROWSER = sys.platform == "emscripten"
DRIVE = Path("/drive")  # where JupyterLite mounts the file browser's contents in the kernel
RESULTS_NAME = "check_results.jsonl"  # beside notebooks/ and exercises/, in the drive

_SAID: set[str] = set()
_THREADS: list[bool] = []  # the probe's answer, once asked


def laptop_only(reason: str) -> str | None:
    """In the browser, print (once per reason) why a cell cannot run here; return the text.

    On a laptop it prints nothing and returns None, so a lesson can call it
    unconditionally before the part that needs a real machine.
    """
    return _say_once(f"Laptop only: {reason}. The rest of the lesson runs here.")


def cannot_enforce(limit: str, why: str) -> str | None:
    """In the browser, say once that ``limit`` is not enforced there, and why.

    >>> cannot_enforce("the time limit", "no threads") is None
    True
    """
    return _say_once(f"Note: in the browser {limit} is not enforced: {why}.")


def _say_once(text: str) -> str | None:
    """In the browser, print ``text`` the first time it is said; return it (None on a laptop)."""
    if not IN_BROWSER:
        return None
    if text not in _SAID:
        _SAID.add(text)
        print(text)
    return text


def threads_work() -> bool:
    """Whether a thread can start here: never in the browser; elsewhere probed once.

    >>> threads_work()
    True
    """
    if IN_BROWSER:
        return False
    if not _THREADS:
        try:
            probe = threading.Thread(target=lambda: None)
            probe.start()
            probe.join()
            _THREADS.append(True)
        except RuntimeError:  # "can't start new thread"
            _THREADS.append(False)
    return _THREADS[0]


@contextmanager
def inline_pools() -> Iterator[None]:
    """Where no thread can start, a ``ThreadPoolExecutor`` runs each task as it is submitted.

    Code written for a laptop (``with ThreadPoolExecutor() as pool: pool.map(f, xs)``)
    then runs in a tab: one task after another, its results in order, an error
    kept in its future as usual. Where threads work it changes nothing.
    """
    if threads_work():
        yield
        return
    from concurrent.futures import ThreadPoolExecutor

    saved = ThreadPoolExecutor.submit
    ThreadPoolExecutor.submit = _submit_inline  # type: ignore[method-assign]
    try:
        yield
    finally:
        ThreadPoolExecutor.submit = saved  # type: ignore[method-assign]


def _submit_inline(self: Any, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
    from concurrent.futures import Future

    if getattr(self, "_shutdown", False):
        raise RuntimeError("cannot schedule new futures after shutdown")
    future: Future = Future()
    try:
        future.set_result(fn(*args, **kwargs))
    except Exception as error:  # as a worker thread would: kept for .result() to raise
        future.set_exception(error)
    return future


def course_folder() -> Path | None:
    """In the browser, the drive's folder that holds ``notebooks/`` or ``exercises/``.

    Searched from the kernel's current folder (its notebook's) up to the drive.
    None on a laptop, and in a tab whose kernel cannot see the drive (the
    browser refused JupyterLite's service worker): files written there are lost.
    """
    if not IN_BROWSER:
        return None
    here = Path(os.getcwd())
    if here != DRIVE and DRIVE not in here.parents:
        return None
    for folder in (here, *here.parents):
        if (folder / "notebooks").is_dir() or (folder / "exercises").is_dir():
            return folder
        if folder == DRIVE:
            break
    return DRIVE


def results_file() -> Path | None:
    """In the browser, where checks keep their results: a file in the course's folder on the drive."""
    folder = course_folder()
    return folder / RESULTS_NAME if folder is not None else None


def on_a_laptop(reason: str) -> bool:
    """True on a laptop; in the browser, say (once) why what follows cannot run there, and return False.

    For a cell whose whole point needs a real machine: ``if on_a_laptop("it listens on a port"):``.

    >>> on_a_laptop("needs a port")
    True
    """
    return laptop_only(reason) is None


# A tab has no sockets. On Emscripten httpx2 (the openai SDK's HTTP client) sends with the page's
# fetch, and its synchronous client (the one the course uses) then needs JavaScript Promise
# Integration: Chromium has it, stable Firefox and Safari do not. Pyodide's kernel runs in a web
# worker, where a synchronous XMLHttpRequest works in every browser, so the SDK's requests go
# through that instead: a real model (or `react-course serve-model` on the instructor's laptop)
# answers a tab as it answers a laptop, under CORS. Answers arrive whole (no streaming).
_NOT_SETTABLE = {"host", "content-length", "connection", "accept-encoding", "user-agent"}


def route_http_through_the_page() -> bool:
    """In a tab's worker, make httpx2's own transport send with XMLHttpRequest; True if it did.

    Elsewhere (a laptop, or Pyodide under Node, which has no XMLHttpRequest) nothing changes.
    """
    try:
        from js import XMLHttpRequest  # noqa: F401 (only a browser's worker has it)
    except ImportError:
        return False
    import warnings

    import httpx2

    # The SDK passes connection limits, which the page's networking ignores anyway: no warning
    warnings.filterwarnings("ignore", message="The following transport option", category=UserWarning)

    httpx2.HTTPTransport.handle_request = _send_with_xhr  # type: ignore[method-assign]
    return True


def _send_with_xhr(self: Any, request: Any) -> Any:
    import httpx2
    from js import Uint8Array, XMLHttpRequest
    from pyodide.ffi import JsException, to_js

    xhr = XMLHttpRequest.new()
    xhr.open(request.method, str(request.url), False)
    xhr.responseType = "arraybuffer"
    timeout = (request.extensions.get("timeout") or {}).get("read")
    if timeout:
        xhr.timeout = int(timeout * 1000)
    for name, value in request.headers.items():
        if name.lower() not in _NOT_SETTABLE:
            xhr.setRequestHeader(name, value)
    body = request.read()
    try:
        xhr.send(to_js(body) if body else None)
    except JsException as error:  # refused, unreachable, timed out, or blocked by CORS
        raise httpx2.ConnectError(f"the browser could not reach {request.url.host}: {error}",
                                  request=request) from None
    lines = str(xhr.getAllResponseHeaders()).strip().split("\r\n")
    headers = [tuple(part.strip() for part in line.split(":", 1)) for line in lines if ":" in line]
    headers = [(k, v) for k, v in headers if k.lower() not in ("content-encoding", "content-length")]
    content = Uint8Array.new(xhr.response).to_bytes() if xhr.response else b""
    return httpx2.Response(int(xhr.status), headers=headers, content=content, request=request)


if IN_BROWSER:
    route_http_through_the_page()
