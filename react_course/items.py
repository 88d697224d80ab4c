"""Responses items that travel together: what compression may not split.

A Responses history is a flat list of items, not of messages, and the API
holds some of them together (its 400s, as developers reported them in 2025
and 2026: "Item 'rs_...' of type 'reasoning' was provided without its
required following item", and "No tool output found for function call"):

- a ``reasoning`` item and the item that follows it (the call or message it
  led to), in either direction;
- a ``function_call`` and the ``function_call_output`` with its ``call_id``.

``item_turns`` groups a history into model turns that respect both: the
reasoning, calls and message one reply produced, with the outputs of its
calls. ``items_intact`` says whether a list would be accepted on these two
rules. ``context.compress_messages`` uses them, so one function compresses
a Chat Completions conversation or a Responses history.

What it leaves out: item kinds beyond these (web search calls, images), and
the encrypted reasoning's contents, which only the provider can read.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

Item = dict[str, Any]
MODEL_ITEMS = frozenset({"reasoning", "function_call"})


def is_responses(items: Sequence[Item]) -> bool:
    """Is this a Responses history (typed items) rather than Chat Completions messages?

    >>> is_responses([{"role": "user", "content": "Hi"}, {"type": "function_call", "call_id": "c"}])
    True
    """
    return any(item.get("type") in {*MODEL_ITEMS, "function_call_output"} for item in items)


def _from_model(item: Item) -> bool:
    return item.get("type") in MODEL_ITEMS or item.get("role") == "assistant"


def item_turns(items: Sequence[Item]) -> list[list[Item]]:
    """Group items into turns: what one reply produced, with the outputs of its calls.

    >>> turns = item_turns([{"type": "reasoning", "id": "rs_1"},
    ...     {"type": "function_call", "call_id": "a"}, {"type": "function_call", "call_id": "b"},
    ...     {"type": "function_call_output", "call_id": "a"},
    ...     {"type": "function_call_output", "call_id": "b"},
    ...     {"type": "reasoning", "id": "rs_2"}, {"type": "message", "role": "assistant", "content": "4"}])
    >>> [len(t) for t in turns]
    [5, 2]
    """
    turns: list[list[Item]] = []
    open_turn = False  # the last turn can still take model items (no output has come yet)
    for item in items:
        if item.get("type") == "function_call_output" and turns:
            turns[-1].append(item)
            open_turn = False
        elif _from_model(item) and turns and open_turn:
            turns[-1].append(item)
        else:
            turns.append([item])
            open_turn = _from_model(item)
    return turns


def items_intact(items: Sequence[Item]) -> str | None:
    """None when the API would accept the list on the two rules above, else what is broken.

    >>> print(items_intact([{"type": "reasoning", "id": "rs_1"}]))
    reasoning item rs_1 has no item after it
    >>> print(items_intact([{"type": "function_call_output", "call_id": "a", "output": "4"}]))
    the output for a has no function_call before it
    """
    called: set[str] = set()
    answered: set[str] = set()
    for i, item in enumerate(items):
        kind = item.get("type")
        if kind == "reasoning" and (i + 1 == len(items) or not _from_model(items[i + 1])):
            return f"reasoning item {item.get('id', '?')} has no item after it"
        if kind == "function_call":
            called.add(item.get("call_id", ""))
        elif kind == "function_call_output":
            if item.get("call_id") not in called:
                return f"the output for {item.get('call_id')} has no function_call before it"
            answered.add(item["call_id"])
    missing = sorted(called - answered)
    return f"no output for function call {missing[0]}" if missing else None


def item_line(number: int, turn: list[Item], one_line: Any = str) -> str:
    """A Responses turn in ``context.step_line``'s shape, for the summariser (reasoning left out).

    >>> item_line(2, [{"type": "function_call", "call_id": "a", "name": "price",
    ...                "arguments": '{"item": "pen"}'},
    ...               {"type": "function_call_output", "call_id": "a", "output": "A pen costs 2."}])
    'Step 2: price[{"item": "pen"}] -> ok: A pen costs 2.'
    """
    outputs = {i.get("call_id"): i.get("output", "") for i in turn if i.get("type") == "function_call_output"}
    lines = []
    for item in turn:
        if item.get("type") == "function_call":
            result = one_line(outputs.get(item.get("call_id"), "(no result)"))
            call = f"{item.get('name')}[{one_line(item.get('arguments', ''))}]"
            lines.append(f"Step {number}: {call} -> ok: {result}")
        elif item.get("role") == "assistant" and item.get("content"):
            lines.append(f"Step {number}: (assistant said) -> ok: {one_line(_text(item['content']))}")
    return "\n".join(lines)


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    return " ".join(part.get("text", "") for part in content if isinstance(part, dict))
