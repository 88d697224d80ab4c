"""The plain loop, plan-and-execute and reflection, measured on the same tasks (lesson 12).

``run_structured(kind, tasks, repeats)`` runs every task under one of
``KINDS`` with the simulated model (repeat r seeded r, as ``run_eval`` does)
and returns ``EvalRun``s, so that ``metrics`` and ``compare`` read them as
they read lesson 09's configurations:

- ``plain``: ``run_react``, as in lesson 09;
- ``plan``: ``structure.plan_and_execute`` with ``SimulatedPlanner``;
- ``retry``: a second attempt after a failure the program sees, no lesson;
- ``reflect``: the same second attempt, reading ``structure.reflect``'s lesson
  (the simulated model is told what the lesson permits, ``Lesson.permits``,
  and never reads its words).

A later attempt gets a fresh seed (a real model samples again). What it
leaves out: step logs and resuming (the runs take milliseconds), and real
models (``run_eval`` is the runner for those).
"""

from __future__ import annotations

import random
import re
from typing import Any

from ..lessons.structure import lesson_for, plan_and_execute, with_reflection
from .metrics import EvalRun
from .runner import SIMULATED_LIMITS
from .score import run_succeeded
from .simulated import TYPICAL, WRONG_NAMES, Knobs, SimulatedModel
from .tasks import Task, load_tasks, task_tools

KINDS = ("plain", "plan", "retry", "reflect")
NEXT_SEED = 1000  # a later attempt's seed is the repeat's plus this


def plannable(tool_input: str, question: str) -> bool:
    """Can a planner write this call before any result? Its input's words are all in the question.

    >>> plannable("Eiffel Tower", "How tall is the Eiffel Tower?"), plannable("330 - 93", "How tall?")
    (True, False)
    """
    words = set(re.findall(r"[a-z0-9]+", question.lower()))
    return all(w in words for w in re.findall(r"[a-z0-9]+", tool_input.lower()))


class SimulatedPlanner:
    """Plans a task's expected calls up to the first one whose input the question does not hold.

    A call that needs an earlier result (a name found by a search, the
    arithmetic on two prices) cannot be planned, so the plan stops there and
    the loop goes on. With probability ``knobs.wrong_tool`` per line it
    misnames the tool, as the simulated model does.
    """

    def __init__(self, tasks: list[Task], knobs: Knobs = TYPICAL, seed: int = 0) -> None:
        self.tasks = {t.question: t for t in tasks}
        self.knobs, self.seed = knobs, seed

    def __call__(self, prompt: str, stop: Any = None) -> str:
        question = prompt.rpartition("Question: ")[2].split("\n", 1)[0]
        task = self.tasks.get(question)
        if task is None:
            return ""
        roll = random.Random(f"{self.seed}|{task.id}|plan").random
        lines = []
        for tool, tool_input in task.calls:
            if not plannable(tool_input, question):
                break
            name = WRONG_NAMES.get(tool, tool + "_tool") if roll() < self.knobs.wrong_tool else tool
            lines.append(f"{name}: {tool_input}")
        return "\n".join(lines)


def run_one(kind: str, task: Task, repeat: int, knobs: Knobs = TYPICAL, max_steps: int = 8) -> EvalRun:
    """One run of one task under one kind."""
    model = SimulatedModel([task], knobs, seed=repeat)
    options: dict[str, Any] = {"max_steps": max_steps, **SIMULATED_LIMITS}
    if kind == "plain":
        from ..loop import run_react
        result = run_react(task.question, model, task_tools(), **options)
    elif kind == "plan":
        result = plan_and_execute(task.question, model, task_tools(),
                                  planner=SimulatedPlanner([task], knobs, seed=repeat), **options)
    elif kind in ("retry", "reflect"):
        again = SimulatedModel([task], knobs, seed=repeat + NEXT_SEED)

        def noted(first: Any) -> str | None:
            # The lesson's declared endings reach the simulated model; its words reach only the prompt.
            lesson = lesson_for(first)
            again.permits = lesson.permits if lesson else frozenset()
            return lesson.text if lesson else None

        result = with_reflection(task.question, model, task_tools(), next_model=again,
                                 reflect=noted if kind == "reflect" else None, **options)
    else:
        raise ValueError(f"kind is one of {', '.join(KINDS)}, not {kind!r}")
    return EvalRun(task, repeat, kind, result, run_succeeded(result, task))


def run_structured(kind: str, tasks: list[Task] | None = None, repeats: int = 3,
                   knobs: Knobs = TYPICAL) -> list[EvalRun]:
    """Every task ``repeats`` times under ``kind``, in (task, repeat) order."""
    tasks = load_tasks() if tasks is None else tasks
    return [run_one(kind, t, r, knobs) for t in tasks for r in range(repeats)]


def model_calls(run: EvalRun) -> int:
    """Calls to a model in one run (a plan-and-execute run counts its planner's, not its planned steps)."""
    return run.result.model_calls
