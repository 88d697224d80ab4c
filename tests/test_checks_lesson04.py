"""Lesson 04's checkers: the references pass, stubs are not attempted, plausible mistakes fail.

No ``from __future__ import annotations`` here: the mutants' type hints must be
real types, as in a student's notebook.

The calculator mutants include two easy mistakes: an exponent cap without a size cap,
which lets ``(9 ** 100) ** 100`` through, and one that computes the power first and
reports ``OverflowError`` as an exponent error. The check must refuse them on cheap
probes, without ever computing ``9 ** 9 ** 9`` in this process (that would hang this
test run); only a calculator that passes every cheap probe meets ``9 ** 9 ** 9``, in a
forked child process that is killed after a short time.
"""

import ast
import difflib
import inspect
import math
import operator
import os
import threading
import typing
from dataclasses import dataclass

import pytest
from mutation_suite import exercise_tests, from_rule_table, result_of

import react_course as rc
from react_course.checks import check, exercises
from react_course.checks.lesson04 import _isolated
from react_course.checks.lesson04.expressions import HUGE, HUGE_CASE
from react_course.checks.lesson04.predictions import answers
from react_course.lessons.slips import SHOP_QUESTION, forgiving_price, scratchpad_lines, slip_model

PARENT = os.getpid()

# ------------------------------------------------------------------- references


def describe_tools(functions: list) -> str:
    lines = []
    for function in functions:
        name = function.__name__
        doc = inspect.getdoc(function)
        if not doc:
            raise ValueError(f"tool {name!r} has no docstring")
        hints = typing.get_type_hints(function)
        params = []
        for param in inspect.signature(function).parameters:
            if param not in hints:
                raise ValueError(f"tool {name!r}: parameter {param!r} has no type hint")
            params.append(f"{param}: {hints[param].__name__}")
        lines.append(f"- {name}({', '.join(params)}): {_prose(doc)}")
    return "\n".join(lines)


def _prose(doc: str) -> str:
    kept = []
    for line in doc.splitlines():
        if line.strip().startswith(">>>"):
            break
        kept.append(line)
    return " ".join(" ".join(kept).split())


def run_tool(tools: dict, name: str, text: str) -> str:
    if name not in tools:
        return f"Unknown tool {name!r}. Available tools: {', '.join(tools)}."
    try:
        result = tools[name](text)
    except Exception as error:
        return (f"{name} failed with {type(error).__name__}: {error}. "
                "Check the input against the tool description and try again.")
    if _is_empty(result):
        return f"{name} returned nothing for {text!r}."
    return str(result)


def _is_empty(result) -> bool:
    empty_container = isinstance(result, list | dict | tuple | set) and not result
    return result is None or empty_container or not str(result).strip()


_OPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
        ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod, ast.Pow: operator.pow}


def make_calculator(cap: int | None = 100, digits: int | None = 100, **options):
    """The reference calculator, or one of its mutants (the options of ``_Calculator``)."""
    return _Calculator(cap, digits, **options).calculate


@dataclass
class _Calculator:
    """``check_after`` computes a power before applying the caps; when it raises one of
    exceptions of that computation reported as "the exponent is too large"."""

    cap: int | None = 100
    digits: int | None = 100
    check_after: bool = False
    literal_cap: bool = False
    unsigned_cap: bool = False
    size_abs: bool = True
    power_errors: tuple = ()
    attributes: bool = False
    any_constant: bool = False
    unary: bool = True
    catch: bool | tuple = True  # a tuple: only these exceptions become error texts
    as_text: bool = True
    bools: bool = False
    invert: bool = False
    finite: str = "both"  # "both", "complex" (inf and nan pass), "inf" (complex passes), "none"
    missing: tuple = ()  # operator classes left out of the table
    strip: bool = True  # spaces around the expression are allowed
    size_strict: bool = False  # refuse only above 100 in the estimate (lets 10 ** 100 through)

    def calculate(self, expression: str):
        expression = expression.strip() if self.strip else expression
        if not self.catch:
            return str(self.evaluate(ast.parse(expression, mode="eval").body))
        caught = self.catch if isinstance(self.catch, tuple) else Exception
        try:
            value = self.evaluate(ast.parse(expression, mode="eval").body)
        except ZeroDivisionError:
            return "Error: division by zero"
        except caught as error:
            return f"Error: {error}"
        return str(value) if self.as_text else value

    def evaluate(self, node):
        numbers = (int, float) if not self.bools else (int, float, bool)
        if isinstance(node, ast.Constant) and (self.any_constant or type(node.value) in numbers):
            return self.checked(node.value)
        signs = ast.USub | ast.UAdd | ast.Invert if self.invert else ast.USub | ast.UAdd
        if self.unary and isinstance(node, ast.UnaryOp) and isinstance(node.op, signs):
            value = self.evaluate(node.operand)
            return {ast.USub: operator.neg, ast.UAdd: operator.pos, ast.Invert: operator.invert}[
                type(node.op)](value)
        if self.attributes and isinstance(node, ast.Attribute):
            return getattr(self.evaluate(node.value), node.attr)
        if isinstance(node, ast.BinOp) and type(node.op) in _OPS and type(node.op) not in self.missing:
            left, right = self.evaluate(node.left), self.evaluate(node.right)
            if isinstance(node.op, ast.Pow):
                return self.checked(self.power(node, left, right))
            return self.checked(_OPS[type(node.op)](left, right))
        raise ValueError(f"{type(node).__name__} is not allowed")

    def checked(self, value):
        if isinstance(value, complex) and self.finite in ("both", "complex"):
            raise ValueError("the result is not a real number")
        if isinstance(value, float) and not math.isfinite(value) and self.finite in ("both", "inf"):
            raise ValueError("the result is not finite")
        return value

    def power(self, node, left, right):
        if not self.check_after:
            self.refuse_if_too_big(node, left, right)
        try:
            result = left ** right
        except self.power_errors:
            self.refuse_if_too_big(node, left, right)  # the caps, asked only once the power failed
            raise
        if self.check_after:
            self.refuse_if_too_big(node, left, right)
        return result

    def refuse_if_too_big(self, node, left, right) -> None:
        if self.cap is not None:
            if self.literal_cap:
                over = isinstance(node.right, ast.Constant) and node.right.value > self.cap
            else:
                over = (right if self.unsigned_cap else abs(right)) > self.cap
            if over:
                raise ValueError(f"the exponent {right} is too large (at most {self.cap})")
        whole = isinstance(left, int) and isinstance(right, int)
        if self.digits is not None and whole and abs(left) > 1 and right > 0:
            estimate = right * math.log10(abs(left) if self.size_abs else left)
            if estimate > self.digits if self.size_strict else estimate >= self.digits:
                raise ValueError(f"the result would have more than {self.digits} digits")


