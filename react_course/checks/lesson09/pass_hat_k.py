"""Check 09.pass_hat_k: pass^k as tau-bench estimates it, C(c, k) / C(n, k) per task, then the mean.

Hand cases for the estimators people write instead ("the first k runs all
succeed", (c/n)^k, every run pooled, pass@k, k off by one, tasks with fewer
than k runs kept), then a seeded comparison with the answer key
(``keys.py``) on generated outcome tables.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from .. import exercise
from . import keys
from .common import against_key, close_to, rate_case


def _outcomes(rng: random.Random) -> tuple:
    tasks = {
        f"t{i}": [rng.random() < 0.7 for _ in range(rng.randint(0, 6))] for i in range(rng.randint(0, 5))
    }
    return tasks, rng.randint(1, 5)


@exercise(
    "09.pass_hat_k",
    "pass^k as tau-bench estimates it: C(c, k) / C(n, k) per task, then the mean",
    hints=(
        "For a task with n runs, c of them successes: math.comb(c, k) / math.comb(n, k). "
        "The order of the runs plays no part.",
        "Compute that share for each task with at least k runs, then take the mean of the shares; "
        "no such task gives 0.0.",
    ),
    rules={
        "Use C(c, k) / C(n, k) for each task": (
            "the order of the runs does not matter",
            "two successes in three, k = 2",
            "pass^1 is each task's success rate",
            "the answer key on generated outcomes",
        ),
        "then the mean over the tasks": ("tasks of different sizes",),
        "This is pass^k, not pass@k": ("one failure in three",),
        "tasks with fewer than k runs are left out": ("a task with too few runs",),
        "0.0 when no task has k runs": ("no task has k runs",),
    },
)
def pass_hat_k_cases(pass_hat_k: Callable):
    def case(name, outcomes, k, hint):
        want = keys.pass_hat_k(outcomes, k)
        return rate_case(
            name,
            lambda: pass_hat_k({t: list(r) for t, r in outcomes.items()}, k),
            want,
            f"pass_hat_k({outcomes}, k={k})",
            hint,
        )

    yield case(
        "the order of the runs does not matter",
        {"a": [False, True, True]},
        2,
        "C(2, 2) / C(3, 2) = 1/3: of the three pairs of runs, one is two successes. "
        "The first two runs are not special.",
    )
    yield case(
        "two successes in three, k = 2",
        {"a": [True, True, False]},
        2,
        "C(2, 2) / C(3, 2) = 1/3, not (2/3)^2 = 4/9: the k runs are drawn from the n without replacement.",
    )
    yield case(
        "pass^1 is each task's success rate",
        {"a": [False, True], "b": [True, True, False, True]},
        1,
        "C(c, 1) / C(n, 1) = c/n: a 1/2, b 3/4, mean 0.625.",
    )
    yield case(
        "tasks of different sizes",
        {"a": [True, True], "b": [False, False, False, True]},
        2,
        "Per task: a 1, b 0; their mean is 0.5. Pooling the six runs gives C(3, 2) / C(6, 2) = 0.2.",
    )
    yield case(
        "one failure in three",
        {"a": [True, False, True], "b": [True, True, True]},
        3,
        "Task a failed once in three: its pass^3 is 0 (its pass@3 would be 1).",
    )
    yield case(
        "a task with too few runs",
        {"a": [True], "b": [True, True]},
        2,
        "Task a has 1 run, fewer than k = 2: C(1, 2) is 0, there is no estimate, leave it out.",
    )
    yield case("no task has k runs", {"a": [True]}, 3, "No task has 3 runs: 0.0.")
    yield against_key(
        "the answer key on generated outcomes",
        pass_hat_k,
        keys.pass_hat_k,
        _outcomes,
        size=lambda args: (sum(len(r) for r in args[0].values()), args[1]),
        same=lambda got, want: close_to(got, want),
    )
