"""Check 05.find_repeat: near-repeats with the same result, and two calls taking turns.

Histories are lists of ``Call(tool, input, observation)``; the student's
function judges the latest call against the ones before it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ...stopping import Call
from .. import exercise
from ..framework import Case
from ..generated import Comparison, Draw, call_text, same_value
from .faults import Diagnosed, Fault

GENERATED = "agrees with the answer key on generated inputs"
RULES = {
    "the same tool, at most one word added, removed or changed": (
        "one word changed, same result", "one word added, same result", "an exact repeat",
        "one word added in the middle, same result", GENERATED),
    "when an earlier call used the same tool": ("an earlier call, not only the one before", GENERATED),
    "the **latest** call": (GENERATED,),
    "An empty history has no latest call": ("an empty history",),
    'Otherwise return `"alternating"`': ("a near-repeat is reported before alternation",),
    "and the same observation": ("one word changed, a new result is progress",),
    "Words are compared without regard to case": ("case does not make a new call",),
    "different tools are never repeats of each other": (
        "different tools, same input", "two tools, same result"),
    "the last four calls take turns, A, B, A, B": (
        "A, B, A, B is alternating", "A, B, A', B' with one word changed is alternating"),
    "with A and B different": ("the same call four times is not alternating",),
    "two words changed is a new call": ("two words changed is a new call",),
    "Return `None` when the latest call makes progress": (
        "a first call", "two words changed is a new call", "different tools, same input"),
}

NO_FLIGHTS = "No flights found for that search."


def _f(text: str, seen: str = NO_FLIGHTS) -> Call:
    return Call("search_flights", text, seen)


def _case(find_repeat: Callable, name: str, history: Sequence[Call], expected: str | None,
          hint: str) -> Case:
    shown = "[" + ", ".join(f"{c.tool}[{c.input}] -> {c.observation[:24]!r}" for c in history) + "]"
    return Case(name, lambda: find_repeat(list(history)), expected=expected,
                given=f"find_repeat({shown})", hint=hint)


@exercise(
    "05.find_repeat",
    "find a call that makes no progress: a near-repeat, or two calls taking turns",
    hints=(
        "Compare words, not characters: text.lower().split(). Two calls are 'near' when they use "
        "the same tool and a word-level edit distance of at most 1 separates their inputs.",
        "A near call with a different observation is progress, not a repeat: compare observations.",
        "For alternation take the last four calls a1, b1, a2, b2: a1 near a2, b1 near b2, "
        "and a1 not near b1.",
    ),
    rules=RULES,
)
def find_repeat_cases(find_repeat: Callable):
    yield _case(find_repeat, "a first call", [_f("Delhi Paris May")], None,
                "One call cannot repeat anything.")
    yield _case(find_repeat, "an exact repeat", [_f("Delhi Paris May"), _f("Delhi Paris May")],
                "near_repeat", "Zero words changed is within one word.")
    yield _case(find_repeat, "one word changed, same result",
                [_f("flights Delhi to Paris"), _f("flights Delhi for Paris")], "near_repeat",
                "One word changed and the same observation: no progress.")
    yield _case(find_repeat, "one word added, same result",
                [_f("Delhi Paris May"), _f("Delhi Paris May cheap")], "near_repeat",
                "An added word counts as one change.")
    yield _case(find_repeat, "one word added in the middle, same result",
                [_f("Delhi Paris May"), _f("Delhi to Paris May")], "near_repeat",
                "Compare words with an edit distance, not position by position: an inserted word "
                "shifts the rest but is one change.")
    yield _case(find_repeat, "an earlier call, not only the one before",
                [_f("flights Delhi to Paris"), Call("search_hotels", "Paris May", "3 hotels near the Seine."),
                 _f("flights Delhi for Paris")], "near_repeat",
                "Compare the latest call with every earlier call, not only the one before it.")
    yield _case(find_repeat, "one word changed, a new result is progress",
                [_f("Delhi Paris May"), _f("Delhi Paris June", "3 flights: AI 143 at 09:10 ...")],
                None, "A different observation means the call found something new.")
    yield _case(find_repeat, "case does not make a new call",
                [_f("delhi paris may"), _f("Delhi Paris MAY")], "near_repeat",
                "Lower-case both inputs before comparing.")
    yield _case(find_repeat, "two words changed is a new call",
                [_f("Delhi Paris May"), _f("Mumbai London May")], None,
                "Two changed words are more than a near-repeat.")
    yield _case(find_repeat, "different tools, same input",
                [Call("search", "Eiffel Tower", "x"), Call("lookup", "Eiffel Tower", "x")], None,
                "Compare the tool names too: two tools are two calls.")
    yield _case(find_repeat, "two tools, same result",
                [Call("price", "pen", "A pen costs 2."), Call("calculator", "pen", "A pen costs 2.")],
                None, "The same observation from another tool is not a repeat.")
    a = Call("search", "Paris population", "About 2.1 million people live in Paris.")
    b = Call("search", "Paris area km2", "Paris covers 105 km2.")
    yield _case(find_repeat, "A, B, A, B is alternating",
                [a, b, a._replace(observation="refused"), b._replace(observation="refused")],
                "alternating", "The last four calls: the 1st and 3rd are near, the 2nd and 4th are near.")
    a2 = a._replace(input="Paris population today", observation="Refused: no new information.")
    b2 = b._replace(input="Paris area km²", observation="Paris covers about 105 km².")
    yield _case(find_repeat, "A, B, A', B' with one word changed is alternating", [a, b, a2, b2],
                "alternating", "Twins may differ by one word and still take turns.")
    yield _case(find_repeat, "a near-repeat is reported before alternation", [a, b, a, b], "near_repeat",
                "The latest call repeats an earlier one with the same result: that is a near_repeat, "
                "checked first; 'alternating' is only for calls that are not near-repeats.")
    yield _case(find_repeat, "the same call four times is not alternating",
                [_f("Delhi Paris", f"result {n}") for n in range(4)], None,
                "A must differ from B; four different results of one call are not a cycle here.")
    yield _case(find_repeat, "an empty history", [], None, "No latest call: nothing repeats.")
    yield COMPARISON.case(find_repeat)


def _words_apart(a: str, b: str) -> int:
    x, y = a.lower().split(), b.lower().split()
    row = list(range(len(y) + 1))
    for i, word in enumerate(x, 1):
        previous, row[0] = row[0], i
        for j, other in enumerate(y, 1):
            previous, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, previous + (word != other))
    return row[-1]


def _near(a: Call, b: Call) -> bool:
    return a.tool == b.tool and _words_apart(a.input, b.input) <= 1


def key(history: Sequence[Call]) -> str | None:
    """The answer key; an empty history has no latest call, so nothing repeats."""
    if not history:
        return None
    last = history[-1]
    if any(_near(last, old) and old.observation == last.observation for old in history[:-1]):
        return "near_repeat"
    if len(history) >= 4:
        a1, b1, a2, b2 = history[-4:]
        if _near(a1, a2) and _near(b1, b2) and not _near(a1, b1):
            return "alternating"
    return None


WORDS = ("delhi", "Paris", "MAY", "to", "for", "Zürich", "école", "Москва", "3", "flights")
SEEN = ("No flights found.", "3 flights found.", "", "Refused: no new information.")


def _edit(draw: Draw, words: list[str]) -> list[str]:
    """A twin of an earlier input: the same, one word changed, added or removed, or more."""
    words, at = list(words), draw.below(len(words) + 1)
    change = draw.below(7)
    if change == 1 and words:  # one word changed (or its case)
        words[min(at, len(words) - 1)] = draw.pick((*WORDS, words[0].upper()))
    elif change == 2:  # one word added
        words.insert(at, draw.pick(WORDS))
    elif change == 3 and words:  # one word removed
        del words[min(at, len(words) - 1)]
    elif change == 4 and len(words) > 1:  # two words swapped: the same words, two changes
        words[0], words[-1] = words[-1], words[0]
    elif change == 5:  # two edits
        words = _edit(draw, _edit(draw, words))
    elif change == 6:
        words = [word.upper() for word in words]
    return words


def _call(draw: Draw, earlier: list[Call]) -> Call:
    if earlier and draw.below(4):
        twin = draw.pick(earlier)
        tool = twin.tool if draw.below(5) else draw.pick(("search", "lookup"))
        words = _edit(draw, twin.input.split())
        seen = twin.observation if draw.below(3) else draw.pick(SEEN)
    else:
        tool, seen = draw.pick(("search", "lookup")), draw.pick(SEEN)
        words = draw.many(lambda d: d.pick(WORDS), 4)
    spaces = draw.pick((" ", "  ", "\t", " \n "))
    return Call(tool, spaces.join(words), seen)


def _history(draw: Draw) -> tuple:
    history: list[Call] = []
    for _ in range(draw.below(9)):
        history.append(_call(draw, history))
    return (history,)


def _was(kind: str | None, then: str | None) -> Callable[[tuple, Any, Any], bool]:
    return lambda args, expected, got: expected == kind and got == then


FAULTS = (
    Fault("the **latest** call", "a repeat with nothing to repeat",
          lambda args, expected, got: len(args[0]) <= 1 and got is not None,
          "One call (or none) cannot repeat anything: judge only the history given, and keep nothing "
          "from earlier calls of your function (a default list argument does)."),
    Fault("the same tool, at most one word added, removed or changed", "a near-repeat missed",
          _was("near_repeat", None),
          "The latest call is within one word of an earlier call of the same tool, with the same "
          "observation: compare words (lower-cased, split on any white space) with an edit distance, "
          "against every earlier call."),
    Fault("two words changed is a new call", "progress read as a repeat", _was(None, "near_repeat"),
          "Here the latest call made progress: two words apart, another tool, or a new observation "
          "(or an earlier history: judge only the history given)."),
    Fault("the last four calls take turns, A, B, A, B", "an alternation missed", _was("alternating", None),
          "The last four calls take turns: the 1st near the 3rd, the 2nd near the 4th, the 1st not "
          "near the 2nd (observations do not matter here)."),
    Fault("with A and B different", "an alternation where there is none", _was(None, "alternating"),
          "Not alternating: check all three conditions on the last four calls, A and B different too."),
    Fault('Otherwise return `"alternating"`', "the order of the two answers",
          lambda args, expected, got: {expected, got} == {"near_repeat", "alternating"},
          "A near-repeat is checked first; 'alternating' only when the latest call is not one."),
)

COMPARISON = Diagnosed(Comparison(
    "05.find_repeat", key, _history, lambda args, expected, got: same_value(expected, got),
    call_text("find_repeat"),
    hint="Judge only the latest call, against every earlier one; 'near' is a word edit distance of at "
         "most 1 (words in order, lower-cased, split on whitespace), not shared words or a ratio."), FAULTS,
    raised="An empty history has no latest call: return None for it (history[-1] raises IndexError).")
