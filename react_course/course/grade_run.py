"""One submission, executed in a fresh kernel: ``python -m react_course.course.grade_run JOB.json``.

``grade.py`` starts this module once per submission, in its own process (with a
memory limit and a wall-clock limit it enforces from outside), so that nothing a
notebook does can stop the batch. Here:

1. the stored outputs are thrown away (never trusted), and two cells are added:
   ``kernel_guard.install`` first, ``kernel_guard.put_back`` last;
2. nbclient runs every cell in a fresh kernel (in bubblewrap where there is one,
   reached over Unix sockets), in a fresh scratch folder, with a per-cell time limit
   (the kernel is interrupted when it runs out) and errors allowed, so a failing
   cell costs that cell, not the rest; the browser edition's install cell is skipped;
3. a kernel that dies (``os._exit``, a kill, the memory limit) is started again, in
   a new scratch folder, with the cell it died in skipped, at most ``RETRIES`` times;
4. the last cell's one line that starts with the run's nonce says what the notebook had
   replaced in the checkers (put back by then); every exercise is then asked for answers
   in rounds and compared here (``grade_ask.py``). Anything else the notebook printed, or
   wrote to a results file, is ignored. Cells are numbered among all cells, from 1.

The job file names the notebook, the work folder (a scratch folder per start is made
in it), the folders the kernel may not read, the exercises to check, whether to use
the sandbox and which user, and each exercise's inputs (with the key's values on them,
computed once by the grader); the result is written as JSON to
the job's ``out``.
What it leaves out: the wall-clock limit (the parent's), marks and files (``grade.py``).
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
    skip_slow_imports()
    adopt_orphans()
    job = json.loads(Path(job_path).read_text(encoding="utf-8"))
    from . import trusted_spec

    trusted_spec.known_expected(job.get("expected", {}))
    try:
        result = run(job)
        Path(job["out"]).write_text(json.dumps(result), encoding="utf-8")
    finally:
        end_descendants()
    return 0


def adopt_orphans() -> None:
    """On Linux, become the "subreaper" of all this process starts: a daemon the kernel leaves
    behind (a double fork, ``setsid``) is then this process's child, not init's, and
    ``end_descendants`` ends it. In the sandbox the kernel's pid namespace does the same."""
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            ctypes.CDLL(None, use_errno=True).prctl(36, 1)  # 36: PR_SET_CHILD_SUBREAPER
        except (OSError, AttributeError):
            pass


def end_descendants() -> None:
    """Kill every process still below this one (the kernel is shut down by now)."""
    try:
        import psutil

        for child in psutil.Process().children(recursive=True):
            child.kill()
    except Exception:  # psutil missing, or the process just ended
        pass


def skip_slow_imports() -> None:
    """Keep ``rfc3987_syntax`` out of this process: nbformat imports jsonschema, whose format
    checkers import it, and it compiles a grammar at import (about 2.5 s of CPU per submission,
    measured; the grader checks no IRI). jsonschema goes without its "iri" format."""
    sys.modules.setdefault("rfc3987_syntax", None)  # type: ignore[arg-type]


_KEPT = ("PATH", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "SYSTEMROOT", "PYTHONHASHSEED")


def kernel_environment(scratch: Path, sandboxed: bool = False) -> dict[str, str]:
    """The kernel's environment: every cache and home in the scratch folder, no course settings.

    In the sandbox only a few plain settings pass (the grader's own environment may
    hold an instructor's keys and paths); outside it, all but the course's settings.
    """
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("REACT_COURSE_") and (not sandboxed or k in _KEPT)}
    if sandboxed:  # the grader's PATH may name the instructor's folders
        env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), "/usr/bin", "/bin"])
    tmp = scratch / ".tmp"
    tmp.mkdir(exist_ok=True)
    env.update(HOME=str(scratch), TMPDIR=str(tmp), TEMP=str(tmp), TMP=str(tmp),
               MPLCONFIGDIR=str(tmp), IPYTHONDIR=str(scratch / ".ipython"),
               PYTHONDONTWRITEBYTECODE="1", MPLBACKEND="Agg", USER="student", LOGNAME="student")
    return env


