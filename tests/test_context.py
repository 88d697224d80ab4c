"""Context control: observation budgets, compression that keeps what matters, routing."""

import itertools
import re

from hypothesis import given, settings
from hypothesis import strategies as st

import react_course as rc
from react_course.context_cost import cost as costs
from react_course.context_cost.context import (
    SUMMARY_HEADER,
    Compressor,
    ExtractiveSummariser,
    compress_history,
    compress_messages,
    fit_observation,
    tool_pairs_intact,
    tool_turns,
)
from react_course.context_cost.routing import Router
from react_course.lessons.long_tasks import TASKS, order_record, solved, task_model, task_tools
from react_course.record import Usage
from react_course.tokens import count_tokens

TASK = TASKS[1]  # twelve orders and a mistyped id


def long_run(**options):
    return rc.run_react(TASK.question, task_model(TASK), task_tools(), max_steps=20, **options)


@settings(max_examples=40, deadline=None)
@given(st.text(min_size=0, max_size=400), st.integers(16, 120))
def test_an_observation_fits_its_budget(text, budget):
    fitted = fit_observation(text, budget)
    if count_tokens(text) <= budget:
        assert fitted == text
    else:
        assert re.search(r"\[cut: \d+ of \d+ words\]$", fitted)


def test_a_long_record_is_cut_at_a_word_with_a_marker():
    record = order_record("5205")
    fitted = fit_observation(record, 40)
    assert count_tokens(fitted) <= 40 < count_tokens(record)
    assert record.startswith(fitted.split("\n")[0])


def test_compress_history_keeps_the_last_steps_and_summarises_the_rest():
    run = long_run()
    summariser = ExtractiveSummariser()
    history = compress_history(TASK.question, run.steps[:8], summariser, keep_last=3,
                               open_items=["the total refund"])
    assert history.replaced == 5 and history.kept == run.steps[5:8]
    assert "Findings:" in history.summary and "Failed attempts:" in history.summary
    assert "order_record[52011] failed (tool_error)" in history.summary  # the mistyped id is remembered
    assert "Order 5201 was delivered late; refund owed 75 INR." in history.summary
    text = history.text()
    assert text.startswith(SUMMARY_HEADER) and "Still open: the total refund" in text
    assert text.endswith(rc.transcript.scratchpad(run.steps[5:8]))
    prompt, reply = summariser.calls[0]
    assert TASK.question in prompt  # the summariser is told what matters
    assert history.usage == Usage(count_tokens(prompt), count_tokens(reply))


def test_nothing_to_summarise_costs_nothing():
    run = long_run()
    history = compress_history(TASK.question, run.steps[:2], ExtractiveSummariser(), keep_last=3)
    assert history.replaced == 0 and history.usage == Usage() and history.kept == run.steps[:2]


def test_the_compressor_waits_for_its_threshold_and_then_appends():
    run = long_run()
    compressor = Compressor(ExtractiveSummariser(), threshold=600, keep_last=2)
    texts = [compressor(TASK.question, run.steps[:k]) for k in range(1, len(run.steps) + 1)]
    assert compressor.compressions and compressor.usage.input > 0
    first = compressor.compressions[0][0]
    assert texts[first - 2] == rc.transcript.scratchpad(run.steps[: first - 1])  # untouched before
    assert all(count_tokens(t) <= 600 + 400 for t in texts)  # bounded, not growing with the run
    notes = [t.split("\nThought:")[0] for t in texts[first - 1:]]
    assert all(b.startswith(a.rsplit("\n", 1)[0]) for a, b in itertools.pairwise(notes))


def _messages():
    return [
        {"role": "system", "content": "Use tools."},
        {"role": "user", "content": "What do orders 5101 and 5102 owe?"},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "a", "function": {"name": "order_record", "arguments": '{"order_id": "5101"}'}}]},
        {"role": "tool", "tool_call_id": "a", "content": order_record("5101")},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "b", "function": {"name": "order_record", "arguments": '{"order_id": "5102"}'}},
            {"id": "c", "function": {"name": "order_record", "arguments": '{"order_id": "5103"}'}}]},
        {"role": "tool", "tool_call_id": "b", "content": order_record("5102")},
        {"role": "tool", "tool_call_id": "c", "content": order_record("5103")},
        {"role": "assistant", "content": "Now the total."},
    ]


def test_compress_messages_pins_the_question_and_keeps_turns_whole():
    messages = _messages()
    for keep in range(0, 4):
        shorter, usage = compress_messages(messages, ExtractiveSummariser(), keep_last=keep,
                                           open_items=["total"])
        assert shorter[:2] == messages[:2] and tool_pairs_intact(shorter)
        if keep < 3:
            note = shorter[2]["content"]
            assert note.startswith(SUMMARY_HEADER) and "Still open: total" in note
            assert usage.input > 0 and "refund owed 60 INR" in shorter[2]["content"]
        else:
            assert shorter == messages and usage == Usage()
    assert [len(t) for t in tool_turns(messages[2:])] == [2, 3, 1]


