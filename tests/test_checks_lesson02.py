"""Lesson 02's checkers: the reference passes, stubs are "not attempted", mistakes fail."""

from __future__ import annotations

import pytest

import react_course as rc
from react_course.checks import check
from react_course.prompts import render_action

STOP = ["\nObservation"]


def not_written(*args, **kwargs):
    raise NotImplementedError("exercise 2.x: write it")


# ---------------------------------------------------------------- 02.scripted_model


def _earliest_cut(reply, stop):
    cuts = [reply.find(s) for s in stop or [] if s and s in reply]
    return reply[: min(cuts)] if cuts else reply


def make_scripted_model(replies):
    remaining = list(replies)

    def model(prompt, stop=None):
        model.prompts.append(prompt)
        if not remaining:
            raise RuntimeError(f"the script has no replies left ({len(model.prompts)} calls)")
        return _earliest_cut(remaining.pop(0), stop)

    model.prompts = []
    return model


def scripted_lifo(replies):
    remaining = list(replies)

    def model(prompt, stop=None):
        model.prompts.append(prompt)
        if not remaining:
            raise RuntimeError("no replies left")
        return _earliest_cut(remaining.pop(), stop)

    model.prompts = []
    return model


def scripted_no_cut(replies):
    remaining = list(replies)

    def model(prompt, stop=None):
        model.prompts.append(prompt)
        if not remaining:
            raise RuntimeError("no replies left")
        return remaining.pop(0)

    model.prompts = []
    return model


def scripted_keeps_stop(replies):
    remaining = list(replies)

    def model(prompt, stop=None):
        model.prompts.append(prompt)
        if not remaining:
            raise RuntimeError("no replies left")
        reply = remaining.pop(0)
        cuts = [reply.find(s) + len(s) for s in stop or [] if s in reply]
        return reply[: min(cuts)] if cuts else reply

    model.prompts = []
    return model


def scripted_first_stop_in_list(replies):
    remaining = list(replies)

    def model(prompt, stop=None):
        model.prompts.append(prompt)
        if not remaining:
            raise RuntimeError("no replies left")
        reply = remaining.pop(0)
        for s in stop or []:
            if s in reply:
                return reply[: reply.find(s)]
        return reply

    model.prompts = []
    return model


_SHARED: list[str] = []


def scripted_module_level_list(replies):
    _SHARED.extend(replies)

    def model(prompt, stop=None):
        model.prompts.append(prompt)
        if not _SHARED:
            raise RuntimeError("no replies left")
        return _earliest_cut(_SHARED.pop(0), stop)

    model.prompts = []
    return model


def scripted_mutable_default(replies, prompts=[]):  # noqa: B006 - the mistake under test
    remaining = list(replies)

    def model(prompt, stop=None):
        prompts.append(prompt)
        if not remaining:
            raise RuntimeError("no replies left")
        return _earliest_cut(remaining.pop(0), stop)

    model.prompts = prompts
    return model


def scripted_none_when_done(replies):
    remaining = list(replies)

    def model(prompt, stop=None):
        model.prompts.append(prompt)
        return _earliest_cut(remaining.pop(0), stop) if remaining else None

    model.prompts = []
    return model


def scripted_index_error(replies):
    remaining = list(replies)

    def model(prompt, stop=None):
        model.prompts.append(prompt)
        return _earliest_cut(remaining.pop(0), stop)

    model.prompts = []
    return model


def scripted_pops_callers_list(replies):
    def model(prompt, stop=None):
        model.prompts.append(prompt)
        if not replies:
            raise RuntimeError("no replies left")
        return _earliest_cut(replies.pop(0), stop)

    model.prompts = []
    return model


def scripted_records_replies(replies):
    remaining = list(replies)

    def model(prompt, stop=None):
        if not remaining:
            raise RuntimeError("no replies left")
        reply = _earliest_cut(remaining.pop(0), stop)
        model.prompts.append(reply)
        return reply

    model.prompts = []
    return model


