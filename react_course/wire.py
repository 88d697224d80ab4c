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

What it leaves out: streaming, and the stateful ``previous_response_id``
style (the whole history is sent each time, as the text loop does).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from .errors import ModelConfigError
from .record import Observation, ToolCall, Usage
from .stops import strip_reasoning
from .tokens import estimate_tokens

PROTOCOLS = ("chat", "responses")
MAX_OUTPUT_TOKENS = 2048  # room for a reasoning model's hidden thinking as well as the reply
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


def parse_arguments(raw: Any) -> Any:
    """A call's arguments: the JSON object, or the raw text when it is not one.

    >>> parse_arguments('{"item": "pen"}'), parse_arguments('{"item": "pen"'), parse_arguments("")
    ({'item': 'pen'}, '{"item": "pen"', {})
    """
    if isinstance(raw, dict):
        return raw
    if raw is None or not str(raw).strip():
        return {}  # a tool without parameters: some servers send "" for "{}"
    try:
        value = json.loads(raw)
    except ValueError:
        return str(raw)
    return value if isinstance(value, dict) else str(raw)


def declare(tool: Any, protocol: str = "chat", strict: bool = True) -> dict[str, Any]:
    """The tool as the protocol declares it, its schema generated from the function.

    Each parameter's description comes from the docstring (``name: text`` lines), and
    a one-parameter tool's ``Example input:`` becomes that parameter's example.
    ``strict`` makes the server keep to the schema exactly (all keys required,
    no others; an optional parameter may be null).
    """
    schema = describe_parameters(tool)
    description = _prose(tool.description, schema)
    strict = strict and _strictable(schema)
    if strict:
        schema = _strict(schema)
    body = {"name": tool.name, "description": description, "parameters": schema}
    if strict:
        body["strict"] = True
    if protocol == "responses":
        return {"type": "function", **body}
    return {"type": "function", "function": body}


def describe_parameters(tool: Any) -> dict[str, Any]:
    """The arguments' JSON schema (pydantic, via the tool), with descriptions and an example."""
    schema = json.loads(json.dumps(tool.json_schema()["function"]["parameters"]))  # a private copy
    properties = schema.setdefault("properties", {})
    notes = docstring_notes(getattr(tool.function, "__doc__", None) or "", list(properties))
    for name, note in notes.items():
        properties[name]["description"] = note
    schema.setdefault("type", "object")
    return schema


def docstring_notes(doc: str, names: list[str]) -> dict[str, str]:
    """Per-parameter notes from a docstring: ``name: text`` lines and a lone ``Example input:``.

    >>> docstring_notes("Price of an item. Example input: pen", ["item"])
    {'item': 'Example: pen'}
    >>> docstring_notes("Convert.\\n    amount: how many rupees\\n    code: e.g. EUR", ["amount", "code"])
    {'amount': 'how many rupees', 'code': 'e.g. EUR'}
    """
    notes = {}
    for name in names:
        found = re.search(rf"^\s*{re.escape(name)}\s*(\([^)]*\))?\s*:\s*(.+)$", doc, re.MULTILINE)
        if found:
            notes[name] = found[2].strip()
    example = re.search(r"Example input:\s*(.+?)\s*$", doc, re.MULTILINE)
    if example and len(names) == 1:
        notes[names[0]] = " ".join(filter(None, [notes.get(names[0]), f"Example: {example[1]}"]))
    return notes


def _prose(description: str, schema: dict[str, Any]) -> str:
    """The description without the ``name: text`` lines that now describe the parameters.

    >>> _prose("Convert rupees. amount: how many", {"properties": {"amount": {"description": "how many"}}})
    'Convert rupees.'
    """
    for name, prop in schema.get("properties", {}).items():
        note = prop.get("description", "")
        if note and not note.startswith("Example:"):
            description = description.replace(f"{name}: {note}", "")
    return " ".join(description.split())


def _strictable(schema: dict[str, Any]) -> bool:
    """Strict mode needs a closed object with named properties (no free-form dicts)."""
    return "$defs" not in schema and schema.get("additionalProperties") in (None, False)


def _strict(schema: dict[str, Any]) -> dict[str, Any]:
    """Every key required, no others; an optional parameter may be null instead.

    >>> _strict({"type": "object", "properties": {"n": {"type": "integer", "default": 1}}})["properties"]
    {'n': {'anyOf': [{'type': 'integer'}, {'type': 'null'}], 'description': 'Optional (default 1).'}}
    """
    required = set(schema.get("required", []))
    properties = {}
    for name, prop in schema.get("properties", {}).items():
        prop = dict(prop)
        if name not in required:
            default = prop.pop("default", None)
            said = prop.pop("description", "")
            said += "." if said and not said.endswith((".", "!", "?")) else ""
            note = " ".join(filter(None, [said, f"Optional (default {default})."]))
            nullable = prop.get("anyOf") or [prop]
            if {"type": "null"} not in nullable:
                nullable = [*nullable, {"type": "null"}]
            prop = {"anyOf": nullable, "description": note}
        properties[name] = prop
    return {**schema, "properties": properties, "required": list(properties),
            "additionalProperties": False}


