"""Lesson 07's answer keys, and the generated turns and conversations their checkers compare on.

- ``07.run_calls``: turns of 0 to 5 calls (known, unknown and raising tools, broken
  JSON, side effects or not). Compared: one tool message per call, in order, linked
  by id; a result exactly ``str(result)``; a failure names what the statement says.
  Parallelism is left to the hand-written cases (a generated run is not timed).
- ``07.next_input``: inputs and outputs of reasoning, message and call items; the
  whole next input is fixed by the statement, so all of it is compared.
- ``07.native_loop``: scripted turns (answers, calls, and replies with both text
  and calls) under step limits from 0 to 4. Compared: the answer, how many model
  calls, which ones sent ``tool_choice="none"``, and the tool results, by id (a
  failure's wording is ``run_tool``'s, so only that it is one is compared). Only
  80 conversations: a student's loop declares its tools on every run (pydantic
  schemas, a few milliseconds each), and a check must answer in a few seconds.
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
from ..generated import Comparison, Draw, register, same_value
from .common import FakeChat, arguments, messages_ok, tool_messages


def _price(item: str) -> str:
    """Return the price of one shop item. Example input: pen"""
    return f"A {item} costs {len(item)}."


def _refund(amount: int) -> int:
    """Refund an amount (a side effect). Example input: 25"""
    return amount


def _crash(item: str) -> str:
    """A tool that fails. Example input: pen"""
    raise LookupError(f"no such item: {item}")


TOOLS = {"price": _price, "refund": _refund, "crash": _crash}
ARGUMENTS = (arguments(item="pen"), arguments(item="Zürich ✓"), arguments(amount=25), '{"item": "pen"',
             "{item: pen}", arguments(colour="red"), arguments(item="notebook"))


def run_calls_key(calls: list[dict], tools: dict, side_effects: frozenset = frozenset()) -> list[dict]:
    """The answer key, one call at a time (the results are the same in parallel)."""
    def one(call: dict) -> str:
        name = call["name"]
        if name not in tools:
            return f"Unknown tool {name!r}. Available tools: {', '.join(tools)}."
        try:
            values = json.loads(call["arguments"])
        except ValueError as error:
            return f"The arguments are not valid JSON ({error}). Send one JSON object."
        try:
            return str(tools[name](**values))
        except Exception as error:
            return f"{name} failed with {type(error).__name__}: {error}."

    return [{"role": "tool", "tool_call_id": c["id"], "content": one(c)} for c in calls]


def _calls(draw: Draw) -> tuple:
    names = ("price", "refund", "crash", "get_price", "Price")
    calls = [{"id": f"call_{n}", "name": draw.pick(names), "arguments": draw.pick(ARGUMENTS)}
             for n in range(1, 1 + draw.below(6))]
    return calls, dict(TOOLS), draw.pick((frozenset(), frozenset({"refund"})))


def _compare_calls(args: tuple, expected: list[dict], got: Any) -> bool | str:
    calls = args[0]
    problem = messages_ok(got, calls)
    if problem:
        return problem
    for call, want, have in zip(calls, expected, got, strict=True):
        name, text = call["name"], have["content"]
        if name not in TOOLS:
            needed = [name, *TOOLS]
        elif not _json_object(call["arguments"]):
            needed = ["json"]
        elif want["content"].startswith(f"{name} failed with "):
            needed = [want["content"].split(" ")[3].rstrip(":")]  # the exception's type
        else:
            needed = []
            if text != want["content"]:
                return f"the message for {call['id']}: expected {want['content']!r}, got {text!r}"
        missing = [w for w in needed if w.lower() not in text.lower()]
        if missing:
            return f"the message for {call['id']} should say what went wrong (mention {missing})"
    return True


def _json_object(text: str) -> bool:
    try:
        return isinstance(json.loads(text), dict)
    except ValueError:
        return False


RUN_CALLS = register(Comparison(
    "07.run_calls", run_calls_key, _calls, _compare_calls,
    lambda args: f"run_calls({args[0]!r}, tools, side_effects={set(args[2]) or 'set()'})",
    hint="Every call gets its message, in the calls' order, whatever happened to the others: a "
         "result as str(result), a failure in words (bad JSON, unknown tool, the exception's type)."))


def next_input_key(items: list[dict], output: list[dict], tools: dict, run_tool: Callable) -> list[dict]:
    """The answer key: what was sent, every output item as it came, then one result per call."""
    results = [{"type": "function_call_output", "call_id": item["call_id"],
                "output": run_tool(tools, item["name"], item["arguments"])}
               for item in output if item["type"] == "function_call"]
    return [*items, *output, *results]


def _echo(tools: dict, name: str, text: str) -> str:
    return f"result of {name}({text})"


def _output_item(draw: Draw, number: int) -> dict[str, Any]:
    kind = draw.below(3)
    if kind == 0:
        return {"type": "function_call", "id": f"fc_{number}", "call_id": f"call_{number}",
                "name": draw.pick(("search", "calculate")), "arguments": draw.pick(ARGUMENTS)}
    if kind == 1:
        return {"type": "reasoning", "id": f"rs_{number}",
                "summary": [{"type": "summary_text", "text": draw.pick(("Search first.", "Dann rechnen."))}]}
    return {"type": "message", "id": f"msg_{number}", "role": "assistant",
            "content": [{"type": "output_text", "text": "Let me look.", "annotations": []}]}


def _next_inputs(draw: Draw) -> tuple:
    items = [{"role": "user", "content": draw.pick(("Paris?", "東京の人口は?"))}
             for _ in range(draw.below(3))]
    numbers = iter(range(1, 20))
    return items, draw.many(lambda d: _output_item(d, next(numbers)), 6), {}, _echo


def _next_call(student: Callable, args: tuple) -> tuple[Any, list]:
    items, output, tools, run_tool = args
    return student(items, output, tools, run_tool=run_tool), items


NEXT_INPUT = register(Comparison(
    "07.next_input", lambda *args: (next_input_key(*args), copy.deepcopy(args[0])), _next_inputs,
    lambda args, expected, got: same_value(expected[0], got[0]) or (
        "the next input differs" if same_value(expected[1], got[1]) else "items was changed"),
    lambda args: f"next_input({args[0]!r}, {args[1]!r}, {{}}, run_tool=echo)", call=_next_call,
    hint="items, then every output item in order (reasoning and messages too), then one "
         "function_call_output per function_call, by call_id; never change items."))


def _run_tool(tools: dict, name: str, text: str) -> str:
    call = ToolCall("call_1", name, parse_arguments(text))
    return execute_turn([call], ToolRegistry(tools, strict=False))[0].text


@functools.cache
def _declared(tools: tuple[tuple[str, Callable], ...]) -> list[dict[str, Any]]:
    """Declared once per set of tools: building the schemas is most of a scripted run's time."""
    return [declare(tool) for tool in ToolRegistry(dict(tools), strict=False)]


