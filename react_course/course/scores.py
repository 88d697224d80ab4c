"""``grade``, 5a: honest scores, computed in the grader's process from the handout and the registry.

- An exercise's points are its weight (``submissions.scoring``: 10 unless its heading
  says "(N points)") times the share of its case points passed; the share's
  denominator is the registry's maximum (``registry.maximum``), never the
  submission's own results, so a cell that does not compile scores 0 of 10, not
  1 of 1. Optional exercises have a column but stay outside the total.
- A code cell that does not compile is found here, before anything runs, and
  reported with its exercise, its line and Python's message.
- Cells are numbered as a reader counts them in JupyterLab: every cell of the
  notebook from the top, markdown included, starting at 1 ("cell 7 of 19").

What it leaves out: running the notebook (``grade_run.py``) and writing (``gradebook.py``).
"""

from __future__ import annotations

import dataclasses
import functools
import json
import re
from pathlib import Path
from typing import TYPE_CHECKING

from ..checks.framework import CaseResult, CheckResult
from .submissions import Handout, cell_source, exercise_headings

if TYPE_CHECKING:
    from .grade import Grade

_NUMBER = re.compile(r"^##\s+Exercise\s+(\d+\.\d+)", re.MULTILINE)


def exercise_points(grade: Grade, exercise_id: str) -> float:
    """Weight x earned / maximum, rounded to hundredths.

    >>> from react_course.course.grade import Grade
    >>> g = Grade("a", "a.ipynb", weights={"03.x": 10.0}, maximum={"03.x": 23})
    >>> exercise_points(g, "03.x")
    0.0
    """
    weight, maximum = grade.weights.get(exercise_id, 0.0), grade.maximum.get(exercise_id, 0)
    earned = next((r.points for r in grade.results if r.exercise == exercise_id), 0)
    return round(weight * min(earned, maximum) / maximum, 2) if maximum else 0.0


def _compiles(source: str) -> SyntaxError | None:
    try:
        from IPython.core.inputtransformer2 import TransformerManager

        source = TransformerManager().transform_cell(source)  # %magics and !commands as IPython runs them
    except ImportError:  # pragma: no cover - IPython comes with the kernel
        pass
    try:
        compile(source, "<cell>", "exec")
    except SyntaxError as error:
        return error
    except ValueError as error:  # a NUL byte in the source
        return SyntaxError(str(error))
    return None


def broken_cells(notebook: dict) -> list[dict]:
    """Each code cell that does not compile: its number (all cells), exercise, line and message.

    >>> cells = [{"cell_type": "markdown", "source": "## Exercise 3.2: A parser"},
    ...          {"cell_type": "code", "source": "def parse_step(text:\\n    pass"}]
    >>> broken_cells({"cells": cells})[0]["cell"], broken_cells({"cells": cells})[0]["exercise"]
    (2, '3.2')
    """
    found, exercise = [], ""
    for number, cell in enumerate(notebook.get("cells", []), start=1):
        if not isinstance(cell, dict):
            continue
        source = cell_source(cell)
        if cell.get("cell_type") == "markdown":
            match = _NUMBER.search(source)
            exercise = match[1] if match else exercise
        elif cell.get("cell_type") == "code":
            error = _compiles(source)
            if error is not None:
                found.append({"cell": number, "exercise": exercise, "line": error.lineno or 0,
                              "message": error.msg or str(error)})
    return found


@functools.cache
def _numbers(path: Path) -> dict[str, str]:
    """``"3.2"`` -> ``"03.parse_step"`` for a handout, from its headings."""
    notebook = json.loads(path.read_text(encoding="utf-8"))
    numbers = {}
    for exercise_id, heading in exercise_headings(notebook).items():
        match = _NUMBER.search(heading)
        if match:
            numbers[match[1]] = exercise_id
    return numbers


def explained(result: CheckResult, broken: list[dict], handout: Handout) -> CheckResult:
    """A result that says "not attempted" because its cell did not compile says so instead."""
    if result.status != "not attempted":
        return result
    numbers = _numbers(handout.path)
    mine = [b for b in broken if numbers.get(b["exercise"]) == result.exercise]
    if not mine:
        return result
    first = mine[0]
    case = CaseResult("the exercise's cell", "failed", 0, 1, given=f"cell {first['cell']}",
                      message=(f"cell {first['cell']} does not compile (line {first['line']}: "
                               f"{first['message']}), so nothing of exercise {first['exercise']} "
                               "was defined"),
                      hint="Run the cell in JupyterLab: Python shows the line; fix it and run it again.")
    return dataclasses.replace(result, cases=(case,))
