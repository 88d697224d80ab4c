"""Run notebooks top to bottom as a Jupyter kernel would, and compare them with their committed outputs.

    node lite/node/run.mjs --course . lite/node/notebooks.py notebooks/*.ipynb solutions/*.ipynb
    ls exercises/*.ipynb | node lite/node/run.mjs --course . lite/node/notebooks.py -

Meant for Pyodide under Node (``run.mjs``), where there is no Jupyter kernel:
each cell goes through IPython's ``InteractiveShell.run_cell``, as in the
JupyterLite kernel, and what a kernel would send the page is recorded per cell:
``print`` and warnings (streams), the last expression (``execute_result``),
``display()`` (``display_data``), and a raised exception (``error``). It runs on
CPython too, which is how the harness itself is checked.

Each notebook gets what a fresh kernel gives it: a new shell and namespace,
its own folder as the current folder, the environment the laptop suite sets
(tests/conftest.py, tests/test_notebooks.py), and the course's modules imported
anew (their once-per-kernel notes, caches and counters start over). The rest
of the process (Python's own modules, the course's dependencies) is shared, so
a notebook that changes those can still leak; that is the price of starting
Pyodide once instead of once per notebook.

The folder says how a notebook is judged, as on the laptop:

- ``solutions/``: strict (``REACT_COURSE_STRICT=1``); every check must report
  "passed" (checks report to ``REACT_COURSE_RESULTS``);
- ``exercises/``: checks must report "not attempted", and nothing may raise;
- anything else is a lesson: outputs compared as nbval does (nbval_compare.py),
  except cells tagged ``browser-different``, which run but are only counted.

Prints one JSON line per notebook (``{"start": path}`` before it runs, then the
result), so the caller can tell which notebook a crashed process was in.
Not done here: cell time limits (Pyodide cannot interrupt a cell; the caller
times the process) and top-level ``await`` in cells (no lesson uses it).
"""

from __future__ import annotations

import io
import json
import os
import re
import sys
import tempfile
import time
import warnings
from pathlib import Path

import nbval_compare
from IPython.core.displayhook import DisplayHook
from IPython.core.displaypub import DisplayPublisher
from IPython.core.interactiveshell import InteractiveShell
from traitlets.config import Config

REPOSITORY = Path(__file__).resolve().parents[2]
BROWSER_DIFFERENT = "browser-different"
COURSE_VARIABLES = ("REACT_COURSE_MODEL", "REACT_COURSE_STRICT", "REACT_COURSE_RESULTS")
RESULTS_FILE = "react-course-check-results.jsonl"
ANSI = re.compile(r"\x1b\[[0-9;]*m")
MISMATCHES_SHOWN = 3


class StreamRecorder(io.TextIOBase):
    """``sys.stdout`` / ``sys.stderr`` during a cell: each write becomes a stream output."""

    def __init__(self, shell: KernelLikeShell, name: str) -> None:
        super().__init__()
        self.shell, self.name = shell, name

    @property
    def encoding(self) -> str:
        return "utf-8"

    def writable(self) -> bool:
        return True

    def write(self, chunk: str) -> int:
        self.shell.cell_outputs.append({"output_type": "stream", "name": self.name, "text": str(chunk)})
        return len(chunk)


class ResultRecorder(DisplayHook):
    """The last expression's value as an ``execute_result``, with every format the kernel sends."""

    def start_displayhook(self) -> None:
        pass

    def write_output_prompt(self) -> None:
        pass

    def write_format_data(self, format_dict, md_dict=None) -> None:
        self.shell.cell_outputs.append({"output_type": "execute_result", "data": format_dict,
                                        "metadata": md_dict or {}})

    def finish_displayhook(self) -> None:
        pass


class DisplayRecorder(DisplayPublisher):
    """``display()`` as ``display_data``; updates and ``clear_output`` are dropped, as nbval drops them."""

    def publish(self, data, metadata=None, source=None, *, transient=None, update=False, **kwargs) -> None:
        if not update:
            self.shell.cell_outputs.append({"output_type": "display_data", "data": data,
                                            "metadata": metadata or {}})

    def clear_output(self, wait=False) -> None:
        pass


