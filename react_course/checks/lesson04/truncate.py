"""Check 04.truncate: cut a long observation to a budget, with a marker that says how much was cut.

The test reads the marker back, so it can say which part is wrong: the
result over budget, the marker missing or malformed, the counts, or more
cut than needed.
"""

import re
from collections.abc import Callable
from typing import Any

from .. import exercise
from ..framework import Case

_MARKER = re.compile(r"\n\[truncated: (\d+) of (\d+) characters cut\]\Z")
_LINES_OF_TEXT = "A short line.\nA longer line, with a comma in it.\n" * 20
_SAMPLE = ("The Eiffel Tower is 330 m tall with its antennas. " * 80).strip()


def _fits(text: str, budget: int) -> Callable[[Any], bool | str]:
    def test(got: Any) -> bool | str:
        if not isinstance(got, str):
            return f"return text, not {type(got).__name__}"
        if len(text) <= budget:
            return got == text or (
                f"a text of {len(text)} characters fits the budget of {budget}: return it unchanged")
        if len(got) > budget:
            return (f"the result has {len(got)} characters, over the budget of {budget} "
                    "(the marker counts too)")
        marker = _MARKER.search(got)
        if marker is None and "truncated" not in got:
            return ("a cut must be announced: end with a line like "
                    "'[truncated: 2950 of 3000 characters cut]'")
        if marker is None:
            return ("end the result with the marker on its own line, exactly "
                    "'\\n[truncated: CUT of TOTAL characters cut]' with plain digits (no commas)")
        head = got[: marker.start()]
        if not text.startswith(head):
            return "keep the beginning of the text, exactly as it was"
        cut, total = int(marker[1]), int(marker[2])
        if total != len(text):
            return f"the marker says the text had {total} characters; it had {len(text)}"
        if cut != len(text) - len(head):
            return (f"the marker says {cut} characters were cut, but {len(text) - len(head)} were "
                    f"({len(text)} minus the {len(head)} kept)")
        return _uses_the_budget(text, head, budget - len(got)) or (
            f"only {len(got)} of the {budget} characters are used, and the cut is not at the last "
            "word boundary that fits: keep as much of the text as fits (ending at the last space "
            "that fits, as rc.truncate does, is fine)")
    return test


def _uses_the_budget(text: str, head: str, unused: int) -> bool:
    """The head keeps as much as fits, or stops at the last word boundary that fits.

    ``slack`` allows for a marker measured with the total in place of the cut (up to that many
    characters shorter). A word-boundary cut ends just before or just after a space or newline,
    and none of the text that would still have fit (after its first character) holds a space.

    >>> _uses_the_budget("one two three", "one two", 4), _uses_the_budget("one two three", "one", 8)
    (True, False)
    """
    slack = len(str(len(text)))
    if unused <= slack:
        return True
    at_boundary = text[len(head):len(head) + 1].isspace() or head[-1:].isspace()
    would_fit = text[len(head) + 1:len(head) + unused - slack]
    return at_boundary and " " not in would_fit


@exercise(
    "04.truncate",
    "cut a long observation to a budget, with a marker that says how much was cut",
    hints=(
        "If len(text) <= budget, return text. Otherwise the result is head + marker, where "
        "marker = f\"\\n[truncated: {cut} of {total} characters cut]\".",
        "The marker's length depends on the number it shows, and the number depends on how much "
        "you keep. Break the circle: cut has no more digits than total, so measure the marker "
        "with total in place of cut.",
        "keep = budget - len(that longest marker); head = text[:keep]; then build the real "
        "marker with cut = len(text) - len(head). (You may then cut the head back to its last "
        "space, as rc.truncate does; no further.)",
    ),
)
def truncate_cases(truncate: Callable):
    def case(name: str, text: str, budget: int, hint: str) -> Case:
        shown = repr(text) if len(text) <= 40 else f"<a text of {len(text)} characters>"
        return Case(name, lambda: truncate(text, budget), test=_fits(text, budget),
                    given=f"truncate({shown}, {budget})", hint=hint)

    yield case("short text unchanged", "A pen costs 2.", 60,
               "A text within the budget needs no marker: return it as it is.")
    yield case("empty text unchanged", "", 60, "An empty text is within any budget.")
    yield case("exactly the budget: unchanged", _SAMPLE[:120], 120,
               "A text of exactly budget characters fits: use <=, not <.")
    yield case("one character over: cut, with a marker", _SAMPLE[:121], 120,
               "One character over the budget is over: cut it and say so.")
    yield case("a long observation: within budget, marker included", _SAMPLE, 200,
               "Count the marker in the budget: keep budget - len(marker) characters of the text.")
    yield case("the marker's counts are right", _SAMPLE, 500,
               "cut = len(text) - len(head) and total = len(text).")
    yield case("a huge page: the counts have more digits", "x" * 123_456, 100,
               "Measure the marker with the largest number it can show (the total).")
    yield case("newlines in the text are kept", _LINES_OF_TEXT, 150,
               "Keep the head exactly as it was, newlines included.")
    yield case("as much as fits is kept", _SAMPLE, 1000,
               "Do not cut more than you must: keep budget - len(marker) characters, or cut back to "
               "the last space within them (as rc.truncate does), but no further.")
