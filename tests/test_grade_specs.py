"""The comparison from the spec, in the grader's process (``trusted_spec.py``), without a kernel.

The kernel's side is ``kernel_answers`` called here directly, its answers sent through
JSON as the grading kernel prints them; the rounds are ``grade_ask.Asker``'s. Judged in
the grader, a solution must get exactly what ``check(..., hidden=True)`` gives it in its
own process: every case's status, points, shrunk input and message, for the right
solutions and every wrong solution of lessons 03 and 07 (run_calls' wrong solutions race
threads, so only its right ones). The kernel-level tests are ``test_grade_trusted.py``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from test_checks_lesson03 import EXERCISES as LESSON03
from test_checks_lesson07 import EXERCISES as LESSON07

from react_course.checks import check, exercises
from react_course.checks.spec import SPECS
from react_course.course import kernel_answers, registry, trusted_spec

exercises()  # every lesson's specs registered


def kernel_reply(exercise_id: str, function: Callable[..., Any], keys: list[str]) -> dict:
    """What the grading kernel prints for one exercise, read back from JSON."""
    found = kernel_answers._answer_all(exercise_id, function, keys, 60.0)
    return json.loads(json.dumps(found))


def judged_in_the_grader(exercise_id: str, function: Callable[..., Any],
                         reply: Callable[[dict], dict] = lambda found: found):
    """The rounds of asking, as ``Asker`` runs them; ``reply`` may change what the kernel says."""
    keys, answers, asked, rounds = list(trusted_spec.inputs(exercise_id)), {}, set(), 0
    while keys:
        rounds += 1
        asked.update(keys)
        answers.update(reply(kernel_reply(exercise_id, function, keys)))
        result, keys = trusted_spec.replay(exercise_id, answers, asked, last=rounds >= trusted_spec.ROUNDS)
    return result, rounds


def _seen(result) -> list[tuple]:
    return [(c.name, c.status, c.points, c.given, c.got, c.message, c.rule) for c in result.cases]


def _solutions(catalogue: dict, with_mutants: set[str]) -> list[tuple[str, str, Any]]:
    found = []
    for exercise_id, (right, mutants) in catalogue.items():
        for number, solution in enumerate(right if isinstance(right, tuple) else (right,)):
            found.append((exercise_id, f"right {number}", solution))
        if exercise_id in with_mutants:
            found += [(exercise_id, name, wrong) for name, (_, wrong) in mutants.items()]
    return found


SOLUTIONS = (_solutions(LESSON03, set(LESSON03))
             + _solutions(LESSON07, {"07.native_loop", "07.next_input"}))


@pytest.mark.parametrize("exercise_id", sorted(SPECS))
def test_every_key_scores_full_marks_in_one_round(exercise_id: str) -> None:
    result, rounds = judged_in_the_grader(exercise_id, SPECS[exercise_id].key)
    assert result.points == result.max_points == registry.maximum(exercise_id) and rounds == 1


def test_every_exercise_is_compared_in_the_grader_from_its_spec() -> None:
    """No exercise is left to check in the kernel: each is its spec, with inputs to ask."""
    assert set(exercises()) == set(SPECS)
    assert all(trusted_spec.spec_of(e) is SPECS[e] and trusted_spec.inputs(e) for e in SPECS)


def test_an_exercise_not_registered_by_its_spec_is_the_courses_error(monkeypatch) -> None:
    """The grader has no other way to compare one: it says so before any submission runs."""
    import react_course.checks as checks

    made = checks.Exercise("03.by_hand", "registered without a spec", lambda obj: [])
    monkeypatch.setitem(checks._REGISTRY, made.id, made)
    with pytest.raises(LookupError, match="not registered by its spec"):
        trusted_spec.inputs(made.id)


@pytest.mark.parametrize(("exercise_id", "name", "solution"), SOLUTIONS,
                         ids=[f"{e}:{n}" for e, n, _ in SOLUTIONS])
def test_the_grader_judges_as_the_check_does(exercise_id: str, name: str, solution: Any) -> None:
    """The same cases, statuses, points, shrunk inputs and messages as the check in one process."""
    result, _ = judged_in_the_grader(exercise_id, solution)
    assert _seen(result) == _seen(check(exercise_id, solution, hidden=True))


class Yes(str):
    """A text that says it equals everything."""

    def __eq__(self, other: object) -> bool:
        return True

    __hash__ = str.__hash__


def test_a_value_whose_eq_always_agrees_is_not_plain_data() -> None:
    result, _ = judged_in_the_grader("03.cut_at_stop", lambda text, stops: Yes(text))
    assert result.points == 0
    assert all("not plain data" in c.got for c in result.cases if c.got)


def test_a_behaviour_forged_with_an_always_equal_answer_earns_nothing() -> None:
    """07.native_loop's student returns a ``Yes``: its observation is not plain data."""
    result, _ = judged_in_the_grader("07.native_loop", lambda *args, **kwargs: Yes("Done."))
    assert result.points == 0


def test_an_asked_input_left_unanswered_is_a_wrong_answer_never_a_pass() -> None:
    """A kernel that leaves out every answer its function gets wrong earns no more than the truth."""
    def wrong(text: str, stops: Any) -> str:
        return text

    def only_the_right_ones(found: dict) -> dict:
        right = kernel_reply("03.cut_at_stop", SPECS["03.cut_at_stop"].key, list(found))
        return {k: v for k, v in found.items() if v == right[k]}

    hiding, _ = judged_in_the_grader("03.cut_at_stop", wrong, only_the_right_ones)
    honest, _ = judged_in_the_grader("03.cut_at_stop", wrong)
    assert hiding.points <= honest.points < honest.max_points


@pytest.mark.parametrize("forged", [
    {"value": {"tuple": [1], "dict": {}}}, {"value": {"record": "os:system"}}, {"value": {"decimal": "x"}},
    "passed", 23, None, {"raised": "not a pair"}, {}])
def test_an_answer_the_grader_cannot_read_is_a_wrong_answer(forged: Any) -> None:
    result, _ = judged_in_the_grader("03.cut_at_stop", SPECS["03.cut_at_stop"].key,
                                     lambda found: {k: forged for k in found})
    assert result.points == 0


def test_a_stub_is_not_attempted() -> None:
    def stub(*args: Any) -> Any:
        raise NotImplementedError("write cut_at_stop")

    result, rounds = judged_in_the_grader("03.cut_at_stop", stub)
    assert result.status == "not attempted" and result.points == 0 and rounds == 1
