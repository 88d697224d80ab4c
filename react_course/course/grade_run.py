"""One submission, executed in a fresh kernel: ``python -m react_course.course.grade_run JOB.json``.

``grade.py`` starts this module once per submission, in its own process (with a
memory limit and a wall-clock limit it enforces from outside), so that nothing a
notebook does can stop the batch. Here:

1. the stored outputs are thrown away (never trusted), and two cells are added:
   ``kernel_guard.install`` first, ``kernel_guard.grade`` last;
2. nbclient runs every cell in a fresh kernel, in the scratch copy's folder, with a
   per-cell time limit (the kernel is interrupted when it runs out) and errors
   allowed, so a failing cell costs that cell, not the rest;
3. a kernel that dies (``os._exit``, a kill, the memory limit) is started again with
   the cell it died in skipped, at most ``RETRIES`` times;
4. the grading cell's one line that starts with the run's nonce is the result:
   anything else the notebook printed, or wrote to a results file, is ignored.

The job file names the notebook, its scratch folder, the folders it may not read
and the exercises to check; the result is written as JSON to the job's ``out``.
What it leaves out: the limits (the parent's), marks and files (``grade.py``).
"""

from __future__ import annotations

import json
import os
import secrets
import sys
from pathlib import Path
from typing import Any

RETRIES = 3
GUARD = "react_course.course.kernel_guard"


def main(job_path: str) -> int:
    job = json.loads(Path(job_path).read_text(encoding="utf-8"))
    result = run(job)
    Path(job["out"]).write_text(json.dumps(result), encoding="utf-8")
    return 0


def kernel_environment(scratch: Path) -> dict[str, str]:
    """The kernel's environment: every cache and home in the scratch folder, no course settings."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("REACT_COURSE_")}
    tmp = scratch / ".tmp"
    tmp.mkdir(exist_ok=True)
    env.update(HOME=str(scratch), TMPDIR=str(tmp), TEMP=str(tmp), TMP=str(tmp),
               MPLCONFIGDIR=str(tmp), IPYTHONDIR=str(scratch / ".ipython"),
               PYTHONDONTWRITEBYTECODE="1", MPLBACKEND="Agg")
    return env


def prepared(notebook: Any, job: dict, nonce: str, skipped: set[int]) -> Any:
    """The notebook to run: only its code, outputs dropped, the guard first, the grading last."""
    import nbformat

    cells = [nbformat.v4.new_code_cell(
        f"import {GUARD} as _guard\n_guard.install({job['scratch']!r}, {job['forbidden']!r}, "
        f"{job['wanted'][0][0][:2]!r})\ndel _guard")]
    for number, cell in enumerate(c for c in notebook.cells if c.cell_type == "code"):
        source = "pass  # skipped by the grader: the kernel died here" if number in skipped else cell.source
        cells.append(nbformat.v4.new_code_cell(source))
    cells.append(nbformat.v4.new_code_cell(
        f"import {GUARD} as _guard\n_guard.grade({nonce!r}, {job['wanted']!r})"))
    return nbformat.v4.new_notebook(cells=cells, metadata={})


def execute(notebook: Any, job: dict, state: dict) -> None:
    from nbclient import NotebookClient

    ours = (notebook.cells[0], notebook.cells[-1])  # the guard and the grading: the grader's time-out

    def started(cell: Any = None, cell_index: int = 0, **_: Any) -> None:
        state["cell"] = cell_index

    client = NotebookClient(
        notebook, timeout=job["cell_timeout"], interrupt_on_timeout=True, allow_errors=True,
        kernel_name=job["kernel"], record_timing=False, startup_timeout=60,
        resources={"metadata": {"path": job["scratch"]}}, on_cell_execute=started,
        timeout_func=lambda cell: job["check_timeout" if any(cell is c for c in ours) else "cell_timeout"],
    )
    client.execute(env=kernel_environment(Path(job["scratch"])))


def run(job: dict) -> dict:
    """Execute the job's notebook and read the grading line; never raises for a bad notebook."""
    import nbformat
    from nbclient.exceptions import DeadKernelError

    try:
        source = nbformat.reads(Path(job["notebook"]).read_text(encoding="utf-8"), as_version=4)
    except Exception as error:  # nbformat raises many kinds for a malformed file
        return {"status": f"corrupt notebook: {type(error).__name__}", "results": None}
    nonce, skipped, died = secrets.token_hex(16), set(), []
    for _ in range(RETRIES + 1):
        notebook, state = prepared(source, job, nonce, skipped), {"cell": 0}
        try:
            execute(notebook, job, state)
            break
        except DeadKernelError:
            if state["cell"] in (0, len(notebook.cells) - 1):
                return {"status": "the kernel died while grading", "results": None, "died": died}
            died.append(state["cell"])
            skipped.add(state["cell"] - 1)
        except Exception as error:  # the kernel would not start, or nbclient gave up
            return {"status": f"the grader could not run the notebook ({type(error).__name__})",
                    "results": None, "died": died}
    else:
        return {"status": "the kernel died too often", "results": None, "died": died}
    return {**read_outcome(notebook, nonce), "died": died, "peak_mb": _peak_mb()}


def _peak_mb() -> float:
    """The largest resident size among the processes this one waited for (its kernels), in MB."""
    try:
        import resource
    except ImportError:  # Windows
        return 0.0
    scale = 1024 * 1024 if sys.platform == "darwin" else 1024  # bytes on macOS, KiB on Linux
    return round(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / scale, 1)


def read_outcome(notebook: Any, nonce: str) -> dict:
    """The grading line, and which of the student's cells raised or ran out of time."""
    errors = []
    for number, cell in enumerate(notebook.cells[1:-1], start=1):
        for output in cell.get("outputs", []):
            if output.get("output_type") == "error":
                errors.append([number, output.get("ename", "error")])
    results = None
    for output in notebook.cells[-1].get("outputs", []):
        text = output.get("text", "") if output.get("output_type") == "stream" else ""
        for line in text.splitlines():
            if line.startswith(nonce):
                results = json.loads(line[len(nonce):])
    if results is None:
        grading = [o.get("ename") for o in notebook.cells[-1].get("outputs", [])
                   if o.get("output_type") == "error"]
        status = "the checks did not finish" + (f" ({grading[0]})" if grading else "")
        return {"status": status, "results": None, "errors": errors}
    return {"status": "graded", "results": results["results"], "tampered": results["tampered"],
            "errors": errors}


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
