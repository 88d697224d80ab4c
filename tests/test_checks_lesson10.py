"""Lesson 10's checkers, through the one helper (``mutation_suite.exercise_tests``).

Right solutions pass (the library's, and others the statements allow), stubs are "not
attempted", and every wrong solution below fails under the rule of the statement it
breaks, each run once. The last group are wrong solutions written from the statements
alone, in the mistake classes the issue names.
"""

import re

import pytest
from mutation_suite import exercise_tests, result_of

from react_course.checks import check
from react_course.checks.lesson10.citations import AROUND, AS_WRITTEN, DECIMAL, GAP, SPLIT, WHOLE
from react_course.lessons import capstone


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
            if not re.search(r"\[\d+\]", s) or capstone.uncited_claims(s, obs)
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

# ----------------------------- more wrong solutions, written from the statements alone (issue 27)

def _floats(answer, observations):
    """Numbers compared as floats: 25 taken as found in "25.0"."""
    def found(n, text):
        return float(n) in map(float, re.findall(NUMBER, text))

    return _claims(found=found)(answer, observations)


CLAIM_MUTANTS |= {
    "sentences split with str.split('. ')": (GAP, _claims(split=lambda a: a.split(". "))),
    "sentences end only at a full stop": (SPLIT, _claims(split=lambda a: re.split(r"(?<=\.)\s+", a.strip()))),
    "a single white-space character between sentences": (
        GAP, _claims(split=lambda a: re.split(r"(?<=[.!?])\s", a.strip()))),
    "a full stop read as a decimal point": (
        DECIMAL, _claims(numbers_of=lambda s: re.findall(r"\d+\.?\d*", re.sub(r"\[\d+\]", "", s)),
                         found=lambda n, text: n in re.findall(r"\d+\.?\d*", text))),
    "numbers compared as floats": (WHOLE, _floats),
    "flagged sentences capitalised": (AS_WRITTEN, lambda answer, obs: [
        s.capitalize() for s in capstone.uncited_claims(answer, obs)]),
    "the answer not stripped": (AROUND, _claims(split=lambda a: re.split(SENTENCES, a))),
    "citations cut from the flagged sentence": (
        AS_WRITTEN, lambda answer, obs: [re.sub(r"\s*\[\d+\]", "", s)
                                         for s in capstone.uncited_claims(answer, obs)]),
}
PAGE_MUTANTS |= {
    "pages as len // size + 1": ("the number of pages needed",
                                 _pager(pages_of=lambda n, size: n // size + 1)),
    "a negative page accepted": ("A page outside 1 to pages",
                                 _pager(valid=lambda page, pages: page <= pages)),
}


def uncited_by_words(answer, observations):
    """Also right: the same patterns, written out with a loop over the sentences."""
    flagged = []
    for sentence in re.split(SENTENCES, answer.strip()):
        steps = [int(n) for n in re.findall(r"\[(\d+)\]", sentence)]
        texts = [observations[n] for n in steps if n in observations]
        claims = re.findall(NUMBER, re.sub(r"\[\d+\]", "", sentence))
        if any(all(n not in re.findall(NUMBER, t) for t in texts) for n in claims):
            flagged.append(sentence)
    return flagged


EXERCISES = {
    "10.uncited_claims": ((capstone.uncited_claims, _claims(), uncited_by_words), CLAIM_MUTANTS),
    "10.page_of": ((capstone.page_of, _pager()), PAGE_MUTANTS),
}

(test_right_solutions_pass, test_stub_is_not_attempted, test_wrong_solution_fails_under_its_rule,
 test_every_rule_has_a_mutant, test_each_rules_cases_exist) = exercise_tests(EXERCISES, stub)


def test_the_hidden_cases_pass_the_key_and_catch_a_mutant():
    for exercise, (rights, _) in EXERCISES.items():
        result = check(exercise, rights[0], hidden=True)
        assert result.status == "passed" and any(c.name.startswith("hidden case") for c in result.cases)
    assert check("10.page_of", PAGE_MUTANTS["pages rounded down"][1], hidden=True).status == "failed"


@pytest.mark.parametrize(("exercise", "name", "says"), [
    ("10.uncited_claims", "sentences split at one space only", "line break"),
    ("10.uncited_claims", "whole numbers only in the answer", "3.9 is one number"),
    ("10.uncited_claims", "a whole number found in a decimal", "62.5"),
    ("10.uncited_claims", "the answer not stripped", "Strip the answer"),
    ("10.page_of", "pages as len // size + 1", "round up")])
def test_a_failure_gets_the_hint_of_its_fault(exercise, name, says):
    result = result_of(exercise, EXERCISES[exercise][1][name][1])
    assert any(c.status == "failed" and says in c.hint for c in result.cases), result
