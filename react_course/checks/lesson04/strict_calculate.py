"""Check 04.strict_calculate: a calculator that parses with ``ast`` and never evaluates Python.

It is stricter than the library's ``rc.calculate`` (no functions, exponents at
most 100 instead of 1000), hence its own name. Powers need two caps, both
decided before the power is computed: exponents above 100 are refused, and so
is an integer power whose result would have more than about 100 digits. The
exponent cap alone lets towers through: in ``(9 ** 100) ** 100`` every
exponent is 100, yet the result has 9,543 digits, and two more ``** 100`` run
for minutes.

No expression sent to the calculator in the student's own process can hang it:
each one is cheap to compute even for a calculator without caps (``2 ** 10000``
is instant). ``9 ** 9 ** 9``, which would run inside one C call for hours,
where no thread time limit can stop it, is sent only to a forked child process
that is killed after ``CHILD_SECONDS`` (see ``_isolated.py``), and only after
the calculator refused every cheap probe. Without ``os.fork`` it is skipped.

The very long sum is 6,000 terms on a laptop, where Python's parser raises
``RecursionError`` on it. In a browser tab parsing 5,000 terms already
overflows the JavaScript stack, a fatal error that ends the kernel before any
``except`` runs, so there the sum has 1,500 terms: parsed fine, and still past
the recursion limit (1,000) of an evaluator that recurses once per operator.
The rule checked is the same: the ``RecursionError`` comes back as a text.
"""

from collections.abc import Callable, Iterator
from typing import Any

from ... import browser
from .. import exercise
from ..framework import Case, describe
from .calculate_key import COMPARISON
from .huge_power import huge_power_case

GENERATED = COMPARISON.name

# Exponents above 100, each refused with an error about the exponent.
_EXPONENT = ("2 ** 101", "2 ** (10 * 11)", "(-3) ** 150")
# Computing these first raises (division by zero, float overflow): an exponent error shows the order.
_ORDER = ("0 ** -101", "10.0 ** 400")
# Exponents of at most 100 whose results are too long; all cheap to compute: 9 ** 10000 is instant.
_SIZE = ("11 ** 100", "(-11) ** 100", "(2 ** 100) ** 100", "(9 ** 100) ** 100 % 7", "10 ** 100")
_GATE = {**dict.fromkeys(_EXPONENT + _ORDER, "exponent"), **dict.fromkeys(_SIZE, "digits")}


def _is_error(got: Any) -> bool:
    return isinstance(got, str) and got.startswith("Error:")


def _wrong_value(answer: str, value: int | float) -> bool:
    if isinstance(value, int):  # an int result is written as a whole number, every digit right
        return answer.strip() != str(value)
    try:
        number = float(answer)
    except (TypeError, ValueError, OverflowError):
        return True
    return abs(number - value) > 1e-9 * max(1.0, abs(value))


def _same_number(answer: str, value: int) -> bool:
    try:
        return float(answer) == value
    except (TypeError, ValueError, OverflowError):
        return False


def _all_right(expected: dict[str, int | float]) -> Callable[[dict], bool | str]:
    def test(got: dict) -> bool | str:
        for expression, value in expected.items():
            answer = got[expression]
            if not isinstance(answer, str):
                return (f"strict_calculate({expression!r}) returned {type(answer).__name__}: "
                        "return text, e.g. str(value)")
            if _wrong_value(answer, value):
                whole = isinstance(value, int) and _same_number(answer, value)
                return (f"strict_calculate({expression!r}) returned {describe(answer, 80)}; it should be "
                        f"{value!s}" + (": the value is an int, so str(value) has no '.0'" if whole else ""))
        return True
    return test


def _all_errors(must_say: dict[str, str], why: str) -> Callable[[dict], bool | str]:
    def test(got: dict) -> bool | str:
        for expression, answer in got.items():
            if not _is_error(answer):
                return f"strict_calculate({expression!r}) returned {describe(answer, 80)}: {why}"
            word = must_say[expression]
            if word not in answer.lower():
                return (f"strict_calculate({expression!r}) returned {describe(answer, 100)}: "
                        f"the error should say {word!r} ({why})")
        return True
    return test


LONG_TERMS, BROWSER_TERMS = 6000, 1500  # Pyodide under Node parses 4,000 terms, dies at 5,000
LONG_CASE = "a very long sum gives a text, not an exception"


def _long_sum_case(calculate: Callable) -> Case:
    terms = BROWSER_TERMS if browser.IN_BROWSER else LONG_TERMS
    why = " (in the browser: 6,000 would overflow the tab's stack)" if browser.IN_BROWSER else ""
    return Case(LONG_CASE, lambda: calculate(" + ".join(["1"] * terms)), test=_text_answer(terms),
                given=f"strict_calculate('1 + 1 + ... + 1')  # {terms:,} terms{why}",
                hint="Python's own parser raises RecursionError on an expression this deep, and so does an "
                     "evaluator that recurses once per operator; it is an Exception like any other, so catch "
                     "Exception around parsing and evaluating.")


