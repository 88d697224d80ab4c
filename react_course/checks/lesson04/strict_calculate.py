"""04.strict_calculate as a spec: a calculator that parses with ``ast`` and never evaluates Python.

The library has no strict calculator (``rc.calculate`` knows five functions and allows
exponents up to 1000), so the key is the statement's walk, written once (``calculate_key.py``). A case
is a few expressions; the compared value is the list of answers. A value is compared
exactly as ``str()`` writes it; an error only as far as the statement fixes it: it
starts with ``Error:``, says ``exponent`` or ``digits`` for the two caps, and is
exactly ``Error: division by zero`` for a division by zero.

No expression sent in the student's own process can hang it (``expressions.py``):
each is cheap even for a calculator without caps. ``9 ** 9 ** 9`` goes only to a
forked child limited in CPU time (``_isolated.py``), and only after the calculator
refused every cheap power; without ``os.fork`` (Windows, a browser tab) it is skipped.
"""

from __future__ import annotations

from typing import Any

from ..plain import Opaque, Raised
from ..spec import GENERATED, Example, Spec, define
from ..values import describe
from . import _isolated
from .calculate_key import key
from .expressions import (
    BROWSER_TERMS,
    FAULTS,
    HIDDEN,
    HUGE,
    HUGE_CASE,
    LONG,
    LONG_CASE,
    LONG_TERMS,
    NOT_RUN,
    RULES,
    STOPPED,
    in_this_edition,
    inputs,
    pairs,
    skipped,
)


def _answer(function: Any, expression: str) -> Any:
    try:
        got = function(expression)
    except NotImplementedError:
        raise
    except Exception as error:
        return Raised.of(error)
    return got if isinstance(got, str | int | float) and not isinstance(got, bool) else Opaque(describe(got))


GATE = {**dict.fromkeys(("2 ** 101", "2 ** (10 * 11)", "0 ** -101", "10.0 ** 400"), "exponent"),
        **dict.fromkeys(("11 ** 100", "(2 ** 100) ** 100", "(9 ** 100) ** 100 % 7"), "digits")}


def _huge(function: Any) -> Any:
    """What the calculator says to 9 ** 9 ** 9, asked in a child, after the cheap powers were refused."""
    if not _isolated.can_fork():  # still called once, so that an unwritten one is "not attempted" here too
        function("1 + 1")
        return skipped()
    if function is key:
        return key(HUGE)
    for probe, word in GATE.items():
        got = _answer(function, probe)
        if not (isinstance(got, str) and got.startswith("Error:") and word in got.lower()):
            return (f"{NOT_RUN}first strict_calculate({probe!r}) gave {describe(got, 80)}, not an error "
                    f"saying {word!r})")
    kind, answer = _isolated.call_in_child(function, HUGE)
    return {"text": answer, "raised": Raised(f"raised {answer}"), "other": Opaque(answer)}.get(
        kind, Opaque(STOPPED))


def observe(function: Any, args: tuple) -> list[Any]:
    (expressions,) = args
    if expressions == (HUGE,):
        return [_huge(function)]
    return [_answer(function, expression) for expression in expressions]


def compare(args: tuple, expected: list, got: list) -> bool | str:
    for expression, want, have in pairs(args, expected, got):
        call = f"strict_calculate({_short(expression)!r})"
        if str(have) == STOPPED:
            return (f"no answer within {_isolated.CHILD_SECONDS} CPU seconds, so the separate process was "
                    "stopped: your calculator computes the power before it checks the caps")
        if str(have).startswith(NOT_RUN):
            return f"{HUGE} was NOT run: the cheap powers above must be refused first"
        if not isinstance(have, str) or isinstance(have, Opaque | Raised):
            return f"{call} gave {describe(have, 80)}: return text"
        if expression in LONG:
            if have != str(LONG[expression]) and not have.startswith("Error:"):
                return f"{call} should give {LONG[expression]} or an 'Error: ...' text"
        elif not want.startswith("Error:"):
            if have != want:
                return f"{call} should give {want!r}, the value as str() writes it"
        elif not have.startswith("Error:"):
            return f"{call} should give an 'Error: ...' text"
        elif want == "Error: division by zero" != have:
            return f"{call}: a division by zero gives exactly 'Error: division by zero'"
        elif (word := next((w for w in ("exponent", "digits") if w in want), "")) and (
                word not in have.lower()):
            return f"{call}: the error should say {word!r}"
    return True


def _short(expression: str) -> str:
    return expression if len(expression) < 60 else f"{expression[:20]}... ({len(expression):,} characters)"


def _show(args: tuple) -> str:
    if args[0] == (HUGE,):
        return f"strict_calculate({HUGE!r})  # in a separate process, after the cheap powers were refused"
    return ", ".join(f"strict_calculate({_short(e)!r})" for e in args[0])


def _example(name: str, *expressions: str, hint: str = "") -> Example:
    return Example(name, (expressions,), hint)


