"""Lesson 12's checkers: the references pass, stubs are not attempted, plausible mistakes fail.

Each mutant names the rule of the statement it breaks, and every rule has at least one.
"""

import re

from mutation_suite import checker_tests

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


PLAN_MUTANTS = {
    "every line with a colon is a call": ("Any other line", _any_colon),
    "numbered lines skipped": ("may start with a number and a dot", _unnumbered),
    "the input cut at its last colon": ("Only the first colon splits", _last_colon),
    "no limit": ("At most `limit` calls", lambda text, limit: keys.read_plan(text, 99)),
    "last line first": ("in the order the lines come", lambda text, limit: keys.read_plan(text, limit)[::-1]),
    "only the first call": ("Each line of the form `tool: input` is one call",
                            lambda text, limit: keys.read_plan(text, min(limit, 1))),
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


REFLECTION_MUTANTS = {
    "reflects on a final answer": ("ended with a final answer gets None", _without("final")),
    "a misnamed tool not noticed": ('"unknown_tool"', _without("unknown")),
    "thinking never noticed": ('"no_action"', _without("no_action")),
    "parse errors read first": ("before the parse errors", _unreadable_first),
    "no calls at any ending": ('"no_action"', _no_action_at_any_end),
    "parse errors not noticed": ('"unreadable"', _without("unreadable")),
    "the repeat guard not noticed": ('"repeating"', _without("repeating")),
    "nothing said otherwise": ('"other"', _without("other")),
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
