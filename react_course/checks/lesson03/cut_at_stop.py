"""Check 03.cut_at_stop: keep the text before the earliest stop sequence.

Each case's test names the usual mistake when it shows: the stop kept, a
strip(), a -1 from str.find taken as a position, an empty stop that matches
everywhere, or a cut at a later stop than the earliest.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from .. import exercise
from ..framework import Case
from .common import INVENTED, KEPT, OBS


def _cut_test(text: str, stops: Sequence[str] | None, expected: str) -> Callable[[Any], bool | str]:
    """Compare with the right cut, and name the usual mistakes when they show."""

    def test(got: Any) -> bool | str:
        if got == expected:
            return True
        if not isinstance(got, str):
            return f"return the kept text (a str), not {type(got).__name__}"
        if got.strip() == expected.strip():
            return "the whitespace around the kept text changed: return it exactly, without strip()"
        live = [s for s in (stops or ()) if s]
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


def _cut_case(cut: Callable, name: str, text: str, stops: Any, expected: str, hint: str) -> Case:
    return Case(name, lambda: cut(text, stops), expected=expected, test=_cut_test(text, stops, expected),
                given=f"cut_at_stop({text!r}, {stops!r})", hint=hint)


@exercise(
    "03.cut_at_stop",
    "keep the text before the earliest stop sequence",
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
    yield _cut_case(cut, "a tuple of stops works; the numbered form is cut too",
                    "Thought 2: Now the statue.\nAction 2: Search[Statue of Liberty]\n"
                    "Observation 2: It is 93 m tall.", ("\nObservation",),
                    "Thought 2: Now the statue.\nAction 2: Search[Statue of Liberty]",
                    "stops may be any sequence (a list or a tuple): just loop over it.")
