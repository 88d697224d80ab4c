"""The course's demo *chat* model: the worked examples, solved with native tool calls.

It follows the same plans as the text demo model (``demo.PLANS``): find the
first need no tool result has met, and call the first tool for it not tried
yet; answer when every need is met. Two differences show what native tool
calling changes:

- Needs that do not depend on each other (two heights, two prices, an order
  and a policy: the plans marked ``parallel``) are asked for in one turn, as
  parallel calls, when the request allows parallel calls.
- Over Chat Completions it narrates its thought as visible text beside the
  calls, like a chat model; over Responses the thought is hidden reasoning,
  like a reasoning model (only a summary of it comes back).

It answers the conventions of the frameworks a student meets, not only the
course's loop: results as ``tool`` messages or as "Observation:" user text
(``ChatRequest.tool_results``); a call the request requires, once the plan is
done, goes to an offered final-answer tool (``final_answer``, ``final_result``,
or the forced tool of a structured output) with its schema filled from the
answer; it calls only tools it was offered (when its plan needs one that is
missing, it says so in text); and a *streamed* Chat turn with calls carries no
narration. Why the last: a streamed turn's text arrives before its calls, and
clients that stream (pydantic-ai's ``run_stream``, chat UIs) take the first text
of a turn as the answer. Lesson 07 reads its replies whole, so its transcripts
keep the thoughts.

Given a text ReAct prompt (lesson 02's, as one user message with no tools, or
through ``/v1/completions``), it answers in the text format, as the text demo
model does, so the text lessons run against ``react-course serve-model`` too.

It also knows one question the text demo does not: today's date, from the
clock tool (asked as "What is today's date?" or a close wording, not any
question that mentions a date). What it leaves out: any real understanding,
as in ``demo``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable

from ..lessons import demo as text_demo
from ..lessons.demo import OFFLINE, WORKED_EXAMPLES, plan_for
from ..lessons.plans import Move, Need, Plan, normalise
from ..prompts import read_prompt
from ..record import ToolCall
from .json_answers import fill
from .models import Call, ChatRequest, ChatTurn, ReactiveChatModel

DATE_QUESTION = "What is today's date?"
TODAY_MOVE = Move("I need today's date; the clock tool knows it.", "today", "")
TODAY = Plan(r"what is today's date|what's today's date|what is the date today|what date is it today",
             (Need(r"^Today is", (TODAY_MOVE,)),), "", DATE_QUESTION)

# The parameter each course tool takes, for a tool declared without a schema.
PARAMETERS = {"search": "query", "lookup": "term", "calculate": "expression", "price": "item",
              "get_order": "order_id", "get_policy": "topic"}
FINAL_TOOLS = re.compile(r"^(final_answer|final_result\w*)$")  # smolagents', pydantic-ai's

NO_PLAN = (OFFLINE + " | ".join((*WORKED_EXAMPLES, DATE_QUESTION))
           + " Set REACT_COURSE_MODEL to use a real model.")
GAVE_UP = "I could not work this out from the tools' results."
NO_DATE = "I could not find out today's date."


def _asks_the_date(question: str) -> bool:
    """Today's date, asked as the whole text or on a line of its own (a framework's wrapping).

    >>> _asks_the_date("New task:\\nWhat is today's date?"), _asks_the_date("Is that date right?")
    (True, False)
    """
    return any(re.fullmatch(TODAY.question, normalise(text)) for text in (question, *question.splitlines()))


def respond(request: ChatRequest) -> ChatTurn | str:
    """The demo's next turn for this conversation."""
    if not request.tools and is_text_react(request):
        return text_demo.respond(read_prompt(request.question))
    question = request.question
    plan = plan_for(question) or (TODAY if _asks_the_date(question) else None)
    if plan is None:
        return _finish(request, "I have no plan for this question.", NO_PLAN)
    moves = _next_moves(plan, request)
    if request.tool_choice not in ("auto", "none", "required") and takes_answer(request.tool_choice):
        return _finish(request, "I am asked for the answer in this shape.", plan.answer or question,
                       plan=plan)  # a structured output: the scripted model knows its plan's answer
    missing = [m.tool for m in moves if m.tool not in request.tool_names]
    if request.tools and missing:
        offered = ", ".join(request.tool_names)
        return _finish(request, "A tool I need is not offered.", f"I need the {missing[0]} tool for "
                       f"this, and this request does not offer it (it offers: {offered}).", met=False)
    if request.tool_choice == "none" or not request.tools or not moves:
        if any(not _met(need, request) for need in plan.needs):
            return _finish(request, "I could not find what I needed.",
                           NO_DATE if plan is TODAY else GAVE_UP, met=False)
        return _finish(request, "I now know the answer.", plan.answer or _latest(request, plan), plan=plan)
    forced = request.tool_choice not in ("auto", "required")
    if forced and request.tool_choice not in [m.tool for m in moves]:
        return _finish(request, "I am asked for this tool now.", plan.answer or question,
                       met=all(_met(need, request) for need in plan.needs))
    return _calls(request, [m for m in moves if not forced or m.tool == request.tool_choice])


