"""Metrics of a set of runs: did the agent succeed, how, and at what cost.

The input is a list of ``EvalRun`` (a task, which repeat, the configuration,
the ``RunResult`` and whether it succeeded), from ``runner.run_eval`` or read
back from a log. Each metric is a small function, so a lesson can compute
one by hand and compare:

- success (pass@1: the share of runs that succeed), pass^k (the chance that
  k runs of a task *all* succeed) beside pass@k (that at least one does),
  both estimated as their authors published them from c successes in n runs
  of each task (``passk.py``) and averaged over the tasks;
- steps: mean and 95th percentile (nearest rank, a real run's count, not a mean);
- the share of runs that ended at the step limit (never counted as successes);
- tool error rate per tool; the repeat rate *per run* (then averaged), of
  calls and of unreadable replies alike (a run stuck on one unreadable reply
  makes no call, and must not read 0);
- tool-call accuracy: the share of a task's expected calls that the run made;
- calls made after the answer was already in an observation;
- latency, tokens and money per task and per solved task.

What it leaves out: confidence intervals (``compare.py``) and plots (the lesson).
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from ..context_cost.cost import cost
from ..record import RunResult
from .passk import pass_at_k_of, pass_hat_k_of
from .score import normalise, quantities
from .tasks import Task


@dataclass
class EvalRun:
    """One run of one task: which repeat, under which configuration, and how it went."""

    task: Task
    repeat: int
    config: str
    result: RunResult
    success: bool
    meta: dict[str, Any] = field(default_factory=dict)


def percentile(values: list[float], q: float) -> float:
    """The nearest-rank percentile: a value that occurred, not an average of values.

    >>> percentile([3, 1, 2, 10], 95), percentile([4, 4, 5], 50)
    (10, 4)
    """
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q / 100 * len(ordered)) - 1)]


def mean(values: list[float]) -> float:
    """0.0 for no values (no runs, no rate).

    >>> mean([1, 2, 6])
    3.0
    """
    return sum(values) / len(values) if values else 0.0


def by_task(runs: list[EvalRun]) -> dict[str, list[EvalRun]]:
    grouped: dict[str, list[EvalRun]] = defaultdict(list)
    for run in sorted(runs, key=lambda r: (r.task.id, r.repeat)):
        grouped[run.task.id].append(run)
    return dict(grouped)


def outcomes(runs: list[EvalRun]) -> dict[str, tuple[int, int]]:
    """(successes, runs) of each task."""
    return {tid: (sum(r.success for r in group), len(group)) for tid, group in by_task(runs).items()}


def pass_hat_k(runs: list[EvalRun], k: int) -> float:
    """pass^k averaged over the tasks; tasks with fewer than k runs have no estimate and are left out."""
    return mean([pass_hat_k_of(c, n, k) for c, n in outcomes(runs).values() if n >= k])


def pass_at_k(runs: list[EvalRun], k: int) -> float:
    """pass@k averaged over the tasks; tasks with fewer than k runs are left out."""
    return mean([pass_at_k_of(c, n, k) for c, n in outcomes(runs).values() if n >= k])


def argument_text(arguments: str | dict[str, Any]) -> str:
    """A call's input as text: native calls with one argument compare by its value.

    >>> argument_text({"query": "SpaceX"}), argument_text(" 330 - 93")
    ('SpaceX', '330 - 93')
    """
    if isinstance(arguments, dict):
        return str(next(iter(arguments.values()))) if len(arguments) == 1 else str(sorted(arguments.items()))
    return str(arguments).strip()


def actions(result: RunResult) -> list[tuple[str, str]]:
    """The run's tool calls as (name, arguments as text), in order."""
    return [(c.name, argument_text(c.arguments)) for c in result.tool_calls]


def moves(result: RunResult) -> list[tuple[str, str]]:
    """What the run did at each step, as comparable items: each tool call, and each unreadable reply.

    A reply the parser could not read is an item too (its text), so that a run
    stuck writing the same unreadable reply is seen repeating, though it made
    no call.
    """
    found: list[tuple[str, str]] = []
    for step in result.steps:
        if step.calls:
            found += [(c.name, argument_text(c.arguments)) for c in step.calls]
        elif step.error == "parse_error":
            found.append(("(unreadable reply)", step.text.strip()))
    return found


def repeat_rate(result: RunResult) -> float:
    """Of one run's moves (calls and unreadable replies), the share that repeat an earlier one exactly.

    The metric is the mean of this over the runs that made a move: one stuck
    run must not hide among many good ones, nor dominate them by its length.
    """
    done = moves(result)
    repeats = sum(1 for i, move in enumerate(done) if move in done[:i])
    return repeats / len(done) if done else 0.0


def call_accuracy(run: EvalRun) -> float | None:
    """The share of the task's expected calls that the run made (None: the task expects none)."""
    if not run.task.calls:
        return None
    made = set(actions(run.result))
    return sum(1 for call in run.task.calls if tuple(call) in made) / len(run.task.calls)


def answer_known_at(run: EvalRun) -> int | None:
    """The first step whose observations hold the answer (or that makes the last expected call)."""
    task, expected = run.task, set(run.task.calls)
    made: set[tuple[str, str]] = set()
    for step in run.result.steps:
        made |= {(c.name, argument_text(c.arguments)) for c, o in zip(step.calls, step.observations,
                                                                      strict=False) if o.error is None}
        if (expected and expected <= made) or _holds_answer(step.observation, task):
            return step.number
    return None


def _holds_answer(text: str, task: Task) -> bool:
    if task.kind == "text":
        return f" {normalise(task.answer)} " in f" {normalise(text)} "
    if task.kind == "number":
        return any(abs(v - float(task.answer["value"])) < 1e-9 for v, _ in quantities(text))
    return False


