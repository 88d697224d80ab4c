"""For students: ``react-course progress`` (where am I?) and ``react-course reset LESSON``.

Progress is read from the student's own check results: the last check cell of each
exercise in their saved notebooks (``exercises/``, and lesson 00 in ``notebooks/``),
and the lines of the results file (``checks.results_path``: ``REACT_COURSE_RESULTS``
when set, and in the browser edition a file on the drive; the later word wins).
Nothing is run; an exercise whose check never ran is "not started". To hand the
work in from a browser tab: ``handin.py``.

``reset`` puts one exercise notebook back as it was handed out (built again from
``solutions/``, the masters) after keeping the student's version as a dated copy
in ``exercises/.backups/``.

What it leaves out: grading (``grade.py``): progress trusts the student's notebook,
which is fine for the student's own view and never for marks.
"""

from __future__ import annotations

import datetime as dt
import json
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

from ..checks import results_path
from .submissions import cell_source, course_root

_SUMMARY = re.compile(r"Check (\d\d\.\w+) \((.*?)\): (all passed|not attempted yet|\d+ of \d+ cases passed)"
                      r" \[(\d+)/(\d+) points\]")
_CHECKED = re.compile(r"""\bcheck\(\s*["'](\d\d\.\w+)["']""")
_WORDS = {"all passed": "passed", "not attempted yet": "not attempted"}


@dataclass(frozen=True)
class Mark:
    exercise: str
    status: str  # passed, failed, not attempted, not started
    points: int = 0
    max_points: int = 0


def student_notebooks(root: Path) -> list[Path]:
    """The notebooks that hold a student's checks: lesson 00, then each exercise notebook."""
    lesson00 = sorted((root / "notebooks").glob("00_*.ipynb"))
    return lesson00 + sorted((root / "exercises").glob("[0-9][0-9]_*.ipynb"))


def marks_in(notebook: dict) -> dict[str, Mark]:
    """The last shown verdict of each exercise whose check cell is in ``notebook``."""
    found: dict[str, Mark] = {}
    for cell in notebook.get("cells", []):
        if cell.get("cell_type") != "code":
            continue
        for exercise_id in _CHECKED.findall(cell_source(cell)):
            found.setdefault(exercise_id, Mark(exercise_id, "not started"))
        for output in cell.get("outputs", []):
            text = output.get("data", {}).get("text/plain", "") or output.get("text", "")
            for match in _SUMMARY.finditer("".join(text) if isinstance(text, list) else text):
                status = _WORDS.get(match[3], "failed")
                found[match[1]] = Mark(match[1], status, int(match[4]), int(match[5]))
    return found


def marks_in_results(path: Path) -> dict[str, Mark]:
    """The last line of each exercise in a results file (``REACT_COURSE_RESULTS``)."""
    found = {}
    for line in path.read_text(encoding="utf-8").splitlines() if path.exists() else []:
        try:
            data = json.loads(line)
            found[data["exercise"]] = Mark(data["exercise"], data["status"], data["points"],
                                           data["max_points"])
        except (ValueError, KeyError, TypeError):
            continue  # a torn or hand-edited line is skipped, not fatal
    return found


def progress(root: Path | None = None) -> list[tuple[str, Path, list[Mark]]]:
    """``(lesson, notebook, marks)`` for every lesson with exercises, in lesson order."""
    root = root or course_root()
    extra = results_path()
    logged = marks_in_results(extra) if extra else {}
    lessons = []
    for path in student_notebooks(root):
        marks = marks_in(json.loads(path.read_text(encoding="utf-8")))
        marks.update({k: v for k, v in logged.items() if k in marks})
        lessons.append((path.name[:2], path, list(marks.values())))
    return lessons


def report(root: Path | None = None) -> str:
    """The progress as text, ending with the next thing to do."""
    root = root or course_root()
    lessons = progress(root)
    if not lessons:  # e.g. a browser tab whose kernel cannot see the drive (doctor says why)
        return (f"No exercise notebooks found in {root}, so no progress to show: run this in the course "
                "folder (in the browser edition, react_course.course.doctor.diagnose() says what is wrong).")
    lines, next_up = [], None
    for lesson, path, marks in lessons:
        done = sum(m.status == "passed" for m in marks)
        lines.append(f"Lesson {lesson} ({path.relative_to(root).as_posix()}): {done}/{len(marks)} passed")
        for mark in marks:
            points = f" [{mark.points}/{mark.max_points} points]" if mark.max_points else ""
            lines.append(f"  {mark.status:<13} {mark.exercise}{points}")
            if next_up is None and mark.status != "passed":
                next_up = (mark, path.relative_to(root).as_posix())
    if next_up is None:
        lines.append("\nNext: every exercise passes. Try the stretch questions, or a real model.")
    else:
        mark, where = next_up
        verb = "fix" if mark.status == "failed" else "do"
        lines.append(f"\nNext: {verb} exercise {mark.exercise} in {where}.")
    return "\n".join(lines)


def reset(lesson: str, root: Path | None = None, *, now: dt.datetime | None = None) -> tuple[Path, Path]:
    """Put ``exercises/NN_*.ipynb`` back as handed out; return (the notebook, the dated copy)."""
    import nbformat

    from .authoring import make_exercise, notebook_text

    root = root or course_root()
    number = lesson.split("_", 1)[0].zfill(2)
    matches = sorted((root / "solutions").glob(f"{number}_*.ipynb"))
    if not number.isdigit() or not matches:
        known = ", ".join(p.name[:2] for p in sorted((root / "solutions").glob("[0-9][0-9]_*.ipynb")))
        raise ValueError(f"no exercise notebook for lesson {lesson!r}; lessons with exercises: {known}")
    master = matches[0]
    target = root / "exercises" / master.name
    stamp = (now or dt.datetime.now()).strftime("%Y-%m-%d-%H%M%S")
    backup = root / "exercises" / ".backups" / f"{master.stem}-{stamp}.ipynb"
    backup.parent.mkdir(parents=True, exist_ok=True)
    if target.exists():
        shutil.copy2(target, backup)
    target.write_text(notebook_text(make_exercise(nbformat.read(master, as_version=4))), encoding="utf-8")
    return target, backup
