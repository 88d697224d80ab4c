"""What stops a loop: limits, repeat detection and the hand-over.

Only one way of ending is decided by the model (a final answer); every other
way is decided by the program, because a model's own sense of being done is
the least reliable stopping rule. ``Limits`` gathers the program's rules. Each
is finite by default: a loop with no limit is a bug, not a feature.

Every run records why it ended, one of ``END_REASONS``; a rising share of
``step_limit`` endings across runs is the early warning that something is
wrong with a tool or a prompt.

What it leaves out (lesson 05): near-repeat and cycle detection, per-tool
retry caps, money budgets and per-task calibration.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from .errors import LimitExceeded

END_REASONS = (
    "final_answer",  # the model answered
    "step_limit",  # out of steps: a labelled best-effort answer or a hand-over
    "budget",  # out of tokens
    "time_limit",  # out of wall-clock time
    "repeating",  # kept repeating a call after being told not to
    "hand_over",  # handed to a person on purpose
    "interrupted",  # the user stopped it
    "error",  # the model kept failing (API errors, time-outs)
)


@dataclass(frozen=True)
class Limits:
    """The program's stopping rules for one run. All finite by default."""

    max_steps: int = 8  # model calls before the forced final-answer call
    max_tokens: int | None = 60_000  # estimated tokens sent and received over the run
    max_seconds: float | None = 300.0  # wall-clock time for the whole run
    tool_timeout: float | None = 20.0  # seconds for one tool call
    max_observation_chars: int = 2_000  # longer observations are truncated with a marker
    max_repeats: int = 2  # refused exact repeats; one more ends the run as "repeating"
    max_model_errors: int = 3  # failed model calls in a row before ending with "error"

    def __post_init__(self) -> None:
        # 0 is allowed: no tool steps, only the forced request for an answer.
        if isinstance(self.max_steps, bool) or not isinstance(self.max_steps, int) or self.max_steps < 0:
            raise ValueError(f"max_steps must be a whole number, 0 or more, got {self.max_steps!r}")

    @classmethod
    def from_options(cls, limits: Limits | None = None, **options: object) -> Limits:
        """``Limits`` from keyword options, rejecting misspelt ones loudly.

        A few common other names are accepted (``max_time``, ``token_budget``...).

        >>> Limits.from_options(max_time=5).max_seconds
        5
        """
        options = {ALIASES.get(name, name): value for name, value in options.items()}
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(options) - known)
        if unknown:
            raise TypeError(f"unknown limit(s) {unknown}; the limits are {sorted(known)}")
        base = limits or cls()
        return cls(**{**{f.name: getattr(base, f.name) for f in fields(cls)}, **options})

    def check_tokens(self, used: int, next_call: int) -> None:
        if self.max_tokens is not None and used + next_call > self.max_tokens:
            raise LimitExceeded(
                "budget",
                f"the next call would bring the run to {used + next_call:,} tokens "
                f"(limit {self.max_tokens:,})",
            )

    def check_time(self, elapsed: float) -> None:
        if self.max_seconds is not None and elapsed >= self.max_seconds:
            raise LimitExceeded("time_limit", f"the run took over {self.max_seconds:g} s")


# Other names people give these limits; each maps to the field it means.
ALIASES = {
    "max_time": "max_seconds", "time_limit": "max_seconds", "timeout": "max_seconds",
    "token_budget": "max_tokens", "max_total_tokens": "max_tokens", "budget": "max_tokens",
    "max_observation_length": "max_observation_chars", "max_repeated_calls": "max_repeats",
}


def repeat_key(tool: str, tool_input: str) -> tuple[str, str]:
    """Calls that differ only in case or spacing are the same call.

    >>> repeat_key("search", "  Eiffel   tower ") == repeat_key("search", "eiffel tower")
    True
    """
    return tool, " ".join(tool_input.lower().split())


def repeat_message(tool: str, tool_input: str, first_step: int) -> str:
    return (
        f"You already called {tool} with {tool_input!r} in step {first_step}; its observation "
        "is above and would be the same. Use it, try a different tool or input, "
        "or give your Final Answer."
    )
