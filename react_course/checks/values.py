"""Small helpers every lesson's checker needs to show and compare values.

- ``describe``: a short, safe ``repr`` of a student's value;
- ``Shown``: a description shown as is in "expected:" or "got:" (no quotes);
- ``nonblank_lines``: the lines of a text, stripped, blank ones left out;
- ``error_text``: "KeyError: 'x'", cut to a length without losing its last character;
- ``same_fields``: compare with one of the library's dataclasses (``Action``,
  ``FinalAnswer``, ...), naming the field that differs.

Left out: deep diffs of nested structures (a case names what it checks instead).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

__all__ = ["Shown", "describe", "error_text", "nonblank_lines", "same_fields", "shorten"]


def shorten(text: str, limit: int) -> str:
    """``text`` whole when it fits in ``limit`` characters, else its start and its length.

    >>> shorten("abcdef", 10), shorten("x" * 30, 10)
    ('abcdef', 'xxxxxxxxx...(30 characters)')
    """
    return text if len(text) <= limit else f"{text[: limit - 1]}...({len(text)} characters)"


def describe(value: Any, limit: int = 300) -> str:
    """A short, safe ``repr`` (student objects may have broken or huge reprs).

    >>> describe("x" * 400, limit=10)
    "'xxxxxxxx...(402 characters)"
    """
    try:
        text = repr(value)
    except Exception as error:  # a broken __repr__ must not break the check
        text = f"<{type(value).__name__} whose repr raised {type(error).__name__}>"
    return shorten(text, limit)


class Shown(str):
    """A description shown as is in the feedback (a plain ``str`` would be shown quoted).

    >>> describe(Shown("a text starting 'Could not finish'"))
    "a text starting 'Could not finish'"
    """

    __slots__ = ()

    def __repr__(self) -> str:
        return str(self)

    @property
    def text(self) -> str:
        return str(self)


def nonblank_lines(text: str) -> list[str]:
    """The lines of ``text`` that are not blank, each stripped.

    >>> nonblank_lines("  Action: price\\n\\nAction Input: pen ")
    ['Action: price', 'Action Input: pen']
    """
    return [line.strip() for line in text.splitlines() if line.strip()]


def error_text(error: BaseException, limit: int = 200) -> str:
    """The error's type and message, the message cut to ``limit`` characters.

    >>> error_text(KeyError("missing"))
    "KeyError: 'missing'"
    >>> error_text(ValueError("no (" + "x" * 50 + ")"), limit=20)
    'ValueError: no (xxxxxxxxxxxxxxx...(55 characters)'
    """
    try:
        message = str(error)
    except Exception:  # a broken __str__ must not break the check
        message = "(its message could not be shown)"
    name = type(error).__name__
    return f"{name}: {shorten(message, limit)}" if message else name


def _fields(value: Any) -> dict[str, Any] | None:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: getattr(value, f.name) for f in dataclasses.fields(value) if f.compare}
    return None


def same_fields(expected: Any) -> Callable[[Any], bool | str]:
    """A test against a dataclass value that names the type or the field that differs.

    Only the fields that ``==`` compares are looked at (``Action.thought`` is not).

    >>> from react_course.parsing import Action
    >>> test = same_fields(Action("price", "pen", "I need a price."))
    >>> test(Action("price", "pen ", "I need a price."))
    "input is 'pen ', expected 'pen'"
    >>> test(Action("price", "pen", "I need a price."))
    True
    """
    want = _fields(expected)
    if want is None:
        raise TypeError(f"same_fields needs a dataclass instance, not {type(expected).__name__}")

    def test(got: Any) -> bool | str:
        if got == expected:
            return True
        if type(got).__name__ != type(expected).__name__:
            return (f"returned {describe(got, 80)}, a {type(got).__name__}; "
                    f"expected a {type(expected).__name__}")
        have = _fields(got) or {}
        for name, value in want.items():
            if name not in have:
                return f"it has no field {name!r}"
            if have[name] != value:
                return f"{name} is {describe(have[name], 80)}, expected {describe(value, 80)}"
        return False

    return test
