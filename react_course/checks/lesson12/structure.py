"""Checks 12.read_plan and 12.reflection: reading a plan, and choosing a lesson from a trace.

Hand cases for the mistakes people make (a prose line read as a call, a
numbered line skipped, an input cut at its own colon, no limit; a final
answer reflected on, the rules taken in the wrong order so that thinking
without acting reads as "unreadable"), then a seeded comparison with the
answer key (``keys.py``) on generated inputs.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from .. import exercise
from ..framework import Case
from ..lesson09.common import against_key
from . import keys


def _equal_case(name: str, run: Callable[[], object], want: object, given: str, hint: str) -> Case:
    return Case(name, run, test=lambda got: got == want or f"expected {want!r}, got {got!r}",
                given=given, hint=hint)


# ------------------------------------------------------------------ 12.read_plan

TOOLS = ("search", "calculate", "get_order", "price")
INPUTS = ("SpaceX", "330 - 93", "88213", "Note: late", "")
PROSE = ("First I look things up.", "", "  ", "Then compare them.", "- search the page")


def _plan_text(rng: random.Random) -> tuple:
    lines = []
    for _ in range(rng.randint(0, 6)):
        kind = rng.random()
        if kind < 0.5:
            lines.append(f"{rng.choice(TOOLS)}:{' ' * rng.randint(0, 2)}{rng.choice(INPUTS)}")
        elif kind < 0.75:
            lines.append(f"{rng.randint(1, 9)}. {rng.choice(TOOLS)}: {rng.choice(INPUTS)}")
        else:
            lines.append(rng.choice(PROSE))
    return "\n".join(lines), rng.randint(0, 4)


@exercise(
    "12.read_plan",
    "a planner's reply read as tool: input lines",
    hints=("Match each line against a pattern: an optional number and a dot, a tool name, a colon, the rest.",
           "Split at the first colon only, strip the spaces around both parts, and stop at `limit` calls."),
    rules={
        "Each line of the form `tool: input` is one call": ("two calls", "the answer key on generated plans"),
        "in the order the lines come": ("two calls",),
        "may start with a number and a dot": ("numbered lines",),
        "Any other line": ("prose between the calls",),
        "Only the first colon splits": ("a colon inside the input",),
        "At most `limit` calls": ("a plan longer than the limit",),
    },
)
def read_plan_cases(read_plan: Callable):
    two = "search: Eiffel Tower\nsearch: Statue of Liberty"
    yield _equal_case("two calls", lambda: read_plan(two, 6),
                      [("search", "Eiffel Tower"), ("search", "Statue of Liberty")], f"read_plan({two!r}, 6)",
                      "One call per line, in order, as (tool, input) tuples.")
    numbered = "1. price: pen\n2.  price: ruler"
    yield _equal_case("numbered lines", lambda: read_plan(numbered, 6),
                      [("price", "pen"), ("price", "ruler")],
                      f"read_plan({numbered!r}, 6)", "Planners number their steps: skip the number and dot.")
    prose = "I will look both up.\nsearch: SpaceX\n\nThen the other one:\n search: Tesla "
    yield _equal_case("prose between the calls", lambda: read_plan(prose, 6),
                      [("search", "SpaceX"), ("search", "Tesla")], f"read_plan({prose!r}, 6)",
                      "A line of prose is not a call, even if it ends with a colon: a tool name is one word.")
    colon = "search: Note: the 30-minute rule"
    yield _equal_case("a colon inside the input", lambda: read_plan(colon, 6),
                      [("search", "Note: the 30-minute rule")], f"read_plan({colon!r}, 6)",
                      "The input is everything after the first colon, colons included.")
    long = "\n".join(f"search: page {i}" for i in range(5))
    yield _equal_case("a plan longer than the limit", lambda: read_plan(long, 2),
                      [("search", "page 0"), ("search", "page 1")], "five calls, limit 2",
                      "Keep the first `limit` calls: the plan must leave the loop some steps.")
    yield against_key("the answer key on generated plans", read_plan, keys.read_plan, _plan_text,
                      size=lambda args: (len(args[0]), args[1]))


# ------------------------------------------------------------------ 12.reflection

ENDINGS = ("final_answer", "step_limit", "repeating", "budget", "time_limit")
ERRORS = ("unknown_tool", "parse_error", "tool_error", "bad_input")


def _run(rng: random.Random) -> tuple:
    calls = [rng.choice(TOOLS) for _ in range(rng.choice((0, 0, 1, 2, 3)))]
    errors = [rng.choice(ERRORS) for _ in range(rng.randint(0, 2))]
    return ({"end_reason": rng.choice(ENDINGS), "calls": calls, "errors": errors},)


def _run_case(name: str, reflection: Callable, run: dict, want: str | None, hint: str) -> Case:
    return _equal_case(name, lambda: reflection(dict(run)), want, f"reflection({run})", hint)


@exercise(
    "12.reflection",
    "the lesson a failed run's trace supports",
    hints=("Test the rules in the order the statement gives them; return at the first that holds.",
           "Thinking without acting is also a run of parse errors: that is why its rule comes first."),
    rules={
        "ended with a final answer gets None": ("a final answer, even with errors",
                                                "the answer key on generated runs"),
        '"unknown_tool"': ("a misnamed tool",),
        '"no_action"': ("thinking until the step limit", "the answer key on generated runs"),
        "before the parse errors": ("thinking until the step limit",),
        '"unreadable"': ("unreadable replies",),
        '"repeating"': ("repeated calls",),
        '"other"': ("out of budget",),
    },
)
def reflection_cases(reflection: Callable):
    yield _run_case("a final answer, even with errors", reflection,
                    {"end_reason": "final_answer", "calls": ["search"], "errors": ["unknown_tool"]}, None,
                    "A run that answered shows the program no failure: there is nothing to retry.")
    yield _run_case("a misnamed tool", reflection,
                    {"end_reason": "step_limit", "calls": ["search_web"],
                     "errors": ["unknown_tool", "parse_error"]},
                    "unknown_tool", "A tool that does not exist is the first thing to tell the next attempt.")
    yield _run_case("thinking until the step limit", reflection,
                    {"end_reason": "step_limit", "calls": [], "errors": ["parse_error", "parse_error"]},
                    "no_action", "No calls at all and the step limit: it thought and never acted.")
    yield _run_case("unreadable replies", reflection,
                    {"end_reason": "budget", "calls": ["search"], "errors": ["parse_error"]}, "unreadable",
                    "Some replies could not be parsed, and it did act: the format is the lesson.")
    yield _run_case("repeated calls", reflection,
                    {"end_reason": "repeating", "calls": ["search", "search"], "errors": []}, "repeating",
                    "The repeat guard ended it.")
    yield _run_case("out of budget", reflection,
                    {"end_reason": "budget", "calls": ["search"], "errors": ["tool_error"]}, "other",
                    "No rule above matches: the lesson is the end reason itself.")
    yield against_key("the answer key on generated runs", reflection, keys.reflection, _run,
                      size=lambda args: (len(args[0]["calls"]) + len(args[0]["errors"]), repr(args)))
