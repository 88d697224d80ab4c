"""Lesson 02's answer keys, and the generated scripts and runs their checkers compare on.

- ``02.scripted_model``: scripts of 0 to 5 replies (unicode, newlines, stops
  inside them) and a sequence of calls, some past the script's end. Compared:
  each call's reply, or that it raised ``RuntimeError``; the prompts recorded; the
  caller's list left as it was.
- ``02.one_step``: a history and one reply from lesson 03's generated replies.
  Compared: the whole ``(new_history, answer)``.
- ``02.react_loop``: scripts of replies and step limits from 0 to 5. Compared:
  the answer (a hand-over only by its start, "Could not finish"), the number of
  model calls, and that each observation reaches the next prompt (a reply may be
  written back as sent or rendered anew). The model is guarded: a loop without a
  limit fails.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from ...models import ScriptedModel
from ...parsing import Action, FinalAnswer, parse_step
from ...prompts import build_prompt
from ...tools import ToolRegistry, shop_tools
from ..generated import Comparison, Draw, register, same_value
from ..guards import GuardedModel
from ..lesson03.replies import any_reply
from .common import STOP

REPLIES = ("Thought: I need a price.\nAction: price\nAction Input: pen\nObservation: A pen costs 99.",
           "Final Answer: 4", "", "  spaced  \n", "Zürich ✓\nObservation", "a\nObservation\nb\nObservation")
STOPS = (None, ["\nObservation"], ["Observation", "\nb"], [], ["", "✓"], ["b", "\nObservation"])


def scripted_key(replies: list[str]) -> Callable[..., str]:
    """The answer key: a copy of the replies, cut at the earliest stop, every prompt recorded."""
    remaining = list(replies)

    def model(prompt: str, stop: list[str] | None = None) -> str:
        model.prompts.append(prompt)
        if not remaining:
            raise RuntimeError("the script has no replies left")
        reply = remaining.pop(0)
        cuts = [reply.find(s) for s in stop or [] if s and s in reply]
        return reply[: min(cuts)] if cuts else reply

    model.prompts = []
    return model


def _script_run(make: Callable, args: tuple) -> dict[str, Any]:
    replies, calls = args
    given = list(replies)
    model = make(given)
    answers = []
    for prompt, stop in calls:
        try:
            answers.append(model(prompt, stop) if stop is not None else model(prompt))
        except RuntimeError:
            answers.append("raised RuntimeError")
    return {"replies": answers, "model.prompts": list(model.prompts), "caller's list": given}


def _scripts(draw: Draw) -> tuple:
    replies = draw.many(lambda d: d.pick(REPLIES), 5)
    calls = [(f"prompt {n} ✓", draw.pick(STOPS)) for n in range(1, 1 + draw.below(7))]
    return replies, calls


SCRIPTED = register(Comparison(
    "02.scripted_model", lambda *args: _script_run(scripted_key, args), _scripts,
    lambda args, expected, got: same_value(expected, got),
    lambda args: (f"model = make_scripted_model({args[0]!r}); then model(prompt, stop) for each of "
                  f"{args[1]!r}"),
    call=_script_run,
    hint="Replies in order from a copy of the list; each cut at the earliest stop found in it (empty "
         "stops skipped); every prompt recorded, the one that finds no reply too; RuntimeError after."))


@functools.cache
def _shop() -> ToolRegistry:
    """The shop's tools, built once: their schemas take most of a step's time."""
    return shop_tools()


def one_step_key(history: str, model: Callable, tools: ToolRegistry) -> tuple[str, str | None]:
    """The answer key: one call with STOP; an answer stops; anything else adds an observation."""
    reply = model(history, STOP)
    step = parse_step(reply)
    if isinstance(step, FinalAnswer):
        return history, step.answer
    observation = tools.run(step.tool, step.input) if isinstance(step, Action) else step.message
    return history + "\n" + reply + "\nObservation: " + observation, None


def _steps(draw: Draw) -> tuple:
    history = draw.pick(("Question: What do 3 notebooks and 2 pens cost?", "", "Frage: Preis? ✓"))
    return history, any_reply(draw)


def _one_step_run(one_step: Callable, args: tuple) -> Any:
    history, reply = args
    return one_step(history, ScriptedModel([reply]), _shop())


ONE_STEP = register(Comparison(
    "02.one_step", lambda *args: _one_step_run(one_step_key, args), _steps,
    lambda args, expected, got: same_value(expected, got),
    lambda args: f"one_step({args[0]!r}, a model that replies {args[1]!r}, shop tools)",
    call=_one_step_run,
    hint="(history, answer) for a final answer; otherwise (history + '\\n' + reply + '\\nObservation: ' "
         "+ observation, None), the observation from tools.run or the ParseError's message."))


def react_loop_key(question: str, model: Callable, tools: ToolRegistry, max_steps: int = 5) -> str:
    """The answer key: at most max_steps calls; then a hand-over that starts "Could not finish"."""
    history = build_prompt(question, tools.describe(), tools.names)
    for _ in range(max_steps):
        new_history, answer = one_step_key(history, model, tools)
        if answer is not None:
            return answer
        history = new_history
    return f"Could not finish within {max_steps} steps. Hand this to a person: {question}"


def _loops(draw: Draw) -> tuple:
    max_steps = draw.pick((5, 1, 2, 0, 3, 4))
    replies = draw.many(any_reply, 5)
    return "What do 3 notebooks and 2 pens cost?", replies, max_steps


def _loop_run(loop: Callable, args: tuple) -> dict[str, Any]:
    question, replies, max_steps = args
    padding = ["Action: price\nAction Input: pen"] * (max_steps + 1)  # the script never runs out first
    model = GuardedModel(ScriptedModel([*replies, *padding]), max_steps)
    answer = loop(question, model, _shop(), max_steps=max_steps)
    handed_over = isinstance(answer, str) and answer.startswith("Could not finish")
    return {"answer": "a hand-over that starts 'Could not finish'" if handed_over else answer,
            "model calls": len(model.prompts), "observations missing from the next prompt":
            _missing_observations(model.prompts, [*replies, *padding])}


def _missing_observations(prompts: list[str], replies: list[str]) -> list[str]:
    """Each step's observation must be in every later prompt (how the reply is written is free)."""
    missing = []
    for number, (reply, later) in enumerate(zip(replies, prompts[1:], strict=False), 1):
        step = parse_step(reply.split(STOP[0], 1)[0])
        observation = _shop().run(step.tool, step.input) if isinstance(step, Action) else getattr(
            step, "message", "")
        if f"Observation: {observation}" not in later:
            missing.append(f"step {number}: {observation[:60]!r}")
    return missing


REACT_LOOP = register(Comparison(
    "02.react_loop", lambda *args: _loop_run(react_loop_key, args), _loops,
    lambda args, expected, got: same_value(expected, got),
    lambda args: (f"react_loop({args[0]!r}, a model that replies {args[1]!r}, shop tools, "
                  f"max_steps={args[2]})"),
    call=_loop_run, count=150,
    hint="Every call is a step, whatever the reply; each reply and its observation go into the next "
         "prompt; the first final answer ends the loop; after max_steps calls, hand over."))
