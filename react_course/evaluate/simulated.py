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
- endless_thinking: at a dead end the prompt offers no ending for, thinks and
  never acts (decided once per run), until the step limit.

What it reacts to, and so what it *assumes* about a real model (a lesson that
shows a gain on it shows these assumptions at work, not a measured fact):

1. The task: an underspecified request (kind ``ask_user``) is a dead end from
   the first step; a question whose data does not hold the answer
   (``no_answer``) becomes one after its calls.
2. The tool results: a result that says plainly that nothing was found ("No
   page matches", "No order 99999 exists") offers its own ending, and the model
   takes it; a page that is there but silent on the fact leaves a dead end.
3. What the prompt permits, as a *declared* capability (``permits``: "ask_user",
   asking the user for what is missing; "no_answer", saying the data does not
   hold it), never read from the prompt's words: at a dead end the prompt
   permits an ending for, the model takes that ending; at one it does not, it
   thinks without acting with probability ``endless_thinking``. The
   declaration is the experimenter's statement of what a prompt says, and the
   simulator takes it on trust: rewording a fix changes nothing, and a fix
   declared to permit nothing helps with nothing.
4. The prompt's length: every thousand tokens of instructions and examples
   beyond ``LONG_PROMPT`` raise the per-step slips by ``LENGTH_COST`` of
   themselves (a long prompt dilutes attention).

Like a model, it tries a call the program refused or could not read again on
the next step (with fresh luck). Everything is decided from the seed, the task
and the step number, never from a clock: a run repeats exactly, and ``repeat``
seeds give the run-to-run variation of a real model. What it leaves out:
native tool calls (it speaks the text format), and any reading of the
prompt's text beyond the question, its steps and its length.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, fields
from functools import cache

from ..models import _RecordingModel
from ..parsing import Action, parse_step
from ..prompts import read_prompt, render_action, render_final
from ..tokens import count_tokens
from .score import says_no_answer
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


PERMITS = ("ask_user", "no_answer")  # the endings a prompt can declare, named by the task kind they fit
LONG_PROMPT = 1000  # tokens of instructions and examples before length starts to cost
LENGTH_COST = 0.5  # per thousand tokens beyond LONG_PROMPT, the slips grow by half of themselves


class SimulatedModel(_RecordingModel):
    """Solves the evaluation's tasks by their plans, with seeded failures.

    ``permits`` declares the endings the prompt it is given allows (see the
    module's assumptions): the simulator never looks for them in the text.

    >>> from react_course.evaluate import load_tasks, task_tools
    >>> from react_course import run_react
    >>> task = load_tasks(family="comparison")[0]
    >>> run_react(task.question, SimulatedModel([task]), task_tools()).answer
    'The Eiffel Tower is 237 m taller than the Statue of Liberty.'
    """

    model = "simulated"

    def __init__(self, tasks: list[Task], knobs: Knobs = PERFECT, seed: int = 0,
                 permits: frozenset[str] | tuple[str, ...] = frozenset()) -> None:
        super().__init__()
        unknown = set(permits) - set(PERMITS)
        if unknown:
            raise ValueError(f"permits holds {sorted(unknown)}: a prompt can permit only "
                             f"{', '.join(PERMITS)}")
        self.tasks = {t.question: t for t in tasks}
        self.knobs, self.seed, self.permits = knobs, seed, frozenset(permits)

    def _reply(self, prompt: str) -> str:
        head, _, _ = prompt.rpartition("Now the real question.")
        pad = read_prompt(prompt)
        task = self.tasks.get(pad.question)
        if task is None:
            return "Thought: I do not know this task.\nFinal Answer: I cannot answer that."
        done = [(parse_step(text), observation) for text, observation in pad.steps]
        return self._next(task, done, pad.must_answer, _slip_scale(head))

    def _next(self, task: Task, done: list, must_answer: bool, scale: float) -> str:
        knobs, step = self.knobs, len(done) + 1
        rolls = random.Random(f"{self.seed}|{task.id}|{step}").random

        def roll() -> float:  # a long prompt (scale > 1) makes every slip likelier by the same factor
            return rolls() / scale

        actions = [p for p, _ in done if isinstance(p, Action)]
        made = {(a.tool, a.input) for a in actions}
        todo = [c for c in task.calls if c not in made]
        if self._stalls(task, todo, done) and not must_answer:  # a new thought each time, never an action
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

    def _stalls(self, task: Task, todo: list, done: list) -> bool:
        """At a dead end the prompt permits no ending for, does this run think forever?"""
        if task.kind not in PERMITS or task.kind in self.permits or todo:
            return False
        if task.kind == "no_answer" and any(says_no_answer(obs) for p, obs in done if isinstance(p, Action)):
            return False  # the tool result said plainly that nothing was found: that is an ending
        return random.Random(f"{self.seed}|{task.id}|run").random() < self.knobs.endless_thinking

    def _finish(self, task: Task, actions: list[Action], todo: list, roll, must_answer: bool) -> str:
        extra = [a for a in actions if (a.tool, a.input) not in task.calls]
        if not must_answer and not extra and task.calls and roll() < self.knobs.extra_call:
            return render_action("Let me double-check before answering.", "search", _subject(task))
        if todo or roll() < self.knobs.ignore_observation:
            return render_final("I have what I need.", task.distractor or task.final)
        return render_final("I now know the answer", task.final)


@cache
def _slip_scale(head: str) -> float:
    """How much the prompt's length multiplies each slip: 1 up to LONG_PROMPT tokens, then more.

    >>> _slip_scale("short"), round(_slip_scale("word " * 3000), 2)
    (1.0, 2.0)
    """
    extra = max(0, count_tokens(head) - LONG_PROMPT)
    return 1.0 + LENGTH_COST * extra / 1000


def _subject(task: Task) -> str:
    """What an over-careful agent searches again: the task's first input, said differently."""
    first = task.calls[0][1] or task.question
    return f"{first} facts"
