"""Checks 12.read_plan and 12.reflection: reading a plan, and choosing a lesson from a trace.

Hand cases for the mistakes people make (a prose line read as a call, a
numbered line skipped, "10." or "2)" read wrongly, a tool of the wrong
characters, an input cut at its own colon, no limit; a final answer reflected
on, the rules taken in the wrong order), then a seeded comparison with the
answer key (``keys.py``) on generated inputs that reach every edge the rules
name, shrunk to a small example, with the hint of the fault it shows.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from .. import exercise
from ..framework import Case
from ..generated import Comparison, Draw, call_text, same_value
from ..lesson05.faults import Diagnosed, Fault
from . import keys

GENERATED = "agrees with the answer key on generated inputs"


def _equal_case(name: str, run: Callable[[], object], want: object, given: str, hint: str) -> Case:
    return Case(name, run, test=lambda got: same_value(want, got) or f"expected {want!r}, got {got!r}",
                given=given, hint=hint)


# ------------------------------------------------------------------ 12.read_plan

TOOLS = ("search", "calculate", "get_order2", "_lookup", "Search", "GET_ORDER", "x")
NOT_TOOLS = ("search-web", "2nd", "café", "get order", "9")
INPUTS = ("SpaceX", "330 - 93", "88213", "Note: late", "", "  padded  ", "a\tb")
NUMBERS = ("", "1. ", "2.", "10. ", "12.\t", "007. ")
NOT_NUMBERS = ("2) ", "- ", "* ", "• ", "1.2. ", "a. ")
SPACES = ("", " ", "  ", "\t")
PROSE = ("First I look things up.", "", "  ", "Then compare the two heights.", "The plan:")


def _plan_line(draw: Draw) -> str:
    kind = draw.below(4)
    if kind == 3:
        return draw.pick(PROSE)
    lead, tool = draw.pick(SPACES), draw.pick(TOOLS)
    number = draw.pick(NUMBERS)
    if kind == 1:
        number = draw.pick(NOT_NUMBERS)
    elif kind == 2:
        tool = draw.pick(NOT_TOOLS)
    return f"{lead}{number}{tool}{draw.pick(SPACES)}:{draw.pick(SPACES)}{draw.pick(INPUTS)}"


def _plan(draw: Draw) -> tuple:
    return "\n".join(draw.many(_plan_line, 7)), draw.pick((6, 0, 1, 2, 3))


def _lines(args: tuple) -> list[str]:
    return args[0].splitlines()


def _has(pattern: str) -> Callable[[tuple, object, object], bool]:
    return lambda args, expected, got: any(re.match(pattern, line) for line in _lines(args))


PLAN_FAULTS = (
    Fault("Each line of the form `tool: input` is one call", "calls that are not tuples",
          lambda args, expected, got: any(type(call) is not tuple for call in got),
          "Return each call as a (tool, input) tuple, in a list."),
    Fault("At most `limit` calls", "more calls than the limit",
          lambda args, expected, got: len(got) > args[1],
          "Keep only the first `limit` calls; a limit of 0 means no calls at all (not 'no limit')."),
    Fault("`2)` and bullets", "a line starting '2)', '1.2.', 'a.' or a bullet",
          _has(r"\s*(?:[0-9]+\)|[-*•]|1\.2\.|a\.)"),
          "Only a number and a dot may come before the tool: a line starting '2)', '- ' or '* ' is "
          "not of the form tool: input, so it is skipped."),
    Fault("`10.` too", "a number of two or more digits", _has(r"\s*[0-9]{2,}\."),
          "A number is one or more digits: '10.' and '007.' start a call as '2.' does "
          "([0-9]+, not one digit)."),
    Fault("starting with a letter or an underscore", "a tool of the wrong characters",
          _has(r"\s*(?:[0-9]+\.\s*)?(?:search-web|2nd|café|get order|9)\s*:"),
          "A tool is ASCII letters, digits and underscores, starting with a letter or an underscore: "
          "'search-web', '2nd', 'café' and 'get order' are not tools, so their lines are skipped."),
    Fault("either case", "a tool with capital letters or a leading underscore",
          _has(r"\s*(?:[0-9]+\.\s*)?(?:Search|GET_ORDER|_lookup)\s*:"),
          "'Search', 'GET_ORDER' and '_lookup' are tools: keep each tool exactly as written."),
    Fault("before the colon too", "spaces before the colon", _has(r"[^:]*\w[ \t]+:"),
          "Spaces around the tool are stripped, before the colon too: 'search : x' is ('search', 'x')."),
    Fault("Only the first colon splits", "an input holding a colon", _has(r"[^:]*:.*:"),
          "Split at the first colon only: the input keeps its own colons."),
    Fault("spaces around the tool and the input are stripped", "spaces around the input",
          lambda args, expected, got: [c[1] for c in got] != [c[1] for c in expected],
          "Strip the spaces (tabs too) around the input, and keep those inside it."),
)

plan_comparison = Diagnosed(Comparison(
    "12.read_plan", keys.read_plan, _plan, lambda args, expected, got: same_value(expected, got),
    call_text("read_plan"), hint="Compare your calls with the expected ones line by line: which line "
    "did you read differently, and which rule of the statement says how to read it?"),
    PLAN_FAULTS, raised="read_plan must not raise on any text: a line that is not a call is skipped.")


@exercise(
    "12.read_plan",
    "a planner's reply read as tool: input lines",
    hints=("Match each line against a pattern: an optional number and a dot, a tool name, a colon, the rest.",
           "Split at the first colon only, strip the spaces around both parts, and stop at `limit` calls."),
    rules={
        "Each line of the form `tool: input` is one call": ("two calls", GENERATED),
        "in the order the lines come": ("two calls",),
        "starting with a letter or an underscore": ("the characters of a tool", GENERATED),
        "either case": ("the characters of a tool", GENERATED),
        "spaces around the tool and the input are stripped": ("spaces around the tool and the colon",
                                                              GENERATED),
        "before the colon too": ("spaces around the tool and the colon", GENERATED),
        "An input may be empty": ("an empty input",),
        "may start with a number": ("numbered lines",),
        "`10.` too": ("a number of two digits", GENERATED),
        "`2)` and bullets": ("a parenthesis or a bullet is not a number and a dot", GENERATED),
        "Any other line": ("prose between the calls",),
        "Only the first colon splits": ("a colon inside the input", GENERATED),
        "At most `limit` calls": ("a plan longer than the limit", "a limit of 0: no calls", GENERATED),
    },
)
def read_plan_cases(read_plan: Callable):
    def case(name: str, text: str, limit: int, hint: str) -> Case:
        return _equal_case(name, lambda: read_plan(text, limit), keys.read_plan(text, limit),
                           f"read_plan({text!r}, {limit})", hint)

    yield case("two calls", "search: Eiffel Tower\nsearch: Statue of Liberty", 6,
               "One call per line, in order, as (tool, input) tuples.")
    yield case("numbered lines", "1. price: pen\n2.  price: ruler", 6,
               "Planners number their steps: skip the number and dot.")
    yield case("a number of two digits", "9. search: a\n10. search: b\n11.calculate: 2 + 3", 6,
               "A number is one or more digits: '10.' starts a call as '9.' does.")
    yield case("a parenthesis or a bullet is not a number and a dot",
               "1) search: a\n- search: b\n* search: c\nsearch: d", 6,
               "Only a number and a dot may come before the tool; '1)', '- ' and '* ' lines are skipped.")
    yield case("the characters of a tool",
               "search-web: a\n2nd: b\ncafé: c\nget_order2: 88213\n_lookup: x\nSearch: Tesla", 6,
               "ASCII letters of either case, digits and underscores, not starting with a digit: "
               "a hyphen or an accented letter makes a line that is not a call.")
    yield case("spaces around the tool and the colon", " search : SpaceX \n\tcalculate\t:\t2 + 3\t", 6,
               "Strip the spaces around the tool (before the colon too) and around the input.")
    yield case("an empty input", "search:\nsearch: x", 6, "A tool and a colon with nothing after: input ''.")
    yield case("prose between the calls",
               "I will look both up.\nsearch: SpaceX\n\nThen the other one:\n search: Tesla ", 6,
               "A line of prose is not a call, even if it ends with a colon: a tool name is one word.")
    yield case("a colon inside the input", "search: Note: the 30-minute rule", 6,
               "The input is everything after the first colon, colons included.")
    yield case("a plan longer than the limit", "\n".join(f"search: page {i}" for i in range(5)), 2,
               "Keep the first `limit` calls: the plan must leave the loop some steps.")
    yield case("a limit of 0: no calls", "search: a\nsearch: b", 0,
               "A limit of 0 allows no calls: return [], not every call.")
    yield plan_comparison.case(read_plan)


# ------------------------------------------------------------------ 12.reflection

ENDINGS = ("final_answer", "step_limit", "repeating", "budget", "time_limit", "interrupted", "hand_over")
ERRORS = ("unknown_tool", "parse_error", "tool_error", "bad_input")
CALLED = ("search", "calculate", "get_order")


def _run(draw: Draw) -> tuple:
    return ({"end_reason": draw.pick(ENDINGS), "calls": draw.many(lambda d: d.pick(CALLED), 3),
             "errors": draw.many(lambda d: d.pick(ERRORS), 3)},)


def _expected_is(kind: str | None) -> Callable[[tuple, object, object], bool]:
    return lambda args, expected, got: expected == kind


REFLECTION_FAULTS = (
    Fault("ended with a final answer gets None", "a run that answered", _expected_is(None),
          "A final answer ends every rule: return None first, whatever errors the run had."),
    Fault('"unknown_tool"', "an unknown tool", _expected_is("unknown_tool"),
          "Any 'unknown_tool' error, after the final-answer rule and before every other: 'unknown_tool'."),
    Fault("before the parse errors", "no calls until the step limit", _expected_is("no_action"),
          "Ended at 'step_limit' with no calls at all is 'no_action', even with parse errors: "
          "test this rule before the parse errors."),
    Fault('"unreadable"', "a parse error", _expected_is("unreadable"),
          "A 'parse_error' among the errors (and no rule above) is 'unreadable'."),
    Fault('"repeating"', "a run ended by the repeat guard", _expected_is("repeating"),
          "Ended 'repeating' (and no rule above) is 'repeating'."),
    Fault('"other"', "no rule above holds", _expected_is("other"),
          'When no rule above holds, return "other" (not the end reason, not None).'),
)

reflection_comparison = Diagnosed(Comparison(
    "12.reflection", keys.reflection, _run, lambda args, expected, got: same_value(expected, got),
    call_text("reflection"), hint="Test the rules in the statement's order and return at the first "
    "that holds."), REFLECTION_FAULTS, raised="reflection must not raise on any run the statement allows.")


@exercise(
    "12.reflection",
    "the lesson a failed run's trace supports",
    hints=("Test the rules in the order the statement gives them; return at the first that holds.",
           "Thinking without acting is also a run of parse errors: that is why its rule comes first."),
    rules={
        "ended with a final answer gets None": ("a final answer, even with errors", GENERATED),
        '"unknown_tool"': ("a misnamed tool", GENERATED),
        '"no_action"': ("thinking until the step limit", GENERATED),
        "before the parse errors": ("thinking until the step limit",),
        '"unreadable"': ("unreadable replies", GENERATED),
        '"repeating"': ("repeated calls", GENERATED),
        '"other"': ("out of budget", GENERATED),
    },
)
def reflection_cases(reflection: Callable):
    def case(name: str, run: dict, hint: str) -> Case:
        return _equal_case(name, lambda: reflection(dict(run)), keys.reflection(run), f"reflection({run})",
                           hint)

    yield case("a final answer, even with errors",
               {"end_reason": "final_answer", "calls": ["search"], "errors": ["unknown_tool"]},
               "A run that answered shows the program no failure: there is nothing to retry.")
    yield case("a misnamed tool",
               {"end_reason": "step_limit", "calls": ["search_web"],
                "errors": ["unknown_tool", "parse_error"]},
               "A tool that does not exist is the first thing to tell the next attempt.")
    yield case("thinking until the step limit",
               {"end_reason": "step_limit", "calls": [], "errors": ["parse_error", "parse_error"]},
               "No calls at all and the step limit: it thought and never acted.")
    yield case("unreadable replies", {"end_reason": "budget", "calls": ["search"], "errors": ["parse_error"]},
               "Some replies could not be parsed, and it did act: the format is the lesson.")
    yield case("repeated calls", {"end_reason": "repeating", "calls": ["search", "search"], "errors": []},
               "The repeat guard ended it.")
    yield case("out of budget", {"end_reason": "budget", "calls": ["search"], "errors": ["tool_error"]},
               'No rule above holds: return "other".')
    yield reflection_comparison.case(reflection)
