"""Lesson 09's checkers: right solutions pass, every wrong one fails under the rule it breaks.

One catalogue per exercise (``mutation_suite.exercise_tests``): the earlier mutants, then
wrong solutions written from the statements alone, in the mistake classes a student makes
(a unit read as a prefix, rounding, a plural, ends other than the step limit, a task with
exactly k runs dropped, a mutable default that carries earlier calls, ...).
"""

import itertools
import math
import re
import statistics
from decimal import Decimal

import nbformat
import pytest
from mutation_suite import exercise_tests, result_of

from react_course import evaluate
from react_course.checks import check
from react_course.checks.lesson09 import p95_steps, pass_hat_k, repeat_rate, score_number, success_rate


def stub(*args, **kwargs):
    raise NotImplementedError("exercise 9.x: write this function")


# ---------------------------------------------------------------- 09.success_rate


def _ok(r):
    return r["end_reason"] == "final_answer" and r["correct"]


def success_loop(runs):
    won = 0
    for run in runs:
        if run["end_reason"] == "final_answer" and run["correct"] is True:
            won += 1
    return won / len(runs) if runs else 0.0


def success_carried(runs, seen=[]):  # noqa: B006 - the mistake under test
    seen.extend(runs)
    return sum(map(_ok, seen)) / len(seen) if seen else 0.0


FINAL, CORRECT, SHARE, EMPTY = (rule.phrase for rule in success_rate.RULES)
SUCCESS_MUTANTS = {
    "step-limit runs counted as successes": (
        FINAL,
        lambda runs: sum(r["correct"] for r in runs) / len(runs) if runs else 0.0,
    ),
    "every final answer counted": (
        CORRECT,
        lambda runs: sum(r["end_reason"] == "final_answer" for r in runs) / len(runs) if runs else 0.0,
    ),
    "divides by zero": (EMPTY, lambda runs: sum(map(_ok, runs)) / len(runs)),
    "a count, not a share": (SHARE, lambda runs: float(sum(map(_ok, runs)))),
    # written from the statement
    "only the step limit is not a success": (
        FINAL,
        lambda runs: (
            sum(r["end_reason"] != "step_limit" and r["correct"] for r in runs) / len(runs) if runs else 0.0
        ),
    ),
    "a percentage": (SHARE, lambda runs: 100 * sum(map(_ok, runs)) / len(runs) if runs else 0.0),
    "rounded to two places": (SHARE, lambda runs: round(sum(map(_ok, runs)) / len(runs), 2) if runs else 0.0),
    "divided by the final answers only": (
        SHARE,
        lambda runs: sum(map(_ok, runs)) / max(1, sum(r["end_reason"] == "final_answer" for r in runs)),
    ),
    "a mutable default carries earlier calls": (SHARE, success_carried),
    "None for no runs": (EMPTY, lambda runs: sum(map(_ok, runs)) / len(runs) if runs else None),
}


# ---------------------------------------------------------------- 09.p95_steps


def _linear(steps):
    if not steps:
        return 0
    ordered, at = sorted(steps), 0.95 * (len(steps) - 1)
    low = math.floor(at)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (at - low)