calculate = make_calculator()


def make_truncate(*, compare=operator.le, always=False, silent=False, marker_first_number="cut",
                  reserve: str = "exact", keep_end: bool = False, boundary: str = "",
                  separators: bool = False):
    """The reference truncate_within, or one of its mutants (or another right answer)."""

    def truncate(text: str, budget: int) -> str:
        if compare(len(text), budget) and not always:
            return text
        total = len(text)
        if silent:
            return text[:budget]
        number = "{:,}" if separators else "{}"
        longest = f"\n[truncated: {number.format(total)} of {number.format(total)} characters cut]"
        size = {"longest": len(longest), "exact": len(longest),
                "one digit": len(longest) - len(str(total)) + 1,
                "none": 0, "fixed 60": 60}[reserve]
        keep = max(0, budget - size)
        if reserve == "exact":
            while keep + 1 + len(longest) - len(str(total)) + len(str(total - keep - 1)) <= budget:
                keep += 1
        head = text[-keep:] if keep_end and keep else _back_to(text[:keep], boundary)
        first = {"cut": total - len(head), "shown": len(head), "total - budget": total - budget}
        shown = number.format(first[marker_first_number])
        return head + f"\n[truncated: {shown} of {number.format(total)} characters cut]"

    return truncate


def truncate_counting_down(text: str, budget: int) -> str:
    """Also right: try every length from the budget down, and keep the first that fits."""
    if len(text) <= budget:
        return text
    for keep in range(budget, -1, -1):
        result = text[:keep] + f"\n[truncated: {len(text) - keep} of {len(text)} characters cut]"
        if len(result) <= budget:
            return result
    return text[:budget]


def _worded_truncate(text: str, budget: int) -> str:
    """Right but for the marker's words: the statement fixes its form, not only its numbers."""
    if len(text) <= budget:
        return text
    for keep in range(budget, -1, -1):
        result = text[:keep] + f"\n[cut {len(text) - keep} of {len(text)} characters]"
        if len(result) <= budget:
            return result
    return text[:budget]


def _back_to(head: str, boundary: str) -> str:
    """Cut a head back to a word or line boundary, as some right and some wrong answers do."""
    if boundary in ("", "newline") or " " not in head:
        return head if boundary != "newline" or "\n" not in head else head[:head.rfind("\n")]
    last_space = head.rfind(" ")
    last_white = max(last_space, head.rfind("\n"))
    return {"before space": head[:last_space], "after space": head[:last_space + 1],
            "whitespace": head[:last_white],
            "two words": head[:head.rfind(" ", 0, last_space)]}[boundary]


truncate = make_truncate()

PREDICTIONS = dict(answers())


def stub(*args, **kwargs):
    raise NotImplementedError("exercise 4.x: write it")


# ---------------------------------------------------------------------- mutants


def _tool_list_mutant(line, *, check_doc=True, check_hints=True, order=list, any_hint=False):
    def describe(functions):
        out = []
        for function in order(functions):
            if check_doc and not inspect.getdoc(function):
                raise ValueError(f"{function.__name__} has no docstring")
            if not inspect.getdoc(function):
                continue
            hints = typing.get_type_hints(function)
            parameters = inspect.signature(function).parameters
            hinted = any if any_hint else all
            if check_hints and parameters and not hinted(p in hints for p in parameters):
                raise ValueError(f"{function.__name__} lacks a hint")
            out.append(line(function, hints))
        return "\n".join(out)
    return describe


def _params(function, hints):
    return ", ".join(f"{p}: {getattr(hints.get(p, str), '__name__', 'str')}"
                     for p in inspect.signature(function).parameters)


def _good_line(function, hints):
    return f"- {function.__name__}({_params(function, hints)}): {_prose(inspect.getdoc(function))}"


TOOL_LIST_MUTANTS = {
    "raw multi-line docstring": _tool_list_mutant(
        lambda f, h: f"- {f.__name__}({_params(f, h)}): {f.__doc__.strip()}"),
    "parameter types missing": _tool_list_mutant(
        lambda f, h: f"- {f.__name__}({', '.join(inspect.signature(f).parameters)}): "
                     f"{_prose(inspect.getdoc(f))}"),
    "tools sorted by name": _tool_list_mutant(
        _good_line, order=lambda fs: sorted(fs, key=lambda f: f.__name__)),
    "undocumented function silently skipped": _tool_list_mutant(_good_line, check_doc=False),
    "doctest lines kept": _tool_list_mutant(
        lambda f, h: f"- {f.__name__}({_params(f, h)}): {' '.join(inspect.getdoc(f).split())}"),
    "first docstring line only": _tool_list_mutant(
        lambda f, h: f"- {f.__name__}({_params(f, h)}): {inspect.getdoc(f).splitlines()[0]}"),
    "return annotation shown as a parameter": _tool_list_mutant(
        lambda f, h: f"- {f.__name__}({', '.join(f'{k}: {v.__name__}' for k, v in h.items())}): "
                     f"{_prose(inspect.getdoc(f))}"),
    "str(inspect.signature)": _tool_list_mutant(
        lambda f, h: f"- {f.__name__}{inspect.signature(f)}: {_prose(inspect.getdoc(f))}"),
    "missing type hint not refused": _tool_list_mutant(_good_line, check_hints=False),
    "one hinted parameter is enough": _tool_list_mutant(_good_line, any_hint=True),
}


