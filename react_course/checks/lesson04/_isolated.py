"""Run one call of student code in a forked child process, which can be stopped.

A thread's time limit cannot stop code stuck inside one C call: computing
``9 ** 9 ** 9`` would keep a worker thread (and the CPU) busy for hours. A
child process can be stopped. The child is a fork of this process, so the
student's function needs no pickling; only the answer comes back, as text,
through a pipe.

The child's limit is CPU time, not time on the clock (``RLIMIT_CPU``: the
kernel ends it after ``CHILD_SECONDS`` of its own computing), so the verdict
is the same on a loaded machine: a calculator that checks before computing
uses milliseconds of CPU however long it waits for a core, one that computes
the power uses its whole allowance. ``WALL_SECONDS`` on the clock is only the
last resort for a child that waits forever without computing.

Without ``os.fork`` (Windows), or where it exists but fails
(Pyodide, in a browser tab), nothing is run: ``can_fork()`` says so, and the
caller skips the probe.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
import warnings
from collections.abc import Callable
from typing import Any

from ...web import browser
from ..framework import describe, error_text

CHILD_SECONDS = 2  # CPU seconds; a calculator that checks before computing needs milliseconds
WALL_SECONDS = 20.0  # on the clock: only for a child that neither computes nor answers


def can_fork() -> bool:
    """True where a child process can be forked (Linux, macOS; not Windows, not a browser tab).

    Pyodide has ``os.fork`` and lists "fork" as a start method, but forking fails there.
    """
    if browser.IN_BROWSER:
        return False
    return hasattr(os, "fork") and "fork" in multiprocessing.get_all_start_methods()


def call_in_child(function: Callable[[str], Any], argument: str) -> tuple[str, str]:
    """``function(argument)`` in a forked child, stopped after ``CHILD_SECONDS`` of CPU time.

    Returns ``("text", answer)`` for a returned str, ``("other", repr)`` for any
    other value, ``("raised", "Type: message")``, ``("timed out", "")`` when the
    child was stopped, or ``("died", "")`` when it ended without an answer (the
    kernel's CPU limit ends it this way).
    """
    context = multiprocessing.get_context("fork")
    receiver, sender = context.Pipe(duplex=False)
    child = context.Process(target=_child, args=(sender, function, argument), daemon=True)
    with warnings.catch_warnings():  # Python 3.12+ warns about forking a process with threads
        warnings.simplefilter("ignore", DeprecationWarning)
        child.start()
    sender.close()
    try:
        if not receiver.poll(WALL_SECONDS):
            return ("timed out", "")
        return receiver.recv()
    except (EOFError, OSError):
        return ("died", "")
    finally:
        if child.is_alive():
            child.kill()
        child.join()
        receiver.close()


def _child(sender: Any, function: Callable[[str], Any], argument: str) -> None:
    """In the child: limit its CPU time, silence its output, make the call, send back the answer."""
    import resource  # Unix only, as fork is

    _, hard = resource.getrlimit(resource.RLIMIT_CPU)
    soft = CHILD_SECONDS if hard == resource.RLIM_INFINITY else min(CHILD_SECONDS, hard)
    resource.setrlimit(resource.RLIMIT_CPU, (soft, hard))  # SIGXCPU ends the child past it
    quiet = os.open(os.devnull, os.O_WRONLY)
    os.dup2(quiet, 1)
    os.dup2(quiet, 2)
    sys.stdout = sys.stderr = open(os.devnull, "w")  # the child exits right after
    try:
        got = function(argument)
        answer = ("text", got[:1000]) if isinstance(got, str) else ("other", describe(got, 200))
    except BaseException as error:  # the child reports everything, then exits
        answer = ("raised", error_text(error))
    sender.send(answer)
    sender.close()
