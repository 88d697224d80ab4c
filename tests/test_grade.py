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
from grading_submissions import BOMB, DAEMON, small_course, submission_kinds

from react_course.course import registry, sandbox
from react_course.course.grade import Limits, grade_folder

pytestmark = pytest.mark.slow
KINDS = ("complete", "partial", "partial_copy", "empty", "kernel_killers", "deleted_checks",
         "reads_solutions", "hostile_cells", "forger", "stubborn_loop", "another_lesson",
         "corrupt_json", "not_a_notebook", "guard_breakers", "syntax_in_exercise", "browser_handin",
         "always_equal", "grader_replaced", "escapes")
FULL = 10.0  # 03.cut_at_stop's gradebook points (its heading states none: 10)
CASES = 24  # its case points: its cases, its generated comparison and its hidden cases
SANDBOX = sandbox.detect()


@pytest.fixture(scope="module")
def graded(tmp_path_factory: pytest.TempPathFactory) -> dict:
    base = tmp_path_factory.mktemp("grading")
    course, folder, outside = small_course(base / "course"), base / "submissions", base / "outside"
    folder.mkdir()
    outside.mkdir()
    kinds = submission_kinds(course, outside, folder)
    for kind in KINDS:
        kinds[kind](folder)
    limits = Limits(cell_timeout=10, check_timeout=60, wall=90, memory_mb=2048, workers=2)
    out = base / "out" / "grades.csv"
    grades = grade_folder(folder, out, lesson="03", course=course, limits=limits, progress=False)
    rows = {row["student_id"]: row for row in csv.DictReader(out.open(encoding="utf-8-sig"))}
    return {"grades": {g.student: g for g in grades}, "rows": rows, "out": out, "outside": outside}


def test_one_row_per_submission_with_nbgrader_and_otter_columns(graded) -> None:
    rows = graded["rows"]
    assert set(rows) == set(KINDS)
    first = next(iter(rows.values()))
    for column in ("student_id", "assignment", "raw_score", "score", "max_score",  # nbgrader
                   "file", "percent_correct", "03.cut_at_stop", "status", "sandbox"):
        assert column in first
    assert {row["sandbox"] for row in rows.values()} == {SANDBOX.label}
    assert out_bytes(graded).startswith(b"\xef\xbb\xbf")  # the BOM Excel needs for UTF-8


def out_bytes(graded) -> bytes:
    return graded["out"].read_bytes()


def test_the_maximum_comes_from_the_registry_not_the_submission(graded) -> None:
    """A cell that does not compile scores 0 of 10 (not 1 of 1), and says where and why."""
    assert registry.maximum("03.cut_at_stop") == CASES
    row = graded["rows"]["syntax_in_exercise"]
    assert (float(row["score"]), float(row["max_score"])) == (0.0, FULL)
    text = (graded["out"].parent / "feedback" / "03" / "syntax_in_exercise.md").read_text(encoding="utf-8")
    assert "does not compile" in text and "exercise 3.1" in text and "not attempted yet" not in text


def test_complete_partial_and_empty(graded) -> None:
    rows = graded["rows"]
    assert (float(rows["complete"]["score"]), float(rows["complete"]["max_score"]),
            rows["complete"]["status"]) == (FULL, FULL, "graded")
    assert 0 < float(rows["partial"]["03.cut_at_stop"]) < FULL
    assert float(rows["empty"]["score"]) == 0 and rows["empty"]["status"] == "graded"
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


def test_the_guards_old_holes_are_closed(graded) -> None:
    """UDP sendmsg past loopback, a kill of the grader, a hard link to the key, ctypes' system()."""
    grade = graded["grades"]["guard_breakers"]
    assert grade.score == FULL and grade.status == "graded"
    assert [name for _, name in grade.errors] == ["ConnectionRefusedError", "PermissionError",
                                                  "PermissionError", "PermissionError"]


def test_values_that_lie_and_replaced_graders_earn_nothing(graded) -> None:
    """An answer whose __eq__ is always true; the guard module, check's code, json.dumps and a hook replaced.

    3.1's inputs are plain data, so its check and the key run in the grader's process:
    the kernel only answers, and an answer that is not plain data is a wrong answer. A
    kernel whose ``json.dumps`` is replaced cannot even talk to Jupyter: it gets a status.
    """
    grade = graded["grades"]["always_equal"]
    assert grade.score == 0 and grade.compared_here == ["03.cut_at_stop"]
    assert graded["grades"]["grader_replaced"].score == 0
    text = (graded["out"].parent / "feedback" / "03" / "always_equal.md").read_text(encoding="utf-8")
    assert "not plain data" in text
    assert graded["grades"]["complete"].compared_here == ["03.cut_at_stop"]


def test_what_a_submission_starts_ends_with_it_and_classmates_stay_unlisted(graded) -> None:
    """A daemon in its own session, a bounded fork bomb (both with ``_posixsubprocess.fork_exec``,
    which raises no audit event) and ``os.listdir`` of the submissions folder.

    In the sandbox the process limit stops the bomb and the pid namespace ends the daemon;
    unsandboxed the grading process adopts the orphans and ends them. The submissions folder
    is not in the sandbox at all; unsandboxed the audit hook refuses to list it.
    """
    grade = graded["grades"]["escapes"]
    assert grade.score == FULL and grade.status == "graded"
    names = [name for _, name in grade.errors]
    assert "AssertionError" not in names  # the listing would have shown a classmate's notebook
    assert ("FileNotFoundError" if SANDBOX.kind else "PermissionError") in names
    if SANDBOX.kind:
        assert "BlockingIOError" in names  # the process limit (RLIMIT_NPROC) in the child
    assert _left_running(DAEMON, BOMB) == []


