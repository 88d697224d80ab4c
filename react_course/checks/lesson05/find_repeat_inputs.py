"""The generated histories of 05.find_repeat: calls that are twins of earlier calls.

A history of random calls almost never holds a near-repeat, so most calls here are
made from an earlier one: the same input, one word changed, added or removed (in
another case too), two words swapped, two edits, the same words in upper case;
with the same tool or another, the same observation or another. Words are joined
by tabs, newlines and runs of spaces, in any script, so that a solution that splits
on one space meets a case that shows it.
"""

from __future__ import annotations

from ..generated import Draw

WORDS = ("delhi", "Paris", "MAY", "to", "for", "Zürich", "école", "Москва", "3", "flights")
SEEN = ("No flights found.", "3 flights found.", "", "Refused: no new information.", "NO FLIGHTS FOUND.",
        "No flights found. ")
TOOL_NAMES = ("search", "lookup", "Search")


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


def _call(draw: Draw, earlier: list[list[str]]) -> list[str]:
    if earlier and draw.below(4):
        twin = draw.pick(earlier)
        tool = twin[0] if draw.below(5) else draw.pick(TOOL_NAMES)
        words = _edit(draw, twin[1].split())
        seen = twin[2] if draw.below(3) else draw.pick(SEEN)
    else:
        tool, seen = draw.pick(TOOL_NAMES), draw.pick(SEEN)
        words = draw.many(lambda d: d.pick(WORDS), 4)
    return [tool, draw.pick((" ", "  ", "\t", " \n ")).join(words), seen]


def history(draw: Draw) -> tuple:
    """The arguments of one generated case: a history of up to eight calls."""
    calls: list[list[str]] = []
    for _ in range(draw.below(9)):
        calls.append(_call(draw, calls))
    return (calls,)
