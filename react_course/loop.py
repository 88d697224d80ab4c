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
shares: the ``Budget`` owns every counter and limit (``guards.py``), every
tool call passes through ``execute`` (``execute.py``), and every step goes
into the run record (``record.py``). What is the text loop's own: the prompt,
the stop sequence sent *and* applied on our side, and parsing the reply.

Nothing the model does makes ``run_react`` raise; only a bug in the program
(a misspelt option) or a model setting that fails before any call succeeded
does. What it leaves out: native tool calls (``native.py``), approval
policies (``safety.py``) and context compression (lesson 08).
"""

from __future__ import annotations

import inspect
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from .errors import LimitReached, ModelConfigError
from .execute import Policy, ToolTimeout, execute, run_with_time_limit
from .guards import Budget, Limits
from .parsing import Action, FinalAnswer, ParseError, parse_step
from .prompts import build_prompt
from .record import Observation, RunResult, Step, ToolCall, Usage, handover_summary
from .retry import is_retryable, wait_before_retry
from .stops import DEFAULT_STOPS, find_stop, strip_reasoning
from .tokens import count_tokens
from .tools import ToolRegistry, as_registry
from .transcript import scratchpad

T = TypeVar("T")
MAX_REPLY_CHARS = 20_000  # a longer reply is read up to here; the rest is recorded as cut


def run_react(
    question: str,
    model: Callable[..., Any],
    tools: ToolRegistry | Mapping[str, Callable] | Sequence[Callable],
    *,
    max_steps: int = 8,
    stops: Sequence[str] = DEFAULT_STOPS,
    example: str | None = None,
    on_step: Callable[[Step], None] | None = None,
    policy: Policy | None = None,
    history: Callable[[str, list[Step]], str] | None = None,
    **limits: Any,
) -> RunResult:
    """Answer ``question`` with ``model`` and ``tools``; never raises for the model's mistakes.

    ``limits`` are the fields of ``guards.Limits`` (max_tokens, max_seconds,
    tool_timeout, max_observation_chars, max_repeats, max_model_errors...).
    ``example`` replaces the prompt's example trajectory ("" for none);
    ``on_step`` is called with each step as it completes; ``policy`` approves
    or refuses side-effecting tool calls; ``history(question, steps)``, when
    given, writes the scratchpad in place of the whole history (lesson 08's
    ``context.Compressor``).
    """
    question, registry = str(question), as_registry(tools)
    budget = Budget(Limits.from_options(max_steps=max_steps, **limits), question=question)
    steps: list[Step] = []

    def take_step(force: bool = False) -> Step:
        pad = history(question, steps) if history else scratchpad(steps)
        prompt = build_prompt(question, registry.describe(), registry.names, pad,
                              example=example, force_answer=force)
        step = text_step(len(steps) + 1, model, prompt, tuple(stops), budget, force)
        steps.append(step)  # in the trace even when its tool call ends the run
        if isinstance(step.parsed, Action) and not force:
            run_call(step, registry, budget, policy)
        if on_step:
            on_step(step)
        return step

    def end(end_reason: str, detail: str, answer: str | None = None) -> RunResult:
        answer = handover_summary(question, steps, detail) if answer is None else answer
        return RunResult(question, answer, end_reason, steps, detail)

    return drive(take_step, steps, budget, end)


def drive(take_step: Callable[[bool], Step], steps: list[Step], budget: Budget,
          end: Callable[..., RunResult]) -> RunResult:
    """The loop both agents share: steps until an answer or a limit, then one forced call.

    ``take_step(force)`` makes one model call (and runs its tools) and appends
    the step to ``steps``; ``end(reason, detail, answer=None)`` builds the result.
    """
    try:
        for _ in range(budget.limits.max_steps):
            step = take_step(False)
            if step.answer is not None:
                return end("final_answer", "", step.answer)
            budget.after_step(step.observation)
        if steps and steps[-1].model_failed:
            return end("error", f"the model's last call failed ({steps[-1].observation})")
        return force_answer(take_step(True), budget.limits.max_steps, end)
    except LimitReached as limit:
        steps.extend(getattr(limit, "steps", []))  # a call cut off by the time limit stays in the trace
        return end(limit.end_reason, limit.detail)
    except KeyboardInterrupt:
        return end("interrupted", "the user interrupted the run")


def run_call(step: Step, registry: ToolRegistry, budget: Budget, policy: Policy | None) -> None:
    """Run the step's call. A call that ends the run (a hand-over tool, Ctrl-C) still gets its line."""
    call = step.calls[0]
    try:
        observation = execute(call, registry, budget, policy=policy)
    except (LimitReached, KeyboardInterrupt) as stop:
        why = getattr(stop, "detail", "") or "the user interrupted the run"
        step.observations.append(Observation(call.id, f"[the run ended during this call: {why}]"))
        raise
    step.observations.append(observation)
    step.error = observation.error


