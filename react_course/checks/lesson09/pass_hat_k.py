"""09.pass_hat_k as a spec: tau-bench's pass^k, C(c, k) / C(n, k) per task, then the mean over tasks.

The key is the library's estimator, ``evaluate.metrics.pass_hat_k_of`` (Yao et al.
2024, arXiv 2406.12045), averaged with ``evaluate.metrics.mean`` over the tasks with
at least k runs, as ``evaluate.pass_hat_k`` does for a list of ``EvalRun``. Generated
tables have up to six tasks of up to seven runs (none too), and k from 1 to 8, so
k = 1, k equal to a task's runs, k above every task's runs and mixed sizes all occur.
"""

from __future__ import annotations

import math
from typing import Any

from ...evaluate.metrics import mean, pass_at_k_of, pass_hat_k_of
from ..generated import Draw
from ..plain import Raised
from ..predicates import close_to
from ..spec import GENERATED, Example, Fault, Rule, Spec, define


def key(outcomes: dict[str, list[bool]], k: int) -> float:
    """The answer key: the library's per-task estimate, averaged over the tasks with k runs."""
    return mean([pass_hat_k_of(sum(runs), len(runs), k) for runs in outcomes.values() if len(runs) >= k])


def _inputs(draw: Draw) -> tuple:
    tasks = draw.many(lambda d: d.many(lambda e: e.below(10) < 7, 7), 6)
    return {f"t{number}": runs for number, runs in enumerate(tasks)}, draw.integer(1, 8)


def _kept(outcomes: dict, k: int) -> list[list[bool]]:
    return [runs for runs in outcomes.values() if len(runs) >= k]


def _per_task(estimate):
    """A wrong per-task estimate of (c, n, k), averaged as the key averages."""
    return lambda outcomes, k: mean([estimate(sum(r), len(r), k) for r in _kept(outcomes, k)])


def _pooled(outcomes: dict, k: int) -> float:
    kept = _kept(outcomes, k)
    c, n = sum(map(sum, kept)), sum(map(len, kept))
    return pass_hat_k_of(c, n, k) if kept else 0.0


def _differs(args: tuple) -> bool:
    """A task where C(c, k) / C(n, k) differs from (c/n)^k and from pass@k: 0 < c < n, 2 <= k < n."""
    return any(0 < sum(r) < len(r) and 2 <= args[1] < len(r) for r in args[0].values())


ESTIMATE = "Use C(c, k) / C(n, k) for each task"
MEAN = "then the mean over the tasks"
HAT = "This is pass^k, not pass@k"
LEFT_OUT = "tasks with fewer than k runs are left out"
NONE = "0.0 when no task has k runs"

RULES = (
    Rule(ESTIMATE, ("the order of the runs does not matter", "two successes in three, k = 2",
                    "pass^1 is each task's success rate", GENERATED), edge=_differs),
    Rule(MEAN, ("tasks of different sizes",),
         edge=lambda a: len({len(r) for r in _kept(*a)}) >= 2 and len(set(map(tuple, _kept(*a)))) >= 2),
    Rule(HAT, ("one failure in three",), edge=_differs),
    Rule(LEFT_OUT, ("a task with too few runs", "a task with exactly k runs is kept"),
         edge=lambda a: any(len(r) < a[1] for r in a[0].values()) and any(len(r) == a[1] for r in
                                                                          a[0].values())),
    Rule(NONE, ("no task has k runs",), edge=lambda a: not _kept(*a)),
)