def scripted_cut_at_minus_one(replies):
    remaining = list(replies)

    def model(prompt, stop=None):
        model.prompts.append(prompt)
        if not remaining:
            raise RuntimeError("no replies left")
        reply = remaining.pop(0)
        for s in stop or []:
            reply = reply[: reply.find(s)]  # find gives -1 when s is absent
        return reply

    model.prompts = []
    return model


def scripted_cuts_at_last_occurrence(replies):
    remaining = list(replies)

    def model(prompt, stop=None):
        model.prompts.append(prompt)
        if not remaining:
            raise RuntimeError("no replies left")
        reply = remaining.pop(0)
        cuts = [reply.rfind(s) for s in stop or [] if s and s in reply]
        return reply[: min(cuts)] if cuts else reply

    model.prompts = []
    return model


def scripted_rsplit_at_stop(replies):
    remaining = list(replies)

    def model(prompt, stop=None):
        model.prompts.append(prompt)
        if not remaining:
            raise RuntimeError("no replies left")
        reply = remaining.pop(0)
        for s in stop or []:
            reply = reply.rsplit(s, 1)[0]
        return reply

    model.prompts = []
    return model


def scripted_stop_keyword_only(replies):
    remaining = list(replies)

    def model(prompt, *, stop=None):
        model.prompts.append(prompt)
        if not remaining:
            raise RuntimeError("no replies left")
        return _earliest_cut(remaining.pop(0), stop)

    model.prompts = []
    return model


SCRIPTED_MUTANTS = {
    "takes replies from the end (LIFO)": scripted_lifo,
    "never cuts at a stop": scripted_no_cut,
    "keeps the stop text": scripted_keeps_stop,
    "cuts at the first stop in the list": scripted_first_stop_in_list,
    "module-level list shared by every model": scripted_module_level_list,
    "mutable default argument for the prompts": scripted_mutable_default,
    "returns None when the replies run out": scripted_none_when_done,
    "IndexError when the replies run out": scripted_index_error,
    "pops from the caller's list": scripted_pops_callers_list,
    "records replies instead of prompts": scripted_records_replies,
    "cuts at -1 when a stop is absent": scripted_cut_at_minus_one,
    "stop accepted by keyword only": scripted_stop_keyword_only,
    "cuts at the last occurrence of a stop (rfind)": scripted_cuts_at_last_occurrence,
    "cuts at the last occurrence of a stop (rsplit)": scripted_rsplit_at_stop,
}


def test_scripted_model_reference_passes() -> None:
    result = check("02.scripted_model", make_scripted_model)
    assert result.status == "passed", str(result)


def test_scripted_model_accepts_the_library_class_plus_prompts() -> None:
    class Wrapped(rc.ScriptedModel):
        @property
        def prompts(self):
            return [call.prompt for call in self.calls]

    assert check("02.scripted_model", Wrapped).status == "passed"


@pytest.mark.parametrize("name", SCRIPTED_MUTANTS)
def test_scripted_model_mutants_fail(name: str) -> None:
    _SHARED.clear()
    result = check("02.scripted_model", SCRIPTED_MUTANTS[name])
    assert result.status == "failed", f"{name} was not caught:\n{result}"


# ---------------------------------------------------------------- 02.one_step


def one_step(history, model, tools):
    reply = model(history, STOP)
    step = rc.parse_step(reply)
    if isinstance(step, rc.FinalAnswer):
        return history, step.answer
    if isinstance(step, rc.Action):
        observation = tools.run(step.tool, step.input)
    else:
        observation = step.message
    return history + "\n" + reply + "\nObservation: " + observation, None


def step_no_stop(history, model, tools):
    reply = model(history)
    step = rc.parse_step(reply)
    if isinstance(step, rc.FinalAnswer):
        return history, step.answer
    observation = tools.run(step.tool, step.input) if isinstance(step, rc.Action) else step.message
    return history + "\n" + reply + "\nObservation: " + observation, None


def step_no_observation(history, model, tools):
    reply = model(history, STOP)
    step = rc.parse_step(reply)
    if isinstance(step, rc.FinalAnswer):
        return history, step.answer
    if isinstance(step, rc.Action):
        tools.run(step.tool, step.input)
    return history + "\n" + reply, None


