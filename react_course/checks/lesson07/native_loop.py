"""07.native_loop as a spec: the Chat Completions tool-calling loop, run against scripted turns.

The arguments are plain data: the model's turns (an answer, calls as ``(name,
arguments)``, ``(text, calls)`` for a reply with both, ``(text, [])`` for one whose
``tool_calls`` is empty) and ``max_steps``. ``observe`` runs the loop against
``common.FakeChat``, which returns the SDK's own objects, refuses with a 400 what the
API refuses, and raises ``CallBudgetExceeded`` past ``max_steps + 2`` calls: a loop
without a limit fails on a count, never on a clock. What is compared is what the
run did, as plain data: the answer, the calls made, which sent ``tool_choice="none"``,
whether every call declared the tools, the messages the loop appended, each tool
result by id (a failure's wording is ``run_tool``'s, so only that it is one), and
whether the caller's list was left alone.

The generated case runs 40 conversations under a time limit no bounded loop
reaches (each run makes at most ``max_steps + 2`` calls): the verdict is the same
on a loaded laptop and in a browser tab, where declaring tools is slower.
"""

from __future__ import annotations

import copy
import functools
import json
from collections.abc import Callable
from typing import Any

from ...native import execute_turn
from ...record import ToolCall
from ...schemas import declare, parse_arguments
from ...tools import ToolRegistry
from ..generated import Draw
from ..plain import Opaque, Raised
from ..spec import GENERATED, Example, Fault, Rule, Spec, define
from .common import ApiRefused, FakeChat, arguments, tool_messages

QUESTION = [{"role": "system", "content": "Use the tools."},
            {"role": "user", "content": "What do 3 notebooks and 2 pens cost?"}]
FAILED = "(a failure, said in words)"
BEST_EFFORT = "Best effort: I ran out of steps."


def unit_price(item: str) -> str:
    """Return the price of one shop item by its singular name. Example input: pen"""
    return {"pen": "A pen costs 2.", "notebook": "A notebook costs 4."}.get(item, f"No item {item!r}.")


def total(expression: str) -> str:
    """Evaluate a sum of products such as 3 * 4 + 2 * 2. Example input: 3 * 4 + 2 * 2"""
    return "16" if expression.replace(" ", "") == "3*4+2*2" else "cannot evaluate"


def crash(item: str) -> str:
    """A tool that fails. Example input: pen"""
    raise LookupError(f"no such item: {item}")


TOOLS = {"unit_price": unit_price, "total": total, "crash": crash}


@functools.cache
def _declared() -> list[dict[str, Any]]:
    return [declare(tool) for tool in ToolRegistry(TOOLS, strict=False)]


def _run_tool(tools: dict, name: str, text: str) -> str:
    call = ToolCall("call_1", name, parse_arguments(text))
    return execute_turn([call], ToolRegistry(tools, strict=False))[0].text


def key(client: Any, tools: dict, messages: list[dict], *, model: str = "scripted",
    max_steps: int = 4) -> str:
    """The answer key: a reply without tool calls is the answer, even with no text."""
    messages = list(messages)
    for _ in range(max_steps):
        message = client.chat.completions.create(model=model, messages=messages,
                                                 tools=_declared()).choices[0].message
        if not message.tool_calls:
            return message.content
        messages.append({"role": "assistant", "content": message.content, "tool_calls": [
            {"id": c.id, "type": "function", "function": {"name": c.function.name,
                                                          "arguments": c.function.arguments}}
            for c in message.tool_calls]})
        messages += [{"role": "tool", "tool_call_id": c.id,
                      "content": _run_tool(tools, c.function.name, c.function.arguments)}
                     for c in message.tool_calls]
    return client.chat.completions.create(model=model, messages=messages, tools=_declared(),
                                          tool_choice="none").choices[0].message.content


class Script:
    """A model that replies with its turns in order, then answers "Done."."""

    def __init__(self, turns: list[Any]) -> None:
        self.turns, self.next = turns, 0

    def __call__(self, messages: list[dict[str, Any]], tool_choice: Any) -> Any:
        self.next += 1
        return self.turns[self.next - 1] if self.next <= len(self.turns) else "Done."


def _result(function: dict[str, Any], content: Any) -> Any:
    """The content when it is the tool's own result; any words for a failure (run_tool's wording)."""
    try:
        result = str(TOOLS[function.get("name")](**json.loads(function.get("arguments"))))
    except Exception:  # an unknown tool, broken JSON, or a tool that raises: a failure
        result = None
    if content == result:
        return content
    return FAILED if result is None and isinstance(content, str) and content.strip() else content


