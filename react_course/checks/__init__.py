"""Exercise checks: ``check("03.parse_step", parse_step)`` gives immediate feedback.

Each lesson's exercises live in ``lessonNN.py`` and are registered with
``@exercise``; ``check`` loads the right module on first use. Settings, for
graders and CI:

- ``REACT_COURSE_STRICT=1``: a check that does not pass raises ``CheckFailed``
  (CI runs the solution notebooks this way);
- ``REACT_COURSE_RESULTS=path``: every check appends one JSON line to ``path``,
  tagged with ``REACT_COURSE_SUBMISSION`` (a name, e.g. the student's) when that is set;
  ``react-course progress`` reads it. In the browser edition, without the setting,
  the lines go to ``check_results.jsonl`` in the course's folder on the drive
  (``browser.results_file``), which the browser keeps (``results_path``).

``check(id, obj, hidden=True)`` adds the exercise's hidden cases (registered with
``@hidden_cases``): cases the notebook never shows, which ``react-course grade`` runs
so that a grade measures the statement, not the visible examples.
"""

from __future__ import annotations

import dataclasses
import importlib
import json
import os
import traceback
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..web import browser
from .framework import (
    MISSING,
    STATUSES,
    CallBudgetExceeded,
    Case,
    CaseResult,
    CheckResult,
    Shown,
    Status,
    describe,
    error_text,
    nonblank_lines,
    run_cases,
    same_fields,
)
from .guards import GuardedModel, guarded_tools

__all__ = [
    "MISSING",
    "NOT_ATTEMPTED",
    "STATUSES",
    "CallBudgetExceeded",
    "Case",
    "CaseResult",
    "CheckFailed",
    "CheckResult",
    "GuardedModel",
    "NoValue",
    "Shown",
    "Status",
    "attempt",
    "attempted",
    "check",
    "describe",
    "error_text",
    "exercise",
    "exercises",
    "guarded_tools",
    "hidden_cases",
    "hint",
    "nonblank_lines",
    "results_path",
    "same_fields",
]


class CheckFailed(AssertionError):
    """Raised by ``check`` in strict mode when an exercise does not pass."""


@dataclass(frozen=True)
class Exercise:
    id: str
    title: str
    cases: Callable[[Any], Iterable[Case]]
    hints: tuple[str, ...] = ()
    # Each rule the statement states (a phrase quoted from it) -> the names of the cases that
    # exercise it. A test fails when a rule has no case or no longer appears in the statement.
    rules: tuple[tuple[str, tuple[str, ...]], ...] = ()


_REGISTRY: dict[str, Exercise] = {}
_HIDDEN: dict[str, Callable[[Any], Iterable[Case]]] = {}


def exercise(exercise_id: str, title: str, hints: Iterable[str] = (),
             rules: dict[str, Iterable[str]] | None = None) -> Callable:
    """Register a function ``cases(obj) -> Iterable[Case]`` as an exercise's check.

    ``rules`` maps each rule of the exercise's statement (a phrase quoted from it) to
    the names of the cases that exercise that rule; a failed case then names its rules
    in the feedback. The statement is the text of the cells of ``solutions/NN_slug.ipynb``
    (lesson 00: ``notebooks/00_*.ipynb``) after the previous ``check(...)`` cell, up to
    this exercise's check cell; ``tests/test_rule_tables.py`` holds every table to it.
    """
    table = tuple((rule, tuple(names)) for rule, names in (rules or {}).items())

    def register(cases: Callable[[Any], Iterable[Case]]) -> Callable[[Any], Iterable[Case]]:
        if exercise_id in _REGISTRY:
            raise ValueError(f"exercise {exercise_id!r} is registered twice")
        _REGISTRY[exercise_id] = Exercise(exercise_id, title, cases, tuple(hints), table)
        return cases

    return register


def hidden_cases(exercise_id: str) -> Callable:
    """Register ``cases(obj) -> Iterable[Case]`` as an exercise's hidden cases (for grading)."""
    def register(cases: Callable[[Any], Iterable[Case]]) -> Callable[[Any], Iterable[Case]]:
        if exercise_id in _HIDDEN:
            raise ValueError(f"hidden cases for {exercise_id!r} are registered twice")
        _HIDDEN[exercise_id] = cases
        return cases

    return register


def _load(module: str) -> None:
    """Import a lesson's checker module; only a lesson without checkers is skipped.

    An import error from inside the module (a typo, a missing dependency) is raised
    as it is: reporting "no exercise" would hide it.
    """
    try:
        importlib.import_module(module)
    except ModuleNotFoundError as error:
        if error.name != module:
            raise


def _lookup(exercise_id: str) -> Exercise:
    lesson = exercise_id.split(".", 1)[0]
    if exercise_id not in _REGISTRY and lesson.isdigit():
        _load(f"{__name__}.lesson{lesson}")
    if exercise_id not in _REGISTRY:
        known = ", ".join(sorted(_REGISTRY)) or "none loaded"
        raise KeyError(f"no exercise {exercise_id!r}; known exercises: {known}")
    return _REGISTRY[exercise_id]


