"""Scripted *chat* models: the native-tool-calling twins of ``models.py``.

A chat model reads a conversation (messages, the tools on offer, the tool
choice) and answers with one assistant turn: some text, some tool calls, or
both, and perhaps hidden reasoning. ``scripted_api`` serves such a model over
HTTP in the OpenAI protocols, so the real ``openai`` SDK can talk to it.

- ``ScriptedChatModel`` replays a list of turns, first in, first out.
- ``ReactiveChatModel`` chooses each turn from the conversation, by rules or
  by a function, so it reacts to a tool's result the way a real model would.

Both read a ``ChatRequest`` (``chat_request.py``) and record every request in
``.calls`` (the request and the turn given).
``rejects`` names request parameters the model refuses with the API's 400
(``"temperature"``, ``"stop"``, ``"parallel_tool_calls"``), as reasoning models
do, so code that adapts its requests can be tested offline.
The server, not the model, applies the request's constraints (stop
sequences, ``tool_choice``, ``parallel_tool_calls``, output limits, a JSON
schema), as a real API does around a real model.

What it leaves out: sampling. The same conversation always gets the same turn.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from ..errors import ScriptExhausted
from ..record import ToolCall
from .chat_request import ChatRequest


def Call(name: str, arguments: dict[str, Any] | str | None = None) -> ToolCall:
    """A tool call the scripted model makes: a ``record.ToolCall`` whose id the server assigns.

    ``arguments`` is a dict, or a raw string (which may be bad JSON, to show what a
    program must do with it).

    >>> Call("search", {"query": "Paris"})
    ToolCall(id='', name='search', arguments={'query': 'Paris'})
    """
    return ToolCall("", name, {} if arguments is None else arguments)


@dataclass(frozen=True)
class ChatTurn:
    """One assistant turn: visible ``text``, tool ``calls``, hidden ``reasoning``."""

    text: str = ""
    calls: tuple[ToolCall, ...] = ()
    reasoning: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "calls", tuple(self.calls))

    @classmethod
    def calling(cls, name: str, text: str = "", reasoning: str = "", **arguments: Any) -> ChatTurn:
        """A turn with one tool call.

        >>> ChatTurn.calling("search", query="Eiffel Tower").calls
        (ToolCall(id='', name='search', arguments={'query': 'Eiffel Tower'}),)
        """
        return cls(text, (Call(name, arguments),), reasoning)


def as_turn(reply: ChatTurn | str) -> ChatTurn:
    """A plain string is a text-only turn."""
    if isinstance(reply, ChatTurn):
        return reply
    if isinstance(reply, str):
        return ChatTurn(reply)
    raise TypeError(f"a chat model's turn must be a ChatTurn or a str, not {type(reply).__name__}")


class ChatCall(NamedTuple):
    """One request as the model saw it, and the turn it gave (before the server's constraints)."""

    request: ChatRequest
    turn: ChatTurn


class _RecordingChatModel:
    """Shared plumbing: a lock (the server is threaded) and the record of requests."""

    name = "scripted-chat"

    def __init__(self, name: str = "scripted-chat", rejects: Iterable[str] = ()) -> None:
        self.name = name
        self.rejects = frozenset(rejects)  # request parameters refused, as reasoning models refuse some
        self.calls: list[ChatCall] = []
        self._lock = threading.Lock()

    def __call__(self, request: ChatRequest) -> ChatTurn:
        with self._lock:
            turn = as_turn(self._turn(request))
            self.calls.append(ChatCall(request, turn))
        return turn

    @property
    def requests(self) -> list[ChatRequest]:
        return [c.request for c in self.calls]

    def _turn(self, request: ChatRequest) -> ChatTurn | str:
        raise NotImplementedError


class ScriptedChatModel(_RecordingChatModel):
    """Replays ``turns`` in order; raises ``ScriptExhausted`` when they run out.

    >>> model = ScriptedChatModel([ChatTurn.calling("today"), "It is Friday."])
    >>> model(ChatRequest("chat", [{"role": "user", "content": "Day?"}])).calls[0].name
    'today'
    >>> model(ChatRequest("chat", [])).text, model.turns_left
    ('It is Friday.', 0)
    """

    def __init__(self, turns: Iterable[ChatTurn | str], *, name: str = "scripted-chat",
                 rejects: Iterable[str] = ()) -> None:
        super().__init__(name, rejects)
        self.turns = [as_turn(t) for t in turns]
        self._next = 0

    @property
    def turns_left(self) -> int:
        return len(self.turns) - self._next

    def _turn(self, request: ChatRequest) -> ChatTurn:
        if self._next >= len(self.turns):
            raise ScriptExhausted(f"ScriptedChatModel has no turn left: it was given {len(self.turns)} "
                                  f"and this is request {self._next + 1}.")
        self._next += 1
        return self.turns[self._next - 1]

    def __repr__(self) -> str:
        return f"ScriptedChatModel({len(self.turns)} turns, {self.turns_left} left)"


ChatCondition = str | Callable[[ChatRequest], bool]
ChatReply = ChatTurn | str | Callable[[ChatRequest], ChatTurn | str]

CHAT_DONT_KNOW = "I am a scripted model and have no turn prepared for this conversation."


class ReactiveChatModel(_RecordingChatModel):
    """Chooses its turn from the conversation, by rules or by a function.

    Each rule is ``(when, turn)``. ``when`` is a regular expression searched in
    the latest tool result (or in the question, before any result), or a
    function of the ``ChatRequest``; ``turn`` is a turn, a string, or a
    function of the request. Or pass ``respond(request) -> turn`` for full control.

    >>> model = ReactiveChatModel([(r"330 m", "It is 330 m tall."),
    ...                            (r"tall", ChatTurn.calling("search", query="Eiffel Tower"))])
    >>> model(ChatRequest("chat", [{"role": "user", "content": "How tall is it?"}])).calls[0].name
    'search'
    """

    def __init__(self, rules: Sequence[tuple[ChatCondition, ChatReply]] = (), *,
                 respond: Callable[[ChatRequest], ChatTurn | str] | None = None,
                 default: ChatReply = CHAT_DONT_KNOW, name: str = "scripted-chat",
                 rejects: Iterable[str] = ()) -> None:
        super().__init__(name, rejects)
        if not rules and respond is None:
            raise ValueError("ReactiveChatModel needs rules or a respond function.")
        self.rules, self.respond, self.default = list(rules), respond, default

    def _turn(self, request: ChatRequest) -> ChatTurn | str:
        if self.respond is not None:
            return self.respond(request)
        for when, reply in self.rules:
            if _matches(when, request):
                return reply(request) if callable(reply) else reply
        return self.default(request) if callable(self.default) else self.default

    def __repr__(self) -> str:
        how = "a respond function" if self.respond else f"{len(self.rules)} rules"
        return f"ReactiveChatModel({how}, {len(self.calls)} requests so far)"


def _matches(when: ChatCondition, request: ChatRequest) -> bool:
    if callable(when):
        return bool(when(request))
    results = request.tool_results
    seen = results[-1] if results else request.question
    return re.search(when, seen, re.IGNORECASE) is not None


def check_chat_model(model: object) -> None:
    """A chat model is a function of a ``ChatRequest``; the text models of ``models.py`` are not."""
    from ..models import ReactiveModel, ScriptedModel

    if isinstance(model, (ScriptedModel, ReactiveModel)) or not callable(model):
        raise TypeError(f"serve() needs a chat model (ScriptedChatModel, ReactiveChatModel, or a function "
                        f"from a ChatRequest to a ChatTurn or text), not {type(model).__name__}.")
