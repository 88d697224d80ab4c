"""Notebooks as a student meets them.

Lessons are compared output for output by nbval (collected from notebooks/).
Here: solutions pass every check in strict mode, exercises run top to bottom
with every check "not attempted", exercises/ is what the generator writes,
and every notebook is in its committed state (lessons executed in order,
solutions and exercises clean) on the course's kernel.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import nbformat
import pytest

from react_course.course.authoring import KERNEL_NAME, build_exercises, execute_notebook

ROOT = Path(__file__).resolve().parent.parent
LESSONS = sorted((ROOT / "notebooks").glob("*.ipynb"))
SOLUTIONS = sorted((ROOT / "solutions").glob("*.ipynb"))
EXERCISES = sorted((ROOT / "exercises").glob("*.ipynb"))


def names(paths: list[Path]) -> list[str]:
    return [p.name for p in paths]


def read(path: Path) -> nbformat.NotebookNode:
    return nbformat.read(path, as_version=4)


def test_every_lesson_after_00_has_solutions_and_exercises() -> None:
    assert LESSONS, "no lessons yet"
    for lesson in LESSONS[1:]:
        assert (ROOT / "solutions" / lesson.name).exists(), f"solutions/{lesson.name} is missing"
    assert names(SOLUTIONS) == names(EXERCISES)


def test_exercises_are_generated_from_solutions() -> None:
    changed = build_exercises(ROOT / "solutions", ROOT / "exercises", check=True)
    assert changed == [], f"run `react-course build-exercises`: {changed} differ"


@pytest.mark.parametrize("path", LESSONS, ids=names(LESSONS))
def test_lesson_is_committed_executed_in_order(path: Path) -> None:
    notebook = read(path)
    assert notebook.metadata.kernelspec.name == KERNEL_NAME
    counts = [c.execution_count for c in notebook.cells if c.cell_type == "code"]
    assert counts == list(range(1, len(counts) + 1)), "re-run it: react-course execute " + path.name
    errors = [o for c in notebook.cells if c.cell_type == "code" for o in c.outputs
              if o.output_type == "error"]
    assert not errors


@pytest.mark.parametrize("path", LESSONS, ids=names(LESSONS))
def test_lesson_opens_with_goal_and_ends_with_summary(path: Path) -> None:
    markdown = [c.source for c in read(path).cells if c.cell_type == "markdown"]
    opening, closing = markdown[0], "\n".join(markdown[-2:])
    for word in ("Goal", "Prerequisites", "Time"):
        assert word in opening, f"the first cell should state the {word.lower()}"
    assert "Summary" in closing
    if path.name[:2] != "00":
        assert f"exercises/{path.name}" in closing, "end with a pointer to the exercise notebook"


@pytest.mark.parametrize("path", SOLUTIONS + EXERCISES,
                         ids=[f"{p.parent.name}/{p.name}" for p in SOLUTIONS + EXERCISES])
def test_solutions_and_exercises_are_committed_clean(path: Path) -> None:
    notebook = read(path)
    assert notebook.metadata.kernelspec.name == KERNEL_NAME
    for cell in notebook.cells:
        if cell.cell_type == "code":
            assert cell.execution_count is None and cell.outputs == [], "commit it without outputs"


def run_with_results(path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                     strict: bool) -> list[dict]:
    results = tmp_path / "results.jsonl"
    monkeypatch.setenv("REACT_COURSE_RESULTS", str(results))
    if strict:
        monkeypatch.setenv("REACT_COURSE_STRICT", "1")
    execute_notebook(path, save=False)  # raises CellExecutionError on any traceback
    return [json.loads(line) for line in results.read_text().splitlines()] if results.exists() else []


def check_calls(path: Path) -> set[str]:
    sources = "\n".join(c.source for c in read(path).cells if c.cell_type == "code")
    return set(re.findall(r"check\(\s*[\"'](\d\d\.\w+)[\"']", sources))


@pytest.mark.slow
@pytest.mark.parametrize("path", SOLUTIONS, ids=names(SOLUTIONS))
def test_solution_passes_every_check_strictly(path: Path, tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    results = run_with_results(path, tmp_path, monkeypatch, strict=True)
    expected = check_calls(path)
    assert expected, "a solution notebook without checks"
    assert {r["exercise"] for r in results} == expected
    assert all(r["status"] == "passed" for r in results), results


@pytest.mark.slow
@pytest.mark.parametrize("path", EXERCISES, ids=names(EXERCISES))
def test_exercise_runs_top_to_bottom_with_nothing_attempted(path: Path, tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    results = run_with_results(path, tmp_path, monkeypatch, strict=False)
    assert {r["exercise"] for r in results} == check_calls(path)
    not_yet = [r["exercise"] for r in results if r["status"] != "not attempted"]
    assert not not_yet, f"these checks pass or fail before the student wrote anything: {not_yet}"
