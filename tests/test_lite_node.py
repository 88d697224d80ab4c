"""The browser edition, fast and offline: every notebook run in Pyodide under Node.

What a student's browser tab runs (Python compiled to WebAssembly, npm's
``pyodide``, the site's own wheels), without a browser: ``lite/node/run.mjs``
starts Pyodide with the course imported from this checkout (``--course``, so
the wheel's age does not matter), and ``lite/node/notebooks.py`` runs each
notebook top to bottom in a fresh IPython shell. The verdicts are the laptop's:

- lessons: outputs as nbval compares them, except cells tagged
  ``browser-different`` (counted in the summary line);
- solutions: strict, every check "passed";
- exercises: Run All never stops on a traceback, every check "not attempted".

Starting Pyodide costs seconds, so a few Node processes (one per core, at most
two, also under pytest-xdist) each take the next notebook as they finish the
last, the longest first. A notebook that kills its process (a Pyodide fatal error, such
as a stack overflow) fails alone, and a new process takes the rest. The
reports, mismatches and all, are kept in ``test-artifacts/lite-node/reports.jsonl``.
The site is built first (``lite/build.py``, nothing when up to date); without
``node`` and ``npm`` the test is skipped, saying what to install.

The same processes run the browser edition's rules for real (``tests/pyodide_browser_mode.py``,
whose rules tests/test_browser_mode.py checks on CPython), after the last notebook of
one of them: a Pyodide already started, instead of one more.
"""

from __future__ import annotations

import doctest
import json
import os
import queue
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LITE = ROOT / "lite"
NODE = shutil.which("node")
NOTEBOOKS = [path for folder in ("notebooks", "solutions", "exercises")
             for path in sorted((ROOT / folder).glob("*.ipynb"))]
IDS = [f"{p.parent.name}/{p.name}" for p in NOTEBOOKS]
RULES = ROOT / "tests" / "pyodide_browser_mode.py"  # run last: it leaves files on its process's drive
ARTIFACTS = ROOT / "test-artifacts" / "lite-node"  # every notebook's report, one JSON line each
CELL_TIMEOUT = 300  # seconds without progress (Pyodide's start, then each cell): a hang, not a slow machine
# Node processes: one per core, at most two, under pytest-xdist too: the 37 notebooks one by one
# are the longest stretch of the suite (about 200 s), longer than the rest of it on the other
# workers. (Two Pyodides beside the other workers once starved a Jupyter kernel's start past
# nbval's 60 s; pyproject.toml now gives a kernel 180 s to start.)
DEFAULT_WORKERS = max(1, min(2, os.cpu_count() or 1))
WORKERS = int(os.environ.get("LITE_NODE_WORKERS") or DEFAULT_WORKERS)

MISSING = ("node is not on PATH (install Node.js 20 or later)" if not NODE else
           "npm is not on PATH (it comes with Node.js)" if not shutil.which("npm") else "")
needs_node = pytest.mark.skipif(bool(MISSING), reason=f"no Pyodide under Node: {MISSING}")
sys.path.insert(0, str(LITE / "node"))
import nbval_compare  # noqa: E402 (lite/node is not a package: Pyodide runs it as a folder of scripts)


def pyodide_folder() -> None:
    """lite/_site/pyodide/, the site's Pyodide and wheels: ``lite/build.py`` (a no-op when up to date)."""
    built = subprocess.run([sys.executable, str(LITE / "build.py")], cwd=ROOT, capture_output=True, text=True)
    if built.returncode:
        pytest.fail(f"python3 lite/build.py failed:\n{(built.stdout + built.stderr)[-3000:]}")


