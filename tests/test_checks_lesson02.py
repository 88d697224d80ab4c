"""Lesson 02's checkers, through the one helper (``mutation_suite.exercise_tests``).

Right solutions pass, stubs are "not attempted", and every wrong solution below (the
wrong predictions of 02.predict_calls too) fails under the rule of the statement it
breaks, each run once; the tests that read its feedback get the same result
(``result_of``). The wrong solutions after "written from the statement" in each
section were written from the statement alone, in the mistake classes a first
attempt makes (strip, keyword calls, mutable defaults, a limit of 0, ...).
"""

from __future__ import annotations

from mutation_suite import exercise_tests, from_rule_table, result_of

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


def scripted_strips(replies):
    remaining = list(replies)

    def model(prompt, stop=None):
        model.prompts.append(prompt)
        if not remaining:
            raise RuntimeError("no replies left")
        return _earliest_cut(remaining.pop(0), stop).strip()

    model.prompts = []
    return model


def scripted_records_only_answered_calls(replies):
    remaining = list(replies)

    def model(prompt, stop=None):
        if not remaining:
            raise RuntimeError("no replies left")
        model.prompts.append(prompt)
        return _earliest_cut(remaining.pop(0), stop)

    model.prompts = []
    return model


def scripted_stop_must_be_a_list(replies):
    remaining = list(replies)

    def model(prompt, stop=None):
        model.prompts.append(prompt)
        if not remaining:
            raise RuntimeError("no replies left")
        reply = remaining.pop(0)
        cuts = [reply.find(s) for s in stop if s in reply]  # TypeError when stop is None
        return reply[: min(cuts)] if cuts else reply

    model.prompts = []
    return model


def scripted_silent_runtime_error(replies):
    remaining = list(replies)

    def model(prompt, stop=None):
        model.prompts.append(prompt)
        if not remaining:
            raise RuntimeError
        return _earliest_cut(remaining.pop(0), stop)

    model.prompts = []
    return model


def scripted_regex_split(replies):
    import re

    remaining = list(replies)

    def model(prompt, stop=None):
        model.prompts.append(prompt)
        if not remaining:
            raise RuntimeError("no replies left")
        reply = remaining.pop(0)
        return re.split("|".join(stop), reply)[0] if stop else reply

    model.prompts = []
    return model


