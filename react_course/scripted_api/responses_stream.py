"""A Responses answer as the API streams it: server-sent events, in the API's order.

Each event has a ``type`` and a ``sequence_number``. The response is created and
in progress; then each output item is added, filled in pieces (a message's text,
a call's arguments, a reasoning item's summary parts) and done; then the
response is completed (or incomplete, when the output limit cut it). Clients
rebuild items from these events: pydantic-ai rebuilds a reasoning item from its
``response.reasoning_summary_*`` events, so they must all be there.

What it leaves out: obfuscation padding, and the events of built-in tools.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any


def events(response: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """The response as Responses stream events, each with its ``type`` and ``sequence_number``."""
    number = iter(range(1_000_000))
    start = {**response, "status": "in_progress", "output": [], "usage": None}
    yield {"type": "response.created", "sequence_number": next(number), "response": start}
    yield {"type": "response.in_progress", "sequence_number": next(number), "response": start}
    for index, item in enumerate(response["output"]):
        for event in item_events(index, item):
            yield {**event, "sequence_number": next(number)}
    final = "response.incomplete" if response["status"] == "incomplete" else "response.completed"
    yield {"type": final, "sequence_number": next(number), "response": response}


def item_events(index: int, item: dict[str, Any]) -> Iterator[dict[str, Any]]:
    where = {"output_index": index, "item_id": item["id"]}
    if item["type"] == "message":
        text = item["content"][0]["text"]
        yield {"type": "response.output_item.added", "output_index": index,
               "item": {**item, "status": "in_progress", "content": []}}
        part = {"type": "output_text", "text": "", "annotations": [], "logprobs": []}
        yield {"type": "response.content_part.added", **where, "content_index": 0, "part": part}
        for piece in re.findall(r"\s*\S+", text):
            yield {"type": "response.output_text.delta", **where, "content_index": 0, "delta": piece,
                   "logprobs": []}
        yield {"type": "response.output_text.done", **where, "content_index": 0, "text": text, "logprobs": []}
        yield {"type": "response.content_part.done", **where, "content_index": 0, "part": item["content"][0]}
    elif item["type"] == "function_call":
        yield {"type": "response.output_item.added", "output_index": index,
               "item": {**item, "arguments": "", "status": "in_progress"}}
        for piece in re.findall(r".{1,12}", item["arguments"], re.DOTALL):
            yield {"type": "response.function_call_arguments.delta", **where, "delta": piece}
        yield {"type": "response.function_call_arguments.done", **where, "arguments": item["arguments"],
               "name": item["name"]}
    else:
        yield from reasoning_events(index, item)
    yield {"type": "response.output_item.done", "output_index": index, "item": item}


def reasoning_events(index: int, item: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """A reasoning item as the API streams it: added empty, then each summary part in pieces."""
    where = {"output_index": index, "item_id": item["id"]}
    yield {"type": "response.output_item.added", "output_index": index, "item": {**item, "summary": []}}
    for number, part in enumerate(item.get("summary") or ()):
        at = {**where, "summary_index": number}
        yield {"type": "response.reasoning_summary_part.added", **at, "part": {**part, "text": ""}}
        for piece in re.findall(r"\s*\S+", part["text"]):
            yield {"type": "response.reasoning_summary_text.delta", **at, "delta": piece}
        yield {"type": "response.reasoning_summary_text.done", **at, "text": part["text"]}
        yield {"type": "response.reasoning_summary_part.done", **at, "part": part}
