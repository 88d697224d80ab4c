"""Check 04.calculate: a calculator that parses with ``ast`` and never evaluates Python.

The check never runs ``9 ** 9 ** 9`` on a calculator that has not first
refused cheap powers above its cap: without a cap that expression would run
inside C code for hours, where no time limit can stop it. ``_huge_power``
sends it only after the calculator refused every one of ``_CAP_PROBES``.
"""

from collections.abc import Callable, Iterable, Iterator
from typing import Any

from .. import exercise
from ..framework import Case, describe

# Cheap powers above the cap, all refused before 9 ** 9 ** 9 is tried: 10.0 ** 400 overflows
# (so a cap checked after computing the power shows), 2 ** (10 * 11) has no literal exponent.
_CAP_PROBES = ("2 ** 101", "10.0 ** 400", "2 ** (10 * 11)")


def _is_error(got: Any) -> bool:
    return isinstance(got, str) and got.startswith("Error:")


def _value_of(got: Any) -> float | None:
    try:
        return float(got)
    except (TypeError, ValueError):
        return None


def _all_right(expected: dict[str, int | float]) -> Callable[[dict], bool | str]:
    def test(got: dict) -> bool | str:
        for expression, value in expected.items():
            answer = got[expression]
            if not isinstance(answer, str):
                return (f"calculate({expression!r}) returned {type(answer).__name__}: "
                        "return text, e.g. str(value)")
            number = _value_of(answer)
            if number is None or abs(number - value) > 1e-9 * max(1.0, abs(value)):
                return f"calculate({expression!r}) returned {answer!r}; it should be {value}"
        return True
    return test


def _all_errors(why: str, must_say: str = "") -> Callable[[dict], bool | str]:
    def test(got: dict) -> bool | str:
        for expression, answer in got.items():
            if not _is_error(answer):
                return f"calculate({expression!r}) returned {describe(answer, 80)}: {why}"
            if must_say and must_say not in answer.lower():
                return f"calculate({expression!r}) returned {answer!r}: the error should say {must_say!r}"
        return True
    return test


def _each(calculate: Callable, expressions: tuple[str, ...]) -> Callable[[], dict]:
    return lambda: {e: calculate(e) for e in expressions}


def _huge_power(calculate: Callable) -> Callable[[], tuple]:
    def run() -> tuple:
        for probe in _CAP_PROBES:
            got = calculate(probe)
            if not (_is_error(got) and "exponent" in got.lower()):
                return ("not run", probe, got)
        return ("ran", "9 ** 9 ** 9", calculate("9 ** 9 ** 9"))
    return run


def _huge_power_test(got: tuple) -> bool | str:
    status, expression, answer = got
    if status == "not run":
        return (f"9 ** 9 ** 9 was NOT run: first, calculate({expression!r}) returned "
                f"{describe(answer, 80)} instead of an error about the exponent, so 9 ** 9 ** 9 "
                "(a number with about 370 million digits) would hang your calculator")
    return (_is_error(answer) and "exponent" in answer.lower()) or (
        f"calculate('9 ** 9 ** 9') returned {describe(answer, 80)}: "
        "refuse it with an error about the exponent")


def _show_huge_power(got: tuple) -> str:
    status, expression, answer = got
    return f"calculate({expression!r}) returned {describe(answer, 120)}" + (
        "; 9 ** 9 ** 9 was not run" if status == "not run" else "")


def _given(expressions: Iterable[str]) -> str:
    """How a case's calls are shown: ``calculate('1 / 0'), calculate('5 // 0')``."""
    return ", ".join(f"calculate({e!r})" for e in expressions)


def _right_case(calculate: Callable, name: str, values: dict[str, int | float], hint: str) -> Case:
    """Each expression (a key of ``values``) must give its value, as text."""
    return Case(name, _each(calculate, tuple(values)), given=_given(values), test=_all_right(values),
                hint=hint)


def _refused_case(calculate: Callable, name: str, expressions: tuple[str, ...], why: str, hint: str,
                  must_say: str = "") -> Case:
    """Each expression must give an 'Error: ...' text (that says ``must_say``)."""
    return Case(name, _each(calculate, expressions), given=_given(expressions),
                test=_all_errors(why, must_say), hint=hint)


