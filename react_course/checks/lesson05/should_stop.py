"""Check 05.should_stop: the stopping decision, limits reached when the count equals them.

The student's function gets a ``RunState`` and (optionally) ``StopRules``; each
case builds one state and compares the reason that comes back.
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal, localcontext
from typing import Any

from ...stopping import RunState, StopRules
from .. import exercise
from ..framework import Case
from ..generated import Comparison, Draw, call_text, same_value
from .faults import Diagnosed, Fault

GENERATED = "agrees with the answer key on generated inputs"
RULES = {
    "A limit is reached when the count equals it": (
        "12 steps of 12: step_limit", "3 repeats of 3: repeating", "120 s of 120: time_limit",
        "₹20 of ₹20: budget", "a hair under ₹20 goes on", GENERATED),
    "A threshold of 0 is a limit too": ("a money cap of 0 stops at once", GENERATED),
    "return `None` while the run may go on": (
        "a fresh run goes on", "11 steps of 12 goes on", "just under every limit goes on"),
    "`\"step_limit\"`": ("12 steps of 12: step_limit", "a smaller step limit from the rules"),
    "`\"budget\"`": ("₹20 of ₹20: budget", "₹4,000 overnight: budget"),
    "`\"time_limit\"`": ("120 s of 120: time_limit",),
    "`\"repeating\"`": ("3 repeats of 3: repeating",),
    "use the thresholds in `rules`, not fixed numbers": (
        "a smaller step limit from the rules", "a smaller money cap from the rules",
        "a shorter time limit from the rules", "fewer repeats from the rules", GENERATED),
    "the user's interruption first, then the model's answer, then a hand-over, then the limits": (
        "an interruption beats everything", "an answer on the last step is an answer",
        "a hand-over beats a limit", "an answer beats a hand-over"),
    "Then the limits, in this order": (
        "every limit at once: steps first", "money before time", "time before repeats"),
}


def _case(should_stop: Callable, name: str, state: RunState, expected: str | None, hint: str,
          rules: StopRules | None = None) -> Case:
    def run() -> Any:
        return should_stop(state) if rules is None else should_stop(state, rules)

    shown = ", ".join(f"{k}={v!r}" for k, v in vars(state).items() if v != getattr(RunState(), k))
    given = f"should_stop(RunState({shown}){'' if rules is None else f', {rules!r}'})"
    return Case(name, run, expected=expected, given=given, hint=hint)


@exercise(
    "05.should_stop",
    "decide whether a run must stop, and why",
    hints=(
        "Check interrupted, answered and handed_over first, in that order; then each limit.",
        "A limit of 12 steps means the 12th step was the last: stop when steps >= 12, not > 12.",
        "Read the thresholds from rules (rules.max_steps, rules.max_cost, ...), never 12 or 20.",
    ),
    rules=RULES,
)
def should_stop_cases(should_stop: Callable):
    small = StopRules(max_steps=3, max_cost=Decimal("5"), max_seconds=10, max_repeats=2)
    yield _case(should_stop, "a fresh run goes on", RunState(), None,
                "Nothing has happened yet: return None.")
    yield _case(should_stop, "11 steps of 12 goes on", RunState(steps=11), None,
                "One step is left: return None.")
    yield _case(should_stop, "12 steps of 12: step_limit", RunState(steps=12), "step_limit",
                "A limit of 12 is reached at 12: compare with >=.")
    yield _case(should_stop, "₹20 of ₹20: budget", RunState(cost=Decimal("20")), "budget",
                "Spending the whole cap is reaching it: compare with >=.")
    yield _case(should_stop, "₹4,000 overnight: budget", RunState(steps=5, cost=Decimal("4000")),
                "budget", "Money spent is a limit of its own, whatever the step count.")
    yield _case(should_stop, "120 s of 120: time_limit", RunState(seconds=120.0), "time_limit",
                "Time used equal to the limit means no time is left.")
    yield _case(should_stop, "3 repeats of 3: repeating", RunState(repeats=3), "repeating",
                "The third repeat reaches a limit of 3.")
    yield _case(should_stop, "a hair under ₹20 goes on", RunState(cost=Decimal("19." + "9" * 30)), None,
                "Compare the Decimal itself with the cap: a ratio (cost / cap at 28 digits) or a float "
                "rounds 19.999... up to the cap.")
    yield _case(should_stop, "a money cap of 0 stops at once", RunState(),
                "budget", "A threshold of 0 is reached at once: `if rules.max_cost and ...` reads it as "
                "no limit.", rules=StopRules(max_cost=Decimal(0)))
    yield _case(should_stop, "just under every limit goes on",
                RunState(steps=11, cost=Decimal("19.99"), seconds=119.9, repeats=2), None,
                "Each count is one short of its limit: the run may go on.")
    yield _case(should_stop, "an interruption beats everything",
                RunState(steps=12, answered=True, interrupted=True), "interrupted",
                "The user's stop comes first, even when a limit or an answer came at the same time.")
    yield _case(should_stop, "an answer on the last step is an answer",
                RunState(steps=12, answered=True), "final_answer",
                "An answer that arrives on the last step still counts: check answered before limits.")
    yield _case(should_stop, "a hand-over beats a limit", RunState(steps=12, handed_over=True),
                "hand_over", "The model (or a policy) chose to hand over: that is the reason.")
    yield _case(should_stop, "an answer beats a hand-over", RunState(answered=True, handed_over=True),
                "final_answer", "The flags in order: interrupted, then answered, then handed_over.")
    yield _case(should_stop, "every limit at once: steps first",
                RunState(steps=12, cost=Decimal("20"), seconds=120.0, repeats=3), "step_limit",
                "The limits in order: steps, money, time, repeats.")
    yield _case(should_stop, "money before time", RunState(cost=Decimal("20"), seconds=120.0, repeats=3),
                "budget", "Money comes before time and repeats.")
    yield _case(should_stop, "time before repeats", RunState(seconds=120.0, repeats=3), "time_limit",
                "Time comes before repeats.")
    yield _case(should_stop, "a smaller step limit from the rules", RunState(steps=3), "step_limit",
                "Use rules.max_steps, not the number 12.", rules=small)
    yield _case(should_stop, "a smaller money cap from the rules", RunState(cost=Decimal("5")),
                "budget", "Use rules.max_cost, not the number 20.", rules=small)
    yield _case(should_stop, "a shorter time limit from the rules", RunState(seconds=10.0),
                "time_limit", "Use rules.max_seconds, not the number 120.", rules=small)
    yield _case(should_stop, "fewer repeats from the rules", RunState(repeats=2), "repeating",
                "Use rules.max_repeats, not the number 3.", rules=small)
    yield COMPARISON.case(should_stop)


DEFAULT_RULES = StopRules()


def key(state: RunState, rules: StopRules = DEFAULT_RULES) -> str | None:
    """The answer key: the flags in order, then each limit, reached when the count equals it."""
    for flag, reason in (("interrupted", "interrupted"), ("answered", "final_answer"),
                         ("handed_over", "hand_over")):
        if getattr(state, flag):
            return reason
    limits = ((state.steps, rules.max_steps, "step_limit"), (state.cost, rules.max_cost, "budget"),
              (state.seconds, rules.max_seconds, "time_limit"),
              (state.repeats, rules.max_repeats, "repeating"))
    return next((reason for count, limit, reason in limits if count >= limit), None)


# How far a count lies from its limit: mostly at or just around it, where mistakes show; money
# also a hair away at 30 digits, past what a float or a 28-digit division keeps.
STEPS = (0, -1, 1, -2, 5, -30, 40)
MONEY = ("0", "-0.01", "0.01", "-0.5", "0.5", "-1", "1", "-19.99", "3000", "-1E-30", "1E-30")
SECONDS = (0.0, -0.25, 0.25, -0.9, 0.9, -1.0, 1.0, -60.5, 1000.0, -1e-9)


def _near(draw: Draw, limit: Any, offsets: tuple) -> Any:
    offset = draw.pick(offsets)
    with localcontext() as exact:
        exact.prec = 60  # the sum itself must not round
        value = limit + (Decimal(offset) if isinstance(limit, Decimal) else offset)
    return max(value, type(value)(0))


def _inputs(draw: Draw) -> tuple:
    rules = draw.pick((StopRules(), StopRules(3, Decimal("5"), 10.0, 2),
                       StopRules(1, Decimal("0.75"), 2.5, 1), StopRules(40, Decimal("199.99"), 3600.5, 9),
                       StopRules(0, Decimal(0), 0.0, 0), StopRules(12, Decimal(0), 120.0, 0)))
    state = RunState(steps=_near(draw, rules.max_steps, STEPS), cost=_near(draw, rules.max_cost, MONEY),
                     seconds=_near(draw, rules.max_seconds, SECONDS),
                     repeats=_near(draw, rules.max_repeats, STEPS),
                     answered=draw.below(4) == 3, handed_over=draw.below(4) == 3,
                     interrupted=draw.below(4) == 3)
    return state, rules


LIMITS = {"step_limit": ("steps", "max_steps"), "budget": ("cost", "max_cost"),
          "time_limit": ("seconds", "max_seconds"), "repeating": ("repeats", "max_repeats")}


def _count_and_limit(args: tuple, reason: Any) -> tuple[Any, Any]:
    state, rules = args
    count, limit = LIMITS[reason]
    return getattr(state, count), getattr(rules, limit)


def _zero(args: tuple, expected: Any, got: Any) -> bool:
    return expected in LIMITS and _count_and_limit(args, expected)[1] == 0


def _under(args: tuple, expected: Any, got: Any) -> bool:
    count, limit = _count_and_limit(args, got)
    return count < limit


def _equal(args: tuple, expected: Any, got: Any) -> bool:
    count, limit = _count_and_limit(args, expected)
    return count == limit


FAULTS = (
    Fault("return `None` while the run may go on", "not None while the run goes on",
          lambda args, expected, got: expected is None and got not in (*LIMITS, "interrupted", "final_answer",
                                                                       "hand_over"),
          "While the run may go on, return None itself (not False, not '')."),
    Fault("A threshold of 0 is a limit too", "a threshold of 0", _zero,
          "A threshold of 0 is reached at once: `if limit and count >= limit` reads it as no limit."),
    Fault("A limit is reached when the count equals it", "a count under its limit", _under,
          "The count is under its limit, so that limit is not reached: compare the count itself with "
          "the limit (a Decimal as it is: no float(), no int(), no ratio, which rounds at 28 digits)."),
    Fault("A limit is reached when the count equals it", "a count equal to its limit", _equal,
          "A count equal to its limit reaches it: compare with >=, not >."),
    Fault("Then the limits, in this order", "the order of the reasons",
          lambda args, expected, got: got in (*LIMITS, "interrupted", "final_answer", "hand_over"),
          "Both reasons hold here: return the first in the statement's order (interrupted, "
          "final_answer, hand_over, then steps, money, time, repeats)."),
)

COMPARISON = Diagnosed(Comparison(
    "05.should_stop", key, _inputs, lambda args, expected, got: same_value(expected, got),
    call_text("should_stop"),
    hint="Compare each count with its limit using >=, in the statement's order; keep Decimal money "
         "and fractional seconds as they are (no int() or round())."), FAULTS,
    raised="should_stop must not raise on any state and rules: a threshold of 0 is a limit like any other.")