def _closest(tools, name, text):
    match = difflib.get_close_matches(name, list(tools), n=1, cutoff=0.5)
    return run_tool(tools, match[0] if match else name, text)


def _lowered(tools, name, text):
    by_lower = {n.lower(): n for n in tools}
    return run_tool(tools, by_lower.get(name.lower(), name), text)


def _swallowing(reply):
    def run(tools, name, text):
        if name not in tools:
            return run_tool(tools, name, text)
        try:
            result = tools[name](text)
        except Exception:
            return reply
        return run_tool({name: lambda _: result}, name, text)
    return run


def _raises(function, text):
    try:
        function(text)
    except Exception as error:
        return error
    return None


def _no_list(tools, name, text):
    return f"Unknown tool {name!r}." if name not in tools else run_tool(tools, name, text)


def _raising(tools, name, text):
    if name not in tools:
        raise KeyError(name)
    return run_tool(tools, name, text)


def _passes_empty_through(empty):
    def run(tools, name, text):
        if name in tools and _raises(tools[name], text) is None:
            result = tools[name](text)
            if result is None or not str(result).strip():
                return None if empty is None else empty
        return run_tool(tools, name, text)
    return run


def _no_suggestion(tools, name, text):
    if name in tools:
        error = _raises(tools[name], text)
        if error is not None:
            return f"{type(error).__name__}: {error}"
    return run_tool(tools, name, text)


def _no_str(tools, name, text):
    if name in tools and _raises(tools[name], text) is None:
        result = tools[name](text)
        if result is not None and str(result).strip():
            return result
    return run_tool(tools, name, text)


def _empty_text_only(tools, name, text):
    """Catches None and blank text, but shows an empty list as '[]'."""
    if name in tools and _raises(tools[name], text) is None:
        result = tools[name](text)
        if result is not None and str(result).strip():
            return str(result)
    return run_tool(tools, name, text)


def _wording(template):
    """The reference, with another wording for an empty result."""
    def run(tools, name, text):
        if name in tools and _raises(tools[name], text) is None and _is_empty(tools[name](text)):
            return template.format(name=name, text=text)
        return run_tool(tools, name, text)
    return run


def _catches_some(tools, name, text):
    """The issue's example: only the exceptions its author thought of."""
    if name not in tools:
        return run_tool(tools, name, text)
    try:
        result = tools[name](text)
    except (KeyError, ValueError) as error:
        return f"{name} failed with {type(error).__name__}: {error}. Check the input and try again."
    return run_tool({name: lambda _: result}, name, text)


def _falsy_is_nothing(tools, name, text):
    """The issue's example: `if not result` reports a legitimate 0 as nothing."""
    if name in tools and _raises(tools[name], text) is None:
        result = tools[name](text)
        if not result or not str(result).strip():
            return f"{name} returned nothing for {text!r}."
    return run_tool(tools, name, text)


def _str_first(tools, name, text):
    """The issue's example: str() before the emptiness test, so {} comes back as '{}'."""
    if name in tools and _raises(tools[name], text) is None:
        result = tools[name](text)
        if result is None or not str(result).strip():
            return f"{name} returned nothing for {text!r}."
        if result == []:
            return f"{name} returned nothing for {text!r}."
        return str(result)
    return run_tool(tools, name, text)


def _nothing_without_name(tools, name, text):
    if name in tools and _raises(tools[name], text) is None and _is_empty(tools[name](text)):
        return "The tool returned nothing."
    return run_tool(tools, name, text)


def _no_type(tools, name, text):
    if name in tools:
        error = _raises(tools[name], text)
        if error is not None:
            return f"{name} failed: {error}. Check the input against the tool description."
    return run_tool(tools, name, text)


RUN_TOOL_ACCEPTED = {
    "the library's wording": _wording("{name} returned no result for {text!r}."),
    "an empty result": _wording("{name} gave an empty result for {text!r}."),
    "no data": _wording("No data came back from {name} for {text!r}."),
    "the library's own registry": lambda tools, name, text: rc.ToolRegistry(
        {n: _one_text(f) for n, f in tools.items()}).run(name, text),
}


def _one_text(function):
    def tool(text: str):
        """A sample tool. Example input: pen"""
        return function(text)
    return tool


RUN_TOOL_MUTANTS = {
    "catches only KeyError and ValueError": _catches_some,
    "`if not result`: 0 and False reported as nothing": _falsy_is_nothing,
    "empty dict shown as '{}'": _str_first,
    "empty result without the tool's name": _nothing_without_name,
    "exception message without its type": _no_type,
    "empty list shown as '[]'": _empty_text_only,
    "empty result reported as a bare 'Error.'": _wording("Error."),
    "empty result reported as 'None'": _wording("{name} returned None"),
    "runs the closest name (difflib)": _closest,
    "runs a name in another case": _lowered,
    "exception swallowed into ''": _swallowing(""),
    "exception becomes a bare 'Error.'": _swallowing("Error."),
    "unknown name without the tool list": _no_list,
    "raises KeyError for an unknown name": _raising,
    "returns None for an empty result": _passes_empty_through(None),
    "returns '' for an empty result": _passes_empty_through(""),
    "exception type and message but no suggestion": _no_suggestion,
    "non-text result returned as is": _no_str,
}


def _eval_calculator(expression):
    try:
        return str(eval(expression, {"__builtins__": {}}, {}))  # the mistake under test
    except ZeroDivisionError:
        return "Error: division by zero"
    except Exception as error:
        return f"Error: {error}"


def _as_float(answer: str) -> str:
    try:
        return str(float(answer))
    except ValueError:
        return answer