def sandboxed_kernel(job: dict, scratch: Path, sockets: Path) -> Any:
    """A kernel manager whose kernel starts inside bubblewrap and listens on Unix sockets."""
    from . import sandbox
    from .kernels import KernelManager

    class SandboxedKernel(KernelManager):
        def format_kernel_cmd(self, extra_arguments: list[str] | None = None) -> list[str]:
            argv = super().format_kernel_cmd(extra_arguments)
            sandbox.hand_over([Path(self.connection_file)], job["uid"])
            return sandbox.command(argv, scratch=scratch, sockets=sockets, course=Path(job["course"]),
                                   forbidden=[Path(p) for p in job["hidden"]],
                                   env=kernel_environment(scratch, sandboxed=True),
                                   memory_mb=job["memory_mb"], uid=job["uid"])

        def interrupt_kernel(self) -> None:
            """SIGINT to the kernel itself: bubblewrap, the process Jupyter started, passes none on."""
            import signal

            for pid in sandbox.kernel_pids(self.provisioner.process.pid if self.provisioner else None):
                os.kill(pid, signal.SIGINT)

    manager = SandboxedKernel(kernel_name=job["kernel"], transport="ipc", ip=str(sockets / "k"))
    manager.connection_file = str(sockets / "kernel.json")
    return manager


def fresh_folders(job: dict, attempt: int) -> tuple[Path, Path]:
    """A new scratch folder (and socket folder) for each start of the kernel: nothing planted survives."""
    from . import sandbox

    scratch, sockets = Path(job["work"]) / f"run{attempt}", Path(job["work"]) / f"sockets{attempt}"
    scratch.mkdir()
    sockets.mkdir(mode=0o700)
    (scratch / ".tmp").mkdir()
    if job.get("sandbox"):
        sandbox.hand_over([scratch, scratch / ".tmp", sockets], job["uid"])
    return scratch, sockets


def prepared(notebook: Any, job: dict, nonce: str, skipped: set[int], scratch: Path) -> Any:
    """The notebook to run: only its code, outputs dropped, the guard first, the putting back last.

    In the sandbox the instructor's folders are not there at all, so the guard is not
    told their names (a cell could read them from it).
    """
    import nbformat

    forbidden = [] if job.get("sandbox") else job["forbidden"]
    cells = [nbformat.v4.new_code_cell(
        f"import {GUARD} as _guard\n_guard.install({str(scratch)!r}, {forbidden!r}, "
        f"{job['wanted'][0][0][:2]!r})\ndel _guard", metadata={"grader": True})]
    for number, cell in code_cells(notebook):
        source = cell.source
        if number in skipped:
            source = "pass  # skipped by the grader: the kernel died here"
        elif is_install_cell(cell):
            source = "pass  # the browser edition's install cell: the grader's kernel has the course"
        cells.append(nbformat.v4.new_code_cell(source))
    cells.append(nbformat.v4.new_code_cell(
        f"import {GUARD} as _guard\n_guard.put_back({nonce!r})", metadata={"grader": True}))
    return nbformat.v4.new_notebook(cells=cells, metadata={})


def code_cells(notebook: Any) -> list[tuple[int, Any]]:
    """``(number, cell)`` for each code cell, numbered among all cells from 1 (as a reader counts)."""
    return [(n, c) for n, c in enumerate(notebook.cells, start=1) if c.cell_type == "code"]


def is_install_cell(cell: Any) -> bool:
    """The browser edition's first cell (``%pip install react-course``), tagged by ``lite/build.py``."""
    tags = cell.get("metadata", {}).get("tags", []) or []
    return ("browser-setup" in tags or cell.get("id") == "browser-setup") and "%pip install" in cell.source


