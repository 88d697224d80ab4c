"""04.tool_list as a spec: the prompt's tool list, generated from names, type hints and docstrings.

The key is the library's ``ToolRegistry.describe`` (its ``ToolDefinitionError`` is a
``ValueError``, as the statement asks). The arguments are plain data, each tool as
``(name, ((parameter, hint or "", default or ""), ...), return hint or "", docstring
or None)``; ``observe`` writes each one out as a real function and compiles it, so
its type hints are real types (``str``, not the text ``'str'``), as in a notebook.
Left out, because the statement does not settle them: blank docstrings, a docstring
that is only a doctest, hints that are not plain types (``list[int]``), two tools of
one name (the library refuses them).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from ...tools.registry import ToolRegistry
from ..generated import Draw
from ..plain import Raised
from ..spec import GENERATED, Example, Fault, Rule, Spec, define
from ..values import describe


def key(functions: list[Callable]) -> str:
    return ToolRegistry(functions).describe()


@functools.cache
def _compiled(source: str) -> Any:
    """Compiled once: the same definitions come back while shrinking. Our own text, never the student's."""
    return compile(source, "<a tool>", "exec", dont_inherit=True)  # real types as hints


def build(tool: tuple) -> Callable:
    """The function a plain tool describes, written out and compiled."""
    name, parameters, returns, doc = tool
    written = ", ".join(p + (f": {hint}" if hint else "") + (f" = {default}" if default else "")
                        for p, hint, default in parameters)
    space: dict[str, Any] = {}
    exec(_compiled(f"def {name}({written}){f' -> {returns}' if returns else ''}:\n    return 'x'\n"), space)
    function = space[name]
    function.__doc__ = doc
    return function


def observe(function: Any, args: tuple) -> dict[str, str]:
    try:
        return {"returned": function([build(tool) for tool in args[0]])}
    except ValueError as error:
        return {"raised ValueError": str(error)}


def _bad(tools: list) -> list[str]:
    """The tools the statement says to refuse: no docstring, or a parameter without a hint."""
    return [name for name, parameters, _, doc in tools
            if not doc or any(not hint for _, hint, _ in parameters)]


def compare(args: tuple, expected: dict, got: Any) -> bool | str:
    if "raised ValueError" in expected:
        if "raised ValueError" not in got:
            return "a tool without a docstring, or with a parameter without a hint, raises ValueError"
        return any(name in got["raised ValueError"] for name in _bad(args[0])) or (
            f"the ValueError's message should name the function ({_bad(args[0])[0]!r})")
    if not isinstance(got.get("returned"), str):
        return f"every tool here has a docstring and a hint for each parameter; got {_shown(got)}"
    have, want = got["returned"].rstrip("\n").split("\n"), expected["returned"].split("\n")
    if len(have) != len(want):
        return f"expected {len(want)} line(s), one per tool, got {len(have)}"
    for number, (line, right) in enumerate(zip(have, want, strict=True), 1):
        if line != right:
            at = next((i for i, (a, b) in enumerate(zip(line, right, strict=False)) if a != b),
                      min(len(line), len(right)))
            start = max(0, at - 15)
            return (f"line {number} differs from character {at + 1}: expected ...{right[start:at + 25]!r}, "
                    f"got ...{line[start:at + 25]!r}")
    return True


def _shown(got: Any) -> str:
    if isinstance(got, Raised):
        return str(got)
    kind, value = next(iter(got.items()))
    return f"{kind} {describe(value, 160)}" if kind != "returned" else f"returned {describe(value, 160)}"


ORDER = "One line per function, in the order given"
FORMAT = "`- name(param: type, ...): description`"
TYPES = "Types are the hints' names"
LEAVE_OUT = "leave out the return type and default values"
DOCTEST = "up to its first doctest line"
SPACES = "every run of spaces and newlines becomes one space"
NO_DOC = "A function without a docstring"
NO_HINT = "a parameter that has no type hint"
RAISE = "raise `ValueError` with a message that names the function"


