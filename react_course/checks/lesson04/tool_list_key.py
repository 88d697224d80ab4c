"""Exercise 4.1's answer key, and the generated tools its checker compares on.

Each generated tool is a real function, written out and compiled here (so its
type hints are real types, as in a student's notebook), with a docstring of
prose lines, blank lines, indentation and doctest lines. Left out, because the
statement does not settle them: blank docstrings, a docstring that is only a
doctest, and hints that are not plain types (``list[int]``).
"""

from __future__ import annotations

import functools
import inspect
import typing
from collections.abc import Callable
from typing import Any

from ..generated import Comparison, Draw, register

NAMES = ("price", "convert", "get_order", "größe", "today", "lookup")
PARAMETERS = ("item", "amount", "currency", "n", "ключ")
TYPES = ("str", "int", "float", "bool", "")
PROSE = ("Return the price of one item.", "Convert   an amount\tof rupees.", "Zürich's weather, in °C.",
         "Example input: 88213", "Use it only for money: 2 >>> 1 is no doctest.")


def key(functions: list[Callable]) -> str:
    """The answer key: one line per function, or ValueError naming a function the model cannot use."""
    lines = []
    for function in functions:
        name = function.__name__
        doc = inspect.getdoc(function)
        if not doc:
            raise ValueError(f"tool {name!r} has no docstring")
        hints = typing.get_type_hints(function)
        for parameter in inspect.signature(function).parameters:
            if parameter not in hints:
                raise ValueError(f"tool {name!r}: parameter {parameter!r} has no type hint")
        shown = ", ".join(f"{p}: {hints[p].__name__}" for p in inspect.signature(function).parameters)
        prose = []
        for line in doc.splitlines():
            if line.strip().startswith(">>>"):
                break
            prose.append(line)
        lines.append(f"- {name}({shown}): {' '.join(' '.join(prose).split())}")
    return "\n".join(lines)


def _docstring(draw: Draw) -> str | None:
    if draw.below(6) == 5:
        return None
    lines = [draw.pick(PROSE)]
    for _ in range(draw.below(4)):
        lines.append(draw.pick(("", *PROSE, ">>> price('pen')", "'A pen costs 2.'")))
    return "\n    ".join(lines) + draw.pick(("", "\n    ", "\n"))


@functools.cache
def _compiled(source: str) -> Any:
    """Compiled once: the same few hundred definitions come back while shrinking. Our own text."""
    return compile(source, "<generated tool>", "exec", dont_inherit=True)  # real types as hints


def _tool(draw: Draw, name: str) -> Callable:
    """A function written out and compiled, with real type hints and the drawn docstring."""
    parameters = list(dict.fromkeys(draw.pick(PARAMETERS) for _ in range(draw.below(4))))
    written, defaults = [], False
    for parameter in parameters:
        hint = draw.pick(TYPES)
        written.append(f"{parameter}: {hint}" if hint else parameter)
        defaults = defaults or draw.below(4) == 3  # after one default, every later one has one too
        if defaults:
            written[-1] += " = None" if not hint else {"str": " = 'x'", "bool": " = False"}.get(hint, " = 1")
    returns = draw.pick((" -> str", "", " -> int"))
    space: dict[str, Any] = {}
    exec(_compiled(f"def {name}({', '.join(written)}){returns}:\n    return 'x'\n"), space)
    function = space[name]
    function.__doc__ = _docstring(draw)
    return function


def _inputs(draw: Draw) -> tuple:
    names = list(dict.fromkeys(draw.pick(NAMES) for _ in range(1 + draw.below(4))))
    return ([_tool(draw, name) for name in names],)


def _call(function: Callable, args: tuple) -> tuple[str, Any]:
    try:
        return "returned", function(*args)
    except ValueError as error:
        return "raised ValueError", str(error)


def same_lines(got: Any, expected: str) -> bool | str:
    if not isinstance(got, str):
        return f"describe_tools should return one text, not {type(got).__name__}"
    if got.rstrip("\n") == expected:
        return True
    have, want = got.rstrip("\n").split("\n"), expected.split("\n")
    if len(have) != len(want):
        return f"expected {len(want)} line(s), one per tool, got {len(have)}"
    for number, (line, right) in enumerate(zip(have, want, strict=True), 1):
        if line != right:
            at = _first_difference(line, right)
            start = max(0, at - 15)
            return (f"line {number} differs from character {at + 1}: expected "
                    f"...{right[start:at + 25]!r}, got ...{line[start:at + 25]!r}")
    return False


def _first_difference(one: str, other: str) -> int:
    """Index of the first character where two texts differ.

    >>> _first_difference("price(item)", "price(item: str)")
    10
    """
    shorter = min(len(one), len(other))
    return next((i for i in range(shorter) if one[i] != other[i]), shorter)


def _compare(args: tuple, expected: tuple[str, Any], got: tuple[str, Any]) -> bool | str:
    if expected[0] == "returned":
        if got[0] != "returned":
            return f"every tool here has a docstring and a hint for each parameter; got {got[0]}"
        return same_lines(got[1], expected[1])
    if got[0] == "returned":
        return "a tool without a docstring, or with a parameter without a hint, raises ValueError"
    bad = [f.__name__ for f in args[0] if f.__name__ in expected[1]]
    return any(name in got[1] for name in bad) or f"the ValueError's message should name {bad[0]!r}"


def _show(args: tuple) -> str:
    parts = []
    for function in args[0]:
        doc = "no docstring" if function.__doc__ is None else f"docstring {function.__doc__!r}"
        parts.append(f"def {function.__name__}{inspect.signature(function)} ({doc})")
    return "describe_tools([" + "; ".join(parts) + "])"


COMPARISON = register(Comparison(
    "04.tool_list", lambda functions: _call(key, (functions,)), _inputs, _compare, _show, call=_call,
    hint="Read the parameters from inspect.signature and their types from typing.get_type_hints; "
         "stop the docstring at its first line that starts with '>>>'; join its words with one space."))
