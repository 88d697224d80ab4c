"""What lesson 03's specs share: sample replies, generated replies and stops, a step as plain data.

Generated replies are built from the statement's own pieces: keyword lines in both
formats, numbered, in any case, with extra spaces or markdown bold; inputs on the
same line, on the next, or over several lines; brackets inside brackets; invented
observations and answers after an action; junk and blank lines. Left out, because
the statement does not settle them: an unclosed bracket, a tool name that is not
ASCII letters, digits and ``_``, and spaces at the ends of an input.

A parsed step crosses to the grader as plain data (``step_value``): ``("action",
tool, input)``, ``("final", answer)``, or ``("error", shows the format)``.
"""

from __future__ import annotations

import re
from typing import Any

from ..generated import Draw

OBS = "\nObservation"
INVENTED = ("Thought: I need the height of the Eiffel Tower.\nAction: search\nAction Input: Eiffel Tower\n"
            "Observation: The Eiffel Tower is 500 m tall.\nThought: I now know the answer.\n"
            "Final Answer: The Eiffel Tower is 500 m tall.")
KEPT = "Thought: I need the height of the Eiffel Tower.\nAction: search\nAction Input: Eiffel Tower"
QUESTION = "Question: How tall is the Eiffel Tower?"
STOPS = ("\nObservation", "\nQuestion:", "<|end|>", "Observation", "\n**Observation:**", "", "a|b",
         "\nobservation", "User:", "Ж")
INPUTS = ("Eiffel Tower", "Tour Eiffel [Paris]", '{"item": "pen", "count": 2}', "東京", "330 - 93",
          "line one\n\nline three")
TOOLS = ("search", "Search", "price", "calculate", "finish", "Finish")


def _keyword(draw: Draw, word: str) -> str:
    """A keyword line's start as models write it: numbered, any case, spaced, or in bold."""
    word = draw.pick((word, word.lower(), word.upper()))
    number = draw.pick(("", " 2", " 12"))
    return draw.pick((f"{word}{number}: ", f"{word}{number} :  ", f"**{word}{number}:** "))


def _action(draw: Draw) -> list[str]:
    tool, given = draw.pick(TOOLS), draw.pick(INPUTS)
    form = draw.below(3)
    if form == 0:
        return [f"{_keyword(draw, 'Action')}{tool}[{given}]" + draw.pick(("", " to find its height"))]
    if form == 1:
        return [f"{_keyword(draw, 'Action')}{tool}",
                _keyword(draw, "Action Input") + draw.pick(("", "\n")) + given]
    return [f"{_keyword(draw, 'Action')}{tool}"]  # no input: a ParseError


def _segment(draw: Draw) -> list[str]:
    kind = draw.below(6)
    if kind in (0, 1):
        return _action(draw)
    if kind == 2:
        return [_keyword(draw, "Thought") + draw.pick(("I need the height.", "Observation: is a word."))]
    if kind == 3:
        return [_keyword(draw, "Final Answer") + draw.pick(("330 m", "", "- 16\n- 12", "Zürich ✓"))]
    if kind == 4:
        return [_keyword(draw, "Observation") + "500 m"]
    return [draw.pick(("I think it is 330 m.", "", "Observations so far: none", "Action Input: 5"))]


def any_reply(draw: Draw) -> str:
    """A reply of up to four segments, each a kind of line the statement names."""
    return "\n".join(line for _ in range(draw.below(5)) for line in _segment(draw))


def any_stops(draw: Draw, choices: tuple[str, ...] = STOPS, most: int = 6) -> list[str]:
    return draw.many(lambda d: d.pick(choices), most)


def shows_format(message: Any) -> bool:
    """Does a corrective message show both forms: how to act (with an input) and how to answer?

    >>> shows_format("Action: tool[input] or Final Answer: ..."), shows_format("Could not parse.")
    (True, False)
    """
    if not isinstance(message, str):
        return False
    shows_input = "Action Input:" in message or re.search(r"Action:\s*\S+\[", message) is not None
    return shows_input and "Action:" in message and "Final Answer:" in message


def step_value(step: Any) -> Any:
    """A parsed step as plain data; anything else as the name of its type.

    >>> from react_course.parsing import Action
    >>> step_value(Action("search", "pen")), step_value(("action", "x", "y"))
    (('action', 'search', 'pen'), ('not a step', 'tuple'))
    """
    from ...parsing import Action, FinalAnswer, ParseError

    if isinstance(step, Action):
        return ("action", step.tool, step.input)
    if isinstance(step, FinalAnswer):
        return ("final", step.answer)
    if isinstance(step, ParseError):
        return ("error", shows_format(step.message))
    return ("not a step", type(step).__name__)


def show_step(value: Any) -> str:
    """A step's plain value as the feedback shows it.

    >>> show_step(("action", "search", "pen")), show_step(("error", True))
    ("Action(tool='search', input='pen')", 'ParseError(message=...a message that shows the format...)')
    """
    if not isinstance(value, tuple) or not value:
        return str(value)
    kind = value[0]
    if kind == "action":
        return f"Action(tool={value[1]!r}, input={value[2]!r})"
    if kind == "final":
        return f"FinalAnswer(answer={value[1]!r})"
    if kind == "error":
        shown = "shows" if value[1] else "does NOT show"
        return f"ParseError(message=...a message that {shown} the format...)"
    return f"a {value[1]}, not one of the library's three classes"
