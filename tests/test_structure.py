"""Plan-and-execute and reflection (lesson 12): what each adds to the loop, on scripted models."""

from __future__ import annotations

from dataclasses import replace

import pytest

from react_course import ScriptedModel, default_tools
from react_course.evaluate import SimulatedModel, load_tasks, metrics, structured, task_tools
from react_course.evaluate.structured import KINDS, SimulatedPlanner, model_calls, run_one, run_structured
from react_course.lessons import structure
from react_course.lessons.structure import lesson_for, plan_and_execute, read_plan, reflect, with_reflection
from react_course.record import Observation, RunResult, Step, ToolCall

ANSWER = "Thought: I know it now.\nFinal Answer: Elon Musk"
PONDER = "Thought: Let me think some more."


def test_the_plan_runs_first_and_the_loop_reads_its_observations():
    planner = ScriptedModel(["search: SpaceX\nnot a plan line\nsearch: Tesla"])
    model = ScriptedModel([ANSWER])
    result = plan_and_execute("Who co-founded both SpaceX and Tesla?", model, default_tools(),
                              planner=planner, max_steps=4)
    assert result.end_reason == "final_answer" and result.answer == "Elon Musk"
    assert [s.calls[0].arguments for s in result.steps[:2]] == ["SpaceX", "Tesla"]
    assert [s.number for s in result.steps] == [1, 2, 3]
    prompt = model.calls[0].prompt
    assert "Action Input: SpaceX\nObservation:" in prompt and "Action Input: Tesla" in prompt
    assert result.steps[0].usage.input > 0  # the planner's tokens are counted


def test_a_misnamed_planned_tool_is_an_observation_and_the_step_limit_holds():
    planner = ScriptedModel(["\n".join(f"search_web: page {i}" for i in range(9))])
    model = ScriptedModel([PONDER] * 3)
    result = plan_and_execute("Anything?", model, default_tools(), planner=planner, max_steps=3)
    assert result.steps[0].observations[0].error == "unknown_tool"
    assert len([s for s in result.steps if not s.forced]) <= 3
    assert result.end_reason != "final_answer"


def test_read_plan_keeps_only_tool_lines_up_to_the_limit():
    assert read_plan("search: a\nsearch: b\nsearch: c", limit=2) == [("search", "a"), ("search", "b")]
    assert read_plan("I would first search.") == []


def run(end_reason: str, *steps: Step) -> RunResult:
    return RunResult("q", "a", end_reason, list(steps))


def step_with(tool: str, error: str | None) -> Step:
    step = Step(1, calls=[ToolCall("c1", tool, "x")])
    step.observations.append(Observation("c1", "text", error))
    return step


@pytest.mark.parametrize("result, words", [
    (run("final_answer"), None),
    (run("step_limit", step_with("search_web", "unknown_tool")), "search_web does not exist"),
    (run("step_limit", Step(1, observations=[Observation("", "unreadable", "parse_error")])),
     "Final Answer: Which order"),
    (run("budget", Step(1, observations=[Observation("", "unreadable", "parse_error")])),
     "could not be read"),
    (run("repeating", step_with("search", None)), "same call"),
    (run("time_limit", step_with("search", None)), "time_limit"),
])
def test_reflect_writes_the_first_lesson_the_trace_supports(result, words):
    lesson = reflect(result)
    assert lesson is None if words is None else words in lesson


def test_with_reflection_retries_a_seen_failure_with_the_lesson_in_the_prompt():
    first, second = ScriptedModel([PONDER] * 3), ScriptedModel([ANSWER])
    result = with_reflection("Who?", first, default_tools(), next_model=second, max_steps=2)
    assert result.answer == "Elon Musk" and len(result.steps) == 4
    assert "A lesson from your last attempt" in second.calls[0].prompt
    plain = ScriptedModel([ANSWER])
    with_reflection("Who?", ScriptedModel([PONDER] * 3), default_tools(), next_model=plain,
                    reflect=None, max_steps=2)
    assert "A lesson" not in plain.calls[0].prompt


def test_a_final_answer_is_not_retried():
    second = ScriptedModel([ANSWER])
    with_reflection("Who?", ScriptedModel([ANSWER]), default_tools(), next_model=second)
    assert second.calls == []


def test_the_simulated_planner_stops_at_the_first_call_it_cannot_see():
    task = next(t for t in load_tasks(family="shop") if len(t.calls) == 4)
    plan = read_plan(SimulatedPlanner([task], seed=0)(f"Tools: x\n\nQuestion: {task.question}\nPlan:"))
    assert plan == [c for c in task.calls if c[0] == "price"]


def test_every_kind_runs_on_the_evaluation_and_plan_costs_one_planner_call():
    tasks = load_tasks(family="comparison")[:2]
    for kind in KINDS:
        runs = run_structured(kind, tasks, repeats=1)
        assert len(runs) == 2 and metrics(runs).runs == 2
    planned = run_one("plan", tasks[0], 0)
    assert model_calls(planned) == len(planned.result.steps) - 2 + 1  # two searches planned
    with pytest.raises(ValueError, match="kind is one of"):
        run_one("nonsense", tasks[0], 0)


def test_a_failed_planner_call_leaves_the_loop_to_work_unplanned():
    def broken(prompt, stop=None):
        raise TimeoutError("no reply")

    result = plan_and_execute("Who?", ScriptedModel([ANSWER]), default_tools(), planner=broken)
    assert result.answer == "Elon Musk" and "planner's call failed (TimeoutError)" in result.detail


def test_a_planned_run_counts_its_planner_call_not_its_planned_steps():
    task = load_tasks(family="comparison")[0]
    planned = plan_and_execute(task.question, SimulatedModel([task]), task_tools(),
                               planner=SimulatedPlanner([task], seed=0))
    assert len(planned.steps) == 4 and planned.model_calls == 3  # planner, then two loop calls
    assert planned.render().splitlines()[-1] == "[ended: final_answer after 3 model calls]"


def test_only_a_run_with_no_call_gets_the_lesson_that_permits_asking():
    ponder = [Step(n, observations=[Observation("", "unreadable", "parse_error")]) for n in range(2, 5)]
    lesson = lesson_for(run("step_limit", *ponder))
    assert "Final Answer: Which order" in lesson.text and lesson.permits == {"ask_user", "no_answer"}
    after_a_call = lesson_for(run("step_limit", step_with("search", None), *ponder))
    assert "could not be read" in after_a_call.text and after_a_call.permits == frozenset()


def test_reflection_helps_only_through_what_its_lesson_permits(monkeypatch):
    tasks = [t for t in load_tasks() if t.kind in ("ask_user", "no_answer")]
    success = {kind: sum(r.success for r in run_structured(kind, tasks, repeats=2))
               for kind in ("retry", "reflect")}
    assert success["reflect"] > success["retry"]
    def silent(result):
        lesson = structure.lesson_for(result)
        return replace(lesson, permits=frozenset()) if lesson else None

    monkeypatch.setattr(structured, "lesson_for", silent)  # the same words, permitting nothing
    assert sum(r.success for r in run_structured("reflect", tasks, repeats=2)) == success["retry"]