def _lines(test: Callable[[list, str, str], bool]) -> Callable[[tuple, Any, Any], bool]:
    """A fault seen in the lines: ``test(tools, the key's text, the student's text)``."""
    return lambda args, want, got: isinstance(got.get("returned"), str) and "returned" in want and test(
        args[0], want["returned"], got["returned"].rstrip("\n"))


def _heads(text: str) -> list[str]:
    """Each line's part before its description: '- name(...)'."""
    return [line.split("): ", 1)[0] for line in text.split("\n")]


def _shows_more(line: str) -> bool:
    """A line that shows a return type, a 'return' parameter or a default value."""
    return ") ->" in line or "return:" in line or " = " in line[: line.find(")")]


def _refused(test: Callable[[tuple], bool]) -> Callable[[tuple, Any, Any], bool]:
    return lambda args, want, got: "raised ValueError" in want and "returned" in got and any(
        test(tool) for tool in args[0])


FAULTS = (
    Fault(NO_DOC, "A tool the model cannot read about must stop the program: raise ValueError naming the "
                  "function when inspect.getdoc(f) is empty, never leave it out.",
          _refused(lambda t: not t[3])),
    Fault(NO_HINT, "Check every parameter of inspect.signature(f) against typing.get_type_hints(f): a "
                   "missing one raises ValueError.", _refused(lambda t: any(not h for _, h, _ in t[1]))),
    Fault(RAISE, "Raise ValueError (not another error) with a message that names the function, e.g. "
                 "f\"tool {f.__name__!r} has no docstring\".",
          lambda args, want, got: "raised ValueError" in want and "returned" not in got),
    Fault(ORDER, "Keep the order of the list: the person who wrote it chose it.",
          _lines(lambda tools, want, have: sorted(have.split("\n")) == sorted(want.split("\n")))),
    Fault(ORDER, "One line per function of this call, nothing kept from an earlier one (a default argument "
                 "such as lines=[] is made once, when the function is defined, and keeps growing).",
          _lines(lambda tools, want, have: have.count("\n") > want.count("\n"))),
    Fault(DOCTEST, "Stop at the first line that starts with '>>>' (not at '>>>' inside a line): examples for "
                   "humans are noise for the model.",
          _lines(lambda tools, want, have: have.count(">>>") != want.count(">>>"))),
    Fault(SPACES, "Join the docstring's lines with single spaces: ' '.join(text.split()) (all of it, not "
                  "only the first line).", _lines(lambda tools, want, have: have != want and (
                      have.split() == want.split() or (want.startswith(have.split(": ", 1)[0])
                      and " ".join(have.split()) in want)))),
    Fault(LEAVE_OUT, "Show each parameter as 'name: type', nothing more: no '= default', no '-> return "
                     "type', no 'return' entry from get_type_hints.",
          _lines(lambda tools, want, have: any(tool[1] and _shows_more(line) for tool, line in
                                               zip(tools, have.split("\n"), strict=False)))),
    Fault(TYPES, "Write each parameter as 'name: type' with the type's __name__ (str, float, int).",
          _lines(lambda tools, want, have: _heads(have) != _heads(want) and all(
              "->" not in h for h in _heads(have)))),
)

DOCS = {
    "price": "Return the price of one shop item, by its singular name. Example input: notebook",
    "convert": 'Convert an amount of rupees into another currency.\n\n    Returns the converted amount with '
               'two decimals. Use it only for money,\n    never for units such as metres. Example input: '
               '{"amount": 480, "currency": "EUR"}\n    ',
    "today": "Return today's date. Takes no input.",
    "order": "Look up an order by its five-digit number.\n    Example input: 88213\n\n"
             "    >>> _get_order(88213)\n    '88213'\n    ",
}
PRICE = ("_price", (("item", "str", ""),), "str", DOCS["price"])
CONVERT = ("_convert", (("amount", "float", ""), ("currency", "str", "'EUR'")), "str", DOCS["convert"])
TODAY = ("_today", (), "str", DOCS["today"])
ORDER_TOOL = ("_get_order", (("order_id", "int", ""),), "str", DOCS["order"])


