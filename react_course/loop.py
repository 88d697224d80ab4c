"""The text ReAct loop: Thought, Action, Observation, until an answer or a limit.

The algorithm, before the guards::

    history = instructions + tools + question
    repeat at most max_steps times:
        reply = model(history, stop=["\\nObservation"])
        if reply is a final answer: return it
        observation = run the tool named in the reply (errors become text)
        history += reply + observation
    ask once for a best-effort answer; otherwise hand over with a summary

Everything else here is what makes that safe to run unattended: a stop
sequence sent *and* applied on our side, error observations instead of
crashes, exact repeats refused, observations truncated, token and time
budgets, model failures retried only within the step budget, and a recorded
reason for every ending. Nothing the model does makes ``run_react`` raise;
only a bug in the program (a misspelt option, a tool that cannot be
described) does.

What it leaves out: native tool calls (``native.py``), approval of side
effects (``safety.py``) and context compression (lesson 08).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .guards import LimitExceeded, Limits, repeat_key, repeat_message
from .observations import truncate
from .parsing import Action, FinalAnswer, ParseError, parse_step
from .prompts import build_prompt, render_action, render_final
from .providers import ModelConfigError
from .stops import DEFAULT_STOPS, find_stop, strip_reasoning
from .tokens import TokenUsage, estimate_tokens
from .tools import ToolRegistry, as_registry

MAX_MODEL_TEXT = 2_000  # characters of one reply kept in the scratchpad
MAX_REPLY_CHARS = 20_000  # a longer reply is read up to here; the rest is recorded as cut
RETRYABLE = ("tool_error", "tool_timeout")  # outcomes that may differ on a second try


@dataclass
class Step:
    """One model call and what the program did with the reply."""

    number: int
    reply: str = ""  # what the model returned, after the client-side stop cut
    parsed: Action | FinalAnswer | ParseError | None = None  # None when the call failed
    observation: str = ""  # written by the program; for a failed call, the error
    error: str | None = None  # parse_error, unknown_tool, bad_input, tool_error, ... or None
    cut: str = ""  # text the program discarded (after a stop sequence or after the action)
    tokens: TokenUsage = field(default_factory=TokenUsage)
    latency: float = 0.0  # seconds for the model call and the tool
    forced: bool = False  # the extra call made at the step limit

    @property
    def thought(self) -> str:
        return getattr(self.parsed, "thought", "")

    @property
    def action(self) -> Action | None:
        return self.parsed if isinstance(self.parsed, Action) else None

    @property
    def final_answer(self) -> str | None:
        return self.parsed.answer if isinstance(self.parsed, FinalAnswer) else None

    def model_text(self) -> str:
        """What the model wrote, in the canonical format (as written, if unreadable)."""
        parsed = self.parsed
        if isinstance(parsed, Action):
            return render_action(_short(parsed.thought), parsed.tool, _short(parsed.input))
        if isinstance(parsed, FinalAnswer):
            return render_final(_short(parsed.thought), parsed.answer)
        return _short(self.reply) or "(empty reply)"

    def render(self) -> str:
        """The step as the model sees it in later prompts."""
        text = self.model_text()
        return f"{text}\nObservation: {self.observation}" if self.observation else text


@dataclass
class RunResult:
    """How a run went: the answer, why it ended, and every step."""

    question: str
    answer: str
    end_reason: str
    steps: list[Step]
    detail: str = ""  # for a forced ending, what forced it

    @property
    def succeeded(self) -> bool:
        return self.end_reason == "final_answer"

    @property
    def model_calls(self) -> int:
        return len(self.steps)

    @property
    def tokens(self) -> TokenUsage:
        return sum((s.tokens for s in self.steps), TokenUsage())

    @property
    def transcript(self) -> str:
        """The classic text trace."""
        return self.render()

    def render(self, authors: bool = False) -> str:
        """The trace; ``authors=True`` marks which lines the model wrote and which the program did."""
        lines = _trace_lines(self)
        if not authors:
            return "\n".join(text for _, text in lines)
        return "\n".join(f"{who:<7} | {text}" for who, text in lines)

    def to_messages(self) -> list[dict[str, str]]:
        """The run as chat messages: the model's turns, and observations as user turns."""
        messages = [{"role": "user", "content": f"Question: {self.question}"}]
        for step in self.steps:
            if step.parsed is None:
                continue
            messages.append({"role": "assistant", "content": step.model_text()})
            if step.observation:
                messages.append({"role": "user", "content": f"Observation: {step.observation}"})
        return messages

    def __repr__(self) -> str:
        return (f"RunResult(end_reason={self.end_reason!r}, model_calls={self.model_calls}, "
                f"answer={self.answer!r})")


