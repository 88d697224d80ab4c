"""Native tool calling: ``run_native``, the twin of ``run_react`` over the same parts.

The algorithm is the text loop's, with different plumbing::

    declare the tools as JSON schemas
    repeat at most max_steps times:
        reply = client.create(history, tools)          # text, maybe reasoning, 0+ tool calls
        if the reply has no tool calls: it is the answer
        history += the assistant message, tool calls and ids included
        history += one tool result per call, linked to its call by id
    one more call with tool_choice="none" asks for a best-effort answer

Nothing is parsed out of text: the API returns the calls as data. The parts
are the text loop's: the run record (``record.py``), the budget that owns every
counter (``guards.Budget``) and the one door every tool call passes
(``execute.execute_all``: unknown tools, repeats, argument validation, time
limits and errors become tool results; read-only calls run in parallel).
The step loop is ``driver.drive``, as for the text loop; ``NativeAgent`` says
only how a native step sends and reads. Reading a reply and writing the
results back differ once more for each of
OpenAI's two protocols (``wire.py``): Chat Completions (``tool_calls`` on
the assistant message, ``tool`` messages) and Responses (``function_call`` /
``function_call_output`` items linked by ``call_id``, reasoning items passed
back).

What it leaves out: streaming and other vendors' SDKs (their tool-use blocks are the same loop;
lesson 07 shows the shapes as data).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from .backends.clients import lesson_client, native_client  # re-exported: lessons import them from here
from .backends.protocols import protocol_for
from .driver import drive, new_budget
from .execute import execute_all
from .guards import Budget
from .observations import short
from .record import Observation, RunResult, Step, ToolCall, Usage
from .tokens import count_tokens
from .tools import ToolRegistry, as_registry
from .wire import PROTOCOLS, Reply, make_wire

__all__ = ["PROTOCOLS", "NativeAgent", "execute_turn", "lesson_client", "native_client", "run_native"]

EMPTY_REPLY = ("Your reply was empty: no text and no tool call. Call one of the tools, or answer "
               "the question in words.")


def run_native(
    client: Any,
    tools: ToolRegistry | Mapping[str, Callable[..., Any]],
    messages: str | list[dict[str, Any]],
    *,
    model: str,
    max_steps: int = 8,
    protocol: str | None = None,
    policy: Any = None,
    on_step: Callable[[Step], None] | None = None,
    parallel_tool_calls: bool | None = None,
    strict: bool = True,
    price: Any = None,
    trace: Any = None,
    request_options: Mapping[str, Any] | None = None,
    **limits: Any,
) -> RunResult:
    """Answer with native tool calls through ``client`` (an ``openai.OpenAI``).

    ``messages`` is the conversation so far (a question alone is one user
    message). ``protocol`` is "chat" (Chat Completions) or "responses"; by default
    "chat", or what the model requires (``protocols.protocol_for``: GPT-5.6 needs "responses").
    ``parallel_tool_calls=False`` asks for one call per turn, for when order
    matters; ``None`` leaves the server's default. ``limits`` are the fields
    of ``guards.Limits``; ``price`` (a ``cost.Price``) lets ``max_cost`` be
    enforced for a model the price table does not know; ``trace`` (a
    ``trace.StepLog``) receives one event per step (lesson 09). ``request_options``
    are sent with every call as they are (``response_format``, ``reasoning``,
    ``store``, ``prompt_cache_key``...). Nothing the model does
    makes it raise; a wrong setting (key, model name, URL) does, before the
    first successful call.
    """
    wire = make_wire(protocol_for(model, protocol), client, model, as_registry(tools), strict=strict,
                     parallel_tool_calls=parallel_tool_calls)
    wire.options.update(request_options or {})
    messages = _as_messages(messages)
    question = _question(messages)
    budget = new_budget(question, price, model, max_steps=max_steps, **limits)
    return drive(NativeAgent(wire, budget, messages, policy), budget, question, on_step, trace)


def _as_messages(messages: str | list[dict[str, Any]]) -> list[dict[str, Any]]:
    if isinstance(messages, str):
        return [{"role": "user", "content": messages}]
    return [dict(m) for m in messages]


def _question(messages: list[dict[str, Any]]) -> str:
    """The last user message's text: what the run is about.

    >>> _question([{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Hi?"}])
    'Hi?'
    """
    for message in reversed(messages):
        if message.get("role") == "user" and isinstance(message.get("content"), str):
            return message["content"]
    return ""


class NativeAgent:
    """How a native step talks to the model: the history and the tool schemas in, calls out."""

    format = "native"

    def __init__(self, wire: Any, budget: Budget, messages: list[dict[str, Any]], policy: Any) -> None:
        self.wire, self.budget, self.policy = wire, budget, policy
        self.history: list[dict[str, Any]] = wire.start(messages)

    def prepare(self, steps: list[Step], forced: bool) -> tuple[list[dict[str, Any]], int]:
        if steps and steps[-1].error == "parse_error" and steps[-1].observations:
            # The last reply could not be read: the model is told why, so that asking again
            # is a different request (the same one at temperature 0 gets the same reply).
            self.history.append({"role": "user", "content": steps[-1].observation})
        return self.history, count_tokens(self.wire.size(self.history))  # on the high side for JSON

    def send(self, history: list[dict[str, Any]], forced: bool, timeout: float | None) -> Reply:
        return self.wire.send(history, tool_choice="none" if forced else None, timeout=timeout)

    def read(self, step: Step, reply: Reply, sent: int) -> Usage:
        """Record the reply; a reply without calls is the answer (a forced one keeps its text)."""
        step.text, step.usage = reply.text, reply.usage
        # The thought: hidden reasoning when the server shows it, else the text beside the calls.
        step.thought = reply.reasoning or (reply.text if reply.calls else "")
        step.message, step.calls = reply.message, list(reply.calls)
        self.history += reply.items
        if not reply.calls and not reply.text:  # the model's mistake, said to it like a text one's
            step.error = "parse_error"
            step.observations.append(Observation("", EMPTY_REPLY, "parse_error"))
        elif not reply.calls or (step.forced and reply.text):
            step.answer = reply.text
        return reply.usage

    def act(self, step: Step) -> None:
        """Run the calls and write the results back, each linked to its call by id."""
        step.observations = execute_turn(step.calls, self.wire.registry, self.budget, policy=self.policy)
        self.history += self.wire.results(step.observations)


def execute_turn(calls: list[ToolCall], registry: ToolRegistry, budget: Budget | None = None, *,
                 policy: Any = None) -> list[Observation]:
    """One turn's calls, each with its observation, in order: arguments that are not a JSON
    object are answered here; the rest pass ``execute_all`` (in parallel when all are read-only).
    """
    readable = [c for c in calls if isinstance(c.arguments, dict)]
    answered = iter(execute_all(readable, registry, budget, policy=policy))  # in the calls' order
    observations = []
    for call in calls:
        readable_call = isinstance(call.arguments, dict)
        observations.append(next(answered) if readable_call else unreadable(call, registry))
    return observations


def unreadable(call: ToolCall, registry: ToolRegistry) -> Observation:
    """The observation for arguments that are not a JSON object: what was wrong, and an example.

    The same unreadable call again counts as a repeat, as a text reply that cannot be read
    does (the step loop decides it: ``driver.note_repeated_unreadable``).
    """
    if call.name not in registry:
        return Observation(call.id, registry.unknown_tool_message(call.name), "unknown_tool")
    tool = registry[call.name]
    example = json.dumps({name: "..." for name in tool.parameters})
    return Observation(call.id, f"The arguments of this {call.name} call are not a JSON object: "
                                f"{short(str(call.arguments), 120)!r}. Send one JSON object that fits "
                                f"the schema, e.g. {example}.", "bad_input")