def _text_answer(value: int) -> Callable[[Any], bool | str]:
    """The right value or an 'Error: ...' text: either way text, never an exception."""
    def test(got: Any) -> bool | str:
        if not isinstance(got, str):
            return f"return text, not {type(got).__name__}"
        return got == str(value) or _is_error(got) or (
            f"expected {value} or an 'Error: ...' text, got {describe(got, 80)}")
    return test


def _each(calculate: Callable, expressions: tuple[str, ...]) -> Callable[[], dict]:
    return lambda: {e: calculate(e) for e in expressions}


def _given(expressions: tuple[str, ...]) -> str:
    """How a case's calls are shown: ``strict_calculate('1 / 0'), strict_calculate('5 // 0')``."""
    return ", ".join(f"strict_calculate({e!r})" for e in expressions)


def _right_case(calculate: Callable, name: str, values: dict[str, int | float], hint: str) -> Case:
    """Each expression (a key of ``values``) must give its value, as text."""
    return Case(name, _each(calculate, tuple(values)), given=_given(tuple(values)),
                test=_all_right(values), hint=hint)


def _refused_case(calculate: Callable, name: str, expressions: tuple[str, ...] | dict[str, str],
                  why: str, hint: str) -> Case:
    """Each expression must give an 'Error: ...' text; a dict says a word each error must contain."""
    must_say = expressions if isinstance(expressions, dict) else dict.fromkeys(expressions, "")
    return Case(name, _each(calculate, tuple(must_say)), given=_given(tuple(must_say)),
                test=_all_errors(must_say, why), hint=hint)


def _arithmetic_cases(calculate: Callable) -> Iterator[Case]:
    yield _right_case(calculate, "arithmetic with parentheses and signs",
                      {"(330 - 93) * 2": 474, "3 * 4 + 2 * 2": 16, "-(3 - 5) * 2": 4, "-2 ** 2": -4, "+5": 5},
                      "Evaluate ast.BinOp from its two evaluated sides; handle ast.UnaryOp with ast.USub "
                      "and ast.UAdd for the signs.")
    yield _right_case(calculate, "every allowed operator",
                      {"7 / 2": 3.5, "7 // 2": 3, "7 % 3": 1, "2 ** 10": 1024, "0.15 * 12200000": 1830000.0},
                      "Allow + - * / // % **: ast.Add, Sub, Mult, Div, FloorDiv, Mod, Pow.")
    yield _right_case(calculate, "spaces around the expression", {" 1 + 2": 3, "2 * 3\n": 6, "\t7 ": 7},
                      "ast.parse(' 1 + 2', mode='eval') raises IndentationError: strip the text first.")
    yield _refused_case(calculate, "division by zero and overflow are error texts",
                        {"1 / 0": "zero", "5 // 0": "zero", "5 % 0": "zero", "1e300 ** 2": ""},
                        "an arithmetic failure must come back as an 'Error: ...' text, not an exception",
                        "Catch ZeroDivisionError and return 'Error: division by zero'; a float power too "
                        "large for a float raises OverflowError, which your catch-all must turn into text.")


def _refusal_cases(calculate: Callable) -> Iterator[Case]:
    yield _refused_case(calculate, "not an expression", ("2 +", "", "1,000 * 2"),
                        "that is not one arithmetic expression: return an 'Error: ...' text",
                        "Catch SyntaxError from ast.parse; refuse ast.Tuple (what '1,000' parses into).")
    yield _refused_case(calculate, "names and function calls are refused",
                        ("x + 1", "__import__('os')", "abs(-3)", "pow(2, 3)"),
                        "this calculator allows numbers and operators only: refuse ast.Name and ast.Call",
                        "Only numbers and operators are allowed: any node you do not handle is an error.")
    yield _refused_case(calculate, "attribute access is refused",
                        ("().__class__.__name__", "(2).__class__.__name__", "(1).real"),
                        "that is Python's attribute access: an eval-based or attribute-following "
                        "calculator reaches classes this way, with no builtin at all",
                        "Never call eval, and refuse ast.Attribute: the walk from () to every class "
                        "needs no builtin.")
    yield _refused_case(calculate, "strings and lists are refused", ("'ab' * 3", "[1, 2]"),
                        "only int and float constants are numbers",
                        "Accept ast.Constant only when its value is an int or a float (not a bool).")
    yield _refused_case(calculate, "booleans are refused", ("True + True", "False * 3", "True"),
                        "True and False are not numbers here, although Python's bool is a kind of int",
                        "isinstance(True, int) is True: test type(value) in (int, float), or refuse "
                        "bool first.")
    yield _refused_case(calculate, "other operators are refused",
                        ("~5", "5 & 3", "2 ^ 8", "5 << 2", "1 < 2", "not 1"),
                        "only + - * / // % ** and unary - and + are allowed",
                        "Allow ast.UnaryOp only with ast.USub or ast.UAdd (not ast.Invert or ast.Not), and "
                        "ast.BinOp only with the seven operators of OPERATORS; ast.Compare is refused.")
    yield _refused_case(calculate, "infinity and nan are refused", ("1e308 * 10", "1e309", "1e309 - 1e309"),
                        "a result that is not a finite number is an error (a float multiplication "
                        "does not raise OverflowError: it gives inf)",
                        "After each operation, refuse a float that is not math.isfinite(value).")
    yield _refused_case(calculate, "a complex result is refused", ("(-8) ** 0.5", "(-1) ** 0.5"),
                        "a negative number to a fractional power is a complex number in Python, not a "
                        "real one",
                        "After each operation, refuse a value that is not an int or a float "
                        "(isinstance(value, complex)).")
    yield _long_sum_case(calculate)


