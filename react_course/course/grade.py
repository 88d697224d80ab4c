"""``react-course grade SUBMISSIONS --out grades.csv``: a room's notebooks, graded fairly and fast.

Every notebook handed in (``intake.py``: loose files, nbgrader student folders,
browser hand-ins, ``--zips``) of every lesson found is run by ``grade_run.py`` in a
process of its own, its kernel in a sandbox where the machine has one
(``sandbox.py``), under a memory limit and a wall-clock limit after which it, its
kernel and everything they started are killed. Submissions run in parallel, one
per core by default, each worker with its own user id in the sandbox. Whatever
happens to one (an infinite loop, ``os._exit``, a memory bomb, a kill of its
kernel) becomes its status; the others are graded as if it were not there.

The scale is the grader's, never the submission's: each exercise's weight and
whether it is optional come from the handout (``submissions.scoring``), its
maximum from the checks registry (``registry.maximum``), computed here before any
worker starts (``scores.py``). Every exercise is compared with the key here too, from
its spec (``trusted_spec.py``); the kernel only answers.

Outputs (``gradebook.py``): the CSV, the gradebook exports, a feedback file per
student and lesson, and a summary per lesson.

On Windows there is no ``RLIMIT_AS``: the wall-clock limit still holds, the memory
limit does not (a memory bomb there is stopped by the operating system, or by time).
What it leaves out: what happens inside the kernel (``grade_run.py``, ``kernel_guard.py``).
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import shutil
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from ..checks.framework import CaseResult, CheckResult
from . import gradebook, intake, processes, registry, sandbox, scores, submissions, trusted_spec


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
    """One submission's grade: the case results from its kernel, the scale from the handout."""

    student: str
    file: str
    lesson: str = ""
    status: str = "graded"
    results: list[CheckResult] = field(default_factory=list)
    maximum: dict[str, int] = field(default_factory=dict)  # case points per exercise, from the registry
    weights: dict[str, float] = field(default_factory=dict)  # gradebook points per exercise
    optional: frozenset[str] = frozenset()
    errors: list = field(default_factory=list)  # [cell number, exception name]
    died: list = field(default_factory=list)
    tampered: list = field(default_factory=list)
    similar_to: list = field(default_factory=list)
    own_code: str = ""
    peak_mb: float = 0.0  # the largest resident size of its kernel
    sandbox: str = "unsandboxed"
    broken_cells: list = field(default_factory=list)  # cells that do not compile (scores.py)
    student_id: str = ""  # from the roster; the hand-in name when there is none
    compared_here: list = field(default_factory=list)  # exercises compared in the grader's process

    @property
    def points(self) -> dict[str, float]:
        """Each exercise's gradebook points: its weight times the share of its cases passed."""
        return {e: scores.exercise_points(self, e) for e in self.weights}

    @property
    def score(self) -> float:
        return round(sum(v for e, v in self.points.items() if e not in self.optional), 2)

    @property
    def max_score(self) -> float:
        return round(sum(w for e, w in self.weights.items() if e not in self.optional), 2)


def grade_folder(folder: str | Path | None, out: str | Path = "grades.csv", *, lesson: str | None = None,
                 limits: Limits | None = None, course: Path | None = None, progress: bool = True,
                 zips: str | Path | None = None, roster: str | Path | None = None,
                 exports: tuple[str, ...] = ()) -> list[Grade]:
    """Grade every submission in ``folder`` (and the hand-in zips in ``zips``); write the outputs.

    Every lesson found is graded (only ``lesson`` when given); ``out`` is one CSV with a
    row per submission, or, with ``{lesson}`` in its name, one CSV per lesson.
    """
    limits, out = limits or Limits(), Path(out).resolve()
    lessons = submissions.handouts(course)
    box = sandbox.detect()
    if not box.kind and progress:
        print(f"Grading unsandboxed: {box.reason}. Every row says so.", file=sys.stderr)
    with tempfile.TemporaryDirectory(prefix="react-course-zips-") as unzipped:
        found = intake.discover(Path(folder).resolve()) if folder else []
        found += intake.from_zips(Path(zips), Path(unzipped)) if zips else []
        subs = [submissions.read(f.student, f.path, lessons) if not f.refused
                else submissions.Submission(f.student, f.path, problem=f.refused) for f in found]
        graded = sorted({s.lesson for s in subs if s.lesson in lessons} if not lesson else {lesson})
        if not graded or any(n not in lessons for n in graded):
            raise ValueError(f"no exercises for lesson {lesson or ''!r}; lessons with exercises: "
                             + ", ".join(sorted(lessons)))
        folders = [Path(p) for p in (folder, zips) if p]
        forbidden = [(course or submissions.course_root()) / "solutions", *folders, out.parent]
        grades = _grade_all(subs, {n: lessons[n] for n in graded}, forbidden, limits, box, progress)
    gradebook.apply_roster(grades, roster)
    pairs = {}
    for number in graded:
        codes = {g.student_id: g.own_code for g in grades if g.lesson == number and g.results}
        pairs[number] = submissions.similar_pairs(codes)
        for first, second, _ in pairs[number]:
            for g in grades:
                if g.lesson == number and g.student_id in (first, second):
                    g.similar_to.append(second if g.student_id == first else first)
    gradebook.write_all(grades, {n: lessons[n] for n in graded}, out, pairs, exports)
    return grades