CALCULATE_MUTANTS = {
    "eval with empty builtins": _eval_calculator,
    "no cap at all": make_calculator(cap=None, digits=None),
    "exponent cap only (lets (9 ** 100) ** 100 through)": make_calculator(digits=None),
    "computes first, OverflowError reported as an exponent error": make_calculator(
        check_after=True, power_errors=(OverflowError,)),
    "computes first, then checks the caps": make_calculator(check_after=True),
    "size cap only": make_calculator(cap=None),
    "no strip: ' 1 + 2' is an IndentationError": make_calculator(strip=False),
    "size cap with > (lets 10 ** 100 through)": make_calculator(size_strict=True),
    "exponent cap without abs (lets 0 ** -101 divide by zero)": make_calculator(unsigned_cap=True),
    "size cap without abs (fails on a negative base)": make_calculator(size_abs=False),
    "size cap of 1000 digits": make_calculator(digits=1000),
    "raises instead of returning an error text": make_calculator(catch=False),
    "attribute access allowed": make_calculator(attributes=True),
    "cap only on a literal exponent": make_calculator(literal_cap=True),
    "cap off by one (refuses 100)": make_calculator(cap=99),
    "cap of 1000, as the library's": make_calculator(cap=1000),
    "any constant allowed (strings)": make_calculator(any_constant=True),
    "returns a number, not text": make_calculator(as_text=False),
    "no unary minus": make_calculator(unary=False),
    "the library's calculate (allows functions, caps at 1000)": rc.calculate,
    "True + True accepted (bool is an int)": make_calculator(bools=True),
    "// and % left out": make_calculator(missing=(ast.FloorDiv, ast.Mod)),
    "every result written as a float (474.0)": lambda expression: _as_float(calculate(expression)),
    "~5 accepted (ast.Invert)": make_calculator(invert=True),
    "complex and infinite results returned": make_calculator(finite="none"),
    "inf and nan returned (complex refused)": make_calculator(finite="complex"),
    "complex returned (inf refused)": make_calculator(finite="inf"),
    "catches only the errors it expects (RecursionError escapes)": make_calculator(
        catch=(ValueError, OverflowError, SyntaxError, TypeError)),
}

# Passes every cheap probe, yet computes 9 ** 9 ** 9 before refusing it: only the separate process
# catches it. (A size measured AFTER computing each power is harmless once the exponent cap holds:
# every intermediate result has at most 100 digits, so no power computed costs more than 10,000
# digits; a size measured only on the final result is caught by '(9 ** 100) ** 100 % 7'.)
# Tested on its own, with a short time limit for the child.
COMPUTES_FIRST_HIDING_ERRORS = make_calculator(check_after=True, power_errors=(ArithmeticError,))

TRUNCATE_ACCEPTED = {
    "tries every length from the budget down": truncate_counting_down,
}

TRUNCATE_MUTANTS = {
    "room for the longest marker (keeps fewer characters than fit)": make_truncate(reserve="longest"),
    "numbers with thousands separators": make_truncate(separators=True),
    "cut back to the last space, as rc.truncate does": make_truncate(boundary="before space"),
    "cut back to just after the last space": make_truncate(boundary="after space"),
    "cut back to the last space or newline": make_truncate(boundary="whitespace"),
    "cut back two words": make_truncate(boundary="two words"),
    "cut back to the last newline": make_truncate(boundary="newline"),
    "silent cut": make_truncate(silent=True),
    "short text gets a marker too": make_truncate(always=True),
    "marker counts the budget, not the cut": make_truncate(marker_first_number="total - budget"),
    "marker shows the kept characters": make_truncate(marker_first_number="shown"),
    "result over budget (marker added after the cut)": make_truncate(reserve="none"),
    "off by one at exactly the budget": make_truncate(compare=operator.lt),
    "marker measured with a one-digit number": make_truncate(reserve="one digit"),
    "keeps the end instead of the beginning": make_truncate(keep_end=True),
    "cuts more than needed": make_truncate(reserve="fixed 60"),
    "the library's truncate (marker outside the budget)": rc.truncate,
    "a marker in other words": lambda text, budget: _worded_truncate(text, budget),
}

PREDICTION_MUTANTS = {
    "forgot the forced final call": {**PREDICTIONS, "calls_with_max_steps_5": 5},
    "the right answer means a final_answer ending": {**PREDICTIONS,
                                                      "end_reason_with_max_steps_5": "final_answer"},
    "lines read by the last call only": {**PREDICTIONS, "total_lines_read": 21},
    "forgiving run counted as 6 calls": {**PREDICTIONS, "total_lines_forgiving": 66},
    "a number written as text": {**PREDICTIONS, "total_lines_read": "66"},
    "a key renamed": {**{k: v for k, v in PREDICTIONS.items() if k != "total_lines_read"}, "lines": 66},
    "not a dict": [6, "step_limit", 66, 45],
}

# ------------------------------------------- wrong solutions written from the statement alone
# (mistake classes: strip and case, a keyword call, bytes for characters, a float for an int, ...)


def _tool_list_raising(kind, message):
    """The reference, raising ``kind`` with ``message`` (``{name}``: the function's name)."""
    def describe(functions):
        try:
            return describe_tools(functions)
        except ValueError:
            bad = next(f for f in functions if not inspect.getdoc(f) or set(inspect.signature(f).parameters)
                       - set(typing.get_type_hints(f)))
            raise kind(message.format(name=bad.__name__)) from None
    return describe


def _doc_until(stop):
    """The reference, with the description cut where ``stop(line)`` is first true."""
    def line(function, hints):
        kept = []
        for text in inspect.getdoc(function).splitlines():
            if stop(text):
                break
            kept.append(text)
        return f"- {function.__name__}({_params(function, hints)}): {' '.join(' '.join(kept).split())}"
    return _tool_list_mutant(line)


def _growing(functions, lines=[]):  # noqa: B006 (the mistake under test: one list for every call)
    for function in functions:
        lines.append(describe_tools([function]))
    return "\n".join(lines)


