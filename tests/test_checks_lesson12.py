"""Lesson 12's checkers, through the one helper (``mutation_suite.exercise_tests``).

Each wrong solution names the rule of the statement it breaks, fails under it, and runs once;
every rule has at least one.
"""

import re

import pytest
from mutation_suite import exercise_tests, result_of

from react_course.checks.lesson12.reflection import key as reflection_key
from react_course.lessons.structure import read_plan as plan_key


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


def _strip_spaces_only(text, limit):
    line = re.compile(r"^ *(?:[0-9]+\. *)?([A-Za-z_][A-Za-z0-9_]*) *: *(.*?) *$")
    found = [line.match(each) for each in text.splitlines()]
    return [(m.group(1), m.group(2)) for m in found if m][:limit]


def _kept_calls(text, limit, calls=[]):  # noqa: B006 - the mistake under test: a default that remembers
    calls.extend(plan_key(text, limit))
    return calls[-limit:] if limit else []


KEY_LINE = r"^\s*(?:[0-9]+\.\s*)?([A-Za-z_][A-Za-z0-9_]*)\s*:\s*(.*?)\s*$"

PLAN_MUTANTS = {
    "every line with a colon is a call": ("Any other line", _any_colon),
    "numbered lines skipped": ("may start with a number", _unnumbered),
    "the input cut at its last colon": ("Only the first colon splits", _last_colon),
    "no limit": ("At most `limit` calls", lambda text, limit: plan_key(text, 99)),
    "last line first": ("in the order the lines come", lambda text, limit: plan_key(text, limit)[::-1]),
    "only the first call": ("Each line of the form `tool: input` is one call",
                            lambda text, limit: plan_key(text, min(limit, 1))),
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
                                lambda text, limit: [list(c) for c in plan_key(text, limit)]),
    # added from the statement alone (issue 27)
    "unicode digits as a number": ("may start with a number",
                                   _pattern(r"^\s*(?:\d+\.\s*)?([A-Za-z_][A-Za-z0-9_]*)\s*:\s*(.*?)\s*$")),
    "tools capitalised": ("either case", lambda text, limit: [(t.capitalize(), i) for t, i in
                                                              plan_key(text, limit)]),
    "only spaces stripped, not tabs": ("spaces around the tool and the input are stripped",
                                       _strip_spaces_only),
    "calls kept in a mutable default": ("Each line of the form `tool: input` is one call", _kept_calls),
    "a negative slice for the limit": ("At most `limit` calls", lambda text, limit: plan_key(text, 99)[
        :limit if limit else -1]),
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
    return reflection_key(run)


def _no_action_at_any_end(run):
    if run["end_reason"] != "final_answer" and not run["calls"] and "unknown_tool" not in run["errors"]:
        return "no_action"
    return reflection_key(run)


def _end_reason_for_other(run):
    """The library's reflect words its last rule as the end reason; the exercise says "other"."""
    kind = reflection_key(run)
    return run["end_reason"] if kind == "other" else kind


def _no_action_on_budget(run):
    stuck = run["end_reason"] in ("step_limit", "budget") and not run["calls"]
    if stuck and "unknown_tool" not in run["errors"]:
        return "no_action"
    return reflection_key(run)


def _first_error_only(run):
    """Reads only the first error for the parse-error rule."""
    stuck = run["end_reason"] == "step_limit" and not run["calls"]
    if run["end_reason"] != "final_answer" and "unknown_tool" not in run["errors"] and not stuck:
        return "unreadable" if run["errors"][:1] == ["parse_error"] else _without("unreadable")(run)
    return reflection_key(run)


def _in_the_calls(run):
    if run["end_reason"] != "final_answer" and "unknown_tool" in run["calls"]:
        return "unknown_tool"
    kind = reflection_key(run)
    return _without("unknown")(run) if kind == "unknown_tool" else kind


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
    # added from the statement alone (issue 27)
    "only the first error read": ('"unreadable"', _first_error_only),
    "unknown tools looked up in the calls": ('"unknown_tool"', _in_the_calls),
    "None as text": ("ended with a final answer gets None", lambda run: "None" if run["end_reason"] ==
                     "final_answer" else reflection_key(run)),
}

EXERCISES = {
    "12.read_plan": ((plan_key, _pattern(KEY_LINE)), PLAN_MUTANTS),
    "12.reflection": (reflection_key, REFLECTION_MUTANTS),
}
(test_right_solutions_pass, test_stub_is_not_attempted, test_wrong_solution_fails_under_its_rule,
 test_every_rule_has_a_mutant, test_each_rules_cases_exist) = exercise_tests(EXERCISES, stub)


def test_the_library_read_plan_is_the_key_and_holds_the_statement():
    from react_course.checks.spec import SPECS

    assert SPECS["12.read_plan"].key is plan_key
    plan = "2) search: a\nsearch-web: b\n10. search : c\n- x: d\n_Y : e"
    assert plan_key(plan) == [("search", "c"), ("_Y", "e")]


@pytest.mark.parametrize(("exercise", "name", "says"), [
    ("12.read_plan", "one digit only", "'10.'"), ("12.read_plan", "2) accepted", "'2)'"),
    ("12.read_plan", "a hyphen in a tool", "search-web"),
    ("12.read_plan", "no space before the colon", "before"),
    ("12.reflection", "the end reason for no rule", "not the end reason"),
    ("12.reflection", "parse errors read first", "before the parse errors")])
def test_the_hint_follows_the_fault(exercise, name, says):
    result = result_of(exercise, EXERCISES[exercise][1][name][1])
    failed = [c for c in result.cases if c.status == "failed"]
    assert failed and says in failed[0].hint, failed[0]
