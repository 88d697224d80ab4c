"""As if Python had restarted between two calls: texts hash differently, the clock has moved on.

Check 06.idempotency calls the student's key function for an action, for its retry "after a
restart", and for the first action again in the first "process": a key built from Python's
salted ``hash()``, the clock or the process id then differs, as it would after a real restart,
and one built from a counter or a random part differs even without one. What is recorded is
plain data: the three keys, and whether ``hash()`` or the clock was read. Left out: a real
second process (slow, and not in the browser).
"""

from __future__ import annotations

import builtins
import contextlib
import hashlib
import os
import time
from collections.abc import Callable, Iterator
from typing import Any

__all__ = ["first_then_retry"]
LATER = 3600.0  # the retry comes an hour later


class _Salted(str):
    """A text whose hash() changes with ``epoch``, as Python's does from one process to the next.

    So does the order of a set of texts. Left out: ``type(text) is str`` is False for it.
    """

    __slots__ = ()
    epoch = 0

    def __hash__(self) -> int:  # the same in every real process, so the verdicts are too
        return int.from_bytes(hashlib.sha256(f"{_Salted.epoch}:{self}".encode()).digest()[:8], "big")


_Salted.__name__ = _Salted.__qualname__ = "str"  # what an error message about a text calls it


def _salted(value: Any) -> Any:
    if isinstance(value, dict):
        return {_salted(k): _salted(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(_salted(item) for item in value)
    return _Salted(value) if type(value) is str else value


@contextlib.contextmanager
def _restarted(epoch: int, read: set[str]) -> Iterator[None]:
    """As if Python had restarted ``epoch`` times: ``hash()``, the clock and the pid all change.

    Only calls through the names ``hash``, ``time.time``, ``time.time_ns`` and ``os.getpid``
    see the change (dicts and sets hash in C, untouched), and only while the student's
    function runs; each one read is noted in ``read``.
    """
    real_hash, real_time, real_ns, real_pid = builtins.hash, time.time, time.time_ns, os.getpid

    def noted(name: str, value: Any) -> Any:
        read.add(name)
        return value

    _Salted.epoch = epoch
    builtins.hash = lambda value: noted("hash()", real_hash((epoch, value)))
    time.time = lambda: noted("the clock", real_time() + epoch * LATER)
    time.time_ns = lambda: noted("the clock", real_ns() + int(epoch * LATER * 1e9))
    os.getpid = lambda: real_pid() + epoch
    try:
        yield
    finally:
        builtins.hash, time.time, time.time_ns, os.getpid = real_hash, real_time, real_ns, real_pid
        _Salted.epoch = 0


def first_then_retry(student: Callable[..., Any], first: tuple, retry: tuple) -> dict[str, Any]:
    """The keys of ``first``, of ``retry`` after a restart, and of ``first`` again before it."""
    read: set[str] = set()
    keys = []
    for epoch, action in ((0, first), (1, retry), (0, first)):
        with _restarted(epoch, read):
            keys.append(student(*_salted(action)))
    return {"keys": keys[:2], "the first again": keys[2], "read": sorted(read)}
