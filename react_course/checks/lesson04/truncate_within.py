"""Check 04.truncate_within: fit a long observation into a hard budget, marker included.

The library's ``rc.truncate`` adds its marker after cutting, so its result can
be a little longer than its budget; this exercise asks for a hard limit, hence
its own name. The test reads the marker back, so it can say which part is
wrong: the result over budget, the marker missing or malformed, the counts, or
fewer characters kept than fit (a cut result is exactly ``budget`` long).
"""

import re
from collections.abc import Callable
from typing import Any

from .. import exercise
from ..framework import Case
from ..generated import Comparison, Draw, register

_MARKER = re.compile(r"\n\[truncated: (\d+) of (\d+) characters cut\]\Z")
_LOOSE_MARKER = re.compile(r"\n\[truncated: ([\d,]+) of ([\d,]+) characters cut\]\Z")
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
        if marker is None:
            return _marker_problem(got)
        head = got[: marker.start()]
        if not text.startswith(head):
            return "keep the beginning of the text, exactly as it was"
        cut, total = int(marker[1]), int(marker[2])
        if total != len(text):
            return f"the marker says the text had {total} characters; it had {len(text)}"
        if cut != len(text) - len(head):
            return (f"the marker says {cut} characters were cut, but {len(text) - len(head)} were "
                    f"({len(text)} minus the {len(head)} kept)")
        if len(got) < budget:
            return _kept_too_little(len(got), budget, len(head), len(text))
        return True
    return test


def _marker_problem(got: str) -> str:
    if _LOOSE_MARKER.search(got):
        return "write the numbers with plain digits, without thousands separators (3000, not 3,000)"
    if "truncated" not in got:
        return ("a cut must be announced: end with a line like "
                "'[truncated: 2950 of 3000 characters cut]'")
    return ("end the result with the marker on its own line, exactly "
            "'\\n[truncated: CUT of TOTAL characters cut]'")


def _kept_too_little(length: int, budget: int, kept: int, total: int) -> str:
    message = (f"the result has {length} characters, so {budget - length} more of the text would have "
               f"fit in the budget of {budget}: keep every character that fits")
    if len(str(total - kept)) < len(str(total)):
        message += (f" (the cut, {total - kept}, has fewer digits than the total, {total}: a marker "
                    "measured with the total reserves room it does not need; try keeping one more "
                    "character while the result still fits)")
    return message


GENERATED = "agrees with the answer key on generated inputs"
RULES = {
    "comes back unchanged": ("short text unchanged", "empty text unchanged", "exactly the budget: unchanged",
                             GENERATED),
    "exactly in this form": ("the marker's counts are right", GENERATED),
    "keeps the beginning of the text": ("a long observation: within budget, marker included",
                                        "newlines in the text are kept"),
    "followed by a marker line that says how much was cut": (
        "one character over: cut, with a marker", "the marker's counts are right"),
    "no thousands separators": ("a huge page: the counts have more digits",),
    "marker included, has at most `budget` characters": (
        "a long observation: within budget, marker included", "a huge page: the counts have more digits"),
    "keep every character that fits": ("as much as fits is kept", "the cut has fewer digits than the total",
                                       "one character over: cut, with a marker", GENERATED),
}


@exercise(
    "04.truncate_within",
    "fit a long observation into a hard budget, with a marker that says how much was cut",
    hints=(
        "If len(text) <= budget, return text. Otherwise the result is head + marker, where "
        "marker = f\"\\n[truncated: {cut} of {total} characters cut]\" and cut = total - len(head).",
        "The marker's length depends on the number it shows, and the number depends on how much "
        "you keep. Start from a marker measured with the total in place of the cut (it is never "
        "shorter than the real one).",
        "keep = budget - len(that marker); then, while keep + 1 characters and their own marker "
        "still fit in the budget, keep one more. The result of a cut is exactly budget characters.",
    ),
    rules=RULES,
)
def truncate_within_cases(truncate: Callable):
    def case(name: str, text: str, budget: int, hint: str) -> Case:
        shown = repr(text) if len(text) <= 40 else f"<a text of {len(text)} characters>"
        return Case(name, lambda: truncate(text, budget), test=_fits(text, budget),
                    given=f"truncate_within({shown}, {budget})", hint=hint)

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
               "The marker's numbers have six digits here: measure the marker you will write.")
    yield case("newlines in the text are kept", _LINES_OF_TEXT, 150,
               "Keep the head exactly as it was, newlines included.")
    yield case("as much as fits is kept", _SAMPLE, 1000,
               "Do not cut more than you must: the result of a cut is exactly budget characters, "
               "with no cutting back to a space or a line.")
    yield case("the cut has fewer digits than the total", _SAMPLE[:1005], 100,
               "1005 characters, 100 kept at most: the cut (about 950) has 3 digits, the total 4. "
               "A marker measured with the total is one character too long: keep one more.")
    yield COMPARISON.case(truncate)


def key(text: str, budget: int) -> str:
    """The answer key: start from the longest marker, then keep one more character while it fits."""
    if len(text) <= budget:
        return text
    total = len(text)

    def marker(kept: int) -> str:
        return f"\n[truncated: {total - kept} of {total} characters cut]"

    kept = budget - len(marker(0))
    while kept + 1 + len(marker(kept + 1)) <= budget:
        kept += 1
    return text[:kept] + marker(kept)


PIECES = ("A pen costs 2. ", "Zürich ", "東京タワー ", "🙂", "\n", "line\r\n", "\t", "x" * 40)


def _inputs(draw: Draw) -> tuple:
    budget = draw.pick((50, 51, 60, 99, 100, 101, 120, 200, 999, 1000))
    # Lengths near the budget, and near the points where the cut or the total gains a digit.
    length = draw.pick((0, 1, budget - 1, budget, budget + 1, budget + 9, 99, 100, 101, 999, 1000, 1001,
                        1005, 1050, 9999, 10_000, 10_001, 12_345))
    pieces = draw.many(lambda d: d.pick(PIECES), 6) or ["."]
    text = "".join(pieces)
    return (text * (length // len(text) + 1))[:length], budget


def _show(args: tuple) -> str:
    text, budget = args
    shown = repr(text) if len(text) <= 60 else f"{text[:40]!r}... (a text of {len(text)} characters)"
    return f"truncate_within({shown}, {budget})"


COMPARISON = register(Comparison(
    "04.truncate_within", key, _inputs, lambda args, expected, got: _fits(*args)(got), _show,
    hint="Exactly budget characters after a cut: the kept beginning, then the marker line in the exact "
         "form the statement gives, with the real counts."))
