"""As if Python had restarted between two calls: texts hash differently, and so does ``hash()``.

Check 06.idempotency calls the student's key function once for an action and once for its
retry, each in its own "process": a key built from Python's salted ``hash()`` then differs, as
it would after a real restart. Left out: a real second process (slow, and not in the browser).
"""

from __future__ import annotations

import builtins
import contextlib
from collections.abc import Callable, Iterator
from typing import Any

__all__ = ["first_then_retry"]


class _Salted(str):
    """A text whose hash() changes with ``epoch``, as Python's does from one process to the next."""

    __slots__ = ()
    epoch = 0

    def __hash__(self) -> int:
        return hash((_Salted.epoch, str(self)))


def _salted(value: Any) -> Any:
    if isinstance(value, dict):
        return {_salted(k): _salted(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(_salted(item) for item in value)
    return _Salted(value) if type(value) is str else value


@contextlib.contextmanager
def _restarted(epoch: int) -> Iterator[None]:
    """As if Python had restarted: texts hash differently, and so does ``hash()`` of anything.

    Only calls of the name ``hash`` see the salted builtin (dicts and sets hash in C, untouched),
    and only while the student's function runs.
    """
    real = builtins.hash
    _Salted.epoch = epoch
    builtins.hash = lambda value: real((epoch, value))
    try:
        yield
    finally:
        builtins.hash, _Salted.epoch = real, 0


def first_then_retry(student: Callable, pair: tuple) -> tuple:
    """Call for the first attempt, then, as after a restart of Python, for the second."""
    keys = []
    for epoch, action in enumerate(pair):
        with _restarted(epoch):
            keys.append(student(*_salted(action)))
    return tuple(keys)
