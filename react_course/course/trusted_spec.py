"""``grade``, 3b: every exercise compared in the grader's process, from its spec alone.

Every exercise is a spec (``checks.spec.Spec``), and a spec names every input its check
sends: the worked examples,
the hidden cases and the generated comparison's inputs, all plain data. So the grader
needs no stand-in to learn them, and the student's function may be called with objects
(a scripted model, tools): the spec's ``observe`` builds those from plain arguments in
the student's process and turns what happened into plain data there.

1. **plan** (``inputs``): every case's plain arguments, as JSON text, from the spec.
2. **ask**: the kernel answers each with ``student_value(spec, function, args)``
   (``kernel_answers.py``); an answer that is not plain JSON is a wrong answer.
3. **judge** (``replay``): the spec's own cases run here on a stand-in whose value on
   an input is the kernel's answer, judged by the spec's comparison (what
   ``judge_plain`` does), the key computed here. The verdict of every case depends
   only on inputs asked in the first round: an input the kernel was asked and did not
   answer counts as a wrong answer, never as a pass.

A difference found by the generated comparison is shrunk, which needs answers on
smaller inputs nobody could list beforehand. While an input is unanswered the shrink
treats it as agreeing and goes on, so one round collects every candidate of one step;
the next round asks them all. Each round shrinks at least one step more; after
``ROUNDS`` the shown input is the smallest found so far, the verdict the same.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import sys
from typing import Any

from ..checks.framework import CheckResult, run_cases
from ..checks.plain import Opaque, Raised, from_plain, to_plain
from ..checks.spec import SPECS, Spec

ROUNDS = 40  # rounds of asking for one exercise: the first, then one per step of a shrink
REPLAY_LIMIT = 3600.0  # a case's time limit here: no student code runs in the grader
_EXPECTED: dict[str, dict[str, Any]] = {}  # exercise -> input -> the key's value


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


def key_of(args: tuple) -> str:
    """One input as the text both processes name it by (dict order kept: it is the input's)."""
    return json.dumps(to_plain(args))


@functools.cache
def spec_of(exercise_id: str) -> Spec:
    """The exercise's spec; a check registered some other way is the course's bug, said here.

    The grader compares what the spec's cases compare, so the registered check (and its
    hidden cases) must be exactly the spec's.
    """
    from react_course.checks import _HIDDEN, _lookup

    registered = _lookup(exercise_id)
    spec = SPECS.get(exercise_id)
    if spec is None or registered.cases != spec.cases:
        raise LookupError(f"{exercise_id} is not registered by its spec (checks.spec.define)")
    if _HIDDEN.get(exercise_id) not in (None, spec.hidden_cases):
        raise LookupError(f"{exercise_id} has hidden cases that are not its spec's")
    return spec


@functools.cache
def inputs(exercise_id: str) -> tuple[str, ...]:
    """Every input of the exercise's check, as ``key_of`` text (its spec's cases, all plain)."""
    replayed = _Replayed.of(spec_of(exercise_id), {}, set())
    _run(exercise_id, replayed)
    if replayed.refused:
        raise TypeError(f"{exercise_id}'s spec has an input that is not plain data ({replayed.refused[0]})")
    if not replayed.missing:
        raise ValueError(f"{exercise_id}'s spec has no input to ask")
    return tuple(replayed.missing)


@functools.cache
def expected_values(exercise_id: str) -> dict[str, Any]:
    """The key's value on each planned input, as plain data: the grader computes them once and
    hands them to every grading process in its job file (``known_expected`` reads them)."""
    inputs(exercise_id)
    try:
        return {key: to_plain(value) for key, value in _EXPECTED.get(exercise_id, {}).items()}
    except TypeError:  # a key's value that is not plain: each process computes its own
        return {}


def known_expected(values: dict[str, dict[str, Any]]) -> None:
    """Take the key's values the grader computed (``expected_values``), per exercise."""
    for exercise_id, known in values.items():
        _EXPECTED.setdefault(exercise_id, {}).update({k: from_plain(v) for k, v in known.items()})


def replay(exercise_id: str, answers: dict[str, dict], asked: set[str],
           last: bool = False) -> tuple[CheckResult, list[str]]:
    """The check judged on the kernel's ``answers``; the shrink's inputs still to ask.

    ``asked``: every input sent so far. ``last``: no more rounds, so nothing is asked.
    """
    replayed = _Replayed.of(spec_of(exercise_id), answers, asked)
    result = _run(exercise_id, replayed)
    return result, [] if last else list(replayed.missing)


def _run(exercise_id: str, replayed: _Replayed) -> CheckResult:
    from react_course.checks import _lookup, _with_rules

    with quiet_checks():
        result = run_cases(replayed.id, replayed.title, replayed.STUDENT,
                           lambda student: [*replayed.cases(student), *replayed.hidden_cases(student)])
    return _with_rules(result, _lookup(exercise_id).rules)


class _Student:
    """Stands for the student's function in the grader: it is never called, only looked up."""

    def __repr__(self) -> str:
        return "<the student's function, answered by the grading kernel>"


class _Replayed(Spec):
    """The spec, its student's values read from the kernel's answers; the key's as the spec computes."""

    STUDENT = _Student()

    @classmethod
    def of(cls, spec: Spec, answers: dict[str, dict], asked: set[str]) -> _Replayed:
        import dataclasses

        # the spec's own kind too (a quiz's cases are its questions alone): this class's value
        # and expected first, then whatever the spec's class changes
        kind = cls if isinstance(spec, cls) or type(spec) is Spec else _replayed_kind(type(spec))
        made = kind(**{f.name: getattr(spec, f.name) for f in dataclasses.fields(spec) if f.init
                       and f.name != "time_limit"}, time_limit=REPLAY_LIMIT)
        for name, value in (("answers", answers), ("asked", asked), ("missing", {}), ("refused", [])):
            object.__setattr__(made, name, value)
        return made

    def value(self, function: Any, args: tuple) -> Any:
        if function is not self.STUDENT:
            return super().value(function, args)
        try:
            key = key_of(args)
        except TypeError:  # an input that is not plain data: the spec's bug (``inputs`` says so)
            self.refused.append(type(args).__name__)
            raise
        if key in self.answers:
            return answer(self.answers[key])
        if key in self.asked:  # asked and not answered: a wrong answer
            return Opaque("no answer from the grading kernel")
        self.missing.setdefault(key)
        return self.expected(args)  # while unasked (only a shrink's candidates): taken as agreeing

    def expected(self, args: tuple) -> Any:
        """The key's value, computed once per input in this process (every round replays the check)."""
        known = _EXPECTED.setdefault(self.id, {})
        key = key_of(args)
        if key not in known:
            known[key] = super().expected(args)
        return known[key]


@functools.cache
def _replayed_kind(kind: type) -> type:
    """``_Replayed`` for a spec of a subclass of ``Spec`` (e.g. ``quiz.Quiz``)."""
    return type(f"Replayed{kind.__name__}", (_Replayed, kind), {})


def answer(outcome: Any) -> Any:
    """The value one of the kernel's answers stands for; whatever is unreadable is a wrong answer."""
    if not isinstance(outcome, dict):
        return Opaque("an answer the grader cannot read")
    if "value" in outcome:
        try:
            return from_plain(outcome["value"])  # JSON's types and the spec's tags, nothing else
        except Exception:  # a malformed tag, a dict of two keys: not what student_value writes
            return Opaque("an answer the grader cannot read")
    if "not_attempted" in outcome:
        raise NotImplementedError(str(outcome["not_attempted"])[:300])
    if "timeout" in outcome:
        return Raised(f"raised TimeoutError: did not finish within {outcome['timeout']} s")
    if "raised" in outcome and isinstance(outcome["raised"], list) and len(outcome["raised"]) == 2:
        kind, message = (str(part)[:300] for part in outcome["raised"])
        return Raised(f"raised {kind}: {message}")
    if "not_plain" in outcome:
        return Opaque(f"<a {str(outcome['not_plain'])[:80]}: not plain data, so not compared>")
    return Opaque("an answer the grader cannot read")
