"""04.truncate_within as a spec: fit a long observation into a hard budget, marker included.

The library's ``rc.truncate`` adds its marker after cutting, to a word boundary, so its
result can be longer than its budget (the lesson says so); the key is the statement's
own, here. The comparison reads the marker back, so it can say which part is wrong:
the result over budget, the marker missing or malformed, the counts, or fewer
characters kept than fit (a cut result is exactly ``budget`` long).
"""

from __future__ import annotations

import re
from typing import Any

from ..generated import Draw
from ..spec import GENERATED, Example, Fault, Rule, Spec, define

MARKER = re.compile(r"\n\[truncated: (\d+) of (\d+) characters cut\]\Z")
LOOSE = re.compile(r"\n\[truncated: ([\d,]+) of ([\d,]+) characters cut\]\Z")
LINES = "A short line.\nA longer line, with a comma in it.\n" * 20
SAMPLE = ("The Eiffel Tower is 330 m tall with its antennas. " * 80).strip()


def key(text: str, budget: int) -> str:
    """The answer key: start from the longest marker, then keep one more character while it fits.

    >>> key("x" * 60, 50)
    'xxxxxxxxxxxxx\\n[truncated: 47 of 60 characters cut]'
    """
    if len(text) <= budget:
        return text
    total = len(text)

    def marker(kept: int) -> str:
        return f"\n[truncated: {total - kept} of {total} characters cut]"

    kept = budget - len(marker(0))
    while kept + 1 + len(marker(kept + 1)) <= budget:
        kept += 1
    return text[:kept] + marker(kept)


def compare(args: tuple, expected: str, got: Any) -> bool | str:
    text, budget = args
    if not isinstance(got, str):
        return f"return text, not {type(got).__name__}"
    if len(text) <= budget:
        return got == text or (f"a text of {len(text)} characters fits the budget of {budget}: return it "
                               "unchanged")
    if len(got) > budget:
        return f"the result has {len(got)} characters, over the budget of {budget} (the marker counts too)"
    marker = MARKER.search(got)
    if marker is None:
        if LOOSE.search(got):
            return "write the numbers with plain digits, without thousands separators (3000, not 3,000)"
        return ("end the result with the marker on its own line, exactly '\\n[truncated: CUT of TOTAL "
                "characters cut]'")
    head = got[: marker.start()]
    cut, total = int(marker[1]), int(marker[2])
    if not text.startswith(head):
        return "keep the beginning of the text, exactly as it was"
    if total != len(text):
        return f"the marker says the text had {total} characters; it had {len(text)}"
    if cut != len(text) - len(head):
        return f"the marker says {cut} characters were cut, but {len(text) - len(head)} were"
    return len(got) == budget or (f"the result has {len(got)} characters, so {budget - len(got)} more of the "
                                  f"text would have fit in the budget of {budget}: keep every character that "
                                  "fits")


UNCHANGED = "comes back unchanged"
FORM = "exactly in this form"
BEGINNING = "keeps the beginning of the text"
MARKED = "followed by a marker line that says how much was cut"
DIGITS = "no thousands separators"
WITHIN = "marker included, has at most `budget` characters"
ALL = "keep every character that fits"


def _says(*words: str) -> Any:
    return lambda args, want, got: isinstance(got, str) and any(w in (compare(args, want, got) or "")
                                                                for w in words)


FAULTS = (
    Fault(UNCHANGED, "A text of at most budget characters needs no marker: `if len(text) <= budget: return "
                     "text` (<=, not <).", _says("return it unchanged")),
    Fault(WITHIN, "Count the marker in the budget: keep budget - len(marker) characters of the text, not "
                  "budget.", _says("over the budget")),
    Fault(DIGITS, "Write the counts with plain digits: f'{cut}', not f'{cut:,}'.", _says("thousands")),
    Fault(MARKED, "A cut must be announced: end with the marker line, '\\n[truncated: CUT of TOTAL "
                  "characters cut]'.",
          lambda args, want, got: isinstance(got, str) and args[0].startswith(got)
          and len(args[0]) > args[1]),
    Fault(FORM, "The marker's words are fixed by the statement: a newline, then exactly '[truncated: CUT of "
                "TOTAL characters cut]'.", _says("exactly '\\n[truncated")),
    Fault(BEGINNING, "Keep the head: text[:kept], the beginning, exactly as it was.", _says("the beginning")),
    Fault(MARKED, "CUT is the number of characters left out, len(text) - len(head); TOTAL is len(text).",
          _says("the marker says")),
    Fault(ALL, "A cut result is exactly budget characters: no cutting back to a space or a line, and a "
               "marker measured with the real cut (fewer digits than the total leave room for one more).",
          _says("would have fit")),
)


def _cut(name: str, text: str, budget: int, hint: str) -> Example:
    return Example(name, (text, budget), hint)


