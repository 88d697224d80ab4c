"""``grade``, 0: every notebook a room hands in, whatever layout it arrives in.

One folder may hold, mixed:

- notebooks side by side (``alice.ipynb``: the student is the file's stem);
- nbgrader's student folders (``alice/03_parsing_and_stops.ipynb``,
  ``alice/09_evaluation_and_tracing.ipynb``: every notebook in it, the student is
  the folder's name);
- browser hand-ins unzipped by Finder, Explorer or ``unzip`` (``Ana_Lima-react-course/
  04_tools_and_observations/Ana_Lima.ipynb``, or merged ``04_tools_and_observations/
  Ana_Lima.ipynb``: a notebook in a lesson's folder is named after its student).

``--zips FOLDER`` reads the hand-in zips themselves, without unzipping them by hand.
Names are NFC-normalised (macOS writes "José" decomposed, Windows composed: one
student either way); symbolic links are refused (a link into ``solutions/`` or to
a classmate's notebook is not a submission); hidden files and ``results/`` are skipped.

What it leaves out: reading a notebook (``submissions.read``) and grading it.
"""

from __future__ import annotations

import re
import unicodedata
import zipfile
from dataclasses import dataclass
from pathlib import Path

LESSON_FOLDER = re.compile(r"^\d\d_\w+$")
ZIP_SUFFIX = "-react-course"
MAX_NOTEBOOK = 20 * 1024 * 1024  # bytes: a notebook larger than this in a zip is not read


@dataclass(frozen=True)
class Found:
    """One handed-in file: the student as the hand-in names them, where it is, or why it is refused."""

    student: str
    path: Path
    refused: str = ""


def nfc(name: str) -> str:
    """A name as one spelling: composed (NFC), so "José" from macOS and from Windows match.

    >>> nfc("Jose\\u0301") == "Jos\\u00e9"
    True
    """
    return unicodedata.normalize("NFC", name)


def safe_name(name: str) -> str:
    """A file name with no folder in it, for what the grader writes.

    >>> safe_name("../../x y.ipynb")
    'x_y.ipynb'
    """
    return re.sub(r"[^\w.-]", "_", Path(name).name).lstrip(".") or "submission.ipynb"


def _skipped(path: Path) -> bool:
    return any(part.startswith((".", "__MACOSX")) for part in path.parts) or path.parts[:1] == ("results",)


def student_of(relative: Path) -> str:
    """Who handed in the file at ``relative`` (a path inside the submissions folder).

    >>> student_of(Path("alice.ipynb")), student_of(Path("bob/03_parsing_and_stops.ipynb"))
    ('alice', 'bob')
    >>> student_of(Path("Ana_Lima-react-course/04_tools_and_observations/Ana_Lima.ipynb"))
    'Ana_Lima'
    """
    if len(relative.parts) == 1:
        return nfc(relative.stem)
    if LESSON_FOLDER.match(relative.parent.name):
        return nfc(relative.stem)
    return nfc(relative.parts[0])


def discover(folder: Path) -> list[Found]:
    """Every handed-in file under ``folder``, sorted by student then path; links refused."""
    found = []
    for path in sorted(Path(folder).rglob("*")):
        relative = path.relative_to(folder)
        if _skipped(relative) or path.name in ("HOW_TO_GRADE.txt",):
            continue
        if path.is_symlink():
            found.append(Found(student_of(relative), path, "refused: a symbolic link, not a file"))
        elif path.is_file() and not _inside_link(path, folder):
            if len(relative.parts) == 1 or path.suffix == ".ipynb":
                found.append(Found(student_of(relative), path))
    return sorted(found, key=lambda f: (f.student, str(f.path)))


def _inside_link(path: Path, folder: Path) -> bool:
    """Is any folder between ``folder`` and ``path`` a link? (``rglob`` does not follow them, but say.)"""
    return any(parent.is_symlink() for parent in path.parents if parent.is_relative_to(folder)
               and parent != folder)


def from_zips(zips: Path, into: Path) -> list[Found]:
    """Each notebook of each hand-in zip in ``zips``, written under ``into`` (a private folder).

    A member's name is never used as a path: the file is written as
    ``into/NNN/lesson/student.ipynb`` from the zip's number and the member's last two parts.
    """
    found = []
    for number, archive in enumerate(sorted(Path(zips).glob("*.zip"))):
        hand_in = nfc(archive.stem.removesuffix(ZIP_SUFFIX))
        try:
            with zipfile.ZipFile(archive) as opened:
                members = [m for m in opened.infolist() if m.filename.endswith(".ipynb")
                           and not _skipped(Path(m.filename)) and not m.is_dir()]
                for index, member in enumerate(members):
                    found.append(_extract(opened, member, into / f"{number:03d}-{index:03d}", hand_in))
        except (zipfile.BadZipFile, OSError) as error:
            found.append(Found(hand_in, archive, f"not a readable zip ({error})"))
    return found


def _extract(opened: zipfile.ZipFile, member: zipfile.ZipInfo, target: Path, hand_in: str) -> Found:
    parts = Path(member.filename.replace("\\", "/")).parts
    lesson = next((p for p in parts[:-1] if LESSON_FOLDER.match(p)), "notebook")
    student = nfc(Path(parts[-1]).stem) if lesson != "notebook" else hand_in
    path = target / lesson / (re.sub(r"[^\w.-]", "_", student) + ".ipynb")
    if member.file_size > MAX_NOTEBOOK:
        return Found(student, path, f"refused: {member.filename} is larger than 20 MB")
    path.parent.mkdir(parents=True, exist_ok=True)
    with opened.open(member) as source:
        path.write_bytes(source.read(MAX_NOTEBOOK + 1)[:MAX_NOTEBOOK])
    return Found(student, path)
