"""Plain data across the sandbox's wall: what a student's function may receive and return.

The grader sends a hidden case's inputs to the kernel and reads back the answer as
JSON. Plain data is ``None``, booleans, numbers, strings, lists, tuples and dicts
with string keys, and the course's own record types (the dataclasses of
``react_course``, e.g. ``parsing.Action``), nested in any way. Anything else (an
object whose ``__eq__`` always says yes, a subclass of ``str``, a class of the
student's) cannot be sent: the grader counts it as a wrong answer, never compares it.

>>> encode(("a", [1, 2.5, None], {"k": True}))
{'tuple': ['a', [1, 2.5, None], {'dict': {'k': True}}]}
>>> decode(encode(("a", [1, 2.5, None], {"k": True})))
('a', [1, 2.5, None], {'k': True})
"""

from __future__ import annotations

import dataclasses
import importlib
from typing import Any

_SCALARS = (type(None), bool, int, float, str)
_COURSE = "react_course."


class NotPlain(TypeError):
    """A value that is not plain data (its type's name is the message)."""


def encode(value: Any, depth: int = 0) -> Any:
    """``value`` as JSON-ready data; tuples, dicts and the course's dataclasses tagged."""
    if depth > 50:
        raise NotPlain("data nested more than 50 deep")
    if type(value) in _SCALARS:  # exact types: a str subclass could lie about equality
        return value
    if type(value) is list:
        return [encode(v, depth + 1) for v in value]
    if type(value) is tuple:
        return {"tuple": [encode(v, depth + 1) for v in value]}
    if type(value) is dict:
        if not all(type(k) is str for k in value):
            raise NotPlain("a dict with keys that are not strings")
        return {"dict": {k: encode(v, depth + 1) for k, v in value.items()}}
    kind = type(value)
    if dataclasses.is_dataclass(value) and kind.__module__.startswith(_COURSE) and _importable(kind):
        fields = {f.name: encode(getattr(value, f.name), depth + 1) for f in dataclasses.fields(value)}
        return {"record": f"{kind.__module__}:{kind.__qualname__}", "fields": fields}
    raise NotPlain(f"{kind.__module__}.{kind.__qualname__}")


def _importable(kind: type) -> bool:
    """The class is the one its module names (not a student's class that borrowed the module's name)."""
    try:
        return _course_class(f"{kind.__module__}:{kind.__qualname__}") is kind
    except (ImportError, AttributeError, ValueError):
        return False


def _course_class(name: str) -> type:
    module, _, qualname = name.partition(":")
    if not module.startswith(_COURSE):
        raise ValueError(f"not a course type: {name}")
    found: Any = importlib.import_module(module)
    for part in qualname.split("."):
        found = getattr(found, part)
    if not (isinstance(found, type) and dataclasses.is_dataclass(found)):
        raise ValueError(f"not a course record: {name}")
    return found


def decode(data: Any) -> Any:
    """The value ``encode`` wrote, rebuilt (course records from the grader's own classes)."""
    if type(data) in _SCALARS:
        return data
    if type(data) is list:
        return [decode(v) for v in data]
    if type(data) is dict and set(data) == {"tuple"}:
        return tuple(decode(v) for v in data["tuple"])
    if type(data) is dict and set(data) == {"dict"}:
        return {k: decode(v) for k, v in data["dict"].items()}
    if type(data) is dict and set(data) == {"record", "fields"}:
        kind = _course_class(data["record"])
        fields = {k: decode(v) for k, v in data["fields"].items()}
        init = {f.name for f in dataclasses.fields(kind) if f.init}
        value = kind(**{k: v for k, v in fields.items() if k in init})
        for key in set(fields) - init:
            object.__setattr__(value, key, fields[key])
        return value
    raise NotPlain(f"unreadable data: {str(data)[:80]}")
