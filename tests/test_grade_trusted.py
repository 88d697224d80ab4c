"""The comparison in the grader's process: lessons 03 and 09 graded from their real notebooks.

The solutions score full marks with every exercise of ``registry.COMPARED_IN_GRADER``
compared in the grader (the kernel only answering), as they do checked in the kernel;
the handed-out notebooks score nothing; 3.3 (handed a model) is still checked in the kernel.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from react_course.course.grade import Limits, grade_folder
from react_course.course.registry import COMPARED_IN_GRADER

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parents[1]
LESSONS = ("03_parsing_and_stops.ipynb", "09_evaluation_and_tracing.ipynb")
LIE = """class Yes(float):
    def __eq__(self, other):
        return True
    __hash__ = float.__hash__


def success_rate(runs):
    return Yes(1.0)
"""


@pytest.fixture(scope="module")
def grades(tmp_path_factory: pytest.TempPathFactory) -> dict:
    folder = tmp_path_factory.mktemp("trusted") / "submissions"
    folder.mkdir()
    for name in LESSONS:
        shutil.copy(ROOT / "solutions" / name, folder / f"solved_{name}")
        shutil.copy(ROOT / "exercises" / name, folder / f"empty_{name}")
    notebook = json.loads((ROOT / "exercises" / LESSONS[1]).read_text(encoding="utf-8"))
    for cell in notebook["cells"]:
        if "def success_rate" in "".join(cell["source"]):
            cell["source"] = LIE
    (folder / f"lying_{LESSONS[1]}").write_text(json.dumps(notebook), encoding="utf-8")
    limits = Limits(cell_timeout=30, check_timeout=120, wall=300, workers=2)
    graded = grade_folder(folder, folder.parent / "out" / "grades.csv", limits=limits, progress=False)
    return {g.file.split("_", 1)[0] + g.lesson: g for g in graded}


def test_the_solutions_score_full_marks_compared_in_the_grader(grades) -> None:
    for lesson in ("03", "09"):
        grade = grades[f"solved{lesson}"]
        assert grade.status == "graded" and grade.score == grade.max_score > 0, lesson
        wanted = sorted(e for e in grade.weights if e in COMPARED_IN_GRADER)
        assert grade.compared_here == wanted and wanted, lesson
    assert "03.call_with_stops" not in grades["solved03"].compared_here  # handed a model: in the kernel


def test_the_handouts_score_nothing(grades) -> None:
    assert grades["empty03"].score == grades["empty09"].score == 0


def test_a_value_whose_eq_always_agrees_is_a_wrong_answer(grades) -> None:
    assert grades["lying09"].points["09.success_rate"] == 0
