"""05.should_stop as a spec: the stopping decision, a limit reached when the count equals it.

The key is the library's ``stopping.should_stop``. The arguments are plain data: the
state's fields as a dict (the fields left out keep ``RunState``'s defaults) and the
rules' fields as a dict, or ``None`` for a call without rules; ``observe`` builds the
``RunState`` and ``StopRules`` the student's function gets. Generated counts lie at
their limits, a little around them, and money a hair (1E-30) away, past what a float
or a 28-digit division keeps; thresholds of 0 included.
"""

from __future__ import annotations

import operator
from decimal import Decimal, localcontext
from typing import Any

from ...stopping import RunState, StopRules, should_stop
from ..generated import Draw
from ..spec import GENERATED, Example, Fault, Rule, Spec, define

LIMITS = {"step_limit": ("steps", "max_steps"), "budget": ("cost", "max_cost"),
          "time_limit": ("seconds", "max_seconds"), "repeating": ("repeats", "max_repeats")}
FLAGS = {"interrupted": "interrupted", "answered": "final_answer", "handed_over": "hand_over"}
REASONS = (*FLAGS.values(), *LIMITS)
DEFAULT = StopRules()


def observe(function: Any, args: tuple) -> Any:
    state, rules = RunState(**args[0]), args[1]
    return function(state) if rules is None else function(state, StopRules(**rules))


def _parts(args: tuple) -> tuple[RunState, StopRules]:
    return RunState(**args[0]), StopRules(**(args[1] or {}))


def _holds(args: tuple, reason: Any) -> bool:
    """Is ``reason`` true of this state (a flag set, a count at or past its limit)?"""
    state, rules = _parts(args)
    if reason in LIMITS:
        count, limit = LIMITS[reason]
        return getattr(state, count) >= getattr(rules, limit)
    return any(getattr(state, flag) for flag, said in FLAGS.items() if said == reason)


def _count(args: tuple, reason: str, compare: Any) -> bool:
    state, rules = _parts(args)
    count, limit = LIMITS[reason]
    return compare(getattr(state, count), getattr(rules, limit))


def _compared(reached: Any) -> Any:
    """A wrong solution: the key with every limit judged by ``reached`` (``>``, ``==``)."""
    def wrong(state: RunState, rules: StopRules = DEFAULT) -> str | None:
        if _flagged(state):
            return should_stop(state, rules)
        return next((reason for reason, (count, limit) in LIMITS.items()
                     if reached(getattr(state, count), getattr(rules, limit))), None)
    return wrong


def _flagged(state: RunState) -> bool:
    return any(getattr(state, flag) for flag in FLAGS)


ORDER = "the user's interruption first, then the model's answer, then a hand-over, then the limits"
EQUALS = "A limit is reached when the count equals it"
ZERO = "A threshold of 0 is a limit too"
GO_ON = "return `None` while the run may go on"
NAMES = 'The reasons are `"interrupted"`, `"final_answer"` and `"hand_over"`'
RULES_GIVEN = "use the thresholds in `rules`, not fixed numbers"
LIMIT_ORDER = "Then the limits, in this order"



def _truncated(args: tuple, want: Any, got: Any) -> bool:
    """Is ``got`` what the key says of the money, the seconds or both cut to whole numbers?"""
    state, rules = _parts(args)
    cuts = ({"cost": int(state.cost)}, {"seconds": int(state.seconds)},
            {"cost": int(state.cost), "seconds": int(state.seconds)})
    return any(got == should_stop(RunState(**{**vars(state), **cut}), rules) for cut in cuts)


def _past(args: tuple) -> int:
    return sum(_count(args, reason, lambda c, limit: c > limit) for reason in LIMITS)


