"""A calculator tool that never evaluates Python.

Agent tutorials often write ``eval(expression, {"__builtins__": {}})``. That
is not safe: attribute walks such as ``().__class__.__base__.__subclasses__()``
reach the whole interpreter without any builtin, and ``9**9**9`` hangs the
process while Python computes a number with 370 million digits.

Instead we parse the expression with ``ast`` and walk the tree ourselves,
allowing only numbers, arithmetic operators, parentheses and five functions.
Every operation that could blow up is capped *before* it runs: the input's
length, the tree's depth, exponents, the size of any intermediate number.

``calculate`` never raises and never hangs: every failure is an error text
that says what is allowed, written for the model that will read it.

What it leaves out: variables, units, percentages written with ``%`` (that is
the modulo operator here), and any other math function.
"""

from __future__ import annotations

import ast
import math
import operator
import warnings

MAX_LENGTH = 300  # characters in an expression
MAX_DEPTH = 200  # nesting of the syntax tree (a flat sum of n terms nests n deep)
MAX_PARENTHESES = 50  # Python's own parser gives up on deeper nesting
MAX_EXPONENT = 1000  # largest power we raise to
MAX_DIGITS = 100  # largest integer result, in decimal digits
MAX_ROUND_DIGITS = 15

ALLOWED = (
    "numbers, + - * / // % ** and parentheses (% is the remainder, not percent: "
    "15% of x is 0.15 * x), and the functions sqrt, round, abs, min, max. Example: (330 - 93) * 2"
)

_BINARY = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
    ast.Pow: operator.pow,
}
_UNARY = {ast.UAdd: operator.pos, ast.USub: operator.neg}
_FUNCTIONS = {"sqrt": math.sqrt, "round": round, "abs": abs, "min": min, "max": max}
_SYMBOLS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//",
            ast.Mod: "%", ast.Pow: "**", ast.BitXor: "^", ast.BitAnd: "&", ast.BitOr: "|",
            ast.LShift: "<<", ast.RShift: ">>", ast.MatMult: "@"}


class CalculatorError(ValueError):
    """The expression is not allowed or cannot be computed; the text says why."""


def calculate(expression: str) -> str:
    """Evaluate arithmetic: numbers, + - * / // % ** ( ), sqrt, round, abs, min, max.

    % is the remainder, not percent: write 15% of 12200000 as 0.15 * 12200000.
    Returns the result as text, or an error text that says what is allowed.
    Example input: (330 - 93) * 2

    >>> calculate("(330 - 93) * 2")
    '474'
    >>> calculate("0.15 * 12200000")
    '1830000'
    >>> calculate("9**9**9")
    'Error: the exponent 387420489 is too large (at most 1000). Allowed: ...'
    >>> calculate("__import__('os')")
    "Error: '__import__' is not an allowed function. Allowed: ..."
    """
    try:
        return _format(_evaluate(_parse(expression)))
    except CalculatorError as error:
        return f"Error: {error} Allowed: {ALLOWED}"
    except ZeroDivisionError:
        return f"Error: division by zero. Allowed: {ALLOWED}"
    except OverflowError:
        return f"Error: the result is too large to compute. Allowed: {ALLOWED}"
    except (ArithmeticError, ValueError, TypeError) as error:
        return f"Error: cannot compute that ({error}). Allowed: {ALLOWED}"
    except (RecursionError, MemoryError):
        return f"Error: the expression is too deeply nested. Allowed: {ALLOWED}"


def _parse(expression: object) -> ast.expr:
    if not isinstance(expression, str):
        raise CalculatorError(f"expected the expression as text, got {type(expression).__name__}.")
    text = expression.strip().replace("×", "*").replace("÷", "/").replace("−", "-")
    if not text:
        raise CalculatorError("the expression is empty.")
    if len(text) > MAX_LENGTH:
        raise CalculatorError(f"the expression is {len(text)} characters long (at most {MAX_LENGTH}).")
    if text.count("(") > MAX_PARENTHESES:
        raise CalculatorError(f"too many parentheses (at most {MAX_PARENTHESES}).")
    try:
        with warnings.catch_warnings():  # e.g. "invalid decimal literal": we report our own error
            warnings.simplefilter("ignore", SyntaxWarning)
            tree = ast.parse(text, mode="eval")
    except SyntaxError:
        hint = " Write numbers without thousands separators, e.g. 12200000." if "," in text else ""
        raise CalculatorError(f"{text[:60]!r} is not a valid expression.{hint}") from None
    return tree.body


