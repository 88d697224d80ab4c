"""The two OpenAI protocols for native tool calls, as the loop needs them.

``run_native`` asks three things of a protocol: send the history and read
the reply (text, reasoning, tool calls, usage), say what to append to the
history for that reply, and say how to write the tool results back. The
two protocols differ only there:

============================  ==================================  ====================================
                              Chat Completions                    Responses
============================  ==================================  ====================================
a tool                        {"type": "function", "function":    {"type": "function", "name", ...}
                              {"name", "description", ...}}
the model's calls             ``message.tool_calls[i].id``        ``function_call`` items, ``call_id``
appended to the history       the assistant message, calls kept   every output item, reasoning kept
one result                    {"role": "tool", "tool_call_id"}    {"type": "function_call_output",
                                                                  "call_id", "output"}
============================  ==================================  ====================================

Parameters a server or a reasoning model rejects (``temperature``,
``parallel_tool_calls``, ``tool_choice``, ``strict``, ``max_tokens``) are
adapted as ``providers.OpenAIChatModel`` adapts them: on a 400 that names
one, it is dropped (``max_tokens`` renamed) and the call made again, and the
wire remembers. No ``stop`` is sent: a native reply has no Observation to
invent.

Three habits for local servers (llama.cpp, Ollama, vLLM): ``tool_choice`` is
always sent with the tools ("auto" by default: some servers drop the tools
when it is missing); an assistant turn's ``content`` goes back as a string,
never null (some servers refuse a null with a 500); and each call waits at
most ``REACT_COURSE_TIMEOUT`` seconds (or the client's own, shorter, time-out),
never the run's whole remaining time, so a hung server costs one call's wait
(and after a time-out, the next call waits for the server: ``retry.wait_for_server``).
A call a chat template wrote as text (``functions.NAME:``) is a call, never the
answer; an empty reply reaches the agent, which tells the model.

What it leaves out: streaming, and the stateful ``previous_response_id``
style (the whole history is sent each time, as the text loop does).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from .backends.api_errors import check_not_cut_off, explain, first_choice
from .backends.model_settings import (
    DEFAULT_MAX_TOKENS,
    MAX_TOKENS_VAR,
    REASONING_TOKENS,
    per_call_timeout,
    setting,
)
from .errors import ModelConfigError, ModelError
from .parsing import text_form_calls
from .record import Observation, ToolCall, Usage
from .retry import is_call_failure, wait_for_server
from .schemas import declare, describe_parameters, parse_arguments
from .stops import cut_at_end_of_turn, drop_end_of_turn, strip_reasoning
from .tokens import estimate_tokens

PROTOCOLS = ("chat", "responses")
_ADAPTABLE = ("temperature", "parallel_tool_calls", "tool_choice", "strict", "max_tokens")


@dataclass
class Reply:
    """One model reply, read: what it said, what it thought, which tools it called."""

    text: str
    calls: list[ToolCall]
    items: list[dict[str, Any]]  # what goes into the history, exactly as the API wants it back
    usage: Usage = field(default_factory=Usage)
    reasoning: str = ""
    message: dict[str, Any] | None = None


class _Wire:
    """What both protocols share: the request, the adaptation, the error mapping."""

    protocol = "chat"

    def __init__(self, client: Any, model: str, registry: Any, *, strict: bool = True,
                 parallel_tool_calls: bool | None = None) -> None:
        self.client, self.model, self.registry, self.strict = client, model, registry, strict
        # One output budget for both loops (REACT_COURSE_MAX_TOKENS, 400): ample for one step.
        self.max_output = setting(MAX_TOKENS_VAR, DEFAULT_MAX_TOKENS, int)
        self.call_timeout = per_call_timeout(client)
        self.gave_up_after: float | None = None  # seconds, when our last call timed out
        self.options: dict[str, Any] = {"temperature": 0.0, self.token_parameter: self.max_output}
        if parallel_tool_calls is not None:
            self.options["parallel_tool_calls"] = parallel_tool_calls
        self.tools = [declare(tool, self.protocol, strict) for tool in registry]
        self.rejected: set[str] = set()

    token_parameter = "max_tokens"
    endpoint = "chat"  # how api_errors names the endpoint in its advice

    def start(self, messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return list(messages)

    def read_call(self, call_id: str, name: str, raw: Any) -> ToolCall:
        """A call as the record keeps it; a null for an optional parameter means its default
        (strict mode makes the model send every key)."""
        arguments = parse_arguments(raw)
        tool = self.registry[name] if name in self.registry else None
        if isinstance(arguments, dict) and tool is not None:
            schema = describe_parameters(tool)
            required = set(schema.get("required", []))
            arguments = {k: v for k, v in arguments.items() if v is not None or k in required}
        return ToolCall(call_id, name, arguments)

    def size(self, history: list[dict[str, Any]]) -> str:
        """The text a call sends (history and tool declarations, as JSON), for the budget."""
        return json.dumps([history, self.tools], ensure_ascii=False, default=str)

    def request(self, history: list[dict[str, Any]], tool_choice: str | None) -> dict[str, Any]:
        options = dict(self.options)
        if self.tools:
            options["tools"] = self.tools
            options["tool_choice"] = tool_choice or "auto"  # without it, some servers drop the tools
        else:
            options.pop("parallel_tool_calls", None)
        return {k: v for k, v in options.items() if k not in self.rejected}

    def create(self, call: Any, timeout: float | None, **request: Any) -> Any:
        """One call, waiting at most the per-call time-out or the run's ``timeout`` left."""
        timeout = self.call_timeout if timeout is None else min(timeout, self.call_timeout)
        url = str(getattr(self.client, "base_url", ""))
        if self.gave_up_after is not None:  # a one-request server may still be on that call
            timeout = max(timeout - wait_for_server(self.client, timeout, url, self.gave_up_after), 0.001)
            self.gave_up_after = None
        request["timeout"] = max(timeout, 0.001)
        for _ in range(len(_ADAPTABLE) + 1):
            try:
                return call(model=self.model, **request)
            except Exception as error:
                if not is_call_failure(error):
                    raise  # a bug in the program, not a failed call
                if not self.adapt(error, request):  # not chained: the SDK's error may hold the key
                    self.gave_up_after = timeout if type(error).__name__ == "APITimeoutError" else None
                    raise explain(error, url, model=self.model, max_tokens=self.max_output,
                                  timeout=timeout, endpoint=self.endpoint) from None
        raise ModelConfigError("the server kept refusing the request's parameters")

    def adapt(self, error: Exception, request: dict[str, Any]) -> bool:
        """Drop (or rename) a parameter the server says it does not support; True if changed."""
        if getattr(error, "status_code", None) != 400:
            return False
        text = str(error).lower()
        for name in _ADAPTABLE:
            if name not in text or name in self.rejected:
                continue
            if name == "strict":
                self.tools = [declare(tool, self.protocol, strict=False) for tool in self.registry]
                request["tools"] = self.tools
            elif name == "max_tokens" and self.token_parameter == "max_tokens":
                self.options.pop("max_tokens", None)
                request.pop("max_tokens", None)
                budget = self.max_output + REASONING_TOKENS  # a reasoning model's thinking counts too
                self.options["max_completion_tokens"] = request["max_completion_tokens"] = budget
            else:
                request.pop(name, None)
            self.rejected.add(name)
            return True
        return False