def step_observation_only(history, model, tools):
    reply = model(history, STOP)
    step = rc.parse_step(reply)
    if isinstance(step, rc.FinalAnswer):
        return history, step.answer
    observation = tools.run(step.tool, step.input) if isinstance(step, rc.Action) else step.message
    return history + "\nObservation: " + observation, None


def step_crashes_on_parse_error(history, model, tools):
    reply = model(history, STOP)
    step = rc.parse_step(reply)
    if isinstance(step, rc.FinalAnswer):
        return history, step.answer
    return history + "\n" + reply + "\nObservation: " + tools.run(step.tool, step.input), None


def step_parse_error_is_final(history, model, tools):
    reply = model(history, STOP)
    step = rc.parse_step(reply)
    if isinstance(step, rc.Action):
        return history + "\n" + reply + "\nObservation: " + tools.run(step.tool, step.input), None
    return history, getattr(step, "answer", reply)


def step_runs_tool_on_final(history, model, tools):
    reply = model(history, STOP)
    step = rc.parse_step(reply)
    if isinstance(step, rc.FinalAnswer):
        tools.run("calculate", step.answer)
        return history, step.answer
    observation = tools.run(step.tool, step.input) if isinstance(step, rc.Action) else step.message
    return history + "\n" + reply + "\nObservation: " + observation, None


def step_text_test_for_final(history, model, tools):
    reply = model(history, STOP)
    if "Final Answer:" in reply:
        return history, reply.split("Final Answer:", 1)[1].strip()
    step = rc.parse_step(reply)
    observation = tools.run(step.tool, step.input) if isinstance(step, rc.Action) else step.message
    return history + "\n" + reply + "\nObservation: " + observation, None


def step_sends_last_line_only(history, model, tools):
    reply = model(history.splitlines()[-1], STOP)
    step = rc.parse_step(reply)
    if isinstance(step, rc.FinalAnswer):
        return history, step.answer
    observation = tools.run(step.tool, step.input) if isinstance(step, rc.Action) else step.message
    return history + "\n" + reply + "\nObservation: " + observation, None


def step_looks_tool_up_directly(history, model, tools):
    reply = model(history, STOP)
    step = rc.parse_step(reply)
    if isinstance(step, rc.FinalAnswer):
        return history, step.answer
    if isinstance(step, rc.Action):
        observation = tools[step.tool].function(step.input)
    else:
        observation = step.message
    return history + "\n" + reply + "\nObservation: " + observation, None


def step_passes_whole_reply_to_tool(history, model, tools):
    reply = model(history, STOP)
    step = rc.parse_step(reply)
    if isinstance(step, rc.FinalAnswer):
        return history, step.answer
    observation = tools.run(step.tool, reply) if isinstance(step, rc.Action) else step.message
    return history + "\n" + reply + "\nObservation: " + observation, None


def step_returns_whole_reply_as_answer(history, model, tools):
    reply = model(history, STOP)
    step = rc.parse_step(reply)
    if isinstance(step, rc.FinalAnswer):
        return history, reply
    observation = tools.run(step.tool, step.input) if isinstance(step, rc.Action) else step.message
    return history + "\n" + reply + "\nObservation: " + observation, None


STEP_MUTANTS = {
    "forgets the stop sequence": step_no_stop,
    "does not append the observation": step_no_observation,
    "appends the observation without the reply": step_observation_only,
    "crashes on a parse error": step_crashes_on_parse_error,
    "treats a parse error as the answer": step_parse_error_is_final,
    "runs a tool on a final answer": step_runs_tool_on_final,
    "looks for 'Final Answer:' in the text": step_text_test_for_final,
    "sends only the last line as the prompt": step_sends_last_line_only,
    "looks the tool up directly (KeyError)": step_looks_tool_up_directly,
    "passes the whole reply to the tool": step_passes_whole_reply_to_tool,
    "returns the whole reply as the answer": step_returns_whole_reply_as_answer,
}


def test_one_step_reference_passes() -> None:
    result = check("02.one_step", one_step)
    assert result.status == "passed", str(result)


