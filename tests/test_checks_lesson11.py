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
         count_all=True, limit=True, reason="step_limit", pair=True, cache=False, start=None,
         stop_sent=STOP, cut_at="\nObservation", whole_message=True):
    """A loop from memory with one habit switched off (the keywords say which)."""

    def run(question, model, tools, max_steps=6):
        history, steps, seen = start(question, tools) if start else first_prompt(question, tools), 0, {}
        while not limit or steps < max_steps:
            reply = model(history, stop_sent) if stop else model(history)
            reply = reply.split(cut_at)[0] if cut else reply
            step = rc.parse_step(reply)
            steps += 1 if count_all or isinstance(step, rc.Action) else 0
            if isinstance(step, rc.FinalAnswer):
                return (step.answer, "final_answer") if pair else step.answer
            if isinstance(step, rc.ParseError):
                if not unreadable:
                    return "Could not finish: the reply was unreadable", "step_limit"
                observation = step.message if whole_message else step.message.splitlines()[0]
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
    "history_from_the_question_alone": ("Start the history with `first_prompt(question, tools)`",
                                        loop(start=lambda question, tools: f"Question: {question}")),
    "history_with_an_extra_line": ("Start the history with `first_prompt(question, tools)`",
                                   loop(start=lambda question, tools: first_prompt(question, tools) + "\n")),
    "stop_without_its_newline": ("call `model(history, STOP)` with the stop sequence on every call",
                                 loop(stop_sent=["Observation"])),
    "cut_at_the_bare_word": ("cut the reply yourself at the first `\"\\nObservation\"`",
                             loop(cut_at="Observation")),
    "first_line_of_the_parse_error": ("a reply that cannot be read becomes the parse error's message",
                                      loop(whole_message=False)),
}

EXERCISES = {"11.loop_from_memory": (reference_run, MUTANTS)}
(test_reference_passes, test_stub_is_not_attempted, test_wrong_solution_fails,
 test_every_rule_has_a_mutant_and_every_mutant_a_rule,
 test_each_rules_cases_exist) = checker_tests(EXERCISES, not_written)


@pytest.mark.parametrize("name", list(MUTANTS))
def test_each_wrong_loop_is_caught_under_its_rule(name: str) -> None:
    rule, wrong = MUTANTS[name]
    assert caught_under("11.loop_from_memory", wrong, rule) == ""


def test_the_generated_comparison_is_the_shared_one_with_sixty_scripts() -> None:
    from react_course.checks.generated import COMPARISONS, generate
    from react_course.checks.lesson11.generated import COMPARISON

    assert COMPARISONS["11.loop_from_memory"] is COMPARISON.comparison
    assert len(generate(COMPARISON.comparison)) == 60, "the statement promises sixty scripts"


@pytest.mark.parametrize(("name", "says"), [
    ("tool_error_crashes", "try/except"), ("first_line_of_the_parse_error", "all its lines"),
    ("stop_without_its_newline", "line break"), ("cut_at_the_bare_word", "line break included"),
    ("history_from_the_question_alone", "first_prompt"), ("caches_repeated_actions", "no cache")])
def test_the_generated_failure_gets_the_hint_of_its_fault(name: str, says: str) -> None:
    from react_course.checks import check

    result = check("11.loop_from_memory", MUTANTS[name][1])
    generated = next(c for c in result.cases if c.name.startswith("the answer key and your loop"))
    assert generated.status == "failed" and says in generated.hint, generated


def test_a_loop_that_raises_gets_a_hint_about_its_error_not_the_case() -> None:
    from react_course.checks import check

    result = check("11.loop_from_memory", MUTANTS["tool_error_crashes"][1])
    first = next(c for c in result.cases if c.status == "failed")
    assert "try/except" in first.hint and "for loop" not in first.hint, first


EDGES = {
    "a thought that says Observation": lambda args: any("The Observation above" in r for r in args[0]),
    "a model that writes its own observation": lambda args: any("A pen costs 99" in r for r in args[0]),
    "an unreadable reply": lambda args: "I think the total is 16." in args[0],
    "a model that ignores the stop": lambda args: args[2],
    "a limit of 1": lambda args: args[1] == 1,
}


@pytest.mark.parametrize("edge", list(EDGES))
def test_the_generated_inputs_reach_every_edge(edge: str) -> None:
    from react_course.checks import exercises
    from react_course.checks.generated import COMPARISONS, generate

    exercises("11")  # loads the lesson's checkers, which register the comparisons
    assert any(EDGES[edge](args) for _, args in generate(COMPARISONS["11.loop_from_memory"])), edge
