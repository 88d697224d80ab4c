"""``grade``, 6: what the grader writes: the CSV, the exports for a gradebook, feedback, summaries.

- ``grades.csv``: a row per submission (lessons in one long file, or one file per
  lesson when ``--out`` has ``{lesson}`` in it); rows of lessons not graded this time
  are kept, so grading lesson 09 after 03 into one file loses nothing. UTF-8 with a
  byte-order mark, which Excel needs to read accents.
- ``--roster students.csv`` (``handin,student_id``: a file stem, folder or hand-in
  name, then the gradebook's id): rows are keyed by the student id, and a student
  on the roster with no submission gets a row of zeros, status ``missing``.
- ``--export canvas,moodle,otter``: Canvas's gradebook import (``Student, ID, SIS
  User ID, SIS Login ID, Section``, a column per lesson), Moodle's (``ID number``,
  a column per lesson) and otter-grader 5.6's layout (``file``, a column per
  question, ``total_points_earned, percent_correct, grading_status``).
- ``feedback/LESSON/STUDENT.md`` and ``.html``, ``summary-LESSON.md``: one lesson's
  never overwrite another's. Near-copies are in the summary only.
"""

from __future__ import annotations

import csv
import dataclasses
from pathlib import Path
from typing import TYPE_CHECKING

from . import feedback
from .intake import nfc, safe_name

if TYPE_CHECKING:
    from .grade import Grade
    from .submissions import Handout

# nbgrader's export (student_id, assignment, raw_score, score, max_score), then ours.
COLUMNS = ("student_id", "file", "assignment")
TOTALS = ("raw_score", "score", "max_score", "percent_correct", "status", "sandbox", "similar_to",
          "tampered")
EXPORTS = ("canvas", "moodle", "otter")


def read_roster(path: str | Path) -> dict[str, str]:
    """``hand-in name -> student id`` from a two-column CSV (a header row is skipped)."""
    rows = list(csv.reader(Path(path).read_text(encoding="utf-8-sig").splitlines()))
    table = {}
    for number, row in enumerate(rows):
        if len(row) < 2 or not row[0].strip():
            continue
        if number == 0 and row[1].strip().lower() in ("student_id", "id", "student id", "sis user id"):
            continue
        table[nfc(row[0].strip())] = row[1].strip()
    return table


def apply_roster(grades: list[Grade], roster: str | Path | None) -> None:
    """Key each grade by its student id; add a zero row for each missing student and lesson."""
    if not roster:
        return
    table = read_roster(roster)
    for g in grades:
        name = nfc(Path(g.file).stem) if g.student not in table else g.student
        g.student_id = table.get(g.student) or table.get(name) or g.student
        if g.student_id == g.student and g.student not in table:
            g.status += " (not on the roster)"
    lessons = {g.lesson: g for g in grades if g.lesson}
    for lesson, model in sorted(lessons.items()):
        present = {g.student_id for g in grades if g.lesson == lesson}
        for student_id in sorted(set(table.values()) - present):
            grades.append(dataclasses.replace(  # the lesson's scale, nothing handed in
                model, student=student_id, file="", status="missing", results=[], errors=[], died=[],
                tampered=[], similar_to=[], own_code="", peak_mb=0.0, broken_cells=[],
                student_id=student_id, compared_here=[]))


def _share(g: Grade) -> float:
    return round(g.score / g.max_score, 4) if g.max_score else 0.0


def write_csv(path: Path, header: list[str], rows: list[list], bom: bool = True) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", newline="", encoding="utf-8-sig" if bom else "utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(header)
        writer.writerows(rows)


def _kept_rows(path: Path, lessons: set[str]) -> tuple[list[str], list[dict]]:
    """The rows of other lessons already in ``path`` (kept when it is written again)."""
    if not path.exists():
        return [], []
    with open(path, newline="", encoding="utf-8-sig") as handle:
        reader = csv.DictReader(handle)
        return list(reader.fieldnames or []), [r for r in reader if r.get("assignment") not in lessons]


def main_rows(grades: list[Grade], exercise_ids: list[str]) -> list[list]:
    return [[g.student_id, g.file, g.lesson, *(g.points.get(e, "") for e in exercise_ids), g.score,
             g.score, g.max_score, _share(g), g.status, g.sandbox, " ".join(g.similar_to),
             " ".join(g.tampered)] for g in grades]


def write_all(grades: list[Grade], handouts: dict[str, Handout], out: Path,
              pairs: dict[str, list], exports: tuple[str, ...] = ()) -> None:
    """Every output of one batch: the CSV(s), the exports, the feedback and the summaries."""
    groups = {n: [g for g in grades if g.lesson == n] for n in handouts}
    targets = ({Path(str(out).replace("{lesson}", n)): [n] for n in handouts} if "{lesson}" in str(out)
               else {out: list(handouts)})
    for path, lessons in targets.items():
        ids = [e for n in lessons for e, _ in handouts[n].wanted]
        fields, kept = _kept_rows(path, set(lessons))
        ids += [f for f in fields if "." in f and f not in ids]
        header = [*COLUMNS, *ids, *TOTALS]
        rows = [[r.get(c, "") for c in header] for r in kept]
        rows += main_rows([g for n in lessons for g in groups[n]], ids)
        write_csv(path, header, rows)
        for kind in exports:
            export(kind, [g for n in lessons for g in groups[n]], handouts, path)
    for number, group in groups.items():
        folder = out.parent / "feedback" / number
        folder.mkdir(parents=True, exist_ok=True)
        for g in group:
            stem = _file_stem(g.student_id)
            (folder / f"{stem}.md").write_text(feedback.markdown(g), encoding="utf-8")
            (folder / f"{stem}.html").write_text(feedback.html(g), encoding="utf-8")
        ids = [e for e, _ in handouts[number].wanted]
        (out.parent / f"summary-{number}.md").write_text(
            feedback.summary_markdown(group, ids, pairs.get(number, [])), encoding="utf-8")


def _file_stem(name: str) -> str:
    return safe_name(name)


def export(kind: str, grades: list[Grade], handouts: dict[str, Handout], csv_path: Path) -> Path:
    """One gradebook's import file beside the CSV: ``grades-canvas.csv`` and so on."""
    if kind not in EXPORTS:
        raise ValueError(f"no export {kind!r}; exports: {', '.join(EXPORTS)}")
    target = csv_path.with_name(f"{csv_path.stem}-{kind}.csv")
    lessons = sorted({g.lesson for g in grades})
    by_student: dict[str, dict[str, Grade]] = {}
    for g in grades:
        by_student.setdefault(g.student_id, {})[g.lesson] = g
    if kind == "otter":
        ids = [e for n in lessons for e, _ in handouts[n].wanted]
        rows = [[g.file or g.student_id, *(g.points.get(e, 0) for e in ids), g.score, _share(g),
                 "graded" if g.status == "graded" else g.status] for g in grades]
        write_csv(target, ["file", *ids, "total_points_earned", "percent_correct", "grading_status"], rows,
                  bom=False)
        return target
    titles = [f"Lesson {n} ({max((g.max_score for g in grades if g.lesson == n), default=0):g} points)"
              for n in lessons]
    scores = {s: [by_student[s][n].score if n in by_student[s] else "" for n in lessons]
              for s in sorted(by_student)}
    if kind == "canvas":
        header = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", *titles]
        rows = [[s, "", s, "", "", *v] for s, v in scores.items()]
    else:  # moodle: the "ID number" field is matched to the user, each lesson to a grade item
        header = ["ID number", *titles]
        rows = [[s, *v] for s, v in scores.items()]
    write_csv(target, header, rows)
    return target