def run_react(
    question: str,
    model: Callable[..., Any],
    tools: ToolRegistry | Mapping[str, Callable] | Sequence[Callable],
    *,
    max_steps: int = 8,
    stops: Sequence[str] = DEFAULT_STOPS,
    example: str | None = None,
    on_step: Callable[[Step], None] | None = None,
    **limits: Any,
) -> RunResult:
    """Answer ``question`` with ``model`` and ``tools``; never raises for the model's mistakes.

    ``limits`` are the fields of ``guards.Limits`` (max_tokens, max_seconds,
    tool_timeout, max_observation_chars, max_repeats, max_model_errors).
    ``example`` replaces the prompt's example trajectory ("" for none);
    ``on_step`` is called with each step as it completes.
    """
    run = _Run(question, model, as_registry(tools), Limits.from_options(max_steps=max_steps, **limits),
               tuple(stops), example, on_step)
    return run.go()


class _Run:
    """The state of one run; ``go`` is the loop."""

    def __init__(self, question, model, registry, limits, stops, example, on_step) -> None:
        self.question, self.model, self.registry = str(question), model, registry
        self.limits, self.stops, self.example, self.on_step = limits, stops, example, on_step
        self.steps: list[Step] = []
        self.first_call: dict[tuple[str, str], int] = {}
        self.refused = 0
        self.failures_in_a_row = 0
        self.started = time.monotonic()

    def go(self) -> RunResult:
        try:
            for number in range(1, self.limits.max_steps + 1):
                step = self.take_step(number)
                if step.final_answer is not None:
                    return self.result(step.final_answer, "final_answer")
                if self.failures_in_a_row >= self.limits.max_model_errors:
                    return self.stop("error", f"the model failed {self.failures_in_a_row} times "
                                              f"in a row (last: {step.observation})")
                if self.refused > self.limits.max_repeats:
                    return self.stop("repeating", f"the model repeated a call {self.refused} times "
                                                  "after being told not to")
            if self.steps and self.steps[-1].parsed is None:
                return self.stop("error", f"the model's last call failed ({self.steps[-1].observation})")
            return self.force_answer()
        except LimitExceeded as limit:
            return self.stop(limit.end_reason, limit.detail)
        except KeyboardInterrupt:
            return self.stop("interrupted", "the user interrupted the run")

    def prompt(self, force: bool = False) -> str:
        scratchpad = "\n".join(s.render() for s in self.steps if s.parsed is not None)
        return build_prompt(self.question, self.registry.describe(), self.registry.names,
                            scratchpad, example=self.example, force_answer=force)

    def take_step(self, number: int, force: bool = False) -> Step:
        prompt = self.prompt(force)
        prompt_tokens = estimate_tokens(prompt)
        self.limits.check_time(time.monotonic() - self.started)
        self.limits.check_tokens(sum(s.tokens for s in self.steps), prompt_tokens)
        step, began = Step(number, forced=force), time.monotonic()
        try:
            raw = self.model(prompt, list(self.stops))
            if not isinstance(raw, str | None):
                raise TypeError(f"the model returned {type(raw).__name__}, not text")
        except ModelConfigError:
            raise  # a missing key or a bad setting: the program is wrong, retrying cannot help
        except Exception as error:  # an API error or time-out: recorded, retried within the budget
            self.failures_in_a_row += 1
            step.error, step.observation = "model_error", f"{type(error).__name__}: {error}"
            step.tokens = TokenUsage(prompt_tokens, 0)
        else:
            self.failures_in_a_row = 0
            self.read_reply(step, raw or "", prompt_tokens, force)
        step.latency = time.monotonic() - began
        self.steps.append(step)
        if self.on_step:
            self.on_step(step)
        return step

    def read_reply(self, step: Step, raw: str, prompt_tokens: int, force: bool) -> None:
        step.tokens = TokenUsage(prompt_tokens, estimate_tokens(raw))
        # A reasoning model's <think> block goes first: a stop word inside it must not cut the reply.
        text = strip_reasoning(raw)
        at = find_stop(text, self.stops)
        kept, after = (text, "") if at < 0 else (text[:at], text[at:])
        if len(kept) > MAX_REPLY_CHARS:  # a runaway reply: read the head, record the rest as cut
            kept, after = kept[:MAX_REPLY_CHARS], kept[MAX_REPLY_CHARS:] + after
        step.reply = kept
        step.parsed = parse_step(kept)
        discarded = step.parsed.discarded if isinstance(step.parsed, Action) else ""
        step.cut = "\n".join(filter(None, [discarded, after]))
        if isinstance(step.parsed, ParseError):
            step.error, step.observation = "parse_error", step.parsed.message
        elif isinstance(step.parsed, Action) and not force:
            self.act(step, step.parsed)

    def act(self, step: Step, action: Action) -> None:
        key = repeat_key(action.tool, action.input)
        stateful = action.tool in self.registry and self.registry[action.tool].repeatable
        if key in self.first_call and not stateful:
            self.refused += 1
            step.error = "repeat"
            step.observation = repeat_message(action.tool, action.input, self.first_call[key])
            return
        outcome = self.registry.call(action.tool, action.input, timeout=self.limits.tool_timeout)
        if outcome.error not in RETRYABLE:  # a failure that may pass is not a repeat when retried
            self.first_call.setdefault(key, step.number)
        step.error = outcome.error
        step.observation = truncate(outcome.text, self.limits.max_observation_chars,
                                    tip="Ask for something narrower to see the rest")

    def force_answer(self) -> RunResult:
        step = self.take_step(len(self.steps) + 1, force=True)
        n = self.limits.max_steps
        detail = f"no final answer within {n} step{'' if n == 1 else 's'}"
        if step.final_answer is not None:
            answer = f"Best effort (step limit of {n} reached; not verified): {step.final_answer}"
            return self.result(answer, "step_limit", detail)
        return self.stop("step_limit", detail)

    def stop(self, end_reason: str, detail: str) -> RunResult:
        return self.result(handover_summary(self.question, self.steps, detail), end_reason, detail)

    def result(self, answer: str, end_reason: str, detail: str = "") -> RunResult:
        return RunResult(self.question, answer, end_reason, self.steps, detail)


