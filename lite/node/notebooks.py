"""Run notebooks top to bottom as a Jupyter kernel would, and compare them with their committed outputs.

    node lite/node/run.mjs --course . lite/node/notebooks.py notebooks/*.ipynb solutions/*.ipynb
    ls exercises/*.ipynb | node lite/node/run.mjs --course . lite/node/notebooks.py -

Meant for Pyodide under Node (``run.mjs``), where there is no Jupyter kernel:
each cell goes through IPython's ``InteractiveShell.run_cell``, as in the
JupyterLite kernel, and what a kernel would send the page is recorded per cell:
``print`` and warnings (streams), the last expression (``execute_result``),
``display()`` (``display_data``), and a raised exception (``error``). It runs on
CPython too (``python lite/node/notebooks.py ...``), which is how the harness
itself is checked: there every lesson matches.

Each notebook gets what a fresh kernel gives it (kernel_like.py): a new shell and
namespace, its own folder as the current folder, the laptop suite's
environment, and the course's modules imported anew.

The folder says how a notebook is judged, as on the laptop:

- ``solutions/``: strict (``REACT_COURSE_STRICT=1``); every check must report
  "passed" (checks report to ``REACT_COURSE_RESULTS``);
- ``exercises/``: checks must report "not attempted", and nothing may raise;
- anything else is a lesson: outputs compared as nbval does (nbval_compare.py),
  except cells tagged ``browser-different``, which run but are only counted.
  In Pyodide a lesson with plots gets the course's plotter as matplotlib, as the
  site's first cell gives it: its figures' alt text is compared, their images
  (SVG there, PNG on the laptop) are not.

Prints one JSON line per notebook, its report, after ``{"start": path}`` and a
``{"cell": n}`` before each code cell (numbered as nbval numbers them): the
caller can tell where a process that died was.
A path ending ``.py`` is a script instead (tests/pyodide_browser_mode.py), run as
``__main__`` with the repository as its argument, in a fresh kernel's state: its report
says whether it raised, and what it printed. Give it last: a script may leave files
behind (the drive) that a later notebook would see.
Not done here: cell time limits (Pyodide cannot interrupt a cell; the caller
times the process) and top-level ``await`` in cells (no lesson uses it).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import runpy
import sys
import tempfile
import time
import traceback
from pathlib import Path

import nbval_compare
from kernel_like import FreshKernel, new_shell

REPOSITORY = Path(__file__).resolve().parents[2]
BROWSER_DIFFERENT = "browser-different"
COURSE_VARIABLES = ("REACT_COURSE_MODEL", "REACT_COURSE_STRICT", "REACT_COURSE_RESULTS")
MISMATCHES_SHOWN = 3


def kind_of(path: Path) -> str:
    """How a notebook is judged, from its folder: 'solution', 'exercise' or 'lesson'."""
    return {"solutions": "solution", "exercises": "exercise"}.get(path.parent.name, "lesson")


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


def shown(path: Path) -> str:
    """A notebook's path as reports name it: from the repository, when it is in it."""
    return str(path.relative_to(REPOSITORY)) if path.is_relative_to(REPOSITORY) else str(path)


def offline_plots() -> None:
    """What the site's first cell does in a lesson with plots: the course's plotter as matplotlib.

    (The site's ``plotting()`` does the same, and also says so in the cell's output.)
    """
    from react_course.web.plots_offline import install_stand_in

    install_stand_in()


def run_notebook(path: Path, environment: dict[str, str], sanitizers, scratch: Path) -> dict:
    """Run one notebook in a fresh shell; its JSON report."""
    notebook = json.loads(path.read_text(encoding="utf-8"))
    kind, cells = kind_of(path), notebook["cells"]
    report = {"path": shown(path), "kind": kind, "cells": 0, "compared": 0, "browser_different": 0,
              "not_compared": 0}
    mismatches: list[dict] = []
    start = time.perf_counter()
    with FreshKernel(path, kind, environment, scratch) as kernel:
        shell = new_shell()
        plots_offline = sys.platform == "emscripten" and any("matplotlib" in nbval_compare.text(c["source"])
                            for c in cells if c["cell_type"] == "code")
        if plots_offline:
            offline_plots()
        code_cells = [c for c in cells if c["cell_type"] == "code"]
        for number, cell in enumerate(code_cells):
            options = nbval_compare.cell_options(cell)
            if options["skip"]:
                report["not_compared"] += 1
                continue
            print(json.dumps({"cell": number}), flush=True)  # a process that dies here says where
            outputs = shell.run(nbval_compare.text(cell["source"]))
            report["cells"] += 1
            different = BROWSER_DIFFERENT in (cell.get("metadata", {}).get("tags") or [])
            report["browser_different"] += different
            if any(o["output_type"] == "error" for o in outputs) and not options["check_exception"]:
                mismatches.append({"cell": number, "what": "raised", "got": error_text(outputs)})
            elif different:
                pass  # runs (and must not raise), but its outputs are the browser's own
            elif not options["check"] or cell.get("execution_count") is None:
                report["not_compared"] += 1
            else:
                report["compared"] += 1
                found = nbval_compare.difference(cell.get("outputs", []), outputs, sanitizers,
                                                 drawn=not plots_offline)
                if found:
                    mismatches.append({"cell": number, **found})
        results = kernel.check_results()
        shell.reset(new_session=False)
    report["seconds"] = round(time.perf_counter() - start, 2)
    mismatches += check_verdicts(kind, check_calls(cells), results)
    report.update(passed=not mismatches, mismatch_count=len(mismatches),
                  mismatches=mismatches[:MISMATCHES_SHOWN], checks=sorted({r["exercise"] for r in results}))
    return report


def run_script(path: Path, environment: dict[str, str], scratch: Path) -> dict:
    """Run a Python file as ``__main__`` (argument: the repository) in a fresh kernel's state; its report.

    What the script raises is its verdict, reported like a notebook's failed cell.
    """
    printed, mismatches, start = io.StringIO(), [], time.perf_counter()
    argv = sys.argv
    with FreshKernel(path, "script", environment, scratch), contextlib.redirect_stdout(printed):
        sys.argv = [str(path), str(REPOSITORY)]
        try:
            runpy.run_path(str(path), run_name="__main__")
        except Exception as error:  # the script's failure is the report, as a cell's error is
            where = traceback.format_exception(error)[-2].strip().splitlines()[0]
            mismatches.append({"what": "raised", "got": nbval_compare.shorten(
                f"{type(error).__name__}: {error} ({where})", 400)})
        finally:
            sys.argv = argv
    return {"path": shown(path), "kind": "script", "cells": 0, "compared": 0, "browser_different": 0,
            "not_compared": 0, "seconds": round(time.perf_counter() - start, 2),
            "printed": printed.getvalue()[-500:], "passed": not mismatches,
            "mismatch_count": len(mismatches), "mismatches": mismatches}


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
        try:
            report = (run_script(path, environment, scratch) if path.suffix == ".py"
                      else run_notebook(path, environment, sanitizers, scratch))
        except Exception as error:  # the notebook's file, or this harness: say so, and go on to the next
            report = {"path": shown(path), "passed": False, "cells": 0, "compared": 0, "browser_different": 0,
                      "seconds": None, "mismatch_count": 1,
                      "mismatches": [{"what": "harness", "got": f"{type(error).__name__}: {error}"}]}
        failed += not report["passed"]
        print(json.dumps(report, ensure_ascii=False), flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
