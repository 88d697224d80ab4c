"""05.handover as a spec: the summary a person needs when the program ends a run.

The wording is the student's, so the comparison is not equality with the key's text:
the summary must hold the reason and the question (in any case), every item of both
lists exactly as given, and the fixed words for an empty list. The library's hand-over
(``record.handover_summary``) reads a run's steps, not these lists, so the key is here.

The arguments are the call's four, and a fifth that says whether the function was first
called on another run (``observe`` makes that call): a text about this run alone shows
nothing of it. Generated items are as people write them: outer spaces, line breaks,
quotes and a backslash, braces and ``%s``, any script and case, one longer than any cut;
each carries its own number, so no item is a part of another.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable
from typing import Any

from ..generated import Draw
from ..plain import Raised
from ..predicates import mentions
from ..spec import GENERATED, Example, Fault, Rule, Spec, define

EARLIER = ("Earlier question?", ["step (earlier)"], ["item (earlier)"], "earlier reason")


def key(question: str, done: list, open_items: list, reason: str) -> str:
    """The answer key: four parts, every item of each list, the fixed words for an empty list."""
    did = "; ".join(done) if done else "nothing was done"
    todo = "; ".join(open_items) if open_items else "nothing is open"
    return f"Stopped: {reason}. Question: {question} Done: {did}. Still open: {todo}."


def observe(function: Callable[..., Any], args: tuple) -> Any:
    """The value of the call ``args`` makes, after one call on another run when it says so.

    What the earlier call gives, or raises, is not this case's value: an error there must not
    keep the call that is judged from being made (the grader records both calls' inputs).
    """
    *call, after_another = args
    if after_another:
        with contextlib.suppress(Exception):
            function(EARLIER[0], list(EARLIER[1]), list(EARLIER[2]), EARLIER[3])
    return function(*call)


def compare(args: tuple, want: str, got: Any) -> bool | str:
    question, done, open_items, reason, _ = args
    if not isinstance(got, str) or not got.strip():
        return f"return the summary as non-empty text, not {got!r}"
    words = [reason, question, *([] if done else ["nothing was done"]),
             *([] if open_items else ["nothing is open"])]
    missing = [w for w in words if not mentions(got, w)] + [i for i in [*done, *open_items] if i not in got]
    if missing:
        return f"the summary does not mention {missing}"
    return "(earlier)" not in got or "the summary mentions an item of an earlier call"


def _changed_to(change: Callable[[str], str]) -> Callable[[tuple, Any, Any], bool]:
    """Some item is missing as given, and present as ``change`` made it (in a text ``change`` made too)."""
    return lambda args, want, got: any(item not in got and change(item) in change(got)
                                       for item in [*args[1], *args[2]] if change(item) != item)


def _lacks(pick: Callable[[tuple], list[str]]) -> Callable[[tuple, Any, Any], bool]:
    """Some of the pieces ``pick`` chooses from the arguments are missing from the text, in any case."""
    return lambda args, want, got: any(not mentions(got, piece) for piece in pick(args))


AS_GIVEN = "each list item as it is given"
ALONE = "about this run alone"
NOTHING_DONE = 'When nothing was done, say so in these words: "nothing was done"'
NOTHING_OPEN = 'When nothing is open, say so in these words: "nothing is open"'
FAULTS = (
    Fault(NOTHING_DONE, "Return the summary as text, every time: an empty list gets its words, never None.",
          found=lambda args, want, got: not isinstance(got, str | Raised)),
    Fault(AS_GIVEN, "Your function raised on items holding braces or a % (such as '{order}' or '%s'): "
          ".format() or % after the items are joined in reads them. Put the items in last, or use an "
          "f-string.", found=lambda args, want, got: isinstance(got, Raised)
          and any("{" in i or "%" in i for i in [*args[1], *args[2]])),
    Fault(ALONE, "The text mentions an item of an earlier call: build it afresh each call (a default "
          "argument such as lines=[] keeps what earlier calls put in it).",
          found=lambda args, want, got: "(earlier)" in got),
    Fault(AS_GIVEN, "An item came out with quotes or escapes: f'{done}' writes the list's repr, json.dumps "
          "its JSON. Join the items instead: '; '.join(done).",
          found=lambda args, want, got: any(item not in got and (repr(item)[1:-1] in got or json.dumps(
              item)[1:-1] in got) for item in [*args[1], *args[2]])),
    Fault(AS_GIVEN, "Keep an item's line breaks and spaces as they are: no replace() or split() of the item, "
          "no re-wrapping of the text.", found=_changed_to(lambda i: " ".join(i.split()))),
    Fault(AS_GIVEN, "Keep an item's outer spaces: no strip().", found=_changed_to(str.strip)),
    Fault(AS_GIVEN, "Keep an item's case: no capitalize(), title(), lower() or upper().",
          found=lambda args, want, got: any(item not in got and item.lower() in got.lower()
                                            for item in [*args[1], *args[2]])),
    Fault(AS_GIVEN, "Write each item whole, whatever its length: no cut.",
          found=lambda args, want, got: any(len(i) > 80 and i not in got and i[:40] in got
                                            for i in [*args[1], *args[2]])),
    Fault("says why the run stopped", "Say why the run stopped: put `reason` in the text.",
          found=_lacks(lambda args: [args[3]])),
    Fault("the question", "Repeat the question itself.", found=_lacks(lambda args: [args[0]])),
    Fault(NOTHING_DONE, "With no steps done, write the words 'nothing was done'.",
          found=_lacks(lambda args: [] if args[1] else ["nothing was done"])),
    Fault(NOTHING_OPEN, "With no open items, write the words 'nothing is open'.",
          found=_lacks(lambda args: [] if args[2] else ["nothing is open"])),
    Fault("every step that was done", "List every step of `done`, however many: join them all, the first "
          "and the last too.", found=_lacks(lambda args: list(args[1]))),
    Fault("every item still open", "List every item of `open_items`, however many: join them all, the first "
          "and the last too.", found=_lacks(lambda args: list(args[2]))),
)

Q = "Is order 88213 owed a refund for late delivery?"
DONE = ["get_order[88213] -> delivered 62 minutes late",
        "get_policy[late delivery] -> fee refunded after 30 min"]
OPEN = ["the refund amount", "who approves the refund"]
KEPT = (  # (case, an item as people write them, the hint for changing it)
    ("an item's outer spaces are kept", "  get_policy[late] -> refund  ",
     "Keep an item's outer spaces: no strip()."),
    ("an item's line break is kept", "get_policy[late]\n-> refund after 30 min",
     "Keep an item's line breaks: no replace() or split() of the item."),
    ("an item's quotes and backslash are kept", 'ask O\'Brien "why" \\ today',
     "f'{done}' writes the list's repr, with quotes and escapes: join the items, '; '.join(done)."),
    ("an item's braces are kept", "{amount} to confirm, {} or 50%s",
     ".format() (or %) after the items are joined in reads their braces: put the items in last."),
    ("a long item is kept whole", "note: " + "x" * 400, "Write each item whole, whatever its length."),
    ("an item's case is kept", "ask the customer", "Keep an item's case: no capitalize() or title()."),
    ("an item in another script is kept", "Zürich: 東京 ✓", "Keep every character of an item as it is."),
)


def _hand(name: str, hint: str, done: list = DONE, open_items: list = OPEN,
          reason: str = "step limit of 8 reached", after_another: bool = False) -> Example:
    return Example(name, (Q, done, open_items, reason, after_another), hint)


EXAMPLES = (
    _hand("the reason is stated", "Start with why the run stopped."),
    _hand("the question is repeated", "The person taking over needs the question itself."),
    _hand("every done step is listed", "List each step that was done, not just the last."),
    _hand("every open item is listed", "The open items are what the person must do next: list every one."),
    _hand("the last open item is not dropped", "Check the loop over open_items: every item, the last too.",
          open_items=[*OPEN, "reply to the customer"], reason="repeating"),
    _hand("nothing done: said so", "With no steps done, say 'nothing was done'.", done=[],
          reason="the model failed 3 times"),
    _hand("nothing open: said so", "With no open items, say 'nothing is open'.", open_items=[],
          reason="time limit of 120 s"),
    _hand("every part, step limit", "All four parts, every time.", DONE[:1], OPEN[:1], "out of steps"),
    *(_hand(name, hint, [DONE[0], item], [item + " (open)"], "repeating") for name, item, hint in KEPT),
    _hand("nothing of an earlier hand-over", "Build the text afresh on every call: a default list argument "
          "(lines=[]) keeps what earlier calls put in it.", DONE[:1], [], "out of steps", after_another=True),
)
HIDDEN = (
    _hand("hidden: twelve steps", "Every step.", [f"step {n} done" for n in range(1, 13)], OPEN, "budget"),
    _hand("hidden: nothing at all", "Both fixed phrases.", [], [], "interrupted", after_another=True),
    _hand("hidden: items with tabs", "Items as given.", ["a\tb (1)"], ["\tc (2)"], "repeating"),
)

PIECES = ("get_order[88213] -> 62 min late", "Zürich météo", "順序 5", "refund ₹250.50", "ask Ana",
          "  padded  ", "two\nlines", "O'Brien said \"hi\" \\ ok", "{order} {} {0} %s", "lower start",
          "Ünïcode",
          "long " + "x" * 300)


def _items(draw: Draw, mark: str) -> list[str]:
    return [f"{draw.pick(PIECES)} ({mark}{number})" for number in range(1, draw.below(10) + 1)]


def _inputs(draw: Draw) -> tuple:
    question = draw.pick((Q, "Wie spät ist es in 東京?", "Refund order 88291?"))
    reason = draw.pick(("step limit of 8 reached", "budget of ₹20 spent", "repeating", "time limit"))
    return question, _items(draw, "done-"), _items(draw, "open-"), reason, True


def _any_item(test: Callable[[str], bool]) -> Callable[[tuple], bool]:
    return lambda args: any(test(item) for item in [*args[1], *args[2]])


RULES = (
    Rule("says why the run stopped", ("the reason is stated", "every part, step limit")),
    Rule("every step that was done", ("every done step is listed", "every part, step limit", GENERATED),
         edge=lambda a: len(a[1]) >= 3),
    Rule("every item still open", ("every open item is listed", "every part, step limit",
                                   "the last open item is not dropped", GENERATED),
         edge=lambda a: len(a[2]) >= 3),
    Rule(NOTHING_DONE, ("nothing done: said so",), edge=lambda a: not a[1]),
    Rule(NOTHING_OPEN, ("nothing open: said so",), edge=lambda a: not a[2]),
    Rule("the question", ("the question is repeated",)),
    Rule(AS_GIVEN, (*(name for name, _, _ in KEPT), GENERATED),
         edge=_any_item(lambda i: i != i.strip() or "\n" in i or "{" in i or "\\" in i or len(i) > 300)),
    Rule(ALONE, ("nothing of an earlier hand-over", GENERATED), edge=lambda a: a[4]),
)


def _show(args: tuple) -> str:
    call = f"handover({', '.join(repr(a) for a in args[:4])})"
    return f"{call}, after a call on another run" if args[4] else call


SPEC = define(Spec(
    "05.handover", "summarise a stopped run for the person who takes over", "handover", key, EXAMPLES,
    _inputs, RULES, faults=FAULTS, hidden=HIDDEN, observe=observe, compare=compare, show=_show,
    hints=(
        "Build it from four parts: the reason, the question, the steps done, the open items.",
        "Join every item of done and of open_items; do not keep only the first or the last.",
        "Empty lists need words too: 'nothing was done', 'nothing is open'.",
    ),
    generated_hint="Every piece, every time: the reason, the question, each done step and each open item "
                   "(all of them, however many, each as given), and the fixed words for an empty list."))
__all__ = ["SPEC", "key"]
