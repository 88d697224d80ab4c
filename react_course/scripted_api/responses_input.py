"""A Responses request's input items: checked, linked, and read as chat messages.

The items are the whole conversation (``store=false``) or its new part (after
``previous_response_id``). Each is checked as the API checks it, in the API's
words; then the links between them: every ``function_call_output`` answers a
call, every call has its output, and a call sent back with the ``fc_`` id the
server gave it brings back the reasoning item issued with it. Last, the items
become the Chat Completions-style messages a ``ChatRequest`` holds.

What it leaves out: item types other than messages, calls, outputs and reasoning
(the API has many more; they are refused by name).
"""

from __future__ import annotations

from typing import Any

from .chat_request import content_text
from .wire import APIError, check_content, field_of, wrong_type

ROLES = ("user", "assistant", "system", "developer")


def read_input(body: dict) -> list[dict[str, Any]]:
    given = field_of(body, "input", (str, list), "", required="previous_response_id" not in body)
    if given is None:
        return []
    if isinstance(given, str):
        return [{"type": "message", "role": "user", "content": given}]
    for i, item in enumerate(given):
        check_item(item, f"input[{i}]")
    return list(given)


def check_item(item: Any, where: str) -> None:
    if not isinstance(item, dict):
        raise wrong_type(where, "an object", item)
    kind = field_of(item, "type", str, where, required="role" not in item, default="message")
    if kind == "message":
        role = field_of(item, "role", str, where, required=True)
        if role not in ROLES:
            raise APIError(400, f"Invalid value: '{role}'. Supported values are: " + ", ".join(
                f"'{r}'" for r in ROLES) + ".", f"{where}.role", "invalid_value")
        check_content(field_of(item, "content", (str, list), where, required=True), f"{where}.content")
    elif kind == "function_call":
        for key in ("call_id", "name", "arguments"):
            field_of(item, key, str, where, required=True)
    elif kind == "function_call_output":
        field_of(item, "call_id", str, where, required=True)
        check_content(field_of(item, "output", (str, list), where, required=True), f"{where}.output")
    elif kind == "reasoning":
        field_of(item, "id", str, where, required=True)
        field_of(item, "summary", list, where, required=True)
    else:
        raise APIError(400, f"Invalid value: '{kind}'. Supported values are: 'message', 'function_call', "
                       "'function_call_output' and 'reasoning'.", f"{where}.type", "invalid_value")


def check_links(items: list[dict], server: Any) -> None:
    """Outputs answer known calls, calls have outputs, and calls sent back with their item id bring
    back the reasoning item that id was issued with."""
    calls = {i["call_id"]: i for i in items if i.get("type") == "function_call"}
    answered = {i["call_id"] for i in items if i.get("type") == "function_call_output"}
    reasoning = {i["id"] for i in items if i.get("type") == "reasoning"}
    for call_id in answered - set(calls):
        raise APIError(400, f"No tool call found for function call output with call_id {call_id}.", "input")
    for call_id, call in calls.items():
        if call_id not in answered:
            raise APIError(400, f"No tool output found for function call {call_id}.", "input")
        with server.lock:
            needed = server.reasoning_of.get(call.get("id") or "")
        if needed and needed not in reasoning:
            raise APIError(400, f"Item '{call['id']}' of type 'function_call' was provided "
                           f"without its required 'reasoning' item: '{needed}'.", "input")


def to_messages(body: dict, items: list[dict]) -> list[dict[str, Any]]:
    """The conversation as Chat Completions-style messages, for the model."""
    instructions = field_of(body, "instructions", str, "")
    messages: list[dict[str, Any]] = [{"role": "system", "content": instructions}] if instructions else []
    for item in items:
        kind = item.get("type", "message")
        if kind == "message":
            messages.append({"role": item["role"], "content": content_text(item["content"])})
        elif kind == "function_call":
            call = {"id": item["call_id"], "type": "function",
                    "function": {"name": item["name"], "arguments": item["arguments"]}}
            last = messages[-1] if messages else {}
            if last.get("role") == "assistant" and "tool_calls" in last:
                last["tool_calls"].append(call)
            else:
                messages.append({"role": "assistant", "content": None, "tool_calls": [call]})
        elif kind == "function_call_output":
            output = item["output"]
            messages.append({"role": "tool", "tool_call_id": item["call_id"],
                             "content": output if isinstance(output, str) else content_text(output)})
    return messages
