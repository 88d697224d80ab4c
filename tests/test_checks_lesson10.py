"""Lesson 10's checkers: the references pass, stubs are not attempted, plausible mistakes fail.

Each mutant names the rule of the statement it breaks, and every rule has at least one.
"""

import re

import pytest
from mutation_suite import caught_under, checker_tests

from react_course.checks.lesson10 import keys


def stub(*args, **kwargs):
    raise NotImplementedError("exercise 10.x: write this function")


NUMBER = r"(?<![\d.])\d+(?:\.\d+)?(?!\d)"
SENTENCES = r"(?<=[.!?])\s+"


def _cited(sentence, observations):
    return [observations[n] for n in map(int, re.findall(r"\[(\d+)\]", sentence)) if n in observations]


def _claims(
    split=lambda a: re.split(SENTENCES, a.strip()),
    cited_of=_cited,
    numbers_of=lambda s: re.findall(NUMBER, re.sub(r"\[\d+\]", "", s)),
    found=lambda n, text: n in re.findall(NUMBER, text),
    every=all,
    order=lambda f: f,
):
    """The answer key with one part swapped for a plausible wrong one."""

    def uncited(answer, observations):
        flagged = []
        for sentence in split(answer):
            cited, numbers = cited_of(sentence, observations), numbers_of(sentence)
            if numbers and not every(any(found(n, t) for t in cited) for n in numbers):
                flagged.append(sentence)
        return order(flagged)

    return uncited


CLAIM_MUTANTS = {
    "the whole answer as one sentence": (
        "Split the answer into sentences",
        _claims(split=lambda a: [a.strip()]),
    ),
    "citations counted as numbers": (
        "not counting the citation numbers",
        _claims(numbers_of=lambda s: re.findall(NUMBER, s)),
    ),
    "one supported number is enough": ("every number in it", _claims(every=any)),
    "any observation counts": (
        "in at least one observation it cites",
        _claims(cited_of=lambda s, obs: list(obs.values())),
    ),
    "a substring counts": ("as a whole number", _claims(found=lambda n, text: n in text)),
    "a missing step raises": (
        "supports nothing",
        _claims(cited_of=lambda s, obs: [obs[n] for n in map(int, re.findall(r"\[(\d+)\]", s))]),
    ),
    "sorted, not in order": ("in order", _claims(order=sorted)),
    "sentences split at one space only": (
        "followed by white space",
        _claims(split=lambda a: re.split(r"(?<=[.!?]) ", a.strip())),
    ),
    "sentences split at '. ' only": (
        "followed by white space",
        _claims(split=lambda a: [s for s in re.split(r"(?<=[.!?]) ", a.strip().replace("\n", " ")) if s]),
    ),
    "whole numbers only in the answer": (
        "maybe with a decimal point",
        _claims(numbers_of=lambda s: re.findall(r"\d+", re.sub(r"\[\d+\]", "", s)),
                found=lambda n, text: n in re.findall(r"\d+", text)),
    ),
    "a whole number found in a decimal": (
        "as a whole number",
        _claims(found=lambda n, text: re.search(rf"(?<![\d.]){re.escape(n)}(?!\d)", text) is not None),
    ),
    "word boundaries for whole numbers": (
        "as a whole number",
        _claims(found=lambda n, text: re.search(rf"\b{re.escape(n)}\b", text) is not None),
    ),
    "every uncited sentence flagged": (
        "holds a number",
        lambda answer, obs: [
            s
            for s in re.split(SENTENCES, answer.strip())
            if not re.search(r"\[\d+\]", s) or keys.uncited_claims(s, obs)
        ],
    ),
}