def _usage(input_tokens: Any, output_tokens: Any, cached: Any = 0, reasoning: Any = 0) -> Usage:
    return Usage(int(input_tokens or 0), int(output_tokens or 0), int(cached or 0), int(reasoning or 0))


class ChatWire(_Wire):
    """Chat Completions: ``tool_calls`` on the assistant message, ``tool`` messages back."""

    protocol = "chat"

    def send(self, history: list[dict[str, Any]], tool_choice: str | None = None,
             timeout: float | None = None) -> Reply:
        request = self.request(history, tool_choice)
        response = self.create(self.client.chat.completions.create, timeout, messages=history, **request)
        choice = first_choice(response, self.client)
        message = choice.message
        content = cut_at_end_of_turn(message.content or "")
        text = strip_reasoning(content).strip()
        reasoning = _chat_reasoning(message, content)
        calls, declared = [], []
        for number, call in enumerate(message.tool_calls or [], 1):
            # Some local servers leave out the id or send the arguments as an object: mend both,
            # so that the result can be linked and the history sent back as the API expects.
            call_id = call.id or f"call_{len(history)}_{number}"
            raw = call.function.arguments
            raw = raw if isinstance(raw, str) or raw is None else json.dumps(raw, ensure_ascii=False)
            raw = raw if raw is None else drop_end_of_turn(raw)
            calls.append(self.read_call(call_id, call.function.name, raw))
            declared.append({"id": call_id, "type": "function",
                             "function": {"name": call.function.name, "arguments": raw or "{}"}})
        if not calls and text:  # a call a chat template wrote as text, if any
            text, calls, declared = self.text_form_calls(text, len(history))
            content = text if calls else content
        if not calls and not text:
            check_not_cut_off(choice.finish_reason, self.client, self.max_output)
        sent = {"role": "assistant", "content": content}  # a string: some servers refuse null
        if declared:
            sent["tool_calls"] = declared
        u = response.usage
        usage = (_usage(u.prompt_tokens, u.completion_tokens,
                        getattr(u.prompt_tokens_details, "cached_tokens", 0),
                        getattr(u.completion_tokens_details, "reasoning_tokens", 0)) if u
                 else Usage(estimate_tokens(self.size(history)), estimate_tokens(content)))
        return Reply(text, calls, [sent], usage, reasoning, sent)

    def results(self, observations: list[Observation]) -> list[dict[str, Any]]:
        return [{"role": "tool", "tool_call_id": o.call_id, "content": o.text} for o in observations]

    def text_form_calls(self, text: str, turn: int) -> tuple[str, list[ToolCall], list[dict[str, Any]]]:
        """Calls a template wrote as text (``functions.today:``): sent back in the API's shape."""
        before, found = text_form_calls(text)
        calls = [self.read_call(f"call_{turn}_{n}", name, raw) for n, (name, raw) in enumerate(found, 1)]
        declared = [{"id": call.id, "type": "function",
                     "function": {"name": name, "arguments": raw}}
                    for call, (name, raw) in zip(calls, found, strict=True)]
        return (before if calls else text), calls, declared