def _grade_all(subs: list[submissions.Submission], handouts: dict[str, submissions.Handout],
               forbidden: list[Path], limits: Limits, box: sandbox.Sandbox, progress: bool) -> list[Grade]:
    _compiled()
    for handout in handouts.values():  # here, not in the workers: a check redirects sys.stdout
        for exercise_id, _ in handout.wanted:  # while it runs, which threads would tangle
            registry.maximum(exercise_id)
            trusted_spec.expected_values(exercise_id)  # its inputs, and the key's values on them
    bar = _Progress(len(subs), progress)
    uids: queue.Queue[int] = queue.Queue()
    for slot in range(limits.workers):  # a user per worker: one fork bomb cannot starve a neighbour
        uids.put(sandbox.NOBODY - 1 - slot)

    def one(sub: submissions.Submission) -> Grade:
        uid = uids.get()
        try:
            grade = _grade_one(sub, handouts, forbidden, limits, box, uid)
        finally:
            uids.put(uid)
        bar.step()
        return grade

    with ThreadPoolExecutor(max_workers=limits.workers) as pool:
        grades = list(pool.map(one, subs))
    bar.done()
    return grades


def _compiled() -> None:
    """Byte-compile the course's package once, here: every kernel runs with
    ``PYTHONDONTWRITEBYTECODE`` and a read-only course, so in a fresh checkout each of them
    would compile every module it imports again."""
    import compileall

    with contextlib.suppress(OSError):  # a read-only install: compiled when it was installed
        compileall.compile_dir(Path(__file__).resolve().parents[1], quiet=2, workers=1)


def _grade_one(sub: submissions.Submission, handouts: dict[str, submissions.Handout],
               forbidden: list[Path], limits: Limits, box: sandbox.Sandbox, uid: int) -> Grade:
    handout = handouts.get(sub.lesson) or next(iter(handouts.values()))
    grade = Grade(sub.student, sub.path.name, sub.lesson if sub.lesson in handouts else handout.lesson,
                  sandbox=box.label, student_id=sub.student)
    grade.weights, grade.optional = dict(handout.weights), handout.optional
    grade.maximum = {e: registry.maximum(e) for e, _ in handout.wanted}
    if sub.problem:
        grade.status = sub.problem
    elif sub.lesson not in handouts:
        grade.status = f"a notebook of lesson {sub.lesson}, not {handout.lesson}"
    else:
        grade.own_code = submissions.own_code(sub.notebook, handout)
        grade.broken_cells = scores.broken_cells(sub.notebook)
        outcome = _run_isolated(sub, handout, forbidden, limits, box, uid)
        grade.status = outcome["status"]
        grade.errors, grade.died = outcome.get("errors", []), outcome.get("died", [])
        grade.tampered, grade.peak_mb = outcome.get("tampered", []), outcome.get("peak_mb", 0.0)
        grade.compared_here = outcome.get("compared_here", [])
        grade.results = [scores.explained(_result(r), grade.broken_cells, handout)
                         for r in outcome.get("results") or []]
    return grade


def _result(data: dict) -> CheckResult:
    return CheckResult(data["exercise"], data["title"], tuple(CaseResult(**c) for c in data["cases"]))


def _run_isolated(sub: submissions.Submission, handout: submissions.Handout, forbidden: list[Path],
                  limits: Limits, box: sandbox.Sandbox, uid: int) -> dict:
    """Run the notebook in its own limited process, its kernel in the sandbox where there is one."""
    work = Path(tempfile.mkdtemp(prefix="react-course-grade-"))
    try:
        private = work / "grader"
        private.mkdir()
        notebook = private / intake.safe_name(sub.path.name)
        shutil.copyfile(sub.path, notebook, follow_symlinks=False)
        job = {"notebook": str(notebook), "work": str(work), "out": str(private / "out.json"),
               "forbidden": [*map(str, forbidden), str(private)], "hidden": [*map(str, forbidden)],
               "wanted": [list(w) for w in handout.wanted], "sandbox": bool(box.kind), "uid": uid,
               "plan": plan(handout),
               "expected": {e: trusted_spec.expected_values(e) for e, _ in handout.wanted},
               "course": str(submissions.course_root()), "memory_mb": limits.memory_mb,
               "cell_timeout": limits.cell_timeout, "check_timeout": limits.check_timeout,
               "kernel": limits.kernel}
        (private / "job.json").write_text(json.dumps(job), encoding="utf-8")
        code = processes.run_limited([sys.executable, "-m", "react_course.course.grade_run",
                             str(private / "job.json")], limits, private / "log.txt", bool(box.kind))
        if code == "timeout":
            return {"status": f"stopped after {limits.wall:g} s (the wall-clock limit)"}
        out = private / "out.json"
        if not out.exists():
            return {"status": f"the grading process ended without a result (exit code {code}; "
                              "the memory limit?)"}
        return json.loads(out.read_text(encoding="utf-8"))
    finally:
        shutil.rmtree(work, ignore_errors=True)


def plan(handout: submissions.Handout) -> dict[str, list[str]]:
    """Each of the handout's exercises, with the inputs its spec's check sends (``trusted_spec.py``)."""
    return {exercise_id: list(trusted_spec.inputs(exercise_id)) for exercise_id, _ in handout.wanted}


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