def native_loop_key(client: Any, tools: dict, messages: list[dict], *, model: str = "scripted",
                    max_steps: int = 4) -> str:
    """The answer key: a reply without tool calls is the answer, even with no text."""
    messages = list(messages)
    declared = _declared(tuple(tools.items()))
    for _ in range(max_steps):
        message = client.chat.completions.create(model=model, messages=messages,
                                                 tools=declared).choices[0].message
        if not message.tool_calls:
            return message.content
        messages.append({"role": "assistant", "content": message.content, "tool_calls": [
            {"id": c.id, "type": "function", "function": {"name": c.function.name,
                                                          "arguments": c.function.arguments}}
            for c in message.tool_calls]})
        messages += [{"role": "tool", "tool_call_id": c.id,
                      "content": _run_tool(tools, c.function.name, c.function.arguments)}
                     for c in message.tool_calls]
    return client.chat.completions.create(model=model, messages=messages, tools=declared,
                                          tool_choice="none").choices[0].message.content


class _Script:
    """A model that replies with its turns in order, then answers "Done."."""

    def __init__(self, turns: list[Any]) -> None:
        self.turns, self.next = turns, 0

    def __call__(self, messages: list[dict[str, Any]], tool_choice: Any) -> Any:
        self.next += 1
        return self.turns[self.next - 1] if self.next <= len(self.turns) else "Done."