def p95_exact(steps):
    """The rank in whole numbers: ceil(19 n / 20) without floats."""
    return sorted(steps)[-(-19 * len(steps) // 20) - 1] if steps else 0


def p95_carried(steps, seen=[]):  # noqa: B006 - the mistake under test
    seen += steps
    return sorted(seen)[math.ceil(0.95 * len(seen)) - 1] if seen else 0


RANK, OCCURRED, ORDER, NO_STEPS = (rule.phrase for rule in p95_steps.RULES)
P95_MUTANTS = {
    "computed as a mean": (OCCURRED, lambda s: statistics.mean(s) + 1.645 * statistics.pstdev(s) if s else 0),
    "interpolated between ranks": (OCCURRED, _linear),
    "the mean of the top 5%": (
        OCCURRED,
        lambda s: statistics.mean(sorted(s)[int(0.95 * len(s)) :]) if s else 0,
    ),
    "rank off by one": (RANK, lambda s: sorted(s)[min(len(s) - 1, math.ceil(0.95 * len(s)))] if s else 0),
    "int() instead of ceil": (RANK, lambda s: sorted(s)[max(0, int(0.95 * len(s)) - 1)] if s else 0),
    "the maximum": (RANK, lambda s: max(s) if s else 0),
    "not sorted": (ORDER, lambda s: s[math.ceil(0.95 * len(s)) - 1] if s else 0),
    "fails on no runs": (NO_STEPS, lambda s: sorted(s)[math.ceil(0.95 * len(s)) - 1]),
    # written from the statement
    "round() of the rank": (RANK, lambda s: sorted(s)[max(0, round(0.95 * len(s)) - 1)] if s else 0),
    "statistics.quantiles": (
        OCCURRED,
        lambda s: statistics.quantiles(s, n=20, method="inclusive")[-1] if len(s) > 1 else (s[0] if s else 0),
    ),
    "duplicates dropped before ranking": (
        RANK,
        lambda s: sorted(set(s))[math.ceil(0.95 * len(set(s))) - 1] if s else 0,
    ),
    "sorted the wrong way": (
        ORDER,
        lambda s: sorted(s, reverse=True)[math.ceil(0.95 * len(s)) - 1] if s else 0,
    ),
    "a mutable default carries earlier calls": (RANK, p95_carried),
    "None for no runs": (NO_STEPS, lambda s: sorted(s)[math.ceil(0.95 * len(s)) - 1] if s else None),
}


# ---------------------------------------------------------------- 09.repeat_rate


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


def repeat_by_sets(runs):
    """Right: the repeats of a run are its calls minus its distinct calls."""
    shares = [1 - len(set(calls)) / len(calls) for calls in runs if calls]
    return statistics.fmean(shares) if shares else 0.0


def repeat_carried(runs, shares=[]):  # noqa: B006 - the mistake under test
    shares += [repeat_rate.share(calls) for calls in runs if calls]
    return sum(shares) / len(shares) if shares else 0.0


EARLIER, RUN_SHARE, MEAN, LEFT_OUT = (rule.phrase for rule in repeat_rate.RULES)
REPEAT_MUTANTS = {
    "over all actions instead of per run": (MEAN, _pooled),
    "counts the first call too": (
        EARLIER,
        _per_run(lambda calls: sum(calls.count(c) > 1 for c in calls) / len(calls)),
    ),
    "only the previous call": (
        RUN_SHARE,
        _per_run(lambda calls: sum(a == b for a, b in itertools.pairwise(calls)) / len(calls)),
    ),
    "tool name only": (
        EARLIER,
        _per_run(
            lambda calls: sum(c[0] in [p[0] for p in calls[:i]] for i, c in enumerate(calls)) / len(calls)
        ),
    ),
    "across runs": (EARLIER, _across_runs),
    "empty runs count as 0": (
        LEFT_OUT,
        lambda runs: sum(repeat_rate.key([r]) for r in runs) / len(runs) if runs else 0.0,
    ),
    "divides by zero": (
        LEFT_OUT,
        lambda runs: sum(repeat_rate.key([r]) for r in runs if r) / len([r for r in runs if r]),
    ),
    # written from the statement
    "input only, any tool": (
        EARLIER,
        _per_run(
            lambda calls: sum(c[1] in [p[1] for p in calls[:i]] for i, c in enumerate(calls)) / len(calls)
        ),
    ),
    "inputs compared in lower case": (
        EARLIER,
        lambda runs: repeat_rate.key([[(t, i.lower()) for t, i in calls] for calls in runs]),
    ),
    "repeats over the calls after the first": (
        RUN_SHARE,
        _per_run(lambda calls: sum(c in calls[:i] for i, c in enumerate(calls)) / max(1, len(calls) - 1)),
    ),
    "a count of repeats, not a share": (
        RUN_SHARE,
        _per_run(lambda calls: float(sum(c in calls[:i] for i, c in enumerate(calls)))),
    ),
    "a mutable default carries earlier calls": (MEAN, repeat_carried),
}


# ---------------------------------------------------------------- 09.pass_hat_k


def _tasks(outcomes, k):
    return [runs for runs in outcomes.values() if len(runs) >= k]


def _mean_over_tasks(share):
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


def _product(c, n, k):
    """Right: C(c, k) / C(n, k) as the chance that k draws without replacement all succeed."""
    return math.prod((c - i) / (n - i) for i in range(k))


def pass_carried(o, k, shares=[]):  # noqa: B006 - the mistake under test
    shares += [math.comb(sum(r), k) / math.comb(len(r), k) for r in _tasks(o, k)]
    return sum(shares) / len(shares) if shares else 0.0


ESTIMATE, TASK_MEAN, HAT, FEWER, NO_TASK = (rule.phrase for rule in pass_hat_k.RULES)
PASS_MUTANTS = {
    "the first k runs all succeed": (
        ESTIMATE,
        lambda o, k: sum(all(r[:k]) for r in _tasks(o, k)) / len(_tasks(o, k)) if _tasks(o, k) else 0.0,
    ),
    "with replacement, (c/n)^k": (ESTIMATE, _mean_over_tasks(lambda c, n, k: (c / n) ** k)),
    "off by one: C(c, k - 1) / C(n, k - 1)": (
        ESTIMATE,
        _mean_over_tasks(lambda c, n, k: math.comb(c, k - 1) / math.comb(n, k - 1)),
    ),
    "off by one: C(c, k + 1) / C(n, k + 1)": (
        ESTIMATE,
        _mean_over_tasks(lambda c, n, k: math.comb(c, k + 1) / math.comb(n, k + 1) if n > k else c / n),
    ),
    "the mean success": (ESTIMATE, _mean_over_tasks(lambda c, n, k: c / n)),
    "pooled over every run, not averaged over tasks": (TASK_MEAN, _pooled_comb),
    "pass^k computed as pass@k": (
        HAT,
        _mean_over_tasks(lambda c, n, k: 1 - math.comb(n - c, k) / math.comb(n, k)),
    ),
    "C(n, k) with k > n taken as a 0": (FEWER, _comb_k_beyond_n),
    "divides by zero": (
        NO_TASK,
        lambda o, k: (
            sum(math.comb(sum(r), k) / math.comb(len(r), k) for r in _tasks(o, k)) / len(_tasks(o, k))
        ),
    ),
    # written from the statement
    "the last k runs all succeed": (
        ESTIMATE,
        lambda o, k: statistics.fmean([all(r[-k:]) for r in _tasks(o, k)]) if _tasks(o, k) else 0.0,
    ),
    "integer division": (ESTIMATE, _mean_over_tasks(lambda c, n, k: math.comb(c, k) // math.comb(n, k))),
    "a task with exactly k runs dropped": (
        FEWER,
        lambda o, k: statistics.fmean(
            [math.comb(sum(r), k) / math.comb(len(r), k) for r in o.values() if len(r) > k] or [0.0]
        ),
    ),
    "short tasks kept as 0": (
        FEWER,
        lambda o, k: (
            statistics.fmean(
                [math.comb(sum(r), k) / math.comb(len(r), k) if len(r) >= k else 0.0 for r in o.values()]
            )
            if o
            else 0.0
        ),
    ),
    "weighted by each task's runs": (
        TASK_MEAN,
        lambda o, k: (
            sum(len(r) * math.comb(sum(r), k) / math.comb(len(r), k) for r in _tasks(o, k))
            / sum(len(r) for r in _tasks(o, k))
            if _tasks(o, k)
            else 0.0
        ),
    ),
    "pass@k from the first k runs": (
        HAT,
        lambda o, k: statistics.fmean([any(r[:k]) for r in _tasks(o, k)]) if _tasks(o, k) else 0.0,
    ),
    "a mutable default carries earlier calls": (TASK_MEAN, pass_carried),
    "None when no task has k runs": (NO_TASK, lambda o, k: pass_hat_k.key(o, k) if _tasks(o, k) else None),
}


# ---------------------------------------------------------------- 09.score_number

_ANY = re.compile(r"(\d[\d,]*(?:\.\d+)?)\s*([A-Za-z]*)")
OLD_KEY = re.compile(r"(?<![\d.,])(\d[\d,]*(?:\.\d+)?)\s*([A-Za-z]*)")


def score_old_key(answer, value, unit):
    """Right on every answer the statement allows: the earlier key (and the solution notebook's)."""
    for number, word in OLD_KEY.findall(answer):
        if float(number.rstrip(",").replace(",", "")) == value and word.lower() == unit.lower():
            return True
    return False


def score_by_tokens(answer, value, unit):
    """Right: a scanner by hand, a character at a time."""
    at, size = 0, len(answer)
    while at < size:
        if answer[at].isdigit() and (at == 0 or answer[at - 1] not in "0123456789.,"):
            end = at
            while end < size and (
                answer[end].isdigit()
                or (
                    answer[end] == ","
                    and answer[end + 1 : end + 4].isdigit()
                    and not answer[end + 4 : end + 5].isdigit()
                )
                or (answer[end] == "." and answer[end + 1 : end + 2].isdigit())
            ):
                end += 1
            number, rest = float(answer[at:end].replace(",", "")), answer[end:]
            rest = rest[1:] if rest.startswith(" ") else rest
            word = re.match(r"[A-Za-z]*", rest)[0]
            if number == value and word.lower() == unit.lower():
                return True
            at = end
        else:
            at += 1
    return False


def _numbers(answer):
    return [(float(n.rstrip(",").replace(",", "")), w) for n, w in _ANY.findall(answer)]


def _whole(answer):
    """Whole numbers with the word after them (in lower case), as the answer key reads them."""
    return [(n, w.lower()) for n, w in score_number.numbers(answer)]


def _split_words(answer, value, unit):
    """The next whitespace token, stripped of punctuation: misses a unit written against its number."""
    tokens = answer.split()
    for here, after in zip(tokens, [*tokens[1:], ""], strict=True):
        number = here.rstrip(".,")
        if (
            re.fullmatch(r"\d{1,3}(,\d{3})+(\.\d+)?|\d+(\.\d+)?", number)
            and float(number.replace(",", "")) == value
        ):
            if after.strip(".,").lower() == unit.lower() and here == number:
                return True
    return False


U, B, WH, PL, RO, CO, PT, GAP, CA, IN, AN, EQ = (rule.phrase for rule in score_number.RULES)
SCORE_MUTANTS = {
    "the first number, unit ignored": (B, lambda a, v, u: bool(_numbers(a)) and _numbers(a)[0][0] == v),
    "any number, unit ignored": (B, lambda a, v, u: any(n == v for n, _ in _numbers(a))),
    "only the first number": (
        AN,
        lambda a, v, u: (
            bool(_numbers(a)) and _numbers(a)[0][0] == v and _numbers(a)[0][1].lower() == u.lower()
        ),
    ),
    "the unit anywhere": (
        U,
        lambda a, v, u: any(n == v for n, _ in _numbers(a)) and u.lower() in a.lower().split(),
    ),
    "a substring": (
        IN,
        lambda a, v, u: f"{v:g} {u}".lower() in a.lower() or f"{v:g}{u}".lower() in a.lower(),
    ),
    "commas split numbers": (
        CO,
        lambda a, v, u: any(
            float(n) == v and w.lower() == u.lower()
            for n, w in re.findall(r"(?<![\d.,])(\d+(?:\.\d+)?)\s*([A-Za-z]*)", a)
        ),
    ),
    "the unit as a prefix of the word": (
        WH,
        lambda a, v, u: any(n == v and w.startswith(u.lower()) for n, w in _whole(a)),
    ),
    "the unit anywhere in the next word": (
        WH,
        lambda a, v, u: any(n == v and u.lower() in w for n, w in _whole(a)),
    ),
    "a plural accepted": (
        PL,
        lambda a, v, u: any(n == v and w in (u.lower(), u.lower() + "s") for n, w in _whole(a)),
    ),
    "rounded before comparing": (
        RO,
        lambda a, v, u: any(round(n) == round(v) and w == u.lower() for n, w in _whole(a)),
    ),
    "case-sensitive unit": (CA, lambda a, v, u: any(n == v and w == u for n, w in score_number.numbers(a))),
    # written from the statement
    "a regex with no end to the unit": (
        WH,
        lambda a, v, u: any(
            float(n.replace(",", "")) == v
            for n in re.findall(rf"(?<![\d.,])(\d[\d,]*(?:\.\d+)?) ?{re.escape(u)}", a, re.I)
        ),
    ),
    "the word after the number, cut to the unit's length": (
        WH,
        lambda a, v, u: any(n == v and w[: len(u)] == u.lower() for n, w in _whole(a)),
    ),
    "a trailing s dropped from both": (
        PL,
        lambda a, v, u: any(
            n == v and w.removesuffix("s") == u.lower().removesuffix("s") for n, w in _whole(a)
        ),
    ),
    "whole numbers compared with int()": (
        RO,
        lambda a, v, u: any(int(n) == int(v) and w == u.lower() for n, w in _whole(a)),
    ),
    "math.isclose at 1%": (
        RO,
        lambda a, v, u: any(math.isclose(n, v, rel_tol=0.01) and w == u.lower() for n, w in _whole(a)),
    ),
    "whole numbers only": (
        PT,
        lambda a, v, u: any(
            float(n.replace(",", "")) == v and w.lower() == u.lower()
            for n, w in re.findall(r"(?<![\d,])(\d{1,3}(?:,\d{3})+|\d+) ?([A-Za-z]*)", a)
        ),
    ),
    "the next whitespace token": (GAP, _split_words),
    "the value compared as text": (
        EQ,
        lambda a, v, u: any(
            n.replace(",", "") == str(v) and w.lower() == u.lower() for n, w in OLD_KEY.findall(a)
        ),
    ),
    "unit lower-cased on one side only": (CA, lambda a, v, u: any(n == v and w == u for n, w in _whole(a))),
    "digits read without their commas": (
        CO,
        lambda a, v, u: any(
            float(n) == v and w.lower() == u.lower()
            for n, w in re.findall(r"(\d+(?:\.\d+)?) ?([A-Za-z]*)", a)
        ),
    ),
}


def score_in_decimals(answer, value, unit):
    """Right: the number's text as a Decimal against the value's, so 3.9 is exactly 3.9."""
    return any(
        Decimal(number.replace(",", "")) == Decimal(str(value)) and word.lower() == unit.lower()
        for number, word in re.findall(
            r"(?<![\d.,])(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?) ?([A-Za-z]*)", answer
        )
    )


def _read(answer):
    found = re.findall(r"(?<![\d.,])(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?) ?([A-Za-z]*)", answer)
    return [(float(n.replace(",", "")), w.lower()) for n, w in found]


SCORE_MUTANTS |= {
    "rounded to two places": (
        RO,
        lambda a, v, u: any(round(n, 2) == round(v, 2) and w == u.lower() for n, w in _read(a)),
    ),
    "a trailing s dropped from the gold only": (
        PL,
        lambda a, v, u: any(n == v and w in (u.lower(), u.lower().rstrip("s")) for n, w in _read(a)),
    ),
    "Decimal of the float value": (
        PT,
        lambda a, v, u: any(Decimal(repr(n)) == Decimal(v) and w == u.lower() for n, w in _read(a)),
    ),
}


EXERCISES = {
    "09.success_rate": ((success_rate.key, success_loop), SUCCESS_MUTANTS),
    "09.p95_steps": ((p95_steps.key, p95_exact, lambda s: evaluate.percentile(s, 95)), P95_MUTANTS),
    "09.repeat_rate": ((repeat_rate.key, repeat_by_sets), REPEAT_MUTANTS),
    "09.pass_hat_k": (
        (
            pass_hat_k.key,
            _mean_over_tasks(_product),
            _mean_over_tasks(lambda c, n, k: math.perm(c, k) / math.perm(n, k)),
        ),
        PASS_MUTANTS,
    ),
    "09.score_number": ((score_number.key, score_old_key, score_by_tokens, score_in_decimals), SCORE_MUTANTS),
}
(
    test_right_solutions_pass,
    test_stub_is_not_attempted,
    test_wrong_solution_fails_under_its_rule,
    test_every_rule_has_a_mutant,
    test_each_rules_cases_exist,
) = exercise_tests(EXERCISES, stub)


# ---------------------------------------------------------------- feedback: the fault found, its hint


@pytest.mark.parametrize(
    ("exercise", "name", "says"),
    [
        ("09.success_rate", "step-limit runs counted as successes", "A best effort at the step limit"),
        ("09.success_rate", "only the step limit is not a success", 'not != "step_limit"'),
        ("09.p95_steps", "interpolated between ranks", "interpolates between two ranks"),
        ("09.p95_steps", "round() of the rank", "Round the rank up"),
        ("09.repeat_rate", "inputs compared in lower case", "exactly as given"),
        ("09.pass_hat_k", "pass^k computed as pass@k", "That is pass@k"),
        ("09.pass_hat_k", "a task with exactly k runs dropped", "exactly k runs has an estimate"),
        ("09.score_number", "the unit as a prefix of the word", "the whole word"),
        ("09.score_number", "a plural accepted", "A plural is another word"),
        ("09.score_number", "rounded before comparing", "rounding 237.4"),
    ],
)
def test_the_hint_names_the_fault_found(exercise, name, says) -> None:
    catalogue = EXERCISES[exercise][1]
    assert says in str(result_of(exercise, catalogue[name][1]))


# ---------------------------------------------------------------- the library's versions, as the lesson says


def _summary() -> str:
    cells = nbformat.read("solutions/09_evaluation_and_tracing.ipynb", as_version=4).cells
    return next(c.source for c in cells if c.cell_type == "markdown" and "number_matches" in c.source)


@pytest.mark.parametrize(
    ("answer", "value", "unit"),
    [
        ("It is 0.33 km", 330, "m"),
        ("about 1,083 feet", 330.0984, "m"),
        ("330 metres", 330, "m"),
        ("12 coins", 12, "coin"),
        ("330 mm", 330, "furlongs"),
        ("It is 330", 330, "furlongs"),
        ("330 m", 330, "mm"),
        ("33000 cm", 330, "m"),
    ],
)
def test_number_matches_does_more_than_the_exercise_where_the_summary_says(answer, value, unit) -> None:
    assert evaluate.number_matches(answer, value, unit) and not score_number.key(answer, value, unit)


@pytest.mark.parametrize(
    ("answer", "value", "unit", "same"),
    [
        ("330 mm", 330, "m", False),
        ("330 miles", 330, "m", False),
        ("237.4 m", 237, "m", False),
        ("330", 330, "m", False),
        ("It is 330 M", 330, "m", True),
        ("1237 m", 237, "m", False),
        ("330m.", 330, "m", True),
        ("It is 1,083.5 m", 1083.5, "m", True),
        ("237.0 m", 237, "m", True),
    ],
)
def test_number_matches_agrees_with_the_exercise_where_the_summary_says(answer, value, unit, same) -> None:
    assert evaluate.number_matches(answer, value, unit) is same is score_number.key(answer, value, unit)


def test_number_matches_reads_a_minus_sign_where_the_exercise_has_none() -> None:
    assert not evaluate.number_matches("-330 m", 330, "m") and evaluate.number_matches("-330 m", -330, "m")


def test_the_summary_names_the_differences() -> None:
    text = " ".join(_summary().split())
    for words in ("0.33 km", "metres", "a unit it does not know", "tolerance", "minus sign"):
        assert words in text, words


def test_the_library_versions_pass_the_rate_exercises() -> None:
    assert check("09.p95_steps", lambda steps: evaluate.percentile(steps, 95)).passed
