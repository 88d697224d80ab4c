"""Run an evaluation: every task k times under one configuration, logged as step events.

``run_eval`` runs each (task, repeat) once, writes every step to a JSON Lines
log (``trace.StepLog``), and can resume: runs whose end is in the log are
read back, not run again. Against the simulated model it runs in one thread
(the runs take milliseconds). Against a real model, ``workers`` runs go at
once under a ``TokenBucket`` (requests per second, with a burst), and a
rate-limited or failed call is retried by the run itself, as a step with
back-off (the one retry path, ``retry.py``). Where no thread can start (a
browser tab) the runs go one at a time, whatever ``workers`` asks. A model
made by ``model_for`` is a text model, or a ``NativeModel`` (an ``openai``
client and a model name): those runs take the native loop (``run_native``).
Ctrl-C ends the evaluation with ``EvalInterrupted``: the runs it cut short are
not counted as finished, so ``resume=True`` runs them again.

A ``Config`` is what a change changes: the prompt's example trajectory, the
step limit, any ``guards.Limits`` field. Keep each configuration's name
stable: a log is compared by it. What it leaves out: job queues across
machines, and an example trajectory for the native loop (it has no text
prompt to put one in: ``run_task`` refuses such a configuration there).
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..loop import run_react
from ..models import takes
from ..native import run_native
from ..prompts import EXAMPLES
from ..tracing.trace import JsonLines, StepLog, read_log
from ..web import browser
from .metrics import EvalRun
from .score import run_succeeded
from .simulated import TYPICAL, SimulatedModel
from .tasks import Task, load_tasks, task_tools

ASKING_EXAMPLE = """\
Question: Is my parcel here yet?
Thought: The question does not say which order. I should ask instead of guessing.
Final Answer: Which order do you mean? Please give me its number.

Question: How deep is the Mariana Trench?
Thought: I need a page on the Mariana Trench.
Action: search
Action Input: Mariana Trench
Observation: No page matches 'Mariana Trench'.
Thought: The data does not hold it. I say so instead of guessing.
Final Answer: The encyclopedia has no page on the Mariana Trench, so I cannot say."""


@dataclass(frozen=True)
class Config:
    """One agent configuration: a name, the example trajectory, the step limit, other limits."""

    name: str
    example: str | None = None  # None: the prompt's own choice (``prompts.pick_example``)
    max_steps: int = 8
    limits: dict[str, Any] = field(default_factory=dict)
    # The endings the example permits ("ask_user", "no_answer"), declared for the simulated model,
    # which never reads them from the example's words (``simulated.py``); a real model ignores this.
    permits: frozenset[str] = frozenset()


DEFAULT = Config("default")
# The simulated model (and any model marked ``in_process``, as the careful one) and the bundled
# tools cannot hang, and a time limit costs a thread per call, more than the call itself: their
# runs go without (a real model's keep theirs).
SIMULATED_LIMITS = {"max_seconds": None, "tool_timeout": None}
# One change: an example trajectory that shows asking the user and saying "the data does not say".
ASKS = Config("asks", example=EXAMPLES[0][1] + "\n\n" + ASKING_EXAMPLE,
              permits=frozenset({"ask_user", "no_answer"}))


class TokenBucket:
    """At most ``rate`` takes per second on average, ``burst`` at once; ``take`` waits its turn."""

    def __init__(self, rate: float, burst: int = 1, clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        if rate <= 0 or burst < 1:
            raise ValueError("rate must be above 0 and burst at least 1")
        self.rate, self.burst, self.clock, self.sleep = rate, burst, clock, sleep
        self.tokens, self.at = float(burst), clock()
        self._lock = threading.Lock()

    def take(self) -> float:
        """Take one token; return the seconds waited."""
        with self._lock:
            now = self.clock()
            self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
            self.at = now
            wait = 0.0 if self.tokens >= 1 else (1 - self.tokens) / self.rate
            self.tokens -= 1  # may go below 0: the wait above pays it back
        if wait:
            self.sleep(wait)
        return wait


class RateLimited:
    """A model behind a token bucket: each call waits for a token, so concurrent runs keep to
    the provider's rate. A failed call is not retried here: the run's budget retries it, as a
    step, with back-off and the server's Retry-After (``retry.py``, the one retry path)."""

    def __init__(self, model: Any, bucket: TokenBucket) -> None:
        self.inner, self.bucket = model, bucket
        self.model = getattr(model, "model", None)
        self._timeout = takes(model, "timeout")

    @property
    def last_usage(self) -> Any:
        return getattr(self.inner, "last_usage", None)

    def __call__(self, prompt: str, stop: Any = None, timeout: float | None = None) -> str:
        extra = {"timeout": timeout} if self._timeout and timeout is not None else {}
        self.bucket.take()
        return self.inner(prompt, stop, **extra)


@dataclass(frozen=True)
class NativeModel:
    """A native tool-calling model for the runner: an ``openai`` client and the model's name."""

    client: Any
    model: str


class _ThrottledClient:
    """An ``openai`` client whose chat calls each wait for a token first (``RateLimited``'s twin)."""

    def __init__(self, client: Any, bucket: TokenBucket) -> None:
        self._inner, self._bucket = client, bucket

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    @property
    def chat(self) -> Any:
        return self

    @property
    def completions(self) -> Any:
        return self

    def create(self, **request: Any) -> Any:
        self._bucket.take()
        return self._inner.chat.completions.create(**request)


class EvalInterrupted(KeyboardInterrupt):
    """Ctrl-C during ``run_eval``: how many runs had finished (they are in the log) of how many."""

    def __init__(self, done: int, total: int) -> None:
        super().__init__(f"interrupted after {done} of {total} runs")
        self.done, self.total = done, total


