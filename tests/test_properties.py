"""Properties of the loop that must hold whatever the model does."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from react_course import END_REASONS, ModelError, default_tools, run_react

ACTION = "Thought: t\nAction: {tool}\nAction Input: {arg}"

behaviours = st.one_of(
    st.text(max_size=200).map(lambda t: ("text", t)),
    st.just(("text", "")),
    st.just(("text", "x" * 200_000)),  # enormous reply
    st.just(("text", "Thought: " + "long " * 50_000 + "\nAction: search\nAction Input: Paris")),
    st.sampled_from(["search", "lookup", "calculate", "price", "nope", "get_order", "today"]).flatmap(
        lambda tool: st.text(max_size=40).map(lambda arg: ("text", ACTION.format(tool=tool, arg=arg)))
    ),
    st.just(("text", ACTION.format(tool="search", arg="Eiffel Tower"))),  # the same action forever
    st.just(("text", ACTION.format(tool="search", arg="Paris") + "\nObservation: invented\n"
                     "Final Answer: invented")),
    st.just(("text", "Final Answer: 42")),
    st.just(("text", "Action: calculate\nAction Input: 9**9**9**9")),
    # Failures of the model or its server; a bug in the callable raises instead (test_loop).
    st.sampled_from([TimeoutError, ConnectionError, ModelError]).map(lambda kind: ("raise", kind)),
    st.just(("none", None)),
)


class Chaotic:
    def __init__(self, script: list) -> None:
        self.script, self.calls = script, 0

    def __call__(self, prompt: str, stop: object = None) -> str:
        kind, value = self.script[self.calls % len(self.script)]
        self.calls += 1
        if kind == "raise":
            raise value("simulated failure")
        return value


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(behaviours, min_size=1, max_size=8), st.integers(min_value=0, max_value=6))
def test_any_model_ends_within_its_bounds(script: list, max_steps: int) -> None:
    model = Chaotic(script)
    result = run_react("How much taller is the Eiffel Tower?", model, default_tools(),
                       max_steps=max_steps, tool_timeout=2)
    assert model.calls <= max_steps + 1
    assert len(result.steps) == model.calls
    assert result.end_reason in END_REASONS
    assert isinstance(result.answer, str) and result.answer.strip()
    assert result.transcript.startswith("Question: ")
    if result.end_reason == "final_answer":
        assert result.steps[-1].final_answer is not None


@settings(max_examples=50, deadline=None)
@given(st.integers(min_value=1, max_value=20))
def test_same_action_forever_is_stopped_early(max_steps: int) -> None:
    model = Chaotic([("text", ACTION.format(tool="search", arg="Eiffel Tower"))])
    result = run_react("q", model, default_tools(), max_steps=max_steps)
    assert model.calls <= min(max_steps + 1, 4)
    assert result.end_reason in ("repeating", "step_limit")
