"""The student edition's checks: the key's values computed at release time, read from JSON.

``react-course release`` (``course/release.py``) builds a hand-out without the answer
keys written in ``checks/`` and without hidden cases. Each exercise's check there still
compares the student's value with the key's, by the spec's own comparison, but the
key's values come from ``data/released-ID.json``: its worked examples and a seeded
sample of generated inputs, each with the key's value, and the values of the known
wrong solutions (``Fault.like``) on the same input, so the hint still follows the fault.

In the full repository no such file exists: ``table`` gives None and every check
calls its key. A key removed from the edition is replaced by ``withheld(id)``, which
raises ``NotInEdition`` when called.

Left out: shrinking. The sample is stored smallest input first, so the first input
that differs is shown; the full edition's grader shrinks over its own inputs, which
are not the sample's (another seed), so a table copied out of the edition earns nothing.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .framework import Case, Difference
from .plain import from_plain, to_plain

__all__ = ["ABSENT", "DATA", "NotInEdition", "Table", "data_file", "sample_case", "student_edition",
           "table", "withheld"]

DATA = Path(__file__).resolve().parent.parent / "data"
EDITION_MARK = "student-edition.json"  # written by ``react-course release``; absent in the full edition
ABSENT: Any = object()


class NotInEdition(Exception):
    """An answer key (or the grader) was asked for in the student edition, which does not hold it."""


def args_key(args: tuple) -> str:
    """One input as the text the table names it by.

    >>> args_key(("a", [1]))
    '{"tuple": ["a", [1]]}'
    """
    return json.dumps(to_plain(args), ensure_ascii=False)


def data_file(exercise_id: str) -> Path:
    """Where the edition keeps an exercise's released values."""
    return DATA / f"released-{exercise_id}.json"


def student_edition() -> bool:
    """True in a hand-out built by ``react-course release``."""
    return (DATA / EDITION_MARK).exists()


class Table:
    """One exercise's released values: by input, the key's value and the wrong solutions' values."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.exercise = data["exercise"]
        self.sample = [from_plain(entry["args"]) for entry in data["sample"]]
        entries = [*data["examples"], *data["sample"]]
        self._expected = {json.dumps(e["args"], ensure_ascii=False): e["expected"] for e in entries}
        self._wrong = {json.dumps(e["args"], ensure_ascii=False): e.get("wrong", {}) for e in entries}

    def expected(self, args: tuple) -> Any:
        """The key's value on ``args``, as computed at release time."""
        found = self._expected.get(args_key(args), ABSENT)
        if found is ABSENT:
            raise NotInEdition(f"{self.exercise}: the student edition holds the key's values on its "
                               "examples and sample only, not on this input")
        return from_plain(found)

    def wrong(self, args: tuple, fault: int) -> Any:
        """Fault ``fault``'s wrong solution's value on ``args``, or ABSENT."""
        found = self._wrong.get(args_key(args), {}).get(str(fault), ABSENT)
        return found if found is ABSENT else from_plain(found)


@functools.cache
def table(exercise_id: str) -> Table | None:
    """The exercise's released values; None in the full edition (its checks call the key)."""
    path = data_file(exercise_id)
    if not path.exists():
        return None
    return Table(json.loads(path.read_text(encoding="utf-8")))


def withheld(exercise_id: str) -> Callable[..., Any]:
    """What stands where a key was removed from the edition: it raises when called.

    >>> withheld("03.read_reply")()
    Traceback (most recent call last):
    ...
    react_course.checks.released.NotInEdition: the answer key of 03.read_reply is not in the student edition
    """
    def not_here(*args: Any, **kwargs: Any) -> Any:
        raise NotInEdition(f"the answer key of {exercise_id} is not in the student edition")

    return not_here


def sample_case(spec: Any, student: Callable[..., Any], released: Table, name: str) -> Case:
    """The generated comparison of the edition: the student against the key's released values."""
    def run() -> Difference | None:
        for number, args in enumerate(released.sample, 1):
            found = spec.difference(student, args)
            if found is not None:
                note = (f"input {number} of {len(released.sample)} released inputs differs (they run "
                        "smallest first)")
                message = f"{found.message}. {note}" if found.message else note
                return Difference(found.given, found.expected, found.got, message, found.hint, found.rule)
        return None

    return Case(name, run, test=lambda found: found is None,
                given=f"{len(released.sample)} generated inputs (their expected values released with "
                      "the course)", hint=spec.generated_hint, time_limit=spec.time_limit)