def force_answer(step: Step, max_steps: int, end: Callable[..., RunResult]) -> RunResult:
    """At the step limit: a labelled best-effort answer if the model gave one, else hand over."""
    detail = f"no final answer within {max_steps} step{'' if max_steps == 1 else 's'}"
    if step.answer is None:
        return end("step_limit", detail)
    return end("step_limit", detail,
               f"Best effort (step limit of {max_steps} reached; not verified): {step.answer}")


def text_step(number: int, model: Callable[..., Any], prompt: str, stops: tuple[str, ...],
              budget: Budget, force: bool = False) -> Step:
    """One model call, read as a text ReAct step (the tool is not run here)."""
    prompt_tokens = count_tokens(prompt)
    budget.before_call(prompt_tokens)
    step, began = Step(number, forced=force), time.monotonic()
    try:
        raw = call_model(model, prompt, stops, budget)
    except Exception as error:  # an API error or a time-out: recorded, retried within the budget
        model_failed(step, error, budget, prompt_tokens, began)
    else:
        budget.after_call(read_reply(step, raw or "", stops, usage_of(model, prompt_tokens, raw or "")))
    step.latency = time.monotonic() - began
    return step


def call_model(model: Callable[..., Any], prompt: str, stops: Sequence[str], budget: Budget) -> str | None:
    """The text model's call, through ``call_within_budget``.

    A model that takes a ``timeout`` (the real ones do) is also told the time left, so
    that its HTTP request ends with the run instead of lingering in the background.
    """
    left = budget.remaining_seconds()
    extra = {"timeout": left} if left is not None and _takes_timeout(model) else {}
    raw = call_within_budget(lambda: model(prompt, list(stops), **extra), budget)
    if not isinstance(raw, str | None):
        raise TypeError(f"the model returned {type(raw).__name__}, not text")
    return raw


def _takes_timeout(model: Callable[..., Any]) -> bool:
    try:
        return "timeout" in inspect.signature(model).parameters
    except (TypeError, ValueError):  # a builtin or an object without a readable signature
        return False


def call_within_budget(call: Callable[[], T], budget: Budget) -> T:
    """The one way both loops call a model: the run's remaining time applies to the call in flight.

    After a failed call, the next one first waits the back-off (``retry.wait_before_retry``:
    exponential, jittered, at least the server's Retry-After, never past the run's time).
    """
    wait_before_retry(budget)
    try:
        return run_with_time_limit(call, budget.remaining_seconds())
    except ToolTimeout:
        raise LimitReached("time_limit", f"the run took over {budget.limits.max_seconds:g} s "
                                         "(a model call was still running)") from None
    except Exception as error:
        budget.last_model_error = error  # for the back-off before the next attempt
        raise


def model_failed(step: Step, error: Exception, budget: Budget, prompt_tokens: int, began: float) -> None:
    """Record a failed model call in its step; raise what must end the run.

    A bad setting before any call succeeded is the program's error (raised as is);
    running out of time ends the run with the unanswered call in the trace;
    anything else is counted, and retried within the budget unless it cannot pass.
    """
    if isinstance(error, ModelConfigError) and budget.successful_calls == 0:
        raise error
    step.error, step.latency = "model_error", time.monotonic() - began
    if isinstance(error, LimitReached):
        step.observations.append(Observation("", f"no reply: {error.detail}", "model_error"))
        error.steps = [step]
        raise error
    budget.model_failed(Usage(prompt_tokens, 0), fatal=not is_retryable(error))
    step.observations.append(Observation("", f"{type(error).__name__}: {error}", "model_error"))


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
    # A reasoning model's <think> block goes first: a stop word inside it must not cut the reply.
    text = strip_reasoning(raw)
    at = find_stop(text, stops)
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
