"""The text ReAct loop: Thought, Action, Observation, until an answer or a limit.

The algorithm, before the guards::

    history = instructions + tools + question
    repeat at most max_steps times:
        reply = model(history, stop=["\\nObservation"])
        if reply is a final answer: return it
        observation = run the tool named in the reply (errors become text)
        history += reply + observation
    ask once for a best-effort answer; otherwise hand over with a summary

``run_react`` is that algorithm over parts that the native loop (lesson 07)
shares: the step loop (``driver.py``) makes, times, records and reports every
step, the ``Budget`` owns every counter and limit (``guards.py``), every tool
call passes through ``execute`` (``execute.py``), and every step goes into the
run record (``record.py``). What is the text loop's own (``TextAgent``): the
prompt, the stop sequence sent *and* applied on our side, and parsing the reply.

Nothing the model does makes ``run_react`` raise; only a bug in the program
(a misspelt option) or a model setting that fails before any call succeeded
does. What it leaves out: native tool calls (``native.py``), approval
policies (``safety.py``) and context compression (lesson 08).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .driver import OnStep, drive, new_budget
from .execute import Policy, execute
from .guards import Budget
from .models import takes
from .parsing import Action, FinalAnswer, ParseError, parse_step
from .prompts import build_prompt
from .record import Observation, RunResult, Step, ToolCall, Usage
from .stops import DEFAULT_STOPS, cut_at_end_of_turn, find_stop, new_question_at, strip_reasoning
from .tokens import count_tokens
from .tools import ToolRegistry, as_registry
from .transcript import scratchpad

MAX_REPLY_CHARS = 20_000  # a longer reply is read up to here; the rest is recorded as cut


def run_react(
    question: str,
    model: Callable[..., Any],
    tools: ToolRegistry | Mapping[str, Callable] | Sequence[Callable],
    *,
    max_steps: int = 8,
    stops: Sequence[str] = DEFAULT_STOPS,
    example: str | None = None,
    on_step: OnStep | None = None,
    policy: Policy | None = None,
    history: Callable[[str, list[Step]], str] | None = None,
    price: Any = None,
    trace: Any = None,
    **limits: Any,
) -> RunResult:
    """Answer ``question`` with ``model`` and ``tools``; never raises for the model's mistakes.

    ``limits`` are the fields of ``guards.Limits`` (max_tokens, max_seconds,
    tool_timeout, max_observation_chars, max_repeats, max_model_errors, max_cost...).
    ``example`` replaces the prompt's example trajectory ("" for none);
    ``on_step`` is called with each step as it completes; ``policy`` approves
    or refuses side-effecting tool calls; ``history(question, steps)``, when
    given, writes the scratchpad in place of the whole history (lesson 08's
    ``context.Compressor``). ``price`` (a ``cost.Price``) lets ``max_cost``
    be enforced for a model the price table does not know; ``trace`` (a
    ``trace.StepLog``) receives one event per step (lesson 09).
    """
    question, registry = str(question), as_registry(tools)
    budget = new_budget(question, price, getattr(model, "model", None), max_steps=max_steps, **limits)
    agent = TextAgent(question, model, registry, tuple(stops), budget, example, policy, history)
    return drive(agent, budget, question, on_step, trace)


@dataclass
class TextAgent:
    """How a text ReAct step talks to a model: a prompt in, a reply read with ``parse_step``."""

    question: str
    model: Callable[..., Any]
    registry: ToolRegistry
    stops: tuple[str, ...]
    budget: Budget
    example: str | None = None
    policy: Policy | None = None
    history: Callable[[str, list[Step]], str] | None = None
    format = "text"

    def prepare(self, steps: list[Step], forced: bool) -> tuple[str, int]:
        pad = self.history(self.question, steps) if self.history else scratchpad(steps)
        prompt = build_prompt(self.question, self.registry.describe(), self.registry.names, pad,
                              example=self.example, force_answer=forced)
        return prompt, count_tokens(prompt)

    def send(self, prompt: str, forced: bool, timeout: float | None) -> str:
        """The model's reply. A model that takes a ``timeout`` (the real ones do) is told the
        time left, so that its HTTP request ends with the run instead of lingering."""
        extra = {"timeout": timeout} if timeout is not None and takes(self.model, "timeout") else {}
        raw = self.model(prompt, list(self.stops), **extra)
        if not isinstance(raw, str | None):
            raise TypeError(f"the model returned {type(raw).__name__}, not text")
        return raw or ""

    def read(self, step: Step, raw: str, sent: int) -> Usage:
        return read_reply(step, raw, self.stops, usage_of(self.model, sent, raw))

    def act(self, step: Step) -> None:
        step.observations.append(execute(step.calls[0], self.registry, self.budget, policy=self.policy))


def usage_of(model: Any, prompt_tokens: int, reply: str) -> Usage:
    """The tokens of this call: the API's own count when the model reports one, else ours (exact)."""
    reported = getattr(model, "last_usage", None)
    sent, received = (getattr(reported, name, None) for name in ("prompt_tokens", "completion_tokens"))
    if isinstance(sent, int) and isinstance(received, int):
        return Usage(sent, received)
    return Usage(prompt_tokens, count_tokens(reply))


def read_reply(step: Step, raw: str, stops: Sequence[str], usage: Usage) -> Usage:
    """Cut the reply at the first stop sequence, parse it, and record what was read and cut."""
    step.usage = usage
    # A template's end-of-turn marker ends the reply; then a reasoning model's <think> block goes,
    # so that a stop word inside it does not cut the reply. A new question ends it as a stop does.
    text = strip_reasoning(cut_at_end_of_turn(raw))
    at = min((i for i in (find_stop(text, stops), new_question_at(text)) if i >= 0), default=-1)
    kept, after = (text, "") if at < 0 else (text[:at], text[at:])
    if len(kept) > MAX_REPLY_CHARS:  # a runaway reply: read the head, record the rest as cut
        kept, after = kept[:MAX_REPLY_CHARS], kept[MAX_REPLY_CHARS:] + after
    step.text, step.parsed = kept, parse_step(kept)
    step.thought = getattr(step.parsed, "thought", "")
    discarded = step.parsed.discarded if isinstance(step.parsed, Action) else ""
    step.cut = "\n".join(filter(None, [discarded, after]))
    if isinstance(step.parsed, ParseError):
        step.error = "parse_error"
        step.observations.append(Observation("", step.parsed.message, "parse_error"))
    elif isinstance(step.parsed, Action):
        step.calls.append(ToolCall(f"call_{step.number}", step.parsed.tool, step.parsed.input))
    elif isinstance(step.parsed, FinalAnswer):
        step.answer = step.parsed.answer
    return usage
