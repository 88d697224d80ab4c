"""Time limits for a check's cases, with threads where they exist and without where they do not.

``run_limited(function, seconds)`` calls ``function`` and gives up after
``seconds``. Two ways to stop it, chosen at run time:

1. A worker thread (Linux, macOS, Windows). Past the limit the case fails
   and ``CaseTimeout`` is injected into the thread (CPython's
   ``PyThreadState_SetAsyncExc``), which stops a pure-Python loop. Code
   stuck inside one C call is abandoned, still running, as a daemon thread.
2. A trace deadline, where no thread can start (Pyodide in the browser:
   ``Thread.start()`` raises ``RuntimeError``). ``sys.settrace`` installs a
   function that Python calls on every line and every call; past the
   deadline it raises ``CaseTimeout`` there, which stops a loop written in
   Python, in the student's code or in the library's.

What the trace deadline cannot stop, because no Python line runs meanwhile:
a long computation inside one C call (``10 ** 10 ** 8``, a huge regular
expression backtrack), ``time.sleep`` and a blocking read. Those finish
first and are then reported late. Code that catches ``BaseException`` can
also swallow the ``CaseTimeout``; CPython then turns the trace off, so such a
loop runs on. The second defence against a runaway loop is the guards
(``GuardedModel``), which raise after a set number of calls on any platform.
In the browser the student's ``ThreadPoolExecutor`` runs its tasks one by one
(``browser.inline_pools``), and the first check says once what its limit cannot
stop. Left out: processes (``os.fork`` exists in Pyodide but fails) and signals
(``SIGALRM`` is Unix-only and main-thread-only).
"""

from __future__ import annotations

import contextlib
import ctypes
import io
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from ..web import browser

__all__ = ["CaseTimeout", "Outcome", "run_limited", "run_with_trace_deadline"]


class CaseTimeout(BaseException):
    """Raised inside a case that ran past its time limit."""


@dataclass
class Outcome:
    """How one call went: its value or error, whether it ran out of time, what it printed."""

    value: Any = None
    error: BaseException | None = None
    timed_out: bool = False
    printed: str = ""
    stopped_by: Literal["thread", "trace"] = "thread"
    limit: float = 0.0  # the seconds it was given (the case's limit, scaled in a tab)


# A limit stops a runaway loop; it is not a verdict on speed. In a tab, code runs as WebAssembly
# under a trace function called on every line, several times slower than on a laptop (solutions/08
# failed its 6 s limit there on a loaded machine): so a case gets this many times its limit.
TRACE_SLOWER = 10


def run_limited(function: Callable[[], Any], time_limit: float) -> Outcome:
    """Call ``function`` for at most ``time_limit`` seconds, its printed output captured.

    >>> run_limited(lambda: 6 * 7, 1.0).value
    42
    """
    outcome, buffer = Outcome(limit=time_limit), io.StringIO()
    threads, started = browser.threads_work(), time.monotonic()
    with contextlib.redirect_stdout(buffer), contextlib.redirect_stderr(buffer):
        if not (threads and _run_in_thread(function, time_limit, outcome)):
            outcome.stopped_by, outcome.limit = "trace", time_limit * TRACE_SLOWER
            with browser.inline_pools():
                run_with_trace_deadline(function, outcome.limit, outcome)
    outcome.printed = buffer.getvalue()
    if not threads and time.monotonic() - started > outcome.limit * 1.5:  # it ran on past the limit
        browser.cannot_enforce(*_WEAKER)
    return outcome


_WEAKER = ("a check's time limit on code that waits in C code (a huge power, time.sleep)",
           "no thread can start in a tab, so the limit is checked between Python lines: a loop in "
           "Python is still stopped, such a call ends first and is then reported late")


def _run_in_thread(function: Callable[[], Any], time_limit: float, outcome: Outcome) -> bool:
    """Run in a worker thread; False when no thread can start (nothing has run then)."""

    def target() -> None:
        try:
            outcome.value = function()
        except BaseException as error:  # everything the student's code raises is reported
            outcome.error = error

    worker = threading.Thread(target=target, daemon=True, name="react-course-check")
    try:
        worker.start()
    except RuntimeError:  # "can't start new thread": Pyodide, or a process out of threads
        return False
    worker.join(time_limit)
    if worker.is_alive():
        outcome.timed_out = True
        _interrupt(worker)
        worker.join(0.5)
        _free_the_pools_lock()
    return True


def _free_the_pools_lock(wait: float = 5.0) -> None:
    """Release ``concurrent.futures``' global lock if the interrupted thread left it held.

    ``ThreadPoolExecutor.submit`` holds one lock shared by every pool in the process;
    ``CaseTimeout`` raised in a thread inside ``submit`` can leave it held, and then every
    later ``submit`` (the next case's, the student's next cell's) waits forever. It was
    seen so: a loaded test run hung in 07.run_calls. ``submit`` holds it for microseconds,
    so a lock still held after ``wait`` seconds is the leaked one.
    """
    from concurrent.futures import thread as pools

    lock = getattr(pools, "_global_shutdown_lock", None)
    if lock is not None:
        lock.acquire(timeout=wait)  # ours within ``wait`` seconds, or still the leaked hold:
        lock.release()  # free either way


def _interrupt(worker: threading.Thread) -> None:
    """Raise CaseTimeout inside a runaway thread (CPython; a no-op elsewhere)."""
    try:
        ctypes.pythonapi.PyThreadState_SetAsyncExc(
            ctypes.c_ulong(worker.ident), ctypes.py_object(CaseTimeout)
        )
    except (AttributeError, TypeError):
        pass


def run_with_trace_deadline(function: Callable[[], Any], time_limit: float,
                            outcome: Outcome | None = None) -> Outcome:
    """Call ``function`` in this thread; a trace function raises ``CaseTimeout`` past the limit.

    Whatever trace function was set before (a debugger, coverage) is put back afterwards.

    >>> def forever():
    ...     while True:
    ...         pass
    >>> run_with_trace_deadline(forever, 0.05).timed_out
    True
    """
    outcome = outcome if outcome is not None else Outcome(stopped_by="trace")
    deadline = time.monotonic() + time_limit

    def tracer(frame: Any, event: str, arg: Any) -> Any:
        if time.monotonic() > deadline:
            raise CaseTimeout(f"did not finish within {time_limit:g} s")
        return tracer

    previous = sys.gettrace()
    sys.settrace(tracer)
    try:
        outcome.value = function()
    except CaseTimeout:
        outcome.timed_out = True
    except BaseException as error:  # everything the student's code raises is reported
        outcome.error = error
    finally:
        sys.settrace(previous)
    if not outcome.timed_out and time.monotonic() > deadline:
        outcome.timed_out = True  # it finished, but late: a C call or a sleep the trace cannot stop
    return outcome
