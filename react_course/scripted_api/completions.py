"""The text completions protocol (``POST /v1/completions``) for the scripted server.

The oldest OpenAI protocol: a prompt goes in as plain text, a continuation
comes back. The course's ``openai-compatible-completions:`` setting speaks it,
for base models, and the text ReAct prompt is a completion prompt; served
here, the scripted chat model reads the prompt as one user message (the demo
model answers a ReAct prompt in the text format), and the server cuts the text
at the stop sequences and the output limit as the API does. The API's default
limit is 16 tokens, so a client that sends no ``max_tokens`` gets 16 here too.

What it leaves out (refused by name, see ``params.py``): ``n`` and ``best_of``
above 1, log probabilities, ``echo``, ``suffix``, and prompts given as tokens.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any

from .chat import read_stop
from .models import ChatRequest
from .params import check_request
from .wire import APIError, Limits, constrain, count, field_of, output_tokens

DEFAULT_MAX_TOKENS = 16  # the API's default for this protocol


def text_completion(body: dict[str, Any], server: Any) -> dict[str, Any] | Iterator[dict[str, Any]]:
    """Answer one request: the ``text_completion`` object, or an iterator of stream chunks."""
    server.check_supported(body)
    check_request(body, "completions")
    field_of(body, "model", str, "", required=True)
    prompt = read_prompt(body)
    limit = field_of(body, "max_tokens", int, "", default=DEFAULT_MAX_TOKENS)
    if limit < 0:
        raise APIError(400, f"Invalid 'max_tokens': integer below minimum value. Expected a value >= 0, "
                       f"but got {limit} instead.", "max_tokens", "integer_below_min_value")
    for key in ("stream", "echo"):
        field_of(body, key, bool, "")
    if field_of(body, "stream_options", dict, "") is not None and not body.get("stream"):
        raise APIError(400, "The 'stream_options' parameter is only allowed when 'stream' is enabled.",
                       "stream_options")
    request = ChatRequest("completions", [{"role": "user", "content": prompt}], body=body)
    shaped = constrain(server.answer(request), Limits(stop=read_stop(body), max_tokens=max(limit, 1)))
    text = shaped.turn.text if limit else ""
    prompt_tokens, output = count(prompt), output_tokens(shaped.turn) if limit else 0
    completion = {"id": server.ids.new("cmpl", "-"), "object": "text_completion", "created": int(time.time()),
                  "model": body["model"], "system_fingerprint": "fp_scripted",
                  "choices": [{"text": text, "index": 0, "logprobs": None,
                               "finish_reason": "length" if shaped.truncated or not limit else "stop"}],
                  "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": output,
                            "total_tokens": prompt_tokens + output}}
    if body.get("stream"):
        options = body.get("stream_options") or {}
        return chunks(completion, include_usage=bool(options.get("include_usage")))
    return completion


def read_prompt(body: dict[str, Any]) -> str:
    """The prompt as text: a string, or a list of exactly one string."""
    prompt = field_of(body, "prompt", (str, list), "", required=True)
    if isinstance(prompt, str):
        return prompt
    if len(prompt) == 1 and isinstance(prompt[0], str):
        return prompt[0]
    raise APIError(400, "The scripted model takes one prompt, as text: send 'prompt' as a string (a "
                   "list of prompts, or a prompt as tokens, is not supported).", "prompt",
                   "unsupported_parameter")


def chunks(completion: dict[str, Any], *, include_usage: bool) -> Iterator[dict[str, Any]]:
    """The completion in pieces, then its finish reason, then (if asked) the usage alone."""
    head = {k: completion[k] for k in ("id", "object", "created", "model", "system_fingerprint")}
    choice = completion["choices"][0]
    if include_usage:
        head["usage"] = None
    for piece in re.findall(r"\s*\S+|\s+$", choice["text"]):
        yield {**head, "choices": [{"text": piece, "index": 0, "logprobs": None, "finish_reason": None}]}
    yield {**head, "choices": [{"text": "", "index": 0, "logprobs": None,
                                "finish_reason": choice["finish_reason"]}]}
    if include_usage:
        yield {**head, "choices": [], "usage": completion["usage"]}
