"""09.score_number as a spec: a number in an answer counts only with its unit, the whole word.

The key is the exercise's own rule (``key``): the library's scorer,
``evaluate.number_matches``, judges a task's gold and does more on purpose (it
converts units, knows spellings and plurals, and takes any number for a unit it
does not know), as the lesson's summary says; ``tests/test_checks_lesson09.py``
holds that summary to both functions.

Generated answers are English text of a few clauses, each a filler or a number
(whole, with or without commas between thousands, or with a decimal point) with
the word after it, glued or after one space, then maybe a full stop or a comma.
The gold is usually one of those numbers, given as an int or a float, with its
word or a near miss of it: a longer word that starts with or holds the unit, a
plural, another case, the number rounded, or the end of a longer number.
"""

from __future__ import annotations

import re

from ..generated import Draw
from ..spec import GENERATED, Example, Fault, Rule, Spec, define

NUMBER = re.compile(r"(?<![\d.,])(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)? ?([A-Za-z]*)")


def numbers(answer: str) -> list[tuple[float, str]]:
    """Every number of the answer with the word right after it ('' for none).

    >>> numbers("It is 1,083.5m tall, 330 miles. And 12")
    [(1083.5, 'm'), (330.0, 'miles'), (12.0, '')]
    """
    return [(float(whole.replace(",", "") + part), word) for whole, part, word in NUMBER.findall(answer)]


def key(answer: str, value: float, unit: str) -> bool:
    """The answer key: some number equal to ``value`` with the word ``unit`` right after it, any case."""
    return any(number == value and word.lower() == unit.lower() for number, word in numbers(answer))


UNITS = ("m", "km", "coin", "coins", "years", "INR", "kg")
NEAR = {"m": ("mm", "miles", "cm", "metres", "ms"), "km": ("kms", "kmph"), "coin": ("coins", "coinage"),
        "coins": ("coin",),
        "years": ("year", "yearly"), "INR": ("INRs", "inr"), "kg": ("kgs", "kilograms")}
FILLERS = ("about", "It is", "so", "then", "The tower is", "roughly")


def _written(draw: Draw) -> tuple[str, float]:
    """A number as an answer writes it, and its value."""
    form = draw.below(4)
    if form == 0:
        number = draw.integer(0, 999)
        return str(number), float(number)
    if form == 1:
        number = draw.integer(1000, 9_999_999)
        return (f"{number:,}" if draw.boolean() else str(number)), float(number)
    whole, digits = draw.integer(0, 99_999), draw.pick(("4", "9", "5", "25", "50", "375", "0"))
    text = f"{whole:,}" if whole >= 1000 and draw.boolean() else str(whole)
    return f"{text}.{digits}", float(f"{whole}.{digits}")


def _word(draw: Draw) -> str:
    base = draw.pick(UNITS)
    return draw.pick((base, "", base.upper(), base.capitalize(), *NEAR[base], *NEAR[base]))


def _gold(draw: Draw, said: list[tuple[float, str]]) -> tuple[float, str]:
    value, word = draw.pick(said)
    twist = draw.below(8)
    if twist in (1, 2):  # a near miss of the word: the unit a longer word starts with, holds or pluralises
        word = next((u for u, near in NEAR.items() if word in near), draw.pick(UNITS))
    elif twist == 3:
        word = word.swapcase() or draw.pick(UNITS)
    elif twist == 4:
        value = float(draw.pick((round(value), int(value), round(value, 1), round(value, 2),
                                 int(str(int(value))[-3:]))))
    elif twist == 5 and not value.is_integer():  # the digits after the point, read as a number
        value = float(repr(value).split(".")[1])
    elif twist == 6 or not word:  # the word of another number of the answer, or any unit
        word = draw.pick([w for _, w in said if w] + [draw.pick(UNITS)])
    word = word or draw.pick(UNITS)  # the gold always has a unit
    return (int(value) if value.is_integer() and draw.boolean() else value), word


def _inputs(draw: Draw) -> tuple:
    clauses, said = [], []
    for _ in range(1 + draw.below(4)):
        if draw.below(5) == 0:
            clauses.append(draw.pick(FILLERS))
            continue
        text, value = _written(draw)
        word = _word(draw)
        clauses.append(f"{draw.pick(FILLERS)} {text}{draw.pick((' ', '')) if word else ''}{word}")
        said.append((value, word))
    answer = ", ".join(clauses) + draw.pick((".", "", " taller."))
    if not said:
        return answer, float(draw.integer(0, 999)), draw.pick(UNITS)
    return (answer, *_gold(draw, said))


def _with_value(args: tuple) -> list[str]:
    """The words after the numbers of the answer that equal the gold's value."""
    return [word for number, word in numbers(args[0]) if number == args[1]]


def _rounded(args: tuple) -> bool:
    return any(number != args[1] and round(number) == round(args[1]) and word.lower() == args[2].lower()
               for number, word in numbers(args[0]))


