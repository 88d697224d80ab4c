"""The run record, the budget and the tool-call door: the parts both loops share."""

from __future__ import annotations

import inspect
import threading
import time
from decimal import Decimal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import react_course.web.browser as browser_module
from react_course import (
    END_REASONS,
    WORKED_EXAMPLES,
    Budget,
    ContextWindowFull,
    Limits,
    ModelConfigError,
    Observation,
    RunResult,
    ScriptedModel,
    Step,
    ToolCall,
    ToolRegistry,
    Usage,
    count_tokens,
    default_tools,
    demo_model,
    run_react,
    shop_tools,
    side_effect,
    support_tools,
)
from react_course.errors import LimitReached
from react_course.execute import execute, execute_all

ACTION = "Thought: t\nAction: {tool}\nAction Input: {arg}"


# ----------------------------------------------------------------------------- the record


@pytest.mark.parametrize("question", WORKED_EXAMPLES)
def test_a_text_run_survives_json_unchanged(question: str) -> None:
    result = run_react(question, demo_model(), default_tools())
    again = RunResult.from_json(result.to_json())
    assert again == result
    assert again.transcript == result.transcript and again.to_messages() == result.to_messages()
    assert again.steps[0].action == result.steps[0].action


def test_failed_runs_survive_json_too() -> None:
    model = ScriptedModel(["gibberish", ACTION.format(tool="nope", arg="x")])
    result = run_react("q", model, default_tools(), max_steps=2)
    again = RunResult.from_json(result.to_json())
    assert again == result and again.end_reason == result.end_reason
    assert [s.error for s in again.steps] == ["parse_error", "unknown_tool", "model_error"]


def native_run() -> RunResult:
    calls = [ToolCall("call_a", "get_order", {"order_id": 88213}),
             ToolCall("call_b", "get_policy", {"topic": "late delivery"})]
    observations = [Observation("call_a", "Order 88213: status delivered."),
                    Observation("call_b", "No policy on that.", "empty_result")]
    first = Step(1, format="native", text="", calls=calls, observations=observations,
                 usage=Usage(300, 40, cached_input=128, reasoning=12))
    last = Step(2, format="native", text="Refund 25.", answer="Refund 25.", usage=Usage(420, 10))
    return RunResult("What should order 88213 be refunded?", "Refund 25.", "final_answer",
                     [first, last], format="native")


def test_a_native_run_survives_json_unchanged() -> None:
    result = native_run()
    assert RunResult.from_json(result.to_json()) == result
    assert result.usage == Usage(720, 50, cached_input=128, reasoning=12)


def test_native_messages_link_each_result_to_its_call() -> None:
    messages = native_run().to_messages()
    assistant = messages[1]
    assert [c["id"] for c in assistant["tool_calls"]] == ["call_a", "call_b"]
    assert [m["tool_call_id"] for m in messages if m["role"] == "tool"] == ["call_a", "call_b"]
    assert messages[-1] == {"role": "assistant", "content": "Refund 25."}


def test_text_messages_send_observations_as_user_turns() -> None:
    result = run_react(WORKED_EXAMPLES[4], demo_model(), shop_tools())
    roles = [m["role"] for m in result.to_messages()]
    assert roles[:3] == ["user", "assistant", "user"] and "tool" not in roles


def test_usage_adds_and_keeps_its_parts() -> None:
    assert Usage(1, 2, 1, 1) + Usage(3, 4) == Usage(4, 6, 1, 1)
    assert sum([Usage(1, 2), Usage(3, 4)]) == Usage(4, 6)
    with pytest.raises(TypeError):
        Usage(1, 2) + 3
    with pytest.raises(AttributeError):
        Usage().input = 5  # frozen


# ----------------------------------------------------------------------------- the budget


def test_an_unknown_limit_suggests_the_right_name() -> None:
    with pytest.raises(TypeError, match="did you mean 'tool_timeout'"):
        run_react("q", demo_model(), default_tools(), timeout=0.001)
    with pytest.raises(TypeError, match="did you mean 'max_repeats'"):
        Limits.from_options(max_repeat=1)


def test_every_limit_is_finite_by_default() -> None:
    limits = Limits()
    assert limits.max_steps and limits.max_tokens and limits.max_seconds and limits.tool_timeout
    assert limits.max_repeats >= 1 and limits.max_model_errors >= 1


