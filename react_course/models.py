"""A model is any function ``model(prompt, stop) -> text``.

That one signature is all the loop needs, so the course can swap a real model
for a *scripted* one: free, offline and the same on every run. Two kinds:

- ``ScriptedModel`` replays a fixed list of replies, first in, first out.
- ``ReactiveModel`` chooses each reply by reading the prompt (the question and
  the observations so far), so it reacts to a tool's result or error the way a
  real model would, and a script survives a change in the tools.

Both honour stop sequences as a real API does (the text from the first stop
sequence on is not returned) unless built with ``ignore_stops=True``, which
imitates an API or model that does not support them: lesson 03 uses it to show
a model inventing its own observations. Both record every call in ``.calls``.

Real models live in ``providers.py``; this module never touches the network.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable, Iterable, Sequence
from typing import NamedTuple, Protocol

from .errors import ScriptExhausted
from .prompts import Scratchpad, read_prompt
from .stops import as_stop_list, cut_at_stop


class Model(Protocol):
    def __call__(self, prompt: str, stop: Sequence[str] | None = None) -> str: ...


def takes(model: Callable[..., object], keyword: str) -> bool:
    """Does ``model`` accept ``keyword``? Real models take ``timeout`` and ``max_tokens``.

    >>> takes(lambda prompt, stop, *, timeout=None: "", "timeout"), takes(len, "timeout")
    (True, False)
    """
    try:
        return keyword in inspect.signature(model).parameters
    except (TypeError, ValueError):  # a builtin, or an object without a readable signature
        return False


class ModelCall(NamedTuple):
    """One call as the model saw it, and what it returned (after any stop cut).

    A named tuple, so ``call.prompt`` and ``prompt, stop, reply = call`` both work.
    """

    prompt: str
    stop: tuple[str, ...] | None
    reply: str


class _RecordingModel:
    """Shared plumbing: stop handling and the record of calls."""

    def __init__(self, *, ignore_stops: bool = False) -> None:
        self.ignore_stops = ignore_stops
        self.calls: list[ModelCall] = []

    def __call__(self, prompt: str, stop: Sequence[str] | None = None) -> str:
        stops = as_stop_list(stop)
        try:
            reply = self._reply(prompt)
        except Exception:  # the prompt was still sent: a call that fails is recorded too
            self.calls.append(ModelCall(prompt, tuple(stops) if stops else None, ""))
            raise
        if not self.ignore_stops:
            reply = cut_at_stop(reply, stop)
        self.calls.append(ModelCall(prompt, tuple(stops) if stops else None, reply))
        return reply

    def _reply(self, prompt: str) -> str:
        raise NotImplementedError


class ScriptedModel(_RecordingModel):
    """Replays ``replies`` in order; raises ``ScriptExhausted`` when they run out.

    >>> model = ScriptedModel(["Thought: t\\nAction: search\\nAction Input: x\\nObservation: 1"])
    >>> model("prompt", stop=["\\nObservation"])
    'Thought: t\\nAction: search\\nAction Input: x'
    >>> len(model.calls), model.replies_left
    (1, 0)
    """

    def __init__(self, replies: Iterable[str], *, ignore_stops: bool = False) -> None:
        super().__init__(ignore_stops=ignore_stops)
        self.replies = list(replies)
        self._next = 0

    @property
    def replies_left(self) -> int:
        return len(self.replies) - self._next

    def _reply(self, prompt: str) -> str:
        if self._next >= len(self.replies):
            raise ScriptExhausted(
                f"ScriptedModel has no reply left: it was given {len(self.replies)} "
                f"and this is call {self._next + 1}."
            )
        self._next += 1
        return self.replies[self._next - 1]

    def __repr__(self) -> str:
        return f"ScriptedModel({len(self.replies)} replies, {self.replies_left} left)"


Condition = str | Callable[[Scratchpad], bool]
Reply = str | Callable[[Scratchpad], str]

DONT_KNOW = (
    "Thought: Nothing in my script fits what I see.\n"
    "Final Answer: I am a scripted model and have no reply prepared for this."
)


class ReactiveModel(_RecordingModel):
    """Chooses its reply from what the prompt shows, by rules or by a function.

    Each rule is ``(when, reply)``. ``when`` is a regular expression searched in
    the latest observation (or in the question, before any observation), or a
    function of the ``Scratchpad``. The first rule that matches gives the reply;
    ``default`` is used when none does. Instead of rules, pass ``respond``, a
    function from ``Scratchpad`` to reply, for full control.

    >>> model = ReactiveModel([
    ...     (r"No page", "Thought: Try the name.\\nAction: search\\nAction Input: Eiffel Tower"),
    ...     (r"330 m", "Thought: Found it.\\nFinal Answer: 330 m"),
    ...     (r"Paris", "Thought: Search.\\nAction: search\\nAction Input: Paris tower 1889"),
    ... ])
    >>> model("Question: Which tower in Paris opened in 1889?").splitlines()[-1]
    'Action Input: Paris tower 1889'
    >>> model("Question: Which tower in Paris?\\nThought: x\\nObservation: No page is titled that.")
    'Thought: Try the name.\\nAction: search\\nAction Input: Eiffel Tower'
    """

    def __init__(
        self,
        rules: Sequence[tuple[Condition, Reply]] = (),
        *,
        respond: Callable[[Scratchpad], str] | None = None,
        default: Reply = DONT_KNOW,
        ignore_stops: bool = False,
    ) -> None:
        super().__init__(ignore_stops=ignore_stops)
        if not rules and respond is None:
            raise ValueError("ReactiveModel needs rules or a respond function.")
        self.rules = list(rules)
        self.respond = respond
        self.default = default

    def _reply(self, prompt: str) -> str:
        pad = read_prompt(prompt)
        if self.respond is not None:
            return self.respond(pad)
        for when, reply in self.rules:
            if _matches(when, pad):
                return reply(pad) if callable(reply) else reply
        return self.default(pad) if callable(self.default) else self.default

    def __repr__(self) -> str:
        how = "a respond function" if self.respond else f"{len(self.rules)} rules"
        return f"ReactiveModel({how}, {len(self.calls)} calls so far)"


def _matches(when: Condition, pad: Scratchpad) -> bool:
    if callable(when):
        return bool(when(pad))
    seen = pad.last_observation if pad.steps else pad.question
    return re.search(when, seen, re.IGNORECASE) is not None
