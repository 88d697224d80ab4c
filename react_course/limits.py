"""The program's stopping rules for a run, and every way a run can end.

Only one way of ending is decided by the model (a final answer); every other
way is decided by the program, because a model's own sense of being done is
the least reliable stopping rule. ``Limits`` gathers the program's rules,
each finite by default: a loop with no limit is a bug, not a feature. The
``Budget`` of ``guards.py`` enforces them, the same for both loops.

What it leaves out: counting (``guards.Budget``), and lesson 05's teaching
view of the same rules (``stopping.StopRules``, ``Limits.from_stop_rules``).
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, fields
from decimal import Decimal

END_REASONS = (
    "final_answer",  # the model answered
    "step_limit",  # out of steps: a labelled best-effort answer or a hand-over
    "budget",  # out of tokens or money
    "time_limit",  # out of wall-clock time
    "repeating",  # kept repeating a call after being told not to
    "hand_over",  # handed to a person on purpose
    "interrupted",  # the user stopped it
    "error",  # the model kept failing (API errors, time-outs), or cannot be called
)


@dataclass(frozen=True)
class Limits:
    """The program's stopping rules for one run. All finite by default."""

    max_steps: int = 8  # model calls before the forced final-answer call
    max_tokens: int | None = 60_000  # tokens sent and received over the run
    max_cost: Decimal | None = None  # money over the run, where prices are known (lesson 08)
    max_seconds: float | None = 300.0  # wall-clock time for the whole run
    tool_timeout: float | None = 20.0  # seconds for one tool call
    max_observation_chars: int = 2_000  # longer observations are truncated with a marker
    max_repeats: int = 2  # refused exact repeats; one more ends the run as "repeating"
    max_model_errors: int = 3  # failed model calls in a row before ending with "error"
    max_tool_errors: int = 3  # failures of one tool before calls to it are refused (error spirals)
    check_ids: bool = False  # refuse any call with an id never seen (side effects: always)
    mark_untrusted: bool = False  # wrap each tool result as untrusted data in the prompt

    def __post_init__(self) -> None:
        # 0 is allowed: no tool steps, only the forced request for an answer.
        if isinstance(self.max_steps, bool) or not isinstance(self.max_steps, int) or self.max_steps < 0:
            raise ValueError(f"max_steps must be a whole number, 0 or more, got {self.max_steps!r}")

    @classmethod
    def from_options(cls, limits: Limits | None = None, **options: object) -> Limits:
        """``Limits`` from keyword options; a misspelt one is a TypeError that names the right one.

        >>> Limits.from_options(max_seconds=5).max_seconds
        5
        >>> Limits.from_options(max_second=5)
        Traceback (most recent call last):
        TypeError: unknown limit 'max_second': did you mean 'max_seconds'? The limits are ...
        """
        known = [f.name for f in fields(cls)]
        for name in options:
            if name not in known:
                close = [OTHER_NAMES[name]] if name in OTHER_NAMES else difflib.get_close_matches(
                    name, known, n=1, cutoff=0.5)
                guess = f": did you mean {close[0]!r}?" if close else "."
                raise TypeError(f"unknown limit {name!r}{guess} The limits are {', '.join(known)}.")
        values = {name: getattr(limits or cls(), name) for name in known}
        values.update(options)
        return cls(**values)

    @classmethod
    def from_stop_rules(cls, rules: object, **options: object) -> Limits:
        """The loop's limits for lesson 05's ``StopRules``: the same run stops at the same count.

        >>> from react_course.stopping import StopRules
        >>> limits = Limits.from_stop_rules(StopRules())
        >>> limits.max_steps, limits.max_cost, limits.max_seconds, limits.max_repeats
        (12, Decimal('20'), 120.0, 2)
        """
        return cls.from_options(max_steps=rules.max_steps, max_cost=rules.max_cost,
                                max_seconds=rules.max_seconds, max_repeats=rules.max_repeats - 1,
                                **options)


# Names people give these limits: suggested, never silently accepted (``timeout=`` could
# mean one tool call or the whole run, and guessing wrong ends runs for the wrong reason).
OTHER_NAMES = {
    "max_time": "max_seconds", "time_limit": "max_seconds", "timeout": "tool_timeout",
    "token_budget": "max_tokens", "max_total_tokens": "max_tokens", "budget": "max_tokens",
    "max_cost_usd": "max_cost", "money": "max_cost", "max_observation_length": "max_observation_chars",
    "max_repeated_calls": "max_repeats", "max_iterations": "max_steps", "max_turns": "max_steps",
}
