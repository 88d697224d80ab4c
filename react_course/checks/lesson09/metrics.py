"""Checks 09.success_rate, 09.p95_steps and 09.repeat_rate: metrics by hand.

Each has hand cases for the mistakes people make (the 95th percentile as a
mean, step-limit runs counted as successes, the repeat rate over all actions
instead of per run), then a seeded comparison with
the answer key (``keys.py``) on generated inputs.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from .. import exercise
from ..framework import Case
from . import keys
from .common import against_key, close_to, rate_case

END_REASONS = ("final_answer", "step_limit", "repeating", "budget", "hand_over")


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
    yield rate_case(
        "a right best effort at the step limit",
        lambda: success_rate(limit),
        0.0,
        f"success_rate({limit})",
        "A best effort at the step limit is not a success, "
        "however right it looks: the agent did not finish.",
    )
    wrong = [{"end_reason": "final_answer", "correct": False}]
    yield rate_case(
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
    yield rate_case(
        "mixed endings",
        lambda: success_rate(mixed),
        0.5,
        "two right final answers in four runs",
        "Count the runs where both hold, over all four runs.",
    )
    yield rate_case(
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
        same=lambda got, want: close_to(got, want),
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
        return rate_case(
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
        same=lambda got, want: close_to(got, want),
    )