FAULTS = (
    Fault(GO_ON, "While the run may go on, return None itself (not False, not '').",
          found=lambda args, want, got: want is None and got is not None and got not in REASONS),
    Fault(NAMES, "Return the reasons exactly as the statement spells them: 'interrupted', 'final_answer', "
          "'hand_over', 'step_limit', 'budget', 'time_limit', 'repeating'.",
          found=lambda args, want, got: isinstance(got, str) and got not in REASONS),
    Fault(ORDER, "Both hold here: look at the flags first, in order (interrupted, answered, handed_over), "
          "and only then at the limits.", found=lambda args, want, got: want in FLAGS.values()
          and want != got and _holds(args, got)),
    Fault(ZERO, "A threshold of 0 is reached at once: `if limit and count >= limit` reads it as no limit.",
          found=lambda args, want, got: want in LIMITS and _count(args, want, lambda c, limit: limit == 0)),
    Fault(EQUALS, "A limit is reached at its count and past it: compare with >=, not ==.",
          found=lambda args, want, got: _past(args) >= 2 and got == observe(_compared(operator.eq), args)),
    Fault(EQUALS, "Keep the money and the seconds as they are: no int() or round() before comparing.",
          found=_truncated),
    Fault(RULES_GIVEN, "These are the caller's rules: read rules.max_steps, rules.max_cost, ..., not 12, 20.",
          found=lambda args, want, got: args[1] is not None and got == should_stop(_parts(args)[0])),
    *(Fault(f'`"{reason}"`', f"This count is past its limit, so the run stops with {reason!r}: check "
            "every limit.", found=lambda args, want, got, reason=reason: want == reason != got
            and _count(args, reason, lambda c, limit: c > limit)) for reason in LIMITS),
    Fault(EQUALS, "A count equal to its limit reaches it: compare with >=, not >, and the count as it is "
          "(no int() or round()).", like=_compared(operator.gt)),
    Fault(EQUALS, "The count is under its limit, so that limit is not reached: compare the count itself "
          "with the limit (a Decimal as it is: no float(), no int(), no ratio, which rounds at 28 digits).",
          found=lambda args, want, got: got in LIMITS and not _holds(args, got)),
    Fault(LIMIT_ORDER, "Both limits are reached here: return the first in the statement's order (steps, "
          "money, time, repeats).", found=lambda args, want, got: want in LIMITS and got in LIMITS),
    Fault(EQUALS, "A limit is reached at its count and past it: compare with >=, not ==.",
          like=_compared(operator.eq)),
)

SMALL = {"max_steps": 3, "max_cost": Decimal("5"), "max_seconds": 10.0, "max_repeats": 1}


def _stop(name: str, hint: str, rules: dict | None = None, **state: Any) -> Example:
    return Example(name, (state, rules), hint)


