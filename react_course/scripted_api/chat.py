"""The Chat Completions protocol (``POST /v1/chat/completions``) for the scripted server.

Checks a request as the API does (and answers its errors in the API's shape),
turns it into a ``ChatRequest`` for the scripted model, shapes the model's turn
with the request's constraints, and returns a ``chat.completion`` object or,
with ``stream=True``, the ``chat.completion.chunk`` events.

Which parameters it uses, ignores or refuses is in ``params.py``. What it leaves
out: ``n`` above 1, log probabilities, audio, web search and images (each refused
by name), and the deprecated ``functions``.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any

from ..transcript import broken_link
from .chat_request import ChatRequest, content_text
from .params import check_request
from .wire import (
    APIError,
    Limits,
    Shaped,
    check_content,
    check_parameters,
    constrain,
    count,
    field_of,
    input_tokens,
    output_tokens,
    wrong_type,
)

ROLES = ("system", "developer", "user", "assistant", "tool")
_NAME = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


def chat_completion(body: dict[str, Any], server: Any) -> dict[str, Any] | Iterator[dict[str, Any]]:
    """Answer one request: the completion object, or an iterator of stream chunks."""
    server.check_supported(body)
    request, limits = read_request(body)
    shaped = constrain(server.answer(request), limits)
    completion = build(shaped, request, body["model"], server)
    if body.get("stream"):
        options = body.get("stream_options") or {}
        return chunks(completion, include_usage=bool(options.get("include_usage")))
    return completion


def read_request(body: dict[str, Any]) -> tuple[ChatRequest, Limits]:
    """Check the body as the API does; the model's view of it and the turn's constraints."""
    check_request(body, "chat")
    field_of(body, "model", str, "", required=True)
    messages = field_of(body, "messages", list, "", required=True)
    if not messages:
        raise APIError(400, "Invalid 'messages': empty array. Expected an array with minimum length 1, "
                       "but got an empty array instead.", "messages", "empty_array")
    for i, message in enumerate(messages):
        check_message(message, f"messages[{i}]")
    check_links(messages)
    tools = [read_tool(t, f"tools[{i}]") for i, t in enumerate(field_of(body, "tools", list, "") or [])]
    choice, allowed = read_choice(body, tools)
    parallel = field_of(body, "parallel_tool_calls", bool, "", default=True)
    check_pairs(body)
    fmt = read_format(body)
    if fmt == {} and "json" not in " ".join(content_text(m.get("content")) for m in messages).lower():
        raise APIError(400, "'messages' must contain the word 'json' in some form, to use "
                       "'response_format' of type 'json_object'.", "messages")
    offered = [t for t in tools if t["name"] in allowed]
    request = ChatRequest("chat", messages, offered, choice, parallel, body)
    return request, Limits(tuple(t["name"] for t in offered), choice, parallel, read_stop(body),
                           read_max_tokens(body), fmt)


def check_pairs(body: dict[str, Any]) -> None:
    """Parameters that only mean something beside another, refused alone as the API refuses them."""
    for key in ("stream", "logprobs", "store"):
        field_of(body, key, bool, "")
    field_of(body, "n", int, "")
    options = field_of(body, "stream_options", dict, "")
    if options is not None and not body.get("stream"):
        raise APIError(400, "The 'stream_options' parameter is only allowed when 'stream' is enabled.",
                       "stream_options")
    metadata = field_of(body, "metadata", dict, "")
    if metadata and not body.get("store"):
        raise APIError(400, "The 'metadata' parameter is only allowed when 'store' is enabled.", "metadata")


def check_message(message: Any, where: str) -> None:
    if not isinstance(message, dict):
        raise wrong_type(where, "an object", message)
    role = field_of(message, "role", str, where, required=True)
    if role not in ROLES:
        raise APIError(400, f"Invalid value: '{role}'. Supported values are: " + ", ".join(
            f"'{r}'" for r in ROLES) + ".", f"{where}.role", "invalid_value")
    content = field_of(message, "content", (str, list), where,
                       required=role in ("user", "system", "developer"))
    check_content(content, f"{where}.content")
    if role == "tool":
        field_of(message, "tool_call_id", str, where, required=True)
    for j, call in enumerate(field_of(message, "tool_calls", list, where) or []):
        at = f"{where}.tool_calls[{j}]"
        if not isinstance(call, dict):
            raise wrong_type(at, "an object", call)
        field_of(call, "id", str, at, required=True)
        function = field_of(call, "function", dict, at, required=True)
        field_of(function, "name", str, f"{at}.function", required=True)
        field_of(function, "arguments", str, f"{at}.function", required=True)


def check_links(messages: list[dict]) -> None:
    """Every tool message answers a call of the assistant message before it, and every call is
    answered (``transcript.broken_link`` states the rule); a break is the API's 400."""
    broken = broken_link(messages)
    if broken is None:
        return
    if broken.stray is not None:
        raise APIError(400, f"Invalid parameter: messages with role 'tool' must be a response to "
                       f"a preceding message with 'tool_calls' (tool_call_id '{broken.stray}' answers "
                       "no call).", f"messages[{broken.index}].role")
    raise APIError(400, "An assistant message with 'tool_calls' must be followed by tool messages "
                   "responding to each 'tool_call_id'. The following tool_call_ids did not have "
                   f"response messages: {', '.join(broken.unanswered)}", f"messages[{broken.index}].role")


