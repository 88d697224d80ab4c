"""pass^k and pass@k against their published definitions (every k), and intervals clustered by task."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from react_course.evaluate import bootstrap, compare, pass_at_k, pass_hat_k, seed_interval, tasks_needed
from react_course.evaluate.compare import t95
from react_course.evaluate.metrics import EvalRun, pass_at_k_of, pass_hat_k_of
from react_course.evaluate.tasks import Task
from react_course.record import RunResult


def runs_of(table: dict[str, list[bool]]) -> list[EvalRun]:
    result = RunResult("q?", "x", "final_answer", [])
    return [EvalRun(Task(tid, "f", "train", "text", "q?", "x"), r, "c", result, ok)
            for tid, outcomes in table.items() for r, ok in enumerate(outcomes)]


def by_subsets(outcomes: list[bool], k: int, which) -> float:
    """The definition itself: over every k-subset of the n runs, the share where ``which`` holds."""
    subsets = list(combinations(outcomes, k))
    return sum(which(s) for s in subsets) / len(subsets)


def tables(seed: int) -> list[dict[str, list[bool]]]:
    rng = random.Random(seed)
    return [{f"t{i}": [rng.random() < rng.random() for _ in range(n)] for i in range(rng.randint(1, 6))}
            for n in (rng.randint(1, 8) for _ in range(40))]


@pytest.mark.parametrize("seed", range(5))
def test_both_estimators_match_their_formulas_for_every_k(seed: int) -> None:
    for table in tables(seed):
        n = len(next(iter(table.values())))
        runs = runs_of(table)
        for k in range(1, n + 1):
            hat = sum(by_subsets(o, k, all) for o in table.values()) / len(table)
            at = sum(by_subsets(o, k, any) for o in table.values()) / len(table)
            assert pass_hat_k(runs, k) == pytest.approx(hat)
            assert pass_at_k(runs, k) == pytest.approx(at)
            for o in table.values():  # and the closed forms, term by term
                c = sum(o)
                assert pass_hat_k_of(c, n, k) == pytest.approx(by_subsets(o, k, all))
                assert pass_at_k_of(c, n, k) == pytest.approx(by_subsets(o, k, any))


def test_pass_hat_1_is_pass_at_1_is_the_success_rate() -> None:
    for table in tables(7):
        runs = runs_of(table)
        success = sum(r.success for r in runs) / len(runs)
        assert pass_hat_k(runs, 1) == pytest.approx(pass_at_k(runs, 1)) == pytest.approx(success)


def test_the_first_k_repeats_are_not_the_estimator() -> None:
    # a task that failed only on its first run: "the first 2 all succeed" says 0, the estimator 1/3
    assert pass_hat_k(runs_of({"a": [False, True, True]}), 2) == pytest.approx(1 / 3)
    assert pass_at_k(runs_of({"a": [True, False, False]}), 2) == pytest.approx(2 / 3)


def test_k_beyond_the_runs_is_refused_or_left_out() -> None:
    with pytest.raises(ValueError, match="k=4"):
        pass_hat_k_of(3, 3, 4)
    with pytest.raises(ValueError, match="successes"):
        pass_at_k_of(4, 3, 1)
    assert pass_hat_k(runs_of({"a": [True], "b": [True, False]}), 2) == 0.0  # only b has two runs


# ------------------------------------------------------------------- intervals over tasks


def two(table_a: dict[str, list[bool]], table_b: dict[str, list[bool]]):
    a, b = runs_of(table_a), runs_of(table_b)
    for r in b:
        r.config = "b"
    return a, b


def test_when_tasks_not_seeds_carry_the_difference_only_the_task_interval_sees_it() -> None:
    # 20 tasks, 3 repeats; B wins 2 tasks on every repeat, and the rest are the same on every repeat
    base = {f"t{i:02}": [i % 3 == 0] * 3 for i in range(20)}
    better = {**base, "t01": [True] * 3, "t02": [True] * 3}
    a, b = two(base, better)
    seeds = seed_interval(a, b)
    assert seeds == pytest.approx((0.1, 0.1))  # zero width: every seed sees the same +2 tasks
    diff = compare(a, b)
    assert diff.difference == pytest.approx(0.1) and diff.tasks == 20 and diff.repeats == 3
    assert diff.low < 0 < diff.high and not diff.exceeds_noise  # 2 tasks of 20 could be luck of the draw
    assert diff.repeat_se == 0.0 and diff.task_se == pytest.approx(diff.se)
    low, high = bootstrap(a, b, draws=400)
    assert low < diff.difference < high and high - low > 0.1


def test_repeat_noise_shows_as_its_own_part_of_the_standard_error() -> None:
    rng = random.Random(3)
    a_table = {f"t{i}": [rng.random() < 0.5 for _ in range(4)] for i in range(30)}
    b_table = {t: [rng.random() < 0.6 for _ in range(4)] for t in a_table}
    diff = compare(*two(a_table, b_table))
    assert 0 < diff.repeat_se <= diff.se
    assert diff.high - diff.low == pytest.approx(2 * diff.se * t95(29))  # t over the 30 tasks
    assert "95% interval over tasks" in str(diff)


def test_comparisons_need_shared_tasks_and_say_how_many_tasks_a_width_needs() -> None:
    with pytest.raises(ValueError, match="share no"):
        compare(*two({"a": [True]}, {"b": [True]}))
    one = compare(*two({"a": [True, False]}, {"a": [True, True]}))
    assert one.low is None and "one task" in str(one)
    assert tasks_needed(0.48, 0.25) == 15
