"""What both served protocols share: errors in the API's shape, ids, token counts,
the request's checks, and the constraints a real API puts around a model's turn.

A real API does not let a model break the request's rules: ``tool_choice="none"``
gets no calls, ``parallel_tool_calls=False`` at most one, a stop sequence ends
the text, an output limit cuts it, a JSON schema shapes it (``json_answers``). ``constrain`` does
that to a scripted turn, so the scripted model behaves like the API around it.

What it leaves out: JSON Schema validation (a schema only shapes the answer).
"""

from __future__ import annotations

import hashlib
import itertools
import json
import re
import threading
from dataclasses import dataclass, replace
from typing import Any

from ..record import ToolCall
from ..stops import cut_at_stop
from ..tokens import estimate_tokens
from .json_answers import as_json
from .models import Call, ChatTurn

try:  # another part of the course may add a real tokenizer
    from ..tokens import count_tokens as _count
except ImportError:  # pragma: no cover - depends on the tokens module's version
    _count = estimate_tokens


EXACT_UP_TO = 100_000  # characters; longer texts are estimated
_LONG_RUN = re.compile(r"\S{80,}")  # byte-pair encoding slows down with the square of a word's length


def count(text: str) -> int:
    """Tokens in ``text``, by the course's tokenizer; estimated for a very long text or word,
    so that a hostile request cannot keep the server busy for minutes.

    >>> count("") == 0 and count("Paris") >= 1
    True
    >>> count("x" * 1_000_000) > 100_000
    True
    """
    if not text:
        return 0
    if len(text) > EXACT_UP_TO or _LONG_RUN.search(text):
        return estimate_tokens(text)
    return _count(text)


class APIError(Exception):
    """An error the server answers in the API's shape: ``{"error": {...}}`` and an HTTP status."""

    def __init__(self, status: int, message: str, param: str | None = None, code: str | None = None,
                 kind: str = "invalid_request_error") -> None:
        super().__init__(message)
        self.status, self.message, self.param, self.code, self.kind = status, message, param, code, kind

    def body(self) -> dict[str, Any]:
        return {"error": {"message": self.message, "type": self.kind, "param": self.param,
                          "code": self.code}}


def missing(param: str) -> APIError:
    return APIError(400, f"Missing required parameter: '{param}'.", param, "missing_required_parameter")


def unknown(param: str) -> APIError:
    return APIError(400, f"Unknown parameter: '{param}'.", param, "unknown_parameter")


_JSON_TYPES = {dict: "an object", list: "an array", str: "a string", bool: "a boolean",
               int: "an integer", float: "a number", type(None): "null"}


def wrong_type(param: str, expected: str, value: Any) -> APIError:
    """The API's error for a value of the wrong JSON type.

    >>> wrong_type("messages", "an array", "hi").message
    "Invalid type for 'messages': expected an array, but got a string instead."
    """
    got = _JSON_TYPES.get(type(value), "a value")
    return APIError(400, f"Invalid type for '{param}': expected {expected}, but got {got} instead.",
                    param, "invalid_type")


def field_of(obj: dict, key: str, kinds: type | tuple[type, ...], where: str, *, required: bool = False,
             default: Any = None) -> Any:
    """``obj[key]`` checked against JSON types; ``where`` names ``obj`` in the error."""
    param = f"{where}.{key}" if where else key
    if key not in obj or (obj[key] is None and not required):
        if required:
            raise missing(param)
        return default
    value = obj[key]
    kinds = kinds if isinstance(kinds, tuple) else (kinds,)
    if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
        expected = " or ".join(_JSON_TYPES.get(k, k.__name__) for k in kinds)
        raise wrong_type(param, expected, value)
    return value


TEXT_PARTS = ("text", "input_text", "output_text")


def check_content(content: Any, where: str) -> None:
    """A message's content: a string, or a list of parts whose text parts carry a string."""
    if not isinstance(content, list):
        return
    for i, part in enumerate(content):
        at = f"{where}[{i}]"
        if not isinstance(part, dict):
            raise wrong_type(at, "an object", part)
        if field_of(part, "type", str, at, required=True) in TEXT_PARTS:
            field_of(part, "text", str, at, required=True)


def check_parameters(schema: Any, where: str) -> dict:
    """A tool's parameters: a JSON schema object whose properties are schemas (None: no parameters)."""
    if schema is None:
        return {}
    if not isinstance(schema, dict):
        raise wrong_type(where, "an object", schema)
    properties = field_of(schema, "properties", dict, where, default={})
    for name, value in properties.items():
        if not isinstance(value, dict):
            raise APIError(400, f"Invalid schema for function: In context=('properties', '{name}'), "
                           f"schema must be a JSON Schema object, got {json.dumps(value)}.", where,
                           "invalid_function_parameters")
    for i, name in enumerate(field_of(schema, "required", list, where, default=[])):
        if not isinstance(name, str):
            raise wrong_type(f"{where}.required[{i}]", "a string", name)
    return schema