def subset(tasks: list[Task], count: int | None) -> list[Task]:
    """``count`` tasks taken in turn from each family, so that a small budget still sees them all.

    >>> [t.family for t in subset(load_tasks(), 3)]
    ['multi_hop', 'comparison', 'shop']
    """
    if count is None or count >= len(tasks):
        return list(tasks)
    families: dict[str, list[Task]] = {}
    for task in tasks:
        families.setdefault(task.family, []).append(task)
    longest = max(map(len, families.values()))
    order = [group[rank] for rank in range(longest) for group in families.values() if rank < len(group)]
    return order[:count]


def simulated(tasks: list[Task], knobs: Any = TYPICAL,
              permits: frozenset[str] = frozenset()) -> Callable[[int], SimulatedModel]:
    """A model factory: repeat r gets the simulated model seeded r, told what the prompt permits."""
    return lambda repeat: SimulatedModel(tasks, knobs, seed=repeat, permits=permits)


def run_task(task: Task, model: Any, config: Config, trace: StepLog | None = None) -> EvalRun:
    """One run of one task; the repeat and configuration come from the trace's meta."""
    offline = isinstance(model, SimulatedModel) or getattr(model, "in_process", False)
    limits = {**(SIMULATED_LIMITS if offline else {}), **config.limits}
    if isinstance(model, NativeModel):
        if config.example is not None:
            raise ValueError(f"the configuration {config.name!r} changes the text prompt's example, "
                             "which the native loop does not send: evaluate it with the text loop")
        result = run_native(model.client, task_tools(), task.question, model=model.model,
                            max_steps=config.max_steps, trace=trace, **limits)
    else:
        result = run_react(task.question, model, task_tools(), max_steps=config.max_steps,
                           example=config.example, trace=trace, **limits)
    meta = trace.meta if trace is not None else {}
    return EvalRun(task, int(meta.get("repeat", 0)), config.name, result, run_succeeded(result, task))


def finished_runs(log: str | Path, tasks: list[Task], config: Config) -> dict[tuple[str, int], EvalRun]:
    """The runs of ``config`` whose end the log holds, keyed by (task id, repeat)."""
    found, by_id = read_log(log, quiet=True), {t.id: t for t in tasks}
    done = {}
    for run_id in found.finished:
        meta, result = found.meta[run_id], found.runs[run_id]
        task = by_id.get(meta.get("task", ""))
        if task is not None and meta.get("config") == config.name and result.end_reason != "interrupted":
            done[(task.id, int(meta["repeat"]))] = EvalRun(task, int(meta["repeat"]), config.name, result,
                                                           run_succeeded(result, task), meta)
    return done


def run_eval(config: Config = DEFAULT, tasks: list[Task] | None = None, *, repeats: int = 1,
             model_for: Callable[[int], Any] | None = None, log: str | Path | None = None,
             resume: bool = False, workers: int = 1, rate: float | None = None,
             progress: Callable[[int, int], None] | None = None) -> list[EvalRun]:
    """Run every task ``repeats`` times; return the runs in (task, repeat) order.

    ``model_for(repeat)`` makes the model of one run (default: the simulated
    model, seeded by the repeat). ``log`` appends every step event; with
    ``resume=True`` the runs the log finished are not run again. ``rate``
    (model calls per second) puts every model behind one token bucket. Ctrl-C
    raises ``EvalInterrupted`` once the runs in flight have ended.
    """
    tasks = load_tasks() if tasks is None else tasks
    model_for = model_for or simulated(tasks, permits=config.permits)
    out = JsonLines(log) if log is not None else None
    done = finished_runs(log, tasks, config) if resume and log is not None else {}
    todo = [(t, r) for r in range(repeats) for t in tasks if (t.id, r) not in done]
    bucket = TokenBucket(rate, burst=max(1, workers)) if rate else None
    total, count, lock = len(todo) + len(done), [len(done)], threading.Lock()

    stop = threading.Event()

    def one(task: Task, repeat: int) -> EvalRun | None:
        if stop.is_set():
            return None
        run = run_task(task, _throttled(model_for(repeat), bucket), config,
                       StepLog(out, run_id=f"{config.name}-{task.id}-r{repeat}-{_nonce()}",
                               meta={"task": task.id, "repeat": repeat, "config": config.name}))
        if run.result.end_reason == "interrupted":  # Ctrl-C reached the loop itself (one thread)
            raise KeyboardInterrupt
        with lock:
            count[0] += 1
            if progress:
                progress(count[0], total)
        return run

    try:
        if workers > 1 and browser.threads_work():
            with ThreadPoolExecutor(workers) as pool:
                try:
                    runs = list(pool.map(lambda job: one(*job), todo))
                except KeyboardInterrupt:
                    stop.set()  # the runs in flight end on their own; none starts after them
                    pool.shutdown(wait=True, cancel_futures=True)
                    raise
        else:
            runs = [one(*job) for job in todo]
    except KeyboardInterrupt:
        raise EvalInterrupted(count[0], total) from None
    finally:
        if out is not None:
            out.close()
    return sorted([*done.values(), *[r for r in runs if r is not None]], key=lambda r: (r.task.id, r.repeat))


def _throttled(model: Any, bucket: TokenBucket | None) -> Any:
    if bucket is None:
        return model
    if isinstance(model, NativeModel):
        return NativeModel(_ThrottledClient(model.client, bucket), model.model)
    return RateLimited(model, bucket)


def _nonce() -> str:
    """A short random tag, so that a rerun of an unfinished run gets an id of its own."""
    return f"{random.getrandbits(24):06x}"
