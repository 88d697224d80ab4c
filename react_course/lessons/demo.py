"""The course's built-in scripted model, which solves the worked examples.

It is a ``ReactiveModel`` driven by plans (``plans``). On every call the
model finds the first need no observation has met yet and takes the first
action for it that it has not already tried. So it reacts the way a real
model should: an empty search leads to a reformulated one, an error to the
next idea, and when every need is met it answers.

The shop and height examples are instances of plans computed from the
question, so "What do 2 notebooks and 3 pens cost?" gets 14 and the Eiffel
question asked the other way round says which is shorter. The other worked
examples are recognised only as the course words them (case, spacing and the
closing punctuation aside): a near miss gets the plain reply that offline the
model knows only the worked examples, never a worked example's answer.

What it leaves out: any real understanding. It is a stand-in so that every
notebook and the CLI run offline, free and the same every time.
"""

from __future__ import annotations

import re

from ..models import ReactiveModel
from ..parsing import Action, parse_step
from ..prompts import Scratchpad, render_action, render_final
from .plans import Plan, normalise, shop_plan, taller_plan, worded
from .plans import need as _need

# --- The worked examples ---------------------------------------------------------------------

PLANS: tuple[Plan, ...] = (
    taller_plan("How much taller is the Eiffel Tower than the Statue of Liberty?"),
    worded(
        "Is the founder of SpaceX also a co-founder of the company that makes the Model 3?",
        (
            _need(r"made by Tesla, Inc", ("First I need to know which company makes the Model 3.",
                                          "search", "Tesla Model 3")),
            _need(r"co-founders", ("The Model 3 is made by Tesla, Inc. Now I need Tesla's founders.",
                                   "search", "Tesla, Inc.")),
            _need(r"founded in 2002 by Elon Musk", ("Tesla counts Elon Musk as a co-founder under a "
                                                    "2009 settlement. Now I need SpaceX's founder.",
                                                    "search", "SpaceX")),
        ),
        "Yes. Elon Musk founded SpaceX, and Tesla, Inc., which makes the Model 3, counts him as a "
        "co-founder under a 2009 settlement (Tesla was incorporated in 2003 by Martin Eberhard "
        "and Marc Tarpenning).",
    ),
    worded(
        "What is 15% of the population of the city that hosted the 2024 Summer Olympics?",
        (
            _need(r"held in Paris", ("I need the city that hosted the 2024 Summer Olympics.",
                                     "search", "2024 Summer Olympics")),
            _need(r"2\.1 million", ("The 2024 Games were held in Paris. Now I need the population "
                                    "of Paris.", "search", "Paris")),
            _need(r"^315000$", ("The question asks about the city: Paris proper has about 2.1 million "
                                "inhabitants (about 12.2 million live in its metropolitan area). 15% of "
                                "the city is 0.15 times 2100000.", "calculate", "0.15 * 2100000")),
        ),
        "About 315,000: 15% of the roughly 2.1 million inhabitants of the city of Paris, which hosted "
        "the 2024 Summer Olympics (counting its whole metropolitan area, about 12.2 million people, "
        "it would be 1,830,000).",
    ),
    worded(
        "How tall is the tower in Paris that opened in 1889?",
        (
            _need(
                r"\b330 m\b",
                ("I need to find the tower in Paris that opened in 1889.", "search", "Paris tower 1889"),
                ("Nothing matched that description. The tower in Paris that opened in 1889 is the "
                 "Eiffel Tower, so I will search for it by name.", "search", "Eiffel Tower"),
            ),
        ),
        "The Eiffel Tower, which opened in 1889, is 330 m tall with its antennas "
        "(300 m when it opened).",
    ),
    shop_plan("What do 3 notebooks and 2 pens cost?"),
    worded(
        "Order 88213 cost 480 plus a 25 delivery fee and arrived 62 minutes late. "
        "What should the customer be refunded in total?",
        (
            _need(r"Order 88213:.*minutes late", ("I need the details of order 88213.",
                                                   "get_order", "88213")),
            _need(r"delivery fee is refunded", ("Order 88213 arrived 62 minutes late; the item "
                                                "cost 480 and the delivery fee was 25. I need the "
                                                "late-delivery policy.", "get_policy",
                                                "late delivery")),
        ),
        "Refund 25 INR, the delivery fee: order 88213 arrived 62 minutes late, more than the "
        "30 minutes after which the fee is refunded. The item price (480) is not refunded for "
        "lateness alone.",
        parallel=True,
    ),
)

