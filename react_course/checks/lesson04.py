"""Lesson 04: the tool list, tool errors as observations, a safe calculator, truncation.

The sample tools below are written without ``from __future__ import
annotations`` on purpose: their type hints stay real types (``str``, not the
text ``'str'``), as they are in a student's notebook.

The calculator's check never runs ``9 ** 9 ** 9`` on a calculator that has not
first refused cheap powers above its cap: without a cap that expression would
run inside C code for hours, where no time limit can stop it.
"""

import re
from collections.abc import Callable
from typing import Any

from . import exercise
from .framework import Case, describe

# ---------------------------------------------------------------- 04.tool_list


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
                test=lambda got: _same_lines(got, expected))


def _same_lines(got: Any, expected: str) -> bool | str:
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
            return f"it returned {describe(value, 120)} instead of raising ValueError: {why}"
        return name in value or f"the ValueError's message should name the function ({name!r})"
    return test


@exercise(
    "04.tool_list",
    "generate the prompt's tool list from names, type hints and docstrings",
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
        given="describe_tools([_price, _no_docstring])", test=_names_function(
            "_no_docstring", "a tool the model cannot read about must stop registration, not vanish"),
        hint="Raise ValueError naming the function: the docstring is all the model knows about a tool.")
    yield Case(
        "a parameter without a type hint is refused", _raises_value_error(describe_tools, [_no_hint]),
        given="describe_tools([_no_hint])", test=_names_function(
            "_no_hint", "without a hint the program cannot tell the model (or itself) what the input is"),
        hint="Compare the parameters with typing.get_type_hints(f); a missing one raises ValueError.")
    yield Case(
        "a tool without parameters needs only a docstring",
        lambda: describe_tools([_no_params_docstring_only]),
        given="describe_tools([_no_params_docstring_only])",
        expected="- _no_params_docstring_only(): Roll a die.",
        test=lambda got: _same_lines(got, "- _no_params_docstring_only(): Roll a die."),
        hint="With no parameters there is no hint to miss: only the docstring is required.")


# ----------------------------------------------------------------- 04.run_tool


class _Recorder:
    """Sample tools that remember which of them ran."""

    def __init__(self) -> None:
        self.ran: list[str] = []

    def tool(self, name: str, result: Any = None, error: BaseException | None = None) -> Callable:
        def function(text: str) -> Any:
            self.ran.append(name)
            if error is not None:
                raise error
            return result(text) if callable(result) else result
        function.__name__ = name
        return function


def _run_tool_case(name: str, student: Callable, tools: dict[str, tuple], call: tuple[str, str],
                   test: Callable[[str, list[str]], bool | str], hint: str) -> Case:
    def run() -> dict[str, Any]:
        recorder = _Recorder()
        table = {n: recorder.tool(n, *spec) for n, spec in tools.items()}
        observation = student(table, *call)
        return {"observation": observation, "tools run": recorder.ran}

    def judge(got: dict[str, Any]) -> bool | str:
        observation = got["observation"]
        if not isinstance(observation, str):
            return f"run_tool must always return text for the model to read, not {type(observation).__name__}"
        if not observation.strip():
            return "an empty observation: the model would fill the blank with what it expected to see"
        return test(observation, got["tools run"])

    given = f"run_tool({{{', '.join(repr(n) + ': ...' for n in tools)}}}, {call[0]!r}, {call[1]!r})"
    return Case(name, run, test=judge, given=given, hint=hint)


def _lists_tools(unknown: str, real: list[str]) -> Callable[[str, list[str]], bool | str]:
    def test(observation: str, ran: list[str]) -> bool | str:
        if ran:
            return (f"it ran {ran[0]!r} for the unknown name {unknown!r}: run only a tool named "
                    "exactly; a guess hides the model's mistake and can run the wrong tool")
        if unknown not in observation:
            return f"the observation should repeat the unknown name {unknown!r}, so the model sees its slip"
        missing = [n for n in real if n not in observation]
        return not missing or f"the observation should list every real tool; missing: {missing}"
    return test


def _reports_error(kind: str, message: str, tool: str) -> Callable[[str, list[str]], bool | str]:
    def test(observation: str, ran: list[str]) -> bool | str:
        if kind not in observation:
            return f"say which exception it was ({kind}): the type tells the model what went wrong"
        if message not in observation:
            return f"include the exception's message ({message}): it holds the detail the model needs"
        rest = observation.replace(kind, " ").replace(message, " ").replace(tool, " ")
        if len(re.findall(r"[A-Za-z]{2,}", rest)) < 4:
            return "add what to do next (e.g. 'Check the input against the tool description.')"
        return True
    return test


