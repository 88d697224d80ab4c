"""What ``11.loop_from_memory`` throws at a loop: the question, logged tools, hostile replies.

The tools are a plain ``{name: function}`` dict, as the drill's statement
gives them, logging every call so a check can tell which tools ran and on
what input. ``price`` raises for an item the shop does not sell, as a real
tool may. ``reference_run`` is the answer key the generated comparison holds
a student's loop to. ``hinted`` gives a case whose loop raises the hint its
error deserves (a tool's error let through, an unknown tool looked up).

Left out: native tool calls (lesson 07's checker covers them).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...calculator import calculate
from ...parsing import FinalAnswer, ParseError, parse_step
from ...prompts import build_prompt
from ...stops import cut_at_stop
from ...tools import ToolRegistry

QUESTION = "What do 3 notebooks and 2 pens cost?"
STOP = ["\nObservation"]
PRICES = {"notebook": 4, "pen": 2}

ASK_NOTEBOOK = "Thought: I need the price of a notebook.\nAction: price\nAction Input: notebook"
ASK_PEN = "Thought: Now the price of a pen.\nAction: price\nAction Input: pen"
ASK_RULER = "Thought: And a ruler.\nAction: price\nAction Input: ruler"
ADD_UP = "Thought: Now I add it up.\nAction: calculate\nAction Input: 3 * 4 + 2 * 2"
UNKNOWN = "Thought: I need a price.\nAction: cost\nAction Input: pen"
UNREADABLE = "I think the total is 16."
ANSWER = "Thought: I now know the answer\nFinal Answer: 3 notebooks and 2 pens cost 16."
INVENTED = "A pen costs 99"  # what a model that ignores the stop claims the tool said
WRITES_OWN = (ASK_PEN + f"\nObservation: {INVENTED}.\nThought: So 2 pens cost 198.\n"
              "Final Answer: 198")
# The word without its line break is no stop: a loop that cuts at "Observation" loses this action.
MENTIONS_OBSERVATION = ("Thought: The Observation above gave the notebook's price; now a pen.\n"
                        "Action: price\nAction Input: pen")


class NoSuchItem(KeyError):
    """What ``price`` raises for an item the shop does not sell (its name says whose error it is)."""


def logged_tools(log: list[tuple[str, str]]) -> dict[str, Callable[[str], str]]:
    """``price`` and ``calculate``; each call is appended to ``log`` as (tool, input)."""

    def price(item: str) -> str:
        """Return the price of one item in the shop. Example input: pen"""
        log.append(("price", item))
        name = item.strip().lower()
        if name not in PRICES:
            raise NoSuchItem(f"no item called {name!r}")
        return f"A {name} costs {PRICES[name]}."

    def calc(expression: str) -> str:
        """Evaluate arithmetic such as 3 * 4 + 2 * 2. Example input: 2 * 3"""
        log.append(("calculate", expression))
        return calculate(expression)

    return {"price": price, "calculate": calc}


def first_prompt(question: str, tools: dict[str, Callable[[str], str]]) -> str:
    """The text ReAct prompt for ``question`` and a ``{name: function}`` dict of tools."""
    return build_prompt(question, ToolRegistry(tools).describe(), list(tools))


def observe(tools: dict[str, Callable[[str], str]], tool: str, text: str) -> str:
    """What the program writes after an action: the tool's result, or an error that helps."""
    if tool not in tools:
        return f"Unknown tool {tool!r}. Available tools: {', '.join(tools)}."
    try:
        return str(tools[tool](text))
    except Exception as error:  # the tool failed: the model reads why and tries something else
        return f"Error from {tool}: {type(error).__name__}: {error}"


def reference_run(question: str, model: Callable[..., str], tools: dict[str, Callable[[str], str]],
                  max_steps: int = 6) -> tuple[str, str]:
    """The answer key: the loop from memory, as the statement defines it."""
    history = first_prompt(question, tools)
    for _ in range(max_steps):
        reply = cut_at_stop(model(history, STOP), STOP)
        step = parse_step(reply)
        if isinstance(step, FinalAnswer):
            return step.answer, "final_answer"
        if isinstance(step, ParseError):
            observation = step.message
        else:
            observation = observe(tools, step.tool, step.input)
        history += f"\n{reply}\nObservation: {observation}"
    return f"Could not finish within {max_steps} steps.", "step_limit"


def spare(count: int) -> list[str]:
    """Replies that keep asking, so a loop that goes on too long is seen, not a script running out."""
    return [f"Thought: More.\nAction: price\nAction Input: spare {n}" for n in range(count)]


def observation_after(prompt: str, reply: str) -> str | None:
    """The observation line the program wrote right after ``reply`` in ``prompt`` (None if absent).

    >>> observation_after("Q\\nI think so.\\nObservation: Could not read it.", "I think so.")
    'Could not read it.'
    """
    at = prompt.rfind(reply)
    if at < 0:
        return None
    rest = prompt[at + len(reply):]
    if not rest.startswith("\nObservation: "):
        return None
    return rest[len("\nObservation: "):].split("\n", 1)[0]


def prompts_of(model: Any) -> list[str]:
    return [call.prompt for call in getattr(model, "calls", [])]


def hinted(case: Any) -> Any:
    """The case, with a hint chosen by the error when the loop raises, not the case's own hint."""
    run = case.run

    def guarded() -> Any:
        try:
            return run()
        except NotImplementedError:
            raise
        except Exception as error:
            case.hint = error_hint(error)
            raise

    case.run = guarded
    return case


def error_hint(error: Exception) -> str:
    if isinstance(error, NoSuchItem):
        return ("price raised (the shop sells no such item) and your loop let the error out: wrap the "
                "tool call in try/except Exception and make the error's text the observation.")
    if isinstance(error, KeyError):
        return ("A KeyError: was an unknown tool name looked up in tools? Check `step.tool in tools` "
                "first, and make 'Unknown tool ...' with the tools you have the observation.")
    return (f"Your loop raised {type(error).__name__}: read the traceback. Bad steps become observations; "
            "only a final answer or the step limit ends the run.")
