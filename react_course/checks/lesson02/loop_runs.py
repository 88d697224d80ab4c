"""How ``02.react_loop`` runs a student's loop: guarded models, and tests on what came back.

Every run hands the loop a ``GuardedModel`` (a loop without a limit fails
instead of hanging) and returns ``(answer, guard)`` so a test can count calls.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...models import ReactiveModel, ScriptedModel
from ...tools import ToolRegistry
from ..framework import describe
from ..guards import GuardedModel
from .common import QUESTION, logged_tools
from .loop_prompts import calls


def never_answers() -> ReactiveModel:
    """A model that asks for a new price on every call and never gives a final answer."""
    return ReactiveModel(respond=lambda pad: (
        f"Thought: I still need more prices.\nAction: price\nAction Input: item {len(pad.steps) + 1}"))


def always(reply: str) -> ReactiveModel:
    """A model that gives the same reply on every call, however often it is called."""
    return ReactiveModel(respond=lambda pad: reply)


def twice(guarded: GuardedModel) -> str:
    """A message for a loop that sent one prompt twice in a row ('' if it did not)."""
    again = guarded.repeated_prompt()
    if again is None:
        return ""
    return (f"; it sent the same prompt in calls {again - 1} and {again}: call the model once "
            "per step (each call is a step), and append the reply and its observation before "
            "the next call")


def run_loop(react_loop: Callable, model: Any, tools: ToolRegistry, max_calls: int,
             **options: Any) -> tuple[Any, GuardedModel]:
    guarded = GuardedModel(model, max_calls=max_calls)
    return react_loop(QUESTION, guarded, tools, **options), guarded


def hand_over(max_steps: int) -> Callable[[tuple[Any, GuardedModel]], bool | str]:
    def test(got: tuple[Any, GuardedModel]) -> bool | str:
        answer, guarded = got
        if guarded.calls != max_steps:
            return (f"your loop made {calls(guarded.calls)}; with max_steps={max_steps} it "
                    f"should make exactly {calls(max_steps)}, then hand over{twice(guarded)}")
        if answer is None:
            return "the loop returned None at the step limit: return a hand-over text instead"
        if not (isinstance(answer, str) and answer.startswith("Could not finish")):
            return ("at the step limit return a text that starts with 'Could not finish', "
                    f"not {describe(answer, 120)}")
        return True

    return test


def answers(expected: str, expected_calls: int) -> Callable[[tuple[Any, GuardedModel]], bool | str]:
    def test(got: tuple[Any, GuardedModel]) -> bool | str:
        answer, guarded = got
        if answer != expected:
            return f"returned {describe(answer, 120)}"
        if guarded.calls != expected_calls:
            return (f"your loop made {calls(guarded.calls)}, expected {calls(expected_calls)}"
                    f"{twice(guarded)}")
        return True

    return test


def show_answer(got: tuple[Any, GuardedModel]) -> str:
    return f"{describe(got[0], 200)} after {calls(got[1].calls)}"


def prompts(react_loop: Callable, script: list[str]) -> list[Any]:
    """The calls a loop with default options makes; spare replies catch a loop that goes on."""
    spare = [f"Thought: More.\nAction: price\nAction Input: spare {n}" for n in range(5)]
    model = ScriptedModel(script + spare[: 5 - len(script)])
    run_loop(react_loop, model, logged_tools([]), max_calls=5)
    return model.calls
