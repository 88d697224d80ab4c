"""What the grader is handed: a folder of submissions, read without trusting any of them.

A submission is a file in the folder (the student is the file's name without
``.ipynb``) or a sub-folder holding one notebook (the student is the folder's name,
as nbgrader's ``submitted/STUDENT/...`` layout has it). Reading one never raises:
a file that is not a notebook, or not valid JSON, gets a status instead.

Which lesson a notebook is comes from the ``check("NN.name", ...)`` calls in its
cells, then from its file name (``03_...``), then from its first heading: a student
may rename the file or delete every check cell, but rarely all three.

What the notebook must define comes from the *handed-out* exercise notebooks
(``exercises/``, and lesson 00 in ``notebooks/``), never from the submission:
``check("03.parse_step", parse_step)`` there means the grader checks the student's
``parse_step``, whether or not the student kept that cell.

What it leaves out: executing anything (``grade_run.py``) and the marks (``grade.py``).
"""

from __future__ import annotations

import difflib
import json
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from .. import browser

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
            found[lesson] = Handout(lesson, path, wanted, first_heading(notebook),
                                    frozenset(_normal(c) for c in code_cells(notebook)))
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


def discover(folder: Path) -> list[tuple[str, Path]]:
    """``(student, path)`` for each submission in ``folder``, sorted by student."""
    found = []
    for entry in sorted(Path(folder).iterdir()):
        if entry.name.startswith("."):
            continue
        if entry.is_dir():
            inside = sorted(p for p in entry.rglob("*") if p.is_file() and not p.name.startswith("."))
            notebooks = [p for p in inside if p.suffix == ".ipynb"] or inside
            if notebooks:
                found.append((entry.name, notebooks[0]))
        elif entry.is_file():
            found.append((entry.stem, entry))
    return found


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
