"""Trajectory grading: each rule of the rubric caught on a run that breaks it, kept by one that
does not; the judge's prompt, its verdicts read strictly, and a position bias made visible."""

from __future__ import annotations

import json

import pytest

from react_course.evaluate import DEFAULT, load_tasks, run_task
from react_course.evaluate.careful import CarefulModel
from react_course.evaluate.judge import (
    ScriptedJudge,
    Verdict,
    course_judge,
    judge,
    judge_prompt,
    pairwise,
    parse_verdict,
)
from react_course.evaluate.trajectory import RULES, grade_trajectory, rubric_table, transcript
from react_course.models import ScriptedModel
from react_course.prompts import render_action, render_final

TASKS = {t.id: t for t in load_tasks()}
COMPARE = TASKS["comparison-01"]  # Eiffel Tower vs Statue of Liberty: 330 - 93 = 237 m


def run_of(task_id: str, *replies: str):
    return run_task(TASKS[task_id], ScriptedModel(list(replies)), DEFAULT)


def careful(task_id: str):
    return run_task(TASKS[task_id], CarefulModel(list(TASKS.values())), DEFAULT)


def rules_failed(run) -> set[str]:
    return {f.rule for f in grade_trajectory(run).findings}


@pytest.mark.parametrize("task_id", sorted(TASKS))
def test_a_careful_run_keeps_every_rule(task_id) -> None:
    grade = grade_trajectory(careful(task_id))
    assert grade.findings == [] and grade.score == 1.0, str(grade)


def test_a_call_after_the_answer_was_seen_is_found_at_its_step() -> None:
    run = run_of("comparison-01", render_action("t", "search", "Eiffel Tower"),
                 render_action("t", "search", "Statue of Liberty"),
                 render_action("t", "calculate", "330 - 93"),
                 render_action("t", "search", "Paris"), render_final("t", COMPARE.final))
    assert run.success  # the right answer: only the trajectory shows the waste
    grade = grade_trajectory(run)
    assert [(f.rule, f.step) for f in grade.findings] == [("no_calls_after_answer", 4)]
    assert "after step 3" in grade.findings[0].message and grade.score == pytest.approx(2 / 3)


def test_a_right_number_the_run_never_saw_is_unsupported() -> None:
    run = run_of("comparison-01", render_action("t", "search", "Eiffel Tower"),
                 render_final("t", COMPARE.final))  # 237 m, without looking up the statue
    assert run.success and rules_failed(run) == {"supported_answer"}
    assert "'237'" in grade_trajectory(run).findings[0].message


def test_an_unknown_tool_and_a_tool_the_plan_never_uses_are_wrong_tools() -> None:
    run = run_of("comparison-01", render_action("t", "search_web", "Eiffel Tower"),
                 render_action("t", "price", "notebook"), render_final("t", "I do not know."))
    findings = grade_trajectory(run).findings
    assert [(f.rule, f.step) for f in findings] == [("right_tools", 1), ("right_tools", 2)]


def test_a_run_without_a_final_answer_has_no_claims_to_support() -> None:
    run = run_of("ask_user-01", *["Thought: I wonder."] * 12)
    assert "supported_answer" not in rules_failed(run)


def test_the_rubric_table_gives_each_rule_its_share_of_runs() -> None:
    good = careful("comparison-01")
    lucky = run_of("comparison-01", render_final("t", COMPARE.final))
    table = rubric_table([good, lucky])
    assert table == {"no_calls_after_answer": 1.0, "supported_answer": 0.5, "right_tools": 1.0}


def test_the_judge_reads_the_transcript_and_the_scripted_judge_agrees_with_the_rubric() -> None:
    lucky = run_of("comparison-01", render_action("t", "search", "Eiffel Tower"),
                   render_final("t", COMPARE.final))
    prompt = judge_prompt(lucky)
    assert "Step 1: search(Eiffel Tower) -> " in prompt and COMPARE.question in prompt
    assert transcript(lucky) in prompt
    verdict = judge(lucky, ScriptedJudge([lucky]))
    assert verdict.rules == {"no_calls_after_answer": True, "supported_answer": False, "right_tools": True}
    assert "'237'" in verdict.reason


@pytest.mark.parametrize("reply, error", [
    ("Looks good.", "no JSON object"),
    ('{"no_calls_after_answer": true, "supported_answer": "yes", "right_tools": true}', "supported_answer"),
    ('{"no_calls_after_answer": true,, }', "could not be read"),
])
def test_a_judge_reply_that_cannot_be_read_is_no_grade_not_a_pass(reply, error) -> None:
    verdict = parse_verdict(reply)
    assert error in verdict.error and verdict.score is None and verdict.rules == {}


def test_a_judge_call_that_fails_is_an_error_verdict() -> None:
    def broken(prompt, stop=None):
        raise TimeoutError("no answer in 30 s")

    verdict = judge(careful("multi_hop-01"), broken)
    assert verdict == Verdict(error="the judge's call failed: TimeoutError: no answer in 30 s")


def test_pairwise_counts_only_verdicts_that_survive_swapping_the_order() -> None:
    def prefers_longer(prompt, stop=None):
        a = prompt.split("Answer A: ")[1].split("\n")[0]
        b = prompt.split("Answer B: ")[1].split("\n")[0]
        return "A" if len(a) > len(b) else "B"

    assert pairwise("q", "330 m", "It is about 330 metres.", lambda p, s=None: "A") == "inconsistent"
    # a verbosity bias survives the swap: consistent, and still a bias
    assert pairwise("q", "330 m", "It is about 330 metres.", prefers_longer) == "other"


def test_the_course_judge_is_scripted_offline(monkeypatch) -> None:
    monkeypatch.delenv("REACT_COURSE_MODEL", raising=False)
    run = careful("multi_hop-01")
    model = course_judge([run])
    assert isinstance(model, ScriptedJudge)
    assert json.loads(model(judge_prompt(run)))["right_tools"] is True
    assert set(RULES) <= set(json.loads(model(judge_prompt(run))))
