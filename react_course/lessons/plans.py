"""Plans for the course's scripted models: what an answer needs, and how to find it.

A plan lists what the answer needs (a fact, recognised by a pattern in some
observation) and, for each need, the actions to try in order; ``demo``'s text
model and ``scripted_api.demo``'s chat model both follow them.

Two kinds of plan are built from the question itself, so a changed number or
swapped sides change the plan and the answer: shop totals ("What do 2 pens and
a ruler cost?", from the price tool's own list) and height comparisons ("How
much taller is A than B?", from what the encyclopedia says). ``worded`` makes a
plan for one question exactly as worded, which nothing computes.

What it leaves out: any parsing beyond these two sentence shapes. A question
they do not fit gets no plan, never the nearest worked example's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..tools.data import load_json


@dataclass(frozen=True)
class Move:
    thought: str
    tool: str
    input: str


@dataclass(frozen=True)
class Need:
    evidence: str  # a regular expression some observation must match
    moves: tuple[Move, ...]


@dataclass(frozen=True)
class Plan:
    question: str  # a regular expression the whole (normalised) question must match
    needs: tuple[Need, ...]
    answer: str
    example: str = ""  # the question, as the course words it
    parallel: bool = False  # the needs before the last are independent of each other


def need(evidence: str, *moves: tuple[str, str, str]) -> Need:
    return Need(evidence, tuple(Move(*m) for m in moves))


def normalise(question: str) -> str:
    """The question as plans compare it: lower case, single spaces, no closing punctuation.

    >>> normalise("  What do 3   Notebooks cost ?! ")
    'what do 3 notebooks cost'
    """
    text = " ".join(question.replace("\u2019", "'").lower().split())
    return text.rstrip("?!. ")


def worded(example: str, needs: tuple[Need, ...], answer: str, parallel: bool = False) -> Plan:
    """A plan for one question exactly as worded (nothing in it is computed)."""
    return Plan(re.escape(normalise(example)), needs, answer, example, parallel)


# --- Height comparisons: "How much taller is A than B?" -------------------------------------

# What the encyclopedia says of each height, as (metres, "is ..." phrase, bracketed phrase).
HEIGHTS: dict[str, tuple[int, str, str]] = {
    "the Eiffel Tower": (330, "330 m tall with its antennas", "330 m with its antennas"),
    "the Statue of Liberty": (93, "93 m from the ground to the torch",
                              "93 m from the ground to the torch"),
    "the Tokyo Skytree": (634, "634 m tall", "634 m"),
    "the Chrysler Building": (319, "319 m tall", "319 m"),
    "the Tour Montparnasse": (210, "210 m tall", "210 m"),
    "the Statue of Unity": (182, "182 m tall", "182 m"),
    "Blackpool Tower": (158, "158 m tall", "158 m"),
}


def _landmark(text: str) -> str | None:
    """The ``HEIGHTS`` key a question names, with or without "the".

    >>> _landmark("statue of liberty"), _landmark("the blackpool tower"), _landmark("big ben")
    ('the Statue of Liberty', 'Blackpool Tower', None)
    """
    bare = text.removeprefix("the ")
    return next((k for k in HEIGHTS if k.lower().removeprefix("the ") == bare), None)


def _cap(text: str) -> str:
    return text[0].upper() + text[1:]


def taller_plan(question: str) -> Plan | None:
    """Search both heights, subtract, and say which is taller and by how much."""
    match = re.fullmatch(r"how much taller is (.+) than (.+)", normalise(question))
    first, second = (_landmark(match[1]), _landmark(match[2])) if match else (None, None)
    if first is None or second is None or first == second:
        return None
    (high, is_high, of_high), (low, is_low, of_low) = HEIGHTS[first], HEIGHTS[second]
    title, other = first.removeprefix("the "), second.removeprefix("the ")
    gap = high - low
    needs = (
        need(rf"\b{high} m\b", (f"I need the height of {first}.", "search", title)),
        need(rf"\b{low} m\b", (f"{_cap(first)} is {is_high}. Now I need the height of {second}.",
                                "search", other)),
        need(rf"^{gap}$", (f"{_cap(second)} is {is_low}. I will subtract.",
                            "calculate", f"{high} - {low}")),
    )
    if gap > 0:
        answer = f"{_cap(first)} ({of_high}) is {gap} m taller than {second} ({of_low})."
    else:
        answer = (f"{_cap(first)} ({of_high}) is not taller than {second} ({of_low}): "
                  f"it is {-gap} m shorter.")
    return Plan(re.escape(normalise(question)), needs, answer, question, parallel=True)


# --- Shop totals: "What do 3 notebooks and 2 pens cost?" ------------------------------------

PRICES: dict[str, int] = load_json("shop.json")["prices"]  # the price tool's own list
COUNTS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
          "seven": 7, "eight": 8, "nine": 9, "ten": 10}


def _a(item: str) -> str:
    return ("an " if item[0] in "aeiou" else "a ") + item


def _some(count: int, item: str) -> str:
    return f"{count} {item}" + ("" if count == 1 else "s")


def _counted(part: str) -> tuple[int, str] | None:
    """One part of an order ("3 notebooks", "a pen", "two rulers") as (count, item), if the
    shop sells the item."""
    bits = re.fullmatch(r"(\d+|[a-z]+) ([a-z]+)", part)
    if bits is None:
        return None
    count = int(bits[1]) if bits[1].isdigit() else COUNTS.get(bits[1], 0)
    item = bits[2] if bits[2] in PRICES else bits[2].removesuffix("s")
    return (count, item) if count >= 1 and item in PRICES else None


def order_of(question: str) -> list[tuple[int, str]] | None:
    """The (count, item) pairs a shop question asks about, or None if it is not one.

    Every item must be in the shop and named once; anything else in the question
    means it is not a question the plan can compute.

    >>> order_of("What do 2 notebooks, a pen and three rulers cost?")
    [(2, 'notebook'), (1, 'pen'), (3, 'ruler')]
    >>> order_of("What do 2 notebooks and a stapler cost?") is None
    True
    """
    match = re.fullmatch(r"(?:what|how much) (?:do|does) (.+) cost", normalise(question))
    if match is None:
        return None
    order: list[tuple[int, str]] = []
    for part in re.split(r", and |, | and ", match[1]):
        counted = _counted(part)
        if counted is None or counted[1] in (item for _, item in order):
            return None
        order.append(counted)
    return order


def shop_plan(question: str) -> Plan | None:
    """Look up each item's price, then add up count times price for the total."""
    order = order_of(question)
    if order is None:
        return None
    needs, said = [], ""
    for _, item in order:
        thought = f"{said} Now I need the price of {_a(item)}." if said else \
            f"I need the price of {_a(item)}."
        needs.append(need(rf"{item} costs {PRICES[item]}\b", (thought, "price", item)))
        said = f"{_cap(_a(item))} costs {PRICES[item]}."
    total = sum(count * PRICES[item] for count, item in order)
    items = [_some(count, item) for count, item in order]
    named = items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]
    single = len(order) == 1 and order[0][0] == 1
    named = _cap(_a(order[0][1])) if single else named
    if not single:  # one item, once, is its price: nothing to add up
        parts = " plus ".join(f"{_some(c, i)} at {PRICES[i]}" for c, i in order)
        needs.append(need(rf"^{total}$", (f"{said} The total is {parts}.", "calculate",
                                           " + ".join(f"{c} * {PRICES[i]}" for c, i in order))))
    verb = "costs" if single else "cost"
    return Plan(re.escape(normalise(question)), tuple(needs), f"{named} {verb} {total}.", question,
                parallel=True)
