"""Did a change help? Two configurations on the same tasks, paired by task, with error bars over tasks.

Two things make a measured difference noisy: *which tasks* were in the set
(another set of 64 would give another difference), and the model's luck *on
each task* (another seed, another outcome). An interval that accounts for the
first treats the task as the unit, as Miller does ("Adding Error Bars to
Evals", 2024, arXiv 2411.00640): each task gives one paired difference, B's
success rate on it minus A's (its repeats averaged), and the standard error of
their mean is clustered by task. The repeats' own noise is inside that
standard error, and ``Difference.repeat_se`` says how much of it they are.

``compare`` returns that (Student's t over the tasks); ``bootstrap`` gives a
second opinion with no formula (resample tasks, then repeats inside each);
``seed_interval`` is the interval from the repeats alone, tasks held fixed,
kept only to show what it misses: it speaks about these tasks, never about
tasks not in the set. ``tasks_needed`` says how many tasks a difference needs.
What it leaves out: corrections for comparing many metrics at once, and
weighting tasks (every task counts once, whatever its number of repeats).
"""

from __future__ import annotations

import math
import random
from collections import defaultdict
from dataclasses import dataclass

from .metrics import EvalRun, mean

# Two-sided 95% quantiles of Student's t, by degrees of freedom.
T95 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262,
       10: 2.228, 12: 2.179, 14: 2.145, 15: 2.131, 20: 2.086, 30: 2.042, 60: 2.000}


def t95(df: int) -> float:
    """The t quantile for ``df`` degrees of freedom (the nearest smaller tabled one; 1.96 past 60).

    >>> t95(4), t95(14), t95(100)
    (2.776, 2.145, 1.96)
    """
    if df > 60:
        return 1.96
    return T95[max(d for d in T95 if d <= df)]


def sd(values: list[float]) -> float:
    """The sample standard deviation (n - 1); 0.0 for fewer than two values.

    >>> sd([0.0, 1.0, 0.0, 1.0])
    0.577...
    """
    if len(values) < 2:
        return 0.0
    centre = mean(values)
    return math.sqrt(sum((v - centre) ** 2 for v in values) / (len(values) - 1))


def paired(a: list[EvalRun], b: list[EvalRun]) -> dict[str, dict[int, tuple[bool, bool]]]:
    """For each task both ran, its repeats both ran: repeat -> (A succeeded, B succeeded)."""
    left = {(r.task.id, r.repeat): r.success for r in a}
    pairs: dict[str, dict[int, tuple[bool, bool]]] = defaultdict(dict)
    for r in b:
        if (r.task.id, r.repeat) in left:
            pairs[r.task.id][r.repeat] = (left[(r.task.id, r.repeat)], r.success)
    if not pairs:
        raise ValueError("the two sets of runs share no (task, repeat): run both on the same tasks and "
                         "repeats")
    return dict(sorted(pairs.items()))


def task_differences(pairs: dict[str, dict[int, tuple[bool, bool]]]) -> list[float]:
    """One number per task: B's success rate on it minus A's, over its repeats.

    >>> task_differences({"t": {0: (False, True), 1: (True, True)}, "u": {0: (True, False), 1: (True, True)}})
    [0.5, -0.5]
    """
    return [mean([float(y) - float(x) for x, y in reps.values()]) for reps in pairs.values()]


def repeat_se(pairs: dict[str, dict[int, tuple[bool, bool]]]) -> float:
    """The part of the standard error that comes from the repeats inside the tasks.

    Each task's paired differences vary from repeat to repeat; their variance
    over k repeats, averaged over the T tasks, divided by k and by T, is the
    repeats' share of the variance of the mean difference.
    """
    within = [sd([float(y) - float(x) for x, y in reps.values()]) ** 2 / len(reps)
              for reps in pairs.values() if len(reps) > 1]
    return math.sqrt(mean(within) / len(pairs)) if within else 0.0