def _chat_reasoning(message: Any, content: str) -> str:
    """Reasoning a Chat Completions server shows: a ``reasoning(_content)`` field or a think block."""
    extra = getattr(message, "model_extra", None) or {}
    shown = extra.get("reasoning_content") or extra.get("reasoning") or ""
    if not shown and "<think>" in content:
        shown = content.split("<think>", 1)[1].split("</think>", 1)[0]
    return str(shown).strip()


class ResponsesWire(_Wire):
    """Responses: ``function_call`` items out, ``function_call_output`` items back, reasoning kept."""

    protocol = "responses"
    token_parameter = "max_output_tokens"
    endpoint = "responses"

    def start(self, messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [dict(m) for m in messages]

    def send(self, history: list[dict[str, Any]], tool_choice: str | None = None,
             timeout: float | None = None) -> Reply:
        request = self.request(history, tool_choice)
        response = self.create(self.client.responses.create, timeout, input=history, **request)
        if not isinstance(getattr(response, "output", None), list):
            raise ModelError(f"{getattr(self.client, 'base_url', 'the server')} answered without output "
                             "items; check that it supports the Responses API.", retryable=False)
        items = [item.model_dump(mode="json", exclude_none=True) for item in response.output]
        text, reasoning, calls = [], [], []
        for item in items:
            if item["type"] == "message":
                text += [cut_at_end_of_turn(part.get("text", "")) for part in item.get("content", [])
                         if part.get("type") == "output_text"]
            elif item["type"] == "reasoning":
                parts = item.get("summary", []) + item.get("content", [])
                reasoning += [part.get("text", "") for part in parts]
            elif item["type"] == "function_call":
                raw = item.get("arguments")
                raw = drop_end_of_turn(raw) if isinstance(raw, str) else raw
                calls.append(self.read_call(item["call_id"], item["name"], raw))
        u = response.usage
        usage = (_usage(u.input_tokens, u.output_tokens,
                        getattr(u.input_tokens_details, "cached_tokens", 0),
                        getattr(u.output_tokens_details, "reasoning_tokens", 0)) if u
                 else Usage(estimate_tokens(self.size(history)), estimate_tokens("".join(text))))
        joined = "\n".join(text).strip()
        if not calls and not joined:
            details = getattr(response, "incomplete_details", None)
            check_not_cut_off(getattr(details, "reason", None), self.client, self.max_output)
        # The record keeps the turn in the one shape to_messages() gives for both protocols (the
        # reasoning summary is the step's thought); the items themselves went back in the history.
        return Reply(strip_reasoning(joined).strip(), calls, items, usage, "\n".join(reasoning).strip())

    def results(self, observations: list[Observation]) -> list[dict[str, Any]]:
        return [{"type": "function_call_output", "call_id": o.call_id, "output": o.text}
                for o in observations]


def make_wire(protocol: str, client: Any, model: str, registry: Any, **options: Any) -> _Wire:
    """The adapter for ``protocol`` ("chat" or "responses")."""
    wires = {"chat": ChatWire, "responses": ResponsesWire}
    if protocol not in wires:
        raise ValueError(f"protocol must be one of {', '.join(PROTOCOLS)}, got {protocol!r}")
    return wires[protocol](client, model, registry, **options)