def read_tool(tool: Any, where: str) -> dict[str, Any]:
    if not isinstance(tool, dict):
        raise wrong_type(where, "an object", tool)
    kind = field_of(tool, "type", str, where, required=True)
    if kind != "function":
        raise APIError(400, f"Invalid value: '{kind}'. Supported values are: 'function'.",
                       f"{where}.type", "invalid_value")
    function = field_of(tool, "function", dict, where, required=True)
    name = field_of(function, "name", str, f"{where}.function", required=True)
    if not _NAME.match(name):
        raise APIError(400, f"Invalid '{where}.function.name': string does not match pattern. Expected a "
                       "string that matches the pattern '^[a-zA-Z0-9_-]+$'.", f"{where}.function.name",
                       "invalid_value")
    return {"name": name, "description": field_of(function, "description", str, f"{where}.function",
                                                  default=""),
            "parameters": check_parameters(function.get("parameters"),
                                           f"{where}.function.parameters")}


def read_choice(body: dict, tools: list[dict]) -> tuple[str, set[str]]:
    """``tool_choice`` as "auto", "none", "required" or the forced tool's name, and the tools it allows."""
    every = {t["name"] for t in tools}
    choice = field_of(body, "tool_choice", (str, dict), "")
    if choice is None:
        return "auto", every
    if not tools:
        raise APIError(400, "Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' "
                       "are specified.", "tool_choice")
    if isinstance(choice, str):
        if choice not in ("auto", "none", "required"):
            raise APIError(400, f"Invalid value: '{choice}'. Supported values are: 'none', 'auto', and "
                           "'required'.", "tool_choice", "invalid_value")
        return choice, every
    if choice.get("type") == "allowed_tools":
        spec = field_of(choice, "allowed_tools", dict, "tool_choice", required=True)
        return allowed_tools(spec, every, "tool_choice.allowed_tools", lambda t: (t.get("function") or {}))
    function = field_of(choice, "function", dict, "tool_choice", required=True)
    name = field_of(function, "name", str, "tool_choice.function", required=True)
    if name not in every:
        raise APIError(400, f"Invalid value for 'tool_choice': tool '{name}' is not in 'tools'.",
                       "tool_choice")
    return name, every


def allowed_tools(spec: dict, every: set[str], where: str, named: Any) -> tuple[str, set[str]]:
    """An ``allowed_tools`` choice: its mode, and the tools it keeps (``named(tool)`` holds a name)."""
    mode = field_of(spec, "mode", str, where, required=True)
    if mode not in ("auto", "required"):
        raise APIError(400, f"Invalid value: '{mode}'. Supported values are: 'auto' and 'required'.",
                       f"{where}.mode", "invalid_value")
    names = set()
    for i, tool in enumerate(field_of(spec, "tools", list, where, required=True)):
        name = named(tool).get("name") if isinstance(tool, dict) else None
        if name not in every:
            raise APIError(400, f"Invalid value for '{where}.tools[{i}]': it names no tool in 'tools'.",
                           f"{where}.tools[{i}]")
        names.add(name)
    return mode, names


def read_stop(body: dict) -> tuple[str, ...]:
    stop = field_of(body, "stop", (str, list), "")
    stops = [stop] if isinstance(stop, str) else list(stop or [])
    if len(stops) > 4:
        raise APIError(400, "Invalid 'stop': array too long. Expected an array with maximum length 4, "
                       f"but got an array with length {len(stops)} instead.", "stop",
                       "array_above_max_length")
    for i, s in enumerate(stops):
        if not isinstance(s, str):
            raise wrong_type(f"stop[{i}]", "a string", s)
    return tuple(s for s in stops if s)


