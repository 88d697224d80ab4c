"""What stops a loop: the limits, and the one budget object that enforces them.

The rules themselves, ``Limits`` and the ``END_REASONS``, are in
``limits.py``; this module is the ``Budget`` that enforces them.

``Budget`` owns every counter of one run (steps, tokens, time, refused
repeats, model failures in a row) and raises ``LimitReached`` with the end
reason when a limit is reached. Both loops, text and native, use it, so a
guard is added once, here.

One budget per run, built for both loops by ``driver.new_budget``.

Every run records why it ended, one of ``END_REASONS``; a rising share of
``step_limit`` endings across runs is the early warning that something is
wrong with a tool or a prompt.

Lesson 05 adds what a stuck model needs: near-repeats and two calls taking
turns (``stopping.RepeatWatch``: one nudge, then the run ends), a cap on the
failures of one tool (against error spirals), and the back-off state for
retried model calls (``retry.wait_before_retry``, called from
``driver.call_within_budget``, the one way both loops call a model). Lesson
06 adds what ``execute`` checks for safety: the texts seen in this run (for
argument provenance) and two switches.

Money: ``max_cost`` holds only where calls can be priced, so ``price_calls``
takes a price (the caller's, or the price table's entry for the model) and
refuses a money cap it could not enforce; a limit that is accepted and never
checked is worse than none. What it leaves out: the step table per kind of
task (``stopping.steps_for`` picks ``max_steps``).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from decimal import Decimal

from .context_cost.cost import Price, cost, money, price_of
from .errors import LimitExceeded, LimitReached
from .limits import END_REASONS, Limits
from .record import Observation, ToolCall, Usage
from .retry import default_backoff
from .stopping import RepeatWatch, refusals

__all__ = ["END_REASONS", "Budget", "LimitExceeded", "LimitReached", "Limits", "repeat_key"]

# Failures that may pass on a second try: asking again is not a repeat.
RETRYABLE_ERRORS = ("tool_error", "tool_timeout")


class Budget:
    """Every counter of one run, and the checks that end it. One per run."""

    def __init__(self, limits: Limits | None = None, clock: Callable[[], float] = time.monotonic,
                 question: str = "", sleep: Callable[[float], None] = time.sleep) -> None:
        self.limits = limits or Limits()
        self.clock = clock
        self.started = clock()
        self.steps_taken = 0
        self.usage = Usage()
        self.price: Price | None = None  # how calls are priced (``price_calls``); None: unpriced
        self.cost: Decimal | None = None  # money spent so far, once calls are priced
        self.failures_in_a_row = 0
        self.fatal = False
        self.successful_calls = 0
        self.refused = 0  # calls refused: exact repeats, and calls to a tool that kept failing
        self.refused_tools: dict[str, int] = {}  # the second kind, by tool
        self.unreadable_again = 0  # unreadable replies sent again word for word (no call made)
        self.first_call: dict[tuple[str, str], int] = {}
        # lesson 05: no progress, error spirals, back-off; lesson 06: what this run has seen
        self.watch = RepeatWatch()
        self.tool_errors: dict[str, int] = {}
        self.last_model_error: BaseException | None = None
        self.backoff, self.rng, self.sleep, self.waited = default_backoff(), random.Random(), sleep, 0.0
        self.question = question
        self.seen: list[str] = [question] if question else []

    # time -------------------------------------------------------------------------------
    def elapsed(self) -> float:
        return self.clock() - self.started

    def remaining_seconds(self) -> float | None:
        """Time left in the run (None when it has no time limit)."""
        if self.limits.max_seconds is None:
            return None
        return max(0.0, self.limits.max_seconds - self.elapsed())

    def check_time(self) -> None:
        limit = self.limits.max_seconds
        if limit is not None and self.elapsed() >= limit:
            raise LimitReached("time_limit", f"the run took over {limit:g} s")

    # money ---------------------------------------------------------------------------
    def price_calls(self, price: Price | None = None, model: str | None = None) -> None:
        """Price every call at ``price``, or at the price table's entry for ``model``.

        A ``max_cost`` that no price can enforce is refused here, before any call:

        >>> Budget(Limits(max_cost=Decimal("0.01"))).price_calls(None, "my-local-model")
        Traceback (most recent call last):
        ValueError: max_cost=0.01 cannot be enforced: there is no price for 'my-local-model' ...
        """
        price = price if price is not None else price_of(model) if isinstance(model, str) else None
        if price is not None and (price.input is None or price.output is None):
            price = None  # a partial price cannot bound a run
        if price is None and self.limits.max_cost is not None:
            raise ValueError(
                f"max_cost={self.limits.max_cost} cannot be enforced: there is no price for {model!r} "
                "in the price table (react_course.context_cost.cost.prices()). "
                "Pass price=react_course.context_cost.cost.Price(...) "
                "with its input and output prices, or leave max_cost out.")
        self.price, self.cost = price, (Decimal(0) if price is not None else None)

    def _priced(self, usage: Usage) -> Decimal:
        """The money for ``usage``; cached input with no cached price counts at the full price."""
        amount = cost(usage, self.price)
        if amount is None:  # only the cached price can be missing here: take the higher one
            amount = cost(Usage(usage.input, usage.output), self.price)
        return amount if amount is not None else Decimal(0)

    # model calls -----------------------------------------------------------------------
    def before_call(self, prompt_tokens: int) -> None:
        """Before a model call: is there time, and room for this prompt (in tokens and money)?"""
        self.check_time()
        limit, used = self.limits.max_tokens, self.usage.total
        if limit is not None and used + prompt_tokens > limit:
            raise LimitReached("budget", f"the run has used {used:,} tokens, and sending the next prompt "
                                         f"({prompt_tokens:,}) would bring it to {used + prompt_tokens:,} "
                                         f"before any reply (limit {limit:,})")
        cap = self.limits.max_cost
        if cap is not None and self.cost is not None:
            after = self.cost + self._priced(Usage(prompt_tokens, 0))
            if after > cap:
                raise LimitReached("budget", f"the run has cost {money(self.cost, 6)}, and sending the next "
                                             f"prompt would bring it to {money(after, 6)} before any reply "
                                             f"(limit {money(cap, 6)})")
        self.steps_taken += 1

    def after_call(self, usage: Usage) -> None:
        self.usage += usage
        if self.cost is not None:
            self.cost += self._priced(usage)
        self.failures_in_a_row = 0
        self.successful_calls += 1

    def model_failed(self, usage: Usage, fatal: bool = False) -> None:
        """Count a failed call; ``fatal`` when asking again cannot help (a full context window)."""
        self.usage += usage
        self.failures_in_a_row += 1
        self.fatal = self.fatal or fatal

    def check_failures(self, last: str = "", fatal_ends: bool = True) -> None:
        """End the run after a failure that cannot pass, or ``max_model_errors`` failures in a row.

        ``fatal_ends=False`` leaves a failure that cannot pass to the retry path, which says why.
        """
        if self.fatal and fatal_ends:
            raise LimitReached("error", f"the model call failed and asking again cannot help ({last})")
        if self.failures_in_a_row >= self.limits.max_model_errors:
            raise LimitReached("error", f"the model failed {self.failures_in_a_row} times in a row "
                                        f"(last: {last})")

    def after_step(self, last_observation: str = "") -> None:
        """After a step is recorded: too many failures in a row, or refused repeats, end the run."""
        self.check_failures(last_observation)
        if self.refused > self.limits.max_repeats:
            raise LimitReached("repeating", refusals(self.refused, self.refused_tools, self.tool_errors,
                                                     self.unreadable_again))
        self.watch.check()

    # tool calls --------------------------------------------------------------------------
    def check_repeat(self, call: ToolCall, repeatable: bool = False,
                     this_turn: set[tuple[str, str]] | None = None) -> str | None:
        """The refusal for an exact repeat of an earlier call, or None to go ahead.

        ``this_turn`` holds the calls already let through in the same turn: a native
        turn's calls are all decided here, on the calling thread, before any runs.
        """
        key = repeat_key(call.name, call.arguments)
        if repeatable:
            return None
        if this_turn is not None and key in this_turn:
            self.refused += 1
            return (f"You asked for {call.name} with {call.arguments!r} twice in this turn; "
                    "it runs once, and its result answers both.")
        first = self.first_call.get(key)
        if first is None:
            if this_turn is not None:
                this_turn.add(key)
            return None
        self.refused += 1
        return repeat_message(call.name, call.arguments, first)

    def record_call(self, call: ToolCall, observation: Observation) -> None:
        """Remember a call; one that failed in a way that may pass is not a repeat if asked again."""
        if observation.error not in RETRYABLE_ERRORS and observation.error != "repeat":
            self.first_call.setdefault(repeat_key(call.name, call.arguments), self.steps_taken)

    def check_unreadable(self, reply: str) -> str | None:
        """A note for an unreadable reply sent before (it counts as a refused repeat), else None."""
        note = self.watch.see_unreadable(reply, self.steps_taken)
        self.refused += note is not None
        self.unreadable_again += note is not None
        return note

    def check_tool_errors(self, call: ToolCall) -> str | None:
        """The refusal for a tool that has failed ``max_tool_errors`` times in this run, or None."""
        failed = self.tool_errors.get(call.name, 0)
        if failed < self.limits.max_tool_errors:
            return None
        self.refused += 1  # calling it again after being told not to counts like a repeat
        self.refused_tools[call.name] = self.refused_tools.get(call.name, 0) + 1
        return (f"{call.name} has failed {failed} times in this run and is not called again. "
                "Use another tool, give your Final Answer from what you have, or hand over.")

    def note_observation(self, call: ToolCall, observation: Observation) -> str | None:
        """After a call: count a failure, remember the text, and watch for no progress.

        Returns the nudge to add to the observation (once per run), or None.
        """
        if observation.error in ("tool_error", "tool_timeout"):  # the tool failed, not the input
            self.tool_errors[call.name] = self.tool_errors.get(call.name, 0) + 1
        self.seen.append(observation.text)
        arguments = call.arguments
        text = arguments if isinstance(arguments, str) else repr(sorted(arguments.items()))
        return self.watch.see(call.name, text, observation.text)


def repeat_key(tool: str, arguments: str | dict) -> tuple[str, str]:
    """Calls that differ only in case or spacing are the same call.

    >>> repeat_key("search", "  Eiffel   tower ") == repeat_key("search", "eiffel tower")
    True
    >>> repeat_key("price", {"item": "pen", "n": 2}) == repeat_key("price", {"n": 2, "item": "pen"})
    True
    """
    text = arguments if isinstance(arguments, str) else repr(sorted(arguments.items()))
    return tool, " ".join(text.lower().split())


def repeat_message(tool: str, arguments: str | dict, first_step: int) -> str:
    return (
        f"You already called {tool} with {arguments!r} in step {first_step}; its observation "
        "is above and would be the same. Use it, try a different tool or input, "
        "or give your Final Answer."
    )
