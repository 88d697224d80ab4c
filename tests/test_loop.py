"""run_react: the worked examples end to end, and every way a run can end."""

from __future__ import annotations

import pytest

from react_course import (
    END_REASONS,
    WORKED_EXAMPLES,
    ScriptedModel,
    default_tools,
    demo_model,
    run_react,
    shop_tools,
)
from react_course.guards import Limits

ACT = "Thought: {t}\nAction: {tool}\nAction Input: {arg}"


def act(tool: str, arg: str, thought: str = "next") -> str:
    return ACT.format(t=thought, tool=tool, arg=arg)


def final(answer: str) -> str:
    return f"Thought: I now know the answer\nFinal Answer: {answer}"


@pytest.mark.parametrize("question", WORKED_EXAMPLES)
def test_demo_model_solves_every_worked_example(question: str) -> None:
    result = run_react(question, demo_model(), default_tools())
    assert result.end_reason == "final_answer"
    assert result.succeeded and result.model_calls <= 4
    assert all(step.error is None for step in result.steps)


def test_worked_answers() -> None:
    answers = [run_react(q, demo_model(), default_tools()).answer for q in WORKED_EXAMPLES]
    assert "237 m taller" in answers[0]
    assert answers[1].startswith("Yes")
    assert answers[2].startswith("About 315,000") and "city" in answers[2]
    assert "330 m" in answers[3]
    assert "16" in answers[4]
    assert "Refund 25" in answers[5]


def test_recovers_from_an_empty_search_by_reformulating() -> None:
    result = run_react("How tall is the tower in Paris that opened in 1889?", demo_model(),
                       default_tools())
    assert [s.action.input for s in result.steps if s.action] == ["Paris tower 1889", "Eiffel Tower"]
    assert result.steps[0].observation.startswith("No page matches")


def test_steps_hold_thought_action_observation_tokens_latency() -> None:
    result = run_react(WORKED_EXAMPLES[0], demo_model(), default_tools())
    first = result.steps[0]
    assert first.thought == "I need the height of the Eiffel Tower."
    assert (first.action.tool, first.action.input) == ("search", "Eiffel Tower")
    assert "330 m" in first.observation
    assert first.tokens.input > 100 and first.tokens.output > 5 and first.tokens.total > 105
    assert first.latency >= 0
    # The whole history is resent: each call's prompt is longer than the last.
    inputs = [s.tokens.input for s in result.steps]
    assert inputs == sorted(inputs) and len(set(inputs)) == len(inputs)
    assert result.tokens.input == sum(inputs)


def test_the_model_is_sent_the_stop_sequence_and_the_tools() -> None:
    model = demo_model()
    run_react(WORKED_EXAMPLES[4], model, shop_tools())
    call = model.calls[0]
    assert call.stop == ("\nObservation",)
    assert "- price(item: str): Return the price of one item" in call.prompt
    assert "Question: What do 3 notebooks and 2 pens cost?" in call.prompt
    assert "Question: What do 2 rulers cost?" in call.prompt  # the example that fits these tools


def test_invented_observation_is_cut_and_recorded() -> None:
    model = ScriptedModel([
        act("search", "Eiffel Tower") + "\nObservation: It is 500 m tall.\nFinal Answer: 500 m",
        final("330 m"),
    ], ignore_stops=True)
    result = run_react("How tall is the Eiffel Tower?", model, default_tools())
    assert result.answer == "330 m"
    assert "330 m" in result.steps[0].observation
    assert "500 m" in result.steps[0].cut
    assert "500 m" not in model.calls[1].prompt.split("Now the real question.")[1]
    assert "[discarded by the program:" in result.transcript


def test_action_followed_by_final_answer_runs_the_action_only() -> None:
    model = ScriptedModel([act("search", "Eiffel Tower") + "\n" + final("500 m"), final("330 m")])
    result = run_react("How tall?", model, default_tools())
    assert result.answer == "330 m" and result.model_calls == 2
    assert "Final Answer: 500 m" in result.steps[0].cut