def read_max_tokens(body: dict) -> int | None:
    limits = [field_of(body, k, int, "") for k in ("max_completion_tokens", "max_tokens")]
    for key, value in zip(("max_completion_tokens", "max_tokens"), limits, strict=True):
        if value is not None and value < 1:
            raise APIError(400, f"Invalid '{key}': integer below minimum value. Expected a value >= 1, "
                           f"but got {value} instead.", key, "integer_below_min_value")
    temperature = field_of(body, "temperature", (int, float), "")
    if temperature is not None and not 0 <= temperature <= 2:
        raise APIError(400, f"Invalid 'temperature': expected a value from 0 to 2, got {temperature}.",
                       "temperature", "invalid_value")
    return next((v for v in limits if v is not None), None)


def read_format(body: dict) -> dict | None:
    """The JSON schema the answer must follow ({} for any JSON object), or None for text."""
    fmt = field_of(body, "response_format", dict, "")
    if fmt is None:
        return None
    kind = field_of(fmt, "type", str, "response_format", required=True)
    if kind == "text":
        return None
    if kind == "json_object":
        return {}
    if kind != "json_schema":
        raise APIError(400, f"Invalid value: '{kind}'. Supported values are: 'text', 'json_object' and "
                       "'json_schema'.", "response_format.type", "invalid_value")
    spec = field_of(fmt, "json_schema", dict, "response_format", required=True)
    field_of(spec, "name", str, "response_format.json_schema", required=True)
    return field_of(spec, "schema", dict, "response_format.json_schema", default={}) or {}


def build(shaped: Shaped, request: ChatRequest, model: str, server: Any) -> dict[str, Any]:
    turn = shaped.turn
    message: dict[str, Any] = {"role": "assistant", "content": turn.text or None, "refusal": None,
                               "annotations": []}
    if turn.calls:
        message["tool_calls"] = [{"id": server.ids.new("call"), "type": "function",
                                  "function": {"name": c.name, "arguments": c.arguments_json}}
                                 for c in turn.calls]
    reason = "length" if shaped.truncated else "tool_calls" if turn.calls else "stop"
    prompt, output = input_tokens(request.messages, request.tools), output_tokens(turn)
    usage = {"prompt_tokens": prompt, "completion_tokens": output, "total_tokens": prompt + output,
             "prompt_tokens_details": {"cached_tokens": 0},
             "completion_tokens_details": {"reasoning_tokens": count(turn.reasoning)}}
    return {"id": server.ids.new("chatcmpl", "-"), "object": "chat.completion", "created": int(time.time()),
            "model": model, "choices": [{"index": 0, "message": message, "logprobs": None,
                                         "finish_reason": reason}],
            "usage": usage, "system_fingerprint": "fp_scripted", "service_tier": "default"}


def chunks(completion: dict[str, Any], *, include_usage: bool) -> Iterator[dict[str, Any]]:
    """The completion as stream chunks: the role, the text in pieces, each call's name then its
    arguments in pieces, the finish reason, and (if asked) one last chunk with the usage."""
    head = {k: completion[k] for k in ("id", "created", "model", "system_fingerprint")}
    head["object"] = "chat.completion.chunk"
    choice = completion["choices"][0]
    message = choice["message"]

    if include_usage:  # as the API does: every chunk but the last says it carries no usage
        head["usage"] = None

    def chunk(delta: dict, finish: str | None = None) -> dict[str, Any]:
        return {**head, "choices": [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}]}

    yield chunk({"role": "assistant", "content": "", "refusal": None})
    for piece in re.findall(r"\s*\S+", message["content"] or ""):
        yield chunk({"content": piece})
    for index, call in enumerate(message.get("tool_calls") or ()):
        name = call["function"]["name"]
        yield chunk({"tool_calls": [{"index": index, "id": call["id"], "type": "function",
                                     "function": {"name": name, "arguments": ""}}]})
        for piece in re.findall(r".{1,12}", call["function"]["arguments"], re.DOTALL):
            yield chunk({"tool_calls": [{"index": index, "function": {"arguments": piece}}]})
    yield chunk({}, choice["finish_reason"])
    if include_usage:
        yield {**head, "choices": [], "usage": completion["usage"]}

