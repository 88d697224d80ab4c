"""Predicates every lesson's checker needs, written once: mentions, an error saying, close to.

Each works on plain data (``plain.py``), so a fault or a comparison built from them
runs in the grader's process as well as in the notebook's.
"""

from __future__ import annotations

import math
from typing import Any

from .plain import Raised

__all__ = ["close_to", "error_saying", "mentions"]


def mentions(text: Any, *words: str) -> bool:
    """Does ``text`` contain every one of ``words``, in any case?

    >>> mentions("Unknown tool 'serch'", "unknown", "serch"), mentions(None, "x")
    (True, False)
    """
    return isinstance(text, str) and all(word.lower() in text.lower() for word in words)


def error_saying(got: Any, *words: str) -> bool:
    """Is ``got`` an error raised by the student's code whose text mentions every one of ``words``?

    >>> error_saying(Raised("raised ValueError: no tool named 'x'"), "valueerror", "no tool")
    True
    """
    return isinstance(got, Raised) and mentions(str(got), *words)


def close_to(got: Any, want: float, tolerance: float = 1e-9) -> bool:
    """A number (not a bool) within ``tolerance`` of ``want``, relative to its size.

    >>> close_to(0.1 + 0.2, 0.3), close_to(True, 1.0), close_to("0.3", 0.3)
    (True, False, False)
    """
    if isinstance(got, bool) or not isinstance(got, int | float):
        return False
    return math.isclose(got, want, rel_tol=tolerance, abs_tol=tolerance)
