"""The mutation tests a lesson's checkers share, written once.

A lesson's test module gives ``EXERCISES = {exercise id: (reference, mutants)}``,
where ``mutants`` maps a name to ``(the rule it breaks, the wrong solution)``,
and a ``stub`` that raises NotImplementedError like an untouched exercise.
``caught_under`` and ``rules_of`` serve the lessons whose tests are written out by hand.

``exercise_tests`` (the successor, for every exercise, spec or not) takes the same
catalogue, where the reference may also be a tuple of right solutions and a mutant's
rule a tuple of rules (or ``None``: it must fail, under no rule in particular), and
returns the tests below with one change: each wrong solution runs once, in one test
that asserts it fails and that, for each rule it breaks, a failed case names that rule.

``checker_tests`` returns five test functions for the module to bind:

- the reference passes; the stub (and ``...``) is "not attempted";
- every wrong solution fails;
- every rule of the checker's table has a wrong solution, and every wrong
  solution names a rule of the table;
- every case a rule lists is a case the checker really runs.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from react_course.checks import _lookup, check

Exercises = dict[str, tuple[Callable[..., Any], dict[str, tuple[str, Any]]]]


def caught_under(exercise_id: str, mutant: Any, rule: str) -> str:
    """'' when the mutant fails a case that the rule lists (and the feedback names the rule)."""
    result = check(exercise_id, mutant)
    if result.status != "failed":
        return f"not caught at all:\n{result}"
    named = [c for c in result.cases if c.status == "failed" and f'"{rule}"' in c.rule]
    return "" if named else f"caught, but by no case of the rule {rule!r}:\n{result}"


def rules_of(exercise_id: str) -> set[str]:
    return {rule for rule, _ in _lookup(exercise_id).rules}


def checker_tests(exercises: Exercises, stub: Callable[..., Any]) -> tuple[Callable[..., None], ...]:
    ids = list(exercises)
    mutants = [(exercise, name, wrong) for exercise, (_, catalogue) in exercises.items()
               for name, (_, wrong) in catalogue.items()]

    @pytest.mark.parametrize("exercise", ids)
    def test_reference_passes(exercise: str) -> None:
        result = check(exercise, exercises[exercise][0])
        assert result.status == "passed", str(result)

    @pytest.mark.parametrize("exercise", ids)
    def test_stub_is_not_attempted(exercise: str) -> None:
        assert check(exercise, stub).status == "not attempted"
        assert check(exercise, ...).status == "not attempted"

    @pytest.mark.parametrize(("exercise", "name", "wrong"), mutants,
                             ids=[f"{e}:{n}" for e, n, _ in mutants])
    def test_wrong_solution_fails(exercise: str, name: str, wrong: Any) -> None:
        result = check(exercise, wrong)
        assert result.status == "failed", f"{name} was accepted:\n{result}"

    @pytest.mark.parametrize("exercise", ids)
    def test_every_rule_has_a_mutant_and_every_mutant_a_rule(exercise: str) -> None:
        rules = {rule for rule, _ in _lookup(exercise).rules}
        broken = {rule for rule, _ in exercises[exercise][1].values()}
        assert broken <= rules, f"mutants name rules the checker does not have: {broken - rules}"
        assert rules <= broken, f"rules without a mutant: {rules - broken}"

    @pytest.mark.parametrize("exercise", ids)
    def test_each_rules_cases_exist(exercise: str) -> None:
        spec = _lookup(exercise)
        names = {case.name for case in spec.cases(exercises[exercise][0])}
        for rule, cases in spec.rules:
            assert cases and set(cases) <= names, (rule, set(cases) - names)

    return (test_reference_passes, test_stub_is_not_attempted, test_wrong_solution_fails,
            test_every_rule_has_a_mutant_and_every_mutant_a_rule, test_each_rules_cases_exist)


def from_rule_table(rules: dict[str, list[str]], mutants: dict[str, Any],
                    other: dict[str, str] | None = None) -> dict[str, tuple[str, Any]]:
    """``{mutant: (the rules it breaks, the mutant)}`` from a table ``{rule: [mutant, ...]}``.

    A mutant the table does not list takes its rule from ``other`` (``None``: it must fail, under
    no rule in particular, e.g. an answer that is not a dict at all).
    """
    named: dict[str, tuple[str, ...]] = {}
    for rule, names in rules.items():
        for name in names:
            named[name] = (*named.get(name, ()), rule)
    return {name: (named.get(name) or (other or {})[name], wrong) for name, wrong in mutants.items()}


_RESULTS: dict[tuple[str, int], Any] = {}


def result_of(exercise_id: str, wrong: Any) -> Any:
    """``check(exercise_id, wrong)``, run once per wrong solution and kept: a test that looks at the
    feedback of a wrong solution ``exercise_tests`` runs reads the same result."""
    key = (exercise_id, id(wrong))
    if key not in _RESULTS:
        _RESULTS[key] = (wrong, check(exercise_id, wrong))  # the solution is kept so its id stays its own
    return _RESULTS[key][1]


def exercise_tests(exercises: Exercises, stub: Callable[..., Any]) -> tuple[Callable[..., None], ...]:
    """The tests of spec exercises: every right solution passes, every wrong one fails under its rule."""
    ids = list(exercises)
    rights = [(exercise, right) for exercise, (given, _) in exercises.items()
              for right in (given if isinstance(given, tuple) else (given,))]
    mutants = [(exercise, name, rule, wrong) for exercise, (_, catalogue) in exercises.items()
               for name, (rule, wrong) in catalogue.items()]

    @pytest.mark.parametrize(("exercise", "right"), rights,
                             ids=[f"{e}:{getattr(r, '__name__', 'right')}" for e, r in rights])
    def test_right_solutions_pass(exercise: str, right: Any) -> None:
        result = check(exercise, right)
        assert result.status == "passed", str(result)

    @pytest.mark.parametrize(("exercise", "name", "rule", "wrong"), mutants,
                             ids=[f"{e}:{n}" for e, n, _, _ in mutants])
    def test_wrong_solution_fails_under_its_rule(exercise: str, name: str, rule: Any, wrong: Any) -> None:
        result = result_of(exercise, wrong)  # the only run of this wrong solution
        assert result.status == "failed", f"{name} was accepted:\n{result}"
        for each in _rules(rule):
            named = [c for c in result.cases if c.status == "failed" and f'"{each}"' in c.rule]
            assert named, f"{name} failed, but no failed case names the rule {each!r}:\n{result}"

    first = {exercise: next(right for e, right in rights if e == exercise) for exercise in ids}
    base = checker_tests({e: (first[e], {}) for e in ids}, stub)
    test_stub_is_not_attempted, test_each_rules_cases_exist = base[1], base[4]

    @pytest.mark.parametrize("exercise", ids)
    def test_every_rule_has_a_mutant(exercise: str) -> None:
        broken = {each for rule, _ in exercises[exercise][1].values() for each in _rules(rule)}
        assert broken <= rules_of(exercise), f"mutants name unknown rules: {broken - rules_of(exercise)}"
        assert rules_of(exercise) <= broken, f"rules without a mutant: {rules_of(exercise) - broken}"

    return (test_right_solutions_pass, test_stub_is_not_attempted, test_wrong_solution_fails_under_its_rule,
            test_every_rule_has_a_mutant, test_each_rules_cases_exist)


def _rules(rule: str | tuple[str, ...] | None) -> tuple[str, ...]:
    """The rules a catalogue entry names: one, several, or none (``None``)."""
    return () if rule is None else (rule,) if isinstance(rule, str) else rule
