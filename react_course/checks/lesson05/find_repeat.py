"""Check 05.find_repeat: near-repeats with the same result, and two calls taking turns.

Histories are lists of ``Call(tool, input, observation)``; the student's
function judges the latest call against the ones before it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ...stopping import Call
from .. import exercise
from ..framework import Case

RULES = {
    "the same tool, at most one word added, removed or changed": (
        "one word changed, same result", "one word added, same result", "an exact repeat",
        "one word added in the middle, same result"),
    "when an earlier call used the same tool": ("an earlier call, not only the one before",),
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
