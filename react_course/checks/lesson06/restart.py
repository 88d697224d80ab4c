"""As if Python had restarted between two calls: ``hash()`` gives other numbers, the clock has moved on.

Check 06.idempotency calls the student's key function for an action, for its retry "after a
restart", and for the first action again in the first "process": a key built from Python's
salted ``hash()``, the clock or the process id then differs, as it would after a real restart,
and one built from a counter or a random part differs even without one. What is recorded is
plain data: the three keys, and whether ``hash()`` or the clock was read. Left out: a real
second process (slow, and not in the browser), and so the order of a set of texts, which only
a new process changes (the texts stay ``str`` itself, so ``type(text) is str`` holds).
"""

from __future__ import annotations

import builtins
import contextlib
import os
import time
from collections.abc import Callable, Iterator
from typing import Any

__all__ = ["first_then_retry"]
LATER = 3600.0  # the retry comes an hour later


@contextlib.contextmanager
def _restarted(epoch: int, read: set[str]) -> Iterator[None]:
    """As if Python had restarted ``epoch`` times: ``hash()``, the clock and the pid all change.

    Only calls through the names ``hash``, ``time.time``, ``time.time_ns`` and ``os.getpid``
    see the change (dicts and sets hash in C, untouched), and only while the student's
    function runs; ``hash()`` and the clock, when read, are noted in ``read``.
    """
    real_hash, real_time, real_ns, real_pid = builtins.hash, time.time, time.time_ns, os.getpid

    def noted(name: str, value: Any) -> Any:
        read.add(name)
        return value

    builtins.hash = lambda value: noted("hash()", real_hash((epoch, value)))
    time.time = lambda: noted("the clock", real_time() + epoch * LATER)
    time.time_ns = lambda: noted("the clock", real_ns() + int(epoch * LATER * 1e9))
    os.getpid = lambda: real_pid() + epoch
    try:
        yield
    finally:
        builtins.hash, time.time, time.time_ns, os.getpid = real_hash, real_time, real_ns, real_pid


def first_then_retry(student: Callable[..., Any], first: tuple, retry: tuple) -> dict[str, Any]:
    """The keys of ``first``, of ``retry`` after a restart, and of ``first`` again before it."""
    read: set[str] = set()
    keys = []
    for epoch, action in ((0, first), (1, retry), (0, first)):
        with _restarted(epoch, read):
            keys.append(student(*action))
    return {"keys": keys[:2], "the first again": keys[2], "read": sorted(read)}