class KernelLikeShell(InteractiveShell):
    """An IPython shell that records a cell's outputs instead of printing them."""

    displayhook_class = ResultRecorder
    display_pub_class = DisplayRecorder

    def __init__(self, **kwargs) -> None:
        self.cell_outputs: list[dict] = []
        super().__init__(**kwargs)

    def _showtraceback(self, etype, evalue, stb) -> None:
        self.cell_outputs.append({"output_type": "error", "ename": etype.__name__, "evalue": str(evalue),
                                  "traceback": [ANSI.sub("", line) for line in stb]})

    def run(self, source: str) -> list[dict]:
        """Run one cell as the kernel's execute request does; its outputs, in order."""
        self.cell_outputs = []
        saved = sys.stdin, sys.stdout, sys.stderr
        # No stdin, as a kernel run without a page to answer (input() fails instead of
        # reading the caller's list of notebooks).
        sys.stdin = io.StringIO()
        sys.stdout, sys.stderr = StreamRecorder(self, "stdout"), StreamRecorder(self, "stderr")
        try:
            self.run_cell(source, store_history=True)
        finally:
            sys.stdin, sys.stdout, sys.stderr = saved
        return self.cell_outputs


def new_shell() -> KernelLikeShell:
    """A fresh shell, the only one ``get_ipython()`` knows (no history file: Pyodide has no sqlite3)."""
    KernelLikeShell.clear_instance()
    config = Config()
    config.HistoryManager.enabled = False
    config.InteractiveShell.colors = "nocolor"
    return KernelLikeShell.instance(config=config)


def kind_of(path: Path) -> str:
    """How a notebook is judged, from its folder: 'solution', 'exercise' or 'lesson'."""
    return {"solutions": "solution", "exercises": "exercise"}.get(path.parent.name, "lesson")


class FreshKernel:
    """What a new kernel would start with, for the length of one notebook, then put back."""

    def __init__(self, path: Path, kind: str, environment: dict[str, str], scratch: Path) -> None:
        self.folder, self.kind, self.environment = path.parent, kind, environment
        self.results = scratch / RESULTS_FILE

    def __enter__(self) -> FreshKernel:
        self.saved = (os.getcwd(), list(sys.path), list(warnings.filters))
        self.modules = set(sys.modules)
        os.environ.clear()
        os.environ.update(self.environment)
        if self.kind in ("solution", "exercise"):
            os.environ["REACT_COURSE_RESULTS"] = str(self.results)
            self.results.unlink(missing_ok=True)
        if self.kind == "solution":
            os.environ["REACT_COURSE_STRICT"] = "1"
        os.chdir(self.folder)
        return self

    def check_results(self) -> list[dict]:
        if not self.results.exists():
            return []
        return [json.loads(line) for line in self.results.read_text(encoding="utf-8").splitlines() if line]

    def __exit__(self, *exc) -> None:
        cwd, sys.path[:], warnings.filters[:] = self.saved
        os.chdir(cwd)
        os.environ.clear()
        os.environ.update(self.environment)
        for name in set(sys.modules) - self.modules:
            if is_course_module(sys.modules[name]):
                del sys.modules[name]
        self.results.unlink(missing_ok=True)


def is_course_module(module) -> bool:
    """The course's own modules (and any imported from the repository), never this harness's."""
    name = getattr(module, "__name__", "") or ""
    where = getattr(module, "__file__", None) or ""
    if name == "react_course" or name.startswith("react_course."):
        return True
    return where.startswith(str(REPOSITORY)) and not where.startswith(str(Path(__file__).parent))


def check_calls(cells: list[dict]) -> set[str]:
    """The exercises a notebook checks (``check("03.parse_step", ...)``), as tests/test_notebooks.py reads."""
    sources = "\n".join(nbval_compare.text(c["source"]) for c in cells if c["cell_type"] == "code")
    return set(re.findall(r"check\(\s*[\"'](\d\d\.\w+)[\"']", sources))


def error_text(outputs: list[dict]) -> str:
    """``Name: value`` and the traceback's last lines that say where."""
    error = next(o for o in outputs if o["output_type"] == "error")
    where = [line.strip() for line in "\n".join(error["traceback"]).splitlines()
             if line.strip().startswith(("File ", "Cell "))][-2:]
    return nbval_compare.shorten(f"{error['ename']}: {error['evalue']}" + (f" ({' / '.join(where)})"
                                                                          if where else ""), 400)


