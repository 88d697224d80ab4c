"""Lesson 00: a first check, to see what feedback looks like.

The answer is about the course's scripted model's run (4 model calls): with a
real model set, the lesson counts the scripted run's calls for this check, since
a real model's run may take any number.
"""

from __future__ import annotations

from typing import Any

from . import exercise
from .framework import Case

RULES = {"How many model calls did the run above make?": ("number of model calls",)}


def _count(got: Any) -> bool | str:
    if got == 4 and not isinstance(got, bool):
        return True
    if isinstance(got, str):
        return "that is a text, not a number: write the number itself (like 3), not '3'"
    return False


@exercise(
    "00.first_check",
    "how many model calls the scripted Eiffel Tower run made",
    hints=(
        "Count the blocks that start with 'Thought:' in the transcript above.",
        "Each model call wrote one Thought; the last one also wrote the Final Answer.",
        "result.model_calls holds the number.",
    ),
    rules=RULES,
)
def first_check(answer: Any):
    yield Case(
        "number of model calls",
        lambda: answer,
        expected=4,
        test=_count,
        given="the number of model calls in the course's scripted model's Eiffel Tower run",
        hint="Count the Thought lines in the scripted run's transcript: the model wrote each of "
             "them in its own call.",
    )