def test_tool_pairs_intact_finds_every_break():
    messages = _messages()
    assert tool_pairs_intact(messages)
    assert not tool_pairs_intact(messages[:3] + messages[4:])  # a call without its result
    assert not tool_pairs_intact(messages[:2] + messages[3:])  # a result without its call
    assert not tool_pairs_intact(messages[:6])  # the second call's result is missing


def test_every_long_task_is_solved_with_and_without_compression():
    for task in TASKS:
        plain = rc.run_react(task.question, task_model(task), task_tools(), max_steps=20)
        assert solved(task, plain) and plain.model_calls >= 10


def test_a_summariser_that_loses_findings_loses_the_task():
    run = long_run()
    forgetful = compress_history(TASK.question, run.steps[:8],
                                 lambda prompt, stop=None: "Findings: some orders.")
    assert "refund owed" not in forgetful.text().split("Thought:")[0]


def test_the_router_sends_routine_steps_to_the_cheap_model():
    router = Router(task_model(TASK), task_model(TASK, careless=True))
    run = rc.run_react(TASK.question, router, task_tools(), max_steps=20)
    assert solved(TASK, run)
    assert router.choices[:2] == ["strong", "strong"]  # the plan, then the call after the mistyped id
    assert router.choices.count("cheap") > len(router.choices) // 2
    careless = rc.run_react(TASK.question, task_model(TASK, careless=True), task_tools(), max_steps=20)
    assert not solved(TASK, careless)  # the cheap model alone loses this task
    prices = costs.prices()
    assert router.cost(prices["gpt-4o"], prices["gpt-4o-mini"]) < costs.cost(
        router.usage["strong"] + router.usage["cheap"], prices["gpt-4o"])


def test_compression_keeps_every_long_task_and_halves_the_agents_input():
    plain = compressed = 0
    for task in TASKS:
        model = task_model(task)
        assert solved(task, rc.run_react(task.question, model, task_tools(), max_steps=20))
        plain += sum(count_tokens(call.prompt) for call in model.calls)
        model, compressor = task_model(task), Compressor(ExtractiveSummariser(), threshold=600, keep_last=2)
        run = rc.run_react(task.question, model, task_tools(), max_steps=20, history=compressor)
        assert solved(task, run) and compressor.compressions
        compressed += sum(count_tokens(call.prompt) for call in model.calls)
    assert compressed <= 0.6 * plain  # the target: at least 40% fewer input tokens


def test_a_failing_summariser_leaves_the_history_whole_and_the_run_going():
    def broken(prompt, stop=None):
        raise TimeoutError("the summariser timed out")

    compressor = Compressor(broken, threshold=300, keep_last=1)
    run = rc.run_react(TASK.question, task_model(TASK), task_tools(), max_steps=20, history=compressor)
    assert solved(TASK, run) and compressor.failures and not compressor.compressions
    assert compressor.failures[0] == "TimeoutError: the summariser timed out"


def test_a_long_winded_summariser_is_held_to_the_summary_budget():
    """A real base model wrote summaries five times their budget: asked for less, and cut."""
    asked = []

    def verbose(prompt, stop=None, *, max_tokens=None):
        asked.append(max_tokens)
        return "Findings: " + "the order was found and it was late " * 300

    compressor = Compressor(verbose, threshold=300, keep_last=1, summary_tokens=120)
    run = rc.run_react(TASK.question, task_model(TASK), task_tools(), max_steps=20, history=compressor)
    assert compressor.compressions and set(asked) == {120}
    assert count_tokens(compressor.summary) <= 120 * len(compressor.compressions)
    assert "[cut: " in compressor.summary and run.end_reason in rc.END_REASONS


def test_a_real_summariser_is_sent_the_summary_budget_as_its_output_limit():
    import stub_servers as stub
    from stub_servers import KEY, MODEL, StubServer

    from react_course.backends.providers import OpenAICompletionModel

    with StubServer(stub.answering(["Findings: a pen costs 2 " * 200])) as server:
        model = OpenAICompletionModel(MODEL, base_url=server.url, api_key=KEY, max_retries=0)
        history = compress_history(TASK.question, long_run().steps[:4], model, keep_last=1,
                                   summary_tokens=50)
        model("Question: x", None)  # the model's own budget again, for the next step
        budgets = [call.body["max_tokens"] for call in server.calls]
    assert budgets == [50, model.max_tokens] and count_tokens(history.summary) <= 50
