"""Did a change help? Two configurations on the same tasks, against run-to-run noise.

Each configuration runs every task k times (repeat r uses seed r for both, so
repeat r of A and of B meet the same luck wherever their prompts agree). The
difference in success is measured per repeat, and its spread over the
repeats gives a 95% interval (Student's t, since k is small). A difference
whose interval holds 0 is not shown to exceed the noise: run more repeats, or
more tasks, before believing it. What it leaves out: corrections for
comparing many metrics at once.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .metrics import EvalRun, mean

# Two-sided 95% quantiles of Student's t, by degrees of freedom (k - 1).
T95 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262,
       10: 2.228, 15: 2.131, 20: 2.086, 30: 2.042}


def t95(df: int) -> float:
    """The t quantile for ``df`` degrees of freedom (the nearest smaller tabled one; 1.96 past 30).

    >>> t95(4), t95(12), t95(100)
    (2.776, 2.228, 1.96)
    """
    if df > 30:
        return 1.96
    return T95[max(d for d in T95 if d <= df)]


def success_by_repeat(runs: list[EvalRun]) -> dict[int, float]:
    """Success rate of each repeat (over the tasks)."""
    repeats = sorted({r.repeat for r in runs})
    return {k: mean([float(r.success) for r in runs if r.repeat == k]) for k in repeats}


@dataclass(frozen=True)
class Difference:
    """B minus A in success, with a 95% interval from the repeats."""

    a: str
    b: str
    a_success: float
    b_success: float
    difference: float
    low: float | None  # None with a single repeat: no spread, no interval
    high: float | None

    @property
    def exceeds_noise(self) -> bool:
        return self.low is not None and (self.low > 0 or self.high < 0)

    def __str__(self) -> str:
        head = (f"{self.b} vs {self.a}: success {self.b_success:.1%} vs {self.a_success:.1%}, "
                f"difference {self.difference:+.1%}")
        if self.low is None:
            return head + " (one repeat: no interval; run k >= 2 repeats)"
        verdict = "exceeds" if self.exceeds_noise else "does not exceed"
        return head + f", 95% interval [{self.low:+.1%}, {self.high:+.1%}]: {verdict} run-to-run noise"


def compare(a: list[EvalRun], b: list[EvalRun]) -> Difference:
    """Compare configuration B with A, run on the same tasks and repeats."""
    ra, rb = success_by_repeat(a), success_by_repeat(b)
    shared = sorted(set(ra) & set(rb))
    if not shared:
        raise ValueError("the two sets of runs share no repeat: run both with the same repeats")
    diffs = [rb[k] - ra[k] for k in shared]
    centre = mean(diffs)
    names = (a[0].config if a else "A"), (b[0].config if b else "B")
    rates = mean(list(ra.values())), mean(list(rb.values()))
    if len(diffs) < 2:
        return Difference(*names, *rates, centre, None, None)
    spread = math.sqrt(sum((d - centre) ** 2 for d in diffs) / (len(diffs) - 1))
    half = t95(len(diffs) - 1) * spread / math.sqrt(len(diffs))
    return Difference(*names, *rates, centre, centre - half, centre + half)
