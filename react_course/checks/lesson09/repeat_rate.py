"""09.repeat_rate as a spec: each run's share of repeated calls, then the mean over runs with calls.

The key is the rule written with the library's ``evaluate.metrics.mean``; the
library's ``evaluate.repeat_rate`` is the same share for one ``RunResult`` (and
also counts an unreadable reply written again, which these runs do not have).
Generated runs draw calls from a small pool where the same input goes to two
tools, and an input comes in another case: a repeat is the same pair exactly.
"""

from __future__ import annotations

import itertools
from typing import Any

from ...evaluate.metrics import mean
from ..generated import Draw
from ..plain import Raised
from ..predicates import close_to
from ..spec import GENERATED, Example, Fault, Rule, Spec, define

A, B, C = ("search", "Eiffel Tower"), ("search", "Statue of Liberty"), ("calculate", "330 - 93")
POOL = (A, B, C, ("lookup", "Eiffel Tower"), ("search", "eiffel tower"))


def share(calls: list[tuple[str, str]]) -> float:
    """One run's share of calls whose (tool, input) was called earlier in the same run."""
    return sum(call in calls[:i] for i, call in enumerate(calls)) / len(calls)


def key(runs: list[list[tuple[str, str]]]) -> float:
    """The answer key: the mean of the shares of the runs that made a call (0.0 when none did)."""
    return mean([share(calls) for calls in runs if calls])


def _inputs(draw: Draw) -> tuple:
    return (draw.many(lambda d: d.many(lambda e: e.pick(POOL), 7), 5),)


def _pooled(runs: list) -> float:
    calls = [call for run in runs for call in run]
    return sum(sum(c in run[:i] for i, c in enumerate(run)) for run in runs) / len(calls) if calls else 0.0


def _per_run(one):
    return lambda runs: mean([one(calls) for calls in runs if calls])


def _across(runs: list) -> float:
    """Every call made before, in this run or an earlier one, counted as a repeat."""
    everything = [call for calls in runs for call in calls]
    shares, at = [], 0
    for calls in runs:
        if calls:
            shares.append(sum(c in everything[:at + i] for i, c in enumerate(calls)) / len(calls))
        at += len(calls)
    return mean(shares)


def _near_repeat(calls: list) -> bool:
    """Two calls of one run alike but not the same: one input for two tools, or one in two cases."""
    return any(a != b and (a[1] == b[1] or (a[0], a[1].lower()) == (b[0], b[1].lower()))
               for i, a in enumerate(calls) for b in calls[i + 1:])


def _two_runs_differ(args: tuple) -> bool:
    made = [share(calls) for calls in args[0] if calls]
    return len(made) >= 2 and len(set(made)) >= 2 and len({len(c) for c in args[0] if c}) >= 2


EARLIER = "the same tool with the same input was called earlier in the same run"
SHARE = "the share of repeated calls in each run"
MEAN = "then the mean over the runs"
LEFT_OUT = "runs with no calls are left out"

RULES = (
    Rule(EARLIER, ("the first call is never a repeat", "same input, another tool",
                   "an input in another case is another input", "repeats are per run", GENERATED),
         edge=lambda a: any(map(_near_repeat, a[0]))),
    Rule(SHARE, ("one stuck run", "a call between the repeats"),
         edge=lambda a: any(c in r[:i - 1] and c != r[i - 1] for r in a[0] for i, c in enumerate(r) if i)),
    Rule(MEAN, ("one stuck run", GENERATED), edge=_two_runs_differ),
    Rule(LEFT_OUT, ("an empty run", "no calls at all"),
         edge=lambda a: any(not r for r in a[0]) and any(a[0])),
)

