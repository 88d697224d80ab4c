"""A quiz as a spec: the student fills in a dict of answers, and each question is one case.

The answers are the "function": ``observe`` reads one answer (a missing key is an
error that says so, ``...`` is "not attempted"), and the compared value is that
answer as written, so the grader judges it in its own process. The key is the
dict of right answers; it is never shown (``show_expected``): a wrong answer gets
the trap it fell into or a question to ask, and goes back to the lesson.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .framework import Case
from .plain import Opaque, Raised, is_plain
from .spec import Example, Fault, Rule, Spec, define
from .values import describe

HIDDEN = "the lesson's answer (a quiz does not show it)"


@dataclass(frozen=True)
class Quiz(Spec):
    """A spec whose whole input space is its questions, each one a worked example.

    So the notebook's cases are the questions alone: a generated case would only ask
    them again (it stays registered, so the tests still run the key on every question).
    """

    def cases(self, student: Callable[..., Any]) -> list[Case]:
        return self._example_cases(student, self.examples)


def answer_of(answers: Any, question: str) -> Any:
    """``answers[question]`` as plain data; ``...`` everywhere (or here) is "not attempted".

    >>> answer_of({"a": 3, "b": ...}, "a")
    3
    """
    if not isinstance(answers, dict):
        raise TypeError(f"fill in the dict the exercise starts with, keeping its keys, not a "
                        f"{type(answers).__name__}")
    if answers and all(value is Ellipsis for value in answers.values()):
        raise NotImplementedError("every answer is still ...")
    if question not in answers:
        raise KeyError(f"the dict has no key {question!r}; keep the keys the exercise gives")
    if answers[question] is Ellipsis:
        raise NotImplementedError(f"[{question!r}] is still ...")
    value = answers[question]
    return value if is_plain(value) else Opaque(describe(value))


def quiz(exercise: str, title: str, name: str, right: dict[str, Any],
         tests: dict[str, Callable[[Any], bool | str]], about: dict[str, str], hints: dict[str, str],
         rules: tuple[Rule, ...], faults: tuple[Fault, ...] = (), general: tuple[str, ...] = (),
         named: Callable[[str], str] = str) -> Spec:
    """Register a quiz: ``tests[question](answer)`` is True or says what is wrong (never the answer)."""

    def compare(args: tuple, want: Any, got: Any) -> bool | str:
        return False if isinstance(got, Raised) else tests[args[0]](got)  # the error is shown as got

    def answered(fault: Fault) -> Fault:  # a missing key is said as it is, with no fault's hint
        return Fault(fault.rule, fault.says, found=lambda args, want, got: not isinstance(got, Raised)
                     and fault.found(args, want, got))

    return define(Quiz(
        exercise, title, name, right, tuple(Example(named(q), (q,), hints[q]) for q in right),
        lambda draw: (draw.pick(tuple(right)),), rules, hints=general,
        faults=tuple(map(answered, faults)),
        observe=lambda answers, args: answer_of(answers, args[0]), compare=compare,
        show=lambda args: f"{name}[{args[0]!r}]: {about[args[0]]}", show_expected=lambda value: HIDDEN,
        count=len(right), generated_hint="Each answer is in the lesson: the failed question says which."))
