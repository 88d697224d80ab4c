"""09.success_rate as a spec: the share of runs that ended with a final answer that is right.

The key is the rule written with the library's ``evaluate.metrics.mean`` (0.0 for no
runs); the library's own ``evaluate.score.run_succeeded`` is the same rule on a
``RunResult``. Generated runs take every end reason of ``rc.END_REASONS`` with a
right or a wrong answer, so a best effort at the step limit that is right, a
``"repeating"`` or ``"budget"`` ending that is right, and a wrong final answer all occur.
"""

from __future__ import annotations

from typing import Any

from ...evaluate.metrics import mean
from ...guards import END_REASONS
from ..generated import Draw
from ..plain import Raised
from ..predicates import close_to
from ..spec import GENERATED, Example, Fault, Rule, Spec, define


def key(runs: list[dict]) -> float:
    """The answer key: both conditions, over all runs."""
    return mean([run["end_reason"] == "final_answer" and bool(run["correct"]) for run in runs])


def _run(end_reason: str, correct: bool) -> dict:
    return {"end_reason": end_reason, "correct": correct}


def _inputs(draw: Draw) -> tuple:
    return (draw.many(lambda d: _run(d.pick(END_REASONS), d.boolean()), 8),)


FINAL = "ended with a final answer"
CORRECT = "and its answer is correct"
SHARE = "Return the share of runs that succeeded"
EMPTY = "An empty list gives 0.0"

RULES = (
    Rule(FINAL, ("a right best effort at the step limit", "a right answer that was still repeating",
                 "mixed endings", GENERATED),
         edge=lambda a: any(r["end_reason"] != "final_answer" and r["correct"] for r in a[0])),
    Rule(CORRECT, ("a wrong final answer", "mixed endings"),
         edge=lambda a: any(r["end_reason"] == "final_answer" and not r["correct"] for r in a[0])),
    Rule(SHARE, ("mixed endings", GENERATED), edge=lambda a: 0 < key(*a) < 1),
    Rule(EMPTY, ("no runs",), edge=lambda a: not a[0]),
)

FAULTS = (
    Fault(EMPTY, "No runs: return 0.0 instead of dividing by zero.",
          found=lambda args, want, got: not args[0] and isinstance(got, Raised)),
    Fault(FINAL, "Only \"final_answer\" is a finished run: \"repeating\", \"budget\", \"error\" and the "
                 "other endings did not finish either. Test end_reason == \"final_answer\", "
                 "not != \"step_limit\".",
          like=lambda runs: mean([r["end_reason"] != "step_limit" and r["correct"] for r in runs])),
    Fault(FINAL, "A best effort at the step limit is not a success, however right it looks: the agent "
                 "did not finish. Test end_reason == \"final_answer\".",
          like=lambda runs: mean([run["correct"] for run in runs])),
    Fault(CORRECT, "Finishing is not succeeding: the answer must be right too.",
          like=lambda runs: mean([r["end_reason"] == "final_answer" for r in runs])),
    Fault(SHARE, "That is a count (or a percentage): divide the successes by the number of runs.",
          found=lambda args, want, got: want > 0
          and any(close_to(got, want * n) for n in (len(args[0]), 100))),
)


def _runs(*pairs: tuple[str, bool]) -> tuple:
    return ([_run(end, correct) for end, correct in pairs],)


EXAMPLES = (
    Example("a right best effort at the step limit", _runs(("step_limit", True)),
            "A best effort at the step limit is not a success, however right it looks: the agent did "
            "not finish."),
    Example("a right answer that was still repeating", _runs(("repeating", True), ("final_answer", True)),
            "Only a final answer finishes a run: a run stopped for repeating did not."),
    Example("a wrong final answer", _runs(("final_answer", False)),
            "Finishing is not succeeding: the answer must be right too."),
    Example("mixed endings", _runs(("final_answer", True), ("step_limit", True), ("final_answer", False),
                                   ("final_answer", True)),
            "Count the runs where both hold (two), over all four runs."),
    Example("no runs", ([],), "No runs: return 0.0 instead of dividing by zero."),
)

HIDDEN = (
    Example("hidden: every ending, all right", _runs(*((end, True) for end in END_REASONS)),
            "Only the final_answer run succeeded."),
    Example("hidden: three of eight", _runs(*[("final_answer", True)] * 3, *[("budget", True)] * 2,
                                            *[("final_answer", False)] * 3),
            "Both conditions, over all eight runs."),
)


def compare(args: tuple, want: float, got: Any) -> bool:
    """A number equal to the key's share up to float rounding."""
    return close_to(got, want)


SPEC = define(Spec(
    "09.success_rate", "success counts only final answers that are right", "success_rate", key,
    EXAMPLES, _inputs, RULES, faults=FAULTS, hidden=HIDDEN, compare=compare,
    hints=("A run succeeds when both hold: it ended with a final answer, and the answer is right.",
           "Divide by all runs, successes or not; no runs at all is 0.0."),
    generated_hint="Count the runs with end_reason == \"final_answer\" and correct, and divide by "
                   "the number of runs; no runs is 0.0."))
__all__ = ["SPEC", "key"]