class Worker:
    """One Node process running notebooks.py, fed one notebook path at a time on stdin."""

    def __init__(self) -> None:
        self.errors = tempfile.TemporaryFile(mode="w+")
        self.process = subprocess.Popen(
            [NODE, str(LITE / "node" / "run.mjs"), "--course", str(ROOT),
             str(LITE / "node" / "notebooks.py"), "-"],
            cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.errors, text=True)
        self.started = False  # has Pyodide come up far enough to start a notebook?
        self.lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.process.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def run(self, path: Path) -> dict:
        """The notebook's report, or a failed one saying how the process ended."""
        try:
            self.process.stdin.write(f"{path}\n")
            self.process.stdin.flush()
        except BrokenPipeError:
            pass  # the process is gone: its end is read below
        deadline, cell = time.monotonic() + CELL_TIMEOUT, None
        while True:
            try:
                line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                self.stop()
                return broken(path, f"no progress within {CELL_TIMEOUT} s (a cell that never ends?)", cell)
            if line is None:
                why = f"the Node process ended (status {self.process.wait()}): {self.last_error()}"
                if not self.started:
                    raise CannotStart(why)
                return broken(path, why, cell)
            self.started = self.started or line.startswith('{"start"')
            if line.startswith('{"cell"'):
                cell = json.loads(line)["cell"]
                deadline = time.monotonic() + CELL_TIMEOUT  # per cell: slow is not stuck
            if line.startswith('{"path"'):
                return json.loads(line)

    def last_error(self) -> str:
        self.errors.seek(0)
        text = self.errors.read()
        cause = text.split("The cause of the fatal error was:", 1)
        if len(cause) > 1:  # Pyodide's own words, without the wasm frames under them
            return "Pyodide fatal error: " + cause[1].strip().split("\n", 1)[0]
        return text.strip()[-300:] or "nothing on stderr"

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        self.errors.close()

    @property
    def alive(self) -> bool:
        return self.process.poll() is None


class CannotStart(Exception):
    """Pyodide did not come up: every notebook would fail the same way."""


def broken(path: Path, why: str, cell: int | None = None) -> dict:
    """The report of a notebook whose process died or hung (in ``cell``, when it got that far)."""
    return {"path": str(path.relative_to(ROOT)), "passed": False, "cells": 0, "compared": 0,
            "browser_different": 0, "seconds": None, "mismatch_count": 1,
            "mismatches": [{"cell": cell, "what": "crashed", "got": why}]}


def drain(todo: queue.Queue, reports: dict) -> None:
    """Run notebooks from ``todo`` until none is left, starting a new process after a crash."""
    worker, cannot_start = None, ""
    try:
        while True:
            try:
                path = todo.get_nowait()
            except queue.Empty:
                return
            if cannot_start:
                reports[str(path.relative_to(ROOT))] = broken(path, cannot_start)
                continue
            if worker and not worker.alive:
                worker.stop()
            worker = worker if worker and worker.alive else Worker()
            try:
                reports[str(path.relative_to(ROOT))] = worker.run(path)
            except CannotStart as error:
                cannot_start = f"Pyodide did not start under Node: {error}"
                reports[str(path.relative_to(ROOT))] = broken(path, cannot_start)
    finally:
        if worker:
            worker.process.stdin.close()
            worker.stop()


def expected_seconds(path: Path, _last: dict[str, float] = {}) -> float:  # noqa: B006 (a cache)
    """How long the notebook took last time (test-artifacts), else a guess from its size."""
    if not _last and (ARTIFACTS / "reports.jsonl").exists():
        for line in (ARTIFACTS / "reports.jsonl").read_text(encoding="utf-8").splitlines():
            report = json.loads(line)
            _last[report["path"]] = report["seconds"] or 12.0  # a report without seconds: a broken run
    return _last.get(str(path.relative_to(ROOT)), path.stat().st_size / 20_000)