def _arithmetic_cases(calculate: Callable) -> Iterator[Case]:
    yield _right_case(calculate, "arithmetic with parentheses", {"(330 - 93) * 2": 474, "3 * 4 + 2 * 2": 16},
                      "Evaluate ast.BinOp by evaluating its left and right sides, then the operator.")
    yield _right_case(calculate, "every allowed operator",
                      {"7 / 2": 3.5, "7 // 2": 3, "7 % 3": 1, "2 ** 10": 1024, "0.15 * 12200000": 1830000},
                      "Allow + - * / // % **: ast.Add, Sub, Mult, Div, FloorDiv, Mod, Pow.")
    yield _right_case(calculate, "unary minus and plus", {"-(3 - 5) * 2": 4, "-2 ** 2": -4, "+5": 5},
                      "Handle ast.UnaryOp with ast.USub (and ast.UAdd).")
    yield _refused_case(calculate, "division by zero is an error text", ("1 / 0", "5 // 0", "5 % 0"),
                        "catch ZeroDivisionError and return 'Error: division by zero'",
                        "Catch ZeroDivisionError and return 'Error: division by zero'.", must_say="zero")


def _refusal_cases(calculate: Callable) -> Iterator[Case]:
    yield _refused_case(calculate, "not an expression", ("2 +", "", "1,000 * 2"),
                        "that is not one arithmetic expression: return an 'Error: ...' text",
                        "Catch SyntaxError from ast.parse; refuse ast.Tuple (what '1,000' parses into).")
    yield _refused_case(calculate, "names are refused", ("x + 1", "__import__('os')"),
                        "names are not numbers: refuse ast.Name",
                        "Only numbers and operators are allowed: any other node is an error.")
    yield _refused_case(calculate, "attribute access is refused",
                        ("().__class__.__name__", "(2).__class__.__name__", "(1).real"),
                        "that is Python's attribute access: an eval-based or attribute-following "
                        "calculator reaches classes this way, with no builtin at all",
                        "Never call eval, and refuse ast.Attribute: the walk from () to every class "
                        "needs no builtin.")
    yield _refused_case(calculate, "function calls are refused", ("abs(-3)", "pow(2, 3)"),
                        "this calculator allows no functions: refuse ast.Call",
                        "Refuse ast.Call like every other node you do not handle.")
    yield _refused_case(calculate, "strings and lists are refused", ("'ab' * 3", "[1, 2]"),
                        "only int and float constants are numbers",
                        "Accept ast.Constant only when its value is an int or a float (not a bool).")


def _power_cases(calculate: Callable) -> Iterator[Case]:
    # The last case may run 9 ** 9 ** 9: _huge_power sends it only after every cap probe was refused.
    yield _refused_case(calculate, "exponents above 100 are refused", _CAP_PROBES,
                        "an exponent above 100 must be refused before the power is computed",
                        "Evaluate the right side first; if it is above 100, raise before calling pow. "
                        "Check the value, not the syntax: '2 ** (10 * 11)' has exponent 110.",
                        must_say="exponent")
    yield _right_case(calculate, "an exponent of exactly 100 is allowed", {"2 ** 100": 2 ** 100},
                      "Refuse exponents larger than 100; 100 itself is fine.")
    yield Case("9 ** 9 ** 9 is refused, not computed", _huge_power(calculate),
               given="calculate('9 ** 9 ** 9'), run only after the cheap powers above were refused",
               test=_huge_power_test, show=_show_huge_power,
               hint="9 ** 9 ** 9 is 9 ** 387420489: check the exponent before computing the power.")


@exercise(
    "04.calculate",
    "a calculator that parses with ast and never evaluates Python",
    hints=(
        "tree = ast.parse(expression, mode='eval'); then walk tree.body with a function that "
        "handles ast.Constant (int or float only), ast.BinOp and ast.UnaryOp, and raises "
        "ValueError for any other node.",
        "Map operator classes to functions: {ast.Add: operator.add, ..., ast.Pow: operator.pow}. "
        "For ast.Pow, check the exponent (the evaluated right side) BEFORE computing the power.",
        "Put one try/except around the whole evaluation in calculate(): SyntaxError, ValueError "
        "and ZeroDivisionError (and any other Exception) become 'Error: ...' texts.",
    ),
)
def calculate_cases(calculate: Callable):
    yield from _arithmetic_cases(calculate)
    yield from _refusal_cases(calculate)
    yield from _power_cases(calculate)