def _tools(name: str, tools: tuple, hint: str, note: str = "") -> Example:
    return Example(name, (list(tools),), hint, note)


EXAMPLES = (
    _tools("one tool, one line", (PRICE,),
           "'- ' + name + '(param: type)' + ': ' + description; no return type."),
    _tools("docstring spread over several lines and paragraphs", (CONVERT,),
           "Join the docstring's lines with single spaces; show each parameter without its default."),
    _tools("doctest lines left out", (ORDER_TOOL,), "Stop at the first line that starts with '>>>'."),
    _tools("a tool without parameters", (TODAY,),
           "No parameters still gets its parentheses: '- _today(): ...'."),
    _tools("tools in the order given", (TODAY, PRICE, ORDER_TOOL), "Keep the order of the list."),
    _tools("every type named", (PRICE, CONVERT), "Write each parameter as 'name: type' (str, float, int)."),
    _tools("a function without a docstring is refused",
           (PRICE, ("_no_docstring", (("query", "str", ""),), "str", None)),
           "Raise ValueError naming the function: the docstring is all the model knows about a tool."),
    _tools("a parameter without a type hint is refused",
           (("_no_hint", (("query", "", ""),), "str",
             "Search the encyclopedia. Example input: Eiffel Tower"),),
           "Compare the parameters with typing.get_type_hints(f); a missing one raises ValueError."),
    _tools("every parameter needs a hint, not just one",
           (("_half_hinted", (("item", "str", ""), ("count", "", "")), "str", "Return the price of several "
             "items of one kind. Example input: pen"),),
           "Check each parameter, not just whether the function has any hint.", "# count has no hint"),
    _tools("a tool without parameters needs only a docstring", (("_roll", (), "", "Roll a die."),),
           "With no parameters there is no hint to miss: only the docstring is required."),
)
HIDDEN = (
    _tools("hidden case 1", (("größe", (("ключ", "bool", "False"),), "int", "Zürich's size.\n\n\tIn °C."),),
           "Types and text as they are, in any alphabet."),
    _tools("hidden case 2", (PRICE, ("lookup", (("n", "int", ""), ("q", "", "None")), "", "Look up.")),
           "Every parameter needs a hint, even one with a default."),
)

NAMES = ("price", "convert", "get_order", "größe", "today", "lookup")
PARAMETERS = ("item", "amount", "currency", "n", "ключ")
TYPES_DRAWN = ("str", "int", "float", "bool", "")
DEFAULTS = {"str": "'x'", "bool": "False", "": "None"}
PROSE = ("Return the price of one item.", "Convert   an amount\tof rupees.", "Zürich's weather, in °C.",
         "Example input: 88213", "Use it only for money: 2 >>> 1 is no doctest.")


def _docstring(draw: Draw) -> str | None:
    if draw.below(6) == 5:
        return None
    lines = [draw.pick(PROSE)] + [draw.pick(("", *PROSE, ">>> price('pen')", "'A pen costs 2.'"))
                                  for _ in range(draw.below(4))]
    return "\n    ".join(lines) + draw.pick(("", "\n    ", "\n"))


def _tool(draw: Draw, name: str) -> tuple:
    parameters, defaults = [], False
    for parameter in dict.fromkeys(draw.pick(PARAMETERS) for _ in range(draw.below(4))):
        hint = draw.pick(TYPES_DRAWN)
        defaults = defaults or draw.below(4) == 3  # after one default, every later one has one too
        parameters.append((parameter, hint, DEFAULTS.get(hint, "1") if defaults else ""))
    return name, tuple(parameters), draw.pick(("str", "", "int")), _docstring(draw)