def _power_cases(calculate: Callable) -> Iterator[Case]:
    yield _refused_case(calculate, "exponents above 100 are refused", dict.fromkeys(_EXPONENT, "exponent"),
                        "an exponent above 100 must be refused, whatever the base",
                        "Evaluate the right side first; if abs(exponent) > 100, raise before calling pow. "
                        "Check the value, not the syntax: '2 ** (10 * 11)' has exponent 110.")
    yield _refused_case(calculate, "the exponent is checked before the power is computed",
                        dict.fromkeys(_ORDER, "exponent"),
                        "computing 0 ** -101 divides by zero and computing 10.0 ** 400 overflows, so any "
                        "error but one about the exponent shows that the power was computed first (or "
                        "that the cap forgot abs(): -101 is too large as well)",
                        "Check abs(exponent) > 100 and raise BEFORE computing the power; never compute "
                        "it and then catch the error or compare.")
    yield _right_case(calculate, "powers within both caps are computed",
                      {"2 ** 100": 2 ** 100, "10 ** 99": 10 ** 99, "9 ** 100": 9 ** 100,
                       "(-2) ** 99": (-2) ** 99, "0 ** 100": 0, "2 ** -2": 0.25, "(2 ** 50) ** 2": 2 ** 100,
                       "2 ** 0.5": 2 ** 0.5},
                      "Refuse exponents above 100 (100 itself is fine), and refuse on size only when "
                      "exponent * math.log10(abs(base)) >= 100 with abs(base) > 1 and exponent > 0.")
    yield _refused_case(calculate, "results of more than 100 digits are refused",
                        dict.fromkeys(_SIZE, "digits"),
                        "every exponent here is at most 100, yet the result is too long; without a size "
                        "cap, '(((9 ** 100) ** 100) ** 100) ** 100 % 7' runs for minutes",
                        "Before computing an integer power, estimate its length: refuse it when "
                        "exponent * math.log10(abs(base)) >= 100 (abs() for negative bases).")
    yield COMPARISON.case(calculate)
    yield huge_power_case(calculate, _GATE)


RULES = {
    "`int` and `float` constants (not `True` or `False`, not strings)": (
        "booleans are refused", "strings and lists are refused"),
    "the operators `+ - * / // % **`": ("every allowed operator",),
    "unary minus and plus": ("arithmetic with parentheses and signs",),
    "names, function calls, attribute access, strings, lists, comparisons, other operators": (
        "names and function calls are refused", "attribute access is refused",
        "strings and lists are refused", "other operators are refused"),
    "before it is computed": ("the exponent is checked before the power is computed",),
    "Exponent cap:": ("exponents above 100 are refused",
                      "the exponent is checked before the power is computed", GENERATED),
    "`2 ** 100` is allowed": ("powers within both caps are computed", GENERATED),
    "Size cap:": ("results of more than 100 digits are refused", "powers within both caps are computed",
                  GENERATED),
    "`10 ** 100`, with 101 digits, is refused": ("results of more than 100 digits are refused",),
    "Spaces, tabs and newlines around the expression are allowed": ("spaces around the expression",
                                                                    GENERATED),
    "Errors are texts, never exceptions": ("division by zero and overflow are error texts",
                                           "not an expression",
                                           LONG_CASE),
    "Division by zero gives `Error: division by zero`": ("division by zero and overflow are error texts",),
    "not a finite real number": ("infinity and nan are refused", "a complex result is refused"),
    "The result is the value as text": ("arithmetic with parentheses and signs", "every allowed operator",
                                        GENERATED),
}


@exercise(
    "04.strict_calculate",
    "a strict calculator that parses with ast and never evaluates Python",
    rules=RULES,
    hints=(
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
)
def strict_calculate_cases(calculate: Callable):
    yield from _arithmetic_cases(calculate)
    yield from _refusal_cases(calculate)
    yield from _power_cases(calculate)
