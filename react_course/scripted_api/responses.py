"""The Responses protocol (``POST /v1/responses``) for the scripted server.

A Responses conversation is a list of *items*: messages, ``function_call``
items (the model's tool calls, each with a ``call_id``), ``function_call_output``
items (the program's results, linked by that ``call_id``) and ``reasoning``
items (the model's hidden thinking). As the real API does when it keeps no
state (``store=false``), the server answers 400 when a request passes back a
``function_call`` item, with the item id it was given, without the reasoning
item that came before it: a loop that drops reasoning items between calls fails
loudly here, not subtly later. (A call sent back without its ``fc_`` id cannot be
linked to any reasoning, so nothing is demanded, as the API demands nothing.)
Streamed, a reasoning item's summary arrives as the API sends it, part by part
(``response.reasoning_summary_part.*`` and ``response.reasoning_summary_text.*``).
``previous_response_id`` continues from a response the server kept in memory.
The input items are checked and read in ``responses_input``.

What it leaves out (refused by name, see ``params.py``): built-in tools (web
search, files), background mode, conversations, stored prompts, log
probabilities; and encrypted reasoning that means anything.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any

from .chat import allowed_tools
from .chat_request import ChatRequest
from .params import check_request
from .responses_input import check_links, read_input, to_messages
from .wire import (
    APIError,
    Limits,
    Shaped,
    check_parameters,
    constrain,
    count,
    field_of,
    input_tokens,
    output_tokens,
    wrong_type,
)

KEPT_RESPONSES = 2000  # responses kept in memory for previous_response_id


def create_response(body: dict[str, Any], server: Any) -> dict[str, Any] | Iterator[dict[str, Any]]:
    """Answer one request: the response object, or an iterator of stream events."""
    server.check_supported(body)
    check_request(body, "responses")
    field_of(body, "model", str, "", required=True)
    items = history(body, server) + read_input(body)
    check_links(items, server)
    tools = [read_tool(t, f"tools[{i}]") for i, t in enumerate(field_of(body, "tools", list, "") or [])]
    choice, allowed = read_choice(body, tools)
    offered = [t for t in tools if t["name"] in allowed]
    request = ChatRequest("responses", to_messages(body, items), offered, choice,
                          field_of(body, "parallel_tool_calls", bool, "", default=True), body)
    limits = Limits(tuple(t["name"] for t in offered), request.tool_choice, request.parallel_tool_calls,
                    (), read_max_tokens(body), read_format(body))
    shaped = constrain(server.answer(request), limits)
    response = build(shaped, request, items, server)
    if body.get("stream"):
        from .responses_stream import events

        return events(response)
    return response


def retrieve(response_id: str, server: Any) -> dict[str, Any]:
    with server.lock:
        kept = server.responses.get(response_id)
    if kept is None:
        raise APIError(404, f"Response with id '{response_id}' not found.", "response_id", None)
    return kept["response"]


def history(body: dict, server: Any) -> list[dict[str, Any]]:
    """The items of the conversation so far, when the request continues a kept response."""
    previous = field_of(body, "previous_response_id", str, "")
    if previous is None:
        return []
    with server.lock:
        kept = server.responses.get(previous)
    if kept is None:
        raise APIError(404, f"Previous response with id '{previous}' not found.", "previous_response_id",
                       "previous_response_not_found")
    return list(kept["items"])


def read_tool(tool: Any, where: str) -> dict[str, Any]:
    """A function tool, with ``name`` and ``parameters`` at the top level (not under ``function``)."""
    if not isinstance(tool, dict):
        raise wrong_type(where, "an object", tool)
    kind = field_of(tool, "type", str, where, required=True)
    if kind != "function":
        raise APIError(400, f"Invalid value: '{kind}'. The scripted server supports 'function' tools only.",
                       f"{where}.type", "invalid_value")
    name = field_of(tool, "name", str, where, required=True)
    if not re.match(r"^[A-Za-z0-9_-]{1,64}$", name):
        raise APIError(400, f"Invalid '{where}.name': string does not match pattern. Expected a string "
                       "that matches the pattern '^[a-zA-Z0-9_-]+$'.", f"{where}.name", "invalid_value")
    return {"name": name, "description": field_of(tool, "description", str, where, default=""),
            "parameters": check_parameters(tool.get("parameters"), f"{where}.parameters")}


def read_choice(body: dict, tools: list[dict]) -> tuple[str, set[str]]:
    """``tool_choice`` as "auto", "none", "required" or the forced tool's name, and the tools it allows."""
    every = {t["name"] for t in tools}
    choice = field_of(body, "tool_choice", (str, dict), "")
    if choice is None or choice == "auto":
        return "auto", every
    if isinstance(choice, str):
        if choice not in ("none", "required"):
            raise APIError(400, f"Invalid value: '{choice}'. Supported values are: 'none', 'auto', and "
                           "'required'.", "tool_choice", "invalid_value")
        return choice, every
    kind = field_of(choice, "type", str, "tool_choice", default="function")
    if kind == "allowed_tools":
        return allowed_tools(choice, every, "tool_choice", lambda tool: tool)
    if kind != "function":
        raise APIError(400, f"Invalid value: '{kind}'. The scripted server supports 'function' and "
                       "'allowed_tools' tool choices only.", "tool_choice.type", "invalid_value")
    name = field_of(choice, "name", str, "tool_choice", required=True)
    if name not in every:
        raise APIError(400, f"Tool choice '{name}' not found in 'tools' parameter.", "tool_choice")
    return name, every


