"""A simulated model for the evaluation set: it knows each task's plan, and fails on purpose.

``SimulatedModel`` is a text model (``model(prompt, stop) -> str``). It reads
the prompt (``prompts.read_prompt``), finds the task by its question, and
takes the task's next expected call, or answers once every call is done.
Seeded failure knobs (``Knobs``, each a probability per step) make it fail the
way real models do:

- wrong_tool: names a tool that does not exist (``search_web`` for ``search``);
- format_drift: writes its action as prose, which the parser cannot read;
- repeat: calls the last tool again with the same input;
- premature_finish: answers before it has every observation (the distractor);
- ignore_observation: has every observation, and answers the distractor anyway;
- extra_call: makes one more call after the answer is already in an observation;
- endless_thinking: on an impossible or underspecified task, thinks and never
  acts (decided once per run), until the step limit.

It reacts to what it is shown, as a model does: a call the program refused
or could not read did not happen, so it tries that call again on the next
step (with fresh luck), and a prompt whose example trajectory shows a final
answer that *asks a question* stops the endless thinking (it imitates the
example). So guards and prompt fixes change its
numbers. Everything is decided from the seed, the task and the step number,
never from a clock: a run repeats exactly, and ``repeat`` seeds give the
run-to-run variation of a real model. What it leaves out: native tool calls
(it speaks the text format), and reading the observations' content.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, fields

from ..models import _RecordingModel
from ..parsing import Action, parse_step
from ..prompts import read_prompt, render_action, render_final
from .tasks import Task

WRONG_NAMES = {"search": "search_web", "lookup": "find_in_page", "calculate": "calculator",
               "price": "get_price", "get_order": "order_status", "get_policy": "policy_lookup",
               "today": "current_date"}


# What a model that thinks and never acts writes, one step after another: never the same
# reply twice, so a guard against repeated replies does not end it, only the step limit does.
PONDERING = ("This is not clear yet. Let me think about what is really being asked first.",
             "Before I act, I should be sure what the question means.",
             "There may be more than one reading of this. Let me weigh them.",
             "I am still not sure which tool would help here.",
             "Let me think about this from another side.",
             "Perhaps the answer needs a detail I have not considered yet.",
             "I should plan the steps before taking any.",
             "Let me reconsider what the user wants.",
             "I keep going back and forth on this.",
             "One more moment of thought before choosing.")


@dataclass(frozen=True)
class Knobs:
    """How often each failure happens: a probability per step (endless_thinking: per run)."""

    wrong_tool: float = 0.0
    format_drift: float = 0.0
    repeat: float = 0.0
    premature_finish: float = 0.0
    ignore_observation: float = 0.0
    extra_call: float = 0.0
    endless_thinking: float = 0.0

    def __post_init__(self) -> None:
        for f in fields(self):
            if not 0.0 <= getattr(self, f.name) <= 1.0:
                raise ValueError(f"{f.name} is a probability, between 0 and 1")


# A model about as careless as a small real one: the default of the evaluation.
TYPICAL = Knobs(wrong_tool=0.06, format_drift=0.06, repeat=0.08, premature_finish=0.04,
                ignore_observation=0.05, extra_call=0.3, endless_thinking=0.6)
PERFECT = Knobs()


class SimulatedModel(_RecordingModel):
    """Solves the evaluation's tasks by their plans, with seeded failures.

    >>> from react_course.evaluate import load_tasks, task_tools
    >>> from react_course import run_react
    >>> task = load_tasks(family="comparison")[0]
    >>> run_react(task.question, SimulatedModel([task]), task_tools()).answer
    'The Eiffel Tower is 237 m taller than the Statue of Liberty.'
    """

    model = "simulated"

    def __init__(self, tasks: list[Task], knobs: Knobs = PERFECT, seed: int = 0) -> None:
        super().__init__()
        self.tasks = {t.question: t for t in tasks}
        self.knobs, self.seed = knobs, seed

    def _reply(self, prompt: str) -> str:
        head, _, _ = prompt.rpartition("Now the real question.")
        pad = read_prompt(prompt)
        task = self.tasks.get(pad.question)
        if task is None:
            reply = "Thought: I do not know this task.\nFinal Answer: I cannot answer that."
        else:
            reply = self._next(task, [parse_step(text) for text, _ in pad.steps], pad.must_answer,
                               asks_in_example="\n" in head and _example_asks(head))
        return reply

    def _next(self, task: Task, done: list, must_answer: bool, asks_in_example: bool) -> str:
        knobs, step = self.knobs, len(done) + 1
        roll = random.Random(f"{self.seed}|{task.id}|{step}").random
        stuck = task.kind in ("no_answer", "ask_user") and not asks_in_example and \
            random.Random(f"{self.seed}|{task.id}|run").random() < knobs.endless_thinking
        actions = [p for p in done if isinstance(p, Action)]
        made = {(a.tool, a.input) for a in actions}
        todo = [c for c in task.calls if c not in made]
        if stuck and not must_answer:  # a new thought each time, never an action
            return f"Thought: {PONDERING[(step - 1) % len(PONDERING)]}"
        if must_answer or not todo:
            return self._finish(task, actions, todo, roll, must_answer)
        if actions and roll() < knobs.repeat:
            last = actions[-1]
            return render_action("Let me check that again.", last.tool, last.input)
        if actions and roll() < knobs.premature_finish:
            return render_final("I think I know enough already.", task.distractor or task.final)
        tool, tool_input = todo[0]
        thought = f"Next I need {tool_input or 'the date'} ({tool})."
        if roll() < knobs.wrong_tool:
            return render_action(thought, WRONG_NAMES.get(tool, tool + "_tool"), tool_input)
        if roll() < knobs.format_drift:
            return f"Thought: {thought}\nI will now use the {tool} tool on {tool_input or 'nothing'}."
        return render_action(thought, tool, tool_input)

    def _finish(self, task: Task, actions: list[Action], todo: list, roll, must_answer: bool) -> str:
        extra = [a for a in actions if (a.tool, a.input) not in task.calls]
        if not must_answer and not extra and task.calls and roll() < self.knobs.extra_call:
            return render_action("Let me double-check before answering.", "search", _subject(task))
        if todo or roll() < self.knobs.ignore_observation:
            return render_final("I have what I need.", task.distractor or task.final)
        return render_final("I now know the answer", task.final)


def _example_asks(head: str) -> bool:
    """Does the prompt's example trajectory end a task by asking the user a question?"""
    return any(line.startswith("Final Answer:") and "?" in line
               for line in head.splitlines())


def _subject(task: Task) -> str:
    """What an over-careful agent searches again: the task's first input, said differently."""
    first = task.calls[0][1] or task.question
    return f"{first} facts"