def observe(loop: Callable[..., Any], args: tuple) -> dict[str, Any]:
    turns, max_steps = args
    client, given = FakeChat(Script(turns), max_steps + 2), copy.deepcopy(QUESTION)
    try:
        answer = loop(client, dict(TOOLS), given, model="scripted", max_steps=max_steps)
    except ApiRefused as refused:  # the request that was refused is recorded: it shows why
        answer = Raised.of(refused)
    requests = client.requests
    names = sorted(t["function"]["name"] for t in _declared())
    last = requests[-1]["messages"][len(QUESTION):] if requests else []
    calls = {c.get("id"): c.get("function", {}) for m in last for c in m.get("tool_calls") or ()}
    return {
        "answer": answer if isinstance(answer, str | None) else Opaque(repr(answer)),
        "model calls": len(requests),
        "tool_choice='none' on calls": [n for n, r in enumerate(requests, 1)
                                        if r.get("tool_choice") == "none"],
        "tools declared on every call": all(sorted(t.get("function", {}).get("name",
            "") for t in r.get("tools")
                                                   or () if isinstance(t, dict)) == names for r in requests),
        "messages appended": [[m.get("role"), [c.get("id") for c in m.get("tool_calls") or ()]
                               if m.get("role") == "assistant" else m.get("tool_call_id")] for m in last],
        "tool results": [[m.get("tool_call_id"), _result(calls.get(m.get("tool_call_id"), {}),
            m.get("content"))]
                         for m in tool_messages(last)],
        "the caller's list left alone": given == QUESTION,
    }


def compare(args: tuple, want: Any, got: Any) -> bool | str:
    if got == want:
        return True
    if not isinstance(got, dict):
        return f"the loop {got}"
    field = next(name for name in want if got[name] != want[name])
    return f"{field}: {got[field]!r}, expected {want[field]!r}"


PEN, NOTEBOOK = ("unit_price", arguments(item="pen")), ("unit_price", arguments(item="notebook"))
SUM = ("total", arguments(expression="3 * 4 + 2 * 2"))
SHOP = [[NOTEBOOK, PEN], [SUM], "3 notebooks and 2 pens cost 16."]


def _example(name: str, turns: list, hint: str, max_steps: int = 4) -> Example:
    return Example(name, (turns, max_steps), hint)


EXAMPLES = (
    _example("an answer at once", ["Hello."], "No tool_calls: return message.content at once."),
    _example("the tools are declared", ["Hello."], "Pass tools=declare_tools(tools) to every create() call."),
    _example("one call, then the answer", [[PEN], "A pen costs 2."],
             "Append the assistant message (with its tool_calls), then one tool message per call."),
    _example("the calls are appended before their results", [[PEN], "A pen costs 2."],
             "The API refuses a tool message that does not follow the assistant message that made the call."),
    _example("two calls in one turn", SHOP, "Answer every call of the turn, each with its own tool message."),
    _example("results linked by id", SHOP,
        "tool_call_id is the id of the call whose result the message carries."),
    _example("the step limit: one more call that must answer", [[PEN]] * 4,
             "After max_steps calls, call once more with tool_choice='none' (and the tools, as always) and "
             "return its content.", max_steps=2),
    _example("the caller's list is left alone", [[PEN], "A pen costs 2."],
        "Start with messages = list(messages)."),
    _example("a reply with text and calls is not the answer", [("Let me look that up.", [PEN]),
        "A pen costs 2."],
             "A reply can hold text and tool_calls together: it is the answer only without tool_calls."),
    _example("an empty list of tool calls is an answer", [("A pen costs 2.", [])],
             "tool_calls may be an empty list: `if not message.tool_calls`, not `is None`."),
)
ANSWER = "When the reply has no tool calls, its `content` is the answer"
APPEND = "append the assistant message with its tool calls"
LINKED = "one tool message per call, linked by its `tool_call_id`"
NONE = 'one more call with `tool_choice="none"`'


def _well_formed(appended: list) -> bool:
    """Does every tool message answer a call of the assistant message before it (which keeps its calls)?"""
    calls: list = []
    for role, what in appended:
        if role == "assistant":
            calls = what
            if not what:
                return False
        elif role == "tool" and what not in calls:
            return False
    return True


def _empty_turn_taken(appended: list) -> bool:
    """Was an assistant message with no calls appended and no result after it (tool_calls=[] as a turn)?"""
    return any(entry == ["assistant", []] and (at + 1 == len(appended) or appended[at + 1][0] != "tool")
               for at, entry in enumerate(appended))


def _differs(field: str) -> Callable[[tuple, Any, Any], bool]:
    return lambda args, want, got: got[field] != want[field]


