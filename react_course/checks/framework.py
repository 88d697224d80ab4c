"""The machinery behind every exercise check: cases, time limits, results.

An exercise is a function that, given the student's object, yields ``Case``s.
Each case calls the student's code, under a time limit, and compares what
came back with what was expected. The verdicts go into a ``CheckResult``,
which renders the same in a notebook (HTML) and in a terminal (text), with
what was expected, what came back and a hint for every failed case.

Besides its hand-written cases, every exercise that asks for a function runs
one generated comparison with its answer key (``generated.py``): a case whose
run returns a ``Difference`` when the two differ, shown like any failed case.

Student code never stops the notebook: every exception is caught and shown.
``NotImplementedError`` (the stub an exercise starts with) and ``...`` mean
"not attempted", not failed. A case's status is one of ``STATUSES``.

Time limits must work on Linux, macOS, Windows and in the browser. Two lines
of defence:

1. Checks of loops hand the student's loop a ``GuardedModel``, which raises
   ``CallBudgetExceeded`` (a ``BaseException``, so ``except Exception``
   cannot swallow it) after a set number of calls: an unbounded loop
   becomes a failed case on every platform.
2. Every case runs under ``time_limit`` seconds (``timing.py``: a worker
   thread, or a trace deadline where no thread can start). The first case
   that runs out of time fails and the cases after it are "not run", so a
   runaway function costs one time limit, not one per case.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Literal, get_args

from .render import MARKS, to_html
from .timing import CaseTimeout, run_limited
from .values import Shown, describe, error_text, nonblank_lines, same_fields

__all__ = ["MISSING", "STATUSES", "CallBudgetExceeded", "Case", "CaseResult", "CaseTimeout",
           "CheckResult", "Difference", "Shown", "Status", "describe", "error_text", "judge",
           "nonblank_lines", "run_cases", "run_limited", "same_fields"]

Status = Literal["passed", "failed", "not attempted", "not run"]
STATUSES: tuple[str, ...] = get_args(Status)
MISSING: Any = object()
TIME_LIMIT = 3.0


class CallBudgetExceeded(BaseException):
    """A guarded model or tool was called more times than a correct loop would."""


@dataclass
class Case:
    """One thing to check: call ``run``, then compare with ``expected`` or apply ``test``.

    ``test`` returns True for a pass, or False or a message saying what is wrong.
    """

    name: str
    run: Callable[[], Any]
    expected: Any = MISSING
    test: Callable[[Any], bool | str] | None = None
    given: str = ""
    hint: str = ""
    points: int = 1
    show: Callable[[Any], str] | None = None
    time_limit: float = TIME_LIMIT


@dataclass(frozen=True)
class Difference:
    """What a case found wrong, when only running it could say what was given and expected.

    A generated comparison (``generated.py``) returns one for the smallest input on
    which the student's function and the answer key differ; ``judge`` shows it as a
    failed case.
    """

    given: str
    expected: str
    got: str
    message: str = ""
    hint: str = ""  # chosen by the fault found (``spec.Fault``), else the case's own hint
    rule: str = ""  # the rule that fault breaks, named in the feedback instead of the case's rules


@dataclass(frozen=True)
class CaseResult:
    name: str
    status: Status
    points: int
    max_points: int
    given: str = ""
    expected: str = ""
    got: str = ""
    message: str = ""
    hint: str = ""
    printed: str = ""
    timed_out: bool = False
    rule: str = ""  # the rules of the statement this case exercises, shown when it fails

    def __post_init__(self) -> None:
        if self.status not in STATUSES:
            raise ValueError(f"a case's status is one of {STATUSES}, not {self.status!r}")


@dataclass(frozen=True)
class CheckResult:
    """The verdict on one exercise. Renders itself; ``str()`` is the text form."""

    exercise: str
    title: str
    cases: tuple[CaseResult, ...] = field(default_factory=tuple)

    @property
    def status(self) -> str:
        statuses = {c.status for c in self.cases}
        if statuses == {"passed"}:
            return "passed"
        if statuses == {"not attempted"}:
            return "not attempted"
        return "failed"

    @property
    def passed(self) -> bool:
        return self.status == "passed"

    @property
    def points(self) -> int:
        return sum(c.points for c in self.cases)

    @property
    def max_points(self) -> int:
        return sum(c.max_points for c in self.cases)

    def summary(self) -> str:
        done = sum(c.status == "passed" for c in self.cases)
        verdict = {"passed": "all passed", "not attempted": "not attempted yet"}.get(
            self.status, f"{done} of {len(self.cases)} cases passed"
        )
        return f"Check {self.exercise} ({self.title}): {verdict} [{self.points}/{self.max_points} points]"

    def __str__(self) -> str:
        lines = [self.summary()]
        if self.status == "not attempted":
            lines.append("  Write your code where the exercise says, then run this cell again.")
            return "\n".join(lines)
        for case in self.cases:
            lines.append(f"  {MARKS[case.status]}  {case.name}")
            if case.status not in ("passed", "not run"):
                lines += [f"        {label:<9} {_indent(text)}" for label, text in _details(case)]
        if self.not_run:
            lines.append(f"  {self.not_run}")
        return "\n".join(lines)

    @property
    def not_run(self) -> str:
        """The one message shared by the cases that were not run ('' when every case ran)."""
        return next((c.message for c in self.cases if c.status == "not run"), "")

    def __repr__(self) -> str:
        return str(self)

    def _repr_html_(self) -> str:
        return to_html(self)

    def to_json(self) -> dict[str, Any]:
        return {
            "exercise": self.exercise,
            "status": self.status,
            "points": self.points,
            "max_points": self.max_points,
            "cases": [{"name": c.name, "status": c.status, "points": c.points} for c in self.cases],
        }




def _details(case: CaseResult) -> list[tuple[str, str]]:
    pairs = [("rule:", case.rule), ("given:", case.given), ("expected:", case.expected),
             ("got:", case.got), ("problem:", case.message), ("printed:", case.printed),
             ("hint:", case.hint)]
    return [(label, text) for label, text in pairs if text]


def _indent(text: str) -> str:
    return text.replace("\n", "\n" + " " * 18)


def judge(case: Case) -> CaseResult:
    """Run one case and say how it went."""
    base = {"name": case.name, "max_points": case.points, "given": case.given}
    outcome = run_limited(case.run, case.time_limit)
    printed = outcome.printed.strip()[-400:]
    expected = describe(case.expected) if case.expected is not MISSING else ""
    if outcome.timed_out:
        return CaseResult(status="failed", points=0, expected=expected, printed=printed,
                          message=f"did not finish within {outcome.limit or case.time_limit:g} s",
                          timed_out=True,
                          hint=case.hint or "Is there a loop without a limit?", **base)
    error = outcome.error
    if isinstance(error, NotImplementedError):
        return CaseResult(status="not attempted", points=0, message=str(error), **base)
    if isinstance(error, CallBudgetExceeded):
        return CaseResult(status="failed", points=0, expected=expected, message=str(error),
                          printed=printed, hint=case.hint, **base)
    if error is not None:
        return CaseResult(status="failed", points=0, expected=expected, printed=printed,
                          got=f"raised {error_text(error)}",
                          hint=case.hint, **base)
    if isinstance(outcome.value, Difference):
        found = outcome.value
        return CaseResult(status="failed", points=0, name=case.name, max_points=case.points,
                          given=found.given, expected=found.expected, got=found.got,
                          message=found.message, printed=printed, hint=found.hint or case.hint,
                          rule=f'"{found.rule}"' if found.rule else "")
    verdict = _compare(case, outcome.value)
    shown = (case.show or describe)(outcome.value)
    if verdict is True:
        return CaseResult(status="passed", points=case.points, **base)
    message = verdict if isinstance(verdict, str) else ""
    return CaseResult(status="failed", points=0, expected=expected, got=shown, message=message,
                      printed=printed, hint=case.hint, **base)


def _compare(case: Case, value: Any) -> bool | str:
    try:
        if case.test is not None:
            verdict = case.test(value)
            return verdict if isinstance(verdict, str) and verdict else verdict is True
        if _is_dataclass_value(case.expected):
            return same_fields(case.expected)(value)
        return bool(value == case.expected)
    except Exception as error:  # comparing a strange value must not crash the check
        return f"could not compare the result ({type(error).__name__}: {error})"


def _is_dataclass_value(value: Any) -> bool:
    from dataclasses import is_dataclass

    return is_dataclass(value) and not isinstance(value, type)


def not_attempted(obj: Any) -> bool:
    """``...`` or ``None`` in place of an answer means the exercise was left as given."""
    return obj is Ellipsis or obj is None


def run_cases(exercise: str, title: str, obj: Any, cases: Callable[[Any], Iterable[Case]]) -> CheckResult:
    if not_attempted(obj):
        stub = CaseResult("answer", "not attempted", 0, 1, message="still `...`")
        return CheckResult(exercise, title, (stub,))
    try:
        built = list(cases(obj))
    except NotImplementedError as error:
        return CheckResult(exercise, title, (CaseResult("answer", "not attempted", 0, 1,
                                                        message=str(error)),))
    return CheckResult(exercise, title, tuple(_judge_all(built)))


def _judge_all(cases: list[Case]) -> Iterable[CaseResult]:
    """Judge the cases in order; after the first that ran out of time, the rest are not run."""
    for number, case in enumerate(cases):
        result = judge(case)
        yield result
        if result.timed_out:
            rest = cases[number + 1:]
            cases_word = "case" if len(rest) == 1 else "cases"
            note = (f"{len(rest)} more {cases_word} not run: {case.name!r} ran "
                    "out of time, and each of the rest could take as long. Fix it, then check again.")
            for later in rest:
                yield CaseResult(later.name, "not run", 0, later.points, given=later.given,
                                 message=note)
            return