NEW_TOOL_LIST = {
    "a mutable default list carries earlier calls' lines": ("One line per function, in the order given",
                                                             _growing),
    "raises TypeError, not ValueError": ("raise `ValueError` with a message that names the function",
                                         _tool_list_raising(TypeError, "tool {name!r} cannot be described")),
    "a ValueError that does not name the function": (
        "raise `ValueError` with a message that names the function",
        _tool_list_raising(ValueError, "a tool has no docstring or a parameter without a hint")),
    "stops at '>>>' anywhere in a line": ("up to its first doctest line", _doc_until(lambda t: ">>>" in t)),
    "lines joined, inner runs of spaces kept": (
        "every run of spaces and newlines becomes one space", _tool_list_mutant(
            lambda f, h: f"- {f.__name__}({_params(f, h)}): "
                         f"{' '.join(t.strip() for t in _prose_lines(inspect.getdoc(f)) if t.strip())}")),
    "the type's repr, <class 'str'>": ("Types are the hints' names", _tool_list_mutant(
        lambda f, h: f"- {f.__name__}({', '.join(f'{p}: {h[p]!r}' for p in inspect.signature(f).parameters)})"
                     ": "
                     f"{_prose(inspect.getdoc(f))}")),
}


def _prose_lines(doc):
    kept = []
    for line in doc.splitlines():
        if line.strip().startswith(">>>"):
            break
        kept.append(line)
    return kept


def _looked_up(find):
    """The reference, running the tool ``find(tools, name)`` picks (None: unknown)."""
    def run(tools, name, text):
        found = find(tools, name)
        return run_tool(tools, found if found is not None else name, text)
    return run


def _keyword_call(tools, name, text):
    """Calls tools[name](text=text): a tool's parameter need not be called text."""
    return run_tool({n: (lambda t, f=f: f(text=t)) for n, f in tools.items()}, name, text)


def _stripped_result(tools, name, text):
    observation = run_tool(tools, name, text)
    return observation.strip()


def _args_zero(tools, name, text):
    """The exception's message read as error.args[0]: a bare exception has no args."""
    if name in tools:
        try:
            tools[name](text)
        except Exception as error:
            return f"{name} failed with {type(error).__name__}: {error.args[0]}. Check the input."
    return run_tool(tools, name, text)


def _get_then_call(tools, name, text):
    """tools.get(name) called inside the try: an unknown name reads as a tool that failed."""
    try:
        result = tools.get(name)(text)
    except Exception as error:
        return f"{name} failed with {type(error).__name__}: {error}. Check the input and try again."
    return run_tool({name: lambda _: result}, name, text)


def _remembering(tools, name, text, seen={}):  # noqa: B006 (the mistake under test)
    if name not in seen:
        seen[name] = run_tool(tools, name, text)
    return seen[name]


def _capitalised(tools, name, text):
    """A result's first letter upper-cased, the rest lower-cased (str.capitalize)."""
    observation = run_tool(tools, name, text)
    try:
        result = tools[name](text) if name in tools else None
    except Exception:
        return observation
    return observation.capitalize() if observation == str(result) else observation


NEW_RUN_TOOL = {
    "remembers observations by name in a mutable default": ("runs `tools[name](text)`", _remembering),
    "capitalises the result": ("the result as text: `str(result)`", _capitalised),
    "strips the name before the lookup": ("Run only a tool whose name matches", _looked_up(
        lambda tools, name: name.strip() if name.strip() in tools else None)),
    "runs the tool whose name starts with the given one": ("Run only a tool whose name matches", _looked_up(
        lambda tools, name: next((n for n in tools if n.startswith(name)), None))),
    "casefold lookup": ("Do not lower-case the name or look for the closest one", _looked_up(
        lambda tools, name: next((n for n in tools if n.casefold() == name.casefold()), None))),
    "calls the tool with a keyword, text=": ("runs `tools[name](text)`", _keyword_call),
    "strips the result": ("the result as text: `str(result)`", _stripped_result),
    "error.args[0] for the message": ("the exception's type, its message and a suggestion of what to change",
                                      _args_zero),
    "tools.get(name) inside the try": ("`name` is not in `tools`", _get_then_call),
}


def _strip_spaces_only(expression):
    return make_calculator(strip=False)(expression.strip(" "))


def _int_exponent_cap(expression):
    """Compares int(exponent) with the cap: 9 ** 100.5 passes as 100."""
    uncapped = _fractional_power_over(expression)
    return make_calculator(cap=None)(expression) if uncapped else calculate(expression)


def _fractional_power_over(expression):
    try:
        tree = ast.parse(expression.strip(), mode="eval")
    except (SyntaxError, RecursionError):
        return False
    return any(isinstance(n, ast.BinOp) and isinstance(n.op, ast.Pow) and isinstance(n.right, ast.Constant)
               and isinstance(n.right.value, float) and int(n.right.value) <= 100 < n.right.value
               for n in ast.walk(tree))


def _zero_by_type(expression):
    answer = calculate(expression)
    return "Error: ZeroDivisionError" if answer == "Error: division by zero" else answer


def _float_format(expression):
    answer = calculate(expression)
    return answer if answer.startswith("Error:") else format(float(answer), "g")


def _no_negative_exponents(expression):
    try:
        tree = ast.parse(expression.strip(), mode="eval")
    except (SyntaxError, RecursionError):
        tree = None
    negative = tree is not None and any(isinstance(n, ast.BinOp) and isinstance(n.op, ast.Pow)
                                        and isinstance(n.right, ast.UnaryOp) for n in ast.walk(tree))
    return "Error: a negative exponent is not allowed" if negative else calculate(expression)


def _decimal_calculator(expression):
    """Decimal arithmetic for exact sums: 0.1 + 0.2 gives 0.3, not the float's 0.30000000000000004."""
    import decimal

    answer = calculate(expression)
    if answer.startswith("Error:") or ("." not in answer and "e" not in answer):
        return answer
    tree = ast.parse(expression.strip(), mode="eval")
    if not all(isinstance(n.op, ast.Add | ast.Sub) for n in ast.walk(tree) if isinstance(n, ast.BinOp)):
        return answer
    return str(eval(compile(ast.fix_missing_locations(_as_decimals(tree)), "<decimal>", "eval"),
                    {"D": decimal.Decimal}))


def _as_decimals(tree):
    class Decimals(ast.NodeTransformer):
        def visit_Constant(self, node):
            return ast.Call(ast.Name("D", ast.Load()), [ast.Constant(repr(node.value))], [])
    return Decimals().visit(tree)