@pytest.fixture(scope="module")
def reports(request: pytest.FixtureRequest) -> dict[str, dict]:
    """Every selected notebook's report (``-k`` runs only those), by path from the repository."""
    pyodide_folder()
    selected = {item.callspec.params["path"] for item in request.session.items
                if getattr(item, "module", None) is request.module and hasattr(item, "callspec")}
    todo: queue.Queue[Path] = queue.Queue()
    # the longest first, for balance; the rules' script last, as nothing may run after it
    for path in sorted(selected, key=lambda p: (p != RULES, expected_seconds(p)), reverse=True):
        todo.put(path)
    found: dict[str, dict] = {}
    start = time.monotonic()
    threads = [threading.Thread(target=drain, args=(todo, found)) for _ in range(WORKERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    print(f"\n{len(found)} notebooks in Pyodide under Node, {WORKERS} processes: "
          f"{time.monotonic() - start:.0f} s")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with (ARTIFACTS / "reports.jsonl").open("w", encoding="utf-8") as out:
        for name in sorted(found):
            out.write(json.dumps(found[name], ensure_ascii=False) + "\n")
    return found


def summary(report: dict) -> str:
    """One line per notebook: the table the issue asks for."""
    seconds = "-" if report["seconds"] is None else f"{report['seconds']:.1f} s"
    verdict = "pass" if report["passed"] else f"FAIL ({report['mismatch_count']})"
    return (f"{report['path']:<46} {verdict:<9} compared {report['compared']:>2}, "
            f"browser-different {report['browser_different']:>2}, {seconds}")


@pytest.mark.slow
@needs_node
@pytest.mark.parametrize("path", NOTEBOOKS, ids=IDS)
def test_notebook_runs_in_pyodide_as_on_the_laptop(path: Path, reports: dict[str, dict]) -> None:
    report = reports[str(path.relative_to(ROOT))]
    print(summary(report))
    details = "\n".join(f"  {json.dumps(m, ensure_ascii=False)}" for m in report["mismatches"])
    assert report["passed"], f"{summary(report)}\n{details}"


@pytest.mark.slow
@needs_node
@pytest.mark.parametrize("path", [RULES], ids=["tests/pyodide_browser_mode.py"])
def test_the_browser_rules_hold_in_pyodide(path: Path, reports: dict[str, dict]) -> None:
    """No fork, the long sum, run_calls, the parallel paths without threads, the drive: for real."""
    report = reports[str(path.relative_to(ROOT))]
    assert report["passed"] and "pyodide_browser_mode: all passed" in report["printed"], report


# The comparison itself, on CPython: it must fail what nbval fails and pass what nbval passes.

SANITIZERS = nbval_compare.read_sanitizers((ROOT / "tests" / "nbval_sanitize.cfg").read_text("utf-8"))


def stream(text: str, name: str = "stdout") -> dict:
    return {"output_type": "stream", "name": name, "text": text}


def test_the_comparison_passes_every_lesson_against_itself() -> None:
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
            if cell["cell_type"] == "code":
                assert nbval_compare.difference(cell["outputs"], cell["outputs"], SANITIZERS) is None


def test_the_comparison_sees_what_nbval_sees() -> None:
    committed = [stream("took 0.31 s\nanswer: 42\n"), {"output_type": "execute_result", "data": {
        "text/plain": "'ok'", "image/png": "iVBOR..."}, "metadata": {}, "execution_count": 3}]
    same = [stream("took 1.07 s\n"), stream("answer: 42\n"),
            {"output_type": "execute_result", "data": {"text/plain": "'ok'", "image/png": "other bytes"}}]
    assert nbval_compare.difference(committed, same, SANITIZERS) is None  # seconds, chunks, image bytes
    changed = [stream("took 1 s\nanswer: 41\n"), same[2]]
    assert nbval_compare.difference(committed, changed, SANITIZERS)["what"] == "stdout"
    warned = [*same, stream("DeprecationWarning: ...", "stderr")]
    assert nbval_compare.difference(committed, warned, SANITIZERS)["what"] == "output fields"
    no_image = [*same[:2], {"output_type": "execute_result", "data": {"text/plain": "'ok'"}}]
    assert nbval_compare.difference(committed, no_image, SANITIZERS)["what"] == "images"


def test_the_markers_are_nbvals() -> None:
    options = nbval_compare.cell_options
    assert options({"source": "x", "metadata": {"tags": ["nbval-ignore-output"]}})["check"] is False
    assert options({"source": "# NBVAL_SKIP\nx", "metadata": {}})["skip"] is True
    assert options({"source": "x", "metadata": {"tags": ["raises-exception"]}})["check_exception"] is True
    # a comment wins over a tag, as in nbval
    assert options({"source": "# NBVAL_CHECK_OUTPUT", "metadata": {"tags": ["nbval-ignore-output"]}})["check"]


def test_the_comparisons_examples_hold() -> None:
    assert doctest.testmod(nbval_compare).failed == 0