FAULTS = (
    Fault(LEFT_OUT, "No run made a call: return 0.0 instead of dividing by zero.",
          found=lambda args, want, got: not any(args[0]) and isinstance(got, Raised)),
    Fault(LEFT_OUT, "A run with no calls has no share: leave it out of the mean, do not count it as 0.",
          like=lambda runs: sum(share(c) for c in runs if c) / len(runs) if runs else 0.0),
    Fault(MEAN, "That pools every call of every run: take each run's share first, then their mean, so "
                "one long stuck run does not outweigh the others.", like=_pooled),
    Fault(EARLIER, "The first call of a pair is not a repeat: count a call only when the same call "
                   "came earlier (calls[:i]).",
          like=_per_run(lambda calls: sum(calls.count(c) > 1 for c in calls) / len(calls))),
    Fault(EARLIER, "Compare the input exactly as given: \"Eiffel Tower\" and \"eiffel tower\" are "
                   "different inputs (no lower()).",
          like=lambda runs: key([[(t, i.lower()) for t, i in calls] for calls in runs])),
    Fault(EARLIER, "A repeat is the same tool *and* the same input: the tool alone is not enough.",
          like=_per_run(lambda calls: sum(c[0] in [p[0] for p in calls[:i]] for i, c in enumerate(calls))
                        / len(calls))),
    Fault(EARLIER, "A repeat is the same tool *and* the same input: the input alone is not enough.",
          like=_per_run(lambda calls: sum(c[1] in [p[1] for p in calls[:i]] for i, c in enumerate(calls))
                        / len(calls))),
    Fault(EARLIER, "A repeat is within one run: the same call in another run is not a repeat.",
          like=_across),
    Fault(SHARE, "A repeat need not follow right after the call it repeats: look at every earlier "
                 "call of the run, not only the one before.",
          like=_per_run(lambda calls: sum(a == b for a, b in itertools.pairwise(calls))
                        / len(calls))),
)


def _runs(*runs: list) -> tuple:
    return (list(runs),)


EXAMPLES = (
    Example("the first call is never a repeat", _runs([A, A]), "Only the second call repeats: 1 of 2."),
    Example("same input, another tool", _runs([("search", "x"), ("lookup", "x")]),
            "A repeat is the same tool *and* the same input."),
    Example("an input in another case is another input", _runs([A, ("search", "eiffel tower")]),
            "Compare the pair exactly as given: no lower()."),
    Example("a call between the repeats", _runs([A, B, A]), "The third call repeats the first: 1 of 3."),
    Example("one stuck run", _runs([A] * 8, [A, B], [B, C], [A, C]),
            "Per run: 7/8, 0, 0, 0; their mean is 0.21875. Pooling gives 7/14 = 0.5: one stuck run "
            "would look like a habit of every run."),
    Example("repeats are per run", _runs([A], [A], [A]), "The same call in another run is not a repeat."),
    Example("an empty run", _runs([], [A, A]),
            "A run with no calls has no share: leave it out (mean of 1/2)."),
    Example("no calls at all", _runs([], []), "No run made a call: 0.0."),
)

HIDDEN = (
    Example("hidden: two stuck runs, one healthy", _runs([A, A, A], [B, C, B, C], [C]),
            "Per run: 2/3, 1/2, 0; their mean."),
    Example("hidden: no runs", _runs(), "No runs: 0.0."),
)


def compare(args: tuple, want: float, got: Any) -> bool:
    """A number equal to the key's rate up to float rounding."""
    return close_to(got, want)


SPEC = define(Spec(
    "09.repeat_rate", "the repeat-action rate, per run", "repeat_rate", key,
    EXAMPLES, _inputs, RULES, faults=FAULTS, hidden=HIDDEN, compare=compare,
    hints=("For one run: count the calls whose (tool, input) appears earlier in the same run; divide "
           "by that run's calls.",
           "Average those shares over the runs that made a call; do not pool every call together."),
    generated_hint="Per run with calls: the calls whose exact (tool, input) came earlier in that run, "
                   "over the run's calls; then the mean of those shares."))
__all__ = ["SPEC", "key", "share"]