NEW_CALCULATE = {
    "Decimal arithmetic for sums": ("The result is the value as text", _decimal_calculator),
    "rounded to 10 places": ("The result is the value as text", lambda expression: (
        answer if (answer := calculate(expression)).startswith("Error:") or "." not in answer
        or "e" in answer else str(round(float(answer), 10)))),
    "strips spaces only, not tabs or newlines": (
        "Spaces, tabs and newlines around the expression are allowed", _strip_spaces_only),
    "exponent cap compares int(exponent)": ("Exponent cap:", _int_exponent_cap),
    "division by zero named by its type": ("Division by zero gives `Error: division by zero`", _zero_by_type),
    "every value formatted with :g": ("The result is the value as text", _float_format),
    "negative exponents refused": ("Exponent cap:", _no_negative_exponents),
}


def _bytes_counted(text, budget):
    """Counts UTF-8 bytes, not characters."""
    size = len(text.encode())
    if size <= budget:
        return text
    kept = truncate("x" * size, budget).rfind("\n[truncated")  # what fits for a text of that size
    return text[:kept] + f"\n[truncated: {size - kept} of {size} characters cut]"


def _marker_without_newline(text, budget):
    return truncate(text, budget).replace("\n[truncated", " [truncated")


def _head_rstripped(text, budget):
    if len(text) <= budget:
        return text
    cut = truncate(text, budget)
    head = cut[: cut.rfind("\n[truncated")].rstrip()
    return head + f"\n[truncated: {len(text) - len(head)} of {len(text)} characters cut]"


NEW_TRUNCATE = {
    "counts bytes, not characters": ("comes back unchanged", _bytes_counted),
    "the marker without its newline": ("exactly in this form", _marker_without_newline),
    "strips the head's end before the marker": ("keep every character that fits", _head_rstripped),
}
NEW_PREDICTIONS = {
    "a count written as a float": ("Write whole numbers as numbers, and the end reason as text",
                                   {**PREDICTIONS, "total_lines_forgiving": 45.0}),
    "an end reason the loop does not have": ("`end_reason_with_max_steps_5`",
                                              {**PREDICTIONS, "end_reason_with_max_steps_5": "max_steps"}),
    "the end reason capitalised": ("`end_reason_with_max_steps_5`",
                                   {**PREDICTIONS, "end_reason_with_max_steps_5": "Step_limit"}),
    "a count of True": ("Write whole numbers as numbers, and the end reason as text",
                        {**PREDICTIONS, "calls_with_max_steps_5": True}),
}
NEW = {"04.tool_list": NEW_TOOL_LIST, "04.run_tool": NEW_RUN_TOOL, "04.strict_calculate": NEW_CALCULATE,
       "04.truncate_within": NEW_TRUNCATE, "04.predictions": NEW_PREDICTIONS}

EXERCISES = {
    "04.tool_list": (describe_tools, TOOL_LIST_MUTANTS),
    "04.run_tool": (run_tool, RUN_TOOL_MUTANTS),
    "04.strict_calculate": (calculate, CALCULATE_MUTANTS),
    "04.truncate_within": (truncate, TRUNCATE_MUTANTS),
    "04.predictions": (PREDICTIONS, PREDICTION_MUTANTS),
}



# ------------------------------------------------------------------------ tests


@pytest.mark.parametrize("exercise", list(EXERCISES))
def test_stub_is_not_attempted(exercise: str) -> None:
    assert check(exercise, stub if exercise != "04.predictions" else dict.fromkeys(PREDICTIONS, ...)
                 ).status == "not attempted"
    assert check(exercise, ...).status == "not attempted"


ACCEPTED = [("04.run_tool", name, right) for name, right in RUN_TOOL_ACCEPTED.items()] + [
    ("04.truncate_within", name, right) for name, right in TRUNCATE_ACCEPTED.items()]


@pytest.mark.parametrize(("exercise", "name", "right"), ACCEPTED, ids=[f"{e}:{n}" for e, n, _ in ACCEPTED])
def test_other_right_answers_pass(exercise: str, name: str, right) -> None:
    result = check(exercise, right)
    assert result.status == "passed", f"{name} was rejected:\n{result}"


def test_each_catalogue_has_at_least_five_mutants() -> None:
    assert all(len(catalogue) >= 5 for _, catalogue in EXERCISES.values())


def _spy(calculate, asked: list[str]):
    """Records what this process asked; raises if it is ever asked the huge power."""
    def spy(expression: str) -> str:
        asked.append(expression)
        if expression == HUGE and os.getpid() == PARENT:
            raise AssertionError("the check ran 9 ** 9 ** 9 in the student's own process")
        return calculate(expression)
    return spy


@pytest.mark.parametrize("name", [
    "no cap at all",
    "exponent cap only (lets (9 ** 100) ** 100 through)",
    "computes first, OverflowError reported as an exponent error",
])
def test_easy_mistakes_fail_fast_without_the_huge_power(name: str) -> None:
    asked: list[str] = []
    text = str(check("04.strict_calculate", _spy(CALCULATE_MUTANTS[name], asked)))
    assert HUGE not in asked and "9 ** 9 ** 9 was NOT run" in text


def test_exponent_cap_alone_is_caught_by_the_towers() -> None:
    text = str(check("04.strict_calculate",
                     CALCULATE_MUTANTS["exponent cap only (lets (9 ** 100) ** 100 through)"]))
    assert "FAIL  results of more than 100 digits are refused" in text
    assert "strict_calculate('11 ** 100') should give an 'Error: ...' text" in text


def test_computing_first_is_caught_by_a_cheap_probe() -> None:
    text = str(result_of("04.strict_calculate", CALCULATE_MUTANTS[
        "computes first, OverflowError reported as an exponent error"]))
    assert "FAIL  the exponent is checked before the power is computed" in text
    assert "got:      ['Error: division by zero'" in text and "the error should say 'exponent'" in text


