"""Structure around the loop: plan-and-execute, and reflection on a failed run.

Both are thin layers over ``run_react``, so that each can be measured against
the plain loop on the same tasks (lesson 12, ``evaluate/structured.py``):

- ``plan_and_execute``: one planner call writes the tool calls it can see
  from the question (``tool: input`` lines); the program runs them through
  the same door as the loop's calls, and a ReAct loop starts from their
  observations to do what the plan could not (a call that needs an earlier
  result) and to answer. Cheaper when the task's shape is known up front;
  no help when a step's result decides the next step.
- ``reflect`` (``lesson_for``) and ``with_reflection`` (the Reflexion idea, Shinn et al.
  2023): after a run that the program can *see* failed (any end but a final
  answer), a pass over its trace writes a lesson in words; the next attempt
  reads it beside the prompt's example. A confident wrong answer is not seen,
  so it is not retried: the signal is the limit of the method.

What it leaves out: replanning after a failed planned call (the loop that
follows plans one step at a time anyway), lessons kept across tasks
(Reflexion's long-term memory), a model-written reflection (``reflect`` reads
the trace by rules, so that its lesson is the same every run), and native calls.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from ..execute import execute
from ..guards import Budget
from ..loop import run_react
from ..parsing import Action
from ..prompts import EXAMPLES, render_action
from ..record import RunResult, Step, ToolCall, Usage
from ..tokens import count_tokens
from ..tools import ToolRegistry, as_registry
from ..transcript import scratchpad

PLAN_PROMPT = """Write a plan for the question below: the tool calls that answer it, one per line, \
as `tool: input`, in order. Write only calls whose input you can read in the question; a call that \
needs an earlier result is left to the agent that runs the plan. Write nothing else.

Tools: {tools}

Question: {question}
Plan:"""
# A plan line: maybe a number and a dot, a tool (ASCII letters, digits, underscores, not starting
# with a digit), a colon, the input. Exercise 12.read_plan holds a student's version to the same rules.
PLAN_LINE = re.compile(r"^\s*(?:[0-9]+\.\s*)?([A-Za-z_][A-Za-z0-9_]*)\s*:\s*(.*?)\s*$")


def read_plan(text: str, limit: int = 6) -> list[tuple[str, str]]:
    """The ``tool: input`` lines of a planner's reply, in order, at most ``limit``.

    >>> read_plan("1. search: SpaceX\\nthen the rest\\n2) search-web: x\\n10. calculate : 2 + 3")
    [('search', 'SpaceX'), ('calculate', '2 + 3')]
    """
    found = [PLAN_LINE.match(line) for line in text.splitlines()]
    return [(m.group(1), m.group(2)) for m in found if m][:max(0, limit)]


class PlannedRun(RunResult):
    """A plan-and-execute run: its planned steps were not model calls, and the planner's call was one."""

    @property
    def model_calls(self) -> int:
        return sum(1 for s in self.steps if not is_planned(s)) + 1


def is_planned(step: Step) -> bool:
    """Was this step run from the plan (no model call of its own)?"""
    return bool(step.calls) and step.calls[0].id.startswith("plan_")


def plan_and_execute(question: str, model: Callable[..., Any],
                     tools: ToolRegistry | dict[str, Callable], *, planner: Callable[..., Any] | None = None,
                     max_steps: int = 8, policy: Any = None, **options: Any) -> RunResult:
    """A planner's calls run first, then a ReAct loop answers from their observations.

    The plan's calls count against ``max_steps`` like the loop's own (the
    run takes at most ``max_steps`` tool steps in all), and the planner's
    tokens are added to the run's first step, since the record has a step
    for each call and none for the plan itself. The result is a
    ``PlannedRun``, whose ``model_calls`` (and so the trace's last line)
    counts the planner's call and the loop's, not the planned steps.
    """
    registry = as_registry(tools)
    prompt = PLAN_PROMPT.format(tools=", ".join(registry.names), question=question)
    reply, failed = _ask_planner(planner or model, prompt)
    plan = read_plan(reply, limit=max(0, max_steps - 1))
    budget = Budget(question=question)
    planned = [_planned_step(i, tool, text, registry, budget, policy) for i, (tool, text) in
               enumerate(plan, 1)]
    rest = run_react(question, model, registry, max_steps=max_steps - len(planned), policy=policy,
                     history=lambda _, steps: scratchpad(planned + steps), **options)
    steps = planned + [replace(s, number=s.number + len(planned)) for s in rest.steps]
    if steps:
        steps[0] = replace(steps[0], usage=steps[0].usage + Usage(count_tokens(prompt), count_tokens(reply)))
    detail = "; ".join(filter(None, [failed, rest.detail]))
    return PlannedRun(question, rest.answer, rest.end_reason, steps, detail)


