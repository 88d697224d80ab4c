"""A careful agent's model: it follows each task's plan, in both formats, and never slips.

Two uses, one idea. ``CarefulModel`` is a text model (``model(prompt, stop)``)
that makes a task's expected calls in order and then gives its correct final
answer; ``careful_chat_model`` is the same as a chat model, which
``scripted_api.serve`` puts behind the OpenAI protocols, so that ``react-course
eval --model openai-compatible:URL:careful`` exercises a real model's whole
path (HTTP, retries, both loops, the log) offline. And ``estimate_cost`` runs
the careful model over a set to say what a real run of N tasks x k repeats
will cost at least: the model calls and tokens of runs that never go wrong,
counted with the course's tokenizer. Real models slip, so a real run costs
more; the estimate also says the most it can cost (every run to its step limit).

What it leaves out: mistakes (``simulated.py`` makes those), and a task it
does not know (it says so, in a final answer that scores nothing).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from ..prompts import read_prompt, render_action, render_final
from .tasks import Task

UNKNOWN = "I only know the evaluation's questions, and this is not one of them."


def next_move(task: Task | None, done: int) -> tuple[str, str] | str:
    """The careful agent's next move after ``done`` calls: a (tool, input) call, or the final answer.

    >>> from react_course.evaluate.tasks import load_tasks
    >>> task = load_tasks(family="multi_hop")[0]
    >>> next_move(task, 0), next_move(task, 2)
    (('search', 'SpaceX'), 'Elon Musk co-founded both SpaceX and Tesla.')
    """
    if task is None:
        return UNKNOWN
    return tuple(task.calls[done]) if done < len(task.calls) else task.final


class CarefulModel:
    """A text model that follows the plan of the task its prompt asks about."""

    model = "careful"
    in_process = True  # it cannot hang: the runner spares its calls a time-limit thread

    def __init__(self, tasks: list[Task]) -> None:
        self.by_question = {t.question: t for t in tasks}

    def __call__(self, prompt: str, stop: Any = None) -> str:
        pad = read_prompt(prompt)
        move = next_move(self.by_question.get(pad.question), len(pad.steps))
        if isinstance(move, str) or pad.must_answer:
            answer = move if isinstance(move, str) else UNKNOWN
            return render_final("I have what I need.", answer)
        return render_action(f"I need {move[0]}[{move[1]}].", *move)


def careful_chat_model(tasks: list[Task], name: str = "careful") -> Any:
    """The careful agent as a chat model for ``scripted_api.serve``: native calls when tools are
    offered, the text format when the request is a ReAct prompt (the text loop's way)."""
    from ..scripted_api.models import ChatTurn, ReactiveChatModel

    text_model, by_question = CarefulModel(tasks), {t.question: t for t in tasks}

    def respond(request: Any) -> Any:
        if not request.tools:  # the text loop sends its whole prompt as one user message
            return text_model(request.messages[-1].get("content") or "")
        move = next_move(by_question.get(request.question.strip()), len(request.tool_results))
        if isinstance(move, str) or request.tool_choice == "none":
            return move if isinstance(move, str) else UNKNOWN
        schema = next((t for t in request.tools if t["name"] == move[0]), {})
        argument = next(iter(schema.get("parameters", {}).get("properties", {})), "input")
        return ChatTurn.calling(move[0], **{argument: move[1]})

    return ReactiveChatModel(respond=respond, name=name)


@dataclass(frozen=True)
class CostEstimate:
    """What ``runs`` runs cost: model calls and tokens at least (careful runs), and at most."""

    runs: int
    calls: int
    tokens: int
    most_calls: int
    most_tokens: int

    def __str__(self) -> str:
        return (f"{self.runs} runs: at least {self.calls:,} model calls and {self.tokens:,} tokens "
                f"(runs that never slip), at most {self.most_calls:,} calls and about "
                f"{self.most_tokens:,} tokens (every run to its step limit)")


def estimate_cost(tasks: list[Task], repeats: int = 1, config: Any = None) -> CostEstimate:
    """The model calls and tokens of ``len(tasks)`` x ``repeats`` runs, from the careful model's runs.

    The least is measured: the careful runs' own calls and tokens. The most
    is a run that takes every step and the forced answer, its prompt growing
    by the careful runs' mean step (a call's input is the whole history).
    """
    from .runner import DEFAULT, run_eval

    config = config or DEFAULT
    runs = run_eval(config, tasks, repeats=1, model_for=lambda _repeat: CarefulModel(tasks))
    steps = [r.result.steps for r in runs if r.result.steps]
    first = _mean([s[0].usage.input for s in steps])
    growth = _mean([b.usage.input - a.usage.input for s in steps for a, b in pairwise(s)])
    output = _mean([step.usage.output for s in steps for step in s])
    limit = config.max_steps + 1  # the steps, then the forced answer
    worst = sum(first + i * growth + output for i in range(limit))
    return CostEstimate(len(runs) * repeats, sum(map(len, steps)) * repeats,
                        sum(r.result.usage.total for r in runs) * repeats,
                        limit * len(runs) * repeats, round(worst * len(runs) * repeats))


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else 0.0
