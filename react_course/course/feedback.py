"""What the grader writes for people: each student's feedback, and the instructor's summary.

A student's feedback is what their check cells would show (``CheckResult``'s text
and HTML forms, hidden cases included), headed by their grade and, when a cell
raised or the notebook could not be graded, what happened in words. The summary
gives the instructor, per exercise, the mean points, the share of submissions
that passed and the statement's rules most often failed, then the pairs of
near-identical submissions (to look at, never to penalise).

What it leaves out: running anything, and the CSV (``grade.py``).
"""

from __future__ import annotations

from collections import Counter
from html import escape
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .grade import Grade

_PAGE = ('<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{title}</title></head>'
         '<body style="font-family:sans-serif;max-width:60em;margin:1em auto">{body}</body></html>\n')


def headline(grade: Grade) -> str:
    return (f"{grade.student_id or grade.student}: lesson {grade.lesson or '?'}, "
            f"{grade.score:g}/{grade.max_score:g} points ({grade.status})")


def notes(grade: Grade) -> list[str]:
    """What the student should know beyond the checks: errors, skipped cells, replaced names."""
    lines = []
    for broken in grade.broken_cells[:8]:
        where = f"exercise {broken['exercise']}, " if broken["exercise"] else ""
        lines.append(f"Cell {broken['cell']} ({where}line {broken['line']}) does not compile: "
                     f"{broken['message']}.")
    if grade.errors:
        cells = ", ".join(f"cell {number} ({name})" for number, name in grade.errors[:8])
        lines.append(f"These cells raised an error when the grader ran them: {cells} (cells counted "
                     "from the top, markdown included, as in JupyterLab).")
    if grade.died:
        lines.append("The kernel died in cell(s) " + ", ".join(map(str, grade.died))
                     + "; the grader ran the notebook again without them.")
    if grade.tampered:
        lines.append("Your notebook replaced parts of the course's checkers; the grader put them back "
                     "before checking: " + ", ".join(grade.tampered[:6]) + ".")
    if grade.compared_here:
        lines.append("Compared with the answer key in the grader's own process (your notebook only "
                     "supplied its answers): " + ", ".join(grade.compared_here) + ".")
    optional = sorted(grade.optional)
    if optional:
        lines.append("Optional, outside the total: " + ", ".join(optional) + ".")
    return lines  # near-copies are for the instructor's summary only: never told before they look


def markdown(grade: Grade) -> str:
    parts = [f"# Feedback: {headline(grade)}", ""]
    parts += [f"- {line}" for line in notes(grade)]
    if not grade.results:
        parts += ["", f"The notebook could not be graded: {grade.status}."]
    for result in grade.results:
        points, weight = grade.points.get(result.exercise, 0), grade.weights.get(result.exercise, 0)
        parts += ["", f"## {result.exercise}: {points:g}/{weight:g} points", "",
                  "```text", str(result), "```"]
    return "\n".join(parts) + "\n"


def html(grade: Grade) -> str:
    body = [f"<h1>Feedback: {escape(headline(grade))}</h1>"]
    if notes(grade):
        body.append("<ul>" + "".join(f"<li>{escape(line)}</li>" for line in notes(grade)) + "</ul>")
    if not grade.results:
        body.append(f"<p>The notebook could not be graded: {escape(grade.status)}.</p>")
    for result in grade.results:
        body.append(f"<h2>{escape(result.exercise)}</h2>{result._repr_html_()}")
    return _PAGE.format(title=escape(f"Feedback for {grade.student}"), body="".join(body))


def exercise_summary(grades: list[Grade], exercise_ids: list[str]) -> list[dict]:
    """Per exercise: mean points, share passing, the rules most often failed."""
    graded = [g for g in grades if g.results]
    rows = []
    for exercise_id in exercise_ids:
        results = [r for g in graded for r in g.results if r.exercise == exercise_id]
        rules = Counter(rule for g in graded for rule in rules_failed(g, exercise_id))
        rows.append({
            "exercise": exercise_id,
            "mean": sum(g.points.get(exercise_id, 0) for g in graded) / len(graded) if graded else 0.0,
            "max": max((g.weights.get(exercise_id, 0) for g in graded), default=0),
            "passing": sum(r.passed for r in results) / len(results) if results else 0.0,
            "rules": rules.most_common(3),
        })
    return rows


def rules_failed(grade: Grade, exercise_id: str) -> set[str]:
    """The rules ``grade``'s submission is known to break in one exercise (each counted once).

    A failed case names one rule when a known fault was recognised or the case exercises
    one rule; then that rule was broken. A case that lists several rules (the student broke
    one of them, which is not known) or ran out of time (breaking none of them) says
    nothing about any one rule, so it is left out: the summary lists only rules someone failed.

    >>> from react_course.checks.framework import CaseResult, CheckResult
    >>> from react_course.course.grade import Grade
    >>> cases = (CaseResult("a", "failed", 0, 1, rule='"r1"'),
    ...          CaseResult("b", "failed", 0, 1, rule='"r2"; "r3"'),
    ...          CaseResult("c", "failed", 0, 1, rule='"r4"', timed_out=True))
    >>> rules_failed(Grade("s", "s.ipynb", results=[CheckResult("03.x", "x", cases)]), "03.x")
    {'"r1"'}
    """
    return {case.rule for result in grade.results if result.exercise == exercise_id
            for case in result.cases if case.status == "failed" and case.rule and '"; "' not in case.rule
            and not case.timed_out}


def summary_markdown(grades: list[Grade], exercise_ids: list[str],
                     pairs: list[tuple[str, str, float]]) -> str:
    statuses = Counter(g.status for g in grades)
    lesson = next((g.lesson for g in grades if g.lesson), "?")
    sandboxes = Counter(g.sandbox for g in grades)
    lines = [f"# Grading summary, lesson {lesson}: {len(grades)} submissions", "",
             "Sandbox: " + "; ".join(f"{k}: {v}" for k, v in sandboxes.most_common()), "",
             "Statuses: " + "; ".join(f"{status}: {count}" for status, count in statuses.most_common()),
             "", "| exercise | mean points | share passing | rules most often failed (submissions) |",
             "|---|---|---|---|"]
    for row in exercise_summary(grades, exercise_ids):
        rules = "; ".join(f"{rule} ({count})" for rule, count in row["rules"]) or "-"
        lines.append(f"| {row['exercise']} | {row['mean']:.1f} / {row['max']:g} | {row['passing']:.0%} "
                     f"| {rules} |")
    lines += ["", "## Near-identical submissions (to look at, not to penalise)", ""]
    lines += [f"- {a} and {b}: {ratio:.0%} of their own code matches" for a, b, ratio in pairs] or ["- none"]
    return "\n".join(lines) + "\n"
