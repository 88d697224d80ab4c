"""The course's demo *chat* model: the worked examples, solved with native tool calls.

It follows the same plans as the text demo model (``demo.PLANS``): find the
first need no tool result has met, and call the first tool for it not tried
yet; answer when every need is met. Two differences show what native tool
calling changes:

- Needs that do not depend on each other (two heights, two prices, an order
  and a policy) are asked for in one turn, as parallel calls, when the
  request allows parallel calls.
- Over Chat Completions it narrates its thought as visible text beside the
  calls, like a chat model; over Responses the thought is hidden reasoning,
  like a reasoning model (only a summary of it comes back).

It also knows one question the text demo does not: today's date, from the
clock tool. What it leaves out: any real understanding, as in ``demo``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable

from ..demo import WORKED_EXAMPLES, Move, Need, Plan, plan_for
from ..record import ToolCall
from .models import Call, ChatRequest, ChatTurn, ReactiveChatModel

DATE_QUESTION = "What is today's date?"
TODAY_MOVE = Move("I need today's date; the clock tool knows it.", "today", "")
TODAY = Plan(r"\btoday\b|\bdate\b", (Need(r"^Today is", (TODAY_MOVE,)),), "", DATE_QUESTION)

# The plans whose first needs are independent of each other (by their example's start).
PARALLEL = ("How much taller", "What do 3 notebooks", "Order 88213")

# The parameter each bundled tool takes, for tools the request does not describe.
PARAMETERS = {"search": "query", "lookup": "term", "calculate": "expression", "price": "item",
              "get_order": "order_id", "get_policy": "topic"}

NO_PLAN = ("I am the course's scripted model and can only answer its worked examples offline: "
           + " | ".join((*WORKED_EXAMPLES, DATE_QUESTION)) + " Set REACT_COURSE_MODEL to use a real model.")
GAVE_UP = "I could not work this out from the tools' results."
NO_DATE = "I could not find out today's date."


def respond(request: ChatRequest) -> ChatTurn:
    """The demo's next turn for this conversation."""
    question = request.question
    plan = plan_for(question) or (TODAY if re.search(TODAY.question, question, re.IGNORECASE) else None)
    if plan is None:
        forced = _forced(request, [])
        return _calls(request, forced) if forced else _say(request, "I have no plan for this question.",
                                                           NO_PLAN)
    moves = _forced(request, _next_moves(plan, request))
    if request.tool_choice == "none" or not request.tools or not moves:
        if any(not _met(need, request) for need in plan.needs):
            return _say(request, "I could not find what I needed.", NO_DATE if plan is TODAY else GAVE_UP)
        return _say(request, "I now know the answer.", plan.answer or _latest(request, plan))
    return _calls(request, moves)


def _latest(request: ChatRequest, plan: Plan) -> str:
    """The answer of a plan without a fixed one: the latest result that met its last need."""
    found = [r for r in request.tool_results if re.search(plan.needs[-1].evidence, r, re.MULTILINE)]
    return found[-1]


def _next_moves(plan: Plan, request: ChatRequest) -> list[Move]:
    """An untried move for the first unmet need; in parallel, for each independent one too."""
    tried = {(c.name, _input(c)) for c in request.previous_calls}
    parallel = request.parallel_tool_calls and plan.example.startswith(PARALLEL)
    moves: list[Move] = []
    for need in (n for n in plan.needs if not _met(n, request)):
        move = next((m for m in need.moves if (m.tool, m.input) not in tried), None)
        if move is None or (moves and move.tool == "calculate"):
            break
        moves.append(move)
        if not parallel or move.tool == "calculate":
            break
    return moves


def _forced(request: ChatRequest, moves: list[Move]) -> list[Move]:
    """Obey a ``tool_choice`` that demands a call: the planned calls that fit it, or else
    the demanded tool (the first offered, for "required") with the question as its input."""
    choice = request.tool_choice
    if choice in ("auto", "none") or not request.tools:
        return moves
    fitting = [m for m in moves if choice == "required" or m.tool == choice]
    if fitting:
        return fitting
    tool = request.tools[0]["name"] if choice == "required" else choice
    return [Move(f"I am asked to call {tool} now, so I call it with the question.", tool, request.question)]


def _met(need, request: ChatRequest) -> bool:
    return any(re.search(need.evidence, r, re.MULTILINE) for r in request.tool_results)


def _say(request: ChatRequest, thought: str, text: str) -> ChatTurn:
    return ChatTurn(text, (), thought if request.protocol == "responses" else "")


def _calls(request: ChatRequest, moves: list[Move]) -> ChatTurn:
    thought = moves[0].thought if len(moves) == 1 else (
        "These do not depend on each other, so I will ask for them at once: "
        + ", ".join(f"{m.tool} {m.input!r}" for m in moves) + ".")
    calls = tuple(Call(m.tool, _arguments(request, m)) for m in moves)
    if request.protocol == "responses":
        return ChatTurn("", calls, thought)
    return ChatTurn(thought, calls)


def _arguments(request: ChatRequest, move: Move) -> dict:
    """The move's input as JSON arguments, named and typed as the request's tool schema says."""
    schema = next((t.get("parameters") or {} for t in request.tools if t["name"] == move.tool), {})
    properties = schema.get("properties") or {}
    name = next(iter(properties), None) or PARAMETERS.get(move.tool)
    if name is None or (move.tool == "today" and not properties):
        return {}
    kind = (properties.get(name) or {}).get("type")
    value: object = move.input
    if (kind == "integer" and move.input.isdigit()) or (move.tool == "get_order" and kind is None):
        value = int(move.input)
    return {name: value}


def _input(call: ToolCall) -> str:
    """A call's single input as text, to compare with the plan's moves."""
    args = call.arguments
    if isinstance(args, str):
        try:
            args = json.loads(args)
        except ValueError:
            return args
    if isinstance(args, dict):
        return "" if not args else str(next(iter(args.values())))
    return str(args)


def demo_chat_model(*, rejects: Iterable[str] = ()) -> ReactiveChatModel:
    """A fresh chat model that solves the worked examples (and today's date) with tool calls.

    ``rejects`` names request parameters it refuses, like a reasoning model (e.g. ``{"temperature"}``).
    """
    return ReactiveChatModel(respond=respond, name="react-course-demo", rejects=rejects)
