"""The library in a browser tab, on CPython: ``browser.IN_BROWSER`` patched, threads made to fail.

In Pyodide ``Thread.start`` raises ``RuntimeError``, ``os.fork`` fails, and the
file browser's contents are mounted at ``/drive``. The ``tab`` fixture makes this
process look like that: ``IN_BROWSER`` true, ``threading.Thread.start`` raising,
``browser.DRIVE`` a temporary folder holding ``notebooks/`` and ``exercises/``,
and the current folder ``exercises/`` in it (a notebook's). Each rule of the
browser edition has a test here that fails without it. The same rules run for real
in Pyodide under Node (``pyodide_browser_mode.py``) in tests/test_lite_node.py's Node
processes, after their notebooks: one Pyodide start fewer than a process of its own.
"""

from __future__ import annotations

import ast
import base64
import contextlib
import io
import json
import re
import subprocess
import sys
import threading
import time
import zipfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from grading_submissions import LESSON, small_course
from test_checks_lesson07 import RUN_CALLS_MUTANTS
from test_checks_lesson07 import run_calls as reference_run_calls

import react_course.web.browser as browser
from react_course import calculator
from react_course.checks import attempt, check, results_path
from react_course.checks.lesson04 import _isolated
from react_course.checks.lesson04.strict_calculate import BROWSER_TERMS, LONG_CASE, LONG_TERMS
from react_course.checks.lesson04.strict_calculate import key as strict_key
from react_course.checks.timing import run_limited
from react_course.course import doctor, handin, progress
from react_course.evaluate.runner import run_eval
from react_course.evaluate.tasks import load_tasks
from react_course.execute import ToolTimeout, execute, execute_all, run_with_time_limit
from react_course.lessons import frameworks
from react_course.loop import run_react
from react_course.models import ScriptedModel
from react_course.record import ToolCall
from react_course.tools.registry import ToolRegistry
from react_course.tracing.trace import JsonLines

ROOT = Path(__file__).resolve().parents[1]


def _no_thread(self: threading.Thread) -> None:
    raise RuntimeError("can't start new thread")


@pytest.fixture
def no_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    """Threads fail as in Pyodide, and the probe has to find out again."""
    monkeypatch.setattr(threading.Thread, "start", _no_thread)
    monkeypatch.setattr(browser, "_THREADS", [])


@pytest.fixture
def tab(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, no_threads: None) -> Path:
    """This process as a browser tab, in exercises/ of a drive that holds a small course."""
    drive = small_course(tmp_path / "drive")
    (drive / "notebooks" / "00_start_here.ipynb").write_bytes(
        (ROOT / "notebooks" / "00_start_here.ipynb").read_bytes())
    monkeypatch.setattr(browser, "IN_BROWSER", True)
    monkeypatch.setattr(browser, "DRIVE", drive)
    monkeypatch.setattr(browser, "_SAID", set())
    monkeypatch.delenv("REACT_COURSE_RESULTS", raising=False)
    monkeypatch.chdir(drive / "exercises")
    return drive


# ---------------------------------------------------------------------------- threads


def test_the_probe_says_no_where_threads_cannot_start(no_threads: None) -> None:
    assert browser.threads_work() is False


def test_inline_pools_run_a_pool_without_threads(tab: Path) -> None:
    def halve(n: int) -> float:
        if n == 0:
            raise ZeroDivisionError("zero")
        return 1 / n

    with pytest.raises(RuntimeError):  # what a laptop's code meets in a tab
        ThreadPoolExecutor().submit(halve, 2)
    with browser.inline_pools(), ThreadPoolExecutor() as pool:
        assert list(pool.map(halve, [1, 2, 4])) == [1.0, 0.5, 0.25]
        assert isinstance(pool.submit(halve, 0).exception(), ZeroDivisionError)
    with pytest.raises(RuntimeError):  # put back afterwards
        ThreadPoolExecutor().submit(halve, 2)


