"""Check ``02.predict_calls``: predict a run at its step limit, as (model calls, end reason).

The run is the one in the lesson: two actions, an unreadable reply, then an
answer, with max_steps=3. A wrong count or reason gets the step it missed
(the unreadable reply still costs a call; the extra call after the limit).
"""

from __future__ import annotations

from typing import Any

from .. import exercise
from ..framework import Case, describe
from .common import Text


def _calls_test(got: Any) -> bool | str:
    calls = got[0] if isinstance(got, tuple | list) and got else got
    if calls == 4:
        return True
    if calls == 3:
        return "3 is the step limit; at the limit run_react makes one more call, asking for a final answer"
    if calls == 2:
        return "the unreadable third reply still cost a model call: it counts as a step"
    return False


def _reason_test(got: Any) -> bool | str:
    reason = got[1] if isinstance(got, tuple | list) and len(got) > 1 else None
    if reason == "step_limit":
        return True
    if reason == "final_answer":
        return ("the final answer came in the extra call made after the limit, so the run "
                "ended by its step limit and the answer is labelled best effort")
    return False


def _item(got: Any, index: int) -> Any:
    return got[index] if isinstance(got, tuple | list) and len(got) > index else got


RULES = {
    "How many times is the model called": ("number of model calls",),
    "what is the run's `end_reason`?": ("end reason",),
    "Write your prediction as a tuple `(model_calls, end_reason)`": (
        "it is a (model calls, end reason) pair",),
}


@exercise(
    "02.predict_calls",
    "predict a run at its step limit",
    hints=(
        "Go through the replies one by one with max_steps=3: which step does each one take, and "
        "what does the program write back?",
        "An unreadable reply still uses up a step: the program answers it with a parse-error "
        "observation.",
        "After max_steps calls without an answer, run_react makes one more call that may only "
        "answer, and labels that answer best effort.",
    ),
    rules=RULES,
)
def predict_calls_cases(answer: Any) -> Any:
    shape = "write a tuple: (model calls, end reason), e.g. (5, 'final_answer')"
    yield Case(
        "it is a (model calls, end reason) pair",
        lambda: answer,
        test=lambda got: (isinstance(got, tuple | list) and len(got) == 2) or shape,
        expected=Text("a tuple of two items"),
        given="prediction: (model calls, end reason)",
        hint=shape,
    )
    yield Case(
        "number of model calls",
        lambda: answer,
        test=_calls_test,
        expected=Text("4"),
        show=lambda got: describe(_item(got, 0)),
        given="prediction[0]: how many times the model is called in the run",
        hint="Count the replies the run uses, including the extra one at the step limit.",
    )
    yield Case(
        "end reason",
        lambda: answer,
        test=_reason_test,
        expected=Text("'step_limit'"),
        show=lambda got: describe(_item(got, 1)),
        given="prediction[1]: the run's end_reason",
        hint="The end reasons are listed in rc.END_REASONS; which one fits a run that used up its steps?",
    )
