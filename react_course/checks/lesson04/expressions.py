"""04.strict_calculate's inputs, rules and faults: what is sent, what it exercises, what went wrong.

Every generated expression is cheap for any calculator, capped or not: a power's
exponent is a literal of at most four digits and its base a literal or one
parenthesised power of literals, so ``(9 ** 100) ** 100`` (9,543 digits, instant)
is the largest. The one expression that would hang an uncapped calculator,
``9 ** 9 ** 9``, is only ever sent to a child process (``strict_calculate.py``).
"""

from __future__ import annotations

import ast
import dataclasses
from collections.abc import Callable, Iterator
from typing import Any

from ...web import browser
from ..generated import Draw
from ..plain import Raised
from ..spec import GENERATED, Example, Fault, Rule
from . import _isolated
from .calculate_key import key

HUGE = "9 ** 9 ** 9"
HUGE_CASE = f"{HUGE} is refused, not computed (run in a separate process)"
LONG_CASE = "a very long sum gives a text, not an exception"
NOT_RUN = f"({HUGE} was NOT run: "
STOPPED = f"(no answer: the separate process used its {_isolated.CHILD_SECONDS} CPU seconds and was stopped)"
# 6,000 terms: Python's parser raises RecursionError. A browser tab's stack ends the kernel at 5,000
# (Pyodide under Node parses 4,000), so there 1,500: parsed, and still past the recursion limit of an
# evaluator that recurses once per operator.
LONG_TERMS, BROWSER_TERMS = 6000, 1500
LONG = {" + ".join(["1"] * terms): terms for terms in (LONG_TERMS, BROWSER_TERMS)}


def skipped() -> str:
    """Why 9 ** 9 ** 9 is not sent here."""
    if browser.IN_BROWSER:
        return "skipped in the browser: no separate process can start in a tab; the check runs it on a laptop"
    return "skipped: this platform cannot run it in a separate process"


def in_this_edition(example: Example) -> Example:
    """In a tab: the long sum the tab's stack can parse; without fork: 9 ** 9 ** 9 named as skipped."""
    if example.name == HUGE_CASE and not _isolated.can_fork():
        return dataclasses.replace(example, name=f"{HUGE} is refused ({skipped()})")
    if example.name == LONG_CASE and browser.IN_BROWSER:
        return dataclasses.replace(example, args=((" + ".join(["1"] * BROWSER_TERMS),),),
                                   note="# 1,500 terms in the browser: 6,000 would overflow the tab's stack")
    return example


CONSTANTS = "`int` and `float` constants (not `True` or `False`, not strings)"
OPERATORS = "the operators `+ - * / // % **`"
UNARY = "unary minus and plus"
REFUSED = "names, function calls, attribute access, strings, lists, comparisons, other operators"
BEFORE = "before it is computed"
EXPONENT = "Exponent cap:"
HUNDRED = "`2 ** 100` is allowed"
SIZE = "Size cap:"
TEN = "`10 ** 100`, with 101 digits, is refused"
SPACES = "Spaces, tabs and newlines around the expression are allowed"
TEXTS = "Errors are texts, never exceptions"
ZERO = "Division by zero gives `Error: division by zero`"
FINITE = "not a finite real number"
VALUE = "The result is the value as text"


def nodes(expression: str) -> list[ast.AST]:
    """Every node of the expression's tree ([] when it does not parse)."""
    try:
        return list(ast.walk(ast.parse(expression.strip(), mode="eval")))
    except (SyntaxError, RecursionError, ValueError):
        return []


def _has(expression: str, *kinds: type) -> bool:
    return any(isinstance(node, kinds) for node in nodes(expression))


def _odd_constant(expression: str) -> bool:
    return any(isinstance(n, ast.Constant) and type(n.value) not in (int, float) for n in nodes(expression))


def _other(expression: str) -> bool:
    """Syntax the statement refuses by name: names, calls, attributes, lists, comparisons, ~ & ^ ..."""
    allowed = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow, ast.USub, ast.UAdd)
    return any(isinstance(n, ast.Name | ast.Call | ast.Attribute | ast.List | ast.Compare | ast.BoolOp)
               or (isinstance(n, ast.operator | ast.unaryop) and not isinstance(n, allowed))
               for n in nodes(expression))


def pairs(args: tuple, expected: list, got: list) -> Iterator[tuple[str, Any, Any]]:
    """(expression, the key's answer, the student's answer) for each expression of a case."""
    yield from zip(args[0], expected, got, strict=True)


def _error(answer: Any, word: str = "") -> bool:
    return isinstance(answer, str) and answer.startswith("Error:") and word in answer.lower()


def _edge(test: Callable[[str], bool]) -> Callable[[tuple], bool]:
    return lambda args: any(test(expression) for expression in args[0])


