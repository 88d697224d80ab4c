"""What lesson 07's checks share: an in-process Chat Completions client that checks requests.

``FakeChat`` has the one method a native loop uses,
``client.chat.completions.create(**request)``, and returns the ``openai``
SDK's own ``ChatCompletion`` objects, so the student's code reads the reply
exactly as it reads a real one. It records every request, refuses a
conversation the real API would refuse (a tool message that answers no
call, a call left without its result, a ``tool_choice`` without ``tools``), and, like ``GuardedModel``, raises
``CallBudgetExceeded`` after a set number of calls, so a loop without a
limit fails a case instead of hanging the notebook.

The model behind it is a function of the messages and the request's
``tool_choice``: it returns text (an answer), a list of calls, or both; ``(text, [])``
is a reply whose ``tool_calls`` is an empty list, which is no tool turn.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

from ...transcript import broken_link
from ..framework import CallBudgetExceeded

# An answer, calls as (name, arguments text), or (text, calls): a reply with both, whose text
# is not the answer (the loop must run the calls).
Turn = str | list[tuple[str, str]] | tuple[str, list[tuple[str, str]]]


class ApiRefused(Exception):
    """What the real API answers with a 400: the conversation breaks the protocol."""


def protocol_problem(messages: list[dict[str, Any]]) -> str | None:
    """What the API would refuse in ``messages``, or None.

    >>> protocol_problem([{"role": "user", "content": "?"}, {"role": "tool", "tool_call_id": "c1",
    ...                   "content": "x"}])
    "a message with role 'tool' must answer a call of the assistant message before it (no call 'c1')"
    """
    broken = broken_link([m if isinstance(m, dict) else _as_dict(m) for m in messages], complete=False)
    if broken is None:
        return None
    if broken.stray is not None:
        return ("a message with role 'tool' must answer a call of the assistant message "
                f"before it (no call {broken.stray!r})")
    return (f"the calls {list(broken.unanswered)} have no tool message: every tool call needs its result, "
            "linked by tool_call_id, right after the assistant message")


def _as_dict(message: Any) -> dict[str, Any]:
    """An SDK message object appended as is: read it as the API would."""
    dump = getattr(message, "model_dump", None)
    return dump(exclude_none=True) if dump else dict(message)


class FakeChat:
    """A scripted model behind ``client.chat.completions.create``; see the module docstring."""

    def __init__(self, model: Callable[[list[dict[str, Any]], Any], Turn], max_calls: int = 8) -> None:
        self.model, self.max_calls = model, max_calls
        self.requests: list[dict[str, Any]] = []
        self.chat = SimpleNamespace(completions=SimpleNamespace(create=self.create))

    def create(self, **request: Any) -> Any:
        from openai.types.chat import ChatCompletion

        if len(self.requests) >= self.max_calls:
            raise CallBudgetExceeded(f"your loop called the model more than {self.max_calls} times; "
                                     "a correct loop stops at its step limit (plus one last call)")
        messages = [m if isinstance(m, dict) else _as_dict(m) for m in request.get("messages", [])]
        self.requests.append({**copy.deepcopy({k: v for k, v in request.items() if k != "messages"}),
                              "messages": copy.deepcopy(messages)})
        problem = protocol_problem(messages)
        if request.get("tool_choice") is not None and not request.get("tools"):
            problem = ("Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' "
                       "are specified (send tools= with it)")
        if problem:
            raise ApiRefused(f"400 Bad Request: {problem}")
        turn = self.model(messages, request.get("tool_choice"))
        if request.get("tool_choice") == "none" and not isinstance(turn, str):
            turn = "Best effort: I ran out of steps."  # the API honours tool_choice="none"
        number = len(self.requests)
        text, calls = (turn, []) if isinstance(turn, str) else turn if isinstance(turn, tuple) else (
            None, turn)
        message: dict[str, Any] = {"role": "assistant", "content": text}
        finish = "tool_calls" if calls else "stop"
        if calls or isinstance(turn, tuple):  # (text, []): a reply that says tool_calls: [], no calls
            message["tool_calls"] = [
                {"id": f"call_{number}_{i}", "type": "function", "function": {"name": n, "arguments": a}}
                for i, (n, a) in enumerate(calls, 1)]
        return ChatCompletion.model_validate({
            "id": f"chatcmpl-{number}", "object": "chat.completion", "created": 0, "model": "scripted",
            "choices": [{"index": 0, "finish_reason": finish, "message": message}],
            "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}})


def tool_messages(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [m for m in messages if m.get("role") == "tool"]


def arguments(**values: Any) -> str:
    """A call's arguments as the API sends them: JSON text.

    >>> arguments(query="Paris")
    '{"query": "Paris"}'
    """
    return json.dumps(values)