class _Wire:
    """What both protocols share: the request, the adaptation, the error mapping."""

    protocol = "chat"

    def __init__(self, client: Any, model: str, registry: Any, *, strict: bool = True,
                 parallel_tool_calls: bool | None = None) -> None:
        self.client, self.model, self.registry, self.strict = client, model, registry, strict
        self.options: dict[str, Any] = {"temperature": 0.0, self.token_parameter: MAX_OUTPUT_TOKENS}
        if parallel_tool_calls is not None:
            self.options["parallel_tool_calls"] = parallel_tool_calls
        self.tools = [declare(tool, self.protocol, strict) for tool in registry]
        self.rejected: set[str] = set()

    token_parameter = "max_tokens"

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
        """The text whose tokens a call sends (history and tool declarations), for the budget."""
        return json.dumps([history, self.tools], ensure_ascii=False, default=str)

    def request(self, history: list[dict[str, Any]], tool_choice: str | None) -> dict[str, Any]:
        options = dict(self.options)
        if self.tools:
            options["tools"] = self.tools
            if tool_choice is not None:
                options["tool_choice"] = tool_choice
        else:
            options.pop("parallel_tool_calls", None)
        return {k: v for k, v in options.items() if k not in self.rejected}

    def create(self, call: Any, timeout: float | None, **request: Any) -> Any:
        if timeout is not None:  # None would mean "wait forever" to the SDK
            request["timeout"] = max(timeout, 0.001)
        for _ in range(len(_ADAPTABLE) + 1):
            try:
                return call(model=self.model, **request)
            except Exception as error:
                if not self.adapt(error, request):
                    url = str(getattr(self.client, "base_url", ""))
                    raise model_error(error, url, self.model, timeout) from None  # may hold the key
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
                self.options["max_completion_tokens"] = self.options.pop("max_tokens")
                request["max_completion_tokens"] = request.pop("max_tokens", MAX_OUTPUT_TOKENS)
            else:
                request.pop(name, None)
            self.rejected.add(name)
            return True
        return False


def model_error(error: Exception, url: str = "", model: str = "", timeout: float | None = None) -> Exception:
    """The SDK's exception as the library's, in words that say what to change (``api_errors``)."""
    from .api_errors import explain

    return explain(error, url, model=model, max_tokens=MAX_OUTPUT_TOKENS, timeout=timeout)


def _usage(input_tokens: Any, output_tokens: Any, cached: Any = 0, reasoning: Any = 0) -> Usage:
    return Usage(int(input_tokens or 0), int(output_tokens or 0), int(cached or 0), int(reasoning or 0))


class ChatWire(_Wire):
    """Chat Completions: ``tool_calls`` on the assistant message, ``tool`` messages back."""

    protocol = "chat"

    def send(self, history: list[dict[str, Any]], tool_choice: str | None = None,
             timeout: float | None = None) -> Reply:
        request = self.request(history, tool_choice)
        response = self.create(self.client.chat.completions.create, timeout, messages=history, **request)
        message = response.choices[0].message
        content = message.content or ""
        text = strip_reasoning(content).strip()
        reasoning = _chat_reasoning(message, content)
        calls, declared = [], []
        for call in message.tool_calls or []:
            calls.append(self.read_call(call.id, call.function.name, call.function.arguments))
            declared.append({"id": call.id, "type": "function",
                             "function": {"name": call.function.name, "arguments": call.function.arguments}})
        sent = {"role": "assistant", "content": message.content}
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

    def start(self, messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [dict(m) for m in messages]

    def send(self, history: list[dict[str, Any]], tool_choice: str | None = None,
             timeout: float | None = None) -> Reply:
        request = self.request(history, tool_choice)
        response = self.create(self.client.responses.create, timeout, input=history, **request)
        items = [item.model_dump(mode="json", exclude_none=True) for item in response.output]
        text, reasoning, calls = [], [], []
        for item in items:
            if item["type"] == "message":
                text += [part.get("text", "") for part in item.get("content", [])
                         if part.get("type") == "output_text"]
            elif item["type"] == "reasoning":
                parts = item.get("summary", []) + item.get("content", [])
                reasoning += [part.get("text", "") for part in parts]
            elif item["type"] == "function_call":
                calls.append(self.read_call(item["call_id"], item["name"], item.get("arguments")))
        u = response.usage
        usage = (_usage(u.input_tokens, u.output_tokens,
                        getattr(u.input_tokens_details, "cached_tokens", 0),
                        getattr(u.output_tokens_details, "reasoning_tokens", 0)) if u
                 else Usage(estimate_tokens(self.size(history)), estimate_tokens("".join(text))))
        joined = "\n".join(text).strip()
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
