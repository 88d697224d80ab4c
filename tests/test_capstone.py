"""Lesson 10's scenes do what the lesson says they do: each break fails, each fix holds."""

from __future__ import annotations

import pytest

import react_course as rc
from react_course.lessons import capstone as cap
from react_course.lessons import workflow as wf

TYPO = cap.QUESTION.replace("88213", str(cap.MISSING))


def bare(model, tools=None, **options):
    return cap.bare_loop(cap.QUESTION if tools is None else TYPO, model,
                         cap.as_functions(tools or rc.support_tools()), **options)


def test_the_careful_agent_answers_25_and_cites_every_number():
    result = rc.run_react(cap.QUESTION, cap.support_agent(), rc.support_tools())
    assert result.end_reason == "final_answer" and "Refund 25 INR" in result.answer
    assert [s.action.tool for s in result.steps if s.action] == ["get_order", "get_policy", "calculate"]
    assert cap.uncited_claims(result.answer, cap.observations_of(result)) == []


def test_without_a_stop_the_bare_loop_takes_the_invented_observation():
    assert bare(cap.support_agent(ignore_stops=True), stops=()) == "Refund 505 INR."
    fixed = rc.run_react(cap.QUESTION, cap.support_agent(ignore_stops=True), rc.support_tools(), stops=())
    assert "Refund 25 INR" in fixed.answer and fixed.steps[0].cut.startswith("Observation:")


def test_a_blank_result_invents_an_order_and_words_fix_it():
    invented = bare(cap.support_agent(cap.MISSING), cap.blank_desk())
    assert "45 minutes late" in invented
    told = rc.run_react(TYPO, cap.support_agent(cap.MISSING), rc.support_tools())
    assert told.answer.startswith("There is no order 88231")
    door = rc.run_react(TYPO, cap.support_agent(cap.MISSING), cap.blank_desk())
    assert len(cap.uncited_claims(door.answer, cap.observations_of(door))) == 2


def test_an_unknown_tool_crashes_the_bare_loop_and_not_run_react():
    with pytest.raises(KeyError):
        bare(cap.support_agent(first_tool="lookup_refund"))
    result = rc.run_react(cap.QUESTION, cap.support_agent(first_tool="lookup_refund"), rc.support_tools())
    assert result.steps[0].observation.startswith("Unknown tool 'lookup_refund'. Available tools: get_order")
    assert "Refund 25 INR" in result.answer


def test_at_a_limit_of_two_the_bare_loop_says_nothing_and_run_react_hands_over():
    assert bare(cap.support_agent(), max_steps=2) is None
    result = rc.run_react(cap.QUESTION, cap.support_agent(), rc.support_tools(), max_steps=2)
    assert result.end_reason == "step_limit" and "62 minutes late" in result.answer


def test_a_repeated_call_ends_as_repeating():
    result = rc.run_react(cap.QUESTION, cap.support_agent(repeat=True), rc.support_tools())
    assert result.end_reason == "repeating"


def test_uncited_claims_needs_a_cited_whole_number():
    observations = {1: "62 minutes late", 2: "1062"}
    assert cap.uncited_claims("It was 62 minutes late [1].", observations) == []
    assert cap.uncited_claims("It was 62 minutes late [2].", observations) == ["It was 62 minutes late [2]."]
    assert cap.uncited_claims("It was late [7]. Sorry.", observations) == []


def test_the_table_tool_pages_and_says_how_to_get_more():
    table = cap.OrderTable(size=2)
    first, second = table.list_orders("delivered"), table.list_orders("delivered page 2")
    assert "4 rows; page 1 of 2." in first and first.endswith("More: page 2.")
    assert "88274" in second and "More" not in second
    assert "No page 9" in table.list_orders("all page 9")


def test_done_when_ticks_from_the_runs():
    runs = {"a": rc.run_react(cap.QUESTION, cap.support_agent(), rc.support_tools())}
    ticks = dict(cap.done_when(runs, {"invented observation": True}, limit=8))
    assert list(ticks.values()) == [True, True, True, False, False]


def test_the_workflow_answers_its_own_shape_only():
    tasks = wf.refund_tasks()
    assert [t.answer["value"] for t in tasks] == [25, 0, 0, 0]
    assert all(rc.evaluate.score(wf.refund_workflow(t.question).answer, t) for t in tasks)
    assert [task for task, ok in wf.off_shape() if ok] == ["support-01", "support-02"]
    assert wf.refund_workflow("Is my parcel here?").answer.startswith("Which order")


def test_measurements_compare_the_same_tasks():
    tasks = wf.refund_tasks()
    agent, flow = wf.measure_agent(tasks, repeats=2), wf.measure_workflow(tasks, repeats=2)
    assert agent.runs == flow.runs == 2 * len(tasks)
    assert flow.model_calls == 1 and agent.model_calls >= 3
    assert flow.failure_rate == 0 and flow.tokens_per_task < agent.tokens_per_task


def test_the_native_twin_answers_the_same_through_the_sdk():
    import openai

    from react_course.scripted_api import serve

    with serve(cap.native_support_agent("lookup_refund")) as url:
        client = openai.OpenAI(base_url=url, api_key="scripted", max_retries=0)
        result = rc.run_native(client, rc.support_tools(), cap.QUESTION, model="scripted")
    assert [c.name for c in result.tool_calls] == ["lookup_refund", "get_order", "get_policy", "calculate"]
    assert "Refund 25 INR [4]" in result.answer
    assert cap.uncited_claims(result.answer, cap.observations_of(result)) == []
