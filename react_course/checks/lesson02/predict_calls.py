"""02.predict_calls as a spec: predict a run at its step limit, as (model calls, end reason).

The student gives a value, not a function. The key is the run itself, made by the
library (``rc.run_react`` on the lesson's four replies, ``max_steps=3``), so the
prediction is held to what the loop really does. Each case compares one part of
the prediction, named by its plain argument: the pair, ``prediction[0]`` or
``prediction[1]``. There is no input space to generate, so the check shows no
generated case (the registry still holds a comparison over the three parts).
"""

from __future__ import annotations

from typing import Any

from ...loop import run_react
from ...models import ScriptedModel
from ...tools import shop_tools
from ..framework import Case
from ..plain import Opaque
from ..spec import Example, Fault, Rule, Spec, define
from ..values import describe
from .common import QUESTION

REPLIES = ("Thought: I need the price of a notebook.\nAction: price\nAction Input: notebook",
           "Thought: Now the pen.\nAction: price\nAction Input: pen", "The total must be 16.",
           "Thought: I now know the answer\nFinal Answer: 16")
PAIR, CALLS, REASON = "the pair", "prediction[0]", "prediction[1]"


def key() -> tuple[int, str]:
    """The answer key: the library's run, as (model calls, end reason)."""
    run = run_react(QUESTION, ScriptedModel(REPLIES), shop_tools(), max_steps=3)
    return run.model_calls, run.end_reason


def observe(given: Any, args: tuple) -> Any:
    """The part ``args[0]`` names of the prediction (the key is called to make its own)."""
    value = given() if callable(given) else given
    pair = isinstance(value, tuple | list)
    if args[0] == PAIR:
        return "a tuple of two items" if pair and len(value) == 2 else Opaque(describe(value))
    item = value[args[0] == REASON] if pair and len(value) > (args[0] == REASON) else value
    return item if isinstance(item, int | str | None) else Opaque(describe(item))


SHAPE = "Write your prediction as a tuple `(model_calls, end_reason)`"
HOW_MANY = "How many times is the model called"
END_REASON = "what is the run's `end_reason`?"
FAULTS = (
    Fault(SHAPE, "Write a tuple: (model calls, end reason), e.g. (5, 'final_answer').",
          found=lambda args, want, got: args[0] == PAIR),
    Fault(HOW_MANY,
          "3 is the step limit; at the limit run_react makes one more call, asking for a final answer.",
          found=lambda args, want, got: args[0] == CALLS and got == 3),
    Fault(HOW_MANY, "The unreadable third reply still cost a model call: it counts as a step.",
          found=lambda args, want, got: args[0] == CALLS and got == 2),
    Fault(HOW_MANY, "Count the replies the run uses, including the extra one at the step limit.",
          found=lambda args, want, got: args[0] == CALLS),
    Fault(END_REASON, "The final answer came in the extra call made after the limit, so the run ended by its "
          "step limit and the answer is labelled best effort.",
          found=lambda args, want, got: got == "final_answer"),
    Fault(END_REASON,
          "The end reasons are listed in rc.END_REASONS; which one fits a run that used up its steps?",
          found=lambda args, want, got: args[0] == REASON),
)
EXAMPLES = (
    Example("it is a (model calls, end reason) pair", (PAIR,), "Write a tuple: (model calls, end reason)."),
    Example("number of model calls", (CALLS,),
            "Count the replies the run uses, including the extra one at the step limit."),
    Example("end reason", (REASON,), "The end reasons are listed in rc.END_REASONS."),
)
RULES = (Rule(HOW_MANY, ("number of model calls",)), Rule(END_REASON, ("end reason",)),
         Rule(SHAPE, ("it is a (model calls, end reason) pair",)))
SAYS = {PAIR: "prediction: (model calls, end reason)",
        CALLS: "prediction[0]: how many times the model is called in the run",
        REASON: "prediction[1]: the run's end_reason"}


class Prediction(Spec):
    """A spec whose student gives a value: its cases are the examples, with no generated inputs."""

    def cases(self, student: Any) -> list[Case]:
        return self._example_cases(student, self.examples)


SPEC = define(Prediction(
    "02.predict_calls", "predict a run at its step limit", "prediction", key, EXAMPLES,
    lambda draw: (draw.pick((PAIR, CALLS, REASON)),), RULES, faults=FAULTS, observe=observe, count=3,
    show=lambda args: SAYS[args[0]],
    hints=(
        "Go through the replies one by one with max_steps=3: which step does each one take, and what "
        "does the program write back?",
        "An unreadable reply still uses up a step: the program answers it with a parse-error observation.",
        "After max_steps calls without an answer, run_react makes one more call that may only answer, "
        "and labels that answer best effort.",
    )))
__all__ = ["SPEC", "key"]