@pytest.mark.parametrize("name", STEP_MUTANTS)
def test_one_step_mutants_fail(name: str) -> None:
    result = check("02.one_step", STEP_MUTANTS[name])
    assert result.status == "failed", f"{name} was not caught:\n{result}"


def test_scripted_model_names_the_late_cut() -> None:
    text = str(check("02.scripted_model", scripted_cuts_at_last_occurrence))
    assert "cut where the stop first occurs" in text


def test_one_step_names_the_invented_observation() -> None:
    text = str(check("02.one_step", step_no_stop))
    assert "invented observation" in text and "stop=STOP" in text


# ---------------------------------------------------------------- 02.react_loop


def react_loop(question, model, tools, max_steps=5):
    history = rc.build_prompt(question, tools.describe(), tools.names)
    for _ in range(max_steps):
        reply = model(history, STOP)
        step = rc.parse_step(reply)
        if isinstance(step, rc.FinalAnswer):
            return step.answer
        if isinstance(step, rc.Action):
            observation = tools.run(step.tool, step.input)
        else:
            observation = step.message
        history += "\n" + reply + "\nObservation: " + observation
    return f"Could not finish within {max_steps} steps; hand this question to a person: {question}"


def _observation(step, tools):
    return tools.run(step.tool, step.input) if isinstance(step, rc.Action) else step.message


def loop_while_true(question, model, tools, max_steps=5):
    history = rc.build_prompt(question, tools.describe(), tools.names)
    while True:
        reply = model(history, STOP)
        step = rc.parse_step(reply)
        if isinstance(step, rc.FinalAnswer):
            return step.answer
        history += "\n" + reply + "\nObservation: " + _observation(step, tools)


def loop_one_too_many(question, model, tools, max_steps=5):
    history = rc.build_prompt(question, tools.describe(), tools.names)
    for _ in range(max_steps + 1):
        reply = model(history, STOP)
        step = rc.parse_step(reply)
        if isinstance(step, rc.FinalAnswer):
            return step.answer
        history += "\n" + reply + "\nObservation: " + _observation(step, tools)
    return f"Could not finish within {max_steps} steps."


def loop_one_too_few(question, model, tools, max_steps=5):
    history = rc.build_prompt(question, tools.describe(), tools.names)
    for _ in range(1, max_steps):
        reply = model(history, STOP)
        step = rc.parse_step(reply)
        if isinstance(step, rc.FinalAnswer):
            return step.answer
        history += "\n" + reply + "\nObservation: " + _observation(step, tools)
    return f"Could not finish within {max_steps} steps."


def loop_returns_none(question, model, tools, max_steps=5):
    history = rc.build_prompt(question, tools.describe(), tools.names)
    for _ in range(max_steps):
        reply = model(history, STOP)
        step = rc.parse_step(reply)
        if isinstance(step, rc.FinalAnswer):
            return step.answer
        history += "\n" + reply + "\nObservation: " + _observation(step, tools)
    return None


def loop_ignores_final_answer(question, model, tools, max_steps=5):
    history, answer = rc.build_prompt(question, tools.describe(), tools.names), None
    for _ in range(max_steps):
        reply = model(history, STOP)
        step = rc.parse_step(reply)
        if isinstance(step, rc.FinalAnswer):
            answer = step.answer
            continue
        history += "\n" + reply + "\nObservation: " + _observation(step, tools)
    return answer or f"Could not finish within {max_steps} steps."


def loop_no_stop(question, model, tools, max_steps=5):
    history = rc.build_prompt(question, tools.describe(), tools.names)
    for _ in range(max_steps):
        reply = model(history)
        step = rc.parse_step(reply)
        if isinstance(step, rc.FinalAnswer):
            return step.answer
        history += "\n" + reply + "\nObservation: " + _observation(step, tools)
    return f"Could not finish within {max_steps} steps."


def loop_no_feedback(question, model, tools, max_steps=5):
    history = rc.build_prompt(question, tools.describe(), tools.names)
    for _ in range(max_steps):
        reply = model(history, STOP)
        step = rc.parse_step(reply)
        if isinstance(step, rc.FinalAnswer):
            return step.answer
        _observation(step, tools)
    return f"Could not finish within {max_steps} steps."