EXAMPLES = (
    _stop("a fresh run goes on", "Nothing has happened yet: return None."),
    _stop("11 steps of 12 goes on", "One step is left: return None.", steps=11),
    _stop("12 steps of 12: step_limit", "A limit of 12 is reached at 12: compare with >=.", steps=12),
    _stop("13 steps of 12: step_limit", "Past the limit is past it: check the steps.", steps=13),
    _stop("₹20 of ₹20: budget", "Spending the whole cap is reaching it: compare with >=.", cost=Decimal(20)),
    _stop("₹4,000 overnight: budget", "Money spent is a limit of its own, whatever the step count.",
          steps=5, cost=Decimal(4000)),
    _stop("120 s of 120: time_limit", "Time used equal to the limit means no time is left.", seconds=120.0),
    _stop("121 s of 120: time_limit", "Past the time limit: check the seconds.", seconds=121.0),
    _stop("3 repeats of 3: repeating", "The third repeat reaches a limit of 3.", repeats=3),
    _stop("5 repeats of 3: repeating", "Past the repeat limit: check the repeats.", repeats=5),
    _stop("a hair under ₹20 goes on", "Compare the Decimal itself with the cap: a ratio (cost / cap at 28 "
          "digits) or a float rounds 19.999... up to the cap.", cost=Decimal("19." + "9" * 30)),
    _stop("a money cap of 0 stops at once", "A threshold of 0 is reached at once: `if rules.max_cost and "
          "...` reads it as no limit.", rules={"max_cost": Decimal(0)}),
    _stop("just under every limit goes on", "Each count is one short of its limit: the run may go on.",
          steps=11, cost=Decimal("19.99"), seconds=119.9, repeats=2),
    _stop("an interruption beats everything", "The user's stop comes first, even when a limit or an answer "
          "came at the same time.", steps=12, answered=True, interrupted=True),
    _stop("an answer on the last step is an answer", "An answer that arrives on the last step still counts: "
          "check answered before limits.", steps=12, answered=True),
    _stop("a hand-over beats a limit", "The model (or a policy) chose to hand over: that is the reason.",
          steps=12, handed_over=True),
    _stop("an answer beats a hand-over", "The flags in order: interrupted, then answered, then handed_over.",
          answered=True, handed_over=True),
    _stop("every limit at once: steps first", "The limits in order: steps, money, time, repeats.",
          steps=12, cost=Decimal(20), seconds=120.0, repeats=3),
    _stop("past every limit: steps first", "Every count is past its limit: the steps come first.",
          steps=13, cost=Decimal(21), seconds=121.0, repeats=4),
    _stop("money before time", "Money comes before time and repeats.", cost=Decimal(20), seconds=120.0,
          repeats=3),
    _stop("time before repeats", "Time comes before repeats.", seconds=120.0, repeats=3),
    _stop("a smaller step limit from the rules", "Use rules.max_steps, not the number 12.", SMALL, steps=5),
    _stop("a smaller money cap from the rules", "Use rules.max_cost, not the number 20.", SMALL,
          cost=Decimal(6)),
    _stop("a shorter time limit from the rules", "Use rules.max_seconds, not the number 120.", SMALL,
          seconds=15.0),
    _stop("fewer repeats from the rules", "Use rules.max_repeats, not the number 3.", SMALL, repeats=2),
)
HIDDEN = (
    _stop("hidden: a hair over ₹0.75", "Compare the Decimal itself.", {**SMALL, "max_cost": Decimal("0.75")},
          cost=Decimal("0.75" + "0" * 28 + "1")),
    _stop("hidden: a step limit of 0", "A threshold of 0 is a limit too.", {**SMALL, "max_steps": 0}),
    _stop("hidden: an interruption at a zero cap", "The flags come first.", {"max_cost": Decimal(0)},
          interrupted=True, handed_over=True),
    _stop("hidden: 2.5 s of 2.5", "Fractional seconds as they are.", {"max_seconds": 2.5}, seconds=2.5),
)

# How far a count lies from its limit: mostly at or just around it, where mistakes show.
STEPS = (0, -1, 1, -2, 5, -30, 40)
MONEY = ("0", "-0.01", "0.01", "-0.5", "0.5", "-1", "1", "-19.99", "3000", "-1E-30", "1E-30")
SECONDS = (0.0, -0.25, 0.25, -0.9, 0.9, -1.0, 1.0, -60.5, 1000.0, -1e-9)
RULE_SETS = (None, SMALL, {"max_steps": 1, "max_cost": Decimal("0.75"), "max_seconds": 2.5, "max_repeats": 1},
             {"max_steps": 40, "max_cost": Decimal("199.99"), "max_seconds": 3600.5, "max_repeats": 9},
             {"max_steps": 0, "max_cost": Decimal(0), "max_seconds": 0.0, "max_repeats": 0},
             {"max_steps": 12, "max_cost": Decimal(0), "max_seconds": 120.0, "max_repeats": 0})


def _near(draw: Draw, limit: Any, offsets: tuple) -> Any:
    offset = draw.pick(offsets)
    with localcontext() as exact:
        exact.prec = 60  # the sum itself must not round
        value = limit + (Decimal(offset) if isinstance(limit, Decimal) else offset)
    return max(value, type(value)(0))


