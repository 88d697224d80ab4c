"""What lesson 03's checks share: the sample replies, and how a parsed step is shown and judged.

``expect_step`` is the test for one parsed step (03.parse_step, and the step
half of 03.read_reply); ``show_step`` prints only the fields it compares.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from ..framework import Shown, describe  # Shown: a value shown in feedback as written

OBS = "\nObservation"
INVENTED = (
    "Thought: I need the height of the Eiffel Tower.\n"
    "Action: search\n"
    "Action Input: Eiffel Tower\n"
    "Observation: The Eiffel Tower is 500 m tall.\n"
    "Thought: I now know the answer.\n"
    "Final Answer: The Eiffel Tower is 500 m tall."
)
KEPT = "Thought: I need the height of the Eiffel Tower.\nAction: search\nAction Input: Eiffel Tower"
QUESTION = "Question: How tall is the Eiffel Tower?"


def step_types():
    from ...parsing import Action, FinalAnswer, ParseError

    return Action, FinalAnswer, ParseError


def show_step(value: Any) -> str:
    """A step as the feedback shows it: only the fields the check compares."""
    action, final, error = step_types()
    if isinstance(value, action):
        return f"Action(tool={value.tool!r}, input={value.input!r})"
    if isinstance(value, final):
        return f"FinalAnswer(answer={value.answer!r})"
    if isinstance(value, error):
        return f"ParseError(message={describe(value.message, 160)})"
    return describe(value)


def shown_expected(expected: tuple[str, ...]) -> Shown:
    """The expected step, as the feedback shows it."""
    if expected[0] == "action":
        return Shown(f"Action(tool={expected[1]!r}, input={expected[2]!r})")
    if expected[0] == "final":
        return Shown(f"FinalAnswer(answer={expected[1]!r})")
    if expected[0] == "error":
        return Shown("ParseError(message=...a message that shows the Action and Final Answer format...)")
    return Shown("an Action, a FinalAnswer or a ParseError for each, never an exception")


def expect_step(expected: tuple[str, ...]) -> Callable[[Any], bool | str]:
    """A test for one parsed step: the right type, tool and input, answer, or a message with the format.

    ``expected`` is ("action", tool, input), ("final", answer), ("error",) for a ParseError
    that shows the format, or ("any",) for the odd replies' summary ("a step, never an exception").
    """
    action, final, error = step_types()
    kinds = {action: "Action", final: "FinalAnswer", error: "ParseError"}
    verdicts = {"error": _error_verdict, "final": _final_verdict, "action": _action_verdict}

    def test(got: Any) -> bool | str:
        if expected[0] == "any":
            return got == "every reply gave a step" or str(got)
        if not isinstance(got, tuple(kinds)):
            return (f"return rc.Action(tool, input), rc.FinalAnswer(answer) or rc.ParseError(message) "
                    f"(the library's classes), not {type(got).__name__}")
        name = kinds[type(got)] if type(got) in kinds else type(got).__name__
        return verdicts.get(expected[0], _action_verdict)(got, name, expected)

    return test


def _error_verdict(got: Any, name: str, expected: tuple[str, ...]) -> bool | str:
    if not isinstance(got, step_types()[2]):
        return f"this reply cannot be run or trusted, but you returned {name}: return a ParseError"
    if not _shows_format(got.message):
        return ("the message goes back to the model as its observation, so it must show the "
                "format: an Action line with its input (Action Input: ... or tool[input]) "
                "and a Final Answer: line")
    return True


def _final_verdict(got: Any, name: str, expected: tuple[str, ...]) -> bool | str:
    if not isinstance(got, step_types()[1]):
        return f"this reply ends the run: expected a FinalAnswer, got {name}"
    if not _same_text(got.answer, expected[1]):
        return f"answer {got.answer!r}, expected {expected[1]!r}"
    return True


def _action_verdict(got: Any, name: str, expected: tuple[str, ...]) -> bool | str:
    action, _, error = step_types()
    tool, want = expected[1], expected[2]
    if isinstance(got, error):
        return f"this reply asks for {tool}[{want}], but you returned a ParseError"
    if not isinstance(got, action):
        return f"this reply's first move is an action ({tool}), but you returned {name}"
    if got.tool != tool:
        return f"tool {got.tool!r}, expected {tool!r} (as written in the reply)"
    if not _same_text(got.input, want):
        return f"input {got.input!r}, expected {want!r}"
    return True


def _same_text(got: Any, want: str) -> bool:
    """Exact for one line; for several lines, the same lines (indentation may differ)."""
    if not isinstance(got, str):
        return False
    if "\n" not in want:
        return got == want

    def lines(text: str) -> list[str]:
        return [line.strip() for line in text.strip().splitlines()]

    return got == got.strip() and lines(got) == lines(want)


def _shows_format(message: Any) -> bool:
    """Does a corrective message show both forms: how to act (with an input) and how to answer?"""
    if not isinstance(message, str):
        return False
    shows_input = "Action Input:" in message or re.search(r"Action:\s*\S+\[", message) is not None
    return shows_input and "Action:" in message and "Final Answer:" in message