FAULTS = (
    Fault(NONE, "Stop after max_steps turns of calls: one more call with tool_choice='none', then return.",
          found=lambda args, want, got: isinstance(got, Raised) and "CallBudgetExceeded" in got),
    Fault(ANSWER, "A reply whose tool_calls is an empty list holds no call: it is the answer (`if not "
          "message.tool_calls`, not `is None`).",
          found=lambda args, want, got: _empty_turn_taken(got["messages appended"])),
    Fault(APPEND, "Append {'role': 'assistant', 'content': message.content, 'tool_calls': [...every "
          "call...]} before the results: the API refuses a tool message that answers no call.",
          found=lambda args, want, got: not _well_formed(got["messages appended"])),
    Fault("work on a copy", "The caller's messages changed: start with messages = list(messages).",
          found=_differs("the caller's list left alone")),
    Fault("send the tool declarations", "Send tools=declare_tools(tools) with every create() call, the last "
          "one too.", found=_differs("tools declared on every call")),
    Fault(NONE, "After max_steps turns of calls, call once more with tool_choice='none' and return its "
          "content; only that call sends it.", found=_differs("tool_choice='none' on calls")),
    Fault(ANSWER, "A reply is the answer only when it has no tool_calls (None or []); its text may come with "
          "calls, and may be empty.",
          found=lambda args, want, got: not isinstance(got["answer"], Raised)
          and got["answer"] != want["answer"]),
    Fault(LINKED, "Every call needs its own tool message, tool_call_id = that call's id.",
          found=lambda args, want, got: isinstance(got["answer"], Raised) and "tool" in got["answer"]),
    Fault(LINKED, "One tool message per call, tool_call_id = the call's id, content = run_tool's text.",
          found=_differs("tool results")),
)
RULES = (
    Rule(ANSWER, ("an answer at once", "a reply with text and calls is not the answer",
                  "an empty list of tool calls is an answer", GENERATED),
         edge=lambda a: any(isinstance(t, tuple) and t[1] == [] for t in a[0][:a[1]])),
    Rule(APPEND, ("one call, then the answer", "the calls are appended before their results")),
    Rule(LINKED, ("two calls in one turn", "results linked by id", GENERATED),
         edge=lambda a: any(isinstance(t, list) and len(t) > 1 for t in a[0][:a[1]])),
    Rule(NONE, ("the step limit: one more call that must answer",),
         edge=lambda a: all(not isinstance(t, str) and (isinstance(t, list) or t[1]) for t in a[0][:a[1]])
         and len(a[0]) >= a[1]),
    Rule("send the tool declarations", ("the tools are declared",
        "the step limit: one more call that must answer")),
    Rule("work on a copy", ("the caller's list is left alone",)),
)
CALLS = (PEN, NOTEBOOK, ("crash", arguments(item="pen")), ("get_price", arguments(item="pen")),
         ("unit_price", "{item"), ("unit_price", arguments(item="x" * 240)))


def _turn(draw: Draw) -> Any:
    calls = [draw.pick(CALLS) for _ in range(1 + draw.below(3))]
    kind = draw.below(5)
    if kind == 0:
        return draw.pick(("A pen costs 3.", "", "Ответ: 16."))
    if kind == 1:
        return draw.pick(("Let me check the prices first.", "")), calls
    if kind == 2:
        return draw.pick(("A pen costs 2.", "")), []
    return calls


SPEC = define(Spec(
    "07.native_loop", "the native tool-calling loop over Chat Completions", "native_loop", key, EXAMPLES,
    lambda draw: ([_turn(draw) for _ in range(draw.below(5))], draw.pick((4, 1, 2, 0, 3))), RULES,
    faults=FAULTS, observe=observe, compare=compare, count=40, time_limit=60.0,
    show=lambda args: f"native_loop(client, tools, messages, max_steps={args[1]}) with a model whose turns "
                      f"are {args[0]!r}",
    hints=(
        "Each step: response = client.chat.completions.create(model=model, messages=messages, "
        "tools=declarations); message = response.choices[0].message.",
        "Before any result, append {'role': 'assistant', 'content': message.content, 'tool_calls': "
        "[{'id': c.id, 'type': 'function', 'function': {'name': c.function.name, 'arguments': "
        "c.function.arguments}} for c in message.tool_calls]}.",
        "Then for each call c: {'role': 'tool', 'tool_call_id': c.id, 'content': run_tool(tools, "
        "c.function.name, c.function.arguments)}. After the for loop over steps, one more create(..., "
        "tool_choice='none').",
    ),
    generated_hint="A reply is the answer only when it has no tool_calls (its text may come with calls, "
                   "and may be empty); every call gets its result by id; after max_steps turns of calls, "
                   "one more call with tool_choice='none'."))
__all__ = ["SPEC", "TOOLS", "key"]
