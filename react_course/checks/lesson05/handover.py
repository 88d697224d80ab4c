"""Check 05.handover: the summary a person needs when the program ends a run."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .. import exercise
from ..framework import Case
from ..generated import Comparison, Draw, call_text, register

GENERATED = "agrees with the answer key on generated inputs"
RULES = {
    "says why the run stopped": ("the reason is stated", "every part, step limit"),
    "every step that was done": ("every done step is listed", "every part, step limit", GENERATED),
    "every item still open": ("every open item is listed", "every part, step limit",
                              "the last open item is not dropped", GENERATED),
    'When nothing was done, say so in these words: "nothing was done"': ("nothing done: said so",),
    'When nothing is open, say so in these words: "nothing is open"': ("nothing open: said so",),
    "the question": ("the question is repeated",),
}

Q = "Is order 88213 owed a refund for late delivery?"
DONE = ["get_order[88213] -> delivered 62 minutes late",
        "get_policy[late delivery] -> fee refunded after 30 min"]
OPEN = ["the refund amount", "who approves the refund"]


def _contains(*parts: str) -> Callable[[Any], bool | str]:
    def test(got: Any) -> bool | str:
        if not isinstance(got, str) or not got.strip():
            return f"return the summary as non-empty text, not {got!r}"
        missing = [p for p in parts if p.lower() not in got.lower()]
        return not missing or f"the summary does not mention {missing}"
    return test


def _case(handover: Callable, name: str, args: tuple, test: Callable, hint: str) -> Case:
    given = f"handover({', '.join(repr(a) for a in args)})"
    # Fresh copies of the lists for every call: a solution that empties them must not
    # change what the next case hands over.
    return Case(name, lambda: handover(*(list(a) if isinstance(a, list) else a for a in args)),
                test=test, given=given, hint=hint)


@exercise(
    "05.handover",
    "summarise a stopped run for the person who takes over",
    hints=(
        "Build it from four parts: the reason, the question, the steps done, the open items.",
        "Join every item of done and of open_items; do not keep only the first or the last.",
        "Empty lists need words too: 'nothing was done', 'nothing is open'.",
    ),
    rules=RULES,
)
def handover_cases(handover: Callable):
    args = (Q, DONE, OPEN, "step limit of 8 reached")
    yield _case(handover, "the reason is stated", args, _contains("step limit of 8 reached"),
                "Start with why the run stopped.")
    yield _case(handover, "the question is repeated", args, _contains(Q),
                "The person taking over needs the question itself.")
    yield _case(handover, "every done step is listed", args, _contains(*DONE),
                "List each step that was done, not just the last.")
    yield _case(handover, "every open item is listed", args, _contains(*OPEN),
                "The open items are what the person must do next: list every one.")
    three = (*OPEN, "reply to the customer")
    yield _case(handover, "the last open item is not dropped", (Q, DONE, list(three), "repeating"),
                _contains(*three), "Check the loop over open_items: every item, the last too.")
    yield _case(handover, "nothing done: said so", (Q, [], OPEN, "the model failed 3 times"),
                _contains("nothing was done", *OPEN), "With no steps done, say 'nothing was done'.")
    yield _case(handover, "nothing open: said so", (Q, DONE, [], "time limit of 120 s"),
                _contains("nothing is open", *DONE), "With no open items, say 'nothing is open'.")
    yield _case(handover, "every part, step limit", (Q, DONE[:1], OPEN[:1], "out of steps"),
                _contains("out of steps", Q, DONE[0], OPEN[0]), "All four parts, every time.")
    yield COMPARISON.case(handover)


def key(question: str, done: list, open_items: list, reason: str) -> str:
    """The answer key: four parts, every item of each list, the fixed words for an empty list."""
    did = "; ".join(done) if done else "nothing was done"
    todo = "; ".join(open_items) if open_items else "nothing is open"
    return f"Stopped: {reason}. Question: {question} Done: {did}. Still open: {todo}."


PIECES = ("get_order[88213] -> 62 min late", "Zürich météo", "順序 5", "refund ₹250.50", "ask Ana")


def _items(draw: Draw, mark: str) -> list[str]:
    # Each item carries its own number and mark, so no item is a part of another.
    count = draw.below(10)
    return [f"{draw.pick(PIECES)} ({mark}{number})" for number in range(1, count + 1)]


def _inputs(draw: Draw) -> tuple:
    question = draw.pick((Q, "Wie spät ist es in 東京?", "Refund order 88291?"))
    reason = draw.pick(("step limit of 8 reached", "budget of ₹20 spent", "repeating", "time limit"))
    return question, _items(draw, "done-"), _items(draw, "open-"), reason


def _compare(args: tuple, expected: str, got: Any) -> bool | str:
    question, done, open_items, reason = args
    wanted = [reason, question, *done, *open_items]
    wanted += [] if done else ["nothing was done"]
    wanted += [] if open_items else ["nothing is open"]
    return _contains(*wanted)(got)


COMPARISON = register(Comparison(
    "05.handover", key, _inputs, _compare, call_text("handover"),
    hint="Every piece, every time: the reason, the question, each done step and each open item "
         "(all of them, however many), and the fixed words for an empty list."))
