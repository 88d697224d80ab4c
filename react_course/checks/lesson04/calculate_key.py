"""Exercise 4.3's answer key, and the generated expressions its checker compares on.

Every generated expression is cheap for any calculator, capped or not: a power's
exponent is a literal of at most three digits and its base a literal or one
parenthesised power of literals, so ``(9 ** 100) ** 100`` (9,543 digits, instant)
is the largest. The towers that would hang an uncapped calculator are left to the
hand-written case that runs in a separate process.

Compared: a value exactly as text; for an error, only what the statement fixes:
it starts with ``Error:``, says ``exponent`` or ``digits`` for the two caps, and
is ``Error: division by zero`` for a division by zero. Python's own wording of
other errors differs between versions and is never compared.
"""

from __future__ import annotations

import ast
import math
import operator
from typing import Any

from ..generated import Comparison, Draw, register

OPERATORS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
             ast.Div: operator.truediv, ast.FloorDiv: operator.floordiv,
             ast.Mod: operator.mod, ast.Pow: operator.pow}


class Refused(ValueError):
    """An expression the calculator will not compute; the message says which cap or rule."""


def check_power(base: int | float, exponent: int | float) -> None:
    if abs(exponent) > 100:
        raise Refused(f"the exponent {exponent} is too large (at most 100)")
    whole = isinstance(base, int) and isinstance(exponent, int)
    if whole and abs(base) > 1 and exponent > 0 and exponent * math.log10(abs(base)) >= 100:
        raise Refused("the result would have more than 100 digits")


def _finite(value: Any) -> int | float:
    if isinstance(value, complex) or (isinstance(value, float) and not math.isfinite(value)):
        raise Refused("the result is not a finite real number")
    return value


def _evaluate(node: ast.AST) -> int | float:
    if isinstance(node, ast.Constant) and type(node.value) in (int, float):
        return _finite(node.value)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        value = _evaluate(node.operand)
        return -value if isinstance(node.op, ast.USub) else value
    if isinstance(node, ast.BinOp) and type(node.op) in OPERATORS:
        left, right = _evaluate(node.left), _evaluate(node.right)
        if isinstance(node.op, ast.Pow):
            check_power(left, right)
        return _finite(OPERATORS[type(node.op)](left, right))
    raise Refused(f"{type(node).__name__} is not allowed: use numbers, + - * / // % ** and ( )")


def key(expression: str) -> str:
    """The answer key. Spaces around the expression are not an indentation: strip them first."""
    try:
        return str(_evaluate(ast.parse(expression.strip(), mode="eval").body))
    except ZeroDivisionError:
        return "Error: division by zero"
    except OverflowError:
        return "Error: the result is too large for a float"
    except SyntaxError:
        return f"Error: {expression!r} is not an arithmetic expression"
    except Exception as error:  # RecursionError from a very long expression, and Refused
        return f"Error: {error}"


# The parts of an expression without a fault: every value they make is finite, no divisor is 0.
NUMBERS = ("2", "7", "10", "100", "9", "11", "0.5", "2.5", "3.0", "1e-5", "1")
POWERS = ("2 ** 100", "10 ** 99", "9 ** 100", "(-3) ** 99", "-2 ** 100", "2.0 ** -2", "1 ** 100", "2 ** 3")
# One fault per expression, of one kind; the statement fixes the words of the first three.
FAULTS = {
    "exponent": ("2 ** 101", "0 ** (-101)", "2 ** 1000", "9 ** 100.5", "10.0 ** 400", "(-1) ** 101"),
    "digits": ("10 ** 100", "11 ** 100", "(9 ** 100) ** 100", "(-11) ** 99", "(10 ** 50) ** 3"),
    "zero": ("1 / 0", "7 // 0", "5 % 0", "0 ** -2", "2.5 / 0"),
    "refused": ("x", "True", "'a'", "[1]", "abs(2)", "(1).real", "٣", "1 < 2", "~1", "1 & 3", "not 1"),
    "syntax": ("1,000", "2 +", "(3", "* 2"),
    "not finite": ("1e308 * 10", "(-8) ** 0.5", "1e309"),
}


def _term(draw: Draw) -> str:
    kind = draw.below(4)
    if kind == 1:
        return draw.pick(POWERS)
    if kind == 2:
        return f"-{draw.pick(NUMBERS)}"
    if kind == 3:
        return f"({draw.pick(NUMBERS)}{draw.pick((' + ', ' - ', ' * '))}{draw.pick(NUMBERS)})"
    return draw.pick(NUMBERS)


def _inputs(draw: Draw) -> tuple:
    """(expression, its one fault or "") for an expression of a few terms."""
    terms = [_term(draw) for _ in range(draw.below(5))]
    fault = draw.pick(("", "", *FAULTS))
    if fault:
        terms.insert(draw.below(len(terms) + 1), draw.pick(FAULTS[fault]))
    terms = terms or [draw.pick(NUMBERS)]
    text = terms[0]
    for term in terms[1:]:
        text += draw.pick((" + ", " - ", " * ", "+", "*")) + term
    if draw.below(4) == 3:  # a division by a literal that is not 0
        text += draw.pick((" / ", " // ", " % ")) + draw.pick(NUMBERS)
    around = draw.pick(("", " ", "  ", "\t", "\n "))
    return f"{around}{text}{draw.pick(('', ' ', chr(10)))}", fault


def _compare(args: tuple, expected: str, got: Any) -> bool | str:
    fault = args[1]
    if not isinstance(got, str):
        return f"return text, not {type(got).__name__}"
    if not expected.startswith("Error:"):
        return got == expected or f"expected the value {expected}"
    if not got.startswith("Error:"):
        return "expected an 'Error: ...' text"
    if fault in ("exponent", "digits") and fault not in got.lower():
        return f"the error should say {fault!r}"
    if fault == "zero" and got != "Error: division by zero":
        return "a division by zero gives exactly 'Error: division by zero'"
    return True


COMPARISON = register(Comparison(
    "04.strict_calculate", lambda expression, fault: key(expression), _inputs, _compare,
    lambda args: f"strict_calculate({args[0]!r})", call=lambda student, args: student(args[0]),
    hint="Strip the spaces around the expression before parsing; check both caps before each power; "
         "give a value exactly as str() writes it."))
