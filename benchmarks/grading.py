"""Grade a batch of 30 submissions of lesson 03 and report the wall time and memory.

    python benchmarks/grading.py            writes benchmarks/grading.json (sandboxed and not)

The batch is made by ``tests/grading_submissions.py`` from the real lesson 03 notebooks
(all four exercises): the twenty kinds of submission the grader's tests use (complete,
partial, hostile, broken), then ten more complete, partial and empty ones, as a room
hands in. The grader runs with its defaults (one submission per core, 300 s and 3 GB
per submission) except a 10 s cell time-out, so that the infinite loop costs 10 s.
Memory is the peak resident size of the largest kernel (each grading process reports its
kernel's, from ``getrusage``) and of the grader itself. The batch is graded twice, each in
a fresh process: in bubblewrap (where it is installed) and with ``REACT_COURSE_NO_SANDBOX=1``.
The load average at the start and end is recorded (the machine may be shared, and then
wall time says more about the neighbours than about the grader), and so is the CPU time
the grading took. A benchmark, not a test: nothing here is asserted.
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from grading_submissions import SINGLE, submission_kinds  # noqa: E402

from react_course.course.grade import Limits, grade_folder  # noqa: E402


def main() -> int:
    if len(sys.argv) > 1 and sys.argv[1] == "--one":
        return one()
    figures = {}
    for label, extra in (("sandboxed", {}), ("unsandboxed", {"REACT_COURSE_NO_SANDBOX": "1"})):
        done = subprocess.run([sys.executable, __file__, "--one"], env={**os.environ, **extra},
                              capture_output=True, text=True, check=True)
        figures[label] = json.loads(done.stdout.strip().splitlines()[-1])
    (ROOT / "benchmarks" / "grading.json").write_text(json.dumps(figures, indent=1) + "\n")
    print(json.dumps(figures, indent=1))
    return 0


def one() -> int:
    load = os.getloadavg()[0]
    work = Path(tempfile.mkdtemp(prefix="react-course-grading-bench-"))
    folder, outside = work / "submissions", work / "outside"
    folder.mkdir()
    outside.mkdir()
    kinds = submission_kinds(ROOT, outside)
    for kind in SINGLE:
        kinds[kind](folder)
    spare = work / "spare"
    spare.mkdir()
    for number in range(10):
        kind = ("complete", "partial", "empty")[number % 3]
        kinds[kind](spare).rename(folder / f"student{number:02d}_{kind}.ipynb")
    limits = Limits(cell_timeout=10)
    start, before = time.monotonic(), _cpu()
    grades = grade_folder(folder, work / "out" / "grades.csv", lesson="03", limits=limits, progress=False)
    wall, cpu = time.monotonic() - start, _cpu() - before
    grader_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    kernel_mb = max(grade.peak_mb for grade in grades)
    statuses: dict[str, int] = {}
    for grade in grades:
        key = grade.status if not grade.status.startswith(("not a", "corrupt")) else grade.status[:16]
        statuses[key] = statuses.get(key, 0) + 1
    figures = {"submissions": len(grades), "workers": limits.workers, "wall_seconds": round(wall, 1),
               "seconds_per_submission": round(wall / len(grades), 2),
               "peak_rss_mb_kernel": round(kernel_mb), "peak_rss_mb_grader": round(grader_mb),
               "cpu_seconds": round(cpu, 1), "statuses": statuses, "sandbox": grades[0].sandbox,
               "compared_in_the_grader": sorted({e for g in grades for e in g.compared_here}),
               "load_average_at_start": round(load, 1), "load_average_at_end": round(os.getloadavg()[0], 1)}
    print(json.dumps(figures))
    shutil.rmtree(work, ignore_errors=True)
    return 0


def _cpu() -> float:
    """CPU seconds of this process and of the processes it waited for (the grading processes and,
    unsandboxed, their kernels: a kernel in bubblewrap's pid namespace is not counted)."""
    mine, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return mine.ru_utime + mine.ru_stime + children.ru_utime + children.ru_stime


if __name__ == "__main__":
    sys.exit(main())
