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
Only reading a reply and writing the results back differ, once for each of
OpenAI's two protocols (``wire.py``): Chat Completions (``tool_calls`` on
the assistant message, ``tool`` messages) and Responses (``function_call`` /
``function_call_output`` items linked by ``call_id``, reasoning items passed
back).

What it leaves out: streaming and other vendors' SDKs (their tool-use blocks are the same loop;
lesson 07 shows the shapes as data).
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Mapping
from typing import Any

from .errors import LimitReached, ModelConfigError, ModelError
from .execute import execute_all
from .guards import Budget, Limits
from .loop import call_within_budget, drive, model_failed
from .record import Observation, RunResult, Step, ToolCall, handover_summary, short
from .tokens import count_tokens
from .tools import ToolRegistry, as_registry
from .wire import PROTOCOLS, Reply, make_wire

__all__ = ["PROTOCOLS", "execute_turn", "native_client", "run_native"]


def run_native(
    client: Any,
    tools: ToolRegistry | Mapping[str, Callable[..., Any]],
    messages: str | list[dict[str, Any]],
    *,
    model: str,
    max_steps: int = 8,
    protocol: str = "chat",
    policy: Any = None,
    on_step: Callable[[Step], None] | None = None,
    parallel_tool_calls: bool | None = None,
    strict: bool = True,
    **limits: Any,
) -> RunResult:
    """Answer with native tool calls through ``client`` (an ``openai.OpenAI``).

    ``messages`` is the conversation so far (a question alone is one user
    message). ``protocol`` is "chat" (Chat Completions) or "responses".
    ``parallel_tool_calls=False`` asks for one call per turn, for when order
    matters; ``None`` leaves the server's default. ``limits`` are the fields
    of ``guards.Limits``. Nothing the model does makes it raise; a wrong
    setting (key, model name, URL) does, before the first successful call.
    """
    wire = make_wire(protocol, client, model, as_registry(tools), strict=strict,
                     parallel_tool_calls=parallel_tool_calls)
    messages = _as_messages(messages)
    budget = Budget(Limits.from_options(max_steps=max_steps, **limits), question=_question(messages))
    return _NativeRun(wire, budget, messages, policy, on_step).go()


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


class _NativeRun:
    """The state of one run; ``go`` is the loop."""

    def __init__(self, wire: Any, budget: Budget, messages: list[dict[str, Any]],
                 policy: Any, on_step: Callable[[Step], None] | None) -> None:
        self.wire, self.budget, self.policy, self.on_step = wire, budget, policy, on_step
        self.question = _question(messages)
        self.history: list[dict[str, Any]] = wire.start(messages)
        self.steps: list[Step] = []

    def go(self) -> RunResult:
        return drive(self.take_step, self.steps, self.budget, self.end)

    def take_step(self, forced: bool = False) -> Step:
        prompt_tokens = count_tokens(self.wire.size(self.history))  # on the high side for JSON
        self.budget.before_call(prompt_tokens)
        step, began = Step(len(self.steps) + 1, format="native", forced=forced), time.monotonic()
        try:
            reply = call_within_budget(lambda: self.wire.send(
                self.history, tool_choice="none" if forced else None,
                timeout=self.budget.remaining_seconds()), self.budget)
        except (ModelError, LimitReached) as error:  # retried within the budget, or the end of the run
            model_failed(step, error, self.budget, prompt_tokens, began)
        else:
            self.budget.after_call(reply.usage)
            self.read(step, reply, forced)
        step.latency = time.monotonic() - began
        self.steps.append(step)
        if self.on_step:
            self.on_step(step)
        return step

    def read(self, step: Step, reply: Reply, forced: bool) -> None:
        """Record the reply; run its calls and write the results back, linked by id."""
        step.text, step.usage = reply.text, reply.usage
        # The thought: hidden reasoning when the server shows it, else the text beside the calls.
        step.thought = reply.reasoning or (reply.text if reply.calls else "")
        step.message, step.calls = reply.message, list(reply.calls)
        self.history += reply.items
        if not reply.calls or forced:  # no calls: the answer; forced: calls are recorded, never run
            step.answer = reply.text if not reply.calls or reply.text else None
            return
        step.observations = self.run_calls(step.calls)
        step.error = next((o.error for o in step.observations if o.error), None)
        self.history += self.wire.results(step.observations)

    def run_calls(self, calls: list[ToolCall]) -> list[Observation]:
        return execute_turn(calls, self.wire.registry, self.budget, policy=self.policy)

    def end(self, end_reason: str, detail: str, answer: str | None = None) -> RunResult:
        answer = handover_summary(self.question, self.steps, detail) if answer is None else answer
        return RunResult(self.question, answer, end_reason, self.steps, detail, format="native")


