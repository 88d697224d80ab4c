"""``react-course progress`` and ``reset``: a student's own results, and a notebook as handed out."""

from __future__ import annotations

import datetime as dt
import json
import shutil
from pathlib import Path

import pytest

from react_course.course.cli import main
from react_course.course.progress import marks_in, report, reset

ROOT = Path(__file__).resolve().parents[1]
LESSON = "03_parsing_and_stops.ipynb"


@pytest.fixture
def course(tmp_path: Path) -> Path:
    for folder in ("solutions", "exercises"):
        (tmp_path / folder).mkdir()
        shutil.copy(ROOT / folder / LESSON, tmp_path / folder / LESSON)
    (tmp_path / "notebooks").mkdir()
    shutil.copy(ROOT / "notebooks" / "00_start_here.ipynb", tmp_path / "notebooks")
    return tmp_path


def _show(course: Path, exercise_id: str, summary: str) -> None:
    """Put a check cell's output into the student's exercise notebook, as running it would."""
    path = course / "exercises" / LESSON
    notebook = json.loads(path.read_text(encoding="utf-8"))
    cell = next(c for c in notebook["cells"] if f'check("{exercise_id}"' in "".join(c["source"]))
    cell["outputs"] = [{"output_type": "execute_result", "execution_count": 1, "metadata": {},
                        "data": {"text/plain": [summary + "\n", "  PASS  a case"]}}]
    path.write_text(json.dumps(notebook), encoding="utf-8")


def test_marks_come_from_the_last_check_output() -> None:
    notebook = json.loads((ROOT / "notebooks" / "00_start_here.ipynb").read_text(encoding="utf-8"))
    marks = marks_in(notebook)
    assert [(m.exercise, m.status, m.points, m.max_points) for m in marks.values()] == [
        ("00.first_check", "passed", 1, 1)]


def test_report_lists_each_exercise_and_the_next_thing_to_do(course: Path) -> None:
    _show(course, "03.cut_at_stop", "Check 03.cut_at_stop (keep the text): all passed [16/16 points]")
    _show(course, "03.parse_step", "Check 03.parse_step (a parser): 20 of 33 cases passed [20/33 points]")
    text = report(course)
    assert "Lesson 03 (exercises/03_parsing_and_stops.ipynb): 1/4 passed" in text
    assert "  passed        03.cut_at_stop [16/16 points]" in text
    assert "  failed        03.parse_step [20/33 points]" in text
    assert "  not started   03.read_reply" in text
    assert text.endswith("Next: fix exercise 03.parse_step in exercises/03_parsing_and_stops.ipynb.")


def test_a_results_file_adds_what_the_notebook_does_not_show(course: Path, monkeypatch) -> None:
    results = course / "results.jsonl"
    results.write_text('{"exercise": "03.read_reply", "status": "passed", "points": 10, "max_points": 10}\n'
                       "not json\n", encoding="utf-8")
    monkeypatch.setenv("REACT_COURSE_RESULTS", str(results))
    assert "  passed        03.read_reply [10/10 points]" in report(course)


def test_reset_restores_the_handout_and_keeps_a_dated_copy(course: Path) -> None:
    handed_out = (course / "exercises" / LESSON).read_text(encoding="utf-8")
    _show(course, "03.cut_at_stop", "Check 03.cut_at_stop (x): all passed [16/16 points]")
    mine = (course / "exercises" / LESSON).read_text(encoding="utf-8")
    target, backup = reset("3", course, now=dt.datetime(2026, 12, 1, 10, 15))
    assert target.read_text(encoding="utf-8") == handed_out
    assert backup == course / "exercises" / ".backups" / "03_parsing_and_stops-2026-12-01-101500.ipynb"
    assert backup.read_text(encoding="utf-8") == mine


def test_reset_names_the_lessons_it_knows(course: Path) -> None:
    with pytest.raises(ValueError, match="lessons with exercises: 03"):
        reset("42", course)


def test_cli_progress_and_reset(monkeypatch, capsys, course: Path) -> None:
    monkeypatch.setattr("react_course.course.progress.course_root", lambda: course)
    assert main(["progress"]) == 0
    assert "Next: do exercise 00.first_check" not in capsys.readouterr().out
    assert main(["reset", "99"]) == 2
    assert "no exercise notebook for lesson '99'" in capsys.readouterr().err