EXAMPLES = (
    _cut("short text unchanged", "A pen costs 2.", 60, "A text within the budget needs no marker."),
    _cut("empty text unchanged", "", 60, "An empty text is within any budget."),
    _cut("exactly the budget: unchanged", SAMPLE[:120], 120, "A text of exactly budget characters fits."),
    _cut("one character over: cut, with a marker", SAMPLE[:121], 120, "One character over is over: cut it."),
    _cut("a long observation: within budget, marker included", SAMPLE, 200,
         "Count the marker in the budget."),
    _cut("the marker's counts are right", SAMPLE, 500, "cut = len(text) - len(head), total = len(text)."),
    _cut("a huge page: the counts have more digits", "x" * 123_456, 100,
         "The marker's numbers have six digits here: measure the marker you will write."),
    _cut("newlines in the text are kept", LINES, 150, "Keep the head exactly as it was, newlines included."),
    _cut("as much as fits is kept", SAMPLE, 1000, "The result of a cut is exactly budget characters."),
    _cut("the cut has fewer digits than the total", SAMPLE[:1005], 100,
         "1005 characters, 100 kept at most: the cut (about 950) has 3 digits, the total 4. A marker "
         "measured with the total is one character too long: keep one more."),
)
HIDDEN = (_cut("hidden case 1", "é" * 10_050, 10_000, "Count characters, not bytes."),
          _cut("hidden case 2", LINES[:300], 299, "One over the budget."),
          _cut("hidden case 3", "Zürich 東京 " * 30, 50, "The smallest budget the statement allows."))

RULES = (
    Rule(UNCHANGED, ("short text unchanged", "empty text unchanged", "exactly the budget: unchanged",
                     GENERATED),
         edge=lambda a: len(a[0]) == a[1]),
    Rule(FORM, ("the marker's counts are right", GENERATED), edge=lambda a: len(a[0]) > a[1]),
    Rule(BEGINNING, ("a long observation: within budget, marker included", "newlines in the text are kept",
                     GENERATED), edge=lambda a: len(a[0]) > a[1] and "\n" in _head(*a)),
    Rule(MARKED, ("one character over: cut, with a marker", "the marker's counts are right", GENERATED),
         edge=lambda a: len(a[0]) == a[1] + 1),
    Rule(DIGITS, ("a huge page: the counts have more digits", GENERATED), edge=lambda a: len(a[0]) >= 1000),
    Rule(WITHIN, ("a long observation: within budget, marker included",
                  "a huge page: the counts have more digits", GENERATED),
         edge=lambda a: a[1] == 50 < len(a[0])),
    Rule(ALL, ("as much as fits is kept", "the cut has fewer digits than the total",
               "one character over: cut, with a marker", GENERATED), edge=lambda a: _fewer_digits(*a)),
)


def _head(text: str, budget: int) -> str:
    """The part of the text the key keeps."""
    kept = key(text, budget)
    return kept if len(text) <= budget else kept[: kept.rfind("\n[truncated")]


def _fewer_digits(text: str, budget: int) -> bool:
    """A cut with fewer digits than the total: a marker measured with the total keeps too little."""
    return len(text) > budget and len(str(len(text) - len(_head(text, budget)))) < len(str(len(text)))


PIECES = ("A pen costs 2. ", "Zürich ", "東京タワー ", "🙂", "\n", "line\r\n", "\t", "x" * 40)


def inputs(draw: Draw) -> tuple:
    budget = draw.pick((50, 51, 60, 99, 100, 101, 120, 200, 999, 1000))
    # Lengths near the budget, and near the points where the cut or the total gains a digit.
    length = draw.pick((0, 1, budget - 1, budget, budget + 1, budget + 9, 99, 100, 101, 999, 1000, 1001,
                        1005, 1050, 9999, 10_000, 10_001, 12_345))
    text = "".join(draw.many(lambda d: d.pick(PIECES), 6) or ["."])
    return (text * (length // len(text) + 1))[:length], budget


def _show(args: tuple) -> str:
    text, budget = args
    shown = repr(text) if len(text) <= 60 else f"{text[:40]!r}... (a text of {len(text)} characters)"
    return f"truncate_within({shown}, {budget})"


SPEC = define(Spec(
    "04.truncate_within",
    "fit a long observation into a hard budget, with a marker that says how much was cut",
    "truncate_within", key, EXAMPLES, inputs, RULES, faults=FAULTS, hidden=HIDDEN, compare=compare,
    show=_show,
    hints=(
        "If len(text) <= budget, return text. Otherwise the result is head + marker, where "
        "marker = f\"\\n[truncated: {cut} of {total} characters cut]\" and cut = total - len(head).",
        "The marker's length depends on the number it shows, and the number depends on how much "
        "you keep. Start from a marker measured with the total in place of the cut (it is never "
        "shorter than the real one).",
        "keep = budget - len(that marker); then, while keep + 1 characters and their own marker "
        "still fit in the budget, keep one more. The result of a cut is exactly budget characters.",
    ),
    generated_hint="Exactly budget characters after a cut: the kept beginning, then the marker line in the "
                   "exact form the statement gives, with the real counts."))
__all__ = ["SPEC", "key"]