def _says_nothing(tool: str) -> Callable[[str, list[str]], bool | str]:
    def test(observation: str, ran: list[str]) -> bool | str:
        if "nothing" not in observation.lower():
            return "say in words that the tool returned nothing (use the word 'nothing')"
        return tool in observation or f"name the tool ({tool!r}) in the observation"
    return test


def _is(expected: str) -> Callable[[str, list[str]], bool | str]:
    return lambda observation, ran: observation == expected or f"expected exactly {expected!r}"


@exercise(
    "04.run_tool",
    "run a tool by exact name; every failure becomes an observation",
    hints=(
        "Start with `if name not in tools:` and return a text that lists ', '.join(tools). "
        "Never look for a similar name: not lower-casing, not difflib.",
        "Wrap only the call in try/except Exception as error, and use type(error).__name__ and "
        "str(error) in the text you return.",
        "After the call: `if result is None or not str(result).strip():` say the tool returned "
        "nothing; otherwise return str(result).",
    ),
)
def run_tool_cases(run_tool: Callable):
    shop = {"price": (lambda t: "A pen costs 2." if t == "pen" else "?",), "calculate": ("16",)}
    yield _run_tool_case("runs the named tool", run_tool, shop, ("price", "pen"),
                         _is("A pen costs 2."), "Call tools[name](text) and return its result.")
    yield _run_tool_case("a result that is not text becomes text", run_tool,
                         {"double": (lambda t: 2 * int(t),)}, ("double", "21"), _is("42"),
                         "Return str(result): an observation is always text.")
    yield _run_tool_case("unknown name: say so and list the real tools", run_tool, shop,
                         ("get_price", "pen"), _lists_tools("get_price", ["price", "calculate"]),
                         "Return e.g. \"Unknown tool 'get_price'. Available tools: price, calculate.\"")
    yield _run_tool_case("a name in the wrong case is not run", run_tool, shop, ("Price", "pen"),
                         _lists_tools("Price", ["price", "calculate"]),
                         "Look the name up exactly (`name in tools`), without lower-casing it.")
    policy = {"get_policy": ("[late delivery] The fee is refunded.",), "refund_order": ("Refund issued.",)}
    yield _run_tool_case("the closest name is a different, harmful tool", run_tool, policy,
                         ("refund", "late delivery"), _lists_tools("refund", ["get_policy", "refund_order"]),
                         "'refund' is closest to 'refund_order', which pays money out; the model wanted "
                         "the refund policy. Run only exact names, and let the model correct itself.")
    yield _run_tool_case("an exception becomes an observation", run_tool,
                         {"price": (None, KeyError("pens"))}, ("price", "pens"),
                         _reports_error("KeyError", "'pens'", "price"),
                         "Catch Exception around the call and return e.g. \"price failed with "
                         "KeyError: 'pens'. Check the input against the tool description.\"")
    yield _run_tool_case("bad input raised inside the tool", run_tool,
                         {"get_order": (lambda t: str(int(t)),)}, ("get_order", "eighty-eight"),
                         _reports_error("ValueError", "invalid literal for int()", "get_order"),
                         "Report type(error).__name__ and str(error), then what to change.")
    yield _run_tool_case("a tool that returns None", run_tool, {"get_order": (None,)},
                         ("get_order", "88219"), _says_nothing("get_order"),
                         "Return e.g. \"get_order returned nothing for '88219'.\", never None or ''.")
    yield _run_tool_case("a tool that returns blank text", run_tool, {"get_order": ("  ",)},
                         ("get_order", "88219"), _says_nothing("get_order"),
                         "A blank string is no answer either: check `not str(result).strip()`.")