def loop_forgets_earlier_steps(question, model, tools, max_steps=5):
    start = rc.build_prompt(question, tools.describe(), tools.names)
    history = start
    for _ in range(max_steps):
        reply = model(history, STOP)
        step = rc.parse_step(reply)
        if isinstance(step, rc.FinalAnswer):
            return step.answer
        history = start + "\n" + reply + "\nObservation: " + _observation(step, tools)
    return f"Could not finish within {max_steps} steps."


def loop_observation_only(question, model, tools, max_steps=5):
    history = rc.build_prompt(question, tools.describe(), tools.names)
    for _ in range(max_steps):
        reply = model(history, STOP)
        step = rc.parse_step(reply)
        if isinstance(step, rc.FinalAnswer):
            return step.answer
        history += "\nObservation: " + _observation(step, tools)
    return f"Could not finish within {max_steps} steps."


def loop_reply_only(question, model, tools, max_steps=5):
    history = rc.build_prompt(question, tools.describe(), tools.names)
    for _ in range(max_steps):
        reply = model(history, STOP)
        step = rc.parse_step(reply)
        if isinstance(step, rc.FinalAnswer):
            return step.answer
        _observation(step, tools)
        history += "\n" + reply
    return f"Could not finish within {max_steps} steps."


def loop_observation_before_reply(question, model, tools, max_steps=5):
    history = rc.build_prompt(question, tools.describe(), tools.names)
    for _ in range(max_steps):
        reply = model(history, STOP)
        step = rc.parse_step(reply)
        if isinstance(step, rc.FinalAnswer):
            return step.answer
        history += "\nObservation: " + _observation(step, tools) + "\n" + reply
    return f"Could not finish within {max_steps} steps."


def loop_action_without_thought(question, model, tools, max_steps=5):
    history = rc.build_prompt(question, tools.describe(), tools.names)
    for _ in range(max_steps):
        reply = model(history, STOP)
        step = rc.parse_step(reply)
        if isinstance(step, rc.FinalAnswer):
            return step.answer
        if isinstance(step, rc.Action):
            history += f"\nAction: {step.tool}\nAction Input: {step.input}"
        history += "\nObservation: " + _observation(step, tools)
    return f"Could not finish within {max_steps} steps."


def loop_renders_the_step(question, model, tools, max_steps=5):
    """A right answer: the reply rendered canonically instead of appended as written."""
    history = rc.build_prompt(question, tools.describe(), tools.names)
    for _ in range(max_steps):
        reply = model(history, STOP)
        step = rc.parse_step(reply)
        if isinstance(step, rc.FinalAnswer):
            return step.answer
        written = render_action(step.thought, step.tool, step.input) \
            if isinstance(step, rc.Action) else reply
        history += "\n" + written + "\nObservation: " + _observation(step, tools)
    return f"Could not finish within {max_steps} steps."


def loop_stops_on_parse_error(question, model, tools, max_steps=5):
    history = rc.build_prompt(question, tools.describe(), tools.names)
    for _ in range(max_steps):
        reply = model(history, STOP)
        step = rc.parse_step(reply)
        if isinstance(step, rc.FinalAnswer):
            return step.answer
        if isinstance(step, rc.ParseError):
            return f"Could not finish: {step.message}"
        history += "\n" + reply + "\nObservation: " + tools.run(step.tool, step.input)
    return f"Could not finish within {max_steps} steps."


def loop_limit_checked_before_reading(question, model, tools, max_steps=5):
    history = rc.build_prompt(question, tools.describe(), tools.names)
    for number in range(1, max_steps + 1):
        reply = model(history, STOP)
        if number == max_steps:
            break
        step = rc.parse_step(reply)
        if isinstance(step, rc.FinalAnswer):
            return step.answer
        history += "\n" + reply + "\nObservation: " + _observation(step, tools)
    return f"Could not finish within {max_steps} steps."