RULES = (
    Rule(CONSTANTS, ("booleans are refused", "strings and lists are refused", GENERATED),
         _edge(_odd_constant)),
    Rule(OPERATORS, ("every allowed operator", GENERATED), _edge(lambda e: "//" in e or "%" in e)),
    Rule(UNARY, ("arithmetic with parentheses and signs", GENERATED), _edge(lambda e: _has(e, ast.UnaryOp))),
    Rule(REFUSED, ("names and function calls are refused", "attribute access is refused",
                   "strings and lists are refused", "other operators are refused", GENERATED), _edge(_other)),
    Rule(BEFORE, ("the exponent is checked before the power is computed", HUGE_CASE, GENERATED),
         _edge(lambda e: "0 ** (-101)" in e or "10.0 ** 400" in e)),
    Rule(EXPONENT, ("exponents above 100 are refused", "the exponent is checked before the power is computed",
                    HUGE_CASE, GENERATED), _edge(lambda e: _error(key(e), "exponent"))),
    Rule(HUNDRED, ("powers within both caps are computed", GENERATED),
         _edge(lambda e: "** 100" in e and not _error(key(e)))),
    Rule(SIZE, ("results of more than 100 digits are refused", "powers within both caps are computed",
                GENERATED), _edge(lambda e: _error(key(e), "digits"))),
    Rule(TEN, ("results of more than 100 digits are refused", GENERATED), _edge(lambda e: "10 ** 100" in e)),
    Rule(SPACES, ("spaces around the expression", GENERATED), _edge(lambda e: e != e.strip())),
    Rule(TEXTS, ("division by zero and overflow are error texts", "not an expression",
                 LONG_CASE, GENERATED), _edge(lambda e: _error(key(e)))),
    Rule(ZERO, ("division by zero and overflow are error texts", GENERATED),
         _edge(lambda e: key(e) == "Error: division by zero")),
    Rule(FINITE, ("infinity and nan are refused", "a complex result is refused", GENERATED),
         _edge(lambda e: "finite" in key(e))),
    Rule(VALUE, ("arithmetic with parentheses and signs", "every allowed operator", GENERATED),
         _edge(lambda e: not _error(key(e)))),
)


def _any(test: Callable[[str, Any, Any], bool]) -> Callable[[tuple, Any, Any], bool]:
    return lambda args, expected, got: any(test(*each) for each in pairs(args, expected, got))


def _refused(test: Callable[[str], bool]) -> Callable[[tuple, Any, Any], bool]:
    """The key refuses an expression the student computed, and ``test`` says why it should."""
    return _any(lambda e, want, have: _error(want) and not _error(have) and test(e))


def _too_long(args: tuple, expected: Any, got: Any) -> list[str]:
    """The expressions the key refuses for their digits and the student did not."""
    return [e for e, want, have in pairs(args, expected, got)
            if _error(want, "digits") and not _error(have, "digits")]


def _computed(test: Callable[[str, Any], bool]) -> Callable[[tuple, Any, Any], bool]:
    """The key computes an expression the student refused, and ``test`` (on it and the error) says why."""
    return _any(lambda e, want, have: not _error(want) and _error(have) and test(e, have))


