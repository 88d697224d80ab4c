"""Every request parameter of the OpenAI protocols, and what the scripted server does with it.

A client built for the real API sends what its settings say: the Agents SDK
sends ``prompt_cache_retention`` from an ordinary setting, pydantic-ai sends
``top_logprobs`` as null. A server that refuses such a request as "unknown"
breaks the client for nothing. So each protocol's parameters fall in three
groups, checked against the ``openai`` SDK's own request types by a test
(``tests/test_scripted_api_params.py``), which fails when a new SDK version
adds a parameter that is in none of them:

- **used**: the server or the scripted model acts on it (``tools``, ``stop``...);
- **ignored**: accepted, and changes nothing offline (caching, tiers, safety ids);
- **unsupported**: a feature the scripted model does not have (``n > 1``,
  log probabilities, stored prompts, conversations, audio). Refused with a 400
  that names the feature, never as "unknown" and never answered with a silent
  null; a value that asks for nothing (``n: 1``, ``logprobs: false``) passes.

A parameter in none of the groups is unknown, and refused as the API refuses it.
What it leaves out: the value checks of each parameter (``chat.py`` and
``responses.py`` make those).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .wire import APIError


def _asks(value: Any) -> bool:
    """Whether a value asks for something (None, False, 0, 1, "" and empty lists do not).

    >>> [_asks(v) for v in (None, False, 0, 1, [], "text", True, 2)]
    [False, False, False, False, False, True, True, True]
    """
    if value is None or value is False or value == [] or value == "" or value == {}:
        return False
    return not (isinstance(value, int) and not isinstance(value, bool) and value in (0, 1))


def _audio(value: Any) -> bool:
    return isinstance(value, list) and "audio" in value


# Parameter -> (the feature it asks for, a test of the value: True when the request asks for it).
Unsupported = dict[str, tuple[str, Callable[[Any], bool]]]

CHAT_USED = {"model", "messages", "tools", "tool_choice", "parallel_tool_calls", "stop", "max_tokens",
             "max_completion_tokens", "temperature", "stream", "stream_options", "response_format",
             "metadata", "store", "n", "logprobs", "top_logprobs", "modalities"}
CHAT_IGNORED = {"top_p", "seed", "user", "frequency_penalty", "presence_penalty", "logit_bias",
                "reasoning_effort", "service_tier", "prompt_cache_key", "prompt_cache_retention",
                "prompt_cache_options", "safety_identifier", "verbosity", "prediction", "moderation"}
CHAT_UNSUPPORTED: Unsupported = {
    "n": ("more than one choice (n > 1)", _asks),
    "logprobs": ("log probabilities", _asks),
    "top_logprobs": ("log probabilities", _asks),
    "audio": ("audio output", lambda v: v is not None),
    "modalities": ("audio output", _audio),
    "web_search_options": ("web search", lambda v: v is not None),
    "functions": ("the deprecated 'functions' (send 'tools' instead)", lambda v: v is not None),
    "function_call": ("the deprecated 'function_call' (send 'tool_choice' instead)",
                      lambda v: v is not None),
}

RESPONSES_USED = {"model", "input", "instructions", "tools", "tool_choice", "parallel_tool_calls",
                  "max_output_tokens", "temperature", "top_p", "stream", "store", "include", "text",
                  "reasoning", "metadata", "previous_response_id", "truncation", "user", "max_tool_calls",
                  "stream_options", "background", "top_logprobs", "conversation", "prompt"}
RESPONSES_IGNORED = {"service_tier", "prompt_cache_key", "prompt_cache_retention", "prompt_cache_options",
                     "safety_identifier", "context_management", "moderation", "access_programs",
                     "background_options", "image"}
RESPONSES_UNSUPPORTED: Unsupported = {
    "top_logprobs": ("log probabilities", _asks),
    "include": ("log probabilities", lambda v: isinstance(v, list) and "message.output_text.logprobs" in v),
    "conversation": ("conversations (send 'previous_response_id' or the whole 'input' instead)",
                     lambda v: v is not None),
    "prompt": ("stored prompts (send 'instructions' instead)", lambda v: v is not None),
    "background": ("background mode (the scripted model answers at once: leave 'background' out)",
                   _asks),
}

COMPLETIONS_USED = {"model", "prompt", "stop", "max_tokens", "temperature", "stream", "stream_options",
                    "n", "logprobs", "echo", "best_of", "suffix"}
COMPLETIONS_IGNORED = {"top_p", "seed", "user", "frequency_penalty", "presence_penalty", "logit_bias"}
COMPLETIONS_UNSUPPORTED: Unsupported = {
    "n": ("more than one choice (n > 1)", _asks),
    "best_of": ("more than one choice (best_of > 1)", _asks),
    "logprobs": ("log probabilities", _asks),
    "echo": ("echoing the prompt", _asks),
    "suffix": ("insertion (suffix)", _asks),
}

TABLES = {"chat": (CHAT_USED, CHAT_IGNORED, CHAT_UNSUPPORTED),
          "responses": (RESPONSES_USED, RESPONSES_IGNORED, RESPONSES_UNSUPPORTED),
          "completions": (COMPLETIONS_USED, COMPLETIONS_IGNORED, COMPLETIONS_UNSUPPORTED)}


def accepted(protocol: str) -> set[str]:
    """Every parameter the protocol's requests may carry (used, ignored, or refused by value)."""
    used, ignored, unsupported = TABLES[protocol]
    return used | ignored | set(unsupported)


def check_request(body: dict[str, Any], protocol: str) -> None:
    """Refuse an unknown parameter as the API does, and an unsupported feature by its name.

    >>> check_request({"model": "m", "n": 1, "logprobs": False}, "chat")
    >>> check_request({"model": "m", "n": 2}, "chat")
    Traceback (most recent call last):
    ...
    react_course.scripted_api.wire.APIError: The scripted model does not support more than one choice ...
    """
    known, unsupported = accepted(protocol), TABLES[protocol][2]
    for key, value in body.items():
        if key not in known:
            message = (f"Unrecognized request argument supplied: {key}" if protocol != "responses"
                       else f"Unknown parameter: '{key}'.")
            raise APIError(400, message, key, "unknown_parameter")
        feature, asks = unsupported.get(key, ("", lambda v: False))
        if asks(value):
            raise APIError(400, f"The scripted model does not support {feature}: leave '{key}' out, or "
                           "send it as null.", key, "unsupported_parameter")