def execute_turn(calls: list[ToolCall], registry: ToolRegistry, budget: Budget | None = None, *,
                 policy: Any = None) -> list[Observation]:
    """One turn's calls, each with its observation, in order: arguments that are not a JSON
    object are answered here; the rest pass ``execute_all`` (in parallel when all are read-only).
    """
    readable = [c for c in calls if isinstance(c.arguments, dict)]
    done = iter(execute_all(readable, registry, budget, policy=policy))
    return [next(done) if isinstance(c.arguments, dict) else unreadable(c, registry) for c in calls]


def unreadable(call: ToolCall, registry: ToolRegistry) -> Observation:
    """The observation for arguments that are not a JSON object: what was wrong, and an example."""
    if call.name not in registry:
        return Observation(call.id, registry.unknown_tool_message(call.name), "unknown_tool")
    tool = registry[call.name]
    example = json.dumps({name: "..." for name in tool.parameters})
    return Observation(call.id, f"The arguments of this {call.name} call are not a JSON object: "
                                f"{short(str(call.arguments), 120)!r}. Send one JSON object that fits "
                                f"the schema, e.g. {example}.", "bad_input")


def native_client(setting: str | None = None, *, base_url: str | None = None,
                  timeout: float | None = None, max_retries: int = 0) -> tuple[Any, str]:
    """An ``openai.OpenAI`` client and a model name, from the course's model setting.

    ``setting`` defaults to ``REACT_COURSE_MODEL``. "scripted" needs ``base_url``,
    the address ``scripted_api.serve()`` yields; a real setting ignores it and
    follows ``providers``: the key from ``OPENAI_API_KEY``, Ollama's local URL,
    ``REACT_COURSE_TIMEOUT`` seconds per call. The SDK's own retries are off by
    default: a failed call is a step the run's budget counts and retries.
    """
    import openai  # imported here: slow to import, and only native lessons need it

    from .providers import DEFAULT_TIMEOUT, ENV_VAR, TIMEOUT_VAR, effective_url, parse_model_spec
    from .providers import setting as number_setting

    spec = parse_model_spec(setting if setting is not None else os.environ.get(ENV_VAR))
    timeout = timeout or number_setting(TIMEOUT_VAR, DEFAULT_TIMEOUT)
    if spec.kind == "scripted":
        if base_url is None:
            raise ModelConfigError("the scripted model needs the address scripted_api.serve() yields "
                                   "(native_client(base_url=url)).")
        return openai.OpenAI(base_url=base_url, api_key="scripted", timeout=timeout,
                             max_retries=max_retries), "scripted"
    if spec.endpoint != "chat":
        raise ModelConfigError(f"{spec} is a completions endpoint (a base model); native tool calls need "
                               "a chat model: drop -completions from the setting.")
    key = "ollama" if spec.kind == "ollama" else os.environ.get("OPENAI_API_KEY")
    if not key and spec.base_url is None and not os.environ.get("OPENAI_BASE_URL"):
        raise ModelConfigError("OPENAI_API_KEY is not set. Set it in your shell (never in a notebook "
                               "cell), or use REACT_COURSE_MODEL=scripted.")
    client = openai.OpenAI(api_key=key or "not-needed", base_url=effective_url(spec.base_url),
                           timeout=timeout, max_retries=max_retries)
    return client, spec.name
