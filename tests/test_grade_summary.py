"""The instructor's summary lists only rules some submission is known to break, counted per submission."""

from __future__ import annotations

from react_course.checks.framework import CaseResult, CheckResult
from react_course.course.feedback import summary_markdown
from react_course.course.grade import Grade

EXERCISE = "03.cut_at_stop"


def _grade(student: str, *cases: CaseResult) -> Grade:
    return Grade(student, f"{student}.ipynb", lesson="03", results=[CheckResult(EXERCISE, "cut", cases)],
                 weights={EXERCISE: 10.0}, maximum={EXERCISE: len(cases)})


def _failed(name: str, rule: str, **extra) -> CaseResult:
    return CaseResult(name, "failed", 0, 1, rule=rule, **extra)


def test_only_rules_someone_broke_are_listed_once_per_submission() -> None:
    grades = [
        _grade("ana", _failed("a", '"earliest in the text"'), _failed("b", '"earliest in the text"'),
               _failed("c", '"earliest in the text"')),
        _grade("ben", _failed("d", '"an empty stop is ignored"; "None means no stops"'),  # which one?
               _failed("e", '"whole text when no stop"', timed_out=True)),  # a time-out breaks no rule
        _grade("cy", CaseResult("f", "passed", 1, 1, rule='"None means no stops"')),
        _grade("dee", CaseResult("g", "not attempted", 0, 1, rule='"whole text when no stop"')),
    ]
    table = next(line for line in summary_markdown(grades, [EXERCISE], []).splitlines()
                 if line.startswith(f"| {EXERCISE}"))
    assert '"earliest in the text" (1)' in table
    for never_shown_broken in ("an empty stop is ignored", "None means no stops", "whole text when no stop"):
        assert never_shown_broken not in table