class Ids:
    """Ids in each API's format, deterministic per server (so notebooks repeat)."""

    def __init__(self) -> None:
        self._counter = itertools.count(1)
        self._lock = threading.Lock()

    def new(self, prefix: str, sep: str = "_") -> str:
        """``call_...``, ``chatcmpl-...``: a prefix and 24 hex characters.

        >>> Ids().new("call")
        'call_6b86b273ff34fce19d6b804e'
        """
        with self._lock:
            n = next(self._counter)
        return f"{prefix}{sep}{hashlib.sha256(str(n).encode()).hexdigest()[:24]}"


@dataclass(frozen=True)
class Limits:
    """The request's constraints on a turn, in one protocol-free shape."""

    tools: tuple[str, ...] = ()
    tool_choice: str = "auto"  # "auto", "none", "required", or a tool's name
    parallel: bool = True
    stop: tuple[str, ...] = ()
    max_tokens: int | None = None
    schema: dict | None = None  # a JSON schema for the answer; {} for any JSON object


DROPPED = "(The scripted turn held only tool calls, which this request does not allow.)"


@dataclass(frozen=True)
class Shaped:
    turn: ChatTurn
    truncated: bool = False  # the output limit cut the turn
    stopped: bool = False  # a stop sequence cut the text


def constrain(turn: ChatTurn, limits: Limits) -> Shaped:
    """Apply the request's rules to a scripted turn, as the API applies them to a model."""
    calls = turn.calls if limits.tools else ()
    if limits.tool_choice == "none":
        calls = ()
    elif limits.tool_choice not in ("auto", "required"):
        calls = tuple(c for c in calls if c.name == limits.tool_choice)
    if limits.tool_choice != "auto" and limits.tool_choice != "none" and not calls:
        raise APIError(500, f"The scripted model's turn has no call that tool_choice "
                       f"{limits.tool_choice!r} requires; script a tool call for this request.",
                       None, "scripted_model_error", "server_error")
    if not limits.parallel:
        calls = calls[:1]
    text = turn.text
    if turn.calls and not calls and not text:
        text = DROPPED
    if limits.schema is not None and not calls:
        text = as_json(text, limits.schema)
    cut = cut_at_stop(text, list(limits.stop)) if limits.stop else text
    shaped = replace(turn, text=cut, calls=calls)
    if limits.max_tokens is not None:
        return _limit(shaped, limits.max_tokens, stopped=cut != text)
    return Shaped(shaped, stopped=cut != text)


def _limit(turn: ChatTurn, budget: int, stopped: bool) -> Shaped:
    """Cut the turn at ``budget`` output tokens: reasoning first, then text, then calls."""
    if output_tokens(turn) <= budget:
        return Shaped(turn, stopped=stopped)
    reasoning = prefix(turn.reasoning, budget)
    budget -= count(reasoning)
    text = prefix(turn.text, budget)
    budget -= count(text)
    calls: list[ToolCall] = []
    for call in turn.calls:
        cost = count(call.name) + count(call.arguments_json)
        if budget <= 0:
            break
        if cost > budget:  # a call cut mid-arguments: its JSON is broken, as a real API's would be
            calls.append(Call(call.name, prefix(call.arguments_json, budget - count(call.name))))
            break
        calls.append(call)
        budget -= cost
    return Shaped(ChatTurn(text, tuple(calls), reasoning), truncated=True)


def prefix(text: str, tokens: int) -> str:
    """The longest start of ``text`` that is at most ``tokens`` tokens.

    >>> prefix("one two three four", 2)
    'one two'
    """
    if tokens <= 0:
        return ""
    low, high = 0, len(text)
    while low < high:
        mid = (low + high + 1) // 2
        if count(text[:mid]) <= tokens:
            low = mid
        else:
            high = mid - 1
    return text[:low].rstrip() if low < len(text) else text


def output_tokens(turn: ChatTurn) -> int:
    return (count(turn.reasoning) + count(turn.text)
            + sum(count(c.name) + count(c.arguments_json) for c in turn.calls))


def input_tokens(messages: list[dict], tools: list[dict]) -> int:
    """What the prompt costs: each message's text plus a few tokens of framing, and the tools."""
    total = 3
    for m in messages:
        total += 4 + count(_flat(m.get("content")))
        for tc in m.get("tool_calls") or ():
            function = tc.get("function") or {}
            total += count(str(function.get("name", ""))) + count(str(function.get("arguments", "")))
    return total + sum(count(json.dumps(t, ensure_ascii=False)) for t in tools)


def _flat(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return " ".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
    return ""
