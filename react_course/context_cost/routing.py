"""Model routing: send the simple steps of a run to a cheaper model.

Most steps of a ReAct run are routine: the previous tool call worked and the
next move follows from it. The first call (which makes the plan), a call after
a failure (which needs a new idea) and the forced last answer are harder.
``Router`` is a model that hands each call to ``cheap`` or ``strong`` by a
rule over the prompt, and keeps each side's tokens so that the run can be
priced at two prices.

What it leaves out: learned routers, escalation on a low-confidence reply,
and retrying a cheap model's bad reply with the strong one.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from decimal import Decimal

from ..prompts import Scratchpad, read_prompt
from ..record import Usage
from ..tokens import count_tokens
from .cost import Price, cost

# The program's own wording for an observation that reports a failure (execute.py, the registry).
FAILED = re.compile(r"^(Unknown tool|Bad input|Could not read|You already called|There is no)|"
                    r"\b(was not run|did not finish|failed with|returned no result|no item called|No page)\b",
                    re.IGNORECASE)


def routine_step(pad: Scratchpad) -> bool:
    """A routine step: not the first call, not the forced answer, and the last tool call worked.

    >>> routine_step(Scratchpad("q", [("Action: price", "A pen costs 2.")]))
    True
    >>> routine_step(Scratchpad("q", [("Action: get_price", "Unknown tool 'get_price'.")]))
    False
    """
    return bool(pad.steps) and not pad.must_answer and not FAILED.search(pad.last_observation)


class Router:
    """A model that sends routine steps to ``cheap`` and the rest to ``strong``."""

    def __init__(self, strong: Callable[..., str], cheap: Callable[..., str], *,
                 simple: Callable[[Scratchpad], bool] = routine_step, encoding: str = "o200k_base") -> None:
        self.models = {"strong": strong, "cheap": cheap}
        self.simple, self.encoding = simple, encoding
        self.choices: list[str] = []  # "strong" or "cheap", one per call
        self.usage = {"strong": Usage(), "cheap": Usage()}

    def __call__(self, prompt: str, stop: Sequence[str] | None = None) -> str:
        name = "cheap" if self.simple(read_prompt(prompt)) else "strong"
        reply = self.models[name](prompt, stop) or ""
        self.choices.append(name)
        self.usage[name] += Usage(count_tokens(prompt, self.encoding), count_tokens(reply, self.encoding))
        return reply

    def cost(self, strong: Price | None, cheap: Price | None) -> Decimal | None:
        """Dollars for the calls so far, each side at its own price; None if either is unknown."""
        parts = [cost(self.usage["strong"], strong), cost(self.usage["cheap"], cheap)]
        return None if None in parts else sum(parts, Decimal(0))

    def __repr__(self) -> str:
        return f"Router({self.choices.count('cheap')} cheap, {self.choices.count('strong')} strong calls)"