# ---------------------------------------------------------------- 04.calculate

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
    yield Case("arithmetic with parentheses", _each(calculate, ("(330 - 93) * 2", "3 * 4 + 2 * 2")),
               given="calculate('(330 - 93) * 2'), calculate('3 * 4 + 2 * 2')",
               test=_all_right({"(330 - 93) * 2": 474, "3 * 4 + 2 * 2": 16}),
               hint="Evaluate ast.BinOp by evaluating its left and right sides, then the operator.")
    operators = {"7 / 2": 3.5, "7 // 2": 3, "7 % 3": 1, "2 ** 10": 1024, "0.15 * 12200000": 1830000}
    yield Case("every allowed operator", _each(calculate, tuple(operators)),
               given=", ".join(f"calculate({e!r})" for e in operators), test=_all_right(operators),
               hint="Allow + - * / // % **: ast.Add, Sub, Mult, Div, FloorDiv, Mod, Pow.")
    unary = {"-(3 - 5) * 2": 4, "-2 ** 2": -4, "+5": 5}
    yield Case("unary minus and plus", _each(calculate, tuple(unary)),
               given=", ".join(f"calculate({e!r})" for e in unary), test=_all_right(unary),
               hint="Handle ast.UnaryOp with ast.USub (and ast.UAdd).")
    yield Case("division by zero is an error text", _each(calculate, ("1 / 0", "5 // 0", "5 % 0")),
               given="calculate('1 / 0'), calculate('5 // 0'), calculate('5 % 0')",
               test=_all_errors("catch ZeroDivisionError and return 'Error: division by zero'", "zero"),
               hint="Catch ZeroDivisionError and return 'Error: division by zero'.")
    yield Case("not an expression", _each(calculate, ("2 +", "", "1,000 * 2")),
               given="calculate('2 +'), calculate(''), calculate('1,000 * 2')",
               test=_all_errors("that is not one arithmetic expression: return an 'Error: ...' text"),
               hint="Catch SyntaxError from ast.parse; refuse ast.Tuple (what '1,000' parses into).")
    yield Case("names are refused", _each(calculate, ("x + 1", "__import__('os')")),
               given="calculate('x + 1'), calculate(\"__import__('os')\")",
               test=_all_errors("names are not numbers: refuse ast.Name"),
               hint="Only numbers and operators are allowed: any other node is an error.")
    attributes = ("().__class__.__name__", "(2).__class__.__name__", "(1).real")
    yield Case("attribute access is refused", _each(calculate, attributes),
               given=", ".join(f"calculate({e!r})" for e in attributes),
               test=_all_errors("that is Python's attribute access: an eval-based or attribute-following "
                                "calculator reaches classes this way, with no builtin at all"),
               hint="Never call eval, and refuse ast.Attribute: the walk from () to every class "
                    "needs no builtin.")
    yield Case("function calls are refused", _each(calculate, ("abs(-3)", "pow(2, 3)")),
               given="calculate('abs(-3)'), calculate('pow(2, 3)')",
               test=_all_errors("this calculator allows no functions: refuse ast.Call"),
               hint="Refuse ast.Call like every other node you do not handle.")
    yield Case("strings and lists are refused", _each(calculate, ("'ab' * 3", "[1, 2]")),
               given="calculate(\"'ab' * 3\"), calculate('[1, 2]')",
               test=_all_errors("only int and float constants are numbers"),
               hint="Accept ast.Constant only when its value is an int or a float (not a bool).")
    yield Case("exponents above 100 are refused", _each(calculate, _CAP_PROBES),
               given=", ".join(f"calculate({e!r})" for e in _CAP_PROBES),
               test=_all_errors("an exponent above 100 must be refused before the power is computed",
                                "exponent"),
               hint="Evaluate the right side first; if it is above 100, raise before calling pow. "
                    "Check the value, not the syntax: '2 ** (10 * 11)' has exponent 110.")
    yield Case("an exponent of exactly 100 is allowed", _each(calculate, ("2 ** 100",)),
               given="calculate('2 ** 100')", test=_all_right({"2 ** 100": 2 ** 100}),
               hint="Refuse exponents larger than 100; 100 itself is fine.")
    yield Case("9 ** 9 ** 9 is refused, not computed", _huge_power(calculate),
               given="calculate('9 ** 9 ** 9'), run only after the cheap powers above were refused",
               test=_huge_power_test, show=_show_huge_power,
               hint="9 ** 9 ** 9 is 9 ** 387420489: check the exponent before computing the power.")


# ----------------------------------------------------------------- 04.truncate

_MARKER = re.compile(r"\n\[truncated: (\d+) of (\d+) characters cut\]\Z")
_SAMPLE = ("The Eiffel Tower is 330 m tall with its antennas. " * 80).strip()


def _fits(text: str, budget: int) -> Callable[[Any], bool | str]:
    def test(got: Any) -> bool | str:
        if not isinstance(got, str):
            return f"return text, not {type(got).__name__}"
        if len(text) <= budget:
            return got == text or (
                f"a text of {len(text)} characters fits the budget of {budget}: return it unchanged")
        if len(got) > budget:
            return (f"the result has {len(got)} characters, over the budget of {budget} "
                    "(the marker counts too)")
        marker = _MARKER.search(got)
        if marker is None and "truncated" not in got:
            return ("a cut must be announced: end with a line like "
                    "'[truncated: 2950 of 3000 characters cut]'")
        if marker is None:
            return ("end the result with the marker on its own line, exactly "
                    "'\\n[truncated: CUT of TOTAL characters cut]' with plain digits (no commas)")
        head = got[: marker.start()]
        if not text.startswith(head):
            return "keep the beginning of the text, exactly as it was"
        cut, total = int(marker[1]), int(marker[2])
        if total != len(text):
            return f"the marker says the text had {total} characters; it had {len(text)}"
        if cut != len(text) - len(head):
            return (f"the marker says {cut} characters were cut, but {len(text) - len(head)} were "
                    f"({len(text)} minus the {len(head)} kept)")
        slack = len(str(len(text)))
        return len(got) >= budget - slack or (
            f"only {len(got)} of the {budget} characters are used: keep as much of the text as fits")
    return test