def run_notebook(path: Path, environment: dict[str, str], sanitizers, scratch: Path) -> dict:
    """Run one notebook in a fresh shell; its JSON report."""
    notebook = json.loads(path.read_text(encoding="utf-8"))
    kind, cells = kind_of(path), notebook["cells"]
    report = {"path": str(path.relative_to(REPOSITORY)) if path.is_relative_to(REPOSITORY) else str(path),
              "kind": kind, "cells": 0, "compared": 0, "browser_different": 0, "not_compared": 0}
    mismatches: list[dict] = []
    start = time.perf_counter()
    with FreshKernel(path, kind, environment, scratch) as kernel:
        shell = new_shell()
        code_cells = [c for c in cells if c["cell_type"] == "code"]
        for number, cell in enumerate(code_cells):
            options = nbval_compare.cell_options(cell)
            if options["skip"]:
                report["not_compared"] += 1
                continue
            outputs = shell.run(nbval_compare.text(cell["source"]))
            report["cells"] += 1
            raised = any(o["output_type"] == "error" for o in outputs)
            if raised and not options["check_exception"]:
                mismatches.append({"cell": number, "what": "raised", "got": error_text(outputs)})
                continue
            if BROWSER_DIFFERENT in (cell.get("metadata", {}).get("tags") or []):
                report["browser_different"] += 1
            elif not options["check"] or cell.get("execution_count") is None:
                report["not_compared"] += 1
            else:
                report["compared"] += 1
                found = nbval_compare.difference(cell.get("outputs", []), outputs, sanitizers)
                if found:
                    mismatches.append({"cell": number, **found})
        results = kernel.check_results()
        shell.reset(new_session=False)
    report["seconds"] = round(time.perf_counter() - start, 2)
    mismatches += check_verdicts(kind, check_calls(cells), results)
    report.update(passed=not mismatches, mismatch_count=len(mismatches),
                  mismatches=mismatches[:MISMATCHES_SHOWN], checks=sorted({r["exercise"] for r in results}))
    return report


def check_verdicts(kind: str, expected: set[str], results: list[dict]) -> list[dict]:
    """What tests/test_notebooks.py asserts of the checks' reports, as mismatches."""
    if kind == "lesson":
        return []
    problems, reported = [], {r["exercise"] for r in results}
    if reported != expected:
        problems.append({"what": "checks reported", "expected": sorted(expected), "got": sorted(reported)})
    wanted = "passed" if kind == "solution" else "not attempted"
    wrong = sorted(f"{r['exercise']}: {r['status']}" for r in results if r["status"] != wanted)
    if wrong:
        problems.append({"what": f"checks not {wanted}", "got": wrong[:5]})
    return problems


def block_the_network() -> None:
    """In Pyodide under Node, ``fetch`` beyond this machine fails, as tests/conftest.py blocks sockets."""
    if sys.platform != "emscripten":
        return
    from pyodide.code import run_js

    run_js("""(() => {
      const real = globalThis.fetch;
      globalThis.fetch = (resource, options) => {
        const url = new URL(String(resource?.url ?? resource), "http://127.0.0.1/");
        if (["127.0.0.1", "localhost", "[::1]"].includes(url.hostname)) return real(resource, options);
        return Promise.reject(new TypeError(`tests may not use the network (tried ${url.href})`));
      };
    })()""")


def notebook_paths(argv: list[str]):
    """The paths given, or with ``-`` one per line from stdin, each read when the last is done.

    Reading as it goes lets a caller hand the next notebook to whichever process is free.
    """
    if argv != ["-"]:
        yield from (Path(arg).resolve() for arg in argv)
        return
    while line := sys.stdin.readline():
        if line.strip():
            yield Path(line.strip()).resolve()


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__.split("\n\n")[1])
        return 2
    environment = {k: v for k, v in os.environ.items() if k not in COURSE_VARIABLES}
    sanitizers = nbval_compare.read_sanitizers(
        (REPOSITORY / "tests" / "nbval_sanitize.cfg").read_text(encoding="utf-8"))
    scratch = Path(tempfile.mkdtemp(prefix="notebooks-"))
    if sys.platform == "emscripten":  # Pyodide writes no bytecode: kept in memory, re-imports are quicker
        sys.dont_write_bytecode, sys.pycache_prefix = False, str(scratch / "pycache")
    block_the_network()
    failed = 0
    for path in notebook_paths(argv):
        print(json.dumps({"start": str(path)}), flush=True)
        report = run_notebook(path, environment, sanitizers, scratch)
        failed += not report["passed"]
        print(json.dumps(report, ensure_ascii=False), flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