def _inputs(draw: Draw) -> tuple:
    rules = draw.pick(RULE_SETS)
    full = StopRules(**(rules or {}))
    state = {"steps": _near(draw, full.max_steps, STEPS), "cost": _near(draw, full.max_cost, MONEY),
             "seconds": _near(draw, full.max_seconds, SECONDS),
             "repeats": _near(draw, full.max_repeats, STEPS)}
    return {**state, **{flag: draw.below(4) == 3 for flag in FLAGS}}, rules


def _says(reason: str) -> Any:
    return lambda args: observe(should_stop, args) == reason


def _show(args: tuple) -> str:
    state = ", ".join(f"{k}={v!r}" for k, v in args[0].items() if v != getattr(RunState(), k))
    rules = "" if args[1] is None else f", StopRules({', '.join(f'{k}={v!r}' for k, v in args[1].items())})"
    return f"should_stop(RunState({state}){rules})"


RULES = (
    Rule(EQUALS, ("12 steps of 12: step_limit", "3 repeats of 3: repeating", "120 s of 120: time_limit",
                   "₹20 of ₹20: budget", "a hair under ₹20 goes on", "past every limit: steps first",
                   GENERATED),
         edge=lambda a: not _flagged(_parts(a)[0]) and any(_count(a, r, lambda c, limit: c == limit)
                                                         for r in LIMITS)),
    Rule(ZERO, ("a money cap of 0 stops at once", GENERATED),
         edge=lambda a: any(_count(a, r, lambda c, limit: limit == 0) for r in LIMITS)),
    Rule(GO_ON, ("a fresh run goes on", "11 steps of 12 goes on", "just under every limit goes on"),
         edge=_says(None)),
    Rule('`"step_limit"`', ("12 steps of 12: step_limit", "13 steps of 12: step_limit",
                            "a smaller step limit from the rules"), edge=_says("step_limit")),
    Rule('`"budget"`', ("₹20 of ₹20: budget", "₹4,000 overnight: budget"), edge=_says("budget")),
    Rule('`"time_limit"`', ("120 s of 120: time_limit", "121 s of 120: time_limit"),
         edge=_says("time_limit")),
    Rule('`"repeating"`', ("3 repeats of 3: repeating", "5 repeats of 3: repeating"),
         edge=_says("repeating")),
    Rule(RULES_GIVEN, ("a smaller step limit from the rules", "a smaller money cap from the rules",
                       "a shorter time limit from the rules", "fewer repeats from the rules", GENERATED),
         edge=lambda a: a[1] is not None and observe(should_stop, a) != should_stop(_parts(a)[0])),
    Rule(ORDER, ("an interruption beats everything", "an answer on the last step is an answer",
                 "a hand-over beats a limit", "an answer beats a hand-over"),
         edge=lambda a: sum(a[0][flag] for flag in FLAGS) >= 2),
    Rule(NAMES, ("an interruption beats everything", "a hand-over beats a limit",
                 "an answer beats a hand-over"),
         edge=_says("hand_over")),
    Rule(LIMIT_ORDER, ("every limit at once: steps first", "past every limit: steps first",
                       "money before time", "time before repeats"),
         edge=lambda a: not _flagged(_parts(a)[0]) and sum(_holds(a, r) for r in LIMITS) >= 2),
)

SPEC = define(Spec(
    "05.should_stop", "decide whether a run must stop, and why", "should_stop", should_stop, EXAMPLES,
    _inputs, RULES, faults=FAULTS, hidden=HIDDEN, observe=observe, show=_show,
    hints=(
        "Check interrupted, answered and handed_over first, in that order; then each limit.",
        "A limit of 12 steps means the 12th step was the last: stop when steps >= 12, not > 12.",
        "Read the thresholds from rules (rules.max_steps, rules.max_cost, ...), never 12 or 20.",
    ),
    generated_hint="Compare each count with its limit using >=, in the statement's order; keep Decimal money "
                   "and fractional seconds as they are (no int() or round())."))
__all__ = ["SPEC"]
