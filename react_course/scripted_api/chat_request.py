"""A request as a scripted chat model reads it, the same for both protocols.

The server turns a Chat Completions or Responses body into one ``ChatRequest``;
a model's rules then ask it plain questions: what was asked (``question``),
which results came back since (``tool_results``), which calls were made
(``previous_calls``). Frameworks send results two ways, as ``tool`` messages or
as user text that begins "Observation:" (smolagents), and both are read.

What it leaves out: images and audio parts (only text parts are read).
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from typing import Any

from ..record import ToolCall


@dataclass(frozen=True)
class ChatRequest:
    """A request as the model sees it, the same for both protocols.

    ``messages`` are Chat Completions-style dicts (a Responses request is
    converted: ``function_call`` items become an assistant message's
    ``tool_calls``, ``function_call_output`` items become ``tool`` messages).
    Tool results are read the two ways frameworks send them: ``tool`` messages,
    or user messages that begin "Observation:" (smolagents writes its calls as
    assistant text, "Calling tools: [...]", and its results as user text).
    ``tools`` are ``{"name", "description", "parameters"}`` dicts;
    ``tool_choice`` is ``"auto"``, ``"none"``, ``"required"`` or a tool's name.
    ``body`` is the JSON body exactly as received.
    """

    protocol: str  # "chat" or "responses"
    messages: list[dict[str, Any]]
    tools: list[dict[str, Any]] = field(default_factory=list)
    tool_choice: str = "auto"
    parallel_tool_calls: bool = True
    body: dict[str, Any] = field(default_factory=dict)

    def _asked_at(self) -> int:
        """The index of the last user message that asks (not one that reports a result); -1 if none."""
        return max((i for i, m in enumerate(self.messages) if m.get("role") == "user"
                    and not is_result_text(content_text(m.get("content")))), default=-1)

    @property
    def question(self) -> str:
        """The text of the last user message that is not a tool result ("" if none)."""
        at = self._asked_at()
        return content_text(self.messages[at].get("content")) if at >= 0 else ""

    @property
    def since_question(self) -> list[dict[str, Any]]:
        """The messages after the question: this task's calls and results."""
        return self.messages[self._asked_at() + 1 :]

    @property
    def tool_results(self) -> list[str]:
        """The text of every tool result since the question, in order ("Observation:" dropped)."""
        results = []
        for message in self.since_question:
            text = content_text(message.get("content"))
            if message.get("role") == "tool":
                results.append(text)
            elif message.get("role") == "user" and is_result_text(text):
                results.append(re.sub(r"^\s*Observation:\s*", "", text))
        return results

    @property
    def previous_calls(self) -> list[ToolCall]:
        """Every tool call the assistant made since the question, as data or as "Calling tools:" text."""
        calls = []
        for message in self.since_question:
            listed = list(message.get("tool_calls") or ())
            if message.get("role") == "assistant":
                listed += calls_in_text(content_text(message.get("content")))
            for tc in listed:
                function = tc.get("function") if isinstance(tc, dict) else None
                if isinstance(function, dict):  # no id, as a scripted Call: the server assigns ids
                    arguments = function.get("arguments", "")
                    name = str(function.get("name", ""))
                    calls.append(ToolCall("", name, {} if arguments is None else arguments))
        return calls

    @property
    def tool_names(self) -> list[str]:
        return [t["name"] for t in self.tools]


RESULT_STARTS = ("Observation:", "Error:", "Call id:")  # how smolagents' user-text results begin


def is_result_text(text: str) -> bool:
    r"""Whether a user message reports a tool's result rather than asking something.

    >>> is_result_text("Observation:\n330 m"), is_result_text("How tall is it?")
    (True, False)
    """
    return text.lstrip().startswith(RESULT_STARTS)


def calls_in_text(text: str) -> list[Any]:
    r"""The calls an assistant wrote as text ("Calling tools:" and a Python list, as smolagents does).

    >>> calls_in_text("Calling tools:\n[{'id': 'c1', 'function': {'name': 'f', 'arguments': {}}}]")
    [{'id': 'c1', 'function': {'name': 'f', 'arguments': {}}}]
    >>> calls_in_text("Calling tools:\n[oops")
    []
    """
    head, _, listed = text.partition("Calling tools:")
    if not listed or head.strip() or len(listed) > 100_000:
        return []
    try:
        value = ast.literal_eval(listed.strip())  # literals only: never runs code
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return []
    return value if isinstance(value, list) else []


def content_text(content: Any) -> str:
    """The text of a message's content: a string, or a list of text parts.

    >>> content_text([{"type": "input_text", "text": "a"}, {"type": "text", "text": "b"}])
    'ab'
    >>> content_text(None)
    ''
    """
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(p["text"] for p in content if isinstance(p, dict) and isinstance(p.get("text"), str))
    return ""
