"""Lesson 11's checker: the answer key passes, a stub is "not attempted", and each wrong loop fails.

Every wrong loop is one an interview candidate writes from memory: it forgets
one rule of the statement, and the checker must catch it under that rule.
"""

from __future__ import annotations

import pytest
from mutation_suite import caught_under, checker_tests

import react_course as rc
from react_course.checks.lesson11.hostile import STOP, first_prompt, observe, reference_run


def not_written(*args, **kwargs):
    raise NotImplementedError("exercise 11.1: write it")


def loop(*, stop=True, cut=True, unknown=True, unreadable=True, raises=True, append_reply=True,
         count_all=True, limit=True, reason="step_limit", pair=True, cache=False):
    """A loop from memory with one habit switched off (the keywords say which)."""

    def run(question, model, tools, max_steps=6):
        history, steps, seen = first_prompt(question, tools), 0, {}
        while not limit or steps < max_steps:
            reply = model(history, STOP) if stop else model(history)
            reply = reply.split("\nObservation")[0] if cut else reply
            step = rc.parse_step(reply)
            steps += 1 if count_all or isinstance(step, rc.Action) else 0
            if isinstance(step, rc.FinalAnswer):
                return (step.answer, "final_answer") if pair else step.answer
            if isinstance(step, rc.ParseError):
                if not unreadable:
                    return "Could not finish: the reply was unreadable", "step_limit"
                observation = step.message
            elif not unknown and step.tool not in tools:
                observation = "Error: no such tool."
            elif not raises and step.tool in tools:
                observation = tools[step.tool](step.input)
            elif cache and (step.tool, step.input) in seen:
                observation = seen[(step.tool, step.input)]
            else:
                observation = observe(tools, step.tool, step.input)
            if isinstance(step, rc.Action):
                seen[(step.tool, step.input)] = observation
            history += f"\n{reply if append_reply else ''}\nObservation: {observation}"
        return f"Could not finish within {max_steps} steps.", reason

    return run


def off_by_one(question, model, tools, max_steps=6):
    return reference_run(question, model, tools, max_steps - 1)


def none_at_limit(question, model, tools, max_steps=6):
    answer, reason = reference_run(question, model, tools, max_steps)
    return (None, reason) if reason == "step_limit" else (answer, reason)


MUTANTS = {
    "no_stop_sent": ("call `model(history, STOP)` with the stop sequence on every call",
                     loop(stop=False)),
    "no_client_cut": ("cut the reply yourself at the first `\"\\nObservation\"`", loop(cut=False)),
    "observation_without_reply": (
        "append it, then `\"\\nObservation: \"` and the observation your program wrote",
        loop(append_reply=False)),
    "unknown_tool_not_named": (
        "an unknown tool name becomes an observation that names the tools you have",
        loop(unknown=False)),
    "gives_up_on_unreadable": ("a reply that cannot be read becomes the parse error's message",
                               loop(unreadable=False)),
    "tool_error_crashes": ("a tool that raises becomes an observation with the error",
                           loop(raises=False)),
    "counts_only_actions": ("every model call is a step, whatever the reply", loop(count_all=False)),
    "no_limit": ("make at most `max_steps` model calls", loop(limit=False)),
    "one_step_short": ("make at most `max_steps` model calls", off_by_one),
    "answer_without_reason": (
        "return `(answer, \"final_answer\")` as soon as a reply is a final answer", loop(pair=False)),
    "wrong_end_reason": (
        "return `(hand-over text, \"step_limit\")`, the text starting with `\"Could not finish\"`",
        loop(reason="max_steps")),
    "none_at_the_limit": (
        "return `(hand-over text, \"step_limit\")`, the text starting with `\"Could not finish\"`",
        none_at_limit),
    "caches_repeated_actions": ("each action runs its tool once, even one asked before",
                                loop(cache=True)),
}

EXERCISES = {"11.loop_from_memory": (reference_run, MUTANTS)}
(test_reference_passes, test_stub_is_not_attempted, test_wrong_solution_fails,
 test_every_rule_has_a_mutant_and_every_mutant_a_rule,
 test_each_rules_cases_exist) = checker_tests(EXERCISES, not_written)


@pytest.mark.parametrize("name", list(MUTANTS))
def test_each_wrong_loop_is_caught_under_its_rule(name: str) -> None:
    rule, wrong = MUTANTS[name]
    assert caught_under("11.loop_from_memory", wrong, rule) == ""


def test_the_generated_comparison_shows_the_smallest_difference() -> None:
    from react_course.checks.lesson11.generated import first_difference, scripts

    assert scripts() == scripts(), "the same seed must give the same scripts"
    assert len(scripts()) == 60, "the statement and the case promise sixty scripts"
    found = first_difference(loop(cache=True))
    assert found is not None
    smaller = [s for s in scripts() if s.size < found[0].size]
    assert all(first_difference_on(s) for s in smaller)


def first_difference_on(script) -> bool:
    from react_course.checks.lesson11.generated import outcome

    return outcome(loop(cache=True), script) == outcome(reference_run, script)