@pytest.mark.parametrize(
    ("reply", "error", "says"),
    [
        ("I think it is tall.", "parse_error", "Could not read your reply"),
        (act("web_search", "Eiffel"), "unknown_tool", "Available tools: search, lookup"),
        (act("get_order", "eighty"), "bad_input", "order_id must be int"),
        (act("calculate", "9**9**9"), None, "Error: the exponent"),
    ],
)
def test_mistakes_become_observations_and_the_run_goes_on(reply: str, error: str, says: str) -> None:
    model = ScriptedModel([reply, final("done")])
    result = run_react("q", model, default_tools())
    assert result.end_reason == "final_answer" and result.answer == "done"
    assert result.steps[0].error == error
    assert says in result.steps[0].observation
    assert "Observation: " + result.steps[0].observation in model.calls[1].prompt


def test_exact_repeat_is_refused_then_the_run_ends_as_repeating() -> None:
    model = ScriptedModel([act("search", "Eiffel Tower")] * 10)
    result = run_react("q", model, default_tools(), max_steps=10)
    assert result.steps[1].error == "repeat"
    assert "You already called search with 'Eiffel Tower' in step 1" in result.steps[1].observation
    assert result.end_reason == "repeating"
    assert result.model_calls == 4  # one call, then two refused repeats, then the third ends it
    assert result.answer.startswith("Could not finish: the model repeated a call 3 times")


def test_step_limit_asks_once_for_a_labelled_best_effort_answer() -> None:
    model = ScriptedModel([act("search", "Eiffel Tower"), act("search", "Statue of Liberty"),
                           final("about 237 m")])
    result = run_react("q", model, default_tools(), max_steps=2)
    assert result.end_reason == "step_limit"
    assert result.model_calls == 3 and result.steps[-1].forced
    assert result.answer == ("Best effort (step limit of 2 reached; not verified): about 237 m")
    assert "You have used all your steps" in model.calls[-1].prompt


def test_step_limit_without_an_answer_hands_over_with_a_summary() -> None:
    model = ScriptedModel([act("search", "Eiffel Tower"), act("search", "Paris")])
    result = run_react("How tall?", model, default_tools(), max_steps=1)
    assert result.end_reason == "step_limit" and result.model_calls == 2
    assert result.steps[-1].observation == ""  # the forced step's action is not run
    assert result.answer.startswith("Could not finish: no final answer within 1 step.")
    assert "search[Eiffel Tower] -> [Eiffel Tower]" in result.answer
    assert "Still open: an answer to 'How tall?'" in result.answer
    assert "[not run: no steps left]" in result.transcript


def test_hand_over_summary_has_one_full_stop_after_an_observation() -> None:
    model = ScriptedModel([act("price", "pen"), act("price", "notebook")])
    result = run_react("What do 2 pens cost?", model, shop_tools(), max_steps=1)
    assert "Done so far: price[pen] -> A pen costs 2. Still open:" in result.answer
    assert ".." not in result.answer


class Flaky:
    """Fails a set number of times, then replies."""

    def __init__(self, failures: int, replies: list[str]) -> None:
        self.failures, self.replies, self.calls = failures, list(replies), 0

    def __call__(self, prompt: str, stop: object = None) -> str:
        self.calls += 1
        if self.calls <= self.failures:
            raise TimeoutError("the API timed out")
        return self.replies.pop(0)


def test_a_failing_model_call_is_retried_within_the_step_budget() -> None:
    model = Flaky(2, [final("ok")])
    result = run_react("q", model, default_tools())
    assert result.end_reason == "final_answer" and model.calls == 3
    assert result.steps[0].error == "model_error"
    assert "TimeoutError: the API timed out" in result.steps[0].observation


def test_a_model_that_keeps_failing_ends_with_error_and_says_why() -> None:
    model = Flaky(100, [])
    result = run_react("q", model, default_tools())
    assert result.end_reason == "error" and model.calls == 3
    assert "the model failed 3 times in a row (last: TimeoutError: the API timed out)" in result.answer


def test_a_failure_on_the_last_step_ends_with_error() -> None:
    model = Flaky(1, [])
    result = run_react("q", model, default_tools(), max_steps=1)
    assert result.end_reason == "error" and model.calls == 1


