"""What the grader is handed: a folder of submissions, read without trusting any of them.

A submission is one notebook file, found by ``intake.py`` in whatever layout the
room handed it in. Reading one never raises: a file that is not a notebook, or
not valid JSON, gets a status instead.

Which lesson a notebook is comes from the ``check("NN.name", ...)`` calls in its
cells, then from its file name (``03_...``), then from its first heading: a student
may rename the file or delete every check cell, but rarely all three.

What the notebook must define comes from the *handed-out* exercise notebooks
(``exercises/``, and lesson 00 in ``notebooks/``), never from the submission:
``check("03.parse_step", parse_step)`` there means the grader checks the student's
``parse_step``, whether or not the student kept that cell; the heading above it
says whether the exercise is optional (outside the total) and, as "(N points)",
what it is worth (10 points unless it says).

What it leaves out: executing anything (``grade_run.py``) and the marks (``grade.py``).
"""

from __future__ import annotations

import difflib
import json
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from ..web import browser

CHECK_CALL = re.compile(r"""\bcheck\(\s*["'](\d\d)\.(\w+)["']\s*,\s*([A-Za-z_]\w*)\s*[,)]""")
_HEADING = re.compile(r"^#\s+(.+)$", re.MULTILINE)
SIMILAR = 0.95  # share of matching characters in the student's own code that flags a pair


@dataclass(frozen=True)
class Handout:
    """One lesson's exercise notebook as handed out."""

    lesson: str
    path: Path
    wanted: tuple[tuple[str, str], ...]  # (exercise id, the name the check cell passes)
    heading: str
    code: frozenset[str] = field(default_factory=frozenset)  # its code cells, to tell the student's own
    optional: frozenset[str] = field(default_factory=frozenset)  # exercises outside the total
    weights: dict[str, float] = field(default_factory=dict)  # gradebook points per exercise


DEFAULT_POINTS = 10.0  # what an exercise is worth in the gradebook unless its heading says "(N points)"
_EXERCISE_HEADING = re.compile(r"^##\s+Exercise\s+(\d+\.\d+)\b(.*)$", re.MULTILINE)
_STATED_POINTS = re.compile(r"\((\d+(?:\.\d+)?) points?\)")


def exercise_headings(notebook: dict) -> dict[str, str]:
    """Each exercise check the notebook calls -> the ``## Exercise`` heading above its check cell."""
    found, heading = {}, ""
    for cell in notebook.get("cells", []):
        source = cell_source(cell) if isinstance(cell, dict) else ""
        if cell.get("cell_type") == "markdown":
            match = _EXERCISE_HEADING.search(source)
            heading = match[0] if match else heading
        elif cell.get("cell_type") == "code":
            for number, name, _ in CHECK_CALL.findall(source):
                found.setdefault(f"{number}.{name}", heading)
    return found


def scoring(notebook: dict, wanted: tuple[tuple[str, str], ...]) -> tuple[frozenset[str], dict[str, float]]:
    """Which exercises are optional, and each one's points, from the handout's headings.

    >>> cells = [{"cell_type": "markdown", "source": "## Exercise 3.4: Record (optional)"},
    ...          {"cell_type": "code", "source": 'check("03.record_cut", record_cut)'}]
    >>> scoring({"cells": cells}, (("03.record_cut", "record_cut"),))
    (frozenset({'03.record_cut'}), {'03.record_cut': 10.0})
    """
    headings = exercise_headings(notebook)
    optional = frozenset(e for e, _ in wanted if "(optional)" in headings.get(e, "").lower())
    weights = {}
    for exercise_id, _ in wanted:
        stated = _STATED_POINTS.search(headings.get(exercise_id, ""))
        weights[exercise_id] = float(stated[1]) if stated else DEFAULT_POINTS
    return optional, weights


@dataclass(frozen=True)
class Submission:
    student: str
    path: Path
    notebook: dict | None = None
    problem: str = ""  # why it cannot be graded ('' when it can)
    lesson: str = ""


def course_root() -> Path:
    """The course folder: the checkout the package is in, or in the browser the drive's course folder.

    The browser edition installs the package as a wheel, away from the notebooks,
    which live on JupyterLite's drive (``browser.course_folder``).
    """
    return browser.course_folder() or Path(__file__).resolve().parents[2]