def loop_no_tools_in_prompt(question, model, tools, max_steps=5):
    history = f"Question: {question}"
    for _ in range(max_steps):
        reply = model(history, STOP)
        step = rc.parse_step(reply)
        if isinstance(step, rc.FinalAnswer):
            return step.answer
        history += "\n" + reply + "\nObservation: " + _observation(step, tools)
    return f"Could not finish within {max_steps} steps."


def loop_default_of_ten(question, model, tools, max_steps=10):
    return react_loop(question, model, tools, max_steps)


LOOP_MUTANTS = {
    "while True (no limit)": loop_while_true,
    "max_steps + 1 model calls": loop_one_too_many,
    "max_steps - 1 model calls": loop_one_too_few,
    "returns None at the limit": loop_returns_none,
    "goes on after a final answer": loop_ignores_final_answer,
    "does not send the stop sequence": loop_no_stop,
    "does not feed observations back": loop_no_feedback,
    "keeps only the latest step": loop_forgets_earlier_steps,
    "appends the observation without the reply": loop_observation_only,
    "appends the reply without the observation": loop_reply_only,
    "appends the observation before the reply": loop_observation_before_reply,
    "keeps the action but not the thought": loop_action_without_thought,
    "gives up on a parse error": loop_stops_on_parse_error,
    "checks the limit before reading the last reply": loop_limit_checked_before_reading,
    "prompt without the tool list": loop_no_tools_in_prompt,
    "default limit of 10": loop_default_of_ten,
}


def test_react_loop_reference_passes() -> None:
    result = check("02.react_loop", react_loop)
    assert result.status == "passed", str(result)


def test_react_loop_accepts_a_canonically_rendered_reply() -> None:
    result = check("02.react_loop", loop_renders_the_step)
    assert result.status == "passed", str(result)


def test_react_loop_names_the_missing_reply() -> None:
    text = str(check("02.react_loop", loop_observation_only))
    assert "does not hold the model's reply 1" in text
    assert "never sees its own earlier thoughts and actions" in text


@pytest.mark.parametrize("name", LOOP_MUTANTS)
def test_react_loop_mutants_fail(name: str) -> None:
    result = check("02.react_loop", LOOP_MUTANTS[name])
    assert result.status == "failed", f"{name} was not caught:\n{result}"


def test_an_unbounded_loop_fails_fast_with_a_clear_message() -> None:
    text = str(check("02.react_loop", loop_while_true))
    assert "a correct loop stops at its step limit" in text
    assert "did not finish within" not in text  # the guard, not the timer, stopped it


# ---------------------------------------------------------------- 02.predict_calls


def test_predict_calls_matches_the_library() -> None:
    model = rc.ScriptedModel([
        "Thought: I need the price of a notebook.\nAction: price\nAction Input: notebook",
        "Thought: Now the pen.\nAction: price\nAction Input: pen",
        "The total must be 16.",
        "Thought: I now know the answer\nFinal Answer: 16",
    ])
    result = rc.run_react("What do 3 notebooks and 2 pens cost?", model, rc.shop_tools(), max_steps=3)
    answer = (result.model_calls, result.end_reason)
    assert answer == (4, "step_limit")
    assert check("02.predict_calls", answer).status == "passed"


@pytest.mark.parametrize("wrong", [(3, "step_limit"), (4, "final_answer"), (2, "step_limit"),
                                   4, "4, step_limit", (4, "step limit"), [4]])
def test_predict_calls_wrong_answers_fail(wrong) -> None:
    assert check("02.predict_calls", wrong).status == "failed"


def test_predict_calls_explains_the_extra_call() -> None:
    assert "one more call" in str(check("02.predict_calls", (3, "step_limit")))


# ---------------------------------------------------------------- all of them


@pytest.mark.parametrize("exercise_id", ["02.scripted_model", "02.one_step", "02.react_loop"])
def test_stubs_are_not_attempted(exercise_id: str) -> None:
    assert check(exercise_id, not_written).status == "not attempted"


def test_an_unanswered_value_is_not_attempted() -> None:
    assert check("02.predict_calls", ...).status == "not attempted"
