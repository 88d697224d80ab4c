"""Check ``02.predict_calls``: predict a run at its step limit, as (model calls, end reason).

The run is the one in the lesson: two actions, an unreadable reply, then an
answer, with max_steps=3. A wrong count or reason gets the step it missed
(the unreadable reply still costs a call; the extra call after the limit).
"""

from __future__ import annotations

from typing import Any

from .. import exercise
from ..framework import Case
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
)
def predict_calls_cases(answer: Any) -> Any:
    shape = "write a tuple: (model calls, end reason), e.g. (5, 'final_answer')"
    yield Case(
        "it is a (model calls, end reason) pair",
        lambda: answer,
        test=lambda got: (isinstance(got, tuple | list) and len(got) == 2) or shape,
        expected=Text("a tuple of two items"),
        given="answer",
        hint=shape,
    )
    yield Case(
        "number of model calls",
        lambda: answer,
        test=_calls_test,
        expected=Text("4 (first item)"),
        given="answer[0]",
        hint="Count the replies the run uses, including the extra one at the step limit.",
    )
    yield Case(
        "end reason",
        lambda: answer,
        test=_reason_test,
        expected=Text("'step_limit' (second item)"),
        given="answer[1]",
        hint="The end reasons are listed in rc.END_REASONS; which one fits a run that used up its steps?",
    )
