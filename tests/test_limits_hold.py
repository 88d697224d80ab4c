"""Limits that are accepted are enforced, in both loops and in parallel turns.

- a money cap holds where the calls can be priced, and is refused where they cannot;
- a turn's repeats and every counter are decided on the calling thread, before the
  tool bodies run in parallel: parallel and one-at-a-time give the same refusals;
- one approval convention: only ``True`` approves, every other answer refuses.
"""

from __future__ import annotations

import threading
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import react_course as rc
from react_course.context_cost.cost import Price, cost
from react_course.execute import execute_all
from react_course.guards import Budget, Limits
from react_course.lessons.incidents import RefundDesk
from react_course.record import ToolCall
from react_course.scripted_api import serve
from react_course.scripted_api.models import Call, ChatTurn, ScriptedChatModel
from react_course.stopping import RunState, StopRules, should_stop

openai = pytest.importorskip("openai")

QUESTION = rc.WORKED_EXAMPLES[0]
CHEAP = Price("test-model", "2026-12-01", Decimal("1.00"), Decimal("0.50"), Decimal("4.00"))


def client(url: str):
    return openai.OpenAI(base_url=url, api_key="scripted", max_retries=0, timeout=10)


# ---------------------------------------------------------------------------- money


@pytest.mark.parametrize("cap", [Decimal("0"), Decimal("0.000001")])
def test_a_money_cap_smaller_than_one_prompt_stops_the_text_run_before_any_call(cap) -> None:
    result = rc.run_react(QUESTION, rc.demo_model(), rc.default_tools(), max_cost=cap, price=CHEAP)
    assert result.end_reason == "budget" and result.model_calls == 0
    assert "limit $0.000" in result.answer


def test_a_money_cap_with_no_price_is_refused_in_both_loops() -> None:
    with pytest.raises(ValueError, match="max_cost=0 cannot be enforced"):
        rc.run_react(QUESTION, rc.demo_model(), rc.default_tools(), max_cost=Decimal("0"))
    with serve() as url, pytest.raises(ValueError, match="cannot be enforced"):
        rc.run_native(client(url), rc.default_tools(), QUESTION, model="react-course-demo",
                      max_cost=Decimal("1"))


def test_without_a_cap_a_priced_run_still_counts_its_money() -> None:
    budget = Budget(Limits())
    budget.price_calls(CHEAP)
    budget.after_call(rc.Usage(1_000_000, 0))
    assert budget.cost == Decimal("1.00")


@settings(max_examples=25, deadline=None)
@given(cap_millionths=st.integers(0, 12_000))
def test_the_text_loop_never_sends_a_prompt_that_would_pass_the_cap(cap_millionths: int) -> None:
    """The cap is checked on each prompt before it is sent: only the last reply can pass it."""
    cap = Decimal(cap_millionths) / 1_000_000
    result = rc.run_react(QUESTION, rc.demo_model(), rc.default_tools(), max_cost=cap, price=CHEAP)
    spent = sum((cost(step.usage, CHEAP) for step in result.steps), Decimal(0))
    last_reply = cost(rc.Usage(0, result.steps[-1].usage.output), CHEAP) if result.steps else Decimal(0)
    assert spent - last_reply <= cap
    assert result.end_reason in ("final_answer", "budget")
    if result.end_reason == "budget":
        assert "limit $" in result.answer


def test_the_native_loop_prices_a_model_of_the_price_table() -> None:
    with serve() as url:
        free = rc.run_native(client(url), rc.default_tools(), QUESTION, model="gpt-4o-mini")
        capped = rc.run_native(client(url), rc.default_tools(), QUESTION, model="gpt-4o-mini",
                               max_cost=Decimal("0.0002"))
    assert free.end_reason == "final_answer" and len(free.steps) > 1
    assert capped.end_reason == "budget" and len(capped.steps) < len(free.steps)


# ------------------------------------------------------------------ parallel turns


def _lookups() -> rc.ToolRegistry:
    def lookup(key: str) -> str:
        """Look a key up. Example input: x"""
        return f"value of {key}"

    def other(key: str) -> str:
        """Look a key up elsewhere. Example input: x"""
        return f"other value of {key}"

    return rc.ToolRegistry([lookup, other])


def test_two_identical_calls_in_one_native_turn_run_once() -> None:
    model = ScriptedChatModel([ChatTurn("", (Call("lookup", {"key": "a"}), Call("lookup", {"key": "a"}))),
                               "done"])
    with serve(model) as url:
        result = rc.run_native(client(url), _lookups(), "Look a up.", model="m")
    assert [o.error for o in result.steps[0].observations] == [None, "repeat"]
    assert "twice in this turn" in result.steps[0].observations[1].text


CALLS = st.lists(st.tuples(st.sampled_from(["lookup", "other"]), st.sampled_from(["a", "b", "A ", "c"])),
                 min_size=2, max_size=6)


