"""Checks 09.success_rate, 09.p95_steps, 09.repeat_rate and 09.pass_hat_k: metrics by hand.

Each has hand cases for the mistakes people make (the 95th percentile as a
mean, step-limit runs counted as successes, the repeat rate over all actions
instead of per run, pass^k computed as pass@k or as "the first k runs all
succeed"), then a seeded comparison with
the answer key (``keys.py``) on generated inputs.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

from .. import exercise
from ..framework import Case
from . import keys
from .common import against_key

END_REASONS = ("final_answer", "step_limit", "repeating", "budget", "hand_over")


def _close(got: object, want: float) -> bool:
    return (
        isinstance(got, int | float) and not isinstance(got, bool) and math.isclose(got, want, abs_tol=1e-9)
    )


def _rate_case(name: str, run: Callable[[], object], want: float, given: str, hint: str) -> Case:
    return Case(
        name,
        run,
        test=lambda got: _close(got, want) or f"expected {want!r}, got {got!r}",
        given=given,
        hint=hint,
    )


# ------------------------------------------------------------------ 09.success_rate


def _runs(rng: random.Random) -> tuple:
    return (
        [
            {"end_reason": rng.choice(END_REASONS), "correct": rng.random() < 0.6}
            for _ in range(rng.randint(0, 8))
        ],
    )


@exercise(
    "09.success_rate",
    "success counts only final answers that are right",
    hints=(
        "A run succeeds when both hold: it ended with a final answer, and the answer is right.",
        "Divide by all runs, successes or not; no runs at all is 0.0.",
    ),
    rules={
        "ended with a final answer": (
            "a right best effort at the step limit",
            "mixed endings",
            "the answer key on generated runs",
        ),
        "and its answer is correct": ("a wrong final answer", "mixed endings"),
        "An empty list gives 0.0": ("no runs",),
    },
)
def success_rate_cases(success_rate: Callable):
    limit = [{"end_reason": "step_limit", "correct": True}]
    yield _rate_case(
        "a right best effort at the step limit",
        lambda: success_rate(limit),
        0.0,
        f"success_rate({limit})",
        "A best effort at the step limit is not a success, "
        "however right it looks: the agent did not finish.",
    )
    wrong = [{"end_reason": "final_answer", "correct": False}]
    yield _rate_case(
        "a wrong final answer",
        lambda: success_rate(wrong),
        0.0,
        f"success_rate({wrong})",
        "Finishing is not succeeding: the answer must be right too.",
    )
    mixed = [
        {"end_reason": "final_answer", "correct": True},
        {"end_reason": "step_limit", "correct": True},
        {"end_reason": "final_answer", "correct": False},
        {"end_reason": "final_answer", "correct": True},
    ]
    yield _rate_case(
        "mixed endings",
        lambda: success_rate(mixed),
        0.5,
        "two right final answers in four runs",
        "Count the runs where both hold, over all four runs.",
    )
    yield _rate_case(
        "no runs",
        lambda: success_rate([]),
        0.0,
        "success_rate([])",
        "No runs: return 0.0 instead of dividing by zero.",
    )
    yield against_key(
        "the answer key on generated runs",
        success_rate,
        keys.success_rate,
        _runs,
        size=lambda args: len(args[0]),
        same=lambda got, want: _close(got, want),
    )


# ------------------------------------------------------------------ 09.p95_steps


@exercise(
    "09.p95_steps",
    "the 95th percentile of steps, by nearest rank",
    hints=(
        "Sort the counts; the 95th percentile is the value at rank ceil(0.95 * n), counting from 1.",
        "In Python, rank r is index r - 1: sorted(steps)[math.ceil(0.95 * len(steps)) - 1].",
    ),
    rules={
        "the nearest-rank 95th percentile": (
            "twenty runs, 1 to 20 steps",
            "two runs",
            "two long runs in twenty",
            "the answer key on generated lists",
        ),
        "a step count that occurred, never an average": ("one long run in twenty", "two runs"),
        "in any order": ("unsorted counts",),
        "An empty list gives 0": ("no runs",),
    },
)
def p95_cases(p95_steps: Callable):
    def case(name, steps, hint):
        want = keys.p95_steps(list(steps))
        return Case(
            name, lambda: p95_steps(list(steps)), expected=want, given=f"p95_steps({steps})", hint=hint
        )

    yield case(
        "twenty runs, 1 to 20 steps", list(range(1, 21)), "Rank ceil(0.95 * 20) = 19: the 19th value."
    )
    yield case(
        "one long run in twenty",
        [3] * 19 + [20],
        "19 of 20 runs took 3 steps: the rank-19 value is 3, not an average pulled up by the one long run.",
    )
    yield case("two long runs in twenty", [3] * 18 + [20, 20], "Now rank 19 lands on a long run.")
    yield case("two runs", [2, 9], "ceil(0.95 * 2) = 2: the larger count, not a value between them.")
    yield case("unsorted counts", [9, 1, 4, 12, 2, 7], "Sort before you take the rank.")
    yield case("no runs", [], "No runs: return 0.")
    yield against_key(
        "the answer key on generated lists",
        p95_steps,
        keys.p95_steps,
        lambda rng: ([rng.randint(1, 12) for _ in range(rng.randint(1, 30))],),
        size=lambda args: len(args[0]),
    )


# ------------------------------------------------------------------ 09.repeat_rate


def _calls(rng: random.Random) -> tuple:
    pool = [
        ("search", "Eiffel Tower"),
        ("search", "Statue of Liberty"),
        ("calculate", "330 - 93"),
        ("lookup", "height"),
    ]
    return ([[rng.choice(pool) for _ in range(rng.randint(0, 6))] for _ in range(rng.randint(0, 5))],)


@exercise(
    "09.repeat_rate",
    "the repeat-action rate, per run",
    hints=(
        "For one run: count the calls whose (tool, input) appears earlier in the same run; divide "
        "by that run's calls.",
        "Average those shares over the runs that made a call; do not pool every call together.",
    ),
    rules={
        "the same tool with the same input was called earlier in the same run": (
            "the first call is never a repeat",
            "same input, another tool",
            "repeats are per run",
        ),
        "the share of repeated calls in each run": ("one stuck run", "a call between the repeats"),
        "then the mean over the runs": ("one stuck run", "the answer key on generated runs"),
        "runs with no calls are left out": ("an empty run", "no calls at all"),
    },
)
def repeat_rate_cases(repeat_rate: Callable):
    a, b, c = ("search", "Eiffel Tower"), ("search", "Statue of Liberty"), ("calculate", "330 - 93")

    def case(name, runs, hint):
        want = keys.repeat_rate(runs)
        return _rate_case(
            name, lambda: repeat_rate([list(r) for r in runs]), want, f"repeat_rate({runs})", hint
        )

    yield case("the first call is never a repeat", [[a, a]], "Only the second call repeats: 1 of 2.")
    yield case(
        "same input, another tool",
        [[("search", "x"), ("lookup", "x")]],
        "A repeat is the same tool *and* the same input.",
    )
    yield case("a call between the repeats", [[a, b, a]], "The third call repeats the first: 1 of 3.")
    yield case(
        "one stuck run",
        [[a, a, a, a, a, a, a, a], [a, b], [b, c], [a, c]],
        "Per run: 7/8, 0, 0, 0; their mean is 0.21875. Pooling gives 7/14 = 0.5: one stuck run "
        "would look like a habit of every run.",
    )
    yield case("repeats are per run", [[a], [a], [a]], "The same call in another run is not a repeat.")
    yield case(
        "an empty run", [[], [a, a]], "A run with no calls has no share: leave it out (mean of 1/2)."
    )
    yield case("no calls at all", [[], []], "No run made a call: 0.0.")
    yield against_key(
        "the answer key on generated runs",
        repeat_rate,
        keys.repeat_rate,
        _calls,
        size=lambda args: sum(len(r) for r in args[0]),
        same=lambda got, want: _close(got, want),
    )


# ------------------------------------------------------------------ 09.pass_hat_k


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
        return _rate_case(
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
        same=lambda got, want: _close(got, want),
    )