@pytest.mark.skipif(not _isolated.can_fork(), reason="needs os.fork")
def test_huge_power_runs_in_a_child_that_is_killed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_isolated, "CHILD_SECONDS", 1)
    asked: list[str] = []
    threads = threading.active_count()
    result = check("04.strict_calculate", _spy(COMPUTES_FIRST_HIDING_ERRORS, asked))
    failed = [c for c in result.cases if c.status == "failed"]
    assert [c.name for c in failed] == [HUGE_CASE]
    assert "computes the power before it checks the caps" in failed[0].message
    assert HUGE not in asked  # the child asked it; this process never did
    assert threading.active_count() <= threads, "a case thread was left running"


def test_without_fork_the_huge_power_is_skipped(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_isolated, "can_fork", lambda: False)
    asked: list[str] = []
    result = check("04.strict_calculate", _spy(calculate, asked))
    assert result.status == "passed" and HUGE not in asked
    assert any("skipped" in c.name for c in result.cases)
    assert check("04.strict_calculate", COMPUTES_FIRST_HIDING_ERRORS).status == "passed"  # the known gap


def test_child_reports_what_came_back() -> None:
    if not _isolated.can_fork():
        pytest.skip("needs os.fork")
    assert _isolated.call_in_child(calculate, "2 ** 101")[0] == "text"
    assert _isolated.call_in_child(make_calculator(catch=False), "x")[0] == "raised"
    assert _isolated.call_in_child(make_calculator(as_text=False), "2")[0] == "other"


def test_feedback_is_specific() -> None:
    text = str(check("04.run_tool", _closest))
    assert "it ran 'refund_order' for the unknown name 'refund'" in text
    text = str(check("04.truncate_within", rc.truncate))
    assert "over the budget" in text
    text = str(result_of("04.truncate_within", TRUNCATE_MUTANTS[
        "room for the longest marker (keeps fewer characters than fit)"]))
    assert "FAIL  the cut has fewer digits than the total" in text and "room for one more" in text
    text = str(check("04.run_tool", _falsy_is_nothing))
    assert "`if not result` is true for 0 too" in text
    text = str(check("04.run_tool", _catches_some))
    assert "raised ZeroDivisionError" in text and "catch Exception" in text
    text = str(result_of("04.strict_calculate", CALCULATE_MUTANTS["True + True accepted (bool is an int)"]))
    assert "strict_calculate('True + True') should give an 'Error: ...' text" in text
    assert "got:      ['2'" in text
    text = str(check("04.predictions", {**PREDICTIONS, "calls_with_max_steps_5": 5,
                                        "end_reason_with_max_steps_5": "final_answer"}))
    assert "one more call than its limit" in text and "asked to because the steps ran out" in text
    assert "got:      5" in text and "expected: 6" not in text and "the run's own value (not shown" in text
    text = str(result_of("04.tool_list", TOOL_LIST_MUTANTS["undocumented function silently skipped"]))
    assert "raises ValueError" in text and "never leave it out" in text
    text = str(check("04.strict_calculate", _eval_calculator))
    assert "got:      ['tuple'" in text and "Never call eval" in text


# The slip run of lesson 04: the library's, which the lesson and the exercise notebook use.

QUESTION = SHOP_QUESTION


def test_predictions_are_what_the_runs_do() -> None:
    run = rc.run_react(QUESTION, slip_model(), rc.shop_tools())
    assert (run.end_reason, run.model_calls) == ("final_answer", 6)
    model = slip_model()
    rc.run_react(QUESTION, model, rc.shop_tools())
    lines = [scratchpad_lines(call.prompt) for call in model.calls]
    assert lines == [1 + 4 * (k - 1) for k in range(1, 7)]
    assert sum(lines) == PREDICTIONS["total_lines_read"]

    tools = rc.ToolRegistry({"price": forgiving_price, "calculate": rc.calculate})
    model = slip_model()
    forgiving = rc.run_react(QUESTION, model, tools)
    assert (forgiving.end_reason, forgiving.model_calls) == ("final_answer", 5)
    lines = [scratchpad_lines(call.prompt) for call in model.calls]
    assert sum(lines) == PREDICTIONS["total_lines_forgiving"]

    limited = rc.run_react(QUESTION, slip_model(), rc.shop_tools(), max_steps=5)
    assert limited.end_reason == PREDICTIONS["end_reason_with_max_steps_5"]
    assert limited.model_calls == PREDICTIONS["calls_with_max_steps_5"]
    assert limited.answer.startswith("Best effort") and "16" in limited.answer


# ------------------------------------------------------------- rules: a mutant for each
# (tests/test_rule_tables.py checks that each rule is quoted from the statement and names cases)

