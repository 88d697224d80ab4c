"""A room's batch: two lessons, every layout a room hands in, a roster, each gradebook's export.

Twenty-five submissions of lessons 03 (exercise 3.1 alone, the small course of
``grading_submissions.py``) and 01 (its real exercise notebook): notebooks side by side,
nbgrader student folders holding both lessons, browser hand-in zips read with ``--zips``,
a name macOS writes decomposed, and a symbolic link into ``solutions/``.
"""

from __future__ import annotations

import csv
import io
import json
import os
import unicodedata
import zipfile
from pathlib import Path

import pytest
from grading_submissions import ROOT, small_course

from react_course.course.grade import Limits, grade_folder

pytestmark = pytest.mark.slow
LESSON01 = "01_what_is_react.ipynb"
LESSON03 = "03_parsing_and_stops.ipynb"


def _rows(path: Path) -> list[dict]:
    return list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8-sig"))))


@pytest.fixture(scope="module")
def batch(tmp_path_factory: pytest.TempPathFactory) -> dict:
    base = tmp_path_factory.mktemp("batch")
    course = small_course(base / "course")
    solved03 = (course / "solutions" / LESSON03).read_text(encoding="utf-8")
    empty03 = (course / "exercises" / LESSON03).read_text(encoding="utf-8")
    solved01 = (ROOT / "solutions" / LESSON01).read_text(encoding="utf-8")
    empty01 = (course / "exercises" / LESSON01).read_text(encoding="utf-8")
    folder, zips = base / "submissions", base / "zips"
    folder.mkdir()
    zips.mkdir()
    roster = ["handin,student_id"]
    for n in range(8):  # notebooks side by side: s00.ipynb ... (lesson 03), t00.ipynb ... (lesson 01)
        (folder / f"s{n:02d}.ipynb").write_text(solved03 if n % 2 else empty03, encoding="utf-8")
        (folder / f"t{n:02d}.ipynb").write_text(solved01 if n % 2 else empty01, encoding="utf-8")
        roster += [f"s{n:02d},id-s{n:02d}", f"t{n:02d},id-t{n:02d}"]
    for n in range(3):  # nbgrader folders, both lessons in each
        student = folder / f"nb{n}"
        student.mkdir()
        (student / LESSON03).write_text(solved03, encoding="utf-8")
        (student / LESSON01).write_text(solved01, encoding="utf-8")
        roster.append(f"nb{n},id-nb{n}")
    decomposed = unicodedata.normalize("NFD", "José")
    (folder / f"{decomposed}.ipynb").write_text(solved03, encoding="utf-8")
    roster.append("José,id-jose")
    (folder / "linked.ipynb").symlink_to(course / "solutions" / LESSON03)
    with zipfile.ZipFile(zips / "Ana_Lima-react-course.zip", "w") as archive:
        archive.writestr(f"Ana_Lima-react-course/{LESSON03[:-6]}/Ana_Lima.ipynb", solved03)
    roster += ["Ana_Lima,id-ana", "Nobody_Handed_In,id-missing"]
    (base / "students.csv").write_text("\n".join(roster) + "\n", encoding="utf-8")
    before = {p: p.read_bytes() for p in folder.rglob("*") if p.is_file() and not p.is_symlink()}
    out = base / "out" / "grades.csv"
    limits = Limits(cell_timeout=10, check_timeout=60, wall=120, workers=2)
    grades = grade_folder(folder, out, course=course, limits=limits, progress=False, zips=zips,
                          roster=base / "students.csv", exports=("canvas", "moodle", "otter"))
    return {"grades": grades, "out": out, "folder": folder, "before": before}


def test_twenty_five_submissions_of_two_lessons(batch) -> None:
    rows = _rows(batch["out"])
    handed_in = [r for r in rows if r["status"] != "missing"]
    assert len(handed_in) == 25
    assert {r["assignment"] for r in rows} == {"01", "03"}
    by = {(r["student_id"], r["assignment"]): r for r in rows}
    assert by["id-s01", "03"]["status"] == "graded" and float(by["id-s01", "03"]["score"]) == 10.0
    assert float(by["id-t01", "01"]["score"]) == float(by["id-t01", "01"]["max_score"]) > 0
    assert float(by["id-nb0", "01"]["percent_correct"]) == 1.0 and by["id-nb0", "03"]["status"] == "graded"
    assert by["id-ana", "03"]["status"] == "graded"  # read from the zip itself
    assert by["id-jose", "03"]["status"] == "graded"  # the NFD name found on the NFC roster
    assert by["id-missing", "03"]["status"] == "missing" and float(by["id-missing", "03"]["score"]) == 0
    linked = next(r for r in rows if r["file"] == "linked.ipynb")
    assert linked["status"].startswith("refused: a symbolic link")


def test_each_lesson_keeps_its_own_feedback_and_summary(batch) -> None:
    parent = batch["out"].parent
    assert (parent / "summary-01.md").exists() and (parent / "summary-03.md").exists()
    assert (parent / "feedback" / "01" / "id-t01.md").exists()
    assert (parent / "feedback" / "03" / "id-s01.md").exists()


def test_exports_for_canvas_moodle_and_otter(batch) -> None:
    parent = batch["out"].parent
    canvas = _rows(parent / "grades-canvas.csv")
    assert list(canvas[0])[:5] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]
    assert (parent / "grades-canvas.csv").read_bytes().startswith(b"\xef\xbb\xbf")
    moodle = _rows(parent / "grades-moodle.csv")
    assert next(iter(moodle[0])) == "ID number" and any(r["ID number"] == "id-missing" for r in moodle)
    otter = (parent / "grades-otter.csv").read_text(encoding="utf-8").splitlines()[0].split(",")
    assert otter[0] == "file" and otter[-3:] == ["total_points_earned", "percent_correct", "grading_status"]


def test_nothing_handed_in_is_changed(batch) -> None:
    after = {p: p.read_bytes() for p in batch["folder"].rglob("*") if p.is_file() and not p.is_symlink()}
    assert after == batch["before"]
    assert os.path.islink(batch["folder"] / "linked.ipynb")
    assert json.loads((batch["folder"] / "s00.ipynb").read_text(encoding="utf-8"))["cells"]