@settings(max_examples=60, deadline=None)
@given(earlier=st.lists(st.tuples(st.sampled_from(["lookup", "other"]), st.sampled_from(["a", "b"])),
                        max_size=2), turn=CALLS)
def test_a_parallel_turn_refuses_what_one_call_at_a_time_refuses(earlier, turn) -> None:
    registry = _lookups()

    def run(parallel: bool) -> tuple[list[str | None], int]:
        budget = Budget(Limits(max_repeats=100))
        for i, (name, key) in enumerate(earlier):
            execute_all([ToolCall(f"e{i}", name, {"key": key})], registry, budget)
        calls = [ToolCall(f"c{i}", name, {"key": key}) for i, (name, key) in enumerate(turn)]
        if parallel:
            observations = execute_all(calls, registry, budget)
        else:
            observations = [execute_all([c], registry, budget)[0] for c in calls]
        return [o.error for o in observations], budget.refused

    assert run(parallel=True) == run(parallel=False)


def test_the_budget_is_only_touched_on_the_calling_thread() -> None:
    caller, seen = threading.current_thread(), []

    class Watched(Budget):
        def __getattribute__(self, name):
            if name in ("check_repeat", "record_call", "note_observation", "check_tool_errors"):
                seen.append((name, threading.current_thread() is caller))
            return super().__getattribute__(name)

    calls = [ToolCall(f"c{i}", "lookup", {"key": k}) for i, k in enumerate("abca")]
    observations = execute_all(calls, _lookups(), Watched(Limits()))
    assert [o.error for o in observations] == [None, None, None, "repeat"]
    assert seen and all(on_caller for _, on_caller in seen), seen


# ---------------------------------------------------------------------- approval

ANSWERS = [True, None, False, "", "  ", 0, 1, "yes", "approved", [], {}, Decimal("1"), 1.0]


def _refund_text_model() -> rc.ScriptedModel:
    ask = 'Thought: The fee is owed.\nAction: refund\nAction Input: {"order_id": 88213, "amount": 25}'
    return rc.ScriptedModel([ask, "Thought: Done.\nFinal Answer: refunded"])


@pytest.mark.parametrize("answer", ANSWERS, ids=repr)
def test_only_true_approves_a_refund_in_the_text_loop(answer) -> None:
    desk = RefundDesk()
    rc.run_react("Refund the fee on order 88213.", _refund_text_model(), desk.tools(),
                 policy=lambda name, arguments: answer)
    assert desk.paid == ([(88213, 25)] if answer is True else [])


@pytest.mark.parametrize("answer", [True, None, "", 1, "yes"], ids=repr)
def test_only_true_approves_a_refund_in_the_native_loop(answer) -> None:
    desk = RefundDesk()
    model = ScriptedChatModel([ChatTurn.calling("refund", order_id=88213, amount=25), "refunded"])
    with serve(model) as url:
        result = rc.run_native(client(url), desk.tools(), "Refund the fee on order 88213.", model="m",
                               policy=lambda name, arguments: answer)
    assert desk.paid == ([(88213, 25)] if answer is True else [])
    assert (result.steps[0].observations[0].error == "refused") is (answer is not True)


def test_the_policy_sees_the_tool_name_and_the_arguments_without_the_models_flags() -> None:
    asked = []
    desk = RefundDesk()
    ask = ('Thought: t\nAction: refund\nAction Input: {"order_id": 88213, "amount": 25, "approved": true}')
    rc.run_react("Refund order 88213.", rc.ScriptedModel([ask, "Final Answer: x"]), desk.tools(),
                 policy=lambda name, arguments: asked.append((name, arguments)) or "no")
    assert asked == [("refund", {"order_id": 88213, "amount": 25})] and desk.paid == []


def test_a_policy_that_raises_refuses() -> None:
    desk = RefundDesk()

    def broken(name, arguments):
        raise RuntimeError("approval service down")

    result = rc.run_react("Refund order 88213.", _refund_text_model(), desk.tools(), policy=broken)
    assert desk.paid == [] and "approval service down" in result.steps[0].observation


# ---------------------------------------------------------- lesson 05's rules, held


@settings(max_examples=80, deadline=None)
@given(steps=st.integers(0, 14), repeats=st.integers(0, 4), seconds=st.floats(0, 130))
def test_should_stop_and_the_budget_agree_on_lesson_05s_rules(steps, repeats, seconds) -> None:
    rules = StopRules()
    budget = Budget(Limits.from_stop_rules(rules), clock=lambda: seconds)
    budget.started, budget.refused = 0.0, repeats
    reasons = []
    if steps >= budget.limits.max_steps:
        reasons.append("step_limit")  # the loop's for-range ends here
    for check in (budget.check_time, budget.after_step):
        try:
            check()
        except rc.LimitReached as limit:
            reasons.append(limit.end_reason)
    expected = should_stop(RunState(steps=steps, seconds=seconds, repeats=repeats), rules)
    assert (reasons[0] if reasons else None) == expected