def is_text_react(request: ChatRequest) -> bool:
    """Whether the conversation is one text ReAct prompt (lesson 02's format), not a chat."""
    text = request.question
    return (re.search(r"^Question:", text, re.MULTILINE) is not None and "Action Input:" in text
            and "Final Answer:" in text)


def _latest(request: ChatRequest, plan: Plan) -> str:
    """The answer of a plan without a fixed one: the latest result that met its last need."""
    found = [r for r in request.tool_results if re.search(plan.needs[-1].evidence, r, re.MULTILINE)]
    return found[-1]


def _next_moves(plan: Plan, request: ChatRequest) -> list[Move]:
    """An untried move for the first unmet need; in parallel, for each independent one too."""
    tried = {(c.name, _input(c)) for c in request.previous_calls}
    parallel = request.parallel_tool_calls and plan.parallel
    moves: list[Move] = []
    for need in (n for n in plan.needs if not _met(n, request)):
        move = next((m for m in need.moves if (m.tool, m.input) not in tried), None)
        if move is None or (moves and move.tool == "calculate"):
            break
        moves.append(move)
        if not parallel or move.tool == "calculate":
            break
    return moves


def _met(need: Need, request: ChatRequest) -> bool:
    return any(re.search(need.evidence, r, re.MULTILINE) for r in request.tool_results)


def _finish(request: ChatRequest, thought: str, text: str, met: bool = True,
            plan: Plan | None = None) -> ChatTurn:
    """The answer as text; or, when the request demands a call, as a call: to an offered final-answer
    tool or the forced structured-output tool, filled from the answer; else (a required call with no
    tool that takes an answer) to the forced or first tool, with the question as its input."""
    choice, names = request.tool_choice, request.tool_names
    if choice in ("auto", "none") or not request.tools:
        return ChatTurn(text, (), thought if request.protocol == "responses" else "")
    final = next((n for n in names if FINAL_TOOLS.match(n)), None)
    tool = choice if choice != "required" else final or names[0]
    if not takes_answer(tool):
        return _calls(request, [Move(thought, tool, request.question)])
    return _calls(request, [Move(thought, tool, text)], numbers=_numbers(plan) if met and plan else None)


def takes_answer(tool: str) -> bool:
    """Whether a tool takes an answer (a final-answer or structured-output tool), not a question.

    >>> takes_answer("final_answer"), takes_answer("HeightDifference"), takes_answer("search")
    (True, True, False)
    """
    course_tools = {m.tool for plan in (*text_demo.PLANS, TODAY) for need in plan.needs for m in need.moves}
    return bool(FINAL_TOOLS.match(tool)) or tool not in course_tools


def _numbers(plan: Plan) -> str | None:
    """The number a typed answer wants: the calculation's result the plan ends on, if it ends on one.

    >>> _numbers(plan_for("What do 3 notebooks and 2 pens cost?")), _numbers(TODAY)
    ('16', None)
    """
    found = re.fullmatch(r"\^?(-?\d+)\$?", plan.needs[-1].evidence)
    return found.group(1) if found else None


def _calls(request: ChatRequest, moves: list[Move], numbers: str | None = None) -> ChatTurn:
    thought = moves[0].thought if len(moves) == 1 else (
        "These do not depend on each other, so I will ask for them at once: "
        + ", ".join(f"{m.tool} {m.input!r}" for m in moves) + ".")
    calls = tuple(Call(m.tool, _arguments(request, m, numbers)) for m in moves)
    if request.protocol == "responses":
        return ChatTurn("", calls, thought)
    return ChatTurn("" if request.body.get("stream") else thought, calls)


def _arguments(request: ChatRequest, move: Move, numbers: str | None = None) -> dict:
    """The move's input as JSON arguments: every property of the tool's schema, typed as it says.

    A one-parameter tool (the course's) gets the input as it is; a larger schema
    (a final answer's, a structured output's) is filled from the input, numbers
    taken from ``numbers`` when given.
    """
    schema = next((t.get("parameters") or {} for t in request.tools if t["name"] == move.tool), {})
    properties = schema.get("properties") or {}
    if not properties:  # a tool declared without a schema: the course's parameter name, if it has one
        name = PARAMETERS.get(move.tool)
        return {name: int(move.input) if move.tool == "get_order" else move.input} if name else {}
    if len(properties) > 1 or numbers is not None:
        filled = fill(schema, move.input, numbers=numbers)
        return filled if isinstance(filled, dict) else {}
    name, spec = next(iter(properties.items()))
    kind = spec.get("type") if isinstance(spec, dict) else None
    value: object = move.input
    if kind == "integer" and move.input.isdigit():
        value = int(move.input)
    elif kind not in (None, "string") and not (kind == "integer" and move.input.isdigit()):
        value = fill({"type": "object", "properties": {name: spec}}, move.input)[name]
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
