"""Check 09.score_number: a number in an answer counts only with its unit.

The trap the lesson shows: a scorer that takes the first number it finds
passes "330" for a gold of 330 m, and passes "It is 330 m tall" for a gold of
"237 m taller" if it looks for the wrong number. The cases pin each rule of
the statement; a seeded comparison with the answer key covers the rest.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from .. import exercise
from ..framework import Case
from . import keys
from .common import against_key

UNITS = ("m", "km", "coins", "years", "INR")
# Words that begin with a unit, hold one, or are its plural, with the unit they could be taken for:
# the traps of the whole-word rule.
NEAR = {"mm": "m", "miles": "m", "ms": "m", "cm": "m", "kms": "km", "coins": "coin", "years": "year"}


def _sentence(rng: random.Random) -> tuple:
    pieces, numbers = [], []
    for _ in range(rng.randint(1, 3)):
        value = rng.choice([rng.randint(0, 999), rng.randint(1000, 99_999), round(rng.uniform(0, 50), 1)])
        text = f"{value:,}" if isinstance(value, int) and rng.random() < 0.5 else str(value)
        unit = rng.choice((*UNITS, *NEAR, "M", ""))
        pieces.append(
            rng.choice(["about", "it is", "so", "then"]) + f" {text}{rng.choice([' ', ''])}{unit}"
        )
        numbers.append((value, unit or rng.choice(UNITS)))
    value, unit = rng.choice(numbers) if rng.random() < 0.7 else (rng.randint(0, 999), rng.choice(UNITS))
    if unit in NEAR and rng.random() < 0.5:  # the gold is the unit the answer's word only looks like
        unit = NEAR[unit]
    if rng.random() < 0.2 and value != int(value):  # a gold near a stated decimal: rounding must not pass
        value = float(round(value))
    return ", ".join(pieces).strip() + ".", float(value), unit


@exercise(
    "09.score_number",
    "a number counts only with its unit",
    hints=(
        "Find every number in the answer (digits, commas between thousands, a decimal point) "
        "with the word right after it.",
        "A number passes when its value equals `value` and the word after it is `unit`, "
        "compared in lower case; any one such number is enough.",
    ),
    rules={
        "followed by the unit": (
            "the right number with its unit",
            "the unit comes next",
            "the answer key on generated answers",
        ),
        "A bare number is not enough": ("330 is not 330 m",),
        "the whole word must be the unit": ("330 mm is not 330 m", "330 miles is not 330 m", "cm is not m"),
        "a plural is another word": ("12 coins is not 12 coin",),
        "never rounded first": ("237.4 m is not 237 m", "3.9 is not 4"),
        "commas between thousands": ("commas between thousands",),
        "compared without case": ("M is m",),
        "a number inside a longer number does not count": ("1237 m is not 237 m",),
        "any number in the answer may match": ("the answer is the second number",),
    },
)
def score_number_cases(score_number: Callable):
    def case(name, answer, value, unit, want, hint):
        return Case(
            name,
            lambda: score_number(answer, value, unit),
            expected=want,
            given=f"score_number({answer!r}, {value!r}, {unit!r})",
            hint=hint,
        )

    yield case(
        "the right number with its unit", "237 m taller", 237.0, "m", True, "237 followed by m passes."
    )
    yield case(
        "330 is not 330 m", "330", 330.0, "m", False, "330 what? A number without its unit does not pass."
    )
    yield case(
        "the unit comes next",
        "330 coins, 12 m",
        330.0,
        "m",
        False,
        "The unit must be the word right after the number, not anywhere in the answer.",
    )
    yield case(
        "330 mm is not 330 m",
        "It is 330 mm",
        330.0,
        "m",
        False,
        "The word after the number is mm, not m: compare the whole word, not its first letters.",
    )
    yield case(
        "330 miles is not 330 m",
        "About 330 miles",
        330.0,
        "m",
        False,
        "miles starts with m but is another unit: the whole word must equal the unit.",
    )
    yield case(
        "cm is not m",
        "330 cm",
        330.0,
        "m",
        False,
        "cm holds the letter m; it is still not the word m.",
    )
    yield case(
        "12 coins is not 12 coin",
        "I have 12 coins",
        12.0,
        "coin",
        False,
        "The statement asks for the unit's word itself: coins is another word than coin.",
    )
    yield case(
        "237.4 m is not 237 m",
        "It is 237.4 m taller",
        237.0,
        "m",
        False,
        "Compare the number as written: rounding 237.4 to 237 first makes a wrong answer pass.",
    )
    yield case(
        "3.9 is not 4",
        "About 3.9 km",
        4.0,
        "km",
        False,
        "3.9 is not 4: never round the answer's number (or the gold) before comparing.",
    )
    yield case(
        "commas between thousands",
        "It has 1,083 years",
        1083.0,
        "years",
        True,
        "Read 1,083 as one number: 1083.",
    )
    yield case("M is m", "It is 237 M taller", 237.0, "m", True, "Compare the unit without case.")
    yield case(
        "1237 m is not 237 m",
        "It is 1237 m",
        237.0,
        "m",
        False,
        "A match must be a whole number, not the end of a longer one.",
    )
    yield case(
        "the answer is the second number",
        "The tower is 330 m, so 237 m taller",
        237.0,
        "m",
        True,
        "Look at every number, not only the first.",
    )
    yield against_key(
        "the answer key on generated answers",
        score_number,
        keys.score_number,
        _sentence,
        size=lambda args: len(args[0]),
    )