def handover_summary(question: str, steps: list[Step], detail: str) -> str:
    """What a person taking over needs: why it stopped, what was done, what is open."""
    done = [f"{s.action.tool}[{_short(s.action.input, 60)}] -> {_short(s.observation, 100)}"
            for s in steps if s.action and s.observation and s.error is None]
    tried = "; ".join(done) if done else "no tool call succeeded"
    tried += "" if tried.endswith(".") else "."  # observations often end with their own full stop
    return (f"Could not finish: {detail}. Done so far: {tried} "
            f"Still open: an answer to {question!r}. Hand this to a person.")


def _trace_lines(result: RunResult) -> list[tuple[str, str]]:
    lines = [("program", f"Question: {result.question}")]
    for step in result.steps:
        if step.forced:
            lines.append(("program", "[step limit reached: the model is asked for a final answer]"))
        if step.parsed is None:
            lines.append(("program", f"[model call {step.number} failed: {step.observation}]"))
            continue
        lines += [("model", line) for line in step.model_text().splitlines()]
        if step.cut:
            lines.append(("program", f"[discarded by the program: {_short(step.cut, 80)!r}]"))
        if step.forced and step.action:
            lines.append(("program", "[not run: no steps left]"))
        if step.observation:
            first, *more = f"Observation: {step.observation}".splitlines()
            lines += [("program", first), *(("program", line) for line in more)]
    calls = result.model_calls
    ending = f"[ended: {result.end_reason} after {calls} model call{'s' * (calls != 1)}]"
    lines.append(("program", ending))
    if result.end_reason != "final_answer":
        lines.append(("program", f"Answer: {result.answer}"))
    return lines


def _short(text: str, limit: int = MAX_MODEL_TEXT) -> str:
    """One text, cut to ``limit`` characters with a marker.

    >>> _short("abcdef", 4)
    'abcd...'
    """
    return text if len(text) <= limit else text[:limit] + "..."