def _pager(
    pages_of=lambda n, size: max(1, -(-n // size)),
    start=lambda page, size: (page - 1) * size,
    more=lambda page, pages: page < pages,
    valid=lambda page, pages: 1 <= page <= pages,
    join="\n",
):
    def page_of(rows, page, size):
        pages = pages_of(len(rows), size)
        if not valid(page, pages):
            return f"No page {page}: pages 1 to {pages}."
        at = start(page, size)
        tail = [f"More: page {page + 1}."] if more(page, pages) else []
        shown = [join.join(rows[at : at + size])] if rows[at : at + size] else []
        return "\n".join([f"{len(rows)} rows; page {page} of {pages}.", *shown, *tail])

    return page_of


PAGE_MUTANTS = {
    "pages rounded down": ("the number of pages needed", _pager(pages_of=lambda n, size: max(1, n // size))),
    "no rows is no page": ("at least 1", _pager(pages_of=lambda n, size: -(-n // size))),
    "pages counted from 0": ("page 1 holds rows 1 to size", _pager(start=lambda page, size: page * size)),
    "rows on one line": ("one a line", _pager(join=" ")),
    "More on the last page too": ("the last page has no such line", _pager(more=lambda page, pages: True)),
    "an empty page past the end": ("A page outside 1 to pages", _pager(valid=lambda page, pages: True)),
    "pages rounded to the nearest": ("the number of pages needed",
                                     _pager(pages_of=lambda n, size: max(1, round(n / size)))),
    "page past the end by one accepted": ("A page outside 1 to pages",
                                          _pager(valid=lambda page, pages: 1 <= page <= pages + 1)),
}

EXERCISES = {
    "10.uncited_claims": (keys.uncited_claims, CLAIM_MUTANTS),
    "10.page_of": (keys.page_of, PAGE_MUTANTS),
}

(
    test_reference_passes,
    test_stub_is_not_attempted,
    test_wrong_solution_fails,
    test_every_rule_has_a_mutant_and_every_mutant_a_rule,
    test_each_rules_cases_exist,
) = checker_tests(EXERCISES, stub)


def test_the_hidden_cases_pass_the_key_and_catch_a_mutant():
    from react_course.checks import check

    for exercise, (key, _) in EXERCISES.items():
        result = check(exercise, key, hidden=True)
        assert result.status == "passed" and any(c.name.startswith("hidden case") for c in result.cases)
    assert check("10.page_of", PAGE_MUTANTS["pages rounded down"][1], hidden=True).status == "failed"


@pytest.mark.parametrize(("exercise", "name"), [(e, n) for e, (_, m) in EXERCISES.items() for n in m])
def test_each_wrong_solution_is_caught_under_its_rule(exercise, name):
    rule, wrong = EXERCISES[exercise][1][name]
    assert caught_under(exercise, wrong, rule) == ""


def test_the_generated_failure_gets_the_hint_of_its_fault():
    from react_course.checks import check

    result = check("10.uncited_claims", CLAIM_MUTANTS["sentences split at one space only"][1])
    generated = next(c for c in result.cases if c.name == "the answer key on generated answers")
    assert generated.status == "failed" and "line break" in generated.hint, generated


EDGES = {
    "10.uncited_claims": {
        "a line break between sentences": lambda args: re.search(r"[.!?]\n", args[0]) is not None,
        "several spaces or a tab between sentences": lambda args: re.search(r"[.!?](  |\t)", args[0])
        is not None,
        "a decimal in the answer": lambda args: re.search(r"\d\.\d", args[0]) is not None,
        "a claim's number inside a decimal observation": lambda args: "62.5" in " ".join(args[1].values())
        and re.search(r"(?<![\d.])62(?![\d.])", args[0]) is not None,
        "a citation of a missing step": lambda args: "[4]" in args[0],
    },
    "10.page_of": {"a page past the end": lambda args: args[1] > max(1, -(-len(args[0]) // args[2])),
                   "no rows": lambda args: not args[0], "page 0": lambda args: args[1] == 0},
}


@pytest.mark.parametrize(("exercise", "edge"), [(e, n) for e, edges in EDGES.items() for n in edges])
def test_the_generated_inputs_reach_every_edge(exercise, edge):
    from react_course.checks import exercises
    from react_course.checks.generated import COMPARISONS, generate

    exercises("10")  # loads the lesson's checkers, which register the comparisons
    assert any(EDGES[exercise][edge](args) for _, args in generate(COMPARISONS[exercise])), edge
