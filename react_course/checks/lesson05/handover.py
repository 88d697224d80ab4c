"""Check 05.handover: the summary a person needs when the program ends a run."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .. import exercise
from ..framework import Case
from ..generated import Comparison, Draw, call_text
from .faults import Diagnosed, Fault

GENERATED = "agrees with the answer key on generated inputs"
RULES = {
    "says why the run stopped": ("the reason is stated", "every part, step limit"),
    "every step that was done": ("every done step is listed", "every part, step limit", GENERATED),
    "every item still open": ("every open item is listed", "every part, step limit",
                              "the last open item is not dropped", GENERATED),
    'When nothing was done, say so in these words: "nothing was done"': ("nothing done: said so",),
    'When nothing is open, say so in these words: "nothing is open"': ("nothing open: said so",),
    "the question": ("the question is repeated",),
    "each list item as it is given": ("an item's outer spaces are kept", "an item's line break is kept",
                                      "an item's quotes and backslash are kept", "an item's braces are kept",
                                      "a long item is kept whole", "an item's case is kept", GENERATED),
    "about this run alone": ("nothing of an earlier hand-over", GENERATED),
}

Q = "Is order 88213 owed a refund for late delivery?"
DONE = ["get_order[88213] -> delivered 62 minutes late",
        "get_policy[late delivery] -> fee refunded after 30 min"]
OPEN = ["the refund amount", "who approves the refund"]
AS_GIVEN = (  # (case, an item as people write them, the hint for changing it)
    ("an item's outer spaces are kept", "  get_policy[late] -> refund  ",
     "Keep an item's outer spaces: no strip()."),
    ("an item's line break is kept", "get_policy[late]\n-> refund after 30 min",
     "Keep an item's line breaks: no replace() or split() of the item."),
    ("an item's quotes and backslash are kept", 'ask O\'Brien "why" \\ today',
     "f'{done}' writes the list's repr, with quotes and escapes: join the items, '; '.join(done)."),
    ("an item's braces are kept", "{amount} to confirm, {}",
     ".format() after the items are joined in reads their braces: put the items in last."),
    ("a long item is kept whole", "note: " + "x" * 400, "Write each item whole, whatever its length."),
    ("an item's case is kept", "ask the customer", "Keep an item's case: no capitalize() or title()."),
)


def _contains(*parts: str, exact: tuple[str, ...] = (),
              absent: tuple[str, ...] = ()) -> Callable[[Any], bool | str]:
    """The text mentions each of ``parts`` (in any case) and each of ``exact`` as given."""
    def test(got: Any) -> bool | str:
        if not isinstance(got, str) or not got.strip():
            return f"return the summary as non-empty text, not {got!r}"
        missing = [p for p in parts if p.lower() not in got.lower()] + [p for p in exact if p not in got]
        if missing:
            return f"the summary does not mention {missing}"
        kept = [p for p in absent if p in got]
        return not kept or f"the summary mentions {kept}, from an earlier call"
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
    for name, item, hint in AS_GIVEN:
        yield _case(handover, name, (Q, [DONE[0], item], [item + " (open)"], "repeating"),
                    _contains(exact=(item, item + " (open)")), hint)
    yield Case("nothing of an earlier hand-over", lambda: _twice(handover),
               test=_contains(exact=(DONE[0],), absent=("(earlier)",)),
               given=f"handover('Earlier?', ['step (earlier)'], ['item (earlier)'], 'repeating'), then "
                     f"handover({Q!r}, {DONE[:1]!r}, [], 'out of steps')",
               hint="Build the text afresh on every call: a default list argument (lines=[]) keeps "
                    "what earlier calls put in it.")
    yield COMPARISON.case(handover)


def _twice(handover: Callable) -> Any:
    handover("Earlier?", ["step (earlier)"], ["item (earlier)"], "repeating")
    return handover(Q, DONE[:1], [], "out of steps")


def key(question: str, done: list, open_items: list, reason: str) -> str:
    """The answer key: four parts, every item of each list, the fixed words for an empty list."""
    did = "; ".join(done) if done else "nothing was done"
    todo = "; ".join(open_items) if open_items else "nothing is open"
    return f"Stopped: {reason}. Question: {question} Done: {did}. Still open: {todo}."


# Items as people write them: with outer spaces, line breaks, quotes and a backslash, braces,
# lower and upper case, and one longer than any cut.
PIECES = ("get_order[88213] -> 62 min late", "Zürich météo", "順序 5", "refund ₹250.50", "ask Ana",
          "  padded  ", "two\nlines", "O'Brien said \"hi\" \\ ok", "{order} {} {0} %s", "lower start",
          "Ünïcode", "long " + "x" * 300)


def _items(draw: Draw, mark: str) -> list[str]:
    # Each item carries its own number and mark, so no item is a part of another.
    count = draw.below(10)
    return [f"{draw.pick(PIECES)} ({mark}{number})" for number in range(1, count + 1)]


def _inputs(draw: Draw) -> tuple:
    question = draw.pick((Q, "Wie spät ist es in 東京?", "Refund order 88291?"))
    reason = draw.pick(("step limit of 8 reached", "budget of ₹20 spent", "repeating", "time limit"))
    return question, _items(draw, "done-"), _items(draw, "open-"), reason


EARLIER = ("Earlier question?", ["step (earlier)"], ["item (earlier)"], "earlier reason")


def _after_an_earlier_call(student: Callable, args: tuple) -> Any:
    """Call once on another run first: what the second call returns must be about its own run."""
    student(EARLIER[0], list(EARLIER[1]), list(EARLIER[2]), EARLIER[3])
    return student(*args)


def _compare(args: tuple, expected: str, got: Any) -> bool | str:
    question, done, open_items, reason = args
    words = [reason, question]
    words += [] if done else ["nothing was done"]
    words += [] if open_items else ["nothing is open"]
    return _contains(*words, exact=(*done, *open_items), absent=("(earlier)",))(got)


def _changed_to(change: Callable[[str], str]) -> Callable[[tuple, Any, Any], bool]:
    """Some item is missing from the text as given, and present as ``change`` made it."""
    def found(args: tuple, expected: Any, got: Any) -> bool:
        return any(item not in got and change(item) in got for item in [*args[1], *args[2]])
    return found


FAULTS = (
    Fault("about this run alone", "an earlier call's item", lambda args, expected, got: "(earlier)" in got,
          "The text mentions an item of an earlier call: build it afresh each call (a default "
          "argument such as lines=[] keeps what earlier calls put in it)."),
    Fault("each list item as it is given", "an item written as its repr",
          _changed_to(lambda i: repr(i)[1:-1]),
          "An item came out with quotes or escapes: f'{done}' writes the list's repr. Join the "
          "items instead: '; '.join(done)."),
    Fault("each list item as it is given", "an item with its line breaks flattened",
          _changed_to(lambda i: " ".join(i.split())),
          "Keep an item's line breaks and spaces as they are: no replace() or split() of the item."),
    Fault("each list item as it is given", "an item stripped", _changed_to(str.strip),
          "Keep an item's outer spaces: no strip()."),
    Fault("each list item as it is given", "an item with a capital added", _changed_to(str.capitalize),
          "Keep an item's case: no capitalize() or title()."),
    Fault("each list item as it is given", "a long item cut",
          lambda args, expected, got: any(len(i) > 80 and i not in got and i[:40] in got
                                          for i in [*args[1], *args[2]]),
          "Write each item whole, whatever its length: no cut."),
)
def _lacks(pick: Callable[[tuple], list[str]]) -> Callable[[tuple, Any, Any], bool]:
    """Some of the pieces ``pick`` chooses from the arguments are missing from the text, in any case."""
    return lambda args, expected, got: any(piece.lower() not in got.lower() for piece in pick(args))


FAULTS += (
    Fault('When nothing was done, say so in these words: "nothing was done"', "no text",
          lambda args, expected, got: not isinstance(got, str),
          "Return the summary as text, every time: an empty list gets its words, never None."),
    Fault("says why the run stopped", "the reason", _lacks(lambda args: [args[3]]),
          "Say why the run stopped: put `reason` in the text."),
    Fault("the question", "the question", _lacks(lambda args: [args[0]]), "Repeat the question itself."),
    Fault('When nothing was done, say so in these words: "nothing was done"', "no step done",
          _lacks(lambda args: [] if args[1] else ["nothing was done"]),
          "With no steps done, write the words 'nothing was done'."),
    Fault('When nothing is open, say so in these words: "nothing is open"', "nothing open",
          _lacks(lambda args: [] if args[2] else ["nothing is open"]),
          "With no open items, write the words 'nothing is open'."),
    Fault("every step that was done", "a step done", _lacks(lambda args: list(args[1])),
          "List every step of `done`, however many: join them all, the first and the last too."),
    Fault("every item still open", "an open item", _lacks(lambda args: list(args[2])),
          "List every item of `open_items`, however many: join them all, the first and the last too."),
)
RAISED = ("Your function raised on items holding braces such as '{order}': .format() after the items "
          "are joined in reads their braces. Put the items in last, or use an f-string.")

COMPARISON = Diagnosed(Comparison(
    "05.handover", key, _inputs, _compare, call_text("handover"), call=_after_an_earlier_call,
    hint="Every piece, every time: the reason, the question, each done step and each open item "
         "(all of them, however many, each as given), and the fixed words for an empty list."),
    FAULTS, RAISED)