def _inside(args: tuple) -> bool:
    """The gold's digits end a longer number of the answer, its unit after it."""
    digits = f"{args[1]:g}" if float(args[1]).is_integer() else ""
    return bool(digits) and any(re.search(rf"\d[\d,.]*{digits} ?{re.escape(w)}\b", args[0])
                                for w in {args[2], args[2].lower(), args[2].upper()}) and not key(*args)


UNIT = "followed by the unit"
BARE = "A bare number is not enough"
WHOLE = "the whole word must be the unit"
PLURAL = "a plural is another word"
ROUND = "never rounded first"
COMMAS = "commas between thousands"
POINT = "a decimal point"
GAP = "a space between them or not"
CASE = "compared without case"
INSIDE = "a number inside a longer number does not count"
ANY = "any number in the answer may match"
EQUAL = "a number equal to `value`"

RULES = (
    Rule(UNIT, ("the right number with its unit", "the unit comes next", "a full stop after the unit",
                GENERATED),
         edge=lambda a: any(w and w.lower() != a[2].lower() for w in _with_value(a))
         and a[2].lower() in re.findall(r"[a-z]+", a[0].lower())),
    Rule(BARE, ("330 is not 330 m",), edge=lambda a: "" in _with_value(a)),
    Rule(WHOLE, ("330 mm is not 330 m", "330 miles is not 330 m", "cm is not m"),
         edge=lambda a: any(a[2].lower() in w.lower() != a[2].lower() and w.lower() != a[2].lower() + "s"
                            for w in _with_value(a))),
    Rule(PLURAL, ("12 coins is not 12 coin",),
         edge=lambda a: any(w.lower() == a[2].lower() + "s" for w in _with_value(a))),
    Rule(ROUND, ("237.4 m is not 237 m", "3.9 is not 4"), edge=_rounded),
    Rule(COMMAS, ("commas between thousands",), edge=lambda a: key(*a) and "," in a[0].replace(", ", "")),
    Rule(POINT, ("a decimal number", GENERATED),
         edge=lambda a: key(*a) and not float(a[1]).is_integer()),
    Rule(GAP, ("a unit written against its number", GENERATED),
         edge=lambda a: key(*a) and bool(re.search(rf"\d{re.escape(a[2])}\b", a[0], re.I))),
    Rule(CASE, ("M is m", "a unit in capitals"), edge=lambda a: key(*a) and a[2] not in _with_value(a)),
    Rule(INSIDE, ("1237 m is not 237 m", "2.375 m is not 375 m"), edge=_inside),
    Rule(ANY, ("the answer is the second number",),
         edge=lambda a: key(*a) and not key(a[0][: NUMBER.search(a[0]).end()], *a[1:])),
    Rule(EQUAL, ("237.0 states 237", "an int value", GENERATED),
         edge=lambda a: key(*a) and isinstance(a[1], int)),
)


def _matches(args: tuple) -> list[re.Match]:
    """The numbers of the answer that state the gold, as the key reads them."""
    return [m for m in NUMBER.finditer(args[0]) if float(m[1].replace(",", "") + m[2]) == args[1]
            and m[3].lower() == args[2].lower()]


def rejected(feature):
    """A fault of a right answer refused: every number that states the gold has ``feature``."""
    return lambda args, want, got: want is True and got is False and all(
        feature(m, args) for m in _matches(args))


def accepted(feature):
    """A fault of a wrong answer passed: some number equal to the gold's value has ``feature``."""
    return lambda args, want, got: want is False and got is True and feature(args)


def _near_word(args: tuple, near) -> bool:
    return any(near(word.lower(), args[2].lower()) for word in _with_value(args))


FAULTS = (
    Fault(PLURAL, "A plural is another word: \"12 coins\" does not state 12 coin (nor the other way).",
          found=accepted(lambda a: _near_word(a, lambda w, u: u + "s" == w or w + "s" == u))),
    Fault(WHOLE, "Compare the whole word after the number with the unit: \"mm\" and \"miles\" start "
                 "with m, \"cm\" holds it, and each is another unit.",
          found=accepted(lambda a: _near_word(a, lambda w, u: w != u and u in w))),
    Fault(ROUND, "Compare the number as written: rounding 237.4 to 237 first makes a wrong answer pass.",
          found=accepted(_rounded)),
    Fault(INSIDE, "A match must be a whole number, not the end of a longer one (1237, 2.375).",
          found=accepted(_inside)),
    Fault(UNIT, "The unit must be the word right after that number, not anywhere in the answer.",
          found=accepted(lambda a: any(_with_value(a))
                         and a[2].lower() in re.findall(r"[a-z]+", a[0].lower()))),
    Fault(BARE, "330 what? A number passes only with the unit as the word right after it.",
          found=accepted(lambda a: bool(_with_value(a)))),
    Fault(CASE, "Compare the unit without case: lower() both sides.",
          found=rejected(lambda m, a: not m[3] == a[2] == a[2].lower())),
    Fault(GAP, "The unit may follow the number with no space (\"330m\"): do not split on spaces only.",
          found=rejected(lambda m, a: m[3] and not m[0].endswith(" " + m[3]))),
    Fault(COMMAS, "Read 1,083 as one number, 1083: drop the commas between thousands.",
          found=rejected(lambda m, a: "," in m[1])),
    Fault(POINT, "Read the decimal point as part of the number: 3.9 is one number.",
          found=rejected(lambda m, a: bool(m[2]) and not float(a[1]).is_integer())),
    Fault(EQUAL, "Compare numbers, not texts: 237.0 and 237 are the same value (float() the number).",
          found=rejected(lambda m, a: "." in m[0] and (m[1] + m[2]).replace(",", "") != str(a[1]))),
    Fault(UNIT, "The unit is the letters right after the number: a full stop or a comma after them is "
                "not part of the word.", found=rejected(lambda m, a: a[0][m.end():m.end() + 1] in ".,")),
    Fault(ANY, "Look at every number, not only the first.",
          found=rejected(lambda m, a: m.start() > NUMBER.search(a[0]).start())),
)


