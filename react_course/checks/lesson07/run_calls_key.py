"""07.run_calls's answer key, and how one tool message's content is judged against it.

What a call gives with the sample tools (a result, or how it failed and what the key
says) decides three things: the key's messages, whether a student's message says what
went wrong, and which rule a case exercises. In a module of its own, so that the spec
(``run_calls.py``) stays near its examples, faults and rules.
"""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from ..predicates import mentions
from ..values import describe
from .bench import Bench

NAMES = ("unit_price", "slow_price", "charge", "email", "crash", "fail")


def outcome(call: dict, tools: dict) -> tuple[str, str]:
    """("ok", the result) or (how it failed, the message the key writes)."""
    name = call["name"]
    if name not in tools:
        return "unknown", f"Unknown tool {name!r}. Available tools: {', '.join(tools)}."
    try:
        values = json.loads(call["arguments"])
    except (ValueError, RecursionError) as error:  # deep nesting overflows the parser's stack
        return "json", f"The arguments are not valid JSON ({describe(error, 80)}). Send one JSON object."
    try:
        return "ok", str(tools[name](**values))
    except Exception as error:
        return type(error).__name__, f"{name} failed with {type(error).__name__}: {error}."


def key(calls: list[dict], tools: dict, side_effects: frozenset = frozenset()) -> list[dict]:
    """The answer key: parallel when every call is read-only, else one at a time, in order."""
    if any(call["name"] in side_effects for call in calls):
        texts = [outcome(call, tools)[1] for call in calls]
    else:
        with ThreadPoolExecutor() as pool:
            texts = [text for _, text in pool.map(lambda call: outcome(call, tools), calls)]
    return [{"role": "tool", "tool_call_id": c["id"], "content": t} for c, t in zip(calls, texts,
        strict=True)]


def content_problem(call: dict, text: Any, wanted: str) -> str:
    """What is wrong with one message's content ('' when it is right)."""
    kind, _ = outcome(call, Bench().tools())
    if not isinstance(text, str) or not text.strip():
        return "the content is non-empty text for the model to read"
    if kind == "ok":
        return "" if text == wanted else f"expected {wanted!r} (str of the result, whole), got {text!r}"
    needed = {"unknown": [call["name"], *NAMES], "json": ["json"]}.get(kind, [kind])
    if kind == "KeyError":
        needed.append(json.loads(call["arguments"])["item"])
    missing = [word for word in needed if not mentions(text, word)]
    return f"say what went wrong (mention {missing}); got {text!r}" if missing else ""


def call_kind(call: dict) -> str:
    """How a call goes with the sample tools: "ok", "unknown", "json", or the exception's type.

    >>> call_kind({"id": "c1", "name": "get_price", "arguments": "{}"})
    'unknown'
    """
    return outcome(call, Bench().tools())[0]
