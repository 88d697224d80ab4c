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

from ..transcript import broken_link

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


# Chat Completions and Responses alike: the turns compression keeps or replaces whole.

Turns = list[list[dict[str, Any]]]


def split_turns(messages: Sequence[dict[str, Any]], keep_last: int
                ) -> tuple[list[dict[str, Any]], Turns, Turns] | None:
    """(the head, the turns a summary replaces, the last ``keep_last`` turns), or None: nothing to summarise.

    The head is every message up to and including the first user message (the
    question). A conversation with no user message has no question to keep, and one
    with ``keep_last`` turns or fewer after it nothing to replace: both give None.

    >>> head, old, kept = split_turns([{"role": "system", "content": "s"}, {"role": "user", "content": "q"},
    ...     {"role": "assistant", "content": "a"}, {"role": "assistant", "content": "b"}], keep_last=1)
    >>> len(head), old, kept
    (2, [[{'role': 'assistant', 'content': 'a'}]], [[{'role': 'assistant', 'content': 'b'}]])
    >>> split_turns([{"role": "system", "content": "s"}, {"role": "assistant", "content": "a"}], 0) is None
    True
    """
    head_end = next((i + 1 for i, m in enumerate(messages) if m.get("role") == "user"), None)
    if head_end is None:
        return None
    turns = tool_turns(messages[head_end:])
    if len(turns) <= keep_last:
        return None
    split = len(turns) - keep_last  # the turns before it are summarised, the rest kept as they are
    return list(messages[:head_end]), turns[:split], turns[split:]


def tool_turns(messages: Sequence[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """Group messages into turns: an assistant message with tool calls takes its tool results along.

    >>> turns = tool_turns([{"role": "assistant", "tool_calls": [{"id": "a"}]},
    ...                     {"role": "tool", "tool_call_id": "a", "content": "4"},
    ...                     {"role": "assistant", "content": "It costs 4."}])
    >>> [len(t) for t in turns]
    [2, 1]
    """
    if is_responses(messages):
        return item_turns(messages)
    turns: list[list[dict[str, Any]]] = []
    for message in messages:
        if message.get("role") == "tool" and turns and turns[-1][0].get("tool_calls"):
            turns[-1].append(message)
        else:
            turns.append([message])
    return turns


def tool_pairs_intact(messages: Sequence[dict[str, Any]]) -> bool:
    """True when every tool call has its result right after it and every result has its call.

    >>> tool_pairs_intact([{"role": "tool", "tool_call_id": "a", "content": "4"}])
    False
    """
    return (items_intact(messages) if is_responses(messages) else broken_link(messages)) is None
