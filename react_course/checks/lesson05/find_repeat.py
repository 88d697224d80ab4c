"""05.find_repeat as a spec: near-repeats with the same result, and two calls taking turns.

The key is the library's ``stopping.find_repeat``. A history is plain data, a list of
``[tool, input, observation]``; ``observe`` turns it into the ``Call`` list the student's
function gets. Generated histories (``find_repeat_inputs.py``) grow from twins of earlier calls.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...stopping import Call, call_distance, find_repeat, word_distance
from ..plain import Raised
from ..spec import GENERATED, Example, Fault, Rule, Spec, define
from .find_repeat_inputs import history


def _calls(args: tuple) -> list[Call]:
    return [Call(*call) for call in args[0]]


def observe(function: Callable[..., Any], args: tuple) -> Any:
    return function(_calls(args))


def _wrong(near: Callable[[Call, Call], bool], seen: Callable[[str], str] = str,
           a_differs: bool = True) -> Callable[[list[Call]], str | None]:
    """The key with one part changed: how ``near`` is judged, or what is checked (a fault's ``like``)."""
    def judge(history: list[Call]) -> str | None:
        last, turns = history[-1], history[-4:]
        near_repeat = any(near(last, old) and seen(old.observation) == seen(last.observation)
                          for old in history[:-1])
        alternating = len(turns) == 4 and near(turns[0], turns[2]) and near(turns[1], turns[3]) and (
            not a_differs or not near(turns[0], turns[1]))
        return "near_repeat" if near_repeat else "alternating" if alternating else None
    return lambda history: judge(history) if history else None


def _near(a: Call, b: Call) -> bool:
    return (call_distance(a, b) or 0) <= 1 and a.tool == b.tool


def _previous_only(history: list[Call]) -> str | None:
    """A wrong solution: the latest call compared with the one before it only."""
    if len(history) >= 2 and find_repeat(history[-2:]) == "near_repeat":
        return "near_repeat"
    return find_repeat(history[-4:]) if len(history) >= 4 else None


def _any_pair(history: list[Call]) -> str | None:
    """A wrong solution: a near-repeat anywhere in the history, not only at the latest call."""
    if any(find_repeat([a, b]) for n, a in enumerate(history) for b in history[n + 1:]):
        return "near_repeat"
    return find_repeat(history)


NEAR = "the same tool, at most one word added, removed or changed"
LATEST = "the **latest** call"
SAME_SEEN = "and the same observation"
CASE = "Words are compared without regard to case"
SPACES = "split the input on whitespace"
TOOLS = "different tools are never repeats of each other"
TURNS = "the last four calls take turns, A, B, A, B"
A_NOT_B = "with A and B different"
TWO = "two words changed is a new call"
FIRST = 'Otherwise return `"alternating"`'
PROGRESS = "Return `None` when the latest call makes progress"
EMPTY = "An empty history has no latest call"
EARLIER = "when an earlier call used the same tool"


def _pairs(args: tuple, test: Callable[[Call, Call], bool]) -> bool:
    """Is ``test`` true of the latest call and some earlier one?"""
    calls = _calls(args)
    return any(test(calls[-1], old) for old in calls[:-1]) if calls else False


def _was(want: str | None, got: str | None) -> Callable[[tuple, Any, Any], bool]:
    return lambda args, expected, value: expected == want and value == got


FAULTS = (
    Fault(EMPTY, "An empty history has no latest call: return None for it (history[-1] raises IndexError).",
          found=lambda args, want, got: not args[0] and isinstance(got, Raised)),
    Fault(PROGRESS, "When the latest call makes progress, return None itself (not False, not '').",
          found=lambda args, want, got: want is None and got not in (None, "near_repeat", "alternating")),
    Fault(LATEST, "One call (or none) cannot repeat anything: judge only the history given, and keep nothing "
          "from earlier calls of your function (a default list argument does).",
          found=lambda args, want, got: len(args[0]) <= 1 and got is not None),
    Fault(SAME_SEEN, "The same observation means the same text, as it is: no lower() or strip() of it.",
          like=_wrong(_near, seen=lambda text: text.lower().strip())),
    Fault(SAME_SEEN, "A near call with a new observation found something: compare the observations too.",
          like=_wrong(_near, seen=lambda text: "")),
    Fault(CASE, "Lower-case both inputs before comparing their words.",
          like=_wrong(lambda a, b: a.tool == b.tool and word_distance(a.input.split(), b.input.split()) < 2)),
    Fault(TOOLS, "A tool's name is exact: 'Search' and 'search' are two tools.",
          like=_wrong(lambda a, b: _near(a._replace(tool=a.tool.lower()), b._replace(tool=b.tool.lower())))),
    Fault(LATEST, "Judge the latest call: two earlier calls that repeat each other are not the question.",
          like=_any_pair),
    Fault(SPACES, "Split on any whitespace, text.split() with no argument: a tab, a newline or two spaces "
          "between words is not a word.", like=_wrong(lambda a, b: a.tool == b.tool and word_distance(
              a.input.lower().split(" "), b.input.lower().split(" ")) <= 1)),
    Fault(EARLIER, "Compare the latest call with every earlier call, not only the one before it.",
          like=_previous_only),
    Fault(A_NOT_B, "Not alternating: A and B must differ (the 1st and 2nd calls not near).",
          like=_wrong(_near, a_differs=False)),
    Fault(TOOLS, "Compare the tool names too: two tools are two calls.",
          like=_wrong(lambda a, b: word_distance(a.input.lower().split(), b.input.lower().split()) <= 1)),
    Fault(FIRST, "A near-repeat is checked first; 'alternating' only when the latest call is not one.",
          found=lambda args, want, got: {want, got} == {"near_repeat", "alternating"}),
    Fault(NEAR, "The latest call is within one word of an earlier call of the same tool, with the same "
          "observation: compare words (lower-cased, split on any whitespace) with an edit distance, against "
          "every earlier call.", found=_was("near_repeat", None)),
    Fault(TWO, "Two words changed (or swapped) are two edits: more than a near-repeat.",
          found=lambda args, want, got: want is None and got == "near_repeat" and _pairs(
              args, lambda last, old: last.observation == old.observation and call_distance(last, old) == 2)),
    Fault(NEAR, "Near means a word edit distance of at most 1, the same tool and the same observation: not "
          "shared words, a ratio or the tool name alone.", found=_was(None, "near_repeat")),
    Fault(TURNS, "The last four calls take turns: the 1st near the 3rd, the 2nd near the 4th, the 1st not "
          "near the 2nd (observations do not matter here).", found=_was("alternating", None)),
    Fault(A_NOT_B, "Not alternating: check all three conditions on the last four calls.",
          found=_was(None, "alternating")),
)

NO_FLIGHTS = "No flights found for that search."
A = ["search", "Paris population", "About 2.1 million people live in Paris."]
B = ["search", "Paris area km2", "Paris covers 105 km2."]
A2 = ["search", "Paris population today", "Refused: no new information."]
B2 = ["search", "Paris area km²", "Paris covers about 105 km²."]
REFUSED = "refused"
HOTELS = ["search_hotels", "Paris May", "3 hotels near the Seine."]


def _f(text: str, seen: str = NO_FLIGHTS) -> list[str]:
    return ["search_flights", text, seen]


def _repeat(name: str, history: list, hint: str) -> Example:
    return Example(name, (history,), hint)


EXAMPLES = (
    _repeat("a first call", [_f("Delhi Paris May")], "One call cannot repeat anything."),
    _repeat("an exact repeat", [_f("Delhi Paris May"), _f("Delhi Paris May")],
            "Zero words changed is within one word."),
    _repeat("one word changed, same result", [_f("flights Delhi to Paris"), _f("flights Delhi for Paris")],
            "One word changed and the same observation: no progress."),
    _repeat("one word added, same result", [_f("Delhi Paris May"), _f("Delhi Paris May cheap")],
            "An added word counts as one change."),
    _repeat("the same call alone is a first call", [_f("Delhi Paris May cheap")],
            "Judge only the history given: a call seen in an earlier history is a first call here (a default "
            "argument that remembers earlier calls breaks this)."),
    _repeat("one word added in the middle, same result", [_f("Delhi Paris May"), _f("Delhi to Paris May")],
            "Compare words with an edit distance, not position by position: an inserted word shifts the rest "
            "but is one change."),
    _repeat("an earlier call, not only the one before",
            [_f("flights Delhi to Paris"), HOTELS, _f("flights Delhi for Paris")],
            "Compare the latest call with every earlier call, not only the one before it."),
    _repeat("one long word changed, same result", [_f("Delhi Paris May"), _f("Delhi Paris September")],
            "A word is a word, however many letters change in it: compare words, not characters."),
    _repeat("one word changed, a new result is progress",
            [_f("Delhi Paris May"), _f("Delhi Paris June", "3 flights: AI 143 at 09:10 ...")],
            "A different observation means the call found something new."),
    _repeat("case does not make a new call", [_f("delhi paris may"), _f("Delhi Paris MAY")],
            "Lower-case both inputs before comparing."),
    _repeat("a tab and a line break are whitespace", [_f("Delhi  Paris\tMay"), _f("Delhi\nParis  June")],
            "Split with text.split(): every run of whitespace separates two words."),
    _repeat("two words changed is a new call", [_f("Delhi Paris May"), _f("Mumbai London May")],
            "Two changed words are more than a near-repeat."),
    _repeat("a new search with the same result", [_f("Delhi Paris May"), _f("hotels near the Seine")],
            "Same tool and same result, but a different input: compare the words."),
    _repeat("different tools, same input",
            [["search", "Eiffel Tower", "x"], ["lookup", "Eiffel Tower", "x"]],
            "Compare the tool names too: two tools are two calls."),
    _repeat("tools that differ in case are two tools",
            [["search", "Eiffel Tower", "x"], ["Search", "Eiffel Tower", "x"]],
            "A tool's name is exact: compare tool names as they are."),
    _repeat("an earlier repeat is not the latest call's", [_f("Delhi Paris"), _f("Delhi Paris"), HOTELS],
            "Judge the latest call: two earlier calls that repeat each other are not the question."),
    _repeat("two tools, same result", [["price", "pen", "A pen: 2."], ["calculator", "pen", "A pen: 2."]],
            "The same observation from another tool is not a repeat."),
    _repeat("A, B, A, B is alternating", [A, B, [*A[:2], REFUSED], [*B[:2], REFUSED]],
            "The last four calls: the 1st and 3rd are near, the 2nd and 4th are near."),
    _repeat("A, B, A', B' with one word changed is alternating", [A, B, A2, B2],
            "Twins may differ by one word and still take turns."),
    _repeat("A, B, A, B after an earlier call is alternating",
            [_f("Delhi Paris May"), A, B, [*A[:2], REFUSED], [*B[:2], REFUSED]],
            "Take the last four calls of the history, however long it is."),
    _repeat("a near-repeat is reported before alternation", [A, B, A, B],
            "The latest call repeats an earlier one with the same result: that is a near_repeat, checked "
            "first; 'alternating' is only for calls that are not near-repeats."),
    _repeat("the same call four times is not alternating",
            [_f("Delhi Paris", f"result {n}") for n in range(4)],
            "A must differ from B; four different results of one call are not a cycle here."),
    _repeat("an empty history", [], "No latest call: nothing repeats."),
)
HIDDEN = (
    _repeat("hidden: a repeat three calls back", [_f("Goa Pune"), ["search", "Goa", "x"], _f("Pune"),
                                                  _f("goa pune")], "Compare with every earlier call."),
    _repeat("hidden: one word removed", [_f("cheap Delhi Paris"), _f("Delhi Paris")], "A word removed."),
    _repeat("hidden: taking turns after a repeat", [_f("x"), _f("x", "new"), ["a", "y", "1"], _f("x", "2"),
                                                    ["a", "y z", "3"]], "Alternation on the last four."),
)

def _says(kind: str | None) -> Callable[[tuple], bool]:
    return lambda args: observe(find_repeat, args) == kind


def _turns(args: tuple, test: Callable[[list[Call]], bool]) -> bool:
    calls = _calls(args)[-4:]
    return len(calls) == 4 and test(calls)


RULES = (
    Rule(NEAR, ("one word changed, same result", "one word added, same result", "an exact repeat",
                "one word added in the middle, same result", "a new search with the same result",
                "one long word changed, same result", GENERATED),
         edge=lambda a: _says("near_repeat")(a) and _pairs(a, lambda new, old: call_distance(new, old) == 1)),
    Rule(EARLIER, ("an earlier call, not only the one before", GENERATED),
         edge=lambda a: _says("near_repeat")(a) and find_repeat(_calls(a)[-2:]) is None),
    Rule(LATEST, ("the same call alone is a first call", "an earlier repeat is not the latest call's",
                  GENERATED),
         edge=lambda a: _says(None)(a) and any(find_repeat(_calls(a)[:n]) for n in range(2, len(a[0])))),
    Rule(EMPTY, ("an empty history",), edge=lambda a: not a[0]),
    Rule(FIRST, ("a near-repeat is reported before alternation",), edge=lambda a: _says("near_repeat")(a)
         and _turns(a, lambda t: _near(t[0], t[2]) and _near(t[1], t[3]) and not _near(t[0], t[1]))),
    Rule(SAME_SEEN, ("one word changed, a new result is progress",), edge=lambda a: _says(None)(a)
         and _pairs(a, _near)),
    Rule(CASE, ("case does not make a new call",), edge=lambda a: _says("near_repeat")(a) and _pairs(
        a, lambda last, old: word_distance(last.input.split(), old.input.split()) > 1 and _near(last, old))),
    Rule(SPACES, ("a tab and a line break are whitespace", GENERATED),
         edge=lambda a: any("\t" in c[1] or "\n" in c[1] for c in a[0])),
    Rule(TOOLS, ("different tools, same input", "two tools, same result",
                 "tools that differ in case are two tools"),
         edge=lambda a: _pairs(
        a, lambda last, old: last.tool != old.tool and last.observation == old.observation
        and last.input.lower().split() == old.input.lower().split())),
    Rule(TURNS, ("A, B, A, B is alternating", "A, B, A', B' with one word changed is alternating",
                  "A, B, A, B after an earlier call is alternating"),
         edge=_says("alternating")),
    Rule(A_NOT_B, ("the same call four times is not alternating",),
         edge=lambda a: _turns(a, lambda t: _near(t[0], t[2]) and _near(t[1], t[3]) and _near(t[0], t[1]))),
    Rule(TWO, ("two words changed is a new call",), edge=lambda a: _says(None)(a) and _pairs(
        a, lambda last, old: call_distance(last, old) == 2 and last.observation == old.observation)),
    Rule(PROGRESS, ("a first call", "two words changed is a new call", "different tools, same input"),
         edge=lambda a: bool(a[0]) and _says(None)(a)),
)

SPEC = define(Spec(
    "05.find_repeat", "find a call that makes no progress: a near-repeat, or two calls taking turns",
    "find_repeat", find_repeat, EXAMPLES, history, RULES, faults=FAULTS, hidden=HIDDEN, observe=observe,
    show=lambda args: "find_repeat([" + ", ".join(f"Call({t!r}, {i!r}, {o!r})" for t, i, o in args[0])
    + "])",
    hints=(
        "Compare words, not characters: text.lower().split(). Two calls are 'near' when they use the same "
        "tool and a word-level edit distance of at most 1 separates their inputs.",
        "A near call with a different observation is progress, not a repeat: compare observations.",
        "For alternation take the last four calls a1, b1, a2, b2: a1 near a2, b1 near b2, a1 not near b1.",
    ),
    generated_hint="Judge only the latest call, against every earlier one; 'near' is a word edit distance of "
                   "at most 1 (words in order, lower-cased, split on whitespace), not a ratio."))
__all__ = ["SPEC"]
