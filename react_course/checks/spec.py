"""One exercise, one spec: what the student writes, the answer key, the inputs, how to compare.

A ``Spec`` is data. It names the function the student defines and how it is
called; the answer key (the library's function where the library has one);
worked examples, whose expected values come from the key, never from a table;
a generator of inputs over exactly the space the statement defines; the
comparison (strict unless the statement allows more); the statement's rules,
each with the cases that exercise it and the boundary of the input space it
names; the faults a wrong solution is known by, each with the rule it breaks
and the hint it deserves; and hidden cases for grading.

``define(spec)`` registers it: the notebook's ``check``, the rule table, the
generated comparison (``generated.Comparison``, the one comparison there is),
the hidden cases and the mutation tests (``tests/mutation_suite.py``) all read it.

Every input and every compared value is plain data (``plain.py``), so a value
can be computed in one process and judged in another: the grader sends a case's
arguments to the student's process, ``student_value`` computes the value there,
and ``judge_plain`` compares it with the key in the grader's own process. A
spec whose student function takes or returns objects declares ``observe``: it
builds the objects from plain arguments and turns what happened (the returned
value, what a scripted model was sent) into plain data.

The hint of a failed case is chosen by the fault found (the first ``Fault``
that recognises what came back), and the feedback names that fault's rule;
only when no fault is recognised does the case's own hint show.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from . import exercise, hidden_cases, released
from .framework import CallBudgetExceeded, Case, Difference
from .generated import Comparison, Draw, call_text, register, same_value
from .plain import Opaque, Raised, from_plain, to_plain
from .values import describe

__all__ = ["GENERATED", "SPECS", "Example", "Fault", "Rule", "Spec", "define", "judge_plain",
           "student_value"]

GENERATED = "agrees with the answer key on generated inputs"


@dataclass(frozen=True)
class Example:
    """A worked example: a call on plain-data ``args``; what it should give comes from the key."""

    name: str
    args: tuple
    hint: str = ""
    note: str = ""  # said after the call in "given:", e.g. "# a model that ignores stops"


@dataclass(frozen=True)
class Rule:
    """A rule the statement states (quoted), the cases that exercise it, and the edge it names.

    ``edge(args)`` is true on an input at the boundary the rule names (an empty list, a
    stop at position 0, ``None``): some generated input must reach it (``tests/test_rule_tables.py``).
    """

    phrase: str
    cases: tuple[str, ...]
    edge: Callable[[tuple], bool] | None = None


@dataclass(frozen=True)
class Fault:
    """A known way to break ``rule``, recognised in what came back; ``says`` is its hint.

    Recognised by ``found(args, expected, got)`` (all plain data), or, given ``like``, a
    wrong solution: found when the student's value is that solution's and not the key's.
    """

    rule: str
    says: str
    found: Callable[[tuple, Any, Any], bool] | None = None
    like: Callable[..., Any] | None = None


def strict(args: tuple, expected: Any, got: Any) -> bool:
    """The default comparison: equal, and of the same types all the way down."""
    return same_value(expected, got)


@dataclass(frozen=True)
class Spec:
    """An exercise as data (see the module docstring); ``define`` registers it."""

    id: str
    title: str
    name: str  # the function the student defines
    key: Callable[..., Any]
    examples: tuple[Example, ...]
    inputs: Callable[[Draw], tuple]
    rules: tuple[Rule, ...]
    hints: tuple[str, ...] = ()
    faults: tuple[Fault, ...] = ()
    hidden: tuple[Example, ...] = ()
    # observe(function, args) -> a plain value: how the function is called and what is compared
    observe: Callable[[Callable[..., Any], tuple], Any] | None = None
    compare: Callable[[tuple, Any, Any], bool | str] = strict
    show: Callable[[tuple], str] | None = None  # a call as text (default: name(arg, ...))
    show_value: Callable[[Any], str] = describe
    show_expected: Callable[[Any], str] | None = None  # the key's value as shown (a quiz hides it)
    generated_hint: str = ""
    # adapt(example) -> the example as this check shows it (e.g. named for a browser tab), per check
    adapt: Callable[[Example], Example] | None = None
    count: int = 300
    seed: int = 16
    time_limit: float = 6.0
    comparison: Comparison = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        made = Comparison(self.id, lambda *args: self.expected(args), self.inputs, self.compare,
                          self.call_text, hint=self.generated_hint, count=self.count, seed=self.seed,
                          time_limit=self.time_limit, call=self.value, diagnose=self.diagnose,
                          show_value=self.show_value, show_expected=self.show_expected, name=GENERATED)
        object.__setattr__(self, "comparison", made)

    def call_text(self, args: tuple) -> str:
        return (self.show or call_text(self.name))(args)

    def value(self, function: Callable[..., Any], args: tuple) -> Any:
        """What ``function`` gives on ``args``, as the comparison sees it; an error is ``Raised``.

        Each call gets its own copy of the arguments, so a function that changes them changes
        nothing the key or a later case sees.
        """
        args = from_plain(to_plain(args))
        try:
            return self.observe(function, args) if self.observe else function(*args)
        except NotImplementedError:
            raise
        except (Exception, CallBudgetExceeded) as error:  # the student's error is a value shown
            return Raised.of(error)

    def expected(self, args: tuple) -> Any:
        """The key's value on ``args``; the key never raises (a test holds it to that).

        In the student edition, the value computed at release time (``released.py``).
        """
        known = released.table(self.id)
        return self.value(self.key, args) if known is None else known.expected(args)

    def diagnose(self, args: tuple, expected: Any, got: Any) -> tuple[str, str] | None:
        """(rule, hint) of the first fault that recognises ``got``, or None."""
        known = released.table(self.id)
        for number, fault in enumerate(self.faults):
            try:
                if fault.like is not None:
                    wrong = self.value(fault.like, args) if known is None else known.wrong(args, number)
                    hit = same_value(wrong, got) and not same_value(wrong, expected)
                else:
                    hit = bool(fault.found and fault.found(from_plain(to_plain(args)), expected, got))
            except Exception:  # a fault that cannot read a strange value does not apply
                continue
            if hit:
                return fault.rule, fault.says
        return None

    def difference(self, student: Callable[..., Any], args: tuple, note: str = "") -> Difference | None:
        """None when the student agrees with the key on ``args``, else what differs."""
        return judge_value(self, args, self.value(student, args), note)

    def cases(self, student: Callable[..., Any]) -> list[Case]:
        """The notebook's cases: every worked example, then the generated comparison."""
        known = released.table(self.id)
        generated = (self.comparison.case(student) if known is None
                     else released.sample_case(self, student, known, GENERATED))
        return [*self._example_cases(student, self.examples), generated]

    def hidden_cases(self, student: Callable[..., Any]) -> list[Case]:
        return self._example_cases(student, self.hidden)

    def _example_cases(self, student: Callable[..., Any], examples: tuple[Example, ...]) -> list[Case]:
        def case(example: Example) -> Case:
            note = f"  {example.note}" if example.note else ""
            return Case(example.name, lambda: self.difference(student, example.args, note),
                        test=lambda found: found is None, given=self.call_text(example.args) + note,
                        hint=example.hint, time_limit=self.time_limit)

        return [case(self.adapt(example) if self.adapt else example) for example in examples]


