"""What lesson 02's specs share: the shop question, the model's replies, tools that log their calls.

The tools log their calls, so a check can tell whether a tool ran, how often and
on what input.
"""

from __future__ import annotations

from typing import Any

from ...calculator import calculate
from ...prompts import build_prompt
from ...tools import ToolRegistry
from ..plain import Opaque
from ..values import describe

QUESTION = "What do 3 notebooks and 2 pens cost?"
STOP = ["\nObservation"]  # the student's STOP, as the hints and messages name it
PRICES = {"notebook": 4, "pen": 2}

ASK_NOTEBOOK = "Thought: I need the price of a notebook.\nAction: price\nAction Input: notebook"
ASK_PEN = "Thought: A notebook costs 4. Now I need the price of a pen.\nAction: price\nAction Input: pen"
ADD_UP = "Thought: Now I add it up.\nAction: calculate\nAction Input: 3 * 4 + 2 * 2"
ANSWER = "Thought: I now know the answer\nFinal Answer: 3 notebooks and 2 pens cost 16."
INVENTED = "\nObservation: A pen costs 99.\nThought: So 2 pens cost 198.\nFinal Answer: 198"
UNREADABLE = "I think the total is 16."


def logged_tools(log: list[tuple[str, str]]) -> ToolRegistry:
    """``price`` and ``calculate``, each call appended to ``log`` as (tool, input)."""

    def price(item: str) -> str:
        """Return the price of one item in the shop. Example input: pen"""
        log.append(("price", item))
        name = item.strip().lower()
        if name in PRICES:
            return f"A {name} costs {PRICES[name]}."
        return f"The shop has no item called {item.strip()!r}. Items: notebook, pen."

    def calc(expression: str) -> str:
        """Evaluate arithmetic such as 3 * 4 + 2 * 2. Example input: 2 * 3"""
        log.append(("calculate", expression))
        return calculate(expression)

    return ToolRegistry({"price": price, "calculate": calc})


def first_prompt(question: str) -> str:
    """The history a loop starts from, with the logged tools."""
    tools = logged_tools([])
    return build_prompt(question, tools.describe(), tools.names)


PROMPT = first_prompt(QUESTION)


def sent_value(stop: Any) -> Any:
    """The stop a model call was sent, as plain data.

    >>> sent_value(("\\nObservation",)), sent_value(None)
    (['\\nObservation'], None)
    """
    if stop is None:
        return None
    if isinstance(stop, list | tuple) and all(isinstance(s, str) for s in stop):
        return list(stop)
    return Opaque(describe(stop))
