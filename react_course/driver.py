"""The step loop both agents share: it makes, times, records and reports every step.

``run_react`` (the text loop) and ``run_native`` (native tool calls) differ
only in how one step talks to the model: what they send, and how they read
the reply. Everything else about a step is written once, here::

    budget = new_budget(question, price, model, limits)   # one per run, for both loops
    repeat at most max_steps times:
        request = agent.prepare(steps)              # the prompt, or the messages
        budget.before_call(its size in tokens)      # time, tokens and money left?
        reply = call the model within the budget    # back-off and the run's time apply
        step = Step(n); steps.append(step)          # a reply, or the model's failure
        agent.read(step, reply)                     # text, thought, calls or answer
        agent.act(step)                             # run the calls, one result each
        the same unreadable reply again is a repeat # decided here, for both loops
        report the step (on_step, and the trace); count it (budget.after_step)
        an answer ends the run
    one forced call asks for a best-effort answer; otherwise hand over

A failed call is a step too, when the failure is the model's or its server's
(``MODEL_FAILURES``: an API error, a time-out, a scripted model out of
replies); anything else raised inside a model callable is a bug, and raises.

An agent is any object with the four members of ``Agent``. A new per-step
concern (a counter, a check) is added once, in ``take_step``, and both
loops have it; so is the trace (``trace.py``): an optional ``Trace`` hears of the
run's start, each step as it completes, and the result, from here only. What
it leaves out: what a step sends and reads (``loop.py``, ``native.py``), and
every limit's rule (``guards.Budget``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, Protocol, TypeVar

from .errors import LimitReached, ModelConfigError, ModelError, ScriptExhausted
from .execute import ToolTimeout, run_with_time_limit
from .guards import Budget, Limits
from .record import Format, Observation, RunResult, Step, Usage, handover_summary
from .retry import is_retryable, wait_before_retry

T = TypeVar("T")
OnStep = Callable[[Step], None]

# What a model call may fail with that is the model's or its server's doing: the library's model
# errors (every API failure becomes one, ``api_errors.explain``), a scripted model out of replies,
# and the network's own (time-outs, refused connections). These are recorded and retried within
# the budget. Anything else raised inside a model callable (a NameError, a TypeError) is a bug in
# the program, and raises.
MODEL_FAILURES: tuple[type[Exception], ...] = (ModelError, ScriptExhausted, OSError)


class Trace(Protocol):
    """Hears of a run from the step loop (``trace.StepLog`` writes it as JSON Lines)."""

    def start(self, question: str, format: Format, price: Any) -> None: ...

    def step(self, step: Step) -> None: ...

    def end(self, result: RunResult) -> None: ...


class Agent(Protocol):
    """How one kind of agent takes a step; the driver does the rest."""

    format: Format

    def prepare(self, steps: list[Step], forced: bool) -> tuple[Any, int]:
        """What to send next, and its size in tokens (for the budget)."""

    def send(self, request: Any, forced: bool, timeout: float | None) -> Any:
        """One model call; a failure raises (an API error, a time-out)."""

    def read(self, step: Step, reply: Any, sent: int) -> Usage:
        """Fill ``step`` from the reply (text, thought, calls or answer); return its usage.

        ``sent`` is the request's size in tokens, for a model that reports no usage."""

    def act(self, step: Step) -> None:
        """Run the step's calls and record one observation for each."""


def new_budget(question: str, price: Any, model: Any, **limits: Any) -> Budget:
    """One run's budget, for both loops: the limits from the options, the calls priced.

    ``model`` is the model's name, for the price table (anything else: no price).

    >>> new_budget("q", None, None, max_steps=3).limits.max_steps
    3
    """
    budget = Budget(Limits.from_options(**limits), question=question)
    budget.price_calls(price, model if isinstance(model, str) else None)
    return budget


def drive(agent: Agent, budget: Budget, question: str, on_step: OnStep | None = None,
          trace: Trace | None = None) -> RunResult:
    """Steps until an answer or a limit, then one forced call; always returns a ``RunResult``."""
    steps: list[Step] = []
    if trace is not None:
        trace.start(question, agent.format, getattr(budget, "price", None))
        on_step = _both(on_step, trace.step)

    def end(reason: str, detail: str, answer: str | None = None) -> RunResult:
        answer = handover_summary(question, steps, detail) if answer is None else answer
        result = RunResult(question, answer, reason, steps, detail, format=agent.format)
        if trace is not None:
            trace.end(result)
        return result

    try:
        for _ in range(budget.limits.max_steps):
            step = take_step(agent, steps, budget, on_step)
            if step.answer is not None:
                return end("final_answer", "", step.answer)
            budget.after_step(step.observation)
        if steps and steps[-1].model_failed:
            return end("error", f"the model's last call failed ({steps[-1].observation})")
        return force_answer(take_step(agent, steps, budget, on_step, forced=True),
                            budget.limits.max_steps, end)
    except LimitReached as limit:
        return end(limit.end_reason, limit.detail)
    except KeyboardInterrupt:
        return end("interrupted", "the user interrupted the run")


def _both(first: OnStep | None, second: OnStep) -> OnStep:
    """The caller's ``on_step`` first, then the trace's."""
    def report(step: Step) -> None:
        if first is not None:
            first(step)
        second(step)
    return report