RULE_MUTANTS = {
    "04.tool_list": {
        "One line per function, in the order given": ["tools sorted by name"],
        "`- name(param: type, ...): description`": ["str(inspect.signature)"],
        "Types are the hints' names": ["parameter types missing"],
        "leave out the return type and default values": ["return annotation shown as a parameter",
                                                         "str(inspect.signature)"],
        "up to its first doctest line": ["doctest lines kept"],
        "every run of spaces and newlines becomes one space": ["raw multi-line docstring",
                                                              "first docstring line only"],
        "A function without a docstring": ["undocumented function silently skipped"],
        "a parameter that has no type hint": ["missing type hint not refused",
                                              "one hinted parameter is enough"],
    },
    "04.run_tool": {
        "always returns text for the model to read": ["non-text result returned as is"],
        "it never raises": ["catches only KeyError and ValueError", "raises KeyError for an unknown name"],
        "the result as text: `str(result)`": ["non-text result returned as is"],
        "`name` is not in `tools`": ["unknown name without the tool list"],
        "Run only a tool whose name matches": ["runs the closest name (difflib)"],
        "Do not lower-case the name or look for the closest one": ["runs a name in another case",
                                                                  "runs the closest name (difflib)"],
        "the exception's type, its message and a suggestion of what to change": [
            "exception type and message but no suggestion", "exception message without its type",
            "exception swallowed into ''"],
        "it returned `None`, blank text, or an empty list or dict": [
            "returns None for an empty result", "empty list shown as '[]'", "empty dict shown as '{}'"],
        "name the tool, and use one of the words": ["empty result without the tool's name",
                                                   "empty result reported as a bare 'Error.'"],
        "A result such as `0` or `False` is a result": ["`if not result`: 0 and False reported as nothing"],
    },
    "04.strict_calculate": {
        "`int` and `float` constants (not `True` or `False`, not strings)": [
            "True + True accepted (bool is an int)", "any constant allowed (strings)"],
        "the operators `+ - * / // % **`": ["// and % left out"],
        "unary minus and plus": ["no unary minus"],
        "names, function calls, attribute access, strings, lists, comparisons, other operators": [
            "~5 accepted (ast.Invert)", "attribute access allowed",
            "the library's calculate (allows functions, caps at 1000)"],
        "before it is computed": ["computes first, OverflowError reported as an exponent error",
                                  "exponent cap without abs (lets 0 ** -101 divide by zero)"],
        "Exponent cap:": ["cap only on a literal exponent", "cap of 1000, as the library's", "size cap only"],
        "`2 ** 100` is allowed": ["cap off by one (refuses 100)"],
        "Size cap:": ["exponent cap only (lets (9 ** 100) ** 100 through)", "size cap of 1000 digits",
                      "size cap without abs (fails on a negative base)"],
        "Spaces, tabs and newlines around the expression are allowed": [
            "no strip: ' 1 + 2' is an IndentationError"],
        "`10 ** 100`, with 101 digits, is refused": ["size cap with > (lets 10 ** 100 through)"],
        "Errors are texts, never exceptions": ["raises instead of returning an error text",
                                               "catches only the errors it expects (RecursionError escapes)"],
        "Division by zero gives `Error: division by zero`": ["raises instead of returning an error text"],
        "not a finite real number": ["complex and infinite results returned",
                                     "inf and nan returned (complex refused)",
                                     "complex returned (inf refused)"],
        "The result is the value as text": ["returns a number, not text",
                                            "every result written as a float (474.0)"],
    },
    "04.truncate_within": {
        "comes back unchanged": ["short text gets a marker too", "off by one at exactly the budget"],
        "keeps the beginning of the text": ["keeps the end instead of the beginning"],
        "followed by a marker line that says how much was cut": [
            "silent cut", "marker counts the budget, not the cut", "marker shows the kept characters"],
        "no thousands separators": ["numbers with thousands separators"],
        "exactly in this form": ["a marker in other words"],
        "marker included, has at most `budget` characters": [
            "result over budget (marker added after the cut)", "marker measured with a one-digit number",
            "the library's truncate (marker outside the budget)"],
        "keep every character that fits": [
            "room for the longest marker (keeps fewer characters than fit)", "cuts more than needed",
            "cut back to the last space, as rc.truncate does", "cut back two words"],
    },
    "04.predictions": {
        "`calls_with_max_steps_5`": ["forgot the forced final call"],
        "`end_reason_with_max_steps_5`": ["the right answer means a final_answer ending"],
        "`total_lines_read`": ["lines read by the last call only"],
        "`total_lines_forgiving`": ["forgiving run counted as 6 calls"],
        "Write whole numbers as numbers, and the end reason as text": ["a number written as text"],
    },
}


def test_library_functions_that_share_an_exercise_name_pass_it() -> None:
    """The library and the exercises agree: a function named like an exercise passes its check."""
    named = {e: e.split(".", 1)[1] for e in exercises("04")}
    shared = [e for e, name in named.items() if callable(getattr(rc, name, None))]
    assert shared == []  # strict_calculate and truncate_within are named for what they ask
    assert {"calculate", "truncate"} <= set(dir(rc))


def test_the_library_calculator_differs_from_the_strict_one_only_where_the_statement_says() -> None:
    """rc.calculate knows functions, allows exponents up to 1000 and words its answers its own way."""
    failed = {c.name for c in check("04.strict_calculate", rc.calculate).cases if c.status != "passed"}
    assert failed - {HUGE_CASE} == {
        "names and function calls are refused", "exponents above 100 are refused",
        "the exponent is checked before the power is computed",
        "division by zero and overflow are error texts",  # 'Error: division by zero. Allowed: ...'
        "every allowed operator",  # '1830000' for 0.15 * 12200000, where str() writes 1830000.0
        "powers within both caps are computed",  # 2 ** 0.5 to 12 significant digits
        "agrees with the answer key on generated inputs"}
    assert rc.calculate("1 / 0").startswith("Error: division by zero. Allowed:")
    assert rc.calculate("0.15 * 12200000") == "1830000"


# Wrong solutions no rule of RULE_MUTANTS lists, with the rule each breaks.
OTHER_RULES = {
    "empty result reported as 'None'": "it returned `None`, blank text, or an empty list or dict",
    "returns '' for an empty result": "it returned `None`, blank text, or an empty list or dict",
    "exception becomes a bare 'Error.'":
        "the exception's type, its message and a suggestion of what to change",
    "computes first, then checks the caps": "before it is computed",
    "eval with empty builtins":
        "names, function calls, attribute access, strings, lists, comparisons, other operators",
    "no cap at all": "Exponent cap:",
    "cut back to just after the last space": "keep every character that fits",
    "cut back to the last newline": "keep every character that fits",
    "cut back to the last space or newline": "keep every character that fits",
    "a key renamed": "`total_lines_read`",
    "not a dict": None,  # fails as a whole: there is no answer to hold to a rule
}
# Every wrong solution runs once, and fails under its rule (the stubs are tested above, where
# 04.predictions' stub is a dict of ...).
(test_right_solutions_pass, _, test_wrong_solution_fails_under_its_rule, test_every_rule_has_a_mutant,
 test_each_rules_cases_exist) = exercise_tests(
    {exercise: (right, {**from_rule_table(RULE_MUTANTS[exercise], catalogue, OTHER_RULES), **NEW[exercise]})
     for exercise, (right, catalogue) in EXERCISES.items()}, stub)
