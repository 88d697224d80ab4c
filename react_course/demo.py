"""The course's built-in scripted model, which solves the worked examples.

It is a ``ReactiveModel`` driven by plans. A plan lists what the answer
needs (a fact, recognised by a pattern in some observation) and, for each
need, the actions to try in order. On every call the model finds the first
need no observation has met yet and takes the first action for it that it
has not already tried. So it reacts the way a real model should: an empty
search leads to a reformulated one, an error to the next idea, and when every
need is met it answers. Ask it anything else and it says it has no plan.

What it leaves out: any real understanding. It is a stand-in so that every
notebook and the CLI run offline, free and the same every time.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .models import ReactiveModel
from .parsing import Action, parse_step
from .prompts import Scratchpad, render_action, render_final


@dataclass(frozen=True)
class Move:
    thought: str
    tool: str
    input: str


@dataclass(frozen=True)
class Need:
    evidence: str  # a regular expression some observation must match
    moves: tuple[Move, ...]


@dataclass(frozen=True)
class Plan:
    question: str  # a regular expression that recognises the question
    needs: tuple[Need, ...]
    answer: str
    example: str = ""  # the worked example's question, as the course words it


def _need(evidence: str, *moves: tuple[str, str, str]) -> Need:
    return Need(evidence, tuple(Move(*m) for m in moves))


PLANS: tuple[Plan, ...] = (
    Plan(
        r"eiffel.*statue of liberty|statue of liberty.*eiffel",
        (
            _need(r"\b330 m\b", ("I need the height of the Eiffel Tower.", "search", "Eiffel Tower")),
            _need(r"\b93 m\b", ("The Eiffel Tower is 330 m tall with its antennas. Now I need the "
                                "height of the Statue of Liberty.", "search", "Statue of Liberty")),
            _need(r"^237$", ("The Statue of Liberty is 93 m from the ground to the torch. "
                             "I will subtract.", "calculate", "330 - 93")),
        ),
        "The Eiffel Tower (330 m with its antennas) is 237 m taller than the Statue of Liberty "
        "(93 m from the ground to the torch).",
        "How much taller is the Eiffel Tower than the Statue of Liberty?",
    ),
    Plan(
        r"spacex",
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
        "Is the founder of SpaceX also a co-founder of the company that makes the Model 3?",
    ),
    Plan(
        r"olympics",
        (
            _need(r"held in Paris", ("I need the city that hosted the 2024 Summer Olympics.",
                                     "search", "2024 Summer Olympics")),
            _need(r"12\.2 million", ("The 2024 Games were held in Paris. Now I need the population "
                                     "of Paris.", "search", "Paris")),
            _need(r"^1830000$", ("About 12.2 million people live in the Paris metropolitan area. "
                                 "15% of that is 0.15 times 12200000.",
                                 "calculate", "0.15 * 12200000")),
        ),
        "About 1,830,000: 15% of the roughly 12.2 million people of the Paris metropolitan area "
        "(Paris hosted the 2024 Summer Olympics).",
        "What is 15% of the population of the city that hosted the 2024 Summer Olympics?",
    ),
    Plan(
        r"tower in paris|paris.*1889|1889.*tower",
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
        "How tall is the tower in Paris that opened in 1889?",
    ),
    Plan(
        r"notebook",
        (
            _need(r"notebook costs 4", ("I need the price of a notebook.", "price", "notebook")),
            _need(r"pen costs 2", ("A notebook costs 4. Now I need the price of a pen.", "price", "pen")),
            _need(r"^16$", ("A pen costs 2. The total is 3 notebooks at 4 plus 2 pens at 2.",
                            "calculate", "3 * 4 + 2 * 2")),
        ),
        "3 notebooks and 2 pens cost 16.",
        "What do 3 notebooks and 2 pens cost?",
    ),
    Plan(
        r"88213|refund",
        (
            _need(r"Order 88213:.*minutes late", ("I need the details of order 88213.",
                                                   "get_order", "88213")),
            _need(r"delivery fee is refunded", ("Order 88213 arrived 62 minutes late; the item cost "
                                                "480 and the delivery fee was 25. I need the "
                                                "late-delivery policy.", "get_policy", "late delivery")),
        ),
        "Refund 25 INR, the delivery fee: order 88213 arrived 62 minutes late, more than the "
        "30 minutes after which the fee is refunded. The item price (480) is not refunded for "
        "lateness alone.",
        "Order 88213 cost 480 plus a 25 delivery fee and arrived 62 minutes late. "
        "What should the customer be refunded in total?",
    ),
)

WORKED_EXAMPLES: tuple[str, ...] = tuple(plan.example for plan in PLANS)

NO_PLAN = (
    "Thought: I am the course's scripted model and have no plan for this question.\n"
    "Final Answer: I can only answer the course's worked examples offline: "
    + " | ".join(WORKED_EXAMPLES)
    + " Set REACT_COURSE_MODEL to use a real model."
)


def plan_for(question: str) -> Plan | None:
    """The plan that recognises ``question``, if any.

    >>> plan_for("How much taller is the Eiffel Tower than the Statue of Liberty?").answer[:16]
    'The Eiffel Tower'
    >>> plan_for("What is the capital of Peru?") is None
    True
    """
    return next((p for p in PLANS if re.search(p.question, question, re.IGNORECASE)), None)


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
