"""``react-course grade SUBMISSIONS --out grades.csv``: a folder of notebooks, graded fairly and fast.

Each submission is copied alone into a fresh scratch folder (outside the course and
the submissions folder, so nothing of ``solutions/`` or of other students is beside
it) and run by ``grade_run.py`` in a process of its own, under a memory limit
(``RLIMIT_AS``, POSIX) and a wall-clock limit after which it and its kernel are
killed. Submissions run in parallel, one per core by default. Whatever happens to
one (an infinite loop, ``os._exit``, a memory bomb) becomes its status; the others
are graded as if it were not there.

Outputs: the CSV (one row per submission, a column per exercise; nbgrader's and
otter-grader's column names, see ``COLUMNS``), a feedback file per student (Markdown
and HTML) and ``summary.md`` (per exercise, and the near-identical pairs).

On Windows there is no ``RLIMIT_AS``: the wall-clock limit still holds, the memory
limit does not (a memory bomb there is stopped by the operating system, or by time).
What it leaves out: what happens inside the kernel (``grade_run.py``, ``kernel_guard.py``).
"""

from __future__ import annotations

import csv
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from ..checks.framework import CaseResult, CheckResult
from . import feedback, submissions

# nbgrader's export (student_id, assignment, raw_score, score, max_score) and otter-grader's
# grades (file, one column per question, total, possible, percent_correct), then ours.
COLUMNS = ("student_id", "file", "assignment")
TOTALS = ("raw_score", "score", "max_score", "total", "possible", "percent_correct", "status",
          "similar_to", "tampered")


@dataclass(frozen=True)
class Limits:
    cell_timeout: float = 30.0  # seconds per cell, then the kernel is interrupted
    check_timeout: float = 120.0  # seconds for the grading cell (every exercise's checks)
    wall: float = 300.0  # seconds for the whole submission, kernel start included
    memory_mb: int = 3072  # address space of the grading process and of its kernel
    workers: int = max(1, os.cpu_count() or 1)
    kernel: str = "react-course"


@dataclass
class Grade:
    student: str
    file: str
    lesson: str = ""
    status: str = "graded"
    results: list[CheckResult] = field(default_factory=list)
    max_points: dict[str, int] = field(default_factory=dict)
    errors: list = field(default_factory=list)
    died: list = field(default_factory=list)
    tampered: list = field(default_factory=list)
    similar_to: list = field(default_factory=list)
    own_code: str = ""
    peak_mb: float = 0.0  # the largest resident size of its kernel

    @property
    def points(self) -> dict[str, int]:
        return {r.exercise: r.points for r in self.results}

    @property
    def score(self) -> int:
        return sum(self.points.values())

    @property
    def max_score(self) -> int:
        return sum(self.max_points.values())


def grade_folder(folder: str | Path, out: str | Path = "grades.csv", *, lesson: str | None = None,
                 limits: Limits | None = None, course: Path | None = None,
                 progress: bool = True) -> list[Grade]:
    """Grade every submission in ``folder``; write the CSV, the feedback and the summary."""
    limits, folder, out = limits or Limits(), Path(folder).resolve(), Path(out).resolve()
    lessons = submissions.handouts(course)
    found = [submissions.read(s, p, lessons) for s, p in submissions.discover(folder)]
    lesson = lesson or _majority(found)
    if lesson not in lessons:
        raise ValueError(f"no exercises for lesson {lesson!r}; lessons with exercises: "
                         + ", ".join(sorted(lessons)))
    handout = lessons[lesson]
    forbidden = [str((course or submissions.course_root()) / "solutions"), str(folder), str(out.parent)]
    bar = _Progress(len(found), progress)

    def one(sub: submissions.Submission) -> Grade:
        grade = _grade_one(sub, handout, forbidden, limits)
        bar.step()
        return grade

    with ThreadPoolExecutor(max_workers=limits.workers) as pool:
        grades = list(pool.map(one, found))
    bar.done()
    pairs = submissions.similar_pairs({g.student: g.own_code for g in grades if g.results})
    for first, second, _ in pairs:
        next(g for g in grades if g.student == first).similar_to.append(second)
        next(g for g in grades if g.student == second).similar_to.append(first)
    write_outputs(grades, [e for e, _ in handout.wanted], out, pairs)
    return grades


def _majority(found: list[submissions.Submission]) -> str:
    lessons = [s.lesson for s in found if s.lesson]
    return max(sorted(set(lessons)), key=lessons.count) if lessons else ""


def _grade_one(sub: submissions.Submission, handout: submissions.Handout, forbidden: list[str],
               limits: Limits) -> Grade:
    grade = Grade(sub.student, sub.path.name, sub.lesson,
                  max_points={e: 0 for e, _ in handout.wanted})
    if sub.problem:
        grade.status = sub.problem
    elif sub.lesson != handout.lesson:
        grade.status = f"a notebook of lesson {sub.lesson}, not {handout.lesson}"
    else:
        grade.own_code = submissions.own_code(sub.notebook, handout)
        outcome = _run_isolated(sub, handout, forbidden, limits)
        grade.status = outcome["status"]
        grade.errors, grade.died = outcome.get("errors", []), outcome.get("died", [])
        grade.tampered, grade.peak_mb = outcome.get("tampered", []), outcome.get("peak_mb", 0.0)
        grade.results = [_result(r) for r in outcome.get("results") or []]
        grade.max_points.update({r.exercise: r.max_points for r in grade.results})
    return grade