def calls_after_answer(run: EvalRun) -> int:
    """Tool calls made in steps after the one where the answer was first in an observation."""
    known = answer_known_at(run)
    if known is None:
        return 0
    return sum(len(s.calls) for s in run.result.steps if s.number > known and not s.forced)


def tool_error_rates(runs: list[EvalRun]) -> dict[str, float]:
    """For each tool: the share of its calls whose result was an error.

    Calls of tools that do not exist make one row, "(unknown tool)": their
    share of *all* calls. Refused repeats are left out (the tool never ran:
    that is the repeat rate's business).
    """
    calls, errors, unknown = defaultdict(int), defaultdict(int), 0
    for run in runs:
        for step in run.result.steps:
            for call, obs in zip(step.calls, step.observations, strict=False):
                if obs.error in ("repeat", "refused"):
                    continue
                if obs.error == "unknown_tool":
                    unknown += 1
                    continue
                calls[call.name] += 1
                errors[call.name] += obs.error is not None
    rates = {name: errors[name] / calls[name] for name in sorted(calls)}
    total = sum(calls.values()) + unknown
    return {**rates, "(unknown tool)": unknown / total} if unknown else rates


@dataclass
class Metrics:
    """The numbers of one configuration on one set of runs."""

    config: str
    runs: int
    tasks: int
    success: float
    pass_hat_k: float
    pass_at_k: float
    k: int
    mean_steps: float
    p95_steps: float
    step_limit_share: float
    repeat_rate: float
    call_accuracy: float
    calls_after_answer: float
    tool_errors: dict[str, float]
    mean_latency: float
    tokens_per_task: float
    tokens_per_solved: float | None
    money_per_task: Decimal | None = None
    money_per_solved: Decimal | None = None


def metrics(runs: list[EvalRun], config: str = "", price: Any = None) -> Metrics:
    """Every metric above, for one configuration's runs; ``price`` (a ``cost.Price``) adds money."""
    k = min((len(g) for g in by_task(runs).values()), default=0)
    steps = [len(r.result.steps) for r in runs]
    solved = sum(r.success for r in runs)
    tokens = sum(r.result.usage.total for r in runs)
    accuracy = [a for a in (call_accuracy(r) for r in runs) if a is not None]
    money = None
    if price is not None:
        money = sum((cost(r.result.usage, price) or Decimal(0) for r in runs), Decimal(0))
    return Metrics(
        config=config or (runs[0].config if runs else ""), runs=len(runs), tasks=len(by_task(runs)),
        success=mean([float(r.success) for r in runs]), pass_hat_k=pass_hat_k(runs, k),
        pass_at_k=pass_at_k(runs, k), k=k, mean_steps=mean(steps), p95_steps=percentile(steps, 95),
        step_limit_share=mean([float(r.result.end_reason == "step_limit") for r in runs]),
        repeat_rate=mean([repeat_rate(r.result) for r in runs if moves(r.result)]),
        call_accuracy=mean(accuracy),
        calls_after_answer=mean([calls_after_answer(r) for r in runs]),
        tool_errors=tool_error_rates(runs),
        mean_latency=mean([sum(s.latency for s in r.result.steps) for r in runs]),
        tokens_per_task=tokens / len(runs) if runs else 0.0,
        tokens_per_solved=tokens / solved if solved else None,
        money_per_task=money / len(runs) if money is not None and runs else None,
        money_per_solved=money / solved if money is not None and solved else None,
    )


ROWS = (("success (pass@1)", "success", "{:.0%}"), ("pass^k", "pass_hat_k", "{:.0%}"),
        ("pass@k", "pass_at_k", "{:.0%}"), ("mean steps", "mean_steps", "{:.2f}"),
        ("p95 steps", "p95_steps", "{:g}"), ("step-limit share", "step_limit_share", "{:.0%}"),
        ("repeat rate (calls and unreadable replies)", "repeat_rate", "{:.1%}"),
        ("tool-call accuracy", "call_accuracy", "{:.0%}"),
        ("calls after answer known", "calls_after_answer", "{:.2f}"),
        ("tokens per task", "tokens_per_task", "{:,.0f}"),
        ("tokens per solved task", "tokens_per_solved", "{:,.0f}"))


def table(results: list[Metrics], latency: bool = False, errors: bool = True) -> str:
    """A Markdown table, one column per configuration (latency left out unless asked: it varies)."""
    rows = list(ROWS) + ([("mean latency (s)", "mean_latency", "{:.3f}")] if latency else [])
    head = f"| metric (k={results[0].k if results else 0}) | " + " | ".join(m.config for m in results) + " |"
    lines = [head, "|---|" + "---:|" * len(results)]
    for label, name, form in rows:
        cells = [form.format(getattr(m, name)) if getattr(m, name) is not None else "-" for m in results]
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    for label, name in (("money per task", "money_per_task"), ("money per solved task", "money_per_solved")):
        if any(getattr(m, name) is not None for m in results):
            cells = [f"${getattr(m, name):.5f}" if getattr(m, name) is not None else "-" for m in results]
            lines.append(f"| {label} | " + " | ".join(cells) + " |")
    if errors:
        for tool in sorted({t for m in results for t in m.tool_errors}):
            cells = [f"{m.tool_errors[tool]:.0%}" if tool in m.tool_errors else "-" for m in results]
            label = "calls naming an unknown tool" if tool == "(unknown tool)" else f"{tool} errors"
            lines.append(f"| {label} | " + " | ".join(cells) + " |")
    return "\n".join(lines)
