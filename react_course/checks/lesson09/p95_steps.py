"""09.p95_steps as a spec: the nearest-rank 95th percentile of step counts, a count that occurred.

The key is the library's ``evaluate.percentile(steps, 95)`` (0.0 for no runs, the
same number as the statement's 0). Generated lists take every length up to 60,
so ranks where 0.95 × n is a whole number (n = 20, 40, 60) and where it is not
both occur, in any order, with outliers above the 95th percentile.
"""

from __future__ import annotations

import math
from typing import Any

from ...evaluate.metrics import percentile
from ..generated import Draw, same_number
from ..plain import Raised
from ..spec import GENERATED, Example, Fault, Rule, Spec, define


def key(steps: list[int]) -> float:
    """The answer key: the library's nearest-rank percentile."""
    return percentile(steps, 95)


def _inputs(draw: Draw) -> tuple:
    size = draw.pick((0, 1, 2, 20, 40, 60, draw.integer(3, 59)))
    steps = [draw.pick((3, 3, 4, 2, 9, 1, 20, 0, 7, 40)) for _ in range(size)]
    return (sorted(steps) if size and draw.below(5) == 0 else steps,)


def _linear(steps: list[int]) -> float:
    """Interpolated between ranks, as numpy's default and statistics.quantiles do."""
    ordered, at = sorted(steps), 0.95 * (len(steps) - 1)
    low = math.floor(at)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (at - low)


RANK = "the nearest-rank 95th percentile"
OCCURRED = "a step count that occurred, never an average"
ORDER = "in any order"
EMPTY = "An empty list gives 0"

RULES = (
    Rule(RANK, ("twenty runs, 1 to 20 steps", "two runs", "two long runs in twenty", GENERATED),
         edge=lambda a: len(a[0]) % 20 == 0 and bool(a[0])),
    Rule(OCCURRED, ("one long run in twenty", "two runs"),
         edge=lambda a: bool(a[0]) and key(*a) < max(a[0])),
    Rule(ORDER, ("unsorted counts",), edge=lambda a: a[0] != sorted(a[0])),
    Rule(EMPTY, ("no runs",), edge=lambda a: not a[0]),
)

FAULTS = (
    Fault(EMPTY, "No runs: return 0 instead of indexing an empty list.",
          found=lambda args, want, got: not args[0] and isinstance(got, Raised)),
    Fault(ORDER, "Sort the counts before you take the rank.",
          like=lambda s: s[math.ceil(0.95 * len(s)) - 1] if s else 0),
    Fault(OCCURRED, "That interpolates between two ranks (numpy's default, statistics.quantiles): the "
                    "nearest rank is one of the counts, sorted(steps)[ceil(0.95 * n) - 1].",
          like=lambda s: _linear(s) if s else 0),
    Fault(OCCURRED, "No run took that many steps: the 95th percentile is not a mean, one long run must "
                    "not pull it up. Take the count at rank ceil(0.95 * n).",
          found=lambda args, want, got: bool(args[0]) and isinstance(got, int | float)
          and got not in args[0]),
    Fault(RANK, "The maximum is the 100th percentile: the 95th is at rank ceil(0.95 * n).",
          like=lambda s: max(s) if s else 0),
    Fault(RANK, "Rank ceil(0.95 * n) counts from 1, so its index is ceil(0.95 * n) - 1.",
          like=lambda s: sorted(s)[min(len(s) - 1, math.ceil(0.95 * len(s)))] if s else 0),
    Fault(RANK, "Round the rank up (math.ceil), not down or to the nearest: 0.95 * 2 = 1.9 is rank 2.",
          found=lambda args, want, got: bool(args[0]) and any(
              same_number(sorted(args[0])[max(0, rounded(0.95 * len(args[0])) - 1)], got)
              for rounded in (int, round))),
)

TWENTY = list(range(1, 21))
EXAMPLES = (
    Example("twenty runs, 1 to 20 steps", (TWENTY,), "Rank ceil(0.95 * 20) = 19: the 19th value."),
    Example("one long run in twenty", ([3] * 19 + [20],),
            "19 of 20 runs took 3 steps: the rank-19 value is 3, not an average pulled up by the one "
            "long run."),
    Example("two long runs in twenty", ([3] * 18 + [20, 20],), "Now rank 19 lands on a long run."),
    Example("two runs", ([2, 9],), "ceil(0.95 * 2) = 2: the larger count, not a value between them."),
    Example("unsorted counts", ([9, 1, 4, 12, 2, 7],), "Sort before you take the rank."),
    Example("no runs", ([],), "No runs: return 0."),
)

HIDDEN = (
    Example("hidden: forty runs", ([5] * 37 + [30, 2, 8],), "Rank ceil(0.95 * 40) = 38."),
    Example("hidden: one run", ([7],), "One run: its count is every percentile."),
    Example("hidden: twenty-one runs", (list(range(21, 0, -1)),), "Rank ceil(0.95 * 21) = 20."),
)


def compare(args: tuple, want: float, got: Any) -> bool:
    """The same number (3 and 3.0 alike; a bool is not a count)."""
    return same_number(want, got)


SPEC = define(Spec(
    "09.p95_steps", "the 95th percentile of steps, by nearest rank", "p95_steps", key,
    EXAMPLES, _inputs, RULES, faults=FAULTS, hidden=HIDDEN, compare=compare,
    hints=("Sort the counts; the 95th percentile is the value at rank ceil(0.95 * n), counting from 1.",
           "In Python, rank r is index r - 1: sorted(steps)[math.ceil(0.95 * len(steps)) - 1]."),
    generated_hint="Sort, then take sorted(steps)[math.ceil(0.95 * len(steps)) - 1]; no runs is 0."))
__all__ = ["SPEC", "key"]
