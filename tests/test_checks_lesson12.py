"""Lesson 12's checkers: the references pass, stubs are not attempted, plausible mistakes fail.

Each mutant names the rule of the statement it breaks, and every rule has at least one.
"""

import re

import pytest
from mutation_suite import caught_under, checker_tests

from react_course.checks.lesson12 import keys


def stub(*args, **kwargs):
    raise NotImplementedError("exercise 12.x: write this function")


def _any_colon(text, limit):
    calls = [tuple(p.strip() for p in line.split(":", 1)) for line in text.splitlines() if ":" in line]
    return calls[:limit]


def _last_colon(text, limit):
    found = [re.match(r"^\s*(?:\d+\.\s*)?(\w+)\s*:\s*(.*?)\s*$", line) for line in text.splitlines()]
    calls = [(m.group(1), m.group(2)) for m in found if m]
    return [(tool, rest.rsplit(":", 1)[-1].strip()) for tool, rest in calls][:limit]


def _unnumbered(text, limit):
    found = [re.match(r"^\s*([A-Za-z_]\w*)\s*:\s*(.*?)\s*$", line) for line in text.splitlines()]
    return [(m.group(1), m.group(2)) for m in found if m][:limit]


def _pattern(pattern, limit_or_none=False, lower=False):
    """A read_plan that reads each line with ``pattern`` (groups: tool, input)."""
    def read_plan(text, limit):
        found = [re.match(pattern, line) for line in text.splitlines()]
        calls = [(m.group(1).lower() if lower else m.group(1), m.group(2)) for m in found if m]
        return calls[:limit or None] if limit_or_none else calls[:limit]
    return read_plan


KEY_LINE = r"^\s*(?:[0-9]+\.\s*)?([A-Za-z_][A-Za-z0-9_]*)\s*:\s*(.*?)\s*$"

PLAN_MUTANTS = {
    "every line with a colon is a call": ("Any other line", _any_colon),
    "numbered lines skipped": ("may start with a number", _unnumbered),
    "the input cut at its last colon": ("Only the first colon splits", _last_colon),
    "no limit": ("At most `limit` calls", lambda text, limit: keys.read_plan(text, 99)),
    "last line first": ("in the order the lines come", lambda text, limit: keys.read_plan(text, limit)[::-1]),
    "only the first call": ("Each line of the form `tool: input` is one call",
                            lambda text, limit: keys.read_plan(text, min(limit, 1))),
    # the tool's characters
    "a hyphen in a tool": ("starting with a letter or an underscore",
                           _pattern(r"^\s*(?:[0-9]+\.\s*)?([A-Za-z_][\w-]*)\s*:\s*(.*?)\s*$")),
    "a tool may start with a digit": ("starting with a letter or an underscore",
                                      _pattern(r"^\s*(?:[0-9]+\.\s*)?([A-Za-z0-9_]+)\s*:\s*(.*?)\s*$")),
    "accented letters in a tool": ("starting with a letter or an underscore",
                                   _pattern(r"^\s*(?:[0-9]+\.\s*)?([^\W\d]\w*)\s*:\s*(.*?)\s*$")),
    "no leading underscore": ("either case",
                              _pattern(r"^\s*(?:[0-9]+\.\s*)?([A-Za-z][A-Za-z0-9_]*)\s*:\s*(.*?)\s*$")),
    "lower case only": ("either case",
                        _pattern(r"^\s*(?:[0-9]+\.\s*)?([a-z_][a-z0-9_]*)\s*:\s*(.*?)\s*$")),
    "tools lower-cased": ("either case", _pattern(KEY_LINE, lower=True)),
    # spaces and numbers
    "no space before the colon": ("before the colon too",
                                  _pattern(r"^\s*(?:[0-9]+\.\s*)?([A-Za-z_][A-Za-z0-9_]*):\s*(.*?)\s*$")),
    "the input keeps its trailing spaces": ("spaces around the tool and the input are stripped",
                                            _pattern(r"^\s*(?:[0-9]+\.\s*)?([A-Za-z_][A-Za-z0-9_]*)\s*:\s*(.*)$")),
    "an empty input refused": ("An input may be empty",
                               _pattern(r"^\s*(?:[0-9]+\.\s*)?([A-Za-z_][A-Za-z0-9_]*)\s*:\s*(.+?)\s*$")),
    "one digit only": ("`10.` too",
                       _pattern(r"^\s*(?:[0-9]\.\s*)?([A-Za-z_][A-Za-z0-9_]*)\s*:\s*(.*?)\s*$")),
    "2) accepted": ("`2)` and bullets",
                    _pattern(r"^\s*(?:[0-9]+[.)]\s*)?([A-Za-z_][A-Za-z0-9_]*)\s*:\s*(.*?)\s*$")),
    "bullets accepted": ("`2)` and bullets",
                         _pattern(r"^\s*(?:[0-9]+\.\s*|[-*•]\s*)?([A-Za-z_][A-Za-z0-9_]*)\s*:\s*(.*?)\s*$")),
    "the library's old PLAN_LINE": ("`2)` and bullets",
                                    _pattern(r"^\s*(?:\d+[.)]\s*)?([A-Za-z_][\w-]*)\s*:\s*(.*?)\s*$")),
    "a limit of 0 read as no limit": ("At most `limit` calls", _pattern(KEY_LINE, limit_or_none=True)),
    "lists instead of tuples": ("Each line of the form `tool: input` is one call",
                                lambda text, limit: [list(c) for c in keys.read_plan(text, limit)]),
}


