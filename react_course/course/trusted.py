"""``grade``, 3b: the comparison with the key, run in the grader's process, never in the student's.

For an exercise whose cases call the student's function on plain data (``plain.py``),
no spec is needed to move the comparison out of the kernel:

1. **record** (``inputs``): the grader runs the exercise's check, hidden cases
   included, on a recording stand-in for the student's function; every call's
   arguments are the inputs the check would send. A stand-in that is called with
   something that is not plain data (a scripted model, a tool registry) means the
   exercise is not one of these: it is checked in the kernel, as before.
2. **ask**: the kernel calls the student's function on each input
   (``kernel_answers.answers``) and prints the answers as plain data, anything else
   reported as a wrong answer.
3. **replay** (``replay``): the grader runs the same check again on a stand-in that
   returns the student's recorded answer for each input. An input the kernel was
   not asked (a generated comparison that found a difference shrinks it along
   another path) is asked in another round.

The check, the key, the hidden cases and the comparison all run here; the kernel
only answers. What the student's code can still do is compute its answers with
the key itself (``import react_course.checks...``): only an edition without the
keys (``react-course release``) stops that.
"""

from __future__ import annotations

import builtins
import contextlib
import functools
import json
import os
import sys
from typing import Any

from ..checks.framework import CheckResult
from . import plain, registry

ROUNDS = 12  # rounds of asking: a shrinking comparison asks for a few smaller inputs at a time


class _Unanswered(Exception):
    """Raised by the stand-ins where there is no answer (yet)."""


def key_of(args: tuple, kwargs: dict) -> str:
    """One input as a string, the same in both processes."""
    return json.dumps(plain.encode([list(args), dict(kwargs)]), sort_keys=True)


@contextlib.contextmanager
def quiet_checks():
    """No results file and no strict mode while the grader runs checks on its stand-ins."""
    saved = {k: os.environ.pop(k) for k in ("REACT_COURSE_STRICT", "REACT_COURSE_RESULTS") if k in os.environ}
    streams = sys.stdout, sys.stderr
    try:
        yield
    finally:
        os.environ.update(saved)
        sys.stdout, sys.stderr = streams


@functools.cache
def inputs(exercise_id: str) -> tuple[str, ...] | None:
    """Every input the check sends, or None: not one of the exercises compared here, or an input
    that is not plain data (then it is checked in the kernel)."""
    from react_course.checks import check

    if exercise_id not in registry.COMPARED_IN_GRADER:
        return None
    seen: dict[str, None] = {}
    refused = []

    def stand_in(*args: Any, **kwargs: Any) -> Any:
        try:
            seen.setdefault(key_of(args, kwargs))
        except plain.NotPlain as error:
            refused.append(str(error))
        raise _Unanswered("recording")

    with quiet_checks():
        check(exercise_id, stand_in, hidden=True)  # the cases, and a first difference shrunk
        registry.generated_calls(exercise_id, stand_in)  # every generated input
    return None if refused or not seen else tuple(seen)


class NotPlainAnswer:
    """What stands for an answer that was not plain data: equal to nothing, shown as what it was."""

    def __init__(self, kind: str) -> None:
        self.kind = kind

    def __eq__(self, other: object) -> bool:
        return False

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<a {self.kind}: not plain data, so not compared>"


def _answer(outcome: dict) -> Any:
    if "value" in outcome:
        return plain.decode(outcome["value"])
    if "not_plain" in outcome:
        return NotPlainAnswer(str(outcome["not_plain"]))
    if "not_attempted" in outcome:
        raise NotImplementedError(str(outcome["not_attempted"]))
    if "timeout" in outcome:
        raise TimeoutError(f"did not finish within {outcome['timeout']:g} s in the grading kernel")
    kind, message = outcome.get("raised", ["Exception", "an error"])
    error = getattr(builtins, str(kind), None)
    if isinstance(error, type) and issubclass(error, Exception) and error is not _Unanswered:
        raise error(message)
    raise RuntimeError(f"{kind}: {message}")


def replay(exercise_id: str, answers: dict[str, dict]) -> tuple[CheckResult, list[str]]:
    """The check on the student's recorded answers, and the inputs still to ask (empty: done)."""
    from react_course.checks import check

    missing: dict[str, None] = {}

    def stand_in(*args: Any, **kwargs: Any) -> Any:
        try:
            key = key_of(args, kwargs)
        except plain.NotPlain as error:
            raise TypeError(f"the grader sends only plain data ({error})") from None
        if key not in answers:
            missing.setdefault(key)
            raise _Unanswered("not asked yet")
        return _answer(answers[key])

    with quiet_checks():
        result = check(exercise_id, stand_in, hidden=True)
    return result, list(missing)


def ask_cell(nonce: str, questions: list[list]) -> str:
    """The source of the cell that asks the kernel: ``[[exercise, name, [input keys], kind], ...]``."""
    return ("import react_course.course.kernel_answers as _ask\n"
            f"_ask.answers({nonce!r}, {json.dumps(questions)!r})\ndel _ask")
