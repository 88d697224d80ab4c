"""The generated comparison: every key holds on every input, verdicts are seeded, failures shrink.

- every exercise has a generated comparison (one that asks for values, a quiz or a
  prediction, over the parts it compares);
- every answer key runs on every generated input of its exercise without raising
  (how long a check takes is measured, not asserted: a loaded machine is slower);
- the same inputs come out on every run, and a difference is shrunk to a small
  input and shown as an ordinary failed case.
"""

from __future__ import annotations

import pytest

from react_course.checks import exercises
from react_course.checks.framework import run_cases
from react_course.checks.generated import COMPARISONS, Comparison, Draw, generate, same_value

ALL = exercises()


def test_every_exercise_has_a_generated_comparison() -> None:
    # every exercise is a spec; one that asks for values (a quiz, 02.predict_calls, 07.what_remains)
    # has one too, over the parts it compares
    assert set(COMPARISONS) == set(ALL)


@pytest.mark.parametrize("exercise_id", sorted(COMPARISONS))
def test_the_key_holds_on_every_generated_input(exercise_id: str) -> None:
    comparison = COMPARISONS[exercise_id]
    for choices, args in generate(comparison):
        try:
            comparison.key(*args)
        except Exception as error:  # the test says which input broke the key
            pytest.fail(f"{exercise_id}'s key raised {error!r} on {comparison.show(args)} "
                        f"(choices {choices})")


@pytest.mark.parametrize("exercise_id", sorted(COMPARISONS))
def test_the_same_inputs_on_every_run(exercise_id: str) -> None:
    comparison = COMPARISONS[exercise_id]
    first, again = generate(comparison), generate(comparison)
    assert [choices for choices, _ in first] == [choices for choices, _ in again]
    assert len(first) == comparison.count


def test_a_replay_rebuilds_the_input_and_runs_out_on_zeros() -> None:
    draw = Draw(replay=[1, 5])  # 1: the high edge; 5 is past range(3), so the largest choice
    assert (draw.integer(0, 9), draw.below(3), draw.pick("xyz")) == (9, 2, "x")
    assert draw.choices == [1, 2, 0]


def _sorted_copy(numbers: list[int]) -> list[int]:
    return sorted(numbers)


def _sorts_only_short_lists(numbers: list[int]) -> list[int]:
    return sorted(numbers) if len(numbers) < 3 else list(numbers)


SORTING = Comparison("99.sorting", _sorted_copy, lambda d: (d.many(lambda e: e.integer(0, 50), 9),),
                     lambda args, expected, got: same_value(expected, got),
                     lambda args: f"sort({args[0]!r})", hint="sort the whole list", count=200)


def check_sorting(sort):
    """Not registered: a registered exercise would need a statement in a notebook."""
    return run_cases("99.sorting", "sort a list", sort, lambda f: [SORTING.case(f)])


def test_a_difference_is_shrunk_to_a_small_input_and_shown_as_a_case() -> None:
    result = check_sorting(_sorts_only_short_lists)
    assert result.status == "failed"
    case = result.cases[0]
    # A small list that the three-item bug shows on: three items, out of order, edge values.
    assert (case.given, case.expected, case.got) == ("sort([50, 0, 0])", "[0, 0, 50]", "[50, 0, 0]")
    assert "of 200 differs" in case.message and case.hint == "sort the whole list"


def test_a_right_function_passes_and_an_exception_is_a_difference() -> None:
    assert check_sorting(_sorted_copy).status == "passed"
    crashed = check_sorting(lambda numbers: numbers[5] and sorted(numbers)).cases[0]
    assert crashed.got.startswith("raised IndexError") and crashed.given == "sort([])"


def test_types_count_all_the_way_down() -> None:
    assert same_value({"a": [1, "2"]}, {"a": [1, "2"]})
    assert not same_value({"amount": 25}, {"amount": "25"})
    assert not same_value([1.0], [1]) and not same_value(True, 1)
