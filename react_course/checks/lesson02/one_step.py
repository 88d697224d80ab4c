"""Check ``02.one_step``: one step of the loop, ``one_step(history, model, tools)``.

Each case gives the student's step a fresh history and a scripted model with
one reply to give, then looks at what came back, what the model was sent and
which tools ran: an action runs its tool, a final answer runs nothing, and a
reply that cannot be read or names an unknown tool becomes an observation.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from ...models import ScriptedModel
from ...parsing import parse_step
from ...prompts import build_prompt
from ...tools import ToolRegistry
from .. import exercise
from ..framework import Case, describe, nonblank_lines
from .common import (
    ADD_UP,
    ANSWER,
    ASK_PEN,
    INVENTED,
    QUESTION,
    UNREADABLE,
    Text,
    logged_tools,
    stop_was_sent,
)
from .generated_runs import ONE_STEP

GIVEN = ("history = rc.build_prompt(question, tools.describe(), tools.names); "
         "one_step(history, model, tools)")


def _prompt(tools: ToolRegistry) -> str:
    return build_prompt(QUESTION, tools.describe(), tools.names)


_lines = nonblank_lines


def _step(one_step: Callable, reply: str) -> dict[str, Any]:
    """Run one_step on a fresh history with a scripted model that has ``reply`` to give."""
    log: list[tuple[str, str]] = []
    tools = logged_tools(log)
    history = _prompt(tools)
    model = ScriptedModel([reply])
    got = one_step(history, model, tools)
    return {"got": got, "history": history, "calls": model.calls, "log": log}


def _appends(reply: str, observation: str,
             tools_used: list[tuple[str, str]]) -> Callable[[dict[str, Any]], bool | str]:
    """The test for a step that must append ``reply`` and ``observation`` to the history."""

    def test(run: dict[str, Any]) -> bool | str:
        got, history = run["got"], run["history"]
        if not (isinstance(got, tuple | list) and len(got) == 2):
            return "return a tuple (new_history, answer)"
        new, answer = got
        if answer is not None:
            return f"the answer must be None when the loop goes on, not {describe(answer, 80)}"
        if not isinstance(new, str) or not new.startswith(history):
            return "the new history must start with the whole history you were given"
        if not new[len(history):].startswith("\n"):
            return ("what you added does not start on a new line: append '\\n' + reply + "
                    "'\\nObservation: ' + observation")
        added = _lines(new[len(history):])
        if any("99" in line for line in added):
            return ("the history holds the model's invented observation ('A pen costs 99.'): "
                    "send stop=STOP so that the reply ends before it")
        if run["log"] != tools_used:
            return f"the tools were called as {run['log']}, expected {tools_used}"
        if not any(line.startswith("Observation:") for line in added):
            return "no 'Observation: ...' line was appended: the model would never see the result"
        if _lines(reply)[-1] not in added:
            return "the model's reply was not appended before the observation"
        if added != _lines(reply) + _lines("Observation: " + observation):
            return "append '\\n' + reply + '\\nObservation: ' + observation, and nothing else"
        return True

    return test


def _show_step(run: dict[str, Any]) -> str:
    got = run["got"]
    if not (isinstance(got, tuple | list) and len(got) == 2):
        return describe(got, 200)
    new, answer = got
    if new == run["history"]:
        new = "history"
    elif isinstance(new, str) and new.startswith(run["history"]):
        new = "history + " + describe(new[len(run["history"]):], 300)
    else:
        new = describe(new, 120)
    return f"({new}, {describe(answer, 80)}); tools called: {run['log']}"


def _want(reply: str, observation: str, tools_used: list[tuple[str, str]]) -> str:
    added = "\n" + reply + "\nObservation: " + observation
    return Text(f"(history + {describe(added, 300)}, None); tools called: {tools_used}")


def _final_is(expected: str) -> Callable[[dict[str, Any]], bool | str]:
    def test(run: dict[str, Any]) -> bool | str:
        got = run["got"]
        if run["log"]:
            return f"a tool ran on a final answer ({run['log']}): return the answer and run nothing"
        if not (isinstance(got, tuple | list) and len(got) == 2):
            return "return a tuple (history, answer)"
        return got[1] == expected or f"the answer part should be {expected!r}"

    return test


def _history_unchanged(run: dict[str, Any]) -> bool | str:
    got = run["got"]
    if not (isinstance(got, tuple | list) and len(got) == 2):
        return "return a tuple (history, answer)"
    if got[0] == run["history"]:
        return True
    if isinstance(got[0], str) and got[0].startswith(run["history"]):
        return ("the history came back with text added after it: on a final answer return the "
                "history you were given, unchanged")
    return "on a final answer, return the history you were given, unchanged"


def _sent_right(run: dict[str, Any]) -> bool | str:
    call = run["calls"][0] if run["calls"] else None
    if call is None:
        return "the model was never called"
    if call.prompt != run["history"]:
        return "the prompt was not the whole history: the model needs everything so far"
    return stop_was_sent(call.stop) or "the call had no '\\nObservation' stop sequence"


def _show_sent(run: dict[str, Any]) -> str:
    if not run["calls"]:
        return "no call"
    call = run["calls"][0]
    same = "the whole history" if call.prompt == run["history"] else describe(call.prompt, 120)
    return f"prompt: {same}; stop: {call.stop!r}"


GENERATED = ONE_STEP.name
RULES = {
    "Call the model with the whole history and the stop sequence": (
        "the whole history is the prompt, sent with the stop sequence",
        "the model's invented observation never reaches the history"),
    "Read the reply with `rc.parse_step(reply)`": (
        "the paper's finish[...] is a final answer too",),
    "An `rc.FinalAnswer`: return `(history, step.answer)`": (
        "a final answer is returned and no tool runs",
        "on a final answer the history comes back unchanged"),
    "No tool runs.": ("a final answer is returned and no tool runs",),
    "An `rc.Action`: the observation is `tools.run(step.tool, step.input)`": (
        "an action runs the tool and appends the reply and the observation",
        "the tool gets the parsed input"),
    "an unknown tool comes back as text": (
        "an unknown tool name becomes an observation, not a crash",),
    "An `rc.ParseError`: the observation is `step.message`": (
        "a reply that cannot be read becomes the observation",),
    'Return `(history + "\\n" + reply + "\\nObservation: " + observation, None)`': (
        "an action runs the tool and appends the reply and the observation", GENERATED),
    "`answer` is `None` when the loop should go on": (
        "an action runs the tool and appends the reply and the observation",
        "a reply that cannot be read becomes the observation"),
}


@exercise(
    "02.one_step",
    "one step of the loop",
    rules=RULES,
    hints=(
        "Three outcomes of rc.parse_step(reply): rc.FinalAnswer (return history, step.answer), "
        "rc.Action (observation = tools.run(step.tool, step.input)), rc.ParseError "
        "(observation = step.message).",
        "Call the model as model(history, STOP): the whole history is the prompt, and the stop "
        "keeps the model from writing an Observation of its own.",
        "For an action or a parse error return "
        "(history + '\\n' + reply + '\\nObservation: ' + observation, None).",
    ),
)
def one_step_cases(one_step: Callable) -> Any:
    yield from _action_cases(one_step)
    yield from _final_cases(one_step)
    yield from _observation_cases(one_step)
    yield ONE_STEP.case(one_step)


def _action_cases(one_step: Callable) -> Iterator[Case]:
    """An action: the tool runs, and only the reply and the real observation are appended."""
    yield Case(
        "an action runs the tool and appends the reply and the observation",
        lambda: _step(one_step, ASK_PEN),
        test=_appends(ASK_PEN, "A pen costs 2.", [("price", "pen")]),
        expected=_want(ASK_PEN, "A pen costs 2.", [("price", "pen")]),
        show=_show_step,
        given=f"{GIVEN}, with the model replying {ASK_PEN!r}",
        hint="Return (history + '\\n' + reply + '\\nObservation: ' + observation, None), where "
             "observation = tools.run(step.tool, step.input).",
    )
    yield Case(
        "the whole history is the prompt, sent with the stop sequence",
        lambda: _step(one_step, ASK_PEN),
        test=_sent_right,
        expected=Text("prompt: the whole history; stop: ('\\nObservation',)"),
        show=_show_sent,
        given=GIVEN + "; what the model received",
        hint="Call model(history, STOP) with STOP = ['\\nObservation']: the model needs everything "
             "so far, and the stop keeps it from writing the observation itself.",
    )
    yield Case(
        "the model's invented observation never reaches the history",
        lambda: _step(one_step, ASK_PEN + INVENTED),
        test=_appends(ASK_PEN, "A pen costs 2.", [("price", "pen")]),
        expected=_want(ASK_PEN, "A pen costs 2.", [("price", "pen")]),
        show=_show_step,
        given=f"{GIVEN}, with a model whose reply goes on: {(ASK_PEN + INVENTED)!r}",
        hint="Pass STOP to the model: a model that honours it returns only the text before "
             "'\\nObservation', and your observation is the tool's real result.",
    )


def _final_cases(one_step: Callable) -> Iterator[Case]:
    """A final answer, in either format, is returned and runs no tool."""
    yield Case(
        "a final answer is returned and no tool runs",
        lambda: _step(one_step, ANSWER),
        test=_final_is("3 notebooks and 2 pens cost 16."),
        expected=Text("(history, '3 notebooks and 2 pens cost 16.'); tools called: []"),
        show=_show_step,
        given=f"{GIVEN}, with the model replying {ANSWER!r}",
        hint="When parse_step gives an rc.FinalAnswer, return (history, step.answer) at once.",
    )
    yield Case(
        "on a final answer the history comes back unchanged",
        lambda: _step(one_step, ANSWER),
        test=_history_unchanged,
        expected=Text("(history, '3 notebooks and 2 pens cost 16.'), history exactly as given"),
        show=_show_step,
        given=f"{GIVEN}, with the model replying {ANSWER!r}",
        hint="Return (history, step.answer): the loop ends here, so nothing is appended.",
    )
    finish = "Thought: I know it now.\nAction: finish[16]"
    yield Case(
        "the paper's finish[...] is a final answer too",
        lambda: _step(one_step, finish),
        test=_final_is("16"),
        expected=Text("(history, '16'); tools called: []"),
        show=_show_step,
        given=f"{GIVEN}, with the model replying {finish!r}",
        hint="Decide by the type parse_step returns (isinstance(step, rc.FinalAnswer)), not by "
             "looking for the words 'Final Answer' in the text.",
    )


def _observation_cases(one_step: Callable) -> Iterator[Case]:
    """What the program writes back: a parse error, an unknown tool, the tool's result."""
    error = parse_step(UNREADABLE).message
    yield Case(
        "a reply that cannot be read becomes the observation",
        lambda: _step(one_step, UNREADABLE),
        test=_appends(UNREADABLE, error, []),
        expected=_want(UNREADABLE, error, []),
        show=_show_step,
        given=f"{GIVEN}, with the model replying {UNREADABLE!r}",
        hint="An rc.ParseError is not the end: its .message (which shows the right format) is "
             "the observation, and the loop goes on.",
    )
    wrong_tool = "Thought: I need the price of a pen.\nAction: cost\nAction Input: pen"
    unknown = "Unknown tool 'cost'. Available tools: price, calculate."
    yield Case(
        "an unknown tool name becomes an observation, not a crash",
        lambda: _step(one_step, wrong_tool),
        test=_appends(wrong_tool, unknown, []),
        expected=_want(wrong_tool, unknown, []),
        show=_show_step,
        given=f"{GIVEN}, with the model replying {wrong_tool!r}",
        hint="Run tools with tools.run(step.tool, step.input): it turns an unknown name or a "
             "failing tool into an observation instead of raising.",
    )
    yield Case(
        "the tool gets the parsed input",
        lambda: _step(one_step, ADD_UP),
        test=_appends(ADD_UP, "16", [("calculate", "3 * 4 + 2 * 2")]),
        expected=_want(ADD_UP, "16", [("calculate", "3 * 4 + 2 * 2")]),
        show=_show_step,
        given=f"{GIVEN}, with the model replying {ADD_UP!r}",
        hint="Pass step.input (the text after 'Action Input:'), not the whole reply.",
    )
