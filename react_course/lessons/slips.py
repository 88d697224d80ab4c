"""The shop run with two slips: the scripted run lesson 04 studies.

Asked "What do 3 notebooks and 2 pens cost?", this model first names a tool
that does not exist (``get_price``), then asks for a plural the shop does not
know (``notebooks``), and recovers from each only because the observation
says what went wrong. A perfect run takes 4 model calls; this one takes 6.
Lesson 04, its exercises and their tests all use this one copy, so the
numbers they predict and measure are the same run.

What it leaves out: any real model. It slips on purpose, the same way every
time, whatever model the course is set to use.
"""

from __future__ import annotations

from ..models import ReactiveModel
from ..prompts import Scratchpad, render_action, render_final
from ..tools.shop import Shop

SHOP_QUESTION = "What do 3 notebooks and 2 pens cost?"
ANSWER = "3 notebooks and 2 pens cost 16."


def best_effort(pad: Scratchpad) -> str:
    """The reply when the loop says the steps are used up: what is known so far.

    >>> best_effort(Scratchpad("q", [("...", "A notebook costs 4.")], must_answer=True))
    'Thought: I ran out of steps.\\nFinal Answer: Not finished. Known so far: A notebook costs 4.'
    """
    if "16" in pad.observations:
        return render_final("I have the total.", ANSWER)
    known = " ".join(obs for obs in pad.observations if "costs" in obs)
    return render_final("I ran out of steps.", f"Not finished. Known so far: {known}")


def slip_model() -> ReactiveModel:
    """A fresh copy of the model that slips twice, then recovers.

    Each rule reads "when the latest observation matches this, reply with that";
    the first rule answers when the loop asks for an answer (out of steps).
    """
    return ReactiveModel([
        (lambda pad: pad.must_answer, best_effort),
        (r"^Unknown tool", render_action("There is no get_price; the tool is price.", "price", "notebooks")),
        (r"no item called 'notebooks'", render_action("Items are singular.", "price", "notebook")),
        (r"notebook costs 4", render_action("A notebook costs 4. Now a pen.", "price", "pen")),
        (r"pen costs 2", render_action("A pen costs 2. Now the total.", "calculate", "3 * 4 + 2 * 2")),
        (r"^16$", render_final("I now know the answer", ANSWER)),
        (r"notebooks and 2 pens", render_action("I need the price of a notebook.", "get_price", "notebook")),
    ])


def scratchpad_lines(prompt: str) -> int:
    """Lines of a text-loop prompt after its fixed head: the question and the steps so far.

    >>> scratchpad_lines("instructions...\\n\\nNow the real question.\\nQuestion: q\\nThought: t")
    2
    """
    return len(prompt.split("Now the real question.\n", 1)[-1].splitlines())


def forgiving_price(item: str) -> str:
    """Return the price of one shop item; a plural such as notebooks is read as the singular.
    Example input: notebook

    >>> forgiving_price("notebooks")
    'A notebook costs 4.'
    """
    return Shop().price(item.strip().removesuffix("s"))