def _result(data: dict) -> CheckResult:
    return CheckResult(data["exercise"], data["title"], tuple(CaseResult(**c) for c in data["cases"]))


def _run_isolated(sub: submissions.Submission, handout: submissions.Handout, forbidden: list[str],
                  limits: Limits) -> dict:
    """Copy the notebook alone into a scratch folder and run it in its own limited process."""
    work = Path(tempfile.mkdtemp(prefix="react-course-grade-"))
    try:
        scratch, private = work / "submission", work / "grader"
        scratch.mkdir()
        private.mkdir()
        notebook = scratch / _safe_name(sub.path.name)
        shutil.copyfile(sub.path, notebook)
        job = {"notebook": str(notebook), "scratch": str(scratch), "out": str(private / "out.json"),
               "forbidden": [*forbidden, str(private)], "wanted": [list(w) for w in handout.wanted],
               "cell_timeout": limits.cell_timeout, "check_timeout": limits.check_timeout,
               "kernel": limits.kernel}
        (private / "job.json").write_text(json.dumps(job), encoding="utf-8")
        code = _run_limited([sys.executable, "-m", "react_course.course.grade_run",
                             str(private / "job.json")], limits, private / "log.txt")
        if code == "timeout":
            return {"status": f"stopped after {limits.wall:g} s (the wall-clock limit)"}
        out = private / "out.json"
        if not out.exists():
            return {"status": f"the grading process ended without a result (exit code {code}; "
                              "the memory limit?)"}
        return json.loads(out.read_text(encoding="utf-8"))
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _run_limited(command: list[str], limits: Limits, log: Path) -> int | str:
    """Run ``command`` under the memory limit; past the wall time kill it and everything it started."""
    def limit_memory() -> None:
        import resource

        size = limits.memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (size, size))

    posix = os.name == "posix"
    with open(log, "wb") as sink:
        process = subprocess.Popen(command, stdout=sink, stderr=subprocess.STDOUT,
                                   stdin=subprocess.DEVNULL, start_new_session=posix,
                                   preexec_fn=limit_memory if posix else None)
        try:
            return process.wait(timeout=limits.wall)
        except subprocess.TimeoutExpired:
            _kill_tree(process)
            return "timeout"


def _kill_tree(process: subprocess.Popen) -> None:
    """The kernel runs in a session of its own: find it among the descendants, then kill all."""
    try:
        import psutil

        family = psutil.Process(process.pid).children(recursive=True)
    except Exception:  # psutil missing, or the process just ended
        family = []
    process.kill()
    for child in family:
        try:
            child.kill()
        except Exception:
            pass
    process.wait()


def _safe_name(name: str) -> str:
    """A file name with no folder in it.

    >>> _safe_name("../../x y.ipynb")
    'x_y.ipynb'
    """
    return re.sub(r"[^\w.-]", "_", Path(name).name).lstrip(".") or "submission.ipynb"


def write_outputs(grades: list[Grade], exercise_ids: list[str], out: Path,
                  pairs: list[tuple[str, str, float]]) -> None:
    out.parent.mkdir(parents=True, exist_ok=True)
    with open(out, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow([*COLUMNS, *exercise_ids, *TOTALS])
        for g in grades:
            possible = g.max_score
            share = round(g.score / possible, 4) if possible else 0.0
            writer.writerow([g.student, g.file, g.lesson, *(g.points.get(e, 0) for e in exercise_ids),
                             g.score, g.score, possible, g.score, possible, share, g.status,
                             " ".join(g.similar_to), " ".join(g.tampered)])
    folder = out.parent / "feedback"
    folder.mkdir(exist_ok=True)
    for g in grades:
        stem = _safe_name(g.student)
        (folder / f"{stem}.md").write_text(feedback.markdown(g), encoding="utf-8")
        (folder / f"{stem}.html").write_text(feedback.html(g), encoding="utf-8")
    (out.parent / "summary.md").write_text(feedback.summary_markdown(grades, exercise_ids, pairs),
                                           encoding="utf-8")


class _Progress:
    """A one-line progress bar on stderr: ``[#####.....] 5/10 graded``."""

    def __init__(self, total: int, show: bool) -> None:
        self.total, self.done_count, self.show, self.start = total, 0, show, time.monotonic()
        self.lock = threading.Lock()

    def step(self) -> None:
        with self.lock:
            self.done_count += 1
            if not self.show:
                return
            filled = 20 * self.done_count // max(self.total, 1)
            print(f"\r[{'#' * filled}{'.' * (20 - filled)}] {self.done_count}/{self.total} graded",
                  end="", file=sys.stderr, flush=True)

    def done(self) -> None:
        if self.show:
            print(f" in {time.monotonic() - self.start:.0f} s", file=sys.stderr)
