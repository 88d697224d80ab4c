"""Lesson 11's checker, through the one helper (``mutation_suite.exercise_tests``).

Every wrong loop is one an interview candidate writes from memory: it forgets one
rule of the statement, and must fail under that rule (each is run once). The loops
here are written from the statement, not taken from the checker.
"""

from __future__ import annotations

import pytest
from mutation_suite import exercise_tests, result_of

import react_course as rc
from react_course.checks.lesson11 import hostile
from react_course.checks.lesson11.hostile import STOP, first_prompt
from react_course.checks.lesson11.loop_from_memory import (
    APPEND,
    AT_MOST,
    CUT,
    EVERY,
    FINAL,
    LIMIT,
    ONCE,
    PARSE,
    RAISES,
    START,
    STOPS,
    UNKNOWN_TOOL,
    key,
)

ID = "11.loop_from_memory"


def not_written(*args, **kwargs):
    raise NotImplementedError("exercise 11.1: write it")


def observe(tools, tool, text):
    if tool not in tools:
        return f"Unknown tool {tool!r}. Available tools: {', '.join(tools)}."
    try:
        return str(tools[tool](text))
    except Exception as error:
        return f"Error from {tool}: {error}"


def loop(*, stop=True, cut=True, unknown=True, unreadable=True, raises=True, append_reply=True,
         count_all=True, limit=True, reason="step_limit", pair=True, cache=False, start=None,
         stop_sent=STOP, cut_at="\nObservation", whole_message=True, strip=False, rebuilt=False,
         stop_once=False, zero_is_default=False, handover="Could not finish", as_list=False,
         observation_of=observe, before_reply="\n"):
    """A loop from memory with one habit switched off (the keywords say which)."""

    def run(question, model, tools, max_steps=6):
        history = start(question, tools) if start else first_prompt(question, tools)
        steps, seen, limit_at = 0, {}, (max_steps or 6) if zero_is_default else max_steps
        while not limit or steps < limit_at:
            sent = stop_sent if not (stop_once and steps) else None
            reply = model(history, sent) if stop else model(history)
            reply = reply.split(cut_at)[0] if cut else reply
            reply = reply.strip() if strip else reply
            step = rc.parse_step(reply)
            steps += 1 if count_all or isinstance(step, rc.Action) else 0
            if isinstance(step, rc.FinalAnswer):
                answer = (step.answer, "final_answer") if pair else step.answer
                return list(answer) if as_list else answer
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
                observation = observation_of(tools, step.tool, step.input)
            if isinstance(step, rc.Action):
                seen[(step.tool, step.input)] = observation
            if rebuilt:
                history = f"Question: {question}"
            history += f"{before_reply}{reply if append_reply else ''}\nObservation: {observation}"
        return f"{handover} within {max_steps} steps.", reason

    return run


def off_by_one(question, model, tools, max_steps=6):
    return key(question, model, tools, max_steps - 1)


def none_at_limit(question, model, tools, max_steps=6):
    answer, reason = key(question, model, tools, max_steps)
    return (None, reason) if reason == "step_limit" else (answer, reason)


def renamed_limit(question, model, tools, steps=6):
    return key(question, model, tools, steps)


_SHARED = {}


def cache_in_a_default(question, model, tools, max_steps=6, results=_SHARED):
    """A mutable default: results kept from earlier runs answer this one's actions."""
    history = first_prompt(question, tools)
    for _ in range(max_steps):
        reply = model(history, STOP).split("\nObservation")[0]
        step = rc.parse_step(reply)
        if isinstance(step, rc.FinalAnswer):
            return step.answer, "final_answer"
        if isinstance(step, rc.ParseError):
            observation = step.message
        else:
            if (step.tool, step.input) not in results:
                results[step.tool, step.input] = observe(tools, step.tool, step.input)
            observation = results[step.tool, step.input]
        history += f"\n{reply}\nObservation: {observation}"
    return f"Could not finish within {max_steps} steps.", "step_limit"


def looked_up(tools, tool, text):
    function = tools[tool]  # an unknown name raises KeyError here, outside the try
    try:
        return str(function(text))
    except Exception as error:
        return f"Error: {error}"


def only_the_bad_name(tools, tool, text):
    return f"Unknown tool {tool!r}." if tool not in tools else observe(tools, tool, text)


def error_without_text(tools, tool, text):
    if tool in tools:
        try:
            return str(tools[tool](text))
        except Exception:
            return "Error: the tool failed."
    return observe(tools, tool, text)


def the_solution_notebooks(question, model, tools, max_steps=6):
    """Also right: the loop the solution notebook shows, with str.split for the cut."""
    return loop()(question, model, tools, max_steps)


