"""Check 03.cut_at_stop: keep the text before the earliest stop sequence.

Each case's test names the usual mistake when it shows: the stop kept, a
strip() of the result or of the stops, a -1 from str.find taken as a position,
an empty stop that matches everywhere, a stop used as a regular expression, or
a cut at a later stop than the earliest. ``RULES`` maps each rule of the
statement to the cases that exercise it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from .. import exercise, hidden_cases
from ..framework import Case
from .common import INVENTED, KEPT, OBS
from .generated_replies import CUT

GENERATED = CUT.name
RULES = {
    "before the earliest place where any of the stops occurs": (
        "cuts just before the stop", "earliest occurrence wins, whatever the order of the stops",
        GENERATED),
    "the stop itself is not kept": ("cuts just before the stop", "a stop at the very start leaves nothing"),
    "Keep the text exactly as it is (no stripping)": (
        "whitespace before the stop is kept", "leading spaces and trailing newlines are kept"),
    "Earliest means earliest in the text, not first in the list": (
        "earliest occurrence wins, whatever the order of the stops", "the first of two occurrences"),
    "the whole text when none occurs": (
        "no stop in the text: unchanged", "a stop that does not occur is skipped"),
    "matched exactly as given, newlines and case included": (
        "the stop's newline is part of it", "a stop matches only in its own case"),
    "plain text, not a regular expression": (
        "a stop with | in it is plain text", "a stop with ** in it is plain text"),
    "may be empty or `None`": ("stops=None: unchanged", "no stops: unchanged"),
    "`stops` is a list or tuple of strings": ("a tuple of stops works; the numbered form is cut too",),
    "Skip empty strings": ("an empty stop is skipped", GENERATED),
}


def _cut_test(text: str, stops: Sequence[str] | None, expected: str) -> Callable[[Any], bool | str]:
    """Compare with the right cut, and name the usual mistakes when they show."""

    def test(got: Any) -> bool | str:
        if got == expected:
            return True
        if not isinstance(got, str):
            return f"return the kept text (a str), not {type(got).__name__}"
        live = [s for s in (stops or ()) if s]
        for stop in live:
            bare = stop.strip()
            if bare != stop and bare and bare in text and got == text[: text.find(bare)]:
                return (f"it cut at {bare!r}, the stop {stop!r} without its whitespace: a stop is "
                        "matched exactly as given, and the newline in front is what keeps a thought "
                        "that merely mentions the word from being cut. Do not strip() the stops")
        regex = _regex_cut(text, live)
        if regex is not None and got == regex:
            return ("it cut at a piece of a stop: the stops were used as a regular expression, where | "
                    "means 'or' and * repeats. A stop is plain text: use text.find(stop) (or re.escape)")
        if got.strip() == expected.strip():
            return ("the whitespace around the kept text changed: return text[:position] as it is, "
                    "with no strip() of the result")
        if any(got == expected + s for s in live):
            return "the stop sequence itself was kept: cut just before it"
        if len(text) > 1 and got == text[:-1]:
            return ("the last character was dropped: str.find gives -1 for a stop that does not "
                    "occur, and text[:-1] is not 'no cut'")
        if got == "" and expected:
            return "everything was cut: is an empty stop, or a find() that gave -1 or 0, treated as a match?"
        later = [text.find(s) for s in live if s in text and text.find(s) > len(expected)]
        if any(got == text[:at] for at in later) or any(got == text[: text.rfind(s)] for s in live):
            return "it cut at a later stop: the cut belongs at the earliest place any stop occurs"
        return False

    return test


def _regex_cut(text: str, stops: list[str]) -> str | None:
    """What a cut that treats the stops as one regular expression keeps (None if it would raise)."""
    import re

    try:
        return re.split("|".join(stops), text, maxsplit=1)[0] if stops else None
    except re.error:
        return None


def _cut_case(cut: Callable, name: str, text: str, stops: Any, expected: str, hint: str) -> Case:
    return Case(name, lambda: cut(text, stops), expected=expected, test=_cut_test(text, stops, expected),
                given=f"cut_at_stop({text!r}, {stops!r})", hint=hint)


@exercise(
    "03.cut_at_stop",
    "keep the text before the earliest stop sequence",
    rules=RULES,
    hints=(
        "For each stop, text.find(stop) gives where it starts, or -1 when it does not occur.",
        "Collect the positions that are not -1 (and skip empty stops); the smallest one is the cut.",
        "No position at all means no cut: return the text unchanged. Otherwise return text[:smallest].",
    ),
)
def cut_at_stop_cases(cut: Callable[[str, Any], str]):
    yield _cut_case(cut, "cuts just before the stop", INVENTED, [OBS], KEPT,
                    "Return text[:position], where position is where the stop begins.")
    yield _cut_case(cut, "no stop in the text: unchanged",
                    "Thought: I now know the answer\nFinal Answer: 330 m", [OBS],
                    "Thought: I now know the answer\nFinal Answer: 330 m",
                    "When no stop occurs, return the text as it is.")
    yield _cut_case(cut, "a stop that does not occur is skipped", INVENTED, ["\nQuestion:", OBS], KEPT,
                    "text.find gives -1 for a stop that is absent: leave it out before taking the smallest.")
    yield _cut_case(cut, "earliest occurrence wins, whatever the order of the stops",
                    "Final Answer: 330 m\nQuestion: How tall is the Statue of Liberty?\nObservation: 93 m",
                    [OBS, "\nQuestion:"], "Final Answer: 330 m",
                    "Do not stop at the first stop of the list that occurs: find every stop's position "
                    "and cut at the smallest.")
    yield _cut_case(cut, "the first of two occurrences",
                    "Action 1: Search[Eiffel Tower]\nObservation 1: 500 m\nThought 2: done\n"
                    "Action 2: Finish[500 m]\nObservation 2: finished", [OBS],
                    "Action 1: Search[Eiffel Tower]",
                    "Use text.find (the first occurrence), not text.rfind (the last).")
    yield _cut_case(cut, "stops=None: unchanged", KEPT, None, KEPT,
                    "Treat None like an empty list: `for stop in stops or ():`.")
    yield _cut_case(cut, "no stops: unchanged", KEPT, [], KEPT,
                    "With no stops there is nothing to cut: return the text.")
    yield _cut_case(cut, "an empty stop is skipped", INVENTED, ["", OBS], KEPT,
                    "'' occurs everywhere (text.find('') is 0): skip empty stops, as an API ignores them.")
    yield _cut_case(cut, "whitespace before the stop is kept",
                    "Action: calculate\nAction Input: 330 - 93  \n\nObservation: 237", [OBS],
                    "Action: calculate\nAction Input: 330 - 93  \n",
                    "Return exactly the text before the stop; leave stripping to whoever reads it.")
    yield _cut_case(cut, "a stop at the very start leaves nothing", "Observation: 500 m",
                    ["Observation:"], "",
                    "A stop found at position 0 is a match: test `position >= 0` (or `!= -1`), not `> 0`.")
    yield _cut_case(cut, "leading spaces and trailing newlines are kept",
                    "  Action: search[Eiffel Tower]\n\n\nObservation: 330 m", [OBS],
                    "  Action: search[Eiffel Tower]\n\n",
                    "Return text[:position] exactly: no strip(), not even of the newlines before the stop.")
    yield _cut_case(cut, "the stop's newline is part of it",
                    "Thought: From the first Observation: 330 m. Now the statue.\n"
                    "Action: search[Statue of Liberty]", [OBS],
                    "Thought: From the first Observation: 330 m. Now the statue.\n"
                    "Action: search[Statue of Liberty]",
                    "Match each stop exactly as given: '\\nObservation' occurs only where a line starts "
                    "with the word, so a thought that mentions it is not cut. Do not strip the stops.")
    yield _cut_case(cut, "a stop matches only in its own case",
                    "Action: search\nAction Input: Eiffel Tower\nobservation deck hours\nObservation: 9:30",
                    [OBS], "Action: search\nAction Input: Eiffel Tower\nobservation deck hours",
                    "Match each stop exactly as given, case included: text.find(stop), not a search in "
                    "text.lower().")
    yield _cut_case(cut, "a stop with | in it is plain text",
                    "Thought: That is the end of the search.\nFinal Answer: 330 m<|end|>\nUser: thanks",
                    ["<|end|>"], "Thought: That is the end of the search.\nFinal Answer: 330 m",
                    "A stop is plain text: find it with text.find(stop). As a regular expression, "
                    "'<|end|>' means '<' or 'end' or '>'.")
    yield _cut_case(cut, "a stop with ** in it is plain text",
                    "**Action:** search\n**Action Input:** Eiffel Tower\n**Observation:** 500 m",
                    ["\n**Observation:**"], "**Action:** search\n**Action Input:** Eiffel Tower",
                    "A stop is plain text: find it with text.find(stop). As a regular expression, "
                    "'**' is an error (nothing to repeat).")
    yield _cut_case(cut, "a tuple of stops works; the numbered form is cut too",
                    "Thought 2: Now the statue.\nAction 2: Search[Statue of Liberty]\n"
                    "Observation 2: It is 93 m tall.", ("\nObservation",),
                    "Thought 2: Now the statue.\nAction 2: Search[Statue of Liberty]",
                    "stops may be any sequence (a list or a tuple): just loop over it.")
    yield CUT.case(cut)


def _reference_cut(text: str, stops: Sequence[str] | None) -> str:
    """The answer key's cut, for the hidden cases.

    >>> _reference_cut("a\\nObs: b\\nEnd", ["\\nEnd", "\\nObs"])
    'a'
    """
    found = [text.find(s) for s in (stops or ()) if s and s in text]
    return text[: min(found)] if found else text


@hidden_cases("03.cut_at_stop")
def cut_at_stop_hidden(cut: Callable[[str, Any], str]):
    """Seeded texts the notebook never shows: three stops, repeated, at both ends."""
    import random

    rng = random.Random(3)
    pieces = ["Thought: a", "\nAction: b", "\nObservation: c", "\nQuestion: d", " e ", "\n"]
    stops = ["\nObservation:", "\nQuestion:", "</s>"]
    for number in range(6):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 7)))
        text += "</s>" if number % 2 else ""
        chosen = rng.sample(stops, rng.randint(1, 3))
        yield _cut_case(cut, f"hidden case {number + 1}", text, chosen, _reference_cut(text, chosen),
                        "Cut at the earliest place any stop occurs, exactly as given.")