def test_budget_counts_and_ends_runs() -> None:
    now = [0.0]
    budget = Budget(Limits(max_tokens=100, max_seconds=10), clock=lambda: now[0])
    budget.before_call(60)
    budget.after_call(Usage(60, 10))
    with pytest.raises(LimitReached) as over:
        budget.before_call(40)
    assert over.value.end_reason == "budget"
    now[0] = 11
    with pytest.raises(LimitReached) as late:
        budget.check_time()
    assert late.value.end_reason == "time_limit" and budget.remaining_seconds() == 0


def test_a_money_limit_ends_the_run_when_the_cost_is_known() -> None:
    budget = Budget(Limits(max_cost=Decimal("0.01")))
    budget.before_call(10)  # cost unknown: no money check
    budget.cost = Decimal("0.02")
    with pytest.raises(LimitReached, match="cost"):
        budget.before_call(10)


class FailsAfter:
    """Answers with an action, then fails with ``error`` on every later call."""

    def __init__(self, error: Exception) -> None:
        self.error, self.calls = error, 0

    def __call__(self, prompt: str, stop: object = None) -> str:
        self.calls += 1
        if self.calls > 1:
            raise self.error
        return ACTION.format(tool="search", arg="Eiffel Tower")


def test_a_config_error_before_any_success_is_raised() -> None:
    def refuses(prompt: str, stop: object = None) -> str:
        raise ModelConfigError("the key was refused")

    with pytest.raises(ModelConfigError):
        run_react("q", refuses, default_tools())


@pytest.mark.parametrize("error", [ModelConfigError("400: bad request"),
                                   ContextWindowFull("the prompt no longer fits")])
def test_a_hopeless_failure_mid_run_is_recorded_and_ends_the_run(error: Exception) -> None:
    model = FailsAfter(error)
    result = run_react("How tall is the Eiffel Tower?", model, default_tools())
    assert model.calls == 2 and result.end_reason == "error"
    assert result.steps[-1].error == "model_error" and str(error) in result.answer
    assert "330 m" in result.steps[0].observation  # the work before the failure is kept


def test_retryable_failures_are_retried_until_the_cap() -> None:
    model = FailsAfter(TimeoutError("slow"))
    result = run_react("q", model, default_tools(), max_model_errors=3)
    assert result.end_reason == "error" and model.calls == 4


def test_the_run_time_limit_applies_to_the_call_in_flight() -> None:
    released = threading.Event()  # let go once the run is over: no thread left waiting a minute

    def stuck(prompt: str, stop: object = None) -> str:
        released.wait(60)  # a server that never answers
        return "Final Answer: too late"

    count_tokens("load the vocabulary before the clock starts")
    began = time.monotonic()
    try:
        result = run_react("q", stuck, default_tools(), max_seconds=0.3)
    finally:
        released.set()
    assert result.end_reason == "time_limit" and time.monotonic() - began < 30  # not the full minute
    assert result.steps[-1].error == "model_error" and "no reply" in result.steps[-1].observation


# ----------------------------------------------------------------------------- the door


def test_every_tool_call_goes_through_execute() -> None:
    callers: list[str] = []

    def record_caller() -> None:
        frames = [f.function for f in inspect.stack()]
        callers.append("execute" if "execute" in frames else ",".join(frames[:6]))

    def price(item: str) -> str:
        """Price of one item. Example input: pen"""
        record_caller()
        return "2"

    def calculate(expression: str) -> str:
        """Arithmetic. Example input: 2 + 2"""
        record_caller()
        return "4"

    replies = [ACTION.format(tool="price", arg="pen"), ACTION.format(tool="calculate", arg="2+2"),
               ACTION.format(tool="price", arg="notebook"), "Final Answer: 4"]
    # No time limits, so each tool runs in the caller's thread and its stack shows who called it.
    run_react("q", ScriptedModel(replies), ToolRegistry([price, calculate]),
              tool_timeout=None, max_seconds=None)
    ToolRegistry([price]).run("price", "pen")
    assert callers == ["execute"] * 4


def test_native_arguments_are_validated_against_the_schema() -> None:
    registry, budget = support_tools(), Budget()
    good = execute(ToolCall("c1", "get_order", {"order_id": 88213}), registry, budget)
    assert good.error is None and "88213" in good.text
    for arguments in ({"order_id": "eighty"}, {"id": 88213}, "not json", {"order_id": 1, "extra": 2}):
        bad = execute(ToolCall("c2", "get_order", arguments), registry, budget)
        assert bad.error == "bad_input" and bad.call_id == "c2", arguments


