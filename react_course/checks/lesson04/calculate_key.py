"""04.strict_calculate's answer key: the statement's own walk over the expression's tree.

In a module of its own, so that the spec (``strict_calculate.py``) and its faults
(``expressions.py``) both import it without importing each other.

>>> key("2 ** 10"), key(" 7 // 2 "), key("1 / 0")
('1024', '3', 'Error: division by zero')
"""

from __future__ import annotations

import ast
import math
from typing import Any

from ...calculator import _BINARY as OPERATORS

__all__ = ["check_power", "key"]


def check_power(base: int | float, exponent: int | float) -> None:
    if abs(exponent) > 100:
        raise ValueError(f"the exponent {exponent} is too large (at most 100)")
    whole = isinstance(base, int) and isinstance(exponent, int)
    if whole and abs(base) > 1 and exponent > 0 and exponent * math.log10(abs(base)) >= 100:
        raise ValueError("the result would have more than 100 digits")


def _finite(value: Any) -> int | float:
    if isinstance(value, complex) or (isinstance(value, float) and not math.isfinite(value)):
        raise ValueError("the result is not a finite real number")
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
    raise ValueError(f"{type(node).__name__} is not allowed: use numbers, + - * / // % ** and ( )")


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
    except Exception as error:  # RecursionError from a very long expression, and the refusals
        return f"Error: {error}"