EXAMPLES = (
    _example("arithmetic with parentheses and signs", "(330 - 93) * 2", "3 * 4 + 2 * 2", "-(3 - 5) * 2",
             "-2 ** 2", "+5", hint="Evaluate ast.BinOp from its two sides; ast.UnaryOp with ast.USub and "
             "ast.UAdd for the signs."),
    _example("every allowed operator", "7 / 2", "7 // 2", "7 % 3", "2 ** 10", "0.15 * 12200000", "0.1 + 0.2",
             hint="Allow + - * / // % **: ast.Add, Sub, Mult, Div, FloorDiv, Mod, Pow."),
    _example("spaces around the expression", " 1 + 2", "2 * 3\n", "\t7 ",
             hint="ast.parse(' 1 + 2', mode='eval') raises IndentationError: strip the text first."),
    _example("division by zero and overflow are error texts", "1 / 0", "5 // 0", "5 % 0", "1e300 ** 2",
             hint="Catch ZeroDivisionError: 'Error: division by zero'; OverflowError becomes a text too."),
    _example("not an expression", "2 +", "", "1,000 * 2", hint="Catch SyntaxError; refuse ast.Tuple."),
    _example("names and function calls are refused", "x + 1", "__import__('os')", "abs(-3)", "pow(2, 3)",
             hint="Only numbers and operators are allowed: any node you do not handle is an error."),
    _example("attribute access is refused", "().__class__.__name__", "(2).__class__.__name__", "(1).real",
             hint="Never call eval, and refuse ast.Attribute."),
    _example("strings and lists are refused", "'ab' * 3", "[1, 2]",
             hint="Accept ast.Constant only when its value is an int or a float (not a bool)."),
    _example("booleans are refused", "True + True", "False * 3", "True",
             hint="isinstance(True, int) is True: test type(value) in (int, float)."),
    _example("other operators are refused", "~5", "5 & 3", "2 ^ 8", "5 << 2", "1 < 2", "not 1",
             hint="Allow ast.UnaryOp only with USub or UAdd, ast.BinOp only with the seven operators."),
    _example("infinity and nan are refused", "1e308 * 10", "1e309", "1e309 - 1e309",
             hint="After each operation, refuse a float that is not math.isfinite(value)."),
    _example("a complex result is refused", "(-8) ** 0.5", "(-1) ** 0.5",
             hint="After each operation, refuse a complex value."),
    _example(LONG_CASE, next(iter(LONG)),
             hint="Python's parser (or a recursive evaluator) raises RecursionError here: catch Exception."),
    _example("exponents above 100 are refused", "2 ** 101", "2 ** (10 * 11)", "(-3) ** 150",
             hint="Evaluate the exponent first; if abs(exponent) > 100, raise before calling pow."),
    _example("the exponent is checked before the power is computed", "0 ** -101", "10.0 ** 400",
             hint="Check abs(exponent) > 100 BEFORE computing the power, not after it failed."),
    _example("powers within both caps are computed", "2 ** 100", "10 ** 99", "9 ** 100", "(-2) ** 99",
             "0 ** 100", "2 ** -2", "(2 ** 50) ** 2", "2 ** 0.5",
             hint="100 itself is allowed; refuse on size only when exponent * log10(abs(base)) >= 100."),
    _example("results of more than 100 digits are refused", "11 ** 100", "(-11) ** 100", "(2 ** 100) ** 100",
             "(9 ** 100) ** 100 % 7", "10 ** 100",
             hint="Before an integer power, refuse it when exponent * math.log10(abs(base)) >= 100."),
    _example(HUGE_CASE, HUGE, hint=f"{HUGE} is 9 ** 387420489: check the exponent before computing."),
)

SPEC = define(Spec(
    "04.strict_calculate", "a strict calculator that parses with ast and never evaluates Python",
    "strict_calculate", key, EXAMPLES, inputs, RULES, faults=FAULTS, hidden=HIDDEN,
    observe=observe, compare=compare, show=_show, adapt=in_this_edition,
    time_limit=_isolated.WALL_SECONDS + 10, hints=(
        "tree = ast.parse(expression, mode='eval'); then walk tree.body with a function that "
        "handles ast.Constant (int or float only), ast.BinOp and ast.UnaryOp, and raises "
        "ValueError for any other node.",
        "Map operator classes to functions: {ast.Add: operator.add, ..., ast.Pow: operator.pow}. "
        "For ast.Pow, call a check on the evaluated base and exponent BEFORE computing the power: "
        "first abs(exponent) > 100, then, for two ints with abs(base) > 1 and exponent > 0, "
        "exponent * math.log10(abs(base)) >= 100.",
        "After each operation, refuse a result that is complex or a float that is not finite. "
        "Put one try/except around parsing and evaluating in strict_calculate(): ZeroDivisionError "
        "and then any other Exception (OverflowError, RecursionError, your ValueError) become "
        "'Error: ...' texts.",
    ),
    generated_hint="Strip the spaces around the expression before parsing; check both caps before each "
                   "power; give a value exactly as str() writes it."))
__all__ = ["BROWSER_TERMS", "GENERATED", "HUGE", "LONG_CASE", "LONG_TERMS", "SPEC", "key"]