LOOP_TOOLS = {"price": _price, "crash": _crash}
CALLS = (("price", arguments(item="pen")), ("price", arguments(item="notebook")),
         ("crash", arguments(item="pen")), ("get_price", arguments(item="pen")), ("price", "{item"))


def _turn(draw: Draw) -> Any:
    calls = [draw.pick(CALLS) for _ in range(1 + draw.below(3))]
    kind = draw.below(4)
    if kind == 0:
        return draw.pick(("A pen costs 3.", "", "Ответ: 16."))
    if kind == 1:
        return draw.pick(("Let me check the prices first.", "")), calls
    return calls


def _conversations(draw: Draw) -> tuple:
    question = [{"role": "user", "content": "What do 3 notebooks and 2 pens cost?"}]
    return [_turn(draw) for _ in range(draw.below(5))], draw.pick((4, 1, 2, 0, 3)), question


def _loop_run(loop: Callable, args: tuple) -> dict[str, Any]:
    turns, max_steps, question = args
    client = FakeChat(_Script(turns), max_steps + 2)
    answer = loop(client, LOOP_TOOLS, copy.deepcopy(question), model="scripted", max_steps=max_steps)
    requests = client.requests
    last = requests[-1]["messages"]
    calls = {c.get("id"): c.get("function", {}) for m in last for c in m.get("tool_calls") or ()}
    results = [(m.get("tool_call_id"), _result_or_failure(calls.get(m.get("tool_call_id"), {}),
                                                          m.get("content")))
               for m in tool_messages(last)]
    return {"answer": answer, "model calls": len(requests), "tool results": results,
            "tool_choice='none' on calls": [n for n, r in enumerate(requests, 1)
                                            if r.get("tool_choice") == "none"]}


FAILED = "(a failure, said in words)"


def _result_or_failure(function: dict[str, Any], content: Any) -> Any:
    """The content when it is the tool's own result; a failure's wording is run_tool's, not fixed."""
    try:
        result = str(LOOP_TOOLS[function.get("name")](**json.loads(function.get("arguments"))))
    except Exception:  # an unknown tool, broken JSON, or a tool that raises: a failure
        result = None
    if content == result:
        return content
    return FAILED if result is None and isinstance(content, str) and content.strip() else content


def _show_turn(turn: Any) -> str:
    if isinstance(turn, str):
        return f"answers {turn!r}"
    text, calls = turn if isinstance(turn, tuple) else (None, turn)
    named = ", ".join(f"{name}({args})" for name, args in calls)
    return f"says {text!r} and calls {named}" if text is not None else f"calls {named}"


def _show_loop(args: tuple) -> str:
    turns, max_steps, _ = args
    said = "; then ".join(_show_turn(t) for t in turns) or "answers 'Done.'"
    return f"native_loop(client, tools, messages, max_steps={max_steps}) with a model that {said}"


NATIVE_LOOP = register(Comparison(
    "07.native_loop", lambda *args: _loop_run(native_loop_key, args), _conversations,
    lambda args, expected, got: same_value(expected, got), _show_loop, call=_loop_run, count=80,
    shrink_attempts=120,
    hint="A reply is the answer only when it has no tool_calls (its text may come with calls, and "
         "may be empty); every call gets its result by id; after max_steps turns of calls, one more "
         "call with tool_choice='none'."))
