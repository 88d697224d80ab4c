"""Lesson 05's guards: the stopping decision, step limits per task, near-repeats and cycles."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from react_course.errors import LimitReached
from react_course.guards import END_REASONS
from react_course.stopping import (
    ENDINGS,
    TASK_STEPS,
    Call,
    RepeatWatch,
    RunState,
    StopRules,
    call_distance,
    find_repeat,
    should_stop,
    steps_for,
)


def test_every_end_reason_has_a_row_in_the_table() -> None:
    assert set(ENDINGS) == set(END_REASONS)
    assert ENDINGS["final_answer"][0] == "the model"
    decided_by_model = [reason for reason, (who, _) in ENDINGS.items() if who.startswith("the model")]
    assert decided_by_model == ["final_answer", "hand_over"]


def test_step_table_by_name() -> None:
    assert TASK_STEPS == {"simple_lookup": 3, "research": 8, "complex": 12}
    assert steps_for("Simple lookup") == 3 and steps_for("complex") == 12
    with pytest.raises(KeyError, match="known: simple_lookup, research, complex"):
        steps_for("chit-chat")


def test_source_thresholds() -> None:
    rules = StopRules()
    assert (rules.max_steps, rules.max_cost, rules.max_seconds, rules.max_repeats) == (
        12, Decimal("20"), 120.0, 3)


@pytest.mark.parametrize(("state", "reason"), [
    (RunState(steps=12), "step_limit"),
    (RunState(cost=Decimal("20")), "budget"),
    (RunState(seconds=120), "time_limit"),
    (RunState(repeats=3), "repeating"),
    (RunState(steps=12, answered=True), "final_answer"),
    (RunState(steps=12, answered=True, interrupted=True), "interrupted"),
    (RunState(handed_over=True), "hand_over"),
    (RunState(steps=11, cost=Decimal("19.9"), seconds=119, repeats=2), None),
])
def test_should_stop(state: RunState, reason: str | None) -> None:
    assert should_stop(state) == reason


@given(steps=st.integers(0, 40), cost=st.decimals(0, 50, places=2), seconds=st.floats(0, 300),
       repeats=st.integers(0, 6), flags=st.lists(st.booleans(), min_size=3, max_size=3))
def test_should_stop_is_one_reason_or_none_and_never_lets_a_limit_pass(steps, cost, seconds,
                                                                       repeats, flags) -> None:
    state = RunState(steps, cost, seconds, repeats, *flags)
    reason = should_stop(state)
    assert reason is None or reason in END_REASONS
    over = steps >= 12 or cost >= 20 or seconds >= 120 or repeats >= 3 or any(flags)
    assert (reason is not None) == over


def test_call_distance_counts_words() -> None:
    a = Call("search_flights", "Delhi to Paris on 3 May")
    assert call_distance(a, a._replace(input="delhi to Paris on 3 May")) == 0
    assert call_distance(a, a._replace(input="Delhi to Paris on 4 May")) == 1
    assert call_distance(a, a._replace(input="Delhi to Paris 4 May")) == 2
    assert call_distance(a, a._replace(tool="search")) is None


def test_near_repeat_needs_the_same_result() -> None:
    same = [Call("s", "a b c", "none"), Call("s", "a b d", "none")]
    assert find_repeat(same) == "near_repeat"
    assert find_repeat([same[0], same[1]._replace(observation="found")]) is None


def test_alternating() -> None:
    a, b = Call("price", "pen", "2"), Call("calculator", "2 * 3", "6")
    assert find_repeat([a, b, a._replace(observation="r"), b._replace(observation="r")]) == "alternating"


def test_watch_nudges_once_then_ends() -> None:
    watch = RepeatWatch()
    assert watch.see("search_flights", "Delhi Paris May", "No flights.") is None
    nudge = watch.see("search_flights", "Delhi Paris in May", "No flights.")
    assert nudge and "nearly the same input" in nudge and "hand over" in nudge
    assert watch.see("search_flights", "Mumbai London June", "3 flights.") is None
    watch.check()  # one nudge does not end the run
    assert watch.see("search_flights", "Mumbai London in June", "3 flights.") is None
    with pytest.raises(LimitReached) as ended:
        watch.check()
    assert ended.value.end_reason == "repeating" and "after a nudge" in ended.value.detail