FAULTS = (
    Fault(ZERO, "Catch ZeroDivisionError and return exactly 'Error: division by zero'.",
          _any(lambda e, want, have: want == "Error: division by zero" != have)),
    Fault(TEXTS, "Every failure must come back as an 'Error: ...' text: one try/except Exception around "
                 "parsing and evaluating (RecursionError and OverflowError are Exceptions too).",
          _any(lambda e, want, have: isinstance(have, Raised))),
    Fault(EXPONENT, "The cheap powers above must be refused first: without both caps, 9 ** 9 ** 9 runs "
                    "for hours.", _any(lambda e, want, have: str(have).startswith(NOT_RUN))),
    Fault(BEFORE, "Your calculator computes the power before it checks the caps: check first, then compute.",
          _any(lambda e, want, have: str(have) == STOPPED)),
    Fault(BEFORE, "Any error but one about the exponent shows the power was computed first (or that the cap "
                  "forgot abs(): -101 is too large too). Check abs(exponent) > 100 before computing.",
          _any(lambda e, want, have: _error(want, "exponent") and _error(have)
               and "exponent" not in have.lower())),
    Fault(EXPONENT, "Check the exponent's value, after evaluating it: abs(exponent) > 100 is refused, "
                    "whatever the base and however it is written.",
          _refused(lambda e: "exponent" in key(e))),
    Fault(TEN, "10 ** 100 has exactly 101 digits: refuse when exponent * log10(abs(base)) >= 100, not > 100.",
          lambda args, want, got: _too_long(args, want, got) == ["10 ** 100"]),
    Fault(SIZE, "Before computing an integer power, estimate its length: refuse when abs(base) > 1, "
                "exponent > 0 and exponent * math.log10(abs(base)) >= 100 (abs() for a negative base).",
          lambda args, want, got: bool(_too_long(args, want, got))),
    Fault(CONSTANTS, "Accept ast.Constant only when type(value) is int or float: True is an int to Python, "
                     "and a string is a constant too.", _refused(_odd_constant)),
    Fault(REFUSED, "Allow only numbers, the seven operators and unary - and +: any other node (a name, a "
                   "call, an attribute, ~, &, a comparison) is an error. Never call eval.", _refused(_other)),
    Fault(FINITE, "After each operation, refuse a complex value and a float that is not math.isfinite.",
          _any(lambda e, want, have: "finite" in want and not _error(have))),
    Fault(SPACES, "Strip the spaces, tabs and newlines around the expression before ast.parse.",
          _computed(lambda e, error: e != e.strip())),
    Fault(HUNDRED, "An exponent of 100 is allowed: refuse abs(exponent) > 100, not >= 100.",
          _computed(lambda e, error: "exponent" in error.lower() and "** 100" in e)),
    Fault(EXPONENT, "Refuse an exponent only when it is larger than 100 in size: abs(exponent) > 100 "
                    "(2 ** -2 and 2 ** 0.5 are fine).",
          _computed(lambda e, error: "exponent" in error.lower())),
    Fault(UNARY, "Handle ast.UnaryOp with ast.USub (-x) and ast.UAdd (+x).",
          _computed(lambda e, error: _has(e, ast.UnaryOp))),
    Fault(OPERATORS, "Allow all seven operators: + - * / // % **.", _computed(lambda e, error: True)),
    Fault(VALUE, "Return the value as str(value) writes it: an int stays '474', a float stays '1830000.0'.",
          _any(lambda e, want, have: not _error(want) and e not in LONG and have != want)),
)

# The parts of an expression without a fault: every value they make is finite, no divisor is 0.
NUMBERS = ("2", "7", "10", "100", "9", "11", "0.5", "2.5", "3.0", "1e-5", "1", "0.1", "0.2")
POWERS = ("2 ** 100", "10 ** 99", "9 ** 100", "(-3) ** 99", "-2 ** 100", "2.0 ** -2", "1 ** 100", "2 ** 3")
# One fault per expression, of one kind.
FAULTY = ("2 ** 101", "0 ** (-101)", "2 ** 1000", "9 ** 100.5", "10.0 ** 400", "(-1) ** 101",
          "10 ** 100", "11 ** 100", "(9 ** 100) ** 100", "(-11) ** 99", "(10 ** 50) ** 3",
          "1 / 0", "7 // 0", "5 % 0", "0 ** -2", "2.5 / 0", "1e300 ** 2",
          "x", "True", "'a'", "[1]", "abs(2)", "(1).real", "٣", "1 < 2", "~1", "1 & 3", "not 1", "2 ^ 8",
          "1,000", "2 +", "(3", "* 2", "1e308 * 10", "(-8) ** 0.5", "1e309")


def _term(draw: Draw) -> str:
    kind = draw.below(4)
    if kind == 1:
        return draw.pick(POWERS)
    if kind == 2:
        return f"{draw.pick(('-', '+'))}{draw.pick(NUMBERS)}"
    if kind == 3:
        return f"({draw.pick(NUMBERS)}{draw.pick((' + ', ' - ', ' * '))}{draw.pick(NUMBERS)})"
    return draw.pick(NUMBERS)


def inputs(draw: Draw) -> tuple:
    """One expression of a few terms, at most one of them faulty, maybe with spaces around it."""
    terms = [_term(draw) for _ in range(draw.below(5))]
    if draw.below(3):
        terms.insert(draw.below(len(terms) + 1), draw.pick(FAULTY))
    terms = terms or [draw.pick(NUMBERS)]
    text = terms[0]
    for term in terms[1:]:
        text += draw.pick((" + ", " - ", " * ", "+", "*")) + term
    if draw.below(4) == 3:  # a division by a literal that is not 0
        text += draw.pick((" / ", " // ", " % ")) + draw.pick(NUMBERS)
    return (f"{draw.pick(('', ' ', '  ', chr(9), chr(10) + ' '))}{text}{draw.pick(('', ' ', chr(10)))}",),


HIDDEN = tuple(Example(f"hidden case {number}", (expressions,), "Compare with the statement's rules.")
               for number, expressions in enumerate((
                   ("(7 - 2) ** 3 % 4", "2.5 * -4", "3 ** 63", " 10 // 3 "),
                   ("7 ** 120", "(-7) ** 101", "2 ** -101", "12 ** 93"),
                   ("1 - 1e309", "0 / 0.0", "(-27) ** (1 / 3)", "False"),
                   ("round(2.5)", "1 if 2 else 3", "2 @ 3", "lambda: 1"),
               ), 1))
