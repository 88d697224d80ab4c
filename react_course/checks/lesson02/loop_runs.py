"""02.react_loop's observation: one run of a student's loop, as the plain data the spec compares.

The loop gets tools that log their calls and a ``GuardedModel`` that raises
``CallBudgetExceeded`` on the call after the limit (a loop without a limit fails on a
count, never on a clock), with the script padded so it never runs out first.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...lessons.demo import demo_model
from ...models import ScriptedModel
from ...parsing import Action, parse_step
from ...prompts import render_action
from ..framework import CallBudgetExceeded
from ..guards import GuardedModel
from ..plain import Opaque, Raised
from ..values import describe
from .common import STOP, first_prompt, logged_tools

DEMO = "the course's demo model"
HANDED_OVER = "a hand-over that starts 'Could not finish'"
PADDING = "Thought: More.\nAction: price\nAction Input: pen"


def _added(before: str, prompt: str, reply: str, number: int) -> str:
    """What prompt ``number`` added to the one before it, said in words."""
    step, observation = parse_step(reply), _observation(reply)
    if not prompt.startswith(before):
        return f"prompt {number} does not start with prompt {number - 1}: keep appending to one history"
    added = prompt[len(before) :]
    rendered = render_action(step.thought, step.tool, step.input) if isinstance(step, Action) else reply
    if added in (f"\n{text}\nObservation: {observation}" for text in (reply, rendered)):
        return "reply, then its observation"
    if f"Observation: {observation}" not in added:
        shown = describe(observation, 60)[1:-1]
        return f"prompt {number} does not hold 'Observation: {shown}'; it added {added!r}"
    if any(line.strip() and line not in added for line in rendered.splitlines()):
        return (f"prompt {number} does not hold the model's reply {number - 1}: the model never sees its own "
                f"earlier thoughts and actions; it added {added!r}")
    return f"prompt {number} added {added!r}"


def _observation(reply: str) -> str:
    step = parse_step(reply)
    return (logged_tools([]).run(step.tool, step.input) if isinstance(step, Action)
            else getattr(step, "message", ""))


def run_loop(loop: Callable, question: str, script: Any, max_steps: int | None) -> dict[str, Any]:
    log: list = []
    limit = 5 if max_steps is None else max_steps
    inner = demo_model() if script == DEMO else ScriptedModel([*script, *[PADDING] * (limit + 1)])
    guard, calls = GuardedModel(inner, limit), []

    def model(prompt: Any, stop: Any = None) -> str:
        calls.append([prompt, stop, None])
        calls[-1][2] = guard(prompt, stop)
        return calls[-1][2]

    options = {} if max_steps is None else {"max_steps": max_steps}
    try:
        answer = loop(question, model, logged_tools(log), **options)
    except NotImplementedError:
        raise
    except (Exception, CallBudgetExceeded) as error:  # what the loop raised is part of what it did
        answer = Raised.of(error)
    prompts = [p if isinstance(p, str) else Opaque(describe(p)) for p, _, _ in calls]
    return {
        "answer": HANDED_OVER
        if isinstance(answer, str) and answer.startswith("Could not finish")
        else answer
        if isinstance(answer, str | None)
        else Opaque(describe(answer)),
        "model calls": len(calls),
        "calls sent without STOP": [n for n, (_, stop, _) in enumerate(calls, 1)
                                    if not (isinstance(stop, list | tuple) and list(stop) == STOP)],
        "first prompt": prompts[:1]
        if prompts[:1] != [first_prompt(question)]
        else ["rc.build_prompt(question, tools.describe(), tools.names)"],
        "each later prompt": [
            _added(a, b, r, n) if all(map(text_value, (a, b, r))) else describe(b)
            for n, (a, b, r) in enumerate(zip(prompts, prompts[1:], [c[2] for c in calls], strict=False), 2)
        ],
        "tools ran": [list(entry) for entry in log],
    }


def text_value(value: Any) -> bool:
    return isinstance(value, str) and not isinstance(value, Opaque)