FAULTS = (
    Fault(NONE, "No task has k runs: return 0.0 instead of dividing by zero.",
          found=lambda args, want, got: not _kept(*args) and isinstance(got, Raised)),
    Fault(LEFT_OUT, "A task with fewer than k runs has no estimate (C(n, k) is 0): leave it out of the "
                    "mean, do not count it as 0.",
          like=lambda o, k: mean([pass_hat_k_of(sum(r), len(r), k) if len(r) >= k else 0.0
                                  for r in o.values()])),
    Fault(LEFT_OUT, "A task with exactly k runs has an estimate: keep the tasks with len(runs) >= k.",
          like=lambda o, k: mean([pass_hat_k_of(sum(r), len(r), k) for r in o.values() if len(r) > k])),
    Fault(HAT, "That is pass@k (at least one of k succeeds): pass^k wants all k, C(c, k) / C(n, k).",
          like=_per_task(pass_at_k_of)),
    Fault(MEAN, "That pools every run of every task: compute C(c, k) / C(n, k) for each task, then "
                "the mean of those shares.", like=_pooled),
    Fault(ESTIMATE, "The first k runs are not special: C(c, k) / C(n, k) counts every way to pick k of "
                    "the n runs.", like=lambda o, k: mean([float(all(r[:k])) for r in _kept(o, k)])),
    Fault(ESTIMATE, "(c/n)^k draws with replacement: the k runs are drawn from the n without it, "
                    "C(c, k) / C(n, k).", like=_per_task(lambda c, n, k: (c / n) ** k)),
    Fault(ESTIMATE, "C(c, k) // C(n, k) is a whole number: divide with /.",
          like=_per_task(lambda c, n, k: float(math.comb(c, k) // math.comb(n, k)))),
    Fault(ESTIMATE, "k is off by one: the estimate is C(c, k) / C(n, k), with the k you were given.",
          found=lambda args, want, got: any(close_to(got, mean([
              math.comb(sum(r), j) / math.comb(len(r), j) for r in _kept(args[0], args[1])]))
              for j in (args[1] - 1, args[1] + 1) if j >= 0 and _kept(args[0], j) == _kept(*args))),
)


def _case(name: str, outcomes: dict, k: int, hint: str) -> Example:
    return Example(name, (outcomes, k), hint)


EXAMPLES = (
    _case("the order of the runs does not matter", {"a": [False, True, True]}, 2,
          "C(2, 2) / C(3, 2) = 1/3: of the three pairs of runs, one is two successes. The first two "
          "runs are not special."),
    _case("two successes in three, k = 2", {"a": [True, True, False]}, 2,
          "C(2, 2) / C(3, 2) = 1/3, not (2/3)^2 = 4/9: the k runs are drawn from the n without "
          "replacement."),
    _case("pass^1 is each task's success rate", {"a": [False, True], "b": [True, True, False, True]}, 1,
          "C(c, 1) / C(n, 1) = c/n: a 1/2, b 3/4, mean 0.625."),
    _case("tasks of different sizes", {"a": [True, True], "b": [False, False, False, True]}, 2,
          "Per task: a 1, b 0; their mean is 0.5. Pooling the six runs gives C(3, 2) / C(6, 2) = 0.2."),
    _case("one failure in three", {"a": [True, False, True], "b": [True, True, True]}, 3,
          "Task a failed once in three: its pass^3 is 0 (its pass@3 would be 1)."),
    _case("a task with too few runs", {"a": [True], "b": [True, True]}, 2,
          "Task a has 1 run, fewer than k = 2: C(1, 2) is 0, there is no estimate, leave it out."),
    _case("a task with exactly k runs is kept", {"a": [True, False], "b": [True, True, True]}, 2,
          "Task a has exactly k = 2 runs: its estimate is C(1, 2) / C(2, 2) = 0, and it counts."),
    _case("no task has k runs", {"a": [True]}, 3, "No task has 3 runs: 0.0."),
)

HIDDEN = (
    _case("hidden: three tasks, k = 2", {"x": [True, False, True, True], "y": [False, True],
                                         "z": [True, True, True]}, 2,
          "Per task: C(3, 2) / C(4, 2) = 1/2, 0, 1; their mean is 0.5."),
    _case("hidden: no tasks", {}, 1, "No tasks at all: 0.0."),
)


def compare(args: tuple, want: float, got: Any) -> bool:
    """A number equal to the key's estimate up to float rounding."""
    return close_to(got, want)


SPEC = define(Spec(
    "09.pass_hat_k", "pass^k as tau-bench estimates it: C(c, k) / C(n, k) per task, then the mean",
    "pass_hat_k", key, EXAMPLES, _inputs, RULES, faults=FAULTS, hidden=HIDDEN, compare=compare,
    hints=("For a task with n runs, c of them successes: math.comb(c, k) / math.comb(n, k). The order of "
           "the runs plays no part.",
           "Compute that share for each task with at least k runs, then take the mean of the shares; no "
           "such task gives 0.0."),
    generated_hint="For each task with len(runs) >= k: math.comb(sum(runs), k) / math.comb(len(runs), k); "
                   "then the mean of those; none gives 0.0."))
__all__ = ["SPEC", "key"]
