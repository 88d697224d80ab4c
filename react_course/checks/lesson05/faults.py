"""Hints chosen by the fault found, for the generated comparisons of lessons 05 to 12.

A ``Comparison`` carries one hint, whatever difference it finds. Here an
exercise lists its ``Fault``s: a rule of its statement, how to see that a
difference breaks it (from the arguments, the key's value and the student's
value), a short name and what to say. ``Diagnosed`` wraps the comparison: its
comparison names the first fault that holds on the shrunk difference, and its
case shows that fault's hint; ``raised`` when the student's code raised; the
comparison's own hint when no fault holds.

Lessons 05, 06, 08, 10, 11 and 12 share this module (it lives in the first of
them). Left out: anything the shared machinery will do itself once
``generated.Comparison`` takes a ``diagnose`` of its own; then each
``Diagnosed`` becomes that argument.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..framework import Case, Difference
from ..generated import Comparison, register

__all__ = ["Diagnosed", "Fault"]


@dataclass(frozen=True)
class Fault:
    """A known way to break ``rule``, seen in one difference; ``says`` is its hint."""

    rule: str
    name: str  # what the feedback calls it, e.g. "a line break between two sentences"
    found: Callable[[tuple, Any, Any], bool]  # (args, expected, got)
    says: str


class Diagnosed:
    """A registered comparison whose failures carry the hint of the fault they show.

    >>> from ..generated import Comparison, call_text
    >>> plain = Comparison("xx.twice", lambda n: 2 * n, lambda draw: (draw.integer(0, 9),),
    ...                    lambda args, expected, got: expected == got, call_text("twice"))
    >>> odd = Fault("twice n", "an odd result", lambda args, e, got: got % 2 == 1, "Add n to itself.")
    >>> case = Diagnosed(plain, [odd], keep=False).case(lambda n: 2 * n + 1)
    >>> found = case.run(); case.hint, found.message.startswith("an odd result")
    ('Add n to itself.', True)
    """

    def __init__(self, comparison: Comparison, faults: Sequence[Fault], raised: str = "",
                 keep: bool = True) -> None:
        self.faults, self.raised, self.plain = tuple(faults), raised, comparison
        self.comparison = dataclasses.replace(comparison, compare=self._compare)
        if keep:
            register(self.comparison)

    def diagnose(self, args: tuple, expected: Any, got: Any) -> Fault | None:
        """The first fault that holds on this difference, or None."""
        for fault in self.faults:
            try:
                if fault.found(args, expected, got):
                    return fault
            except Exception:  # a fault that cannot read a strange value does not apply
                continue
        return None

    def _compare(self, args: tuple, expected: Any, got: Any) -> bool | str:
        verdict = self.plain.compare(args, expected, got)
        if verdict is True:
            return True
        text = verdict if isinstance(verdict, str) and verdict else ""
        fault = self.diagnose(args, expected, got)
        if fault is None:
            return text
        return f"{fault.name} (the rule \"{fault.rule}\"){': ' + text if text else ''}"

    def case(self, student: Callable[..., Any]) -> Case:
        case = self.comparison.case(student)
        search = case.run

        def run() -> Any:
            found = search()
            if isinstance(found, Difference):
                case.hint = self.hint_for(found)
            return found

        case.run = run
        return case

    def hint_for(self, found: Difference) -> str:
        if found.got.startswith("raised "):
            return self.raised or self.plain.hint
        named = (f for f in self.faults if found.message.startswith(f"{f.name} (the rule"))
        return next((fault.says for fault in named), self.plain.hint)
