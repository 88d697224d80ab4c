"""The browser edition's rules for real, in Pyodide: run by ``lite/node/run.mjs``, not by pytest.

    node lite/node/run.mjs --course . tests/pyodide_browser_mode.py .

``tests/test_lite_node.py`` runs it, after its notebooks in one of its Node processes,
once ``lite/_site/pyodide`` is built. It checks, in Pyodide under Node: no fork
(the 9 ** 9 ** 9 probe skipped, with its reason), the long sum of check 04.strict_calculate (the tab's stack
cannot parse 6,000 terms), check 07.run_calls with the solution's own
``ThreadPoolExecutor``, the library's parallel paths without threads, the notes
said once, and progress, results and the hand-in zip on a drive at ``/drive``.
"""

from __future__ import annotations

import ast
import io
import json
import math
import operator
import os
import shutil
import sys
import zipfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path


def solution(root: Path, notebook: str, marker: str) -> dict:
    """The namespace of the solution cell that holds ``marker``, run on its own."""
    cells = json.loads((root / "solutions" / notebook).read_text(encoding="utf-8"))["cells"]
    code = next("".join(c["source"]) for c in cells
                if c["cell_type"] == "code" and marker in "".join(c["source"]))
    space = {"ast": ast, "math": math, "operator": operator, "json": json,
             "ThreadPoolExecutor": ThreadPoolExecutor}
    exec(code, space)
    return space


def checks(root: Path) -> None:
    from react_course import calculator
    from react_course.checks import check
    from react_course.checks.lesson04 import _isolated

    assert not _isolated.can_fork()
    strict = solution(root, "04_tools_and_observations.ipynb", "def strict_calculate")["strict_calculate"]
    result = check("04.strict_calculate", strict)
    assert result.passed and any("skipped in the browser" in c.name for c in result.cases), str(result)
    for text in (" + ".join(["1"] * 6000), "-" * 10000 + "1", "(" * 5000 + "1" + ")" * 5000, "-" * 299 + "1"):
        assert calculator.calculate(text).startswith("Error: "), text
    run_calls = solution(root, "07_native_tool_calling.ipynb", "def run_calls")["run_calls"]
    result = check("07.run_calls", run_calls)
    assert result.passed and any("not checked in the browser" in c.name for c in result.cases), str(result)


def library() -> None:
    from react_course import default_tools, demo_model, run_react
    from react_course.evaluate.runner import run_eval
    from react_course.evaluate.tasks import load_tasks
    from react_course.lessons.demo import WORKED_EXAMPLES

    assert len(run_eval(tasks=load_tasks()[:4], workers=4)) == 4
    for _ in range(2):  # the notes for a tool call and a model call, once each
        assert run_react(WORKED_EXAMPLES[0], demo_model(), default_tools()).end_reason == "final_answer"


def drive(root: Path) -> None:
    from react_course.checks import check
    from react_course.course import doctor, handin, progress
    from react_course.web import browser

    for folder in ("notebooks", "exercises"):
        shutil.copytree(root / folder, browser.DRIVE / folder, dirs_exist_ok=True)
    os.chdir(browser.DRIVE / "exercises")
    check("00.first_check", 4)
    assert "passed        00.first_check" in progress.report()
    assert (browser.DRIVE / browser.RESULTS_NAME).exists()
    assert all(f.ok for f in doctor.diagnose())
    names = zipfile.ZipFile(io.BytesIO(handin.handin_zip("Ana Lima"))).namelist()
    assert "04_tools_and_observations/Ana_Lima.ipynb" in names and "results/Ana_Lima.jsonl" in names


def main() -> None:
    from react_course.web import browser

    assert browser.IN_BROWSER and not browser.threads_work(), "run this in Pyodide"
    root = Path(sys.argv[1]).resolve()
    checks(root)
    library()
    drive(root)
    print("pyodide_browser_mode: all passed")


if __name__ == "__main__":
    main()
