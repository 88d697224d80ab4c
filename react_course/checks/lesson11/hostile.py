"""What ``11.loop_from_memory`` throws at a loop, and what it watches the loop do.

The tools are a plain ``{name: function}`` dict, as the drill's statement gives
them, logging every call so that a check can tell which tools ran on what input.
``price`` raises for an item the shop does not sell, as a real tool may. The
model is a ``ScriptedModel`` replying with a script's replies in turn, then with
spare actions, so that a loop that goes on too long is seen, not a script that
ran out; a ``GuardedModel`` around it ends a loop with no limit on a count of
calls (never on a clock).

A generated case (``scripts``) draws up to seven replies from ``POOL``.
``watch(loop, replies, max_steps, ignore_stops)`` is what the check compares:
the run's behaviour as plain data. There is no answer key here: the lesson
imports this module, so a loop in it would be a ready answer (the key lives in
``loop_from_memory.py``; ``answer_key_on`` shows what it does on a script).

Left out: native tool calls (lesson 07's checker covers them).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import pairwise
from typing import Any

from ...calculator import calculate
from ...models import ScriptedModel
from ...parsing import FinalAnswer, ParseError, parse_step
from ...prompts import build_prompt
from ...stops import cut_at_stop
from ...tools import ToolRegistry
from ..generated import Draw
from ..guards import GuardedModel
from ..plain import Opaque, is_plain
from ..values import describe

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
NOT_THE_REPLY = "not the reply (cut at the stop), then '\\nObservation: '"
NOT_KEPT = "a prompt that does not start with the one before"
HANDED_OVER = "Could not finish ..."

# The replies a generated script draws from: each habit above, and two final answers.
POOL = (ASK_NOTEBOOK, ASK_NOTEBOOK + "  \n", ASK_PEN, ASK_RULER, ADD_UP, UNKNOWN, UNREADABLE, WRITES_OWN,
        MENTIONS_OBSERVATION, "Thought: Done.\nFinal Answer: 16", ANSWER)


def scripts(draw: Draw) -> tuple:
    """(replies, max_steps, ignore_stops): up to seven replies, a limit of 0 to 5 or the default."""
    replies = tuple(draw.many(lambda d: d.pick(POOL), 7))
    return replies, draw.pick((None, 1, 2, 3, 4, 5, 0)), draw.boolean()


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


def spare(count: int) -> list[str]:
    """Replies that keep asking, so a loop that goes on too long is seen, not a script running out."""
    return [f"Thought: More.\nAction: price\nAction Input: spare {n}" for n in range(count)]


def budget(max_steps: int) -> int:
    """Model calls a loop may make before the guard ends it: room to count a few too many."""
    return 2 * max_steps + 6


def watch(loop: Callable[..., Any], replies: Sequence[str], max_steps: int | None = None,
          ignore_stops: bool = False) -> dict[str, Any]:
    """What ``loop`` did on one script, as plain data (``max_steps=None``: the default is used).

    >>> seen = watch(lambda question, model, tools, max_steps=6: ("16", "final_answer"), [])
    >>> seen["returned"], seen["model calls"]
    (('16', 'final_answer'), 0)
    """
    log: list[tuple[str, str]] = []
    steps = 6 if max_steps is None else max_steps
    sent = [*replies, *spare(budget(steps))]
    model = ScriptedModel(sent, ignore_stops=ignore_stops)
    guarded = GuardedModel(model, max_calls=budget(steps))
    options = {} if max_steps is None else {"max_steps": max_steps}
    got = loop(QUESTION, guarded, logged_tools(log), **options)
    calls = model.calls
    return {
        "returned": returned(got),
        "model calls": guarded.calls,
        "tools run": list(log),
        "first prompt": None if not calls else "first_prompt(question, tools)"
        if calls[0].prompt == first_prompt(QUESTION, logged_tools([]))
        else Opaque(describe(calls[0].prompt, 120)),
        "stops sent": sorted({call.stop for call in calls}, key=repr),  # each a tuple, or None
        "after each reply": [after_reply(a.prompt, b.prompt, sent[n])
                             for n, (a, b) in enumerate(pairwise(calls))],
        "an invented observation reached a prompt": any(INVENTED in call.prompt for call in calls),
    }


def returned(got: Any) -> Any:
    """The returned value, a hand-over's text read as the statement reads it (its start)."""
    if isinstance(got, tuple) and len(got) == 2 and got[1] == "step_limit" and isinstance(got[0], str) \
            and got[0].startswith("Could not finish"):
        return HANDED_OVER, "step_limit"
    return got if is_plain(got) else Opaque(describe(got, 120))


def after_reply(before: str, after: str, sent: str) -> str:
    """The kind of what the program appended to the history after one reply.

    >>> after_reply("Q", "Q\\nI think.\\nObservation: " + parse_step("I think.").message, "I think.")
    "a parse error's whole message"
    """
    if not after.startswith(before):
        return NOT_KEPT
    reply, rest = cut_at_stop(sent, STOP), after[len(before):]
    rest = rest[1:] if rest.startswith("\n") else rest  # the line break before the reply is optional
    if not rest.startswith(reply + "\nObservation: "):
        return NOT_THE_REPLY
    seen, step = rest[len(reply + "\nObservation: "):], parse_step(reply)
    if isinstance(step, ParseError):
        return "a parse error's whole message" if seen == step.message else "a parse error, in other words"
    if isinstance(step, FinalAnswer):
        return "a final answer, and the run went on"
    tools = logged_tools([])
    if step.tool not in tools:
        named = all(name in seen for name in tools)
        return "an unknown tool: the tools named" if named else "an unknown tool: not every tool named"
    try:
        result = str(tools[step.tool](step.input))
    except Exception as error:  # the tool's own error: is its text in the observation?
        kept = str(error).strip("'\"") in seen
        return "a tool's error, with its text" if kept else "a tool's error, text lost"
    return "the tool's result" if seen.strip() == result.strip() else "not the tool's result"


def answer_key_on(replies: Sequence[str], max_steps: int | None = None,
                  ignore_stops: bool = False) -> dict[str, Any]:
    """What the answer key does on a script, in the terms the check compares (``watch``)."""
    from ..spec import SPECS  # the registered spec: this module holds no loop to import

    return SPECS["11.loop_from_memory"].expected((tuple(replies), max_steps, ignore_stops))