def exercises(lesson: str | None = None) -> list[str]:
    """The ids of all exercises (of one lesson, e.g. "03")."""
    import pkgutil

    for module in pkgutil.iter_modules(__path__):
        if module.name.startswith("lesson"):
            _load(f"{__name__}.{module.name}")
    return sorted(e for e in _REGISTRY if lesson is None or e.startswith(f"{lesson}."))


def check(exercise_id: str, obj: Any, *, hidden: bool = False) -> CheckResult:
    """Run an exercise's cases on ``obj`` (the student's function or value).

    ``hidden=True`` (the grader) adds the cases registered with ``@hidden_cases``.
    """
    spec = _lookup(exercise_id)
    cases, extra = spec.cases, _HIDDEN.get(spec.id) if hidden else None
    if extra is not None:
        def cases(obj: Any, shown: Callable = spec.cases) -> Iterable[Case]:
            return [*shown(obj), *extra(obj)]
    result = _with_rules(run_cases(spec.id, spec.title, obj, cases), spec.rules)
    _record(result)
    if os.environ.get("REACT_COURSE_STRICT") == "1" and not result.passed:
        raise CheckFailed(str(result))
    return result


def _with_rules(result: CheckResult, rules: tuple[tuple[str, tuple[str, ...]], ...]) -> CheckResult:
    """Name, on each failed case, the rules of the statement it exercises."""
    def named(case: CaseResult) -> CaseResult:
        phrases = [f'"{rule}"' for rule, names in rules if case.name in names]
        if case.status != "failed" or not phrases or case.rule:  # a fault found names its own rule
            return case
        return dataclasses.replace(case, rule="; ".join(phrases))

    return dataclasses.replace(result, cases=tuple(named(case) for case in result.cases))


def results_path() -> Path | None:
    """Where checks append their results: ``$REACT_COURSE_RESULTS``; in the browser, the drive's file.

    None on a laptop without the setting: nothing is written.
    """
    path = os.environ.get("REACT_COURSE_RESULTS")
    return Path(path) if path else browser.results_file()


def _record(result: CheckResult) -> None:
    path = results_path()
    if path is None:
        return
    line = {**result.to_json(), "submission": os.environ.get("REACT_COURSE_SUBMISSION", "")}
    with open(path, "a", encoding="utf-8") as out:
        out.write(json.dumps(line) + "\n")


def hint(exercise_id: str, number: int = 1) -> None:
    """Print an exercise's hints one at a time: ``hint("03.parse_step", 2)``."""
    spec = _lookup(exercise_id)
    if not spec.hints:
        print(f"No hints for {exercise_id}; read the failed cases' messages.")
        return
    number = max(1, min(number, len(spec.hints)))
    more = (f" (next: hint({exercise_id!r}, {number + 1}))" if number < len(spec.hints)
            else " (that was the last hint)")
    print(f"Hint {number} of {len(spec.hints)} for {exercise_id}: {spec.hints[number - 1]}{more}")


class NoValue:
    """What ``attempt`` gives back when there is no value to show: it says so when printed.

    ``None`` cannot stand for "not attempted": it is the right answer of some exercises
    (``check_ids`` when every id was seen). A ``NoValue`` is falsy and iterates as empty,
    so a demo cell's ``if result:`` or ``for item in result or []:`` skips it.

    >>> print("88219 ->", NOT_ATTEMPTED), bool(NOT_ATTEMPTED), list(NOT_ATTEMPTED)
    88219 -> not attempted
    (None, False, [])
    """

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return self.text

    def __bool__(self) -> bool:
        return False

    def __iter__(self) -> Any:
        return iter(())


NOT_ATTEMPTED = NoValue("not attempted")
RAISED = NoValue("no value: your code raised an error (shown above)")


def attempted(value: Any) -> bool:
    """False for what ``attempt`` returns when the exercise is a stub or raised, else True."""
    return not isinstance(value, NoValue)


def attempt(function: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Call the student's function in a demo cell without stopping Run All.

    A stub (NotImplementedError) prints a reminder and gives ``NOT_ATTEMPTED``; any
    other error prints the last lines of its traceback and gives ``RAISED``. Either
    prints as what it is, never as a value that looks like an answer. In the browser a
    ``ThreadPoolExecutor`` in the student's code runs its tasks one by one (no threads there).
    """
    try:
        with browser.inline_pools():
            return function(*args, **kwargs)
    except NotImplementedError as error:
        print(f"Not attempted yet ({error}). This cell works once the exercise is done.")
        return NOT_ATTEMPTED
    except Exception as error:
        frames = traceback.format_exception(type(error), error, error.__traceback__)
        print("Your code raised an error (shown here so that Run All can go on):")
        print("".join(frames[-3:]).rstrip())
        return RAISED
