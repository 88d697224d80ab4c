"""The evaluation set as an Inspect task: the same tasks, agent and scorer, with Inspect's tooling.

Inspect (``inspect-ai``, the UK AI Security Institute's framework) splits an
evaluation into the three parts lesson 09 built by hand: a dataset, a solver
and a scorer, in a ``Task``. Here each part is the course's own:

- ``dataset()``: every course task as a ``Sample`` (the question as input,
  a correct final answer as target, the family, split and kind as metadata);
- ``course_agent()``: a solver that runs the course's text loop (``run_react``)
  with *Inspect's* model behind ``model(prompt, stop)``, so every model call
  goes through Inspect and lands in its log;
- ``course_scorer()``: the course's rule (``score.run_succeeded``: a final
  answer, and one that scores), with the end reason as the explanation, and
  Inspect's accuracy and standard error clustered by task family.

What Inspect gives for free: a log per evaluation (every sample, message,
model call, token count and score, in one file ``inspect view`` opens in a
browser), epochs (repeats) with reducers, concurrency and retries against a
provider's rate limits, a time and token limit per sample, any provider by
name (``openai-api/NAME/MODEL`` with a ``base_url`` for any OpenAI-compatible
server), and the whole ecosystem of solvers and scorers. What it leaves out:
Inspect's own ReAct agent (``inspect_ai.agent.react``: it would need the
course's tools rewritten as Inspect tools), the simulated model (Inspect needs
a model behind an API: offline that is ``scripted_api.serve(careful_chat_model
(tasks))``, or ``react-course serve-model``), and the course's metrics table
(``metrics.py`` reads the course's runs, not Inspect's log).

Needs the optional extra: ``pip install -c constraints.txt -e ".[inspect]"``;
without it the module imports, and its first use says what to install.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextvars
from types import SimpleNamespace
from typing import Any

from ..loop import run_react
from .score import run_succeeded
from .tasks import Task as CourseTask
from .tasks import load_tasks, task_tools

MAX_TOKENS = 400  # per call, as the course's real models ask (README, "Bounded waits")
NEEDS = 'Inspect is an optional extra: install it with `pip install -c constraints.txt -e ".[inspect]"`'


def inspect_parts() -> Any:
    """The parts of Inspect used here, imported on first use: without the extra this module still
    imports (its doctests, a notebook's import line), and using it says what to install."""
    try:
        import inspect_ai as found
        from inspect_ai import dataset, model, scorer, solver
    except ModuleNotFoundError as missing:
        raise ModuleNotFoundError(f"{missing.name} is not installed. {NEEDS} in the course folder.") from None
    return SimpleNamespace(Task=found.Task, eval=found.eval, dataset=dataset, model=model, scorer=scorer,
                           solver=solver)


def sample_fields(task: CourseTask) -> dict[str, Any]:
    """What Inspect's ``Sample`` gets from a course task (needs no Inspect to look at).

    >>> sample_fields(load_tasks(family="shop")[0])["metadata"]
    {'family': 'shop', 'split': 'train', 'kind': 'number'}
    """
    return {"input": task.question, "target": task.final, "id": task.id,
            "metadata": {"family": task.family, "split": task.split, "kind": task.kind}}


def sample(task: CourseTask) -> Any:
    """One course task as an Inspect ``Sample``."""
    return inspect_parts().dataset.Sample(**sample_fields(task))


def dataset(split: str | None = None, family: str | None = None) -> Any:
    """The course's tasks (a split, a family) as an Inspect ``MemoryDataset``."""
    return inspect_parts().dataset.MemoryDataset([sample(t) for t in load_tasks(split, family)],
                                              name="react-course-eval")


class InspectTextModel:
    """Inspect's model as the course's ``model(prompt, stop) -> str``, for a loop in a worker thread:
    each call is sent to the event loop the solver runs on, and waits for its answer there."""

    def __init__(self, model: Any, loop: asyncio.AbstractEventLoop) -> None:
        self.inspect_model, self.loop, self.last_usage = model, loop, None
        self.model = str(model)
        self.context = contextvars.copy_context()  # the sample's: Inspect finds its log and limits there

    def __call__(self, prompt: str, stop: Any = None) -> str:
        config = inspect_parts().model.GenerateConfig(stop_seqs=list(stop or [])[:4] or None,
                                                      max_tokens=MAX_TOKENS, temperature=0.0)
        done: concurrent.futures.Future = concurrent.futures.Future()

        def start() -> None:
            task = self.loop.create_task(self.inspect_model.generate(prompt, config=config),
                                         context=self.context.copy())
            task.add_done_callback(lambda t: done.set_exception(t.exception()) if t.exception()
                                   else done.set_result(t.result()))
        self.loop.call_soon_threadsafe(start)
        output = done.result()
        usage = output.usage
        self.last_usage = _Usage(usage.input_tokens, usage.output_tokens) if usage else None
        return output.completion


class _Usage:
    """The two counts ``loop.usage_of`` reads, under the names the OpenAI SDK gives them."""

    def __init__(self, prompt_tokens: int, completion_tokens: int) -> None:
        self.prompt_tokens, self.completion_tokens = prompt_tokens, completion_tokens


def course_agent(max_steps: int = 8) -> Any:
    """The course's text loop as an Inspect solver: the answer, the end reason and the steps go
    into the sample's state (its output and metadata), so the scorer and the log see them."""
    api = inspect_parts()

    async def solve(state: Any, generate: Any) -> Any:
        model = InspectTextModel(api.model.get_model(), asyncio.get_running_loop())
        result = await asyncio.to_thread(run_react, state.input_text, model, task_tools(),
                                         max_steps=max_steps)
        answer = result.answer or ""
        state.messages.append(api.model.ChatMessageAssistant(content=answer))
        state.output = api.model.ModelOutput.from_content(model=model.model, content=answer)
        state.metadata.update(end_reason=result.end_reason, steps=len(result.steps),
                              calls=[f"{c.name}[{c.arguments}]" for c in result.tool_calls])
        return state
    return api.solver.solver(name="course_agent")(lambda: solve)()


def course_scorer() -> Any:
    """The course's rule: a success is a final answer that scores (a step-limit ending never is);
    accuracy with a standard error clustered by family (the tasks of a family are alike)."""
    api, by_id = inspect_parts(), {t.id: t for t in load_tasks()}
    sc = api.scorer

    async def grade(state: Any, target: Any) -> Any:
        task = by_id[str(state.sample_id)]
        ended = state.metadata.get("end_reason", "final_answer")  # another solver: a plain answer
        answer = state.output.completion if state.output else ""
        ok = run_succeeded(_Ended(ended, answer), task)
        return sc.Score(value=sc.CORRECT if ok else sc.INCORRECT, answer=answer,
                        explanation=f"ended: {ended}; gold: {task.final}")
    metrics = [sc.accuracy(), sc.stderr(cluster="family")]
    return sc.scorer(metrics=metrics, name="course_scorer")(lambda: grade)()


class _Ended:
    """What ``run_succeeded`` reads of a run: how it ended and its answer."""

    def __init__(self, end_reason: str, answer: str) -> None:
        self.end_reason, self.answer = end_reason, answer


def eval_task(split: str | None = None, family: str | None = None, epochs: int = 1,
              solver_: Any = None) -> Any:
    """The course's evaluation as an Inspect ``Task``: ``epochs`` repeats of each sample."""
    return inspect_parts().Task(dataset=dataset(split, family), solver=solver_ or course_agent(),
                                scorer=course_scorer(), epochs=epochs, name="react_course_eval")
