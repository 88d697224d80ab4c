"""12.reflection as a spec: which lesson a failed run's trace supports, by the first rule that holds.

The key names the kind of lesson; the library's ``structure.lesson_for`` takes the
same rules in the same order and writes the lesson's words (its last rule names
the end reason in those words, where this exercise returns ``"other"``). The
generator draws runs over the statement's space: every end reason of lesson 05,
calls or none, and any mix of the four error kinds.
"""

from __future__ import annotations

from collections.abc import Callable

from ..generated import Draw
from ..plain import Raised
from ..spec import GENERATED, Example, Fault, Rule, Spec, define

ENDINGS = ("final_answer", "step_limit", "repeating", "budget", "time_limit", "interrupted", "hand_over")
ERRORS = ("unknown_tool", "parse_error", "tool_error", "bad_input")
CALLED = ("search", "calculate", "get_order")


def key(run: dict) -> str | None:
    """The answer key: the statement's six rules, in order."""
    if run["end_reason"] == "final_answer":
        return None
    if "unknown_tool" in run["errors"]:
        return "unknown_tool"
    if run["end_reason"] == "step_limit" and not run["calls"]:
        return "no_action"
    if "parse_error" in run["errors"]:
        return "unreadable"
    if run["end_reason"] == "repeating":
        return "repeating"
    return "other"


def _is(kind: str | None) -> Callable[[tuple], bool]:
    return lambda args: key(args[0]) == kind


def _expected(kind: str | None) -> Callable[[tuple, object, object], bool]:
    return lambda args, want, got: want == kind


FINAL = "ended with a final answer gets None"
BEFORE = "before the parse errors"

RULES = (
    Rule(FINAL, ("a final answer, even with errors", GENERATED),
         edge=lambda a: _is(None)(a) and bool(a[0]["errors"])),
    Rule('"unknown_tool"', ("a misnamed tool", GENERATED),
         edge=lambda a: _is("unknown_tool")(a) and "parse_error" in a[0]["errors"]),
    Rule('"no_action"', ("thinking until the step limit", GENERATED), edge=_is("no_action")),
    Rule(BEFORE, ("thinking until the step limit",),
         edge=lambda a: _is("no_action")(a) and "parse_error" in a[0]["errors"]),
    Rule('"unreadable"', ("unreadable replies", GENERATED),
         edge=lambda a: _is("unreadable")(a) and a[0]["end_reason"] == "repeating"),
    Rule('"repeating"', ("repeated calls", GENERATED), edge=_is("repeating")),
    Rule('"other"', ("out of budget", GENERATED),
         edge=lambda a: _is("other")(a) and a[0]["end_reason"] == "step_limit"),
)

FAULTS = (
    Fault(FINAL, "reflection must not raise on any run the statement allows: read run['end_reason'], "
          "run['calls'] and run['errors'].", found=lambda args, want, got: isinstance(got, Raised)),
    Fault(FINAL, "A final answer ends every rule: return None first, whatever errors the run had.",
          found=_expected(None)),
    Fault('"unknown_tool"', "Any 'unknown_tool' error, after the final-answer rule and before every other: "
          "'unknown_tool'.", found=_expected("unknown_tool")),
    Fault(BEFORE, "Ended at 'step_limit' with no calls at all is 'no_action', even with parse errors: test "
          "this rule before the parse errors.",
          found=lambda args, want, got: want == "no_action" and got == "unreadable"),
    Fault('"no_action"', "'no_action' is for a run that ended at 'step_limit' with no calls at all: another "
          "ending, or a run that called a tool, is not thinking without acting.",
          found=lambda args, want, got: got == "no_action" or want == "no_action"),
    Fault('"unreadable"', "A 'parse_error' among the errors (and no rule above) is 'unreadable'.",
          found=_expected("unreadable")),
    Fault('"repeating"', "Ended 'repeating' (and no rule above) is 'repeating'.",
          found=_expected("repeating")),
    Fault('"other"', 'When no rule above holds, return "other": not the end reason, not None.',
          found=_expected("other")),
)


def _run(name: str, end_reason: str, calls: list[str], errors: list[str], hint: str) -> Example:
    return Example(name, ({"end_reason": end_reason, "calls": calls, "errors": errors},), hint)


EXAMPLES = (
    _run("a final answer, even with errors", "final_answer", ["search"], ["unknown_tool"],
         "A run that answered shows the program no failure: there is nothing to retry."),
    _run("a misnamed tool", "step_limit", ["search_web"], ["unknown_tool", "parse_error"],
         "A tool that does not exist is the first thing to tell the next attempt."),
    _run("thinking until the step limit", "step_limit", [], ["parse_error", "parse_error"],
         "No calls at all and the step limit: it thought and never acted."),
    _run("unreadable replies", "budget", ["search"], ["parse_error"],
         "Some replies could not be parsed, and it did act: the format is the lesson."),
    _run("repeated calls", "repeating", ["search", "search"], [], "The repeat guard ended it."),
    _run("out of budget", "budget", ["search"], ["tool_error"], 'No rule above holds: return "other".'),
)
HIDDEN = (
    _run("hidden: no calls, ended by time", "time_limit", [], ["parse_error"], "Only 'step_limit' with no "
         "calls is 'no_action'."),
    _run("hidden: repeated with a bad input", "repeating", ["get_order"] * 3, ["bad_input"], "Ended "
         "'repeating', no rule above: 'repeating'."),
    _run("hidden: handed over", "hand_over", [], [], 'No rule holds: "other".'),
)


def _inputs(draw: Draw) -> tuple:
    return ({"end_reason": draw.pick(ENDINGS), "calls": draw.many(lambda d: d.pick(CALLED), 3),
             "errors": draw.many(lambda d: d.pick(ERRORS), 3)},)


SPEC = define(Spec(
    "12.reflection", "the lesson a failed run's trace supports", "reflection", key, EXAMPLES, _inputs, RULES,
    faults=FAULTS, hidden=HIDDEN,
    hints=("Test the rules in the order the statement gives them; return at the first that holds.",
           "Thinking without acting is also a run of parse errors: that is why its rule comes first."),
    generated_hint="Test the rules in the statement's order and return at the first that holds."))
__all__ = ["SPEC", "key"]