def take_step(agent: Agent, steps: list[Step], budget: Budget, on_step: OnStep | None = None,
              forced: bool = False) -> Step:
    """One step: made, timed, recorded and reported here, whatever ends it.

    A step enters the record once its call has an outcome: a reply, or a failure that is
    the model's or its server's. A wrong setting before any reply, Ctrl-C during the call
    and a bug in the program (``MODEL_FAILURES`` says which is which) raise before that.
    """
    request, size = agent.prepare(steps, forced)
    budget.before_call(size)
    step = Step(len(steps) + 1, format=agent.format, forced=forced)
    began = time.monotonic()
    reply, failure = None, None
    try:
        reply = call_within_budget(lambda: agent.send(request, forced, budget.remaining_seconds()),
                                   budget)
    except (LimitReached, *MODEL_FAILURES) as error:
        if isinstance(error, ModelConfigError) and budget.successful_calls == 0:
            raise  # a wrong setting (key, model name, URL): the run never started
        failure = error
    steps.append(step)
    try:
        if failure is not None:
            model_failed(step, failure, budget, Usage(size, 0))
        else:
            budget.after_call(agent.read(step, reply, size))
            if step.calls and not forced:  # a forced step's calls are recorded, never run
                act(agent, step)
            note_repeated_unreadable(step, budget)
    finally:
        step.latency = time.monotonic() - began
        if on_step is not None:
            on_step(step)
    return step


def act(agent: Agent, step: Step) -> None:
    """Run the step's calls. A call that ends the run (a hand-over tool, Ctrl-C) still gets its line."""
    try:
        agent.act(step)
    except (LimitReached, KeyboardInterrupt) as stop:
        why = stop.detail if isinstance(stop, LimitReached) else "the user interrupted the run"
        answered = {o.call_id for o in step.observations}
        step.observations += [Observation(call.id, f"[the run ended during this call: {why}]")
                              for call in step.calls if call.id not in answered]
        raise
    step.error = next((o.error for o in step.observations if o.error), None)


def call_within_budget(call: Callable[[], T], budget: Budget) -> T:
    """The one way both loops call a model: the run's remaining time applies to the call in flight.

    After a failed call, the next one first waits the back-off (``retry.wait_before_retry``:
    exponential, jittered, at least the server's Retry-After, never past the run's time).
    """
    wait_before_retry(budget)
    try:
        return run_with_time_limit(call, budget.remaining_seconds(), kind="model")
    except ToolTimeout:
        raise out_of_time(budget) from None
    except MODEL_FAILURES as error:
        if budget.remaining_seconds() == 0:  # the call gave up as the run's time ran out: one ending
            raise out_of_time(budget) from None
        budget.last_model_error = error  # for the back-off before the next attempt
        raise


def out_of_time(budget: Budget) -> LimitReached:
    """The run's time ended during a model call (whichever of the two time-outs fired first)."""
    return LimitReached("time_limit", f"the run took over {budget.limits.max_seconds:g} s "
                                      "(a model call was still running)")


def model_failed(step: Step, error: Exception, budget: Budget, usage: Usage) -> None:
    """Record a failed model call in its step; raise what must end the run.

    Running out of time ends the run, with the unanswered call in the record;
    anything else is counted, and retried within the budget unless it cannot pass.
    """
    step.error = "model_error"
    if isinstance(error, LimitReached):
        step.observations.append(Observation("", f"no reply: {error.detail}", "model_error"))
        raise error
    budget.model_failed(usage, fatal=not is_retryable(error))
    step.observations.append(Observation("", f"{type(error).__name__}: {error}", "model_error"))


def note_repeated_unreadable(step: Step, budget: Budget) -> None:
    """The same unreadable reply (or native call) as before: said, and counted as a refused repeat.

    Decided here for both loops, after the step's observations are written: a model stuck on
    one unreadable reply then ends as ``repeating``, as one stuck on one call does.
    """
    for at, seen in unreadable_parts(step):
        note = budget.check_unreadable(seen)
        if note:
            observation = step.observations[at]
            error = "parse_error" if observation.error == "parse_error" else "repeat"
            step.observations[at] = Observation(observation.call_id, f"{note} {observation.text}", error)


def unreadable_parts(step: Step) -> list[tuple[int, str]]:
    """Which observations answer something unreadable, with what could not be read.

    A reply that could not be read (text, or an empty native reply) is its text; a native
    call whose arguments are not a JSON object is its name and raw arguments.

    >>> unreadable_parts(Step(1, text="hmm", observations=[Observation("", "Could not read", "parse_error")]))
    [(0, 'hmm')]
    """
    parts = [(at, step.text) for at, o in enumerate(step.observations) if o.error == "parse_error"]
    if step.format == "native":
        parts += [(at, f"{call.name} {call.arguments}") for at, call in enumerate(step.calls)
                  if isinstance(call.arguments, str) and at < len(step.observations)]
    return parts


def force_answer(step: Step, max_steps: int, end: Callable[..., RunResult]) -> RunResult:
    """At the step limit: a labelled best-effort answer if the model gave one, else hand over."""
    detail = f"no final answer within {max_steps} step{'' if max_steps == 1 else 's'}"
    if step.answer is None:
        return end("step_limit", detail)
    return end("step_limit", detail,
               f"Best effort (step limit of {max_steps} reached; not verified): {step.answer}")
