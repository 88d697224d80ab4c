"""Check 10.uncited_claims: every number in an answer needs an observation it cites.

The lesson's trap: the invented order's answer ("delivered 45 minutes late
[1]") cites a step, but the step never said 45. A check that only looks for a
citation, or finds "45" inside "145", passes it. The cases pin each rule of
the statement; a seeded comparison with the answer key covers the rest.
"""

from __future__ import annotations

from collections.abc import Callable

from .. import exercise, hidden_cases
from ..framework import Case
from ..generated import Comparison, Draw, call_text, register, same_value
from . import keys

OBS = {
    1: "Order 88213: delivered 19:02 (62 minutes late); fee 25 INR.",
    2: "More than 30 minutes late refunds the fee.",
    3: "25",
}


def _answer(draw: Draw) -> tuple:
    """An answer of one to three sentences, citing up to two steps, and one to three observations."""
    texts = [
        "fee 25 INR",
        "62 minutes late",
        "1062 steps",
        "3.5 km",
        "no numbers here",
        "30 minutes",
        "7 days",
    ]
    observations = {n: draw.pick(texts) for n in range(1, draw.integer(1, 4))}
    sentences = []
    for _ in range(draw.integer(1, 3)):
        words = [
            draw.pick(["Refund", "It was", "About", "So"]),
            draw.pick(["25", "62", "3.5", "106", "the fee", "7"]),
        ]
        cites = "".join(f"[{draw.integer(1, 5)}]" for _ in range(draw.integer(0, 2)))
        sentences.append(" ".join(words) + (" " + cites if cites else "") + draw.pick([".", "!", "?"]))
    return " ".join(sentences), observations


def _compare(args: tuple, expected: list, got: object) -> bool:
    return same_value(expected, got)


HINT = "Run your function on the input shown and compare with each rule."
COMPARISON = register(
    Comparison(
        "10.uncited_claims",
        keys.uncited_claims,
        _answer,
        _compare,
        call_text("uncited_claims"),
        hint=HINT,
        name="the answer key on generated answers",
    )
)
HIDDEN = Comparison(
    "10.uncited_claims",
    keys.uncited_claims,
    _answer,
    _compare,
    call_text("uncited_claims"),
    hint=HINT,
    name="hidden case: more generated inputs",
    count=400,
    seed=1010,
)


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
        "holds a number": ("a sentence without a number", "the answer key on generated answers"),
        "not counting the citation numbers": ("citation numbers are not claims",),
        "every number in it": ("every number needs support",),
        "in at least one observation it cites": ("an observation it does not cite", "the careful answer"),
        "as a whole number": ("62 is not in 1062",),
        "supports nothing": ("a step that does not exist",),
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
