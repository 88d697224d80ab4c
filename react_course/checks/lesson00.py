"""Lesson 00: a first check, to see what feedback looks like."""

from __future__ import annotations

from typing import Any

from . import exercise
from .framework import Case


@exercise(
    "00.first_check",
    "how many model calls the Eiffel Tower run made",
    hints=(
        "Count the blocks that start with 'Thought:' in the transcript above.",
        "Each model call wrote one Thought; the last one also wrote the Final Answer.",
        "result.model_calls holds the number.",
    ),
)
def first_check(answer: Any):
    yield Case(
        "number of model calls",
        lambda: answer,
        expected=4,
        test=lambda got: got == 4 or (
            "that is a text, not a number: write 4, not '4'" if isinstance(got, str) else False
        ),
        hint="Count the Thought lines in the transcript: the model wrote each of them in its own call.",
    )
