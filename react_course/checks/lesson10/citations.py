"""Check 10.uncited_claims: every number in an answer needs an observation it cites.

The lesson's trap: the invented order's answer ("delivered 45 minutes late
[1]") cites a step, but the step never said 45. A check that only looks for a
citation, or finds "45" inside "145", passes it. The cases pin each rule of
the statement; a seeded comparison with the answer key covers the rest.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable

from .. import exercise, hidden_cases
from ..framework import Case
from ..generated import Comparison, Draw, call_text, same_value
from ..lesson05.faults import Diagnosed, Fault
from . import keys

OBS = {
    1: "Order 88213: delivered 19:02 (62 minutes late); fee 25 INR.",
    2: "More than 30 minutes late refunds the fee.",
    3: "25",
}
GENERATED = "the answer key on generated answers"

# Numbers in every form the statement names (whole, with a decimal point) and the traps beside
# them: a number inside a longer one (62 in 1062, 62 in 62.5), a decimal's two halves (3 and 9).
NUMBERS = ("25", "62", "3.9", "62.5", "1062", "3", "9", "0.5", "7")
WORDS = ("fee", "km", "minutes late", "days", "INR")
ENDS = (".", "!", "?")
GAPS = (" ", "\n", "  ", "\t", "\n\n")  # white space between sentences, not only one space


def _observation(draw: Draw) -> str:
    words = (draw.pick(NUMBERS) if draw.boolean() else draw.pick(WORDS) for _ in range(draw.integer(1, 3)))
    return " ".join(words)


def _sentence(draw: Draw) -> str:
    words = [draw.pick(("Refund", "It was", "About", "So"))]
    words += [draw.pick(NUMBERS) if draw.below(4) else draw.pick(WORDS) for _ in range(draw.integer(1, 2))]
    cites = "".join(f"[{draw.integer(1, 4)}]" for _ in range(draw.integer(0, 2)))
    return " ".join(words) + (" " + cites if cites else "") + draw.pick(ENDS)


def _answer(draw: Draw) -> tuple:
    """An answer of one to three sentences, citing up to two steps (step 4 never exists)."""
    observations = {n: _observation(draw) for n in range(1, draw.integer(1, 4))}
    text = _sentence(draw)
    for _ in range(draw.integer(0, 2)):
        text += draw.pick(GAPS) + _sentence(draw)
    return text, observations


def _compare(args: tuple, expected: list, got: object) -> bool:
    return same_value(expected, got)


def _decimal(args: tuple, expected: object, got: object) -> bool:
    return any("." in n for n in keys.NUMBER.findall(args[0] + " ".join(args[1].values())))


def _inside(args: tuple, expected: object, got: object) -> bool:
    claimed = set(re.findall(r"\d+", keys.CITATION.sub("", args[0])))
    return any(n in text and n not in keys.NUMBER.findall(text) for n in claimed for text in args[1].values())


FAULTS = (
    Fault("followed by white space", "a line break or several spaces between sentences",
          lambda args, expected, got: bool(re.search(r"[.!?](?: {2,}|[\t\n])", args[0])),
          "A sentence ends at . ! or ? followed by any white space: a line break, a tab, several spaces "
          "(re.split(r'(?<=[.!?])\\s+', answer), not answer.split('. '))."),
    Fault("maybe with a decimal point", "a number with a decimal point", _decimal,
          "3.9 is one number, not 3 and 9: read digits with an optional decimal part "
          "(\\d+(?:\\.\\d+)?), in the answer and in the observations alike."),
    Fault("as a whole number", "a number found inside a longer one", _inside,
          "Compare whole numbers: 62 is not in 1062, nor in 62.5. Read the observation's numbers and "
          "look the claim's number up among them."),
    Fault("supports nothing", "a citation of a step that is not there",
          lambda args, expected, got: any(int(n) not in args[1] for n in keys.CITATION.findall(args[0])),
          "A citation of a missing step supports nothing: skip it (and do not raise)."),
)
FAULTS += (
    Fault("Split the answer into sentences", "two sentences taken as one",
          lambda args, expected, got: any(len(re.findall(r"[.!?]\s", g)) > len(re.findall(r"[.!?]\s", e))
                                          for g in got for e in expected[:1] or [""]),
          "Judge each sentence on its own: split the answer where ., ! or ? is followed by white space."),
    Fault("in order", "the order", lambda args, expected, got: sorted(got) == sorted(expected),
          "Return the flagged sentences in the order they come in the answer."),
    Fault("holds a number", "a sentence without a number",
          lambda args, expected, got: any(not keys.NUMBER.findall(keys.CITATION.sub("", g)) for g in got),
          "A sentence without a number (citations aside) is never flagged."),
)
RAISED = "uncited_claims must not raise: a citation of a step that is not in observations supports nothing."
COMPARISON = Diagnosed(Comparison(
    "10.uncited_claims", keys.uncited_claims, _answer, _compare, call_text("uncited_claims"),
    hint="Split into sentences, then judge each on its own: its numbers, and the observations it cites.",
    name=GENERATED), FAULTS, RAISED)
HIDDEN = Diagnosed(dataclasses.replace(COMPARISON.plain, name="hidden case: more generated inputs",
                                       count=400, seed=1010), FAULTS, RAISED, keep=False)


@exercise(
    "10.uncited_claims",
    "flag the claims no observation supports",
    hints=(
        'Split with re.split(r"(?<=[.!?])\\s+", answer); in each sentence find the cited step numbers '
        '(r"\\[(\\d+)\\]") and, after removing the citations, the numbers '
        '(r"(?<![\\d.])\\d+(?:\\.\\d+)?(?!\\d)").',
        "A number is found in an observation when the same pattern finds it there as a whole number; "
        "every number needs some cited observation, and a citation of a missing step is skipped.",
    ),
    rules={
        "Split the answer into sentences": ("one sentence flagged of two",),
        "followed by white space": ("a line break between sentences", GENERATED),
        "holds a number": ("a sentence without a number", GENERATED),
        "maybe with a decimal point": ("a number with a decimal point", "a decimal found whole", GENERATED),
        "not counting the citation numbers": ("citation numbers are not claims",),
        "every number in it": ("every number needs support",),
        "in at least one observation it cites": ("an observation it does not cite", "the careful answer"),
        "as a whole number": ("62 is not in 1062", "62 is not in 62.5", GENERATED),
        "supports nothing": ("a step that does not exist", GENERATED),
        "in order": ("in order",),
    },
)
def uncited_claims_cases(uncited_claims: Callable):
    def case(name, answer, observations, want, hint):
        return Case(
            name,
            lambda: uncited_claims(answer, observations),
            expected=want,
            given=f"uncited_claims({answer!r}, {observations!r})",
            hint=hint,
        )

    careful = (
        "Refund 25 INR [3]. It arrived 62 minutes late [1], and more than 30 minutes refunds the fee [2]."
    )
    yield case("the careful answer", careful, OBS, [], "Each number is in an observation its sentence cites.")
    yield case(
        "a sentence without a number",
        "Sorry for the wait. Refund 25 INR [3].",
        OBS,
        [],
        "A sentence with no number makes no claim this check can test.",
    )
    yield case(
        "one sentence flagged of two",
        "Refund 25 INR [3]. It was 45 minutes late [1].",
        OBS,
        ["It was 45 minutes late [1]."],
        "Judge each sentence on its own, and return it as written.",
    )
    yield case(
        "citation numbers are not claims",
        "The fee is refunded [2].",
        OBS,
        [],
        "The 2 in [2] is a citation, not a number the sentence claims.",
    )
    yield case(
        "every number needs support",
        "Refund 25 INR, 480 kept [3].",
        OBS,
        ["Refund 25 INR, 480 kept [3]."],
        "25 is in step 3, but 480 is in no cited observation: the sentence is flagged.",
    )
    yield case(
        "an observation it does not cite",
        "It was 62 minutes late [3].",
        OBS,
        ["It was 62 minutes late [3]."],
        "62 is in step 1, but the sentence cites step 3 only.",
    )
    yield case(
        "62 is not in 1062",
        "It took 62 steps [1].",
        {1: "It took 1062 steps."},
        ["It took 62 steps [1]."],
        "Compare whole numbers: 62 is not a number of 1062.",
    )
    yield case(
        "62 is not in 62.5",
        "It was 62 minutes late [1].",
        {1: "It was 62.5 minutes late."},
        ["It was 62 minutes late [1]."],
        "62.5 is one number: 62 is not found in it.",
    )
    yield case(
        "a line break between sentences",
        "Refund 25 INR [3].\nIt was 45 minutes late [1].",
        OBS,
        ["It was 45 minutes late [1]."],
        "A sentence ends at . ! or ? followed by any white space, a line break too.",
    )
    yield case(
        "a number with a decimal point",
        "The shop is 3.9 km away [1].",
        {1: "3 km by road, 9 stops by bus."},
        ["The shop is 3.9 km away [1]."],
        "3.9 is one number, and no observation says 3.9: read the decimal part too.",
    )
    yield case(
        "a decimal found whole",
        "The shop is 3.9 km away [1]. Fee 0.5 INR [2].",
        {1: "Distance: 3.9 km.", 2: "fee 0.5"},
        [],
        "3.9 is in the observation as a whole number: the claim is supported.",
    )
    yield case(
        "a step that does not exist",
        "Refund 25 INR [9].",
        OBS,
        ["Refund 25 INR [9]."],
        "Step 9 is not in the observations: it supports nothing (and must not raise).",
    )
    yield case(
        "in order",
        "Refund 99 INR. It was 7 days.",
        OBS,
        ["Refund 99 INR.", "It was 7 days."],
        "Return the flagged sentences in the order they appear.",
    )
    yield COMPARISON.case(uncited_claims)


@hidden_cases("10.uncited_claims")
def uncited_claims_hidden(uncited_claims: Callable):
    """For grading: another seed's inputs, which the notebook never shows."""
    yield HIDDEN.case(uncited_claims)