def _case(name: str, answer: str, value: float, unit: str, hint: str) -> Example:
    return Example(name, (answer, value, unit), hint)


EXAMPLES = (
    _case("the right number with its unit", "237 m taller", 237.0, "m", "237 followed by m passes."),
    _case("an int value", "The Eiffel Tower is 237 m taller.", 237, "m", "value may be an int: 237."),
    _case("237.0 states 237", "It is 237.0 m taller", 237, "m",
          "237.0 and 237 are the same number: compare values, not texts."),
    _case("330 is not 330 m", "330", 330.0, "m", "330 what? A number without its unit does not pass."),
    _case("the unit comes next", "330 coins, 12 m", 330.0, "m",
          "The unit must be the word right after the number, not anywhere in the answer."),
    _case("a full stop after the unit", "The tower is 330 m.", 330.0, "m",
          "The word is the letters after the number: the full stop is not part of it."),
    _case("a unit written against its number", "It is 330m tall", 330.0, "m",
          "A space between the number and the unit, or none: 330m states 330 m."),
    _case("330 mm is not 330 m", "It is 330 mm", 330.0, "m",
          "The word after the number is mm, not m: compare the whole word, not its first letters."),
    _case("330 miles is not 330 m", "About 330 miles", 330.0, "m",
          "miles starts with m but is another unit: the whole word must equal the unit."),
    _case("cm is not m", "330 cm", 330.0, "m", "cm holds the letter m; it is still not the word m."),
    _case("12 coins is not 12 coin", "I have 12 coins", 12.0, "coin",
          "The statement asks for the unit's word itself: coins is another word than coin."),
    _case("237.4 m is not 237 m", "It is 237.4 m taller", 237.0, "m",
          "Compare the number as written: rounding 237.4 to 237 first makes a wrong answer pass."),
    _case("3.9 is not 4", "About 3.9 km", 4.0, "km",
          "3.9 is not 4: never round the answer's number (or the gold) before comparing."),
    _case("a decimal number", "About 3.9 km", 3.9, "km", "3.9 is one number, with its decimal point."),
    _case("commas between thousands", "It has 1,083 years", 1083.0, "years",
          "Read 1,083 as one number: 1083."),
    _case("M is m", "It is 237 M taller", 237.0, "m", "Compare the unit without case."),
    _case("a unit in capitals", "It costs 500 INR", 500, "INR",
          "Compare the unit without case: lower() both sides."),
    _case("1237 m is not 237 m", "It is 1237 m", 237.0, "m",
          "A match must be a whole number, not the end of a longer one."),
    _case("2.375 m is not 375 m", "It is 2.375 m", 375, "m",
          "The digits after a decimal point are not a number of their own."),
    _case("the answer is the second number", "The tower is 330 m, so 237 m taller", 237.0, "m",
          "Look at every number, not only the first."),
)

HIDDEN = (
    _case("hidden: a big number with commas and a point", "It cost 1,234,567.25 INR in all.", 1234567.25,
          "inr", "Commas between thousands and a decimal point, one number; the unit in any case."),
    _case("hidden: the plural gold", "He was 12 year old, 40 years later", 12, "years",
          "12 year is not 12 years: the whole word."),
    _case("hidden: glued and last", "about 5 coins, then 7coin.", 7, "coin", "7coin states 7 coin."),
    _case("hidden: a number that ends another", "It is 10,330 m", 330, "m", "10,330 is one number."),
)


SPEC = define(Spec(
    "09.score_number", "a number counts only with its unit", "score_number", key,
    EXAMPLES, _inputs, RULES, faults=FAULTS, hidden=HIDDEN,
    hints=("Find every number in the answer (digits, commas between thousands, a decimal point) with the "
           "word right after it.",
           "A number passes when its value equals `value` and the word after it is `unit`, compared in "
           "lower case; any one such number is enough."),
    generated_hint="Read every number (commas between thousands, a decimal point) with the letters right "
                   "after it; pass when one equals value and its word, lower-cased, is the unit."))
__all__ = ["SPEC", "key", "numbers"]