def _ask_planner(planner: Callable[..., Any], prompt: str) -> tuple[str, str]:
    """The planner's reply, and what went wrong if its call failed (then the plan is empty).

    A failed plan is the model's failure, not the program's: the loop that
    follows still answers, one step at a time, and the run's detail says so.
    """
    try:
        return str(planner(prompt, None) or ""), ""
    except Exception as error:  # an API error or a time-out: recorded, then the loop works unplanned
        return "", f"the planner's call failed ({type(error).__name__}): the loop ran without a plan"


def _planned_step(number: int, tool: str, text: str, registry: ToolRegistry, budget: Budget,
                  policy: Any) -> Step:
    """One planned call as a text step, so that the loop's scratchpad shows it done."""
    thought = f"Step {number} of the plan."
    call = ToolCall(f"plan_{number}", tool, text)
    step = Step(number, text=render_action(thought, tool, text), thought=thought, calls=[call],
                parsed=Action(tool, text, thought))
    step.observations.append(execute(call, registry, budget, policy=policy))
    step.error = step.observations[0].error
    return step


@dataclass(frozen=True)
class Lesson:
    """What ``reflect`` learnt from a failed run: the words, and the endings they permit.

    ``permits`` declares what the words allow beyond a computed answer (the
    evaluation's simulated model reads the declaration, never the words, so
    that rewording a lesson cannot change its measured effect).
    """

    text: str
    permits: frozenset[str] = frozenset()


def lesson_for(result: RunResult) -> Lesson | None:
    """The lesson a failed run's trace supports; None when the run ended with an answer.

    The first rule that matches the trace writes the lesson: a tool that does
    not exist; thinking without acting (no call at all) until the step limit
    (each thought with no action is also a reply the parser cannot read, so
    this rule comes before that one); replies the parser could not read; calls
    repeated; else a lesson that names the end reason. These are exercise
    12.reflection's rules in its order (where the exercise returns the kind of
    lesson, "other" for the last): a run that made a call and then only thought
    gets the format lesson.
    """
    if result.end_reason == "final_answer":
        return None
    errors = [o for s in result.steps for o in s.observations if o.error]
    unknown = sorted({c.name for s in result.steps for c, o in zip(s.calls, s.observations, strict=False)
                      if o.error == "unknown_tool"})
    if unknown:
        return Lesson(f"The tool {', '.join(unknown)} does not exist. Use only the tools the prompt lists, "
                      "spelt exactly as listed.")
    if result.end_reason == "step_limit" and not result.tool_calls:
        return Lesson("You thought for every step without acting, and ran out of steps. If no tool can "
                      "answer, end at once with a final answer that says so, or that asks the user, "
                      "such as:\n"
                      "Final Answer: Which order do you mean? Please give me its number.",
                      permits=frozenset({"ask_user", "no_answer"}))
    if any(o.error == "parse_error" for o in errors):
        return Lesson("Some replies could not be read. Write each action as an Action: line and an "
                      "Action Input: line.")
    if result.end_reason == "repeating":
        return Lesson("You made the same call again and again. A call already made has its observation "
                      "above: read it.")
    return Lesson(f"The last attempt ended without an answer ({result.end_reason}). Take a different path "
                  "this time.")


def reflect(result: RunResult) -> str | None:
    """The words of ``lesson_for(result)``: what the next attempt reads; None after a final answer."""
    lesson = lesson_for(result)
    return lesson.text if lesson else None


def with_reflection(question: str, model: Callable[..., Any], tools: ToolRegistry | dict[str, Callable], *,
                    next_model: Callable[..., Any] | None = None,
                    reflect: Callable[[RunResult], str | None] | None = reflect, attempts: int = 2,
                    **options: Any) -> RunResult:
    """Run, and after a failure the program can see, reflect and run again (``attempts`` in all).

    ``reflect=None`` retries without a lesson: the control that tells a
    lesson's effect from a second try's. ``next_model`` makes the later
    attempts (a fresh sample of a real model; by default the same model).
    The result holds every attempt's steps, so that its cost counts them all.
    """
    registry, steps, lesson = as_registry(tools), [], None
    for attempt in range(1, attempts + 1):
        example = None if lesson is None else f"{EXAMPLES[0][1]}\n\n{lesson}"
        current = model if attempt == 1 else (next_model or model)
        result = run_react(question, current, registry, example=example, **options)
        steps += [replace(s, number=s.number + len(steps)) for s in result.steps]
        if result.end_reason == "final_answer" or attempt == attempts:
            break
        found = reflect(result) if reflect is not None else None
        lesson = f"A lesson from your last attempt at this question:\n{found}" if found else lesson
    return RunResult(question, result.answer, result.end_reason, steps, result.detail)