def test_schemas_are_generated_from_type_hints() -> None:
    schema = support_tools()["get_order"].json_schema()
    assert schema["function"]["name"] == "get_order"
    assert schema["function"]["parameters"]["properties"]["order_id"]["type"] == "integer"
    assert schema["function"]["parameters"]["required"] == ["order_id"]


def refund_registry(log: list) -> ToolRegistry:
    @side_effect
    def refund(order_id: int) -> str:
        """Refund an order's delivery fee. Example input: 88213"""
        log.append(order_id)
        return f"Refunded order {order_id}."

    return ToolRegistry([refund])


def test_a_side_effect_needs_a_policy_that_says_yes() -> None:
    log: list = []
    registry = refund_registry(log)
    call = ToolCall("c1", "refund", {"order_id": 88213})
    assert execute(call, registry, Budget()).error == "refused" and log == []
    assert execute(call, registry, Budget(), policy=lambda name, args: "over the limit").error == "refused"
    assert execute(call, registry, Budget(), policy=lambda name, args: True).error is None and log == [88213]


def test_read_only_calls_run_in_parallel_and_side_effects_in_order() -> None:
    active, most = [0], [0]
    lock = threading.Lock()

    def slow(query: str) -> str:
        """Slow lookup. Example input: x"""
        with lock:
            active[0] += 1
            most[0] = max(most[0], active[0])
        time.sleep(0.2)
        with lock:
            active[0] -= 1
        return query.upper()

    calls = [ToolCall(f"c{i}", "slow", f"q{i}") for i in range(4)]
    observations = execute_all(calls, ToolRegistry([slow]), Budget())
    assert [o.call_id for o in observations] == ["c0", "c1", "c2", "c3"] and most[0] > 1
    log: list = []
    registry = refund_registry(log)
    calls = [ToolCall(f"c{i}", "refund", {"order_id": i}) for i in range(3)]
    execute_all(calls, registry, Budget(), policy=lambda name, args: True)
    assert log == [0, 1, 2]


def test_time_limits_work_where_no_thread_can_start(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(browser_module, "_THREADS", [False])

    def spins(n: int) -> str:
        """Loops for ever. Example input: 1"""
        while True:
            n += 1

    began = time.monotonic()
    observation = execute(ToolCall("c", "spins", "1"), ToolRegistry([spins]), timeout=0.3)
    assert observation.error == "tool_timeout" and time.monotonic() - began < 30  # it did stop
    result = run_react(WORKED_EXAMPLES[4], demo_model(), shop_tools())
    assert result.end_reason == "final_answer"


# ----------------------------------------------------------------------------- properties

behaviours = st.one_of(
    st.text(max_size=80),
    st.sampled_from(["price", "calculate", "nope", "refund"]).flatmap(
        lambda tool: st.sampled_from(["pen", "2+2", "88213", "", "{}"]).map(
            lambda arg: ACTION.format(tool=tool, arg=arg))),
    st.just("Final Answer: 16"),
    st.just("RAISE"),
)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(behaviours, min_size=1, max_size=12), st.integers(0, 8), st.integers(1, 3),
       st.integers(1, 3), st.sampled_from([None, 400, 2_000]))
def test_every_limit_holds_and_every_run_has_one_end_reason(
        script: list, max_steps: int, max_repeats: int, max_errors: int, max_tokens: int | None) -> None:
    log: list = []
    registry = shop_tools()
    registry.register(refund_registry(log)["refund"])
    sent = []

    def model(prompt: str, stop: object = None) -> str:
        sent.append(prompt)
        reply = script[(len(sent) - 1) % len(script)]
        if reply == "RAISE":
            raise ConnectionError("dropped")
        return reply

    result = run_react("What do 3 notebooks and 2 pens cost?", model, registry, max_steps=max_steps,
                       max_repeats=max_repeats, max_model_errors=max_errors, max_tokens=max_tokens)
    assert result.end_reason in END_REASONS and len(sent) == len(result.steps) <= max_steps + 1
    assert sum(s.error == "repeat" for s in result.steps) <= max_repeats + 1
    if max_tokens is not None:
        assert result.usage.total <= max_tokens + 1_000  # the last reply is counted after it arrives
    assert log == []  # a side effect never runs without a policy
    last = result.steps[-1] if result.steps else None
    assert (result.end_reason == "final_answer") == (last is not None and last.answer is not None
                                                      and not last.forced)
