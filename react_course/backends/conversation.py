"""Continuing a Responses conversation: state on the server, or carried by the client.

The Responses API offers two ways to send turn k+1 after turn k:

- **state on the server**: ``previous_response_id`` names the last response,
  and only the new items are sent. The provider keeps the conversation
  (``store`` left on), so the request is small; the model still reads the
  whole conversation, and the reasoning stays where the provider put it.
- **stateless**: ``store=false``, and every item goes back each time. A
  reasoning model's thinking then has to travel with the client: asking for
  ``include=["reasoning.encrypted_content"]`` returns each reasoning item with
  an opaque ``encrypted_content`` that the client sends back as it came. Nothing
  is kept on the provider's side between calls (what an organisation that may
  not store data needs); the price is a request that grows with the conversation.

``next_request`` builds the keyword arguments of the next ``responses.create``
for either; ``request_size`` measures what each sends. ``effort_options`` asks
a reasoning model for an effort (``none``, ``minimal``, ``low``, ``medium``,
``high`` or ``xhigh``): a cost and latency setting, since reasoning tokens are
billed as output.

What it leaves out: conversations stored under an id (the ``conversation``
field), background mode, and any reading of the encrypted reasoning.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

STATELESS = {"store": False, "include": ["reasoning.encrypted_content"]}
EFFORTS = ("none", "minimal", "low", "medium", "high", "xhigh")  # OpenAI's values, read 1 December 2026


def output_items(response: Any) -> list[dict[str, Any]]:
    """A response's output items as plain dicts, ready to send back."""
    return [item.model_dump(mode="json", exclude_none=True) for item in response.output]


def next_request(items: Sequence[dict[str, Any]], response: Any, new_items: Sequence[dict[str, Any]],
                 *, stateful: bool) -> dict[str, Any]:
    """The next call's arguments after ``response``, given everything sent so far in ``items``.

    Stateful: the response's id and the new items only. Stateless: every item again
    (the earlier ones, the response's output with its encrypted reasoning, the new
    ones), with ``store=false`` and the encrypted reasoning asked for once more.
    """
    if stateful:
        return {"previous_response_id": response.id, "input": list(new_items)}
    return {"input": [*items, *output_items(response), *new_items], **STATELESS}


def request_size(request: dict[str, Any]) -> int:
    """Bytes of a request's JSON body, without the model and tools (the same for both ways).

    >>> request_size({"input": [{"role": "user", "content": "Hi"}]})
    42
    """
    return len(json.dumps(request, separators=(",", ":")).encode())


def effort_options(effort: str) -> dict[str, Any]:
    """The request field for a reasoning model's effort.

    >>> effort_options("low")
    {'reasoning': {'effort': 'low'}}
    >>> [effort_options(e)["reasoning"]["effort"] for e in ("none", "xhigh")]
    ['none', 'xhigh']
    """
    if effort not in EFFORTS:
        raise ValueError(f"effort must be one of {', '.join(EFFORTS)}, got {effort!r}")
    return {"reasoning": {"effort": effort}}