WORKED_EXAMPLES: tuple[str, ...] = tuple(plan.example for plan in PLANS)

OFFLINE = ("Offline, the course's scripted model knows only its worked examples, and computes two "
           "kinds of question from the bundled data: shop totals (\"What do 2 pens and a ruler "
           "cost?\") and heights (\"How much taller is the Tokyo Skytree than the Eiffel Tower?\"). "
           "The worked examples: ")
NO_PLAN = (
    "Thought: I am the course's scripted model and have no plan for this question.\n"
    "Final Answer: " + OFFLINE + " | ".join(WORKED_EXAMPLES)
    + " Set REACT_COURSE_MODEL to use a real model."
)


def plan_for(question: str) -> Plan | None:
    """The plan for ``question``: a worked example as worded, or one computed from it.

    The whole text is tried first, then each of its lines, for a question that an agent
    framework wrapped in its own words on lines of their own.

    >>> plan_for("How much taller is the Eiffel Tower than the Statue of Liberty?").answer[:16]
    'The Eiffel Tower'
    >>> plan_for("What do 2 notebooks and 3 pens cost?").answer
    '2 notebooks and 3 pens cost 14.'
    >>> plan_for("What is the capital of Peru?") is None
    True
    """
    for text in (question, *question.splitlines()):  # a framework may wrap it ("New task:\n...")
        fixed = next((p for p in PLANS if re.fullmatch(p.question, normalise(text))), None)
        plan = fixed or shop_plan(text) or taller_plan(text)
        if plan is not None:
            return plan
    return None


def respond(pad: Scratchpad) -> str:
    """The next reply: an untried move for the first unmet need, else the answer."""
    plan = plan_for(pad.question)
    if plan is None:
        return NO_PLAN
    tried = {(a.tool, a.input) for a in map(parse_step, (t for t, _ in pad.steps))
             if isinstance(a, Action)}
    for need in plan.needs:
        if any(re.search(need.evidence, obs, re.MULTILINE) for obs in pad.observations):
            continue
        move = next((m for m in need.moves if (m.tool, m.input) not in tried), None)
        if move is None or pad.must_answer:
            return render_final("I could not find what I needed.",
                                "I could not work this out from the tools' results.")
        return render_action(move.thought, move.tool, move.input)
    return render_final("I now know the answer", plan.answer)


def demo_script(question: str) -> list[str]:
    """The replies the course's scripted model gives to a worked example when every first try works.

    A plain list, for ``ScriptedModel``: the same run replayed without reading the observations.

    >>> script = demo_script("What do 3 notebooks and 2 pens cost?")
    >>> [reply.splitlines()[-1] for reply in script[:3]]
    ['Action Input: notebook', 'Action Input: pen', 'Action Input: 3 * 4 + 2 * 2']
    >>> print(script[3])
    Thought: I now know the answer
    Final Answer: 3 notebooks and 2 pens cost 16.
    """
    plan = plan_for(question)
    if plan is None:
        raise ValueError(f"no worked example matches {question!r}; they are: {list(WORKED_EXAMPLES)}")
    moves = [need.moves[0] for need in plan.needs]
    return ([render_action(m.thought, m.tool, m.input) for m in moves]
            + [render_final("I now know the answer", plan.answer)])


def demo_model(*, ignore_stops: bool = False) -> ReactiveModel:
    """A fresh scripted model that solves the course's worked examples."""
    return ReactiveModel(respond=respond, ignore_stops=ignore_stops)