def judge_value(spec: Spec, args: tuple, got: Any, note: str = "") -> Difference | None:
    """Compare ``got`` (what the student's function gave on ``args``) with the key's value."""
    expected = spec.expected(args)
    try:
        verdict = spec.compare(args, expected, got)
    except Exception as error:  # a strange value must not crash the check
        verdict = f"could not compare the result ({type(error).__name__}: {error})"
    if verdict is True:
        return None
    rule, says = spec.diagnose(args, expected, got) or ("", "")
    return Difference(spec.call_text(args) + note, (spec.show_expected or spec.show_value)(expected),
                      spec.show_value(got),
                      verdict if isinstance(verdict, str) else "", hint=says, rule=rule)


SPECS: dict[str, Spec] = {}


def define(spec: Spec) -> Spec:
    """Register ``spec``: its check, rule table, generated comparison and hidden cases."""
    SPECS[spec.id] = spec
    exercise(spec.id, spec.title, spec.hints, {rule.phrase: rule.cases for rule in spec.rules})(
        spec.cases)
    register(spec.comparison)
    if spec.hidden:
        hidden_cases(spec.id)(spec.hidden_cases)
    return spec


def student_value(spec: Spec, student: Callable[..., Any], plain_args: Any) -> Any:
    """In the student's process: the value of one case, as JSON-ready data.

    >>> from react_course.checks.lesson03 import cut_at_stop
    >>> student_value(cut_at_stop.SPEC, lambda text, stops: text[:1], {"tuple": ["ab", None]})
    'a'
    """
    got = spec.value(student, from_plain(plain_args))
    try:
        return to_plain(got)
    except TypeError:
        return to_plain(Opaque(describe(got)))


def judge_plain(spec: Spec, plain_args: Any, plain_got: Any) -> Difference | None:
    """In the grader's process: the verdict on a value the student's process sent back."""
    return judge_value(spec, from_plain(plain_args), from_plain(plain_got))