def test_attempt_runs_a_students_pool_in_the_tab(tab: Path) -> None:
    def squares(numbers: list[int]) -> list[int]:
        with ThreadPoolExecutor() as pool:
            return list(pool.map(lambda n: n * n, numbers))

    assert attempt(squares, [1, 2, 3]) == [1, 4, 9]


def test_a_turn_of_read_only_calls_runs_one_by_one_in_order(tab: Path) -> None:
    def shout(text: str) -> str:
        """Shout the text back. Example input: hi"""
        return text.upper()

    calls = [ToolCall(f"c{i}", "shout", f"q{i}") for i in range(4)]
    observations = execute_all(calls, ToolRegistry([shout]))
    assert [(o.call_id, o.text) for o in observations] == [(f"c{i}", f"Q{i}") for i in range(4)]


def test_a_tool_time_limit_without_threads_stops_a_python_loop(tab: Path) -> None:
    def spins(n: int) -> str:
        """Loops for ever. Example input: 1"""
        while True:
            n += 1

    observation = execute(ToolCall("c", "spins", "1"), ToolRegistry([spins]), timeout=0.2)
    assert observation.error == "tool_timeout"


def test_the_evaluation_asked_for_workers_runs_sequentially(tab: Path) -> None:
    tasks = load_tasks()[:3]
    runs = run_eval(tasks=tasks, workers=4)
    assert [r.task.id for r in runs] == sorted(t.id for t in tasks)