def execute(notebook: Any, job: dict, state: dict, scratch: Path, sockets: Path,
            asker: Any = None) -> None:
    from .grade_ask import AskingClient
    from .kernels import KernelManager

    def started(cell: Any = None, cell_index: int = 0, **_: Any) -> None:
        state["cell"], state["started"] = cell_index, True

    client = AskingClient(  # the guard, the grading and the questions get the grader's time-out
        notebook, timeout=job["cell_timeout"], interrupt_on_timeout=True, allow_errors=True,
        kernel_name=job["kernel"], record_timing=False, startup_timeout=60,
        resources={"metadata": {"path": str(scratch)}}, on_cell_execute=started,
        timeout_func=lambda cell: job["check_timeout" if cell.metadata.get("grader") else "cell_timeout"],
        **({"km": sandboxed_kernel(job, scratch, sockets)} if job.get("sandbox")
           else {"kernel_manager_class": KernelManager}),
    )
    client.asker = asker
    client.execute(env=kernel_environment(scratch))


def run(job: dict) -> dict:
    """Execute the job's notebook and read the grading line; never raises for a bad notebook."""
    import nbformat
    from nbclient.exceptions import DeadKernelError

    try:
        source = nbformat.reads(Path(job["notebook"]).read_text(encoding="utf-8"), as_version=4)
    except Exception as error:  # nbformat raises many kinds for a malformed file
        return {"status": f"corrupt notebook: {type(error).__name__}", "results": None}
    from .grade_ask import Asker, as_json

    nonce, skipped, died = secrets.token_hex(16), set(), []
    names = dict(map(tuple, job["wanted"]))
    for attempt in range(RETRIES + 1):
        scratch, sockets = fresh_folders(job, attempt)
        notebook, state = prepared(source, job, nonce, skipped, scratch), {"cell": 0}
        asker = Asker(nonce, job["plan"], names, job["check_timeout"])
        grading = len(notebook.cells) - 1
        try:
            execute(notebook, job, state, scratch, sockets, asker)
            break
        except DeadKernelError:
            if state["cell"] == 0 or state["cell"] >= grading:
                return {"status": "the kernel died while grading", "results": None, "died": died}
            number = code_cells(source)[state["cell"] - 1][0]
            died.append(number)
            skipped.add(number)
        except Exception as error:  # the kernel would not start, or nbclient gave up
            if not state.get("started") and attempt < RETRIES:  # no cell ran: a slow start on a
                continue  # loaded machine (nbclient's start-up time-out) is not the notebook's fault
            return {"status": f"the grader could not run the notebook ({type(error).__name__})",
                    "results": None, "died": died}
    else:
        return {"status": "the kernel died too often", "results": None, "died": died}
    outcome = read_outcome(notebook, nonce, grading)
    numbers = [n for n, _ in code_cells(source)]
    outcome["errors"] = [[numbers[i - 1], name] for i, name in outcome.get("errors", [])]
    if outcome["status"] == "graded":  # the exercises compared here, in the grader's order
        outcome["results"] = [as_json(asker.results[e]) for e, _ in job["wanted"] if e in asker.results]
        outcome["compared_here"], outcome["rounds"] = sorted(asker.results), asker.rounds
    return {**outcome, "died": died, "peak_mb": _peak_mb()}


def _peak_mb() -> float:
    """The largest resident size among the processes this one waited for (its kernels), in MB."""
    try:
        import resource
    except ImportError:  # Windows
        return 0.0
    scale = 1024 * 1024 if sys.platform == "darwin" else 1024  # bytes on macOS, KiB on Linux
    return round(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / scale, 1)


def read_outcome(notebook: Any, nonce: str, grading: int) -> dict:
    """The last cell's nonce line (cell ``grading``); which of the student's cells raised or timed out."""
    errors = []
    for number, cell in enumerate(notebook.cells[1:grading], start=1):
        for output in cell.get("outputs", []):
            if output.get("output_type") == "error":
                errors.append([number, output.get("ename", "error")])
    reported = None
    for output in notebook.cells[grading].get("outputs", []):
        text = output.get("text", "") if output.get("output_type") == "stream" else ""
        for line in text.splitlines():
            if line.startswith(nonce):
                reported = json.loads(line[len(nonce):])
    if reported is None:
        raised = [o.get("ename") for o in notebook.cells[grading].get("outputs", [])
                  if o.get("output_type") == "error"]
        status = "the checks did not finish" + (f" ({raised[0]})" if raised else "")
        return {"status": status, "results": None, "errors": errors}
    return {"status": "graded", "results": [], "tampered": reported["tampered"], "errors": errors}


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
