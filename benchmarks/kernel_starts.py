"""How many Jupyter kernels a part of the suite starts: a count, which a loaded machine does not blur.

Kernel starts are the suite's largest wait, so this counts them instead of timing them. It runs
pytest with the given arguments and a ``sitecustomize`` on ``PYTHONPATH`` that notes every
Python process started as ``ipykernel_launcher`` (nbval's, nbclient's, the grader's, JupyterLab's
kernels alike, in any subprocess), then prints the count by the folder each kernel started in:

    python benchmarks/kernel_starts.py -n 0 tests/test_lessons_real_model.py -k 00_start_here

Nothing is written in the repository; the notes go to a temporary folder. (For that run the
``sitecustomize`` hides any other one, such as Debian's, which only sets up crash reports.)
"""

from __future__ import annotations

import collections
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NOTE_KERNEL = '''\
import os, sys
_log = os.environ.get("COURSE_KERNEL_LOG")
if _log and any("ipykernel" in part for part in getattr(sys, "orig_argv", sys.argv)):
    with open(_log, "a", encoding="utf-8") as out:
        out.write(os.getcwd() + "\\n")
'''


def count_kernel_starts(pytest_args: list[str]) -> tuple[int, collections.Counter]:
    """pytest's exit status and the kernels started, by the folder each started in."""
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "sitecustomize.py").write_text(NOTE_KERNEL, encoding="utf-8")
        log = Path(folder) / "kernels.txt"
        path = os.pathsep.join(p for p in (folder, os.environ.get("PYTHONPATH")) if p)
        env = {**os.environ, "PYTHONPATH": path, "COURSE_KERNEL_LOG": str(log)}
        status = subprocess.call([sys.executable, "-m", "pytest", *pytest_args], cwd=ROOT, env=env)
        started = log.read_text(encoding="utf-8").splitlines() if log.exists() else []
    return status, collections.Counter(_where(Path(folder)) for folder in started)


def _where(folder: Path) -> str:
    """The folder from the repository, or "a temporary folder" (a test's scratch course)."""
    return str(folder.relative_to(ROOT)) if folder.is_relative_to(ROOT) else "a temporary folder"


def main(argv: list[str]) -> int:
    status, by_folder = count_kernel_starts(argv)
    print(f"\n{sum(by_folder.values())} kernel starts (pytest exit status {status})")
    for folder, count in by_folder.most_common():
        print(f"  {count:>4}  in {folder}")
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
