"""Every rule an exercise states is exercised by a case: the checkers' rule tables, and the specs.

Each exercise is registered with ``rules={phrase: (case name, ...)}``. Here, for
every registered exercise (``react_course.checks.exercises()``):

- the table is not empty, and no rule lists no case;
- each phrase appears in the exercise's statement, compared case-insensitively
  with runs of whitespace made one space;
- each case name is the name of a case the checker yields on the reference
  solution.

The statement of exercise ``NN.name`` is what the student reads in
``solutions/NN_slug.ipynb`` (``notebooks/00_*.ipynb`` for lesson 00, which has no
solutions) from the cell after the previous cell that calls ``check(...)`` up to
the cell that calls ``check("NN.name", ...)``: markdown cells whole, and code cells
as the exercise notebook shows them (solution lines replaced by their stubs, so
docstrings and comments count, solution code does not).

For the exercises defined as specs (``checks/spec.py``), the tests at the end also run the
key on every example and generated input, hold the registered table to the spec, check that
the generator reaches every edge a rule names, and that every input and value is plain data
that crosses to another process and back (the grader's split, tried once in a subprocess).

The reference solution is the object the solution notebook passes to
``check``: the notebook's code cells run here in order, in one namespace, with
``check`` replaced by a recorder; the case names come from the exercise's cases
function called on the recorded object (the cases are built, not run).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import subprocess
import sys
from functools import cache
from pathlib import Path
from typing import Any

import nbformat
import pytest

import react_course.checks as checks
from react_course.checks import spec as specs
from react_course.checks.generated import COMPARISONS, generate, same_value
from react_course.checks.plain import Raised, from_plain, to_plain
from react_course.course.authoring import strip_source

ROOT = Path(__file__).resolve().parent.parent
CHECK_CALL = r"""check\(\s*["']{}["']"""


def notebook_for(exercise_id: str) -> Path:
    lesson = exercise_id.split(".", 1)[0]
    folder = "notebooks" if lesson == "00" else "solutions"
    found = sorted((ROOT / folder).glob(f"{lesson}_*.ipynb"))
    assert found, f"{exercise_id}: no {folder}/{lesson}_*.ipynb holds its statement"
    return found[0]


def visible_text(cell: Any) -> str:
    if cell.cell_type != "code":
        return cell.source
    return strip_source(cell.source, "0.0")


def statement(exercise_id: str) -> str:
    """The text of the cells between the previous check cell and this exercise's check cell."""
    cells = nbformat.read(notebook_for(exercise_id), as_version=4).cells
    this = re.compile(CHECK_CALL.format(re.escape(exercise_id)))
    any_check = re.compile(CHECK_CALL.format(r"\d\d\.\w+"))
    at = next((i for i, c in enumerate(cells) if c.cell_type == "code" and this.search(c.source)),
              None)
    assert at is not None, f"{exercise_id}: no cell calls check({exercise_id!r}, ...)"
    start = max((i for i in range(at) if cells[i].cell_type == "code"
                 and any_check.search(cells[i].source)), default=-1) + 1
    return "\n".join(visible_text(cell) for cell in cells[start:at])


def normalised(text: str) -> str:
    return " ".join(text.split()).lower()


@cache
def references(path: Path) -> dict[str, Any]:
    """Run a notebook's code cells here; return what each check(...) call was given."""
    given: dict[str, Any] = {}

    def recorder(exercise_id: str, obj: Any) -> None:
        given[exercise_id] = obj

    namespace: dict[str, Any] = {"__name__": "__main__"}
    real, here = checks.check, os.getcwd()
    checks.check = recorder
    try:
        os.chdir(path.parent)
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            for number, cell in enumerate(nbformat.read(path, as_version=4).cells):
                if cell.cell_type == "code":
                    exec(compile(cell.source, f"{path.name} cell {number}", "exec"), namespace)
    finally:
        checks.check = real
        os.chdir(here)
    return given


def case_names(exercise_id: str) -> list[str]:
    given = references(notebook_for(exercise_id))
    assert exercise_id in given, f"{exercise_id}: the notebook never called check on it"
    spec = checks._lookup(exercise_id)
    return [case.name for case in spec.cases(given[exercise_id])]


EXERCISES = checks.exercises()
Rules = tuple[tuple[str, tuple[str, ...]], ...]


def table(exercise_id: str) -> Rules:
    rules = checks._lookup(exercise_id).rules
    assert rules, (f"{exercise_id} has no rules table: pass rules={{phrase from the statement: "
                   "(case name, ...)} to @exercise")
    return rules


def rules_without_cases(rules: Rules) -> str:
    empty = [rule for rule, names in rules if not names]
    return f"these rules list no case that exercises them: {empty}" if empty else ""


def rules_not_in(rules: Rules, text: str, where: str) -> str:
    missing = [rule for rule, _ in rules if normalised(rule) not in normalised(text)]
    return f"these rules are not (or no longer) in the statement in {where}: {missing}" if missing else ""


def unknown_cases(rules: Rules, names: list[str]) -> str:
    unknown = [(rule, name) for rule, listed in rules for name in listed if name not in names]
    if not unknown:
        return ""
    return (f"these (rule, case) pairs name a case the checker does not yield on the reference "
            f"solution: {unknown}; its cases are {sorted(names)}")


@pytest.mark.parametrize("exercise_id", EXERCISES)
def test_every_rule_has_a_case(exercise_id: str) -> None:
    problem = rules_without_cases(table(exercise_id))
    assert not problem, f"{exercise_id}: {problem}"


@pytest.mark.parametrize("exercise_id", EXERCISES)
def test_every_rule_is_quoted_from_the_statement(exercise_id: str) -> None:
    problem = rules_not_in(table(exercise_id), statement(exercise_id), notebook_for(exercise_id).name)
    assert not problem, f"{exercise_id}: {problem}"


@pytest.mark.parametrize("exercise_id", EXERCISES)
def test_every_listed_case_exists(exercise_id: str) -> None:
    problem = unknown_cases(table(exercise_id), case_names(exercise_id))
    assert not problem, f"{exercise_id}: {problem}"


def test_a_bad_table_is_reported_clearly() -> None:
    rules: Rules = (("Return the total", ("adds up",)), ("Never  NONE", ()),
                    ("Round to cents", ("rounds", "no such case")))
    statement_text = "Return the total of the prices.\nNever None. Always round up\nto cents."
    assert rules_without_cases(rules) == "these rules list no case that exercises them: ['Never  NONE']"
    assert rules_not_in(rules, statement_text, "solutions/99_x.ipynb") == (
        "these rules are not (or no longer) in the statement in solutions/99_x.ipynb: "
        "['Round to cents']")
    assert "[('Round to cents', 'no such case')]" in unknown_cases(rules, ["adds up", "rounds"])
    assert not unknown_cases(rules[:1], ["adds up"])


def test_the_statement_is_the_text_before_the_check() -> None:
    """The statement of 01.render_trace starts after 01.who_wrote's check cell."""
    text = statement("01.render_trace")
    assert "Exercise 1.2" in text and "Exercise 1.1" not in text
    assert 'check("01.render_trace"' not in text


# ---------------------------------------------------------------- exercises defined as specs
# (checks/spec.py): the key holds on every input, the table is the spec's, every edge is reached,
# and every value crosses to another process as plain data and back.

SPEC_IDS = sorted(specs.SPECS)
# Lessons whose exercises are not specs yet: their keys are run on their generated inputs by
# tests/test_generated.py where they have a generated comparison, and their tables are held to
# the statement above; edges and plain data are not checked for them.
NOT_YET_SPECS = sorted(set(EXERCISES) - set(SPEC_IDS))


def spec_inputs(spec: specs.Spec) -> list[tuple]:
    return [example.args for example in (*spec.examples, *spec.hidden)] + [
        args for _, args in generate(spec.comparison)]


@pytest.mark.parametrize("exercise_id", SPEC_IDS)
def test_a_spec_is_what_the_notebook_and_the_grader_read(exercise_id: str) -> None:
    spec = specs.SPECS[exercise_id]
    assert table(exercise_id) == tuple((rule.phrase, rule.cases) for rule in spec.rules)
    assert COMPARISONS[exercise_id] is spec.comparison
    problem = rules_not_in(table(exercise_id), statement(exercise_id), notebook_for(exercise_id).name)
    assert not problem, f"{exercise_id}: {problem}"
    names = {example.name for example in spec.examples} | {specs.GENERATED}
    assert {name for rule in spec.rules for name in rule.cases} <= names


@pytest.mark.parametrize("exercise_id", SPEC_IDS)
def test_the_key_holds_and_every_value_is_plain_data(exercise_id: str) -> None:
    spec = specs.SPECS[exercise_id]
    for args in spec_inputs(spec):
        expected = spec.expected(args)
        assert not isinstance(expected, Raised), f"{exercise_id}: key {expected} on {spec.call_text(args)}"
        for value in (args, expected):
            back = from_plain(json.loads(json.dumps(to_plain(value))))
            assert same_value(back, value), (exercise_id, value)
        assert spec.difference(spec.key, args) is None, f"{exercise_id}: the key differs from itself"


@pytest.mark.parametrize("exercise_id", SPEC_IDS)
def test_the_generator_reaches_every_edge_the_rules_name(exercise_id: str) -> None:
    spec = specs.SPECS[exercise_id]
    generated = [args for _, args in generate(spec.comparison)]
    missed = [rule.phrase for rule in spec.rules if rule.edge and not any(map(rule.edge, generated))]
    assert not missed, f"{exercise_id}: no generated input reaches the edge of {missed}"


def test_a_value_computed_in_another_process_is_judged_here() -> None:
    """The grader's split: the student's process sends back plain JSON, this process compares."""
    spec = specs.SPECS["03.cut_at_stop"]
    sent = [to_plain(example.args) for example in spec.examples]
    program = ("import json, sys, react_course as rc\n"
               "from react_course.checks.lesson03 import cut_at_stop\n"
               "from react_course.checks.spec import student_value\n"
               "wrong = lambda text, stops: rc.cut_at_stop(text, stops).strip()\n"
               "print(json.dumps([student_value(cut_at_stop.SPEC, wrong, a) for a in json.load(sys.stdin)]))")
    run = subprocess.run([sys.executable, "-c", program], input=json.dumps(sent), capture_output=True,
                         text=True, check=True, timeout=120)
    verdicts = [specs.judge_plain(spec, a, got) for a, got in zip(sent, json.loads(run.stdout), strict=True)]
    failed = [found for found in verdicts if found is not None]
    assert failed and all(found.rule == "Keep the text exactly as it is (no stripping)" for found in failed)
    assert len(failed) < len(verdicts)  # the examples without spaces at the ends still pass