MUTANTS = {
    "no_stop_sent": (STOPS, loop(stop=False)),
    "no_client_cut": (CUT, loop(cut=False)),
    "observation_without_reply": (APPEND, loop(append_reply=False)),
    "unknown_tool_not_named": (UNKNOWN_TOOL, loop(unknown=False)),
    "gives_up_on_unreadable": (PARSE, loop(unreadable=False)),
    "tool_error_crashes": (RAISES, loop(raises=False)),
    "counts_only_actions": (EVERY, loop(count_all=False)),
    "no_limit": (AT_MOST, loop(limit=False)),
    "one_step_short": (AT_MOST, off_by_one),
    "answer_without_reason": (FINAL, loop(pair=False)),
    "wrong_end_reason": (LIMIT, loop(reason="max_steps")),
    "none_at_the_limit": (LIMIT, none_at_limit),
    "caches_repeated_actions": (ONCE, loop(cache=True)),
    "history_from_the_question_alone": (START, loop(start=lambda question, tools: f"Question: {question}")),
    "history_with_an_extra_line": (START, loop(start=lambda question, tools: first_prompt(question, tools)
                                               + "\n")),
    "stop_without_its_newline": (STOPS, loop(stop_sent=["Observation"])),
    "cut_at_the_bare_word": (CUT, loop(cut_at="Observation")),
    "first_line_of_the_parse_error": (PARSE, loop(whole_message=False)),
    # added from the statement alone (issue 27)
    "later_prompts_rebuilt_from_the_question": (START, loop(rebuilt=True)),
    "stop_on_the_first_call_only": (STOPS, loop(stop_once=True)),
    "reply_stripped_before_appending": (APPEND, loop(strip=True)),
    "cache_in_a_mutable_default": (ONCE, cache_in_a_default),
    "limit_0_read_as_the_default": (AT_MOST, loop(zero_is_default=True)),
    "max_steps_renamed": (AT_MOST, renamed_limit),
    "a_list_not_a_pair": (FINAL, loop(as_list=True)),
    "hand_over_in_other_words": (LIMIT, loop(handover="I could not finish")),
    "unknown_tool_looked_up_unguarded": (UNKNOWN_TOOL, loop(observation_of=looked_up)),
    "unknown_tool_names_only_itself": (UNKNOWN_TOOL, loop(observation_of=only_the_bad_name)),
    "tool_error_without_its_text": (RAISES, loop(observation_of=error_without_text)),
}

# Also right: no line break before the reply (the statement asks for none), the stop as a tuple, or as
# the one string (the course's models, like the OpenAI API, read a string as one stop sequence).
RIGHT = (key, the_solution_notebooks, loop(before_reply=""), loop(stop_sent=tuple(STOP)),
         loop(stop_sent="\nObservation"))
EXERCISES = {ID: (RIGHT, MUTANTS)}
(test_right_solutions_pass, test_stub_is_not_attempted, test_wrong_solution_fails_under_its_rule,
 test_every_rule_has_a_mutant, test_each_rules_cases_exist) = exercise_tests(EXERCISES, not_written)


def test_the_generated_comparison_runs_sixty_scripts() -> None:
    from react_course.checks.generated import COMPARISONS, generate

    assert len(generate(COMPARISONS[ID])) == 60, "the statement promises sixty scripts"


@pytest.mark.parametrize(("name", "says"), [
    ("tool_error_crashes", "try/except"), ("first_line_of_the_parse_error", "all its lines"),
    ("stop_without_its_newline", "line break"), ("cut_at_the_bare_word", "line break included"),
    ("history_from_the_question_alone", "first_prompt"), ("caches_repeated_actions", "no cache"),
    ("unknown_tool_looked_up_unguarded", "step.tool in tools"), ("max_steps_renamed", "signature")])
def test_the_first_failure_gets_the_hint_of_its_fault(name: str, says: str) -> None:
    """The hint follows the fault found, not the case that happened to fail first."""
    result = result_of(ID, MUTANTS[name][1])
    first = next(c for c in result.cases if c.status == "failed")
    assert says in first.hint and "for loop cannot forget" not in first.hint, first


def test_the_module_the_lesson_imports_holds_no_loop() -> None:
    """A student must not import a ready answer from a name the lesson shows."""
    loops = [name for name, value in vars(hostile).items() if callable(value)
             and getattr(value, "__code__", None) and value.__code__.co_varnames[:3] == (
                 "question", "model", "tools")]
    assert not loops and not hasattr(hostile, "reference_run"), loops