SCRIPTED_MUTANTS = {
    "splits with a regular expression made of the stops": scripted_regex_split,
    "raises RuntimeError without a message": scripted_silent_runtime_error,
    "strips the reply": scripted_strips,
    "records the prompt only when a reply is left": scripted_records_only_answered_calls,
    "iterates over stop even when it is None": scripted_stop_must_be_a_list,
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


# written from the statement


def scripted_by_index(replies):
    """Also right: an index that goes up, the caller's list read and never changed.

    (Splitting at each stop in turn is not right: with overlapping stops, "b" and
    "\\nObservation" in "...\\nObservation", the first split cuts the earlier stop apart.)
    """
    state = {"next": 0}

    def model(prompt, stop=None):
        model.prompts.append(prompt)
        if state["next"] >= len(replies):
            raise RuntimeError("no replies left")
        reply = replies[state["next"]]
        state["next"] += 1
        return reply[: min([reply.find(s) for s in stop or [] if s and s in reply] or [len(reply)])]

    model.prompts = []
    return model


def scripted_next_of_iter(replies):
    replies = iter(list(replies))

    def model(prompt, stop=None):
        model.prompts.append(prompt)
        return _earliest_cut(next(replies), stop)

    model.prompts = []
    return model


def scripted_rstrips(replies):
    remaining = list(replies)

    def model(prompt, stop=None):
        model.prompts.append(prompt)
        if not remaining:
            raise RuntimeError("no replies left")
        return _earliest_cut(remaining.pop(0), stop).rstrip()

    model.prompts = []
    return model


def scripted_ignores_case(replies):
    remaining = list(replies)

    def model(prompt, stop=None):
        model.prompts.append(prompt)
        if not remaining:
            raise RuntimeError("no replies left")
        reply = remaining.pop(0)
        cuts = [reply.lower().find(s.lower()) for s in stop or [] if s and s.lower() in reply.lower()]
        return reply[: min(cuts)] if cuts else reply

    model.prompts = []
    return model


def scripted_min_of_no_cuts(replies):
    remaining = list(replies)

    def model(prompt, stop=None):
        model.prompts.append(prompt)
        if not remaining:
            raise RuntimeError("no replies left")
        reply = remaining.pop(0)
        if stop is None:
            return reply
        return reply[: min(reply.find(s) for s in stop if s in reply)]

    model.prompts = []
    return model


class _SharedPrompts:
    prompts = []  # noqa: RUF012 - a class attribute every model shares: the mistake under test

    def __init__(self, replies):
        self.remaining = list(replies)

    def __call__(self, prompt, stop=None):
        self.prompts.append(prompt)
        if not self.remaining:
            raise RuntimeError("no replies left")
        return _earliest_cut(self.remaining.pop(0), stop)


def scripted_records_prompt_and_stop(replies):
    remaining = list(replies)

    def model(prompt, stop=None):
        model.prompts.append((prompt, stop))
        if not remaining:
            raise RuntimeError("no replies left")
        return _earliest_cut(remaining.pop(0), stop)

    model.prompts = []
    return model


def scripted_empty_text_when_done(replies):
    remaining = list(replies)

    def model(prompt, stop=None):
        model.prompts.append(prompt)
        return _earliest_cut(remaining.pop(0), stop) if remaining else ""

    model.prompts = []
    return model


SCRIPTED_NEW = {
    "next() of an iterator: StopIteration when done": (
        "when no reply is left, it raises `RuntimeError`", scripted_next_of_iter),
    "strips the end of the reply": ("apart from that cut, each reply comes back exactly as written",
                                    scripted_rstrips),
    "finds the stops in any case": ("place where any of the stop sequences occurs in it",
                                    scripted_ignores_case),
    "min() over no cut raises ValueError": ("when `stop` (a list of strings, or `None`) is given",
                                            scripted_min_of_no_cuts),
    "a class attribute holds the prompts": ("two models never share replies or prompts", _SharedPrompts),
    "records (prompt, stop) pairs": (
        "it records every prompt it is sent in `model.prompts`, a list that starts empty",
        scripted_records_prompt_and_stop),
    "returns '' when the replies run out": ("when no reply is left, it raises `RuntimeError`",
                                            scripted_empty_text_when_done),
}


def test_scripted_model_accepts_the_library_class_plus_prompts() -> None:
    class Wrapped(rc.ScriptedModel):
        def __init__(self, replies):
            super().__init__(replies)
            self.prompts = []

        def __call__(self, prompt, stop=None):
            self.prompts.append(prompt)  # before the call, so the call that runs out counts
            return super().__call__(prompt, stop)

    result = result_of("02.scripted_model", Wrapped)
    assert result.status == "passed", str(result)


SCRIPTED_RULE_MUTANTS = {
    "it returns the replies in order, first in, first out": ["takes replies from the end (LIFO)"],
    "when `stop` (a list of strings, or `None`) is given": [
        "stop accepted by keyword only", "cuts at -1 when a stop is absent",
        "iterates over stop even when it is None"],
    "it cuts the reply just before the": ["never cuts at a stop"],
    "whichever stop that is": ["cuts at the first stop in the list"],
    "place where any of the stop sequences occurs in it": [
        "splits with a regular expression made of the stops"],
    "even if it occurs again later": ["cuts at the last occurrence of a stop (rfind)",
                                      "cuts at the last occurrence of a stop (rsplit)"],
    "the stop text and everything after it are not returned": ["keeps the stop text"],
    "apart from that cut, each reply comes back exactly as written": ["strips the reply"],
    "it records every prompt it is sent in `model.prompts`, a list that starts empty": [
        "records replies instead of prompts"],
    "the prompt of a call that finds no reply left too": [
        "records the prompt only when a reply is left"],
    "when no reply is left, it raises `RuntimeError`": [
        "returns None when the replies run out", "IndexError when the replies run out"],
    "with a message saying so": ["raises RuntimeError without a message"],
    "it leaves the caller's list unchanged": ["pops from the caller's list"],
    "two models never share replies or prompts": [
        "module-level list shared by every model", "mutable default argument for the prompts"],
}


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


def step_history_grows_on_final(history, model, tools):
    reply = model(history, STOP)
    step = rc.parse_step(reply)
    if isinstance(step, rc.FinalAnswer):
        return history + "\n" + reply, step.answer
    observation = tools.run(step.tool, step.input) if isinstance(step, rc.Action) else step.message
    return history + "\n" + reply + "\nObservation: " + observation, None


def step_empty_answer_to_go_on(history, model, tools):
    reply = model(history, STOP)
    step = rc.parse_step(reply)
    if isinstance(step, rc.FinalAnswer):
        return history, step.answer
    observation = tools.run(step.tool, step.input) if isinstance(step, rc.Action) else step.message
    return history + "\n" + reply + "\nObservation: " + observation, ""


def step_no_newline_before_reply(history, model, tools):
    reply = model(history, STOP)
    step = rc.parse_step(reply)
    if isinstance(step, rc.FinalAnswer):
        return history, step.answer
    observation = tools.run(step.tool, step.input) if isinstance(step, rc.Action) else step.message
    return history + reply + "\nObservation: " + observation, None


STEP_MUTANTS = {
    "no newline before the reply": step_no_newline_before_reply,
    "returns the history with the reply on a final answer": step_history_grows_on_final,
    "returns '' instead of None to go on": step_empty_answer_to_go_on,
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


STEP_RULE_MUTANTS = {
    "Call the model with the whole history and the stop sequence": [
        "forgets the stop sequence", "sends only the last line as the prompt"],
    "Read the reply with `rc.parse_step(reply)`": ["looks for 'Final Answer:' in the text"],
    "An `rc.FinalAnswer`: return `(history, step.answer)`": [
        "returns the whole reply as the answer",
        "returns the history with the reply on a final answer"],
    "No tool runs.": ["runs a tool on a final answer"],
    "An `rc.Action`: the observation is `tools.run(step.tool, step.input)`": [
        "passes the whole reply to the tool"],
    "an unknown tool comes back as text": ["looks the tool up directly (KeyError)"],
    "An `rc.ParseError`: the observation is `step.message`": [
        "crashes on a parse error", "treats a parse error as the answer"],
    'Return `(history + "\\n" + reply + "\\nObservation: " + observation, None)`': [
        "does not append the observation", "appends the observation without the reply",
        "no newline before the reply"],
    "`answer` is `None` when the loop should go on": ["returns '' instead of None to go on"],
}


# written from the statement


def step_returns_a_list(history, model, tools):
    new, answer = one_step(history, model, tools)
    return [new, answer]


def step_own_unknown_message(history, model, tools):
    reply = model(history, STOP)
    step = rc.parse_step(reply)
    if isinstance(step, rc.FinalAnswer):
        return history, step.answer
    if isinstance(step, rc.Action) and step.tool not in tools.names:
        observation = f"There is no tool {step.tool}."
    else:
        observation = tools.run(step.tool, step.input) if isinstance(step, rc.Action) else step.message
    return history + "\n" + reply + "\nObservation: " + observation, None


def step_parse_error_as_str(history, model, tools):
    reply = model(history, STOP)
    step = rc.parse_step(reply)
    if isinstance(step, rc.FinalAnswer):
        return history, step.answer
    observation = tools.run(step.tool, step.input) if isinstance(step, rc.Action) else "Could not parse."
    return history + "\n" + reply + "\nObservation: " + observation, None


def step_cuts_itself(history, model, tools):
    reply = rc.cut_at_stop(model(history), STOP)
    step = rc.parse_step(reply)
    if isinstance(step, rc.FinalAnswer):
        return history, step.answer
    observation = tools.run(step.tool, step.input) if isinstance(step, rc.Action) else step.message
    return history + "\n" + reply + "\nObservation: " + observation, None


def step_observation_without_space(history, model, tools):
    reply = model(history, STOP)
    step = rc.parse_step(reply)
    if isinstance(step, rc.FinalAnswer):
        return history, step.answer
    observation = tools.run(step.tool, step.input) if isinstance(step, rc.Action) else step.message
    return history + "\n" + reply + "\nObservation:" + observation, None


def step_stop_by_name(history, model, tools):
    """Also right: the stop passed by name."""
    reply = model(history, stop=STOP)
    step = rc.parse_step(reply)
    if isinstance(step, rc.FinalAnswer):
        return history, step.answer
    observation = tools.run(step.tool, step.input) if isinstance(step, rc.Action) else step.message
    return history + "\n" + reply + "\nObservation: " + observation, None


STEP_NEW = {
    "returns a list, not a tuple": ("the return value is always a tuple `(new_history, answer)`",
                                    step_returns_a_list),
    "writes its own message for an unknown tool": ("an unknown tool comes back as text",
                                                    step_own_unknown_message),
    "a parse error's observation of its own": ("An `rc.ParseError`: the observation is `step.message`",
                                               step_parse_error_as_str),
    "cuts the reply itself, sends no stop": ("Call the model with the whole history and the stop sequence",
                                             step_cuts_itself),
    "writes 'Observation:' without its space": (
        'Return `(history + "\\n" + reply + "\\nObservation: " + observation, None)`',
        step_observation_without_space),
}


def test_scripted_model_names_the_late_cut() -> None:
    text = str(result_of("02.scripted_model", scripted_cuts_at_last_occurrence))
    assert "cut where the stop first occurs" in text


def test_one_step_names_the_invented_observation() -> None:
    text = str(result_of("02.one_step", step_no_stop))
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


def loop_counts_tool_calls(question, model, tools, max_steps=5):
    """The step counter goes up only when a tool runs: an unreadable model is never stopped."""
    history, steps = rc.build_prompt(question, tools.describe(), tools.names), 0
    while steps < max_steps:
        reply = model(history, STOP)
        step = rc.parse_step(reply)
        if isinstance(step, rc.FinalAnswer):
            return step.answer
        if isinstance(step, rc.Action):
            steps += 1
        history += "\n" + reply + "\nObservation: " + _observation(step, tools)
    return f"Could not finish within {max_steps} steps."


def loop_counts_successful_tools(question, model, tools, max_steps=5):
    history, steps = rc.build_prompt(question, tools.describe(), tools.names), 0
    while steps < max_steps:
        reply = model(history, STOP)
        step = rc.parse_step(reply)
        if isinstance(step, rc.FinalAnswer):
            return step.answer
        if isinstance(step, rc.Action) and step.tool in tools.names:
            steps += 1
        history += "\n" + reply + "\nObservation: " + _observation(step, tools)
    return f"Could not finish within {max_steps} steps."


def loop_tool_looked_up_directly(question, model, tools, max_steps=5):
    history = rc.build_prompt(question, tools.describe(), tools.names)
    for _ in range(max_steps):
        reply = model(history, STOP)
        step = rc.parse_step(reply)
        if isinstance(step, rc.FinalAnswer):
            return step.answer
        observation = (tools[step.tool].function(step.input) if isinstance(step, rc.Action)
                       else step.message)
        history += "\n" + reply + "\nObservation: " + observation
    return f"Could not finish within {max_steps} steps."


def loop_other_hand_over_text(question, model, tools, max_steps=5):
    answer = react_loop(question, model, tools, max_steps)
    return answer.replace("Could not finish", "Sorry, I ran out of steps") \
        if answer.startswith("Could not finish") else answer


def loop_calls_twice_per_step(question, model, tools, max_steps=5):
    history = rc.build_prompt(question, tools.describe(), tools.names)
    for _ in range(max_steps):
        if isinstance(rc.parse_step(model(history, STOP)), rc.FinalAnswer):  # a first look
            pass
        reply = model(history, STOP)
        step = rc.parse_step(reply)
        if isinstance(step, rc.FinalAnswer):
            return step.answer
        history += "\n" + reply + "\nObservation: " + _observation(step, tools)
    return f"Could not finish within {max_steps} steps."


def loop_observation_without_space(question, model, tools, max_steps=5):
    history = rc.build_prompt(question, tools.describe(), tools.names)
    for _ in range(max_steps):
        reply = model(history, STOP)
        step = rc.parse_step(reply)
        if isinstance(step, rc.FinalAnswer):
            return step.answer
        history += "\n" + reply + "\nObservation:" + _observation(step, tools)
    return f"Could not finish within {max_steps} steps."


def loop_no_newline_before_reply(question, model, tools, max_steps=5):
    history = rc.build_prompt(question, tools.describe(), tools.names)
    for _ in range(max_steps):
        reply = model(history, STOP)
        step = rc.parse_step(reply)
        if isinstance(step, rc.FinalAnswer):
            return step.answer
        history += reply + "\nObservation: " + _observation(step, tools)
    return f"Could not finish within {max_steps} steps."


def loop_own_tools(question, model, tools, max_steps=5):
    """Builds the prompt and runs the tools from rc.default_tools(), not from its argument."""
    return react_loop(question, model, rc.default_tools(), max_steps)


def loop_keeps_history_between_calls(question, model, tools, max_steps=5, _kept=[]):  # noqa: B006
    if not _kept:
        _kept.append(rc.build_prompt(question, tools.describe(), tools.names))
    for _ in range(max_steps):
        reply = model(_kept[0], STOP)
        step = rc.parse_step(reply)
        if isinstance(step, rc.FinalAnswer):
            return step.answer
        _kept[0] += "\n" + reply + "\nObservation: " + _observation(step, tools)
    return f"Could not finish within {max_steps} steps."


LOOP_MUTANTS = {
    "keeps its history between calls (a default argument)": loop_keeps_history_between_calls,
    "uses rc.default_tools() instead of its tools": loop_own_tools,
    "no newline before the reply": loop_no_newline_before_reply,
    "writes 'Observation:' without its space": loop_observation_without_space,
    "counts only tool calls as steps": loop_counts_tool_calls,
    "counts only calls to known tools as steps": loop_counts_successful_tools,
    "looks the tool up directly (KeyError)": loop_tool_looked_up_directly,
    "hands over with another text": loop_other_hand_over_text,
    "calls the model twice per step": loop_calls_twice_per_step,
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


LOOP_RULE_MUTANTS = {
    "start the history with `rc.build_prompt(question, tools.describe(), tools.names)`": [
        "prompt without the tool list", "keeps its history between calls (a default argument)"],
    "use only the `model` and `tools` your function is given": [
        "uses rc.default_tools() instead of its tools"],
    "take steps as in exercise 2.2": ["gives up on a parse error",
                                      "looks the tool up directly (KeyError)"],
    "at most `max_steps` times": ["while True (no limit)", "max_steps + 1 model calls",
                                  "max_steps - 1 model calls", "calls the model twice per step"],
    "every call counts as a step, whatever the reply": [
        "counts only tool calls as steps", "counts only calls to known tools as steps"],
    "always with `STOP`": ["does not send the stop sequence"],
    "append each reply and then its observation to the history": [
        "writes 'Observation:' without its space", "does not feed observations back",
        "no newline before the reply",
        "keeps only the latest step",
        "appends the observation without the reply", "appends the reply without the observation",
        "appends the observation before the reply", "keeps the action but not the thought"],
    "return the answer's text as soon as a reply is a final answer": [
        "goes on after a final answer", "checks the limit before reading the last reply"],
    'return a hand-over text that starts with `"Could not finish"`': ["hands over with another text"],
    "Never `None`.": ["returns None at the limit"],
    "`react_loop(question, model, tools, max_steps=5)`": ["default limit of 10"],
}


# written from the statement


def loop_zero_means_the_default(question, model, tools, max_steps=5):
    return react_loop(question, model, tools, max_steps=max_steps or 5)


def loop_lower_case_hand_over(question, model, tools, max_steps=5):
    answer = react_loop(question, model, tools, max_steps)
    return answer.lower() if answer.startswith("Could not finish") else answer


def loop_cuts_itself(question, model, tools, max_steps=5):
    history = rc.build_prompt(question, tools.describe(), tools.names)
    for _ in range(max_steps):
        reply = rc.cut_at_stop(model(history), STOP)
        step = rc.parse_step(reply)
        if isinstance(step, rc.FinalAnswer):
            return step.answer
        history += "\n" + reply + "\nObservation: " + _observation(step, tools)
    return f"Could not finish within {max_steps} steps."


def loop_returns_the_step(question, model, tools, max_steps=5):
    history = rc.build_prompt(question, tools.describe(), tools.names)
    for _ in range(max_steps):
        reply = model(history, STOP)
        step = rc.parse_step(reply)
        if isinstance(step, rc.FinalAnswer):
            return step
        history += "\n" + reply + "\nObservation: " + _observation(step, tools)
    return f"Could not finish within {max_steps} steps."


def loop_blank_line_first(question, model, tools, max_steps=5):
    history = "\n" + rc.build_prompt(question, tools.describe(), tools.names)
    for _ in range(max_steps):
        reply = model(history, STOP)
        step = rc.parse_step(reply)
        if isinstance(step, rc.FinalAnswer):
            return step.answer
        history += "\n" + reply + "\nObservation: " + _observation(step, tools)
    return f"Could not finish within {max_steps} steps."


def loop_on_one_step(question, model, tools, max_steps=5):
    """Also right: the loop built on exercise 2.2's one_step, the stop passed by name inside."""
    history = rc.build_prompt(question, tools.describe(), tools.names)
    for _ in range(max_steps):
        history, answer = step_stop_by_name(history, model, tools)
        if answer is not None:
            return answer
    return f"Could not finish within {max_steps} steps. Hand this to a person: {question}"


def loop_limit_named_limit(question, model, tools, limit=5):
    return react_loop(question, model, tools, limit)


LOOP_NEW = {
    "the limit named `limit`": ("`react_loop(question, model, tools, max_steps=5)`", loop_limit_named_limit),
    "max_steps=0 read as the default": ("at most `max_steps` times", loop_zero_means_the_default),
    "a hand-over in lower case": ('return a hand-over text that starts with `"Could not finish"`',
                                  loop_lower_case_hand_over),
    "cuts the reply itself, sends no stop": ("always with `STOP`", loop_cuts_itself),
    "returns the FinalAnswer, not its text": ("return the answer's text as soon as a reply is a final answer",
                                              loop_returns_the_step),
    "a blank line before the first prompt": (
        "start the history with `rc.build_prompt(question, tools.describe(), tools.names)`",
        loop_blank_line_first),
}


def test_a_loop_that_never_reads_a_reply_is_stopped_at_its_limit() -> None:
    """The issue's case: counting only tool calls made 1,001 calls against an unreadable model."""
    result = result_of("02.react_loop", loop_counts_tool_calls)
    failed = {c.name: c for c in result.cases if c.status == "failed"}
    assert "replies that cannot be read count as steps" in failed
    assert "more than 3 times" in str(result)


def test_a_loop_that_calls_twice_per_step_is_told_so() -> None:
    text = str(result_of("02.react_loop", loop_calls_twice_per_step))
    assert "sent the same prompt in calls 1 and 2" in text and "once per step" in text


def test_react_loop_names_the_missing_reply() -> None:
    text = str(result_of("02.react_loop", loop_observation_only))
    assert "does not hold the model's reply 1" in text
    assert "never sees its own earlier thoughts and actions" in text


def test_an_unbounded_loop_fails_fast_with_a_clear_message() -> None:
    text = str(result_of("02.react_loop", loop_while_true))
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


CALLS, REASON = "How many times is the model called", "what is the run's `end_reason`?"
SHAPE = "Write your prediction as a tuple `(model_calls, end_reason)`"
PREDICTIONS = {
    "3 calls (the extra call forgotten)": (CALLS, (3, "step_limit")),
    "2 calls (the unreadable reply not counted)": (CALLS, (2, "step_limit")),
    "5 calls": (CALLS, (5, "step_limit")),
    "ended by its final answer": (REASON, (4, "final_answer")),
    "'step limit' with a space": (REASON, (4, "step limit")),
    "an error": (REASON, (4, "error")),
    "a number alone": (SHAPE, 4),
    "a text": ((SHAPE, CALLS), "4, step_limit"),
    "a list of one": ((SHAPE, REASON), [4]),
    # written from the statement
    "the reason in capitals": (REASON, (4, "STEP_LIMIT")),
    "the calls as text": (CALLS, ("4", "step_limit")),
    "three items": (SHAPE, (4, "step_limit", "best effort")),
    "None for the reason": (REASON, (4, None)),
}


def test_predict_calls_feedback_says_what_each_item_is_about() -> None:
    text = str(check("02.predict_calls", (5, "final_answer")))
    assert "prediction[0]: how many times the model is called" in text
    assert "prediction[1]: the run's end_reason" in text
    assert "got:      5" in text and "got:      'final_answer'" in text


def test_predict_calls_explains_the_extra_call() -> None:
    wrong = PREDICTIONS["3 calls (the extra call forgotten)"][1]
    assert "one more call" in str(result_of("02.predict_calls", wrong))


def test_an_unanswered_value_is_not_attempted() -> None:
    assert check("02.predict_calls", ...).status == "not attempted"


# ---------------------------------------------------------------- all of them


(test_right_solutions_pass, test_stub_is_not_attempted, test_wrong_solution_fails_under_its_rule,
 test_every_rule_has_a_mutant, test_each_rules_cases_exist) = exercise_tests({
    "02.scripted_model": ((make_scripted_model, scripted_by_index),
                          from_rule_table(SCRIPTED_RULE_MUTANTS, SCRIPTED_MUTANTS) | SCRIPTED_NEW),
    "02.one_step": ((one_step, step_stop_by_name),
                    from_rule_table(STEP_RULE_MUTANTS, STEP_MUTANTS) | STEP_NEW),
    "02.react_loop": ((react_loop, loop_renders_the_step, loop_on_one_step),
                      from_rule_table(LOOP_RULE_MUTANTS, LOOP_MUTANTS) | LOOP_NEW),
    "02.predict_calls": (((4, "step_limit"),), PREDICTIONS),
}, not_written)
