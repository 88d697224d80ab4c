"""Check 04.tool_list: the prompt's tool list, generated from names, type hints and docstrings.

The sample tools below are written without ``from __future__ import
annotations`` on purpose: their type hints stay real types (``str``, not the
text ``'str'``), as they are in a student's notebook.
"""

from collections.abc import Callable
from typing import Any

from .. import exercise
from ..framework import Case, describe
from .tool_list_key import COMPARISON, same_lines

GENERATED = COMPARISON.name


def _price(item: str) -> str:
    """Return the price of one shop item, by its singular name. Example input: notebook"""
    return item


def _convert(amount: float, currency: str = "EUR") -> str:
    """Convert an amount of rupees into another currency.

    Returns the converted amount with two decimals. Use it only for money,
    never for units such as metres. Example input: {"amount": 480, "currency": "EUR"}
    """
    return f"{amount} {currency}"


def _today() -> str:
    """Return today's date. Takes no input."""
    return "today"


def _get_order(order_id: int) -> str:
    """Look up an order by its five-digit number.
    Example input: 88213

    >>> _get_order(88213)
    '88213'
    """
    return str(order_id)


def _no_docstring(query: str) -> str:
    return query


def _no_hint(query) -> str:
    """Search the encyclopedia. Example input: Eiffel Tower"""
    return query


def _half_hinted(item: str, count) -> str:
    """Return the price of several items of one kind. Example input: pen"""
    return item


def _no_params_docstring_only():
    """Roll a die."""
    return "4"


_LINES = {
    _price: "- _price(item: str): Return the price of one shop item, by its singular name. "
            "Example input: notebook",
    _convert: "- _convert(amount: float, currency: str): Convert an amount of rupees into another "
              "currency. Returns the converted amount with two decimals. Use it only for money, never "
              'for units such as metres. Example input: {"amount": 480, "currency": "EUR"}',
    _today: "- _today(): Return today's date. Takes no input.",
    _get_order: "- _get_order(order_id: int): Look up an order by its five-digit number. "
                "Example input: 88213",
}


def _tool_list_case(name: str, functions: list, student: Callable, hint: str) -> Case:
    expected = "\n".join(_LINES[f] for f in functions)
    given = f"describe_tools([{', '.join(f.__name__ for f in functions)}])"
    return Case(name, lambda: student(functions), expected=expected, given=given, hint=hint,
                test=lambda got: same_lines(got, expected))


def _raises_value_error(student: Callable, functions: list) -> Callable[[], Any]:
    def run() -> Any:
        try:
            return ("returned", student(functions))
        except ValueError as error:
            return ("raised ValueError", str(error))
    return run


def _names_function(name: str, why: str) -> Callable[[Any], bool | str]:
    def test(got: Any) -> bool | str:
        kind, value = got
        if kind == "returned":
            return f"it returned a value instead of raising ValueError: {why}"
        return name in value or f"the ValueError's message should name the function ({name!r})"
    return test


def _show_outcome(got: tuple[str, Any]) -> str:
    """What describe_tools did, as the student would say it: returned ... or raised ValueError: ..."""
    kind, value = got
    return f"returned {describe(value, 160)}" if kind == "returned" else f"{kind}: {describe(value, 160)}"


RULES = {
    "One line per function, in the order given": ("one tool, one line", "tools in the order given",
                                                  GENERATED),
    "`- name(param: type, ...): description`": ("one tool, one line", "a tool without parameters"),
    "Types are the hints' names": ("every type named",),
    "leave out the return type and default values": ("one tool, one line",
                                                     "docstring spread over several lines and paragraphs",
                                                     GENERATED),
    "up to its first doctest line": ("doctest lines left out", GENERATED),
    "every run of spaces and newlines becomes one space": (
        "docstring spread over several lines and paragraphs", GENERATED),
    "A function without a docstring": ("a function without a docstring is refused",),
    "a parameter that has no type hint": ("a parameter without a type hint is refused",
                                          "every parameter needs a hint, not just one",
                                          "a tool without parameters needs only a docstring"),
    "raise `ValueError` with a message that names the function": (
        "a function without a docstring is refused", "a parameter without a type hint is refused"),
}


@exercise(
    "04.tool_list",
    "generate the prompt's tool list from names, type hints and docstrings",
    rules=RULES,
    hints=(
        "inspect.signature(f).parameters gives the parameters in order; typing.get_type_hints(f) "
        "gives their types (use the type's __name__, and leave out the 'return' entry).",
        "inspect.getdoc(f) gives the docstring without its indentation. Keep its lines up to the "
        "first one that starts with '>>>', then ' '.join(text.split()) puts it on one line.",
        "Check each function before writing its line: no docstring, or a parameter missing from "
        "get_type_hints(f), raises ValueError(f\"tool {f.__name__!r}: ...\").",
    ),
)
def tool_list_cases(describe_tools: Callable):
    yield _tool_list_case(
        "one tool, one line", [_price], describe_tools,
        "One line: '- ' + name + '(param: type)' + ': ' + description. The return type is not shown.")
    yield _tool_list_case(
        "docstring spread over several lines and paragraphs", [_convert], describe_tools,
        "Join the docstring's lines with single spaces (' '.join(text.split())); show each parameter "
        "as 'name: type', without its default value.")
    yield _tool_list_case(
        "doctest lines left out", [_get_order], describe_tools,
        "Stop at the first line that starts with '>>>': examples for humans are noise for the model.")
    yield _tool_list_case(
        "a tool without parameters", [_today], describe_tools,
        "A tool with no parameters still gets its parentheses: '- _today(): ...'.")
    yield _tool_list_case(
        "tools in the order given", [_today, _price, _get_order], describe_tools,
        "Keep the order of the list: the person who wrote it chose it.")
    yield _tool_list_case(
        "every type named", [_price, _convert], describe_tools,
        "Write each parameter as 'name: type' with the type's __name__ (str, float, int).")
    yield Case(
        "a function without a docstring is refused",
        _raises_value_error(describe_tools, [_price, _no_docstring]),
        given="describe_tools([_price, _no_docstring])", show=_show_outcome, test=_names_function(
            "_no_docstring", "a tool the model cannot read about must stop registration, not vanish"),
        hint="Raise ValueError naming the function: the docstring is all the model knows about a tool.")
    yield Case(
        "a parameter without a type hint is refused", _raises_value_error(describe_tools, [_no_hint]),
        given="describe_tools([_no_hint])", show=_show_outcome, test=_names_function(
            "_no_hint", "without a hint the program cannot tell the model (or itself) what the input is"),
        hint="Compare the parameters with typing.get_type_hints(f); a missing one raises ValueError.")
    yield Case(
        "every parameter needs a hint, not just one",
        _raises_value_error(describe_tools, [_half_hinted]),
        given="describe_tools([_half_hinted])  # def _half_hinted(item: str, count) -> str",
        show=_show_outcome,
        test=_names_function("_half_hinted", "the parameter 'count' has no type hint"),
        hint="Check each parameter of inspect.signature(f) against typing.get_type_hints(f), not just "
             "whether the function has any hint.")
    yield Case(
        "a tool without parameters needs only a docstring",
        lambda: describe_tools([_no_params_docstring_only]),
        given="describe_tools([_no_params_docstring_only])",
        expected="- _no_params_docstring_only(): Roll a die.",
        test=lambda got: same_lines(got, "- _no_params_docstring_only(): Roll a die."),
        hint="With no parameters there is no hint to miss: only the docstring is required.")
    yield COMPARISON.case(describe_tools)