def test_a_framework_runs_on_the_calling_thread(tab: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(frameworks, "missing", lambda name: [])
    monkeypatch.setitem(frameworks.RUNNERS, "smolagents", lambda url, question: ("42", 2))
    assert frameworks.run_framework("smolagents", "http://unused/v1") == frameworks.FrameworkRun(
        "smolagents", "42", 2)


def test_a_trace_file_is_written_without_threads(tab: Path) -> None:
    out = JsonLines(tab / "trace.jsonl")
    out.write({"event": "step"})
    out.close()
    assert json.loads((tab / "trace.jsonl").read_text(encoding="utf-8")) == {"event": "step"}


# ------------------------------------------------------------------ notes, once per kind


def _notes(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("Note: in the browser")]


def test_a_weaker_limit_is_noted_once_a_call_overran_it(tab: Path, capsys: pytest.CaptureFixture) -> None:
    def price(item: str) -> str:
        """The price of an item. Example input: pen"""
        return "2"

    model = ScriptedModel(["Thought: t\nAction: price\nAction Input: pen", "Thought: done\nFinal Answer: 2"])
    assert run_react("How much is a pen?", model, {"price": price}).answer == "2"
    run_limited(lambda: 1, 1.0)
    assert _notes(capsys.readouterr().out) == [], "calls within their limits need no note"
    for _ in range(2):  # time.sleep waits in C: the trace deadline cannot cut it short
        run_limited(lambda: time.sleep(0.2), 0.01)  # a check's limit is ten times longer in a tab
        for kind in ("tool", "model"):
            with contextlib.suppress(ToolTimeout):  # found past the deadline, after the sleep
                run_with_time_limit(lambda: time.sleep(0.2), 0.05, kind)
    notes = _notes(capsys.readouterr().out)
    assert len(notes) == 3, notes
    assert any("check's time limit" in n and "C code" in n for n in notes)
    assert any("tool's time limit" in n for n in notes)
    assert any("max_seconds while a model call waits" in n for n in notes)


def test_a_laptop_gets_no_notes(no_threads: None, capsys: pytest.CaptureFixture) -> None:
    run_limited(lambda: 1, 1.0)  # threads fail here, but this is not a browser: nothing to say
    assert _notes(capsys.readouterr().out) == []


# -------------------------------------------------------------------------- lesson 04


def test_no_fork_in_the_tab_and_the_huge_power_says_why(tab: Path) -> None:
    assert _isolated.can_fork() is False
    result = check("04.strict_calculate", strict_key)
    assert result.passed, str(result)
    skipped = next(c for c in result.cases if c.name.startswith("9 ** 9 ** 9"))
    assert "skipped in the browser" in skipped.name and "separate process" in skipped.name


def _sum_terms(monkeypatch: pytest.MonkeyPatch) -> int:
    """How many terms the long-sum case sends (the calculator records the longest input)."""
    seen: list[int] = []

    def counting(expression: str) -> str:
        seen.append(expression.count("+") + 1)
        return strict_key(expression)

    result = check("04.strict_calculate", counting)
    assert next(c for c in result.cases if c.name == LONG_CASE).status == "passed"
    return max(seen)


def test_the_long_sum_fits_the_tabs_stack(tab: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert _sum_terms(monkeypatch) == BROWSER_TERMS < 4000  # Pyodide under Node parses 4,000, not 5,000
    assert BROWSER_TERMS > sys.getrecursionlimit()  # still too deep for an evaluator that recurses


def test_the_long_sum_on_a_laptop_is_unchanged(monkeypatch: pytest.MonkeyPatch) -> None:
    assert _sum_terms(monkeypatch) == LONG_TERMS


def test_the_library_calculator_refuses_a_long_sum_before_parsing(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_parse(*args: object, **kwargs: object) -> None:
        raise AssertionError("parsed")

    monkeypatch.setattr(calculator.ast, "parse", no_parse)
    for text in (" + ".join(["1"] * 6000), "-" * 6000 + "1", "(" * 60 + "1" + ")" * 60):
        assert calculator.calculate(text).startswith("Error: ")
    monkeypatch.undo()
    # What does reach the parser nests at most MAX_LENGTH deep: Pyodide parses 4,000.
    assert ast.parse("-" * calculator.MAX_LENGTH + "1", mode="eval")


# -------------------------------------------------------------------------- lesson 07


def test_run_calls_says_the_parallel_rule_is_not_checked_and_checks_the_rest(tab: Path) -> None:
    result = check("07.run_calls", reference_run_calls)
    assert result.passed, str(result)
    parallel = [c for c in result.cases if c.name.startswith("read-only calls run in parallel")]
    assert len(parallel) == 1 and "not checked in the browser" in parallel[0].name


# What a tab cannot tell apart: they differ from the reference only in when calls run.
PARALLEL_ONLY = {"always one at a time", "side effects run in parallel too",
                 "only the first call decides about side effects",
                 "side effects behind a lock, read-only calls beside them",
                 "results in completion order (as_completed)"}


@pytest.mark.parametrize("name", sorted(set(RUN_CALLS_MUTANTS) - PARALLEL_ONLY))
def test_run_calls_mistakes_still_fail_in_the_tab(tab: Path, name: str) -> None:
    assert check("07.run_calls", RUN_CALLS_MUTANTS[name]).status == "failed", name


# ---------------------------------------------------------------------------- doctor


def test_the_doctor_reports_the_browser_edition(tab: Path) -> None:
    findings = doctor.diagnose()
    names = [f.name for f in findings]
    assert names[0] == "edition" and "browser edition" in findings[0].detail
    for laptop_only in ("Python", "jupyterlab", "ipykernel", "nbclient", "course folder",
                        "Jupyter kernel 'react-course'"):
        assert laptop_only not in names
    for missing in ("threads", "separate processes", "local servers"):
        assert next(f for f in findings if f.name == missing).status == "skip"
    work = next(f for f in findings if f.name == "your work")
    assert work.status == "ok" and str(tab) in work.detail and "download_link" in work.detail
    assert [f.line() for f in findings if not f.ok] == []  # lesson 00's cell: "No problems found."


def test_the_doctor_warns_when_the_kernel_cannot_see_the_drive(tab: Path, tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # as Pyodide's home folder, when the browser refused the service worker
    work = next(f for f in doctor.diagnose() if f.name == "your work")
    assert work.status == "warn" and "not kept" in work.detail
    assert results_path() is None
    assert progress.report(tmp_path).startswith("No exercise notebooks found")  # not "every exercise passes"


def test_the_browser_path_never_imports_the_grader() -> None:
    code = ("import sys, react_course.web.browser as b; b.IN_BROWSER = True\n"
            "from react_course.course import doctor, handin, progress\n"
            "doctor.diagnose(); progress.report()\n"
            "assert not [m for m in sys.modules if m.startswith('react_course.course.grade')], sys.modules\n")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT, capture_output=True)


# ------------------------------------------------------------ progress and handing in


def test_check_results_are_kept_on_the_drive_and_read_back(tab: Path) -> None:
    assert results_path() == tab / browser.RESULTS_NAME
    check("00.first_check", 4)
    line = json.loads((tab / browser.RESULTS_NAME).read_text(encoding="utf-8"))
    assert (line["exercise"], line["status"]) == ("00.first_check", "passed")
    text = progress.report()  # the course folder is the drive's, not the package's
    assert "Lesson 03 (exercises/03_parsing_and_stops.ipynb)" in text
    assert "  passed        00.first_check [1/1 points]" in text


def test_a_laptop_without_the_setting_writes_no_results(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("REACT_COURSE_RESULTS", raising=False)
    assert results_path() is None


def _solved(drive: Path) -> None:
    """The student's lesson 03 as the solution: every check cell passes."""
    (drive / "exercises" / LESSON).write_bytes((drive / "solutions" / LESSON).read_bytes())


def test_the_handin_zip_has_one_folder_per_lesson(tab: Path) -> None:
    check("00.first_check", 4)
    names = zipfile.ZipFile(io.BytesIO(handin.handin_zip("Ana Lima"))).namelist()
    assert sorted(names) == ["00_start_here/Ana_Lima.ipynb", "01_what_is_react/Ana_Lima.ipynb",
                             "03_parsing_and_stops/Ana_Lima.ipynb", "HOW_TO_GRADE.txt",
                             "results/Ana_Lima.jsonl"]
    assert handin.handin_zip("Ana Lima") == handin.handin_zip("Ana Lima")  # no clock inside


def test_download_link_shows_a_data_url_and_keeps_a_copy(tab: Path, capsys: pytest.CaptureFixture,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    shown: list = []
    monkeypatch.setattr("IPython.display.display", lambda obj: shown.append(obj))
    handin.download_link("Ana Lima")
    page = shown[0].data
    url = re.search(r'href="data:application/zip;base64,([^"]+)"', page)[1]
    copy = tab / "Ana_Lima-react-course.zip"
    assert base64.b64decode(url) == copy.read_bytes() and 'download="Ana_Lima-react-course.zip"' in page


def test_download_link_on_a_laptop_says_how_to_hand_in(capsys: pytest.CaptureFixture) -> None:
    handin.download_link("Ana Lima")
    assert "hand in your notebook files themselves" in capsys.readouterr().out


@pytest.mark.slow
def test_the_grader_grades_the_unzipped_handins(tmp_path: Path) -> None:
    """Two students' zips, unzipped into one folder: the lesson's folder grades as a batch.

    The zips are made here from a drive's files (the layout does not depend on where),
    and graded as an instructor does, on a laptop, by ``react-course grade``'s function.
    """
    from react_course.course.grade import Limits, grade_folder

    drive = small_course(tmp_path / "drive")
    _solved(drive)
    folder = tmp_path / "handed_in"
    for student in ("Ana Lima", "Ben"):
        zipfile.ZipFile(io.BytesIO(handin.handin_zip(student, drive))).extractall(folder)
    limits = Limits(cell_timeout=10, check_timeout=60, wall=60, workers=2)
    grades = grade_folder(folder / LESSON.removesuffix(".ipynb"), tmp_path / "out" / "grades.csv",
                          course=drive, limits=limits, progress=False)
    assert {(g.student, g.status) for g in grades} == {("Ana_Lima", "graded"), ("Ben", "graded")}
    assert all(g.score == g.max_score > 0 for g in grades)
