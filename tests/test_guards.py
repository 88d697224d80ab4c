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


# ------------------------------------------------------------- properties of whole runs

from hypothesis import HealthCheck, settings  # noqa: E402

import react_course as rc  # noqa: E402
from react_course.errors import ModelError  # noqa: E402
from react_course.stopping import people_tools  # noqa: E402

ACTIONS = [
    "Thought: t\nAction: price\nAction Input: pen",
    "Thought: t\nAction: price\nAction Input: pens",
    "Thought: t\nAction: price\nAction Input: red pen",
    "Thought: t\nAction: calculate\nAction Input: 2 * 3",
    "Thought: t\nAction: calculate\nAction Input: 2 * 4",
    "Thought: t\nAction: broken\nAction Input: x",
    "Thought: t\nAction: no_such_tool\nAction Input: x",
    "Thought: t\nAction: hand_over\nAction Input: I am stuck",
    "Final Answer: 2",
    "I think the answer is two.",
    "",
    ModelError("HTTP 503: overloaded", status=503),
    ModelError("HTTP 404: no such model", status=404),
    TimeoutError("no reply"),
]


class Behaviour:
    """A scripted model that plays a drawn list of replies and failures, then repeats the last."""

    def __init__(self, plan):
        self.plan, self.calls = plan, 0

    def __call__(self, prompt, stop=None):
        item = self.plan[min(self.calls, len(self.plan) - 1)]
        self.calls += 1
        if isinstance(item, BaseException):
            raise item
        return item


def broken(text: str) -> str:
    """A tool that always fails. Example input: x"""
    raise RuntimeError("down")


def tools():
    return rc.ToolRegistry([*rc.shop_tools(), broken, *people_tools()])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(plan=st.lists(st.sampled_from(ACTIONS), min_size=1, max_size=12),
       max_steps=st.integers(0, 6), max_tokens=st.integers(200, 6_000),
       max_repeats=st.integers(0, 3), max_model_errors=st.integers(1, 4), max_tool_errors=st.integers(1, 3))
def test_no_run_exceeds_a_limit_and_each_ends_once(plan, max_steps, max_tokens, max_repeats,
                                                   max_model_errors, max_tool_errors) -> None:
    model = Behaviour(plan)
    budget_free = rc.Limits().max_seconds
    result = rc.run_react("What does a pen cost?", model, tools(), max_steps=max_steps,
                          max_tokens=max_tokens, max_repeats=max_repeats, max_seconds=budget_free,
                          max_model_errors=max_model_errors, max_tool_errors=max_tool_errors)
    assert result.end_reason in END_REASONS
    assert isinstance(result.answer, str) and result.answer.strip()
    assert model.calls == result.model_calls <= max_steps + 1
    sent = sum(step.usage.input for step in result.steps)
    assert sent <= max_tokens
    failures, worst = 0, 0
    for step in result.steps:
        failures = failures + 1 if step.model_failed else 0
        worst = max(worst, failures)
    assert worst <= max_model_errors
    refused = sum(o.error in ("repeat", "refused") for s in result.steps for o in s.observations)
    assert refused <= max_repeats + 1
    calls_to_broken = sum(c.name == "broken" for s in result.steps for c in s.calls)
    ran_broken = sum(o.error == "tool_error" for s in result.steps for o in s.observations)
    assert ran_broken <= max_tool_errors and calls_to_broken >= ran_broken


def test_a_keyboard_interrupt_ends_the_run_and_keeps_the_trace() -> None:
    calls = []

    def search(query: str) -> str:
        """Search. Example input: x"""
        calls.append(query)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return f"page {len(calls)}"

    model = rc.ReactiveModel(
        respond=lambda pad: f"Thought: t\nAction: search\nAction Input: q{len(pad.steps)}")
    result = rc.run_react("q?", model, [search], max_steps=8)
    assert result.end_reason == "interrupted" and len(result.steps) == 3
    assert "the run ended during this call" in result.steps[-1].observation
    assert "page 2" in result.answer  # the summary keeps what was done


def test_near_repeats_in_a_run_get_one_nudge_then_end() -> None:
    def search_flights(query: str) -> str:
        """Search flights. Example input: Delhi Paris 3 May"""
        return "No direct flights on that date."

    model = rc.ReactiveModel(respond=lambda pad: (
        f"Thought: t\nAction: search_flights\nAction Input: Delhi Paris {len(pad.steps) + 3} May"))
    result = rc.run_react("Find a flight.", model, [search_flights], max_steps=12)
    assert result.end_reason == "repeating" and result.model_calls == 3
    nudges = [o for s in result.steps for o in s.observations if "Note from the program" in o.text]
    assert len(nudges) == 1


def test_hand_over_tool_ends_the_run() -> None:
    model = rc.ScriptedModel(["Thought: t\nAction: hand_over\nAction Input: needs a manager"])
    result = rc.run_react("Refund 480?", model, people_tools(), max_steps=4)
    assert result.end_reason == "hand_over" and "needs a manager" in result.detail


def test_ask_user_answers_or_hands_over() -> None:
    model = rc.ScriptedModel(["Thought: t\nAction: ask_user\nAction Input: Which order?",
                              "Thought: t\nFinal Answer: order 88213"])
    result = rc.run_react("Refund my order", model, people_tools(lambda q: "88213"), max_steps=4)
    assert result.end_reason == "final_answer" and "The user replied: 88213" in result.steps[0].observation
    model = rc.ScriptedModel(["Thought: t\nAction: ask_user\nAction Input: Which order?"])
    result = rc.run_react("Refund my order", model, people_tools(), max_steps=4)
    assert result.end_reason == "hand_over" and "Which order?" in result.detail


def test_a_failing_tool_called_again_is_named_not_called_a_repeat() -> None:
    def get_fx_rate(code: str) -> str:
        """Return what one Indian rupee is worth in another currency. Example input: EUR"""
        raise ConnectionError("the rates service is down")

    codes = iter(["EUR", "eur", "Euro", "EURO", "€", "EUR."])  # every input differs
    model = rc.ReactiveModel(respond=lambda pad: f"Thought: again\nAction: get_fx_rate\n"
                                                 f"Action Input: {next(codes)}")
    result = rc.run_react("What is 100 INR in euros?", model, [get_fx_rate], max_steps=6,
                          max_tool_errors=2)
    assert result.end_reason == "repeating"
    assert result.detail == ("get_fx_rate failed 2 times and was refused, and the model called it "
                             "again 3 times")
    assert "repeated a call" not in result.detail


def test_the_hand_over_summary_keeps_the_programs_nudge_out_of_done_so_far() -> None:
    def search_flights(query: str) -> str:
        """Search flights between two cities on a date. Example input: Delhi Paris 3 May"""
        return "No direct flights from Delhi to Paris on that date."

    model = rc.ReactiveModel(respond=lambda pad: "Thought: next day\nAction: search_flights\n"
                                                 f"Action Input: Delhi Paris {len(pad.steps) + 3} May")
    result = rc.run_react("Find a direct flight from Delhi to Paris in early May.", model,
                          [search_flights], max_steps=12)
    assert result.end_reason == "repeating"
    assert "Note from the program" in result.steps[1].observation  # the model was nudged
    assert "Note from the program" not in result.answer
    assert result.answer.count("-> No direct flights from Delhi to Paris on that date.") == 3
