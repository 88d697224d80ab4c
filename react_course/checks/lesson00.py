"""00.first_check as a spec: how many model calls the scripted Eiffel Tower run made.

The answer is one number, not a function, so ``observe`` reads it as it is, and
the key is the library's own scripted run, counted when the check runs (4 model
calls). With a real model set, the lesson counts the scripted run's calls for
this check, since a real model's run may take any number. The one question is
the whole input space: no generated case (``quiz.Quiz``).
"""

from __future__ import annotations

from typing import Any

from .plain import Opaque, is_plain
from .quiz import Quiz
from .spec import Example, Rule, define
from .values import describe

QUESTION = "How much taller is the Eiffel Tower than the Statue of Liberty?"
ASKED = "How many model calls did the run above make?"


def scripted_calls() -> int:
    """The answer key: the model calls of the course's scripted model's run on the lesson's question."""
    import react_course as rc

    return rc.run_react(QUESTION, rc.demo_model(), rc.default_tools()).model_calls


def _read(answer: Any, args: tuple) -> Any:
    if answer is scripted_calls:
        return scripted_calls()
    return answer if is_plain(answer) else Opaque(describe(answer))


def _count(args: tuple, want: Any, got: Any) -> bool | str:
    if isinstance(got, str):
        return "that is a text, not a number: write the number itself (like 3), not '3'"
    return got == want and isinstance(got, int | float) and not isinstance(got, bool)


SPEC = define(Quiz(
    "00.first_check", "how many model calls the scripted Eiffel Tower run made", "answer", scripted_calls,
    (Example("number of model calls", (), "Count the Thought lines in the scripted run's transcript: the "
             "model wrote each of them in its own call."),),
    lambda draw: (), (Rule(ASKED, ("number of model calls",)),), observe=_read, compare=_count, count=1,
    show=lambda args: "the number of model calls in the course's scripted model's Eiffel Tower run",
    hints=(
        "Count the blocks that start with 'Thought:' in the transcript above.",
        "Each model call wrote one Thought; the last one also wrote the Final Answer.",
        "result.model_calls holds the number.",
    )))
__all__ = ["SPEC", "scripted_calls"]
