"""Plain data: the values an exercise's spec sends between processes, as JSON.

The grader calls the student's function in the student's process and compares
in its own (DESIGN.md, "Trust boundary"). What crosses is JSON, so a spec's
inputs and compared values are plain data: None, bools, numbers, text, lists,
dicts, and tagged forms for what JSON lacks: a tuple, a ``Decimal``, a dict whose keys
are not all texts (``{1: "x"}``, as its items),
``Raised`` (what the student's code raised, as text) and ``Opaque`` (a value
that is not plain, as its description). ``to_plain`` and
``from_plain`` turn one into the other; ``from_plain(to_plain(v)) == v`` with
the same types all the way down.

Left out: sets, bytes and objects (a spec with such inputs declares an adapter:
its ``observe`` turns them into plain data in the student's process).
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from .values import Shown

__all__ = ["Opaque", "Raised", "from_plain", "is_plain", "to_plain"]


class Raised(Shown):
    """What a student's call raised, kept as its text: "raised KeyError: 'x'".

    >>> Raised.of(KeyError("x"))
    raised KeyError: 'x'
    """

    __slots__ = ()

    @classmethod
    def of(cls, error: BaseException) -> Raised:
        from .values import error_text

        return cls(f"raised {error_text(error)}")


class Opaque(Shown):
    """A returned value that is not plain data, kept as its description (it equals no key value)."""

    __slots__ = ()


def to_plain(value: Any) -> Any:
    """``value`` as JSON-ready data; a value that is not plain raises TypeError.

    >>> to_plain((1, [None, "a"], {"k": Decimal("2.50")}))
    {'tuple': [1, [None, 'a'], {'dict': {'k': {'decimal': '2.50'}}}]}
    """
    if isinstance(value, Raised | Opaque):
        return {type(value).__name__.lower(): str(value)}
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, Decimal):
        return {"decimal": str(value)}
    if isinstance(value, tuple):
        return {"tuple": [to_plain(item) for item in value]}
    if isinstance(value, list):
        return [to_plain(item) for item in value]
    if isinstance(value, dict) and all(isinstance(key, str) for key in value):
        return {"dict": {key: to_plain(item) for key, item in value.items()}}
    if isinstance(value, dict):  # keys that are not all texts (whole numbers too): its items, in order
        return {"items": [[to_plain(key), to_plain(item)] for key, item in value.items()]}
    raise TypeError(f"not plain data: {type(value).__name__} (declare an adapter in the spec)")


def from_plain(data: Any) -> Any:
    """The value ``to_plain`` made ``data`` from.

    >>> from_plain(to_plain(("a", [1.5, True], {"x": None}))) == ("a", [1.5, True], {"x": None})
    True
    >>> list(from_plain(to_plain({"b": 2, 1: "a"})).items())
    [('b', 2), (1, 'a')]
    """
    if isinstance(data, list):
        return [from_plain(item) for item in data]
    if not isinstance(data, dict):
        return data
    (tag, inner), = data.items()
    if tag == "tuple":
        return tuple(from_plain(item) for item in inner)
    if tag == "dict":
        return {key: from_plain(item) for key, item in inner.items()}
    if tag == "items":
        return {from_plain(key): from_plain(item) for key, item in inner}
    return {"decimal": Decimal, "raised": Raised, "opaque": Opaque}[tag](inner)


def is_plain(value: Any) -> bool:
    """Can ``value`` cross to another process and come back the same?

    >>> is_plain(("x", [1])), is_plain({1: "a"}), is_plain({(1, 2): "a"}), is_plain(object())
    (True, True, True, False)
    """
    try:
        to_plain(value)
    except TypeError:
        return False
    return True