def test_token_budget() -> None:
    result = run_react(WORKED_EXAMPLES[0], demo_model(), default_tools(), max_tokens=2500)
    assert result.end_reason == "budget"
    assert result.tokens.total <= 2500
    assert "limit 2,500" in result.answer


def test_time_limit() -> None:
    result = run_react(WORKED_EXAMPLES[0], demo_model(), default_tools(), max_seconds=0)
    assert result.end_reason == "time_limit" and result.model_calls == 0
    assert result.answer.startswith("Could not finish")


def test_interrupt_returns_what_was_done() -> None:
    def model(prompt: str, stop: object = None) -> str:
        if "Observation:" in prompt.split("Now the real question.")[1]:
            raise KeyboardInterrupt
        return act("search", "Eiffel Tower")

    result = run_react("q", model, default_tools())
    assert result.end_reason == "interrupted" and result.model_calls == 1
    assert "search[Eiffel Tower]" in result.answer


def test_long_observations_are_truncated_with_a_marker() -> None:
    tools = {"dump": lambda text: "word " * 2000}
    result = run_react("q", ScriptedModel([act("dump", "x"), final("ok")]), tools,
                       max_observation_chars=300)
    observation = result.steps[0].observation
    assert len(observation) < 420
    assert "[... truncated: showing the first" in observation and "of 10,000 characters" in observation


def test_non_text_and_empty_replies() -> None:
    result = run_react("q", ScriptedModel(["", final("ok")]), default_tools())
    assert result.steps[0].error == "parse_error" and result.answer == "ok"
    with pytest.raises(TypeError, match="returned int, not text"):  # the callable is the program's
        run_react("q", lambda prompt, stop: 42, default_tools(), max_steps=2)


@pytest.mark.parametrize("bug", [NameError("name 'reply' is not defined"), TypeError("bad call")])
def test_a_bug_inside_the_model_callable_raises_from_run_react(bug: Exception) -> None:
    def model(prompt: str, stop: object = None) -> str:
        raise bug

    with pytest.raises(type(bug), match=str(bug).split()[0]):
        run_react("q", model, default_tools())


def test_exhausted_script_ends_with_error_not_an_exception() -> None:
    result = run_react("q", ScriptedModel([act("search", "Paris")]), default_tools())
    assert result.end_reason == "error"
    assert "ScriptedModel has no reply left" in result.answer


def test_on_step_sees_each_step() -> None:
    seen = []
    run_react(WORKED_EXAMPLES[4], demo_model(), shop_tools(), on_step=seen.append)
    assert [s.number for s in seen] == [1, 2, 3, 4]


def test_options_are_checked() -> None:
    with pytest.raises(TypeError, match="unknown limit"):
        run_react("q", demo_model(), default_tools(), max_step=3)
    with pytest.raises(ValueError, match="max_steps"):
        run_react("q", demo_model(), default_tools(), max_steps=-1)
    assert Limits.from_options(max_tokens=5).max_tokens == 5
    # Other common names are not silently accepted: each gets the right name suggested.
    for wrong, right in [("token_budget", "max_tokens"), ("max_time", "max_seconds"),
                         ("timeout", "tool_timeout"), ("max_second", "max_seconds")]:
        with pytest.raises(TypeError, match=f"did you mean '{right}'"):
            Limits.from_options(**{wrong: 1})


def test_zero_steps_means_only_the_forced_answer() -> None:
    result = run_react("q", ScriptedModel([final("guess")]), default_tools(), max_steps=0)
    assert result.end_reason == "step_limit" and result.model_calls == 1
    assert result.answer.endswith("not verified): guess")


def test_tokens_are_numbers_with_parts() -> None:
    result = run_react(WORKED_EXAMPLES[0], demo_model(), default_tools())
    assert result.tokens.total > 1000 and result.tokens == sum(s.tokens for s in result.steps)
    assert result.tokens.total == result.tokens.input + result.tokens.output
    assert result.steps[0].tokens.output > 5