def _evaluate(node: ast.AST, depth: int = 0) -> int | float:
    if depth > MAX_DEPTH:
        raise CalculatorError(f"the expression is nested too deeply (at most {MAX_DEPTH}).")
    if isinstance(node, ast.Constant):
        if isinstance(node.value, bool) or not isinstance(node.value, int | float):
            raise CalculatorError(f"{node.value!r} is not a number.")
        return _checked(node.value)
    if isinstance(node, ast.BinOp):
        if type(node.op) not in _BINARY:
            symbol = _SYMBOLS.get(type(node.op), type(node.op).__name__)
            tip = " For powers write **." if symbol == "^" else ""
            raise CalculatorError(f"the operator {symbol} is not allowed.{tip}")
        left, right = _evaluate(node.left, depth + 1), _evaluate(node.right, depth + 1)
        if isinstance(node.op, ast.Pow):
            _check_power(left, right)
        return _checked(_BINARY[type(node.op)](left, right))
    if isinstance(node, ast.UnaryOp) and type(node.op) in _UNARY:
        return _checked(_UNARY[type(node.op)](_evaluate(node.operand, depth + 1)))
    if isinstance(node, ast.Call):
        return _call(node, depth)
    if isinstance(node, ast.Name):
        raise CalculatorError(f"{node.id!r} is not a number; names and variables are not allowed.")
    if isinstance(node, ast.Tuple):
        raise CalculatorError("that is a list of values, not one expression. "
                              "Write numbers without thousands separators, e.g. 12200000.")
    raise CalculatorError(f"{type(node).__name__} expressions are not allowed.")


def _call(node: ast.Call, depth: int) -> int | float:
    name = node.func.id if isinstance(node.func, ast.Name) else None
    if name not in _FUNCTIONS:
        shown = name or ast.unparse(node.func)[:40]
        raise CalculatorError(f"{shown!r} is not an allowed function.")
    if node.keywords:
        raise CalculatorError(f"{name}() takes plain values, not keyword arguments.")
    args = [_evaluate(arg, depth + 1) for arg in node.args]
    if name == "round" and len(args) == 2 and abs(args[1]) > MAX_ROUND_DIGITS:
        raise CalculatorError(f"round() keeps at most {MAX_ROUND_DIGITS} digits.")
    if name == "round" and len(args) == 2 and not isinstance(args[1], int):
        raise CalculatorError("round()'s second value must be a whole number of digits.")
    return _checked(_FUNCTIONS[name](*args))


def _check_power(base: int | float, exponent: int | float) -> None:
    """Refuse a power whose result would be huge, before computing it.

    Both caps are needed: the exponent cap alone lets ``(9**100)**100`` through,
    each step small, the result ten thousand digits. Floats need only the
    exponent cap, since they overflow (an error) instead of growing.
    """
    if abs(exponent) > MAX_EXPONENT:
        raise CalculatorError(f"the exponent {exponent} is too large (at most {MAX_EXPONENT}).")
    whole = isinstance(base, int) and isinstance(exponent, int)
    # base ** exponent has floor(exponent * log10(base)) + 1 digits.
    if whole and abs(base) > 1 and exponent > 0 and exponent * math.log10(abs(base)) >= MAX_DIGITS:
        raise CalculatorError(f"the result would have more than {MAX_DIGITS} digits.")


def _checked(value: int | float) -> int | float:
    if isinstance(value, complex):
        raise CalculatorError("the result is not a real number.")
    if isinstance(value, float) and not math.isfinite(value):
        raise CalculatorError("the result is too large or not a number.")
    if isinstance(value, int) and value.bit_length() > MAX_DIGITS * 3.33:
        raise CalculatorError(f"the result would have more than {MAX_DIGITS} digits.")
    return value


def _format(value: int | float) -> str:
    """Whole numbers without '.0'; other floats to 12 significant digits.

    >>> _format(1830000.0), _format(0.1 + 0.2), _format(7)
    ('1830000', '0.3', '7')
    """
    if isinstance(value, float):
        if value.is_integer() and abs(value) < 1e15:
            return str(int(value))
        return format(value, ".12g")
    return str(value)
