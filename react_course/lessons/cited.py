"""Lesson 06's answers in a fixed shape: a scripted model that cites the results it used.

``citing_model(answer, cite=...)`` looks order 88213 up, then answers with
``answers.ANSWER_SCHEMA``'s JSON: ``answer`` and the call ids it rests on.
``cite`` picks what it cites: the result it was given (``"result"``), nothing
(``"nothing"``), or an id that no call returned (``"invented"``). Offline
this stands for a real model under ``response_format``, which the scripted
server accepts but cannot make a scripted reply obey.
"""

from __future__ import annotations

import json

from ..scripted_api.models import ChatRequest, ChatTurn, ReactiveChatModel


def citing_model(answer: str, cite: str = "result", order_id: int = 88213) -> ReactiveChatModel:
    """A chat model that calls ``get_order`` once, then gives ``answer`` with its citations."""
    def respond(request: ChatRequest) -> ChatTurn | str:
        ids = [m.get("tool_call_id", "") for m in request.since_question if m.get("role") == "tool"]
        if not ids:
            return ChatTurn.calling("get_order", order_id=order_id)
        cited = {"result": ids, "nothing": [], "invented": ["call_never_made"]}[cite]
        return json.dumps({"answer": answer, "observations": cited})
    return ReactiveChatModel(respond=respond, name=f"citing-{cite}")