@dataclass(frozen=True)
class Difference:
    """B minus A in success, with a 95% interval clustered by task."""

    a: str
    b: str
    a_success: float
    b_success: float
    difference: float
    low: float | None  # None with a single task: no spread over tasks, no interval
    high: float | None
    tasks: int = 0
    repeats: int = 0
    se: float = 0.0  # the standard error clustered by task (tasks' and repeats' noise together)
    repeat_se: float = 0.0  # the part of ``se`` that the repeats inside each task account for
    task_sd: float = 0.0  # the spread of the per-task differences

    @property
    def exceeds_noise(self) -> bool:
        return self.low is not None and (self.low > 0 or self.high < 0)

    @property
    def task_se(self) -> float:
        """The part of ``se`` that comes from which tasks were drawn: what more repeats cannot shrink."""
        return math.sqrt(max(0.0, self.se ** 2 - self.repeat_se ** 2))

    def __str__(self) -> str:
        head = (f"{self.b} vs {self.a}: success {self.b_success:.1%} vs {self.a_success:.1%}, "
                f"difference {self.difference:+.1%} over {self.tasks} tasks")
        if self.low is None:
            return head + " (one task: no interval over tasks)"
        verdict = "exceeds" if self.exceeds_noise else "does not exceed"
        return head + f", 95% interval over tasks [{self.low:+.1%}, {self.high:+.1%}]: {verdict} the noise"


def compare(a: list[EvalRun], b: list[EvalRun]) -> Difference:
    """Compare configuration B with A, run on the same tasks (and the same repeats, paired by seed)."""
    pairs = paired(a, b)
    diffs = task_differences(pairs)
    centre, spread = mean(diffs), sd(diffs)
    names = (a[0].config if a else "A"), (b[0].config if b else "B")
    rates = (mean([mean([float(x) for x, _ in reps.values()]) for reps in pairs.values()]),
             mean([mean([float(y) for _, y in reps.values()]) for reps in pairs.values()]))
    repeats = min(len(reps) for reps in pairs.values())
    if len(diffs) < 2:
        return Difference(*names, *rates, centre, None, None, len(diffs), repeats)
    se = spread / math.sqrt(len(diffs))
    half = t95(len(diffs) - 1) * se
    return Difference(*names, *rates, centre, centre - half, centre + half, len(diffs), repeats, se,
                      repeat_se(pairs), spread)


def bootstrap(a: list[EvalRun], b: list[EvalRun], draws: int = 1000, seed: int = 0) -> tuple[float, float]:
    """A 95% paired bootstrap interval: resample the tasks, then each drawn task's repeats.

    Two stages, as the noise has two sources: a draw picks T tasks with
    replacement and, inside each, k repeats with replacement (a repeat keeps
    A's and B's outcomes together: they met the same seed). Seeded.
    """
    tasks = list(paired(a, b).values())
    rng, means = random.Random(seed), []
    for _ in range(draws):
        total = 0.0
        for reps in rng.choices(tasks, k=len(tasks)):
            chosen = rng.choices(list(reps.values()), k=len(reps))
            total += mean([float(y) - float(x) for x, y in chosen])
        means.append(total / len(tasks))
    means.sort()
    return means[int(0.025 * draws)], means[min(draws - 1, math.ceil(0.975 * draws) - 1)]


def seed_interval(a: list[EvalRun], b: list[EvalRun]) -> tuple[float, float] | None:
    """The interval from the repeats alone, tasks held fixed: one difference per seed, t over seeds.

    It answers "would another seed on *these* tasks give the same difference?",
    not "would other tasks?": where the tasks, not the seeds, carry a
    difference, it has zero width. None with a single repeat.
    """
    pairs = paired(a, b)
    seeds = sorted({r for reps in pairs.values() for r in reps})
    per_seed = [mean([float(reps[s][1]) - float(reps[s][0]) for reps in pairs.values() if s in reps])
                for s in seeds]
    if len(per_seed) < 2:
        return None
    half = t95(len(per_seed) - 1) * sd(per_seed) / math.sqrt(len(per_seed))
    return mean(per_seed) - half, mean(per_seed) + half


def tasks_needed(task_sd: float, half_width: float) -> int:
    """Tasks for a 95% interval of +/- ``half_width`` when per-task differences spread by ``task_sd``.

    >>> tasks_needed(0.48, 0.25), tasks_needed(0.48, 0.10), tasks_needed(0.48, 0.05)
    (15, 89, 355)
    """
    return math.ceil((1.96 * task_sd / half_width) ** 2)