def _left_running(*markers: str) -> list[int]:
    """The processes whose command line holds a marker (killed here, so none outlives the test)."""
    import psutil

    found = []
    for process in psutil.process_iter(["cmdline", "status"]):
        line = " ".join(process.info["cmdline"] or ())
        if any(marker in line for marker in markers) and process.info["status"] != psutil.STATUS_ZOMBIE:
            found.append(process.pid)
            process.kill()
    return found


def test_the_browser_install_cell_is_skipped(graded) -> None:
    grade = graded["grades"]["browser_handin"]
    assert (grade.score, grade.errors) == (FULL, [])


def test_a_dead_kernel_is_restarted_without_the_cell(graded) -> None:
    """os._exit() in one cell, a SIGKILL of the kernel in the next: each skipped in turn.

    Cells are numbered among all cells from 1, markdown included, as a reader counts them.
    """
    grade = graded["grades"]["kernel_killers"]
    notebook = json.loads((graded["out"].parent.parent / "submissions" / "kernel_killers.ipynb").read_text(
        encoding="utf-8"))
    numbers = [n for n, cell in enumerate(notebook["cells"], start=1)
               if "os._exit" in "".join(cell["source"]) or "SIGKILL" in "".join(cell["source"])]
    assert grade.score == FULL and grade.died == numbers and len(numbers) == 2
    feedback = graded["out"].parent / "feedback" / "03" / "kernel_killers.md"
    assert f"The kernel died in cell(s) {numbers[0]}, {numbers[1]}" in feedback.read_text(encoding="utf-8")


def test_a_loop_that_ignores_interrupts_meets_the_wall_clock_limit(graded) -> None:
    assert graded["rows"]["stubborn_loop"]["status"] == "stopped after 90 s (the wall-clock limit)"
    assert float(graded["rows"]["stubborn_loop"]["score"]) == 0


def test_deleted_check_cells_are_graded_anyway(graded) -> None:
    assert float(graded["rows"]["deleted_checks"]["score"]) == FULL


def test_forgeries_earn_nothing_and_are_reported(graded) -> None:
    """A redefined check, a monkey-patched check/judge/CheckResult, a forged results file."""
    grade = graded["grades"]["forger"]
    assert grade.score == 0 and grade.status == "graded"
    assert "react_course.checks.check" in grade.tampered
    assert "react_course.checks.framework.judge" in grade.tampered
    assert graded["rows"]["forger"]["tampered"]


def test_the_answer_key_cannot_be_read(graded) -> None:
    grade = graded["grades"]["reads_solutions"]
    # in the sandbox solutions/ is an empty folder; without one, the audit hook refuses the read
    refused = "FileNotFoundError" if SANDBOX.kind else "PermissionError"
    assert grade.score == 0 and [name for _, name in grade.errors] == [refused]


def test_unreadable_submissions_get_a_status(graded) -> None:
    rows = graded["rows"]
    assert rows["another_lesson"]["status"] == "a notebook of lesson 01, not 03"
    assert rows["corrupt_json"]["status"].startswith("corrupt notebook: not valid JSON")
    assert rows["not_a_notebook"]["status"] == "not a notebook (not_a_notebook.txt)"
    assert all(float(rows[k]["score"]) == 0 for k in ("another_lesson", "corrupt_json", "not_a_notebook"))


def test_near_copies_are_flagged_not_penalised(graded) -> None:
    rows = graded["rows"]
    assert rows["partial"]["similar_to"] == "partial_copy"
    assert rows["partial"]["score"] == rows["partial_copy"]["score"]
    summary = (graded["out"].parent / "summary-03.md").read_text(encoding="utf-8")
    assert "partial and partial_copy" in summary
    feedback = (graded["out"].parent / "feedback" / "03" / "partial.md").read_text(encoding="utf-8")
    assert "identical" not in feedback  # the student is not told before the instructor looks


def test_feedback_and_summary(graded) -> None:
    feedback = graded["out"].parent / "feedback" / "03"
    text = (feedback / "partial.md").read_text(encoding="utf-8")
    assert "## 03.cut_at_stop" in text and "FAIL" in text and "earliest" in text
    assert (feedback / "partial.html").read_text(encoding="utf-8").startswith("<!doctype html>")
    summary = (graded["out"].parent / "summary-03.md").read_text(encoding="utf-8")
    assert "| 03.cut_at_stop |" in summary
    assert '"Earliest means earliest in the text, not first in the list"' in summary


def test_the_submissions_folder_is_left_as_it_was(graded, tmp_path: Path) -> None:
    folder = graded["out"].parent.parent / "submissions"
    assert sorted(p.name for p in folder.iterdir()) == sorted(
        f"{k}.txt" if k == "not_a_notebook" else f"{k}.ipynb" for k in KINDS)
    assert json.loads((folder / "empty.ipynb").read_text(encoding="utf-8"))["cells"]
