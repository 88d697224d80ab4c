"""``react-course grade``: every kind of submission gets its fair grade or a clear status.

One batch (``tests/grading_submissions.py``) is graded once for the module, in a small
course whose lesson 03 is exercise 3.1 alone, with per-cell time-outs of two seconds:
each test then reads its row. Several hostile cells share one notebook (``hostile_cells``,
``forger``) to keep kernel starts, the slow part, few; ``benchmarks/grading.py`` grades
each kind on its own, thirty submissions at once.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from grading_submissions import small_course, submission_kinds

from react_course.course.grade import Limits, grade_folder

pytestmark = pytest.mark.slow
KINDS = ("complete", "partial", "partial_copy", "empty", "kernel_killers", "deleted_checks",
         "reads_solutions", "hostile_cells", "forger", "stubborn_loop", "another_lesson",
         "corrupt_json", "not_a_notebook")
FULL = 23  # 03.cut_at_stop's points: its cases, its generated comparison and its hidden cases


@pytest.fixture(scope="module")
def graded(tmp_path_factory: pytest.TempPathFactory) -> dict:
    base = tmp_path_factory.mktemp("grading")
    course, folder, outside = small_course(base / "course"), base / "submissions", base / "outside"
    folder.mkdir()
    outside.mkdir()
    kinds = submission_kinds(course, outside)
    for kind in KINDS:
        kinds[kind](folder)
    limits = Limits(cell_timeout=2, check_timeout=30, wall=25, memory_mb=2048, workers=2)
    out = base / "out" / "grades.csv"
    grades = grade_folder(folder, out, lesson="03", course=course, limits=limits, progress=False)
    rows = {row["student_id"]: row for row in csv.DictReader(out.open(encoding="utf-8"))}
    return {"grades": {g.student: g for g in grades}, "rows": rows, "out": out, "outside": outside}


def test_one_row_per_submission_with_nbgrader_and_otter_columns(graded) -> None:
    rows = graded["rows"]
    assert set(rows) == set(KINDS)
    first = next(iter(rows.values()))
    for column in ("student_id", "assignment", "raw_score", "score", "max_score",  # nbgrader
                   "file", "total", "possible", "percent_correct",  # otter-grader
                   "03.cut_at_stop", "status"):
        assert column in first


def test_complete_partial_and_empty(graded) -> None:
    rows = graded["rows"]
    assert (rows["complete"]["score"], rows["complete"]["max_score"], rows["complete"]["status"]) == (
        str(FULL), str(FULL), "graded")
    assert 0 < int(rows["partial"]["03.cut_at_stop"]) < FULL
    assert rows["empty"]["score"] == "0" and rows["empty"]["status"] == "graded"
    assert rows["complete"]["percent_correct"] == "1.0"


def test_hidden_cases_count(graded) -> None:
    """The grade includes cases the notebook never shows."""
    result = graded["grades"]["complete"].results[0]
    assert any(case.name.startswith("hidden case") for case in result.cases)


def test_cells_that_raise_cost_only_themselves(graded) -> None:
    """A syntax error, sys.exit(), a memory bomb, a write outside, the network, an infinite loop."""
    grade = graded["grades"]["hostile_cells"]
    assert grade.score == FULL and grade.status == "graded"
    names = [name for _, name in grade.errors]
    assert names == ["SyntaxError", "SystemExit", "MemoryError", "PermissionError",
                     "ConnectionRefusedError", "URLError", "KeyboardInterrupt"]
    assert list(graded["outside"].iterdir()) == []  # the write outside never happened


def test_a_dead_kernel_is_restarted_without_the_cell(graded) -> None:
    """os._exit() in code cell 2, a SIGKILL of the kernel in code cell 3: each skipped in turn."""
    grade = graded["grades"]["kernel_killers"]
    assert grade.score == FULL and grade.died == [2, 3]
    feedback = graded["out"].parent / "feedback" / "kernel_killers.md"
    assert "The kernel died in code cell(s) 2, 3" in feedback.read_text(encoding="utf-8")


def test_a_loop_that_ignores_interrupts_meets_the_wall_clock_limit(graded) -> None:
    assert graded["rows"]["stubborn_loop"]["status"] == "stopped after 25 s (the wall-clock limit)"
    assert graded["rows"]["stubborn_loop"]["score"] == "0"


def test_deleted_check_cells_are_graded_anyway(graded) -> None:
    assert graded["rows"]["deleted_checks"]["score"] == str(FULL)


def test_forgeries_earn_nothing_and_are_reported(graded) -> None:
    """A redefined check, a monkey-patched check/judge/CheckResult, a forged results file."""
    grade = graded["grades"]["forger"]
    assert grade.score == 0 and grade.status == "graded"
    assert "react_course.checks.check" in grade.tampered
    assert "react_course.checks.framework.judge" in grade.tampered
    assert graded["rows"]["forger"]["tampered"]


def test_the_answer_key_cannot_be_read(graded) -> None:
    grade = graded["grades"]["reads_solutions"]
    assert grade.score == 0 and [name for _, name in grade.errors] == ["PermissionError"]


def test_unreadable_submissions_get_a_status(graded) -> None:
    rows = graded["rows"]
    assert rows["another_lesson"]["status"] == "a notebook of lesson 01, not 03"
    assert rows["corrupt_json"]["status"].startswith("corrupt notebook: not valid JSON")
    assert rows["not_a_notebook"]["status"] == "not a notebook (not_a_notebook.txt)"
    assert all(rows[k]["score"] == "0" for k in ("another_lesson", "corrupt_json", "not_a_notebook"))


def test_near_copies_are_flagged_not_penalised(graded) -> None:
    rows = graded["rows"]
    assert rows["partial"]["similar_to"] == "partial_copy"
    assert rows["partial"]["score"] == rows["partial_copy"]["score"]
    summary = (graded["out"].parent / "summary.md").read_text(encoding="utf-8")
    assert "partial and partial_copy" in summary


def test_feedback_and_summary(graded) -> None:
    feedback = graded["out"].parent / "feedback"
    text = (feedback / "partial.md").read_text(encoding="utf-8")
    assert "## 03.cut_at_stop" in text and "FAIL" in text and "earliest" in text
    assert (feedback / "partial.html").read_text(encoding="utf-8").startswith("<!doctype html>")
    summary = (graded["out"].parent / "summary.md").read_text(encoding="utf-8")
    assert "| 03.cut_at_stop |" in summary
    assert '"Earliest means earliest in the text, not first in the list"' in summary


def test_the_submissions_folder_is_left_as_it_was(graded, tmp_path: Path) -> None:
    folder = graded["out"].parent.parent / "submissions"
    assert sorted(p.name for p in folder.iterdir()) == sorted(
        f"{k}.txt" if k == "not_a_notebook" else f"{k}.ipynb" for k in KINDS)
    assert json.loads((folder / "empty.ipynb").read_text(encoding="utf-8"))["cells"]
