"""Lesson 09's checkers: the references pass, stubs are not attempted, plausible mistakes fail.

Each mutant names the rule of the statement it breaks, and every rule has at least one.
"""

import itertools
import math
import re
import statistics

from mutation_suite import checker_tests

from react_course.checks.lesson09 import keys


def stub(*args, **kwargs):
    raise NotImplementedError("exercise 9.x: write this function")


def _ok(r):
    return r["end_reason"] == "final_answer" and r["correct"]


SUCCESS_MUTANTS = {
    "step-limit runs counted as successes": (
        "ended with a final answer",
        lambda runs: sum(r["correct"] for r in runs) / len(runs) if runs else 0.0,
    ),
    "every final answer counted": (
        "and its answer is correct",
        lambda runs: sum(r["end_reason"] == "final_answer" for r in runs) / len(runs) if runs else 0.0,
    ),
    "divides by zero": ("An empty list gives 0.0", lambda runs: sum(map(_ok, runs)) / len(runs)),
    "a count, not a share": ("ended with a final answer", lambda runs: float(sum(map(_ok, runs)))),
}


def _linear(steps):
    if not steps:
        return 0
    ordered, at = sorted(steps), 0.95 * (len(steps) - 1)
    low = math.floor(at)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (at - low)


P95_MUTANTS = {
    "computed as a mean": (
        "a step count that occurred, never an average",
        lambda s: statistics.mean(s) + 1.645 * statistics.pstdev(s) if s else 0,
    ),
    "interpolated between ranks": ("a step count that occurred, never an average", _linear),
    "the mean of the top 5%": (
        "a step count that occurred, never an average",
        lambda s: statistics.mean(sorted(s)[int(0.95 * len(s)) :]) if s else 0,
    ),
    "rank off by one": (
        "the nearest-rank 95th percentile",
        lambda s: sorted(s)[min(len(s) - 1, math.ceil(0.95 * len(s)))] if s else 0,
    ),
    "int() instead of ceil": (
        "the nearest-rank 95th percentile",
        lambda s: sorted(s)[max(0, int(0.95 * len(s)) - 1)] if s else 0,
    ),
    "the maximum": ("the nearest-rank 95th percentile", lambda s: max(s) if s else 0),
    "not sorted": ("in any order", lambda s: s[math.ceil(0.95 * len(s)) - 1] if s else 0),
    "fails on no runs": ("An empty list gives 0", lambda s: sorted(s)[math.ceil(0.95 * len(s)) - 1]),
}


def _per_run(share):
    def rate(runs):
        rates = [share(calls) for calls in runs if calls]
        return sum(rates) / len(rates) if rates else 0.0

    return rate


def _pooled(runs):
    calls = sum(len(r) for r in runs)
    repeats = sum(1 for r in runs for i, c in enumerate(r) if c in r[:i])
    return repeats / calls if calls else 0.0


def _across_runs(runs):
    seen, rates = [], []
    for calls in runs:
        if calls:
            rates.append(sum(1 for c in calls if c in seen or seen.append(c)) / len(calls))
    return sum(rates) / len(rates) if rates else 0.0


REPEAT_MUTANTS = {
    "over all actions instead of per run": ("then the mean over the runs", _pooled),
    "counts the first call too": (
        "the same tool with the same input was called earlier in the same run",
        _per_run(lambda calls: sum(calls.count(c) > 1 for c in calls) / len(calls)),
    ),
    "only the previous call": (
        "the share of repeated calls in each run",
        _per_run(lambda calls: sum(a == b for a, b in itertools.pairwise(calls)) / len(calls)),
    ),
    "tool name only": (
        "the same tool with the same input was called earlier in the same run",
        _per_run(
            lambda calls: sum(c[0] in [p[0] for p in calls[:i]] for i, c in enumerate(calls)) / len(calls)
        ),
    ),
    "across runs": ("the same tool with the same input was called earlier in the same run", _across_runs),
    "empty runs count as 0": (
        "runs with no calls are left out",
        lambda runs: sum(keys.repeat_rate([r]) for r in runs) / len(runs) if runs else 0.0,
    ),
    "divides by zero": (
        "runs with no calls are left out",
        lambda runs: sum(keys.repeat_rate([r]) for r in runs if r) / len([r for r in runs if r]),
    ),
}