@exercise(
    "04.truncate",
    "cut a long observation to a budget, with a marker that says how much was cut",
    hints=(
        "If len(text) <= budget, return text. Otherwise the result is head + marker, where "
        "marker = f\"\\n[truncated: {cut} of {total} characters cut]\".",
        "The marker's length depends on the number it shows, and the number depends on how much "
        "you keep. Break the circle: cut has no more digits than total, so measure the marker "
        "with total in place of cut.",
        "keep = budget - len(that longest marker); head = text[:keep]; then build the real "
        "marker with cut = len(text) - len(head).",
    ),
)
def truncate_cases(truncate: Callable):
    def case(name: str, text: str, budget: int, hint: str) -> Case:
        shown = repr(text) if len(text) <= 40 else f"<a text of {len(text)} characters>"
        return Case(name, lambda: truncate(text, budget), test=_fits(text, budget),
                    given=f"truncate({shown}, {budget})", hint=hint)

    yield case("short text unchanged", "A pen costs 2.", 60,
               "A text within the budget needs no marker: return it as it is.")
    yield case("empty text unchanged", "", 60, "An empty text is within any budget.")
    yield case("exactly the budget: unchanged", _SAMPLE[:120], 120,
               "A text of exactly budget characters fits: use <=, not <.")
    yield case("one character over: cut, with a marker", _SAMPLE[:121], 120,
               "One character over the budget is over: cut it and say so.")
    yield case("a long observation: within budget, marker included", _SAMPLE, 200,
               "Count the marker in the budget: keep budget - len(marker) characters of the text.")
    yield case("the marker's counts are right", _SAMPLE, 500,
               "cut = len(text) - len(head) and total = len(text).")
    yield case("a huge page: the counts have more digits", "x" * 123_456, 100,
               "Measure the marker with the largest number it can show (the total).")
    yield case("newlines in the text are kept", "Line one.\nLine two.\n" * 30, 150,
               "Keep the head exactly as it was, newlines included.")
    yield case("as much as fits is kept", _SAMPLE, 1000,
               "Do not cut more than you must: the result should use nearly all of the budget.")


# -------------------------------------------------------------- 04.predictions

_PREDICTIONS = {
    "calls_with_max_steps_5": (6, "After 5 steps without a Final Answer the loop makes one more call, "
                                  "which asks the model for its final answer."),
    "end_reason_with_max_steps_5": ("step_limit", "The end reason says what stopped the run. Did the "
                                                  "model give its Final Answer within its 5 steps?"),
    "total_lines_read": (66, "Call k reads 1 + 4(k - 1) lines: add them up for k = 1 to 6."),
    "total_lines_forgiving": (45, "With the forgiving tool the run takes 5 calls: add 1 + 4(k - 1) "
                                  "for k = 1 to 5."),
}


@exercise(
    "04.predictions",
    "predict the cost and the ending of variations of the slip run",
    hints=(
        "Write your predictions first; run the cells under the check afterwards to see the runs.",
        "A step limit of 5 leaves the run one step short of its Final Answer, and the loop then "
        "makes one extra call that asks for an answer.",
        "Lines read per call: 1, 5, 9, 13, 17, 21 for the slip run.",
    ),
)
def prediction_cases(predictions: Any):
    if not isinstance(predictions, dict):
        yield Case("predictions is a dict", lambda: predictions, given="predictions", test=lambda got: (
            f"predictions should be a dict with the keys {list(_PREDICTIONS)}, not {type(got).__name__}"))
        return
    for key, (answer, hint) in _PREDICTIONS.items():
        yield Case(key, lambda key=key: _predicted(predictions, key), given=f"predictions[{key!r}]",
                   test=lambda got, answer=answer: _prediction(got, answer), hint=hint)


def _predicted(predictions: dict, key: str) -> Any:
    if key not in predictions:
        return _Missing()
    if predictions[key] is ...:
        raise NotImplementedError(f"write your prediction for {key} in place of ...")
    return predictions[key]


class _Missing:
    def __repr__(self) -> str:
        return "(no such key)"


def _prediction(got: Any, answer: Any) -> bool | str:
    if isinstance(got, _Missing):
        return "the dict has no entry with this key: keep the keys as given"
    if isinstance(answer, int) and isinstance(got, str) and got.strip().isdigit():
        return f"write the number {got.strip()}, not the text {got!r}"
    return got == answer