def test_transcript_and_messages() -> None:
    result = run_react(WORKED_EXAMPLES[4], demo_model(), shop_tools())
    text = result.transcript
    assert text.startswith("Question: What do 3 notebooks and 2 pens cost?\nThought: I need the price")
    assert text.endswith("Final Answer: 3 notebooks and 2 pens cost 16.\n"
                         "[ended: final_answer after 4 model calls]")
    marked = result.render(authors=True).splitlines()
    assert marked[1] == "model   | Thought: I need the price of a notebook."
    assert marked[4] == "program | Observation: A notebook costs 4."
    messages = result.to_messages()
    assert [m["role"] for m in messages[:3]] == ["user", "assistant", "user"]
    assert messages[2]["content"] == "Observation: A notebook costs 4."


def test_end_reasons_are_the_documented_ones() -> None:
    assert END_REASONS == ("final_answer", "step_limit", "budget", "time_limit", "repeating",
                           "hand_over", "interrupted", "error")


def test_a_one_call_run_says_call_not_calls() -> None:
    result = run_react("q", ScriptedModel([final("42")]), default_tools())
    assert result.transcript.endswith("[ended: final_answer after 1 model call]")


def test_a_configuration_error_is_raised_not_retried() -> None:
    from react_course.backends.providers import ModelConfigError

    calls = []

    def unconfigured(prompt: str, stop: object = None) -> str:
        calls.append(prompt)
        raise ModelConfigError("OPENAI_API_KEY is not set")

    with pytest.raises(ModelConfigError):
        run_react("q", unconfigured, default_tools())
    assert len(calls) == 1


def test_a_stateful_tool_may_be_called_again_with_the_same_input() -> None:
    model = ScriptedModel([act("search", "Eiffel Tower"), act("lookup", "tall"),
                           act("search", "Statue of Liberty"), act("lookup", "tall"), final("ok")])
    result = run_react("q", model, default_tools())
    assert [s.error for s in result.steps] == [None, None, None, None, None]
    assert "[Statue of Liberty]" in result.steps[3].observation


def test_a_failed_call_may_be_retried_but_a_useless_one_may_not() -> None:
    attempts = []

    def flaky(query: str) -> str:
        """Fails the first time, like a network hiccup."""
        attempts.append(query)
        if len(attempts) == 1:
            raise ConnectionError("reset by peer")
        return "fine"

    model = ScriptedModel([act("flaky", "x"), act("flaky", "x"), act("nope", "x"), act("nope", "x"),
                           final("ok")])
    result = run_react("q", model, {"flaky": flaky})
    assert [s.error for s in result.steps[:4]] == ["tool_error", None, "unknown_tool", "repeat"]


def test_a_tool_that_raises_timeout_error_is_a_tool_error() -> None:
    def slow_api(query: str) -> str:
        """Raises the way an HTTP client does."""
        raise TimeoutError("upstream timed out")

    for limit in (None, 5):
        result = run_react("q", ScriptedModel([act("slow_api", "x"), final("ok")]), {"slow_api": slow_api},
                           tool_timeout=limit)
        assert result.steps[0].error == "tool_error"
        assert "TimeoutError: upstream timed out" in result.steps[0].observation


def test_thinking_is_dropped_before_the_stop_cut() -> None:
    reply = ("<think>I will search.\nObservation: I expect 330 m.\n</think>\n"
             "Thought: search it\nAction: search\nAction Input: Eiffel Tower")
    result = run_react("q", ScriptedModel([reply, final("ok")], ignore_stops=True), default_tools())
    assert result.steps[0].action == rc_action("search", "Eiffel Tower")
    assert result.steps[0].cut == ""


def test_a_runaway_reply_is_read_up_to_a_cap() -> None:
    reply = "Thought: " + "very long " * 10_000 + "\nAction: search\nAction Input: Paris"
    result = run_react("q", ScriptedModel([reply, final("ok")]), default_tools())
    first = result.steps[0]
    assert len(first.reply) == 20_000 and first.reply + first.cut == reply
    assert first.error == "parse_error" and result.answer == "ok"


def rc_action(tool: str, tool_input: str):
    from react_course import Action

    return Action(tool, tool_input)