def _without(rule):
    """The answer key with one rule left out."""
    def reflection(run):
        if rule != "final" and run["end_reason"] == "final_answer":
            return None
        if rule != "unknown" and "unknown_tool" in run["errors"]:
            return "unknown_tool"
        if rule != "no_action" and run["end_reason"] == "step_limit" and not run["calls"]:
            return "no_action"
        if rule != "unreadable" and "parse_error" in run["errors"]:
            return "unreadable"
        if rule != "repeating" and run["end_reason"] == "repeating":
            return "repeating"
        return None if rule == "other" else "other"
    return reflection


def _unreadable_first(run):
    if run["end_reason"] != "final_answer" and "parse_error" in run["errors"] and \
            "unknown_tool" not in run["errors"]:
        return "unreadable"
    return keys.reflection(run)


def _no_action_at_any_end(run):
    if run["end_reason"] != "final_answer" and not run["calls"] and "unknown_tool" not in run["errors"]:
        return "no_action"
    return keys.reflection(run)


def _end_reason_for_other(run):
    """The library's reflect words its last rule as the end reason; the exercise says "other"."""
    kind = keys.reflection(run)
    return run["end_reason"] if kind == "other" else kind


def _no_action_on_budget(run):
    stuck = run["end_reason"] in ("step_limit", "budget") and not run["calls"]
    if stuck and "unknown_tool" not in run["errors"]:
        return "no_action"
    return keys.reflection(run)


REFLECTION_MUTANTS = {
    "reflects on a final answer": ("ended with a final answer gets None", _without("final")),
    "a misnamed tool not noticed": ('"unknown_tool"', _without("unknown")),
    "thinking never noticed": ('"no_action"', _without("no_action")),
    "parse errors read first": ("before the parse errors", _unreadable_first),
    "no calls at any ending": ('"no_action"', _no_action_at_any_end),
    "parse errors not noticed": ('"unreadable"', _without("unreadable")),
    "the repeat guard not noticed": ('"repeating"', _without("repeating")),
    "nothing said otherwise": ('"other"', _without("other")),
    "the end reason for no rule": ('"other"', lambda run: _end_reason_for_other(run)),
    "no_action at any ending without calls": ('"no_action"', lambda run: _no_action_on_budget(run)),
}

EXERCISES = {
    "12.read_plan": (keys.read_plan, PLAN_MUTANTS),
    "12.reflection": (keys.reflection, REFLECTION_MUTANTS),
}

(
    test_reference_passes,
    test_stub_is_not_attempted,
    test_wrong_solution_fails,
    test_every_rule_has_a_mutant_and_every_mutant_a_rule,
    test_each_rules_cases_exist,
) = checker_tests(EXERCISES, stub)


@pytest.mark.parametrize(("exercise", "name"), [(e, n) for e, (_, m) in EXERCISES.items() for n in m])
def test_each_wrong_solution_is_caught_under_its_rule(exercise, name):
    rule, wrong = EXERCISES[exercise][1][name]
    assert caught_under(exercise, wrong, rule) == ""


def test_the_library_read_plan_is_the_key_and_the_hint_follows_the_fault():
    from react_course.checks import check
    from react_course.structure import read_plan

    assert read_plan("2) search: a\nsearch-web: b\n10. search : c") == [("search", "c")]
    result = check("12.read_plan", PLAN_MUTANTS["one digit only"][1])
    generated = next(c for c in result.cases if c.name.startswith("agrees"))
    assert generated.status == "failed" and "'10.'" in generated.hint, generated


EDGES = {
    "12.read_plan": {
        "a number of two digits": lambda args: re.search(r"(?m)^\s*[0-9]{2,}\.", args[0]) is not None,
        "2) or a bullet": lambda args: re.search(r"(?m)^\s*(?:[0-9]+\)|[-*•] )", args[0]) is not None,
        "a hyphen in a tool": lambda args: "search-web" in args[0],
        "a leading digit": lambda args: "2nd" in args[0], "an accented tool": lambda args: "café" in args[0],
        "upper case": lambda args: "GET_ORDER" in args[0],
        "a leading underscore": lambda args: "_lookup" in args[0],
        "a space before the colon": lambda args: re.search(r"\w[ \t]+:", args[0]) is not None,
        "a limit of 0 with calls": lambda args: args[1] == 0 and keys.read_plan(args[0], 9),
        "more calls than the limit": lambda args: len(keys.read_plan(args[0], 99)) > args[1] > 0,
    },
    "12.reflection": {"no calls at the step limit, with parse errors": lambda args: args[0]["end_reason"]
                      == "step_limit" and not args[0]["calls"] and "parse_error" in args[0]["errors"]},
}


@pytest.mark.parametrize(("exercise", "edge"), [(e, n) for e, edges in EDGES.items() for n in edges])
def test_the_generated_inputs_reach_every_edge(exercise, edge):
    from react_course.checks import exercises
    from react_course.checks.generated import COMPARISONS, generate

    exercises("12")  # loads the lesson's checkers, which register the comparisons
    assert any(EDGES[exercise][edge](args) for _, args in generate(COMPARISONS[exercise])), edge
