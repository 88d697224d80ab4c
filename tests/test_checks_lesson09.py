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
    return [runs for runs in outcomes.values() if len(runs) >= k]


def _mean_over_tasks(share):
    """A per-task share of (c, n, k), averaged over the tasks with k runs."""

    def estimate(o, k):
        shares = [share(sum(r), len(r), k) for r in _tasks(o, k)]
        return sum(shares) / len(shares) if shares else 0.0

    return estimate


def _pooled_comb(o, k):
    c, n = sum(sum(r) for r in _tasks(o, k)), sum(len(r) for r in _tasks(o, k))
    return math.comb(c, k) / math.comb(n, k) if _tasks(o, k) else 0.0


def _comb_k_beyond_n(o, k):
    shares = [math.comb(sum(r), k) / (math.comb(len(r), k) or 1) for r in o.values()]
    return sum(shares) / len(shares) if shares else 0.0


PASS_MUTANTS = {
    "the first k runs all succeed": (
        "Use C(c, k) / C(n, k) for each task",
        lambda o, k: sum(all(r[:k]) for r in _tasks(o, k)) / len(_tasks(o, k)) if _tasks(o, k) else 0.0,
    ),
    "with replacement, (c/n)^k": (
        "Use C(c, k) / C(n, k) for each task",
        _mean_over_tasks(lambda c, n, k: (c / n) ** k),
    ),
    "off by one: C(c, k - 1) / C(n, k - 1)": (
        "Use C(c, k) / C(n, k) for each task",
        _mean_over_tasks(lambda c, n, k: math.comb(c, k - 1) / math.comb(n, k - 1)),
    ),
    "off by one: C(c, k + 1) / C(n, k + 1)": (
        "Use C(c, k) / C(n, k) for each task",
        _mean_over_tasks(lambda c, n, k: math.comb(c, k + 1) / math.comb(n, k + 1) if n > k else c / n),
    ),
    "the mean success": ("Use C(c, k) / C(n, k) for each task", _mean_over_tasks(lambda c, n, k: c / n)),
    "pooled over every run, not averaged over tasks": ("then the mean over the tasks", _pooled_comb),
    "pass^k computed as pass@k": (
        "This is pass^k, not pass@k",
        _mean_over_tasks(lambda c, n, k: 1 - math.comb(n - c, k) / math.comb(n, k)),
    ),
    "C(n, k) with k > n taken as a 0": ("tasks with fewer than k runs are left out", _comb_k_beyond_n),
    "divides by zero": (
        "0.0 when no task has k runs",
        lambda o, k: sum(math.comb(sum(r), k) / math.comb(len(r), k) for r in _tasks(o, k))
        / len(_tasks(o, k)),
    ),
}

_ANY = re.compile(r"(\d[\d,]*(?:\.\d+)?)\s*([A-Za-z]*)")


def _numbers(answer):
    return [(float(n.rstrip(",").replace(",", "")), w) for n, w in _ANY.findall(answer)]


def _whole(answer):
    """Whole numbers with the word after them (in lower case), as the answer key reads them."""
    return [(float(n.rstrip(",").replace(",", "")), w.lower()) for n, w in keys.NUMBER.findall(answer)]


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
    "the unit as a prefix of the word": (
        "the whole word must be the unit",
        lambda a, v, u: any(n == v and w.startswith(u.lower()) for n, w in _whole(a)),
    ),
    "the unit anywhere in the next word": (
        "the whole word must be the unit",
        lambda a, v, u: any(n == v and u.lower() in w for n, w in _whole(a)),
    ),
    "a plural accepted": (
        "a plural is another word",
        lambda a, v, u: any(n == v and w in (u.lower(), u.lower() + "s") for n, w in _whole(a)),
    ),
    "rounded before comparing": (
        "never rounded first",
        lambda a, v, u: any(round(n) == round(v) and w == u.lower() for n, w in _whole(a)),
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
