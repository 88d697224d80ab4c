"""04.predictions as a spec: predict the cost and the ending of variations of the slip run.

The key is the runs themselves: the library's slip run (``react_course.lessons.slips``,
a scripted model, the same run whatever model the course is set to use), run once and
measured as the lesson's last cell does. The student's "function" is the dict of
predictions; a case reads one entry (``...`` is "not attempted"). The run's number is
never shown: the cell under the check shows the runs once all four are written. A
wrong prediction that a known slip of reasoning explains gets that explanation.
"""

from __future__ import annotations

import functools
from typing import Any

from ..generated import Draw, same_value
from ..plain import Opaque
from ..spec import Example, Fault, Rule, Spec, define
from ..values import describe

HIDDEN_ANSWER = "the run's own"  # the key's value: {HIDDEN_ANSWER: the answer}, shown without the answer
NAMES = ("calls_with_max_steps_5", "end_reason_with_max_steps_5", "total_lines_read", "total_lines_forgiving")
END_REASONS = ("final_answer", "step_limit", "budget", "time_limit", "repeating", "hand_over", "interrupted",
               "error")


@functools.cache
def answers() -> dict[str, Any]:
    """What the runs do: the slip run limited to 5 steps, the slip run, the run with a forgiving price."""
    from ...calculator import calculate
    from ...lessons.slips import SHOP_QUESTION, forgiving_price, scratchpad_lines, slip_model
    from ...loop import run_react
    from ...tools import ToolRegistry, shop_tools

    limited = run_react(SHOP_QUESTION, slip_model(), shop_tools(), max_steps=5)
    totals = []
    for tools in (shop_tools(), ToolRegistry({"price": forgiving_price, "calculate": calculate})):
        model = slip_model()
        run_react(SHOP_QUESTION, model, tools)
        totals.append(sum(scratchpad_lines(call.prompt) for call in model.calls))
    return dict(zip(NAMES, (limited.model_calls, limited.end_reason, *totals), strict=True))


def key(name: str) -> dict[str, Any]:
    return {HIDDEN_ANSWER: answers()[name]}


def observe(predictions: Any, args: tuple) -> Any:
    if predictions is key:
        return key(*args)
    if callable(predictions):  # an unwritten exercise's stub
        predictions()
    if not isinstance(predictions, dict):
        return Opaque(f"predictions is a {type(predictions).__name__}, not a dict")
    if args[0] not in predictions:
        return Opaque("(no such key)")
    if predictions[args[0]] is ...:
        raise NotImplementedError(f"write your prediction for {args[0]} in place of ...")
    return predictions[args[0]]


def _hidden(value: Any) -> bool:
    return isinstance(value, dict) and set(value) == {HIDDEN_ANSWER}


def compare(args: tuple, expected: dict, got: Any) -> bool | str:
    got = got[HIDDEN_ANSWER] if _hidden(got) else got  # the key compared with itself
    return same_value(expected[HIDDEN_ANSWER], got) or (
        "work it out on paper before running anything; re-read the hint")


def show_value(value: Any) -> str:
    if _hidden(value):
        return ("the run's own value (not shown here: the cell under this check runs the variations once all "
                "four predictions are written)")
    return describe(value)


# (entry, a wrong prediction) -> what that prediction overlooked.
WRONG = {
    ("calls_with_max_steps_5", 5): "5 would mean the run stops the moment it has used its 5th step; the "
                                   "lesson's max_steps=3 run made one more call than its limit: what for?",
    ("calls_with_max_steps_5", 4): "4 is the perfect run; the slip run spends two calls on its slips.",
    ("calls_with_max_steps_5", 7): "the slip run answers in 6 calls without any limit; can a limit add "
                                   "a call beyond that?",
    ("end_reason_with_max_steps_5", "final_answer"): (
        "the last reply is a Final Answer, but was the model free to answer, or asked to because the "
        "steps ran out? The end reason names what ended the run (see section 6 of the lesson)."),
    ("total_lines_read", 21): "21 is what the last call reads; the total adds up what every call read.",
    ("total_lines_read", 6): "6 is the number of calls; the total counts lines.",
    ("total_lines_read", 28): "28 is the perfect run's total (4 calls); the slip run makes 6.",
    ("total_lines_forgiving", 66): "66 is the slip run's total; the forgiving tool removes one slip, "
                                   "so one call fewer.",
    ("total_lines_forgiving", 28): "28 is the perfect run (4 calls); the forgiving tool removes only the "
                                   "'notebooks' slip: get_price still costs a call.",
}
HINTS = {
    "calls_with_max_steps_5": "Count the steps (Actions) the slip run takes before its Final Answer and "
                              "compare with the limit. Then re-read what the lesson's max_steps=3 run "
                              "did when it reached its limit: did it stop at once?",
    "end_reason_with_max_steps_5": "The end reason says what stopped the run: the model, with a Final "
                                   "Answer, or a guard. Did the model answer within its 5 steps?",
    "total_lines_read": "Write out 1 + 4(k - 1) for every call of the slip run, k = 1 up to the number of "
                        "calls, and add them up.",
    "total_lines_forgiving": "Which of the two slips does a forgiving price tool remove? Count the calls "
                             "that are left, then add 1 + 4(k - 1) over them.",
}
TYPES = "Write whole numbers as numbers, and the end reason as text"


def _known(entry: str, guess: Any, says: str) -> Fault:
    return Fault(f"`{entry}`", says, lambda args, want, got: args[0] == entry and same_value(guess, got))


FAULTS = (
    Fault(f"`{NAMES[2]}`", "The dict has no entry with this key: keep the keys as given.",
          lambda args, want, got: isinstance(got, Opaque) and "no such key" in got),
    Fault(TYPES, "Write a whole number as an int (66), not as the text '66' or the float 66.0; True and "
                 "False are not numbers here.",
          lambda args, want, got: isinstance(want[HIDDEN_ANSWER], int) and (
              isinstance(got, bool | float) or (isinstance(got, str) and got.strip().isdigit()))),
    *(_known(entry, guess, says) for (entry, guess), says in WRONG.items()),
    Fault(f"`{NAMES[1]}`", f"That is not an end reason; the loop's are: {', '.join(END_REASONS)}.",
          lambda args, want, got: args[0] == NAMES[1] and got not in END_REASONS),
)
RULES = (
    *(Rule(f"`{name}`", (name,), edge=lambda a, name=name: a[0] == name) for name in NAMES),
    Rule(TYPES, (NAMES[2],), edge=lambda a: a[0] != NAMES[1]),
)


def _inputs(draw: Draw) -> tuple:
    return (draw.pick(NAMES),)


SPEC = define(Spec(
    "04.predictions", "predict the cost and the ending of variations of the slip run", "predictions", key,
    tuple(Example(name, (name,), HINTS[name]) for name in NAMES), _inputs, RULES, faults=FAULTS,
    observe=observe, compare=compare, show=lambda args: f"predictions[{args[0]!r}]", show_value=show_value,
    count=8, time_limit=120.0, hints=(  # a case is a lookup; only the key's first run of the slips is slow
        "Write your predictions first; run the cells under the check afterwards to see the runs.",
        "For the step limit, count the slip run's Actions: each one is a step, and the Final Answer "
        "comes in the call after the last of them. Section 6 of the lesson shows what the loop does "
        "when a run reaches its limit without an answer.",
        "For the lines, list what each call reads with 1 + 4(k - 1) and add the list up; a sum of "
        "evenly spaced numbers is (how many) x (first + last) / 2.",
    )))
__all__ = ["SPEC", "answers", "key"]