def inputs(draw: Draw) -> tuple:
    names = list(dict.fromkeys(draw.pick(NAMES) for _ in range(1 + draw.below(4))))
    return ([_tool(draw, name) for name in names],)


RULES = (
    Rule(ORDER, ("one tool, one line", "tools in the order given", GENERATED),
         edge=lambda a: [t[0] for t in a[0]] != sorted(t[0] for t in a[0]) and not _bad(a[0])),
    Rule(FORMAT, ("one tool, one line", "a tool without parameters", GENERATED),
         edge=lambda a: any(not t[1] for t in a[0]) and not _bad(a[0])),
    Rule(TYPES, ("every type named", GENERATED), edge=lambda a: any(h in ("float", "bool") for t in a[0]
                                                                   for _, h, _ in t[1]) and not _bad(a[0])),
    Rule(LEAVE_OUT, ("one tool, one line", "docstring spread over several lines and paragraphs", GENERATED),
         edge=lambda a: any(d for t in a[0] for _, _, d in t[1]) and not _bad(a[0])),
    Rule(DOCTEST, ("doctest lines left out", GENERATED),
         edge=lambda a: any(">>> price" in (t[3] or "") for t in a[0]) and not _bad(a[0])),
    Rule(SPACES, ("docstring spread over several lines and paragraphs", GENERATED),
         edge=lambda a: any("   " in (t[3] or "") for t in a[0]) and not _bad(a[0])),
    Rule(NO_DOC, ("a function without a docstring is refused", GENERATED),
         edge=lambda a: any(t[3] is None for t in a[0])),
    Rule(NO_HINT, ("a parameter without a type hint is refused", "every parameter needs a hint, not just one",
                   "a tool without parameters needs only a docstring", GENERATED),
         edge=lambda a: any(any(h for _, h, _ in t[1]) and not all(h for _, h, _ in t[1]) for t in a[0])),
    Rule(RAISE, ("a function without a docstring is refused", "a parameter without a type hint is refused",
                 GENERATED),
         edge=lambda a: len(a[0]) > 1 and a[0][0][0] not in _bad(a[0]) and bool(_bad(a[0]))),
)


def _written(tool: tuple) -> str:
    """A plain tool as the student would see it: def name(param: hint = default) -> return (docstring)."""
    name, parameters, returns, doc = tool
    shown = ", ".join(p + (f": {h}" if h else "") + (f" = {d}" if d else "") for p, h, d in parameters)
    about = "no docstring" if doc is None else f"docstring {doc!r}"
    return f"def {name}({shown}){f' -> {returns}' if returns else ''} ({about})"


def _show(args: tuple) -> str:
    return f"describe_tools([{'; '.join(_written(tool) for tool in args[0])}])"


SPEC = define(Spec(
    "04.tool_list", "generate the prompt's tool list from names, type hints and docstrings", "describe_tools",
    key, EXAMPLES, inputs, RULES, faults=FAULTS, hidden=HIDDEN, observe=observe, compare=compare, show=_show,
    show_value=_shown, hints=(
        "inspect.signature(f).parameters gives the parameters in order; typing.get_type_hints(f) "
        "gives their types (use the type's __name__, and leave out the 'return' entry).",
        "inspect.getdoc(f) gives the docstring without its indentation. Keep its lines up to the "
        "first one that starts with '>>>', then ' '.join(text.split()) puts it on one line.",
        "Check each function before writing its line: no docstring, or a parameter missing from "
        "get_type_hints(f), raises ValueError(f\"tool {f.__name__!r}: ...\").",
    ),
    generated_hint="Read the parameters from inspect.signature and their types from typing.get_type_hints; "
                   "stop the docstring at its first line that starts with '>>>'; join its words with one "
                   "space."))
__all__ = ["SPEC", "build", "key"]
