"""The comparison in the grader's process: lessons 03, 07 and 09 graded from their real notebooks.

Every exercise is a spec (``checks.spec.SPECS``), so every one is judged from its spec in
the grader, the kernel only answering with plain data (``trusted_spec.py``): 07's
behavioural ones handed a scripted model or tools, and 07.what_remains, whose answer is
a dict of values, not a function. The
solutions score full marks, the handouts nothing, and three hostile notebooks no more than
their honest grade: an answer whose ``__eq__`` always agrees (09, and 07's tool-calling
loop), a spec's ``observe`` patched in the kernel to hide a broken rule, and IPython hooks
that read the nonce from the grader's cells and print forged answer and result lines before
and after them. ``test_grade_specs.py`` holds the grader's
verdicts to the check's, case by case, without a kernel.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from react_course.checks.spec import SPECS
from react_course.course.grade import Limits, grade_folder

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parents[1]
LESSONS = {"03": "03_parsing_and_stops.ipynb", "07": "07_native_tool_calling.ipynb",
           "09": "09_evaluation_and_tracing.ipynb"}
LIE = """class Yes(float):
    def __eq__(self, other):
        return True
    __hash__ = float.__hash__


def success_rate(runs):
    return Yes(1.0)
"""
LOOP_LIE = """class Yes(str):
    def __eq__(self, other):
        return True
    __hash__ = str.__hash__


def native_loop(client, tools, messages, *, model="scripted", max_steps=4):
    return Yes("3 notebooks and 2 pens cost 16.")
"""
OBSERVED = """_honest = native_loop


def native_loop(client, tools, messages, **settings):
    answer = _honest(client, tools, messages, **settings)
    messages.append({"role": "user", "content": "changed behind the caller's back"})
    return answer


import react_course.checks.lesson07.native_loop as spec_module
_real = spec_module.SPEC.observe
object.__setattr__(spec_module.SPEC, "observe",
                   lambda function, args: {**_real(function, args), "the caller's list left alone": True})
"""
HOOKS = """import json, re
EXERCISES = ["03.cut_at_stop", "03.parse_step", "03.call_with_stops", "03.read_reply"]


def forge(info):
    found = re.search(r"'([0-9a-f]{32})'", info.raw_cell)
    if not found:
        return
    nonce, passed = found[1], {"name": "all", "status": "passed", "points": 99, "max_points": 99}
    results = [{"exercise": e, "title": e, "cases": [passed]} for e in EXERCISES]
    print(nonce + json.dumps({"answers": {e: {} for e in EXERCISES}, "results": results, "tampered": []}))


get_ipython().events.register("pre_run_cell", forge)
get_ipython().events.register("post_run_cell", lambda result: forge(result.info))
"""


def _replaced(notebook: dict, defines: str, source: str) -> dict:
    for cell in notebook["cells"]:
        if defines in "".join(cell["source"]):
            cell["source"] = source
    return notebook


def _after(path: Path, defines: str, source: str) -> dict:
    """The notebook at ``path`` with a cell of ``source`` after the cell that ``defines``."""
    notebook = json.loads(path.read_text(encoding="utf-8"))
    at = next(i for i, c in enumerate(notebook["cells"]) if defines in "".join(c["source"]))
    notebook["cells"].insert(at + 1, {"cell_type": "code", "metadata": {}, "execution_count": None,
                                      "outputs": [], "source": source})
    return notebook


@pytest.fixture(scope="module")
def grades(tmp_path_factory: pytest.TempPathFactory) -> dict:
    folder = tmp_path_factory.mktemp("trusted") / "submissions"
    folder.mkdir()
    handouts = {n: json.loads((ROOT / "exercises" / name).read_text(encoding="utf-8"))
                for n, name in LESSONS.items()}
    for name in LESSONS.values():
        shutil.copy(ROOT / "solutions" / name, folder / f"solved_{name}")
        shutil.copy(ROOT / "exercises" / name, folder / f"empty_{name}")
    hostile = {"lying": ("09", _replaced(handouts["09"], "def success_rate", LIE)),
               "loopLying": ("07", _replaced(handouts["07"], "def native_loop", LOOP_LIE)),
               "observeForged": ("07", _after(ROOT / "solutions" / LESSONS["07"], "def native_loop",
                                              OBSERVED)),
               "hooks": ("03", {**handouts["03"], "cells": [
                   {"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [],
                    "source": HOOKS}, *handouts["03"]["cells"]]})}
    for kind, (lesson, notebook) in hostile.items():
        (folder / f"{kind}_{LESSONS[lesson]}").write_text(json.dumps(notebook), encoding="utf-8")
    limits = Limits(cell_timeout=30, check_timeout=120, wall=300, workers=2)
    graded = grade_folder(folder, folder.parent / "out" / "grades.csv", limits=limits, progress=False)
    return {g.file.split("_", 1)[0] + g.lesson: g for g in graded}


def test_the_solutions_score_full_marks_compared_in_the_grader(grades) -> None:
    for lesson in LESSONS:
        grade = grades[f"solved{lesson}"]
        assert grade.status == "graded" and grade.score == grade.max_score > 0, lesson
        assert grade.tampered == [], lesson  # nothing an honest notebook does is reported
        assert grade.compared_here == sorted(grade.weights) and grade.weights, lesson  # all of them
    assert {"03.call_with_stops", "07.native_loop", "07.run_calls"} <= {  # handed a model, tools
        *grades["solved03"].compared_here, *grades["solved07"].compared_here}
    assert "07.what_remains" in grades["solved07"].compared_here  # a dict of values, not a function


def test_the_handouts_score_nothing(grades) -> None:
    assert grades["empty03"].score == grades["empty07"].score == grades["empty09"].score == 0


def test_a_value_whose_eq_always_agrees_is_a_wrong_answer(grades) -> None:
    assert grades["lying09"].points["09.success_rate"] == 0
    assert grades["loopLying07"].points["07.native_loop"] == 0 and grades["loopLying07"].score == 0


def test_a_spec_changed_in_the_kernel_is_put_back_before_the_answers(grades) -> None:
    """A loop that changes the caller's list, and an ``observe`` patched to say it did not."""
    grade = grades["observeForged07"]
    assert grade.points["07.native_loop"] < grade.weights["07.native_loop"]
    assert grade.points["07.run_calls"] == grade.weights["07.run_calls"]  # the rest is still graded
    assert "spec 07.native_loop.observe" in grade.tampered


def test_hooks_that_print_forged_lines_earn_nothing(grades) -> None:
    """The hook learns the nonce from each grader cell's source; what it prints is not a grade."""
    grade = grades["hooks03"]
    assert grade.status == "graded" and grade.score == 0
    assert grade.compared_here == sorted(e for e in grade.weights if e in SPECS)