def handouts(root: Path | None = None) -> dict[str, Handout]:
    """Every lesson's handed-out exercise notebook, by lesson number."""
    root = root or course_root()
    paths = sorted((root / "exercises").glob("[0-9][0-9]_*.ipynb"))
    paths += sorted((root / "notebooks").glob("00_*.ipynb"))
    found = {}
    for path in paths:
        notebook = json.loads(path.read_text(encoding="utf-8"))
        wanted = tuple(dict.fromkeys((f"{n}.{e}", name) for n, e, name in CHECK_CALL.findall(
            "\n".join(code_cells(notebook)))))
        if wanted:
            lesson = path.name[:2]
            optional, weights = scoring(notebook, wanted)
            found[lesson] = Handout(lesson, path, wanted, first_heading(notebook),
                                    frozenset(_normal(c) for c in code_cells(notebook)), optional, weights)
    return found


def cell_source(cell: dict) -> str:
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else str(source)


def code_cells(notebook: dict) -> list[str]:
    return [cell_source(c) for c in notebook.get("cells", [])
            if isinstance(c, dict) and c.get("cell_type") == "code"]


def first_heading(notebook: dict) -> str:
    for cell in notebook.get("cells", []):
        if isinstance(cell, dict) and cell.get("cell_type") == "markdown":
            match = _HEADING.search(cell_source(cell))
            if match:
                return match[1].strip()
    return ""


def read(student: str, path: Path, lessons: dict[str, Handout]) -> Submission:
    """Open one submission; a broken one comes back with ``problem`` set, never an exception."""
    if path.suffix != ".ipynb":
        return Submission(student, path, problem=f"not a notebook ({path.name})")
    try:
        notebook = json.loads(path.read_bytes().decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        return Submission(student, path, problem=f"corrupt notebook: not valid JSON ({error})")
    except OSError as error:
        return Submission(student, path, problem=f"unreadable file ({error.strerror})")
    if not isinstance(notebook, dict) or not isinstance(notebook.get("cells"), list):
        return Submission(student, path, problem="corrupt notebook: no list of cells")
    lesson = lesson_of(notebook, path, lessons)
    if not lesson:
        return Submission(student, path, notebook, problem="not one of the course's exercise notebooks")
    return Submission(student, path, notebook, lesson=lesson)


def lesson_of(notebook: dict, path: Path, lessons: dict[str, Handout]) -> str:
    """The lesson a notebook belongs to ('' when nothing says)."""
    called = Counter(n for n, _, _ in CHECK_CALL.findall("\n".join(code_cells(notebook))))
    known = [n for n, _ in called.most_common() if n in lessons]
    if known:
        return known[0]
    if path.name[:2] in lessons and path.name[2:3] in ("_", "-"):
        return path.name[:2]
    heading = first_heading(notebook)
    return next((n for n, h in lessons.items() if heading and h.heading == heading), "")


def _normal(code: str) -> str:
    """Code without comments and blank space, so a renamed comment hides nothing.

    >>> _normal("x = 1  # mine\\n\\n  y=2")
    'x = 1\\ny=2'
    """
    lines = (line.split("#", 1)[0].strip() for line in code.splitlines())
    return "\n".join(line for line in lines if line)


def own_code(notebook: dict, handout: Handout) -> str:
    """The code the student wrote: code cells not identical to a handed-out one."""
    cells = (_normal(c) for c in code_cells(notebook))
    return "\n".join(c for c in cells if c and c not in handout.code)


def similar_pairs(codes: dict[str, str], threshold: float = SIMILAR) -> list[tuple[str, str, float]]:
    """Pairs of students whose own code is (nearly) the same: for the instructor to look at.

    Empty code (nothing written) is never a match: two untouched notebooks are not copies.

    >>> similar_pairs({"a": "x = 1\\ny = 2", "b": "x = 1\\ny = 2", "c": "z = 3", "d": ""})
    [('a', 'b', 1.0)]
    """
    names = sorted(n for n, code in codes.items() if code.strip())
    pairs, compared = [], {}
    for index, first in enumerate(names):
        for second in names[index + 1:]:
            a, b = codes[first], codes[second]
            if (a, b) not in compared:  # copies of one text are compared once (the slow part)
                compared[a, b] = 1.0 if a == b else _ratio(a, b, threshold)
            if compared[a, b] >= threshold:
                pairs.append((first, second, round(compared[a, b], 3)))
    return pairs


def _ratio(a: str, b: str, threshold: float) -> float:
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    if matcher.real_quick_ratio() < threshold or matcher.quick_ratio() < threshold:
        return 0.0
    return matcher.ratio()