def read_max_tokens(body: dict) -> int | None:
    limit = field_of(body, "max_output_tokens", int, "")
    if limit is not None and limit < 16:
        raise APIError(400, f"Invalid 'max_output_tokens': integer below minimum value. Expected a value "
                       f">= 16, but got {limit} instead.", "max_output_tokens", "integer_below_min_value")
    temperature = field_of(body, "temperature", (int, float), "")
    if temperature is not None and not 0 <= temperature <= 2:
        raise APIError(400, f"Invalid 'temperature': expected a value from 0 to 2, got {temperature}.",
                       "temperature", "invalid_value")
    for key in ("stream", "store", "background"):
        field_of(body, key, bool, "")
    if field_of(body, "stream_options", dict, "") is not None and not body.get("stream"):
        raise APIError(400, "The 'stream_options' parameter is only allowed when 'stream' is enabled.",
                       "stream_options")
    return limit


def read_format(body: dict) -> dict | None:
    text = field_of(body, "text", dict, "") or {}
    fmt = field_of(text, "format", dict, "text")
    if fmt is None:
        return None
    kind = field_of(fmt, "type", str, "text.format", required=True)
    if kind == "json_schema":
        field_of(fmt, "name", str, "text.format", required=True)
        return field_of(fmt, "schema", dict, "text.format", required=True)
    return {} if kind == "json_object" else None


def build(shaped: Shaped, request: ChatRequest, items: list[dict], server: Any) -> dict[str, Any]:
    """The response object; kept in memory (unless ``store`` is false) for ``previous_response_id``."""
    turn, body = shaped.turn, request.body
    output = output_items(shaped, body, server)
    prompt, out = input_tokens(request.messages, request.tools), output_tokens(turn)
    response = {
        "id": server.ids.new("resp"), "object": "response", "created_at": int(time.time()),
        "status": "incomplete" if shaped.truncated else "completed", "error": None,
        "incomplete_details": {"reason": "max_output_tokens"} if shaped.truncated else None,
        "instructions": body.get("instructions"), "max_output_tokens": body.get("max_output_tokens"),
        "model": body["model"], "output": output, "parallel_tool_calls": request.parallel_tool_calls,
        "previous_response_id": body.get("previous_response_id"), "store": body.get("store", True),
        "temperature": body.get("temperature", 1.0), "top_p": body.get("top_p", 1.0),
        "text": body.get("text") or {"format": {"type": "text"}},
        "tool_choice": body.get("tool_choice", "auto"), "tools": body.get("tools") or [],
        "metadata": body.get("metadata") or {}, **echoed(body),
        "usage": {"input_tokens": prompt, "input_tokens_details": {"cached_tokens": 0},
                  "output_tokens": out, "output_tokens_details": {"reasoning_tokens": count(turn.reasoning)},
                  "total_tokens": prompt + out},
    }
    if body.get("store", True) is not False:
        kept = list(items) + [{k: v for k, v in o.items() if k != "status"} for o in output]
        with server.lock:
            server.responses[response["id"]] = {"items": kept, "response": response}
            while len(server.responses) > KEPT_RESPONSES:  # a long workshop: forget the oldest
                server.responses.pop(next(iter(server.responses)))
    return response


ECHOED = {"truncation": "disabled", "service_tier": "default", "user": None, "safety_identifier": None,
          "prompt_cache_key": None, "prompt_cache_retention": None, "max_tool_calls": None,
          "top_logprobs": 0, "background": False}


def echoed(body: dict) -> dict[str, Any]:
    """The settings a response repeats, as they were sent (the API's defaults where none was).

    >>> echoed({"reasoning": {"effort": "low"}, "truncation": "auto"})["reasoning"]
    {'effort': 'low', 'summary': None}
    """
    sent = {key: body[key] if body.get(key) is not None else default for key, default in ECHOED.items()}
    reasoning = body.get("reasoning") if isinstance(body.get("reasoning"), dict) else {}
    return {**sent, "reasoning": {"effort": reasoning.get("effort"), "summary": reasoning.get("summary")}}


def output_items(shaped: Shaped, body: dict, server: Any) -> list[dict[str, Any]]:
    """A reasoning item (before any call), the message, then one ``function_call`` item per call."""
    turn, ids = shaped.turn, server.ids
    output: list[dict[str, Any]] = []
    reasoning_id = None
    if turn.calls or turn.reasoning:
        reasoning_id = ids.new("rs")
        summary = [{"type": "summary_text", "text": turn.reasoning}] if turn.reasoning else []
        output.append({"id": reasoning_id, "type": "reasoning", "summary": summary})
        if "reasoning.encrypted_content" in (body.get("include") or ()):
            output[-1]["encrypted_content"] = "scripted:" + reasoning_id
    if turn.text:
        output.append({"id": ids.new("msg"), "type": "message", "role": "assistant", "status": "completed",
                       "content": [{"type": "output_text", "text": turn.text, "annotations": [],
                                    "logprobs": []}]})
    for call in turn.calls:
        call_id = ids.new("call")
        output.append({"id": ids.new("fc"), "type": "function_call", "call_id": call_id, "name": call.name,
                       "arguments": call.arguments_json, "status": "completed"})
        with server.lock:
            server.reasoning_of[output[-1]["id"]] = reasoning_id
            while len(server.reasoning_of) > 20 * KEPT_RESPONSES:
                server.reasoning_of.pop(next(iter(server.reasoning_of)))
    return output