def _tasks(outcomes, k):
    return [runs[:k] for runs in outcomes.values() if len(runs) >= k]


PASS_MUTANTS = {
    "pass^k computed as pass@k": (
        "whose first k runs all succeeded",
        lambda o, k: sum(any(r) for r in _tasks(o, k)) / len(_tasks(o, k)) if _tasks(o, k) else 0.0,
    ),
    "the mean success": (
        "whose first k runs all succeeded",
        lambda o, k: statistics.mean([x for r in _tasks(o, k) for x in r]) if _tasks(o, k) else 0.0,
    ),
    "every run, not the first k": (
        "whose first k runs all succeeded",
        lambda o, k: (
            sum(all(r) for r in o.values() if len(r) >= k) / len([r for r in o.values() if len(r) >= k])
            if _tasks(o, k)
            else 0.0
        ),
    ),
    "short tasks kept": (
        "tasks with fewer than k runs are left out",
        lambda o, k: sum(all(r[:k]) and len(r) > 0 for r in o.values()) / len(o) if o else 0.0,
    ),
    "divides by zero": (
        "0.0 when no task has k runs",
        lambda o, k: sum(all(r) for r in _tasks(o, k)) / len(_tasks(o, k)),
    ),
}

_ANY = re.compile(r"(\d[\d,]*(?:\.\d+)?)\s*([A-Za-z]*)")


def _numbers(answer):
    return [(float(n.rstrip(",").replace(",", "")), w) for n, w in _ANY.findall(answer)]


SCORE_MUTANTS = {
    "the first number, unit ignored": (
        "A bare number is not enough",
        lambda a, v, u: bool(_numbers(a)) and _numbers(a)[0][0] == v,
    ),
    "any number, unit ignored": (
        "A bare number is not enough",
        lambda a, v, u: any(n == v for n, _ in _numbers(a)),
    ),
    "only the first number": (
        "any number in the answer may match",
        lambda a, v, u: (
            (bool(_numbers(a))
            and _numbers(a)[0] == (v, u))
            or (bool(_numbers(a))
            and _numbers(a)[0][0] == v
            and _numbers(a)[0][1].lower() == u.lower())
        ),
    ),
    "the unit anywhere": (
        "followed by the unit",
        lambda a, v, u: any(n == v for n, _ in _numbers(a)) and u.lower() in a.lower().split(),
    ),
    "a substring": (
        "a number inside a longer number does not count",
        lambda a, v, u: f"{v:g} {u}".lower() in a.lower() or f"{v:g}{u}".lower() in a.lower(),
    ),
    "commas split numbers": (
        "commas between thousands",
        lambda a, v, u: any(
            float(n) == v and w.lower() == u.lower()
            for n, w in re.findall(r"(?<![\d.,])(\d+(?:\.\d+)?)\s*([A-Za-z]*)", a)
        ),
    ),
    "case-sensitive unit": (
        "compared without case",
        lambda a, v, u: any(
            float(n.rstrip(",").replace(",", "")) == v and w == u for n, w in keys.NUMBER.findall(a)
        ),
    ),
}

EXERCISES = {
    "09.success_rate": (keys.success_rate, SUCCESS_MUTANTS),
    "09.p95_steps": (keys.p95_steps, P95_MUTANTS),
    "09.repeat_rate": (keys.repeat_rate, REPEAT_MUTANTS),
    "09.pass_hat_k": (keys.pass_hat_k, PASS_MUTANTS),
    "09.score_number": (keys.score_number, SCORE_MUTANTS),
}

(
    test_reference_passes,
    test_stub_is_not_attempted,
    test_wrong_solution_fails,
    test_every_rule_has_a_mutant_and_every_mutant_a_rule,
    test_each_rules_cases_exist,
) = checker_tests(EXERCISES, stub)
