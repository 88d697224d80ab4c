"""Exercise generation from solution markers."""

from __future__ import annotations

from pathlib import Path

import pytest

from react_course.course.authoring import (
    MarkerError,
    build_exercises,
    make_exercise,
    new_notebook,
    strip_source,
)

ROOT = Path(__file__).resolve().parent.parent


def test_block_becomes_a_numbered_stub() -> None:
    source = ("def parse(text: str):\n    '''Doc.'''\n    # BEGIN SOLUTION parse the reply\n"
              "    return text.strip()\n    # END SOLUTION\n\ncheck('03.parse', parse)")
    assert strip_source(source, "3.2") == (
        "def parse(text: str):\n    '''Doc.'''\n"
        "    raise NotImplementedError('exercise 3.2: parse the reply')\n\ncheck('03.parse', parse)")


def test_default_stub_message() -> None:
    assert strip_source("# BEGIN SOLUTION\nx = 1\n# END SOLUTION", "1.1") == \
        "raise NotImplementedError('exercise 1.1: write your code here')"


@pytest.mark.parametrize("source", ["# BEGIN SOLUTION\nx = 1", "x = 1\n# END SOLUTION",
                                    "# BEGIN SOLUTION\n# BEGIN SOLUTION\n# END SOLUTION"])
def test_broken_markers_are_authoring_errors(source: str) -> None:
    with pytest.raises(MarkerError):
        strip_source(source, "1.1")


def test_make_exercise_numbers_from_headings_drops_solution_cells_and_clears_outputs() -> None:
    notebook = new_notebook([
        ("md", "# Lesson 9 exercises"),
        ("md:solution", "These are the solutions."),
        ("md", "## Exercise 9.1: square"),
        ("code", "def f(x: int):\n    # BEGIN SOLUTION\n    return x * x\n    # END SOLUTION"),
        ("md", "## Exercise 9.2: a number"),
        ("code", "answer = 4  # SOLUTION"),
    ])
    notebook.cells[3].outputs = [{"output_type": "stream", "name": "stdout", "text": "x"}]
    notebook.cells[3].execution_count = 3
    exercise = make_exercise(notebook)
    sources = [c.source for c in exercise.cells]
    assert "These are the solutions." not in sources
    assert "raise NotImplementedError('exercise 9.1: write your code here')" in sources[2]
    assert sources[4] == "answer = ..."
    assert exercise.cells[2].outputs == [] and exercise.cells[2].execution_count is None
    assert exercise.metadata.kernelspec.name == "react-course"


def test_the_answer_key_banner_is_dropped_and_no_exercise_mentions_it() -> None:
    notebook = new_notebook([
        ("md", "# Lesson 9 exercises"),
        ("md", "**Answer key.** This is the solved version of `exercises/09.ipynb`."),
        ("md", "**This is the answer key:** every exercise is solved here."),
        ("md", "## Exercise 9.1: square"),
    ])
    assert [c.source for c in make_exercise(notebook).cells] == [
        "# Lesson 9 exercises", "## Exercise 9.1: square"]
    notebook.cells.append(new_notebook([("md", "The check compares it with the answer key.")]).cells[0])
    assert len(make_exercise(notebook).cells) == 3  # a statement may name the key it is compared with
    notebook.cells.append(new_notebook([("md", "Answer key: the solved version is below.")]).cells[0])
    with pytest.raises(MarkerError, match="answer key"):
        make_exercise(notebook)


def test_no_committed_exercise_mentions_the_answer_key() -> None:
    found = [path.name for path in sorted((ROOT / "exercises").glob("*.ipynb"))
             if any(words in path.read_text(encoding="utf-8")
                    for words in ("Answer key", "This is the answer key", "the solved version"))]
    assert not found, f"these exercise notebooks call themselves the answer key: {found}"


def test_build_writes_then_reports_drift(tmp_path) -> None:
    from react_course.course.authoring import notebook_text

    solutions, exercises = tmp_path / "solutions", tmp_path / "exercises"
    solutions.mkdir()
    notebook = new_notebook([("md", "## Exercise 1.1"), ("code", "x = 1  # SOLUTION")])
    (solutions / "01_a.ipynb").write_text(notebook_text(notebook))
    assert build_exercises(solutions, exercises, check=True) == ["01_a.ipynb"]
    assert build_exercises(solutions, exercises) == ["01_a.ipynb"]
    assert build_exercises(solutions, exercises, check=True) == []
    (exercises / "01_a.ipynb").write_text("edited by hand")
    assert build_exercises(solutions, exercises, check=True) == ["01_a.ipynb"]
    (exercises / "02_orphan.ipynb").write_text("{}")
    assert "02_orphan.ipynb (no solution)" in build_exercises(solutions, exercises, check=True)


@pytest.mark.slow
def test_execute_saves_one_stream_per_cell(tmp_path) -> None:
    from react_course.course.authoring import execute_notebook, notebook_text

    # The kernel sends what was printed every so often, so one cell's text can
    # arrive in pieces that differ run to run; saved, it must be one output.
    source = "import time\nfor i in range(2):\n    print('part', i)\n    time.sleep(0.3)"
    path = tmp_path / "printing.ipynb"
    path.write_text(notebook_text(new_notebook([("code", source)])))
    outputs = execute_notebook(path).cells[0].outputs
    assert [(o.output_type, o.text) for o in outputs] == [("stream", "part 0\npart 1\n")]
