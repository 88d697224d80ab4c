"""The one door every tool call passes, in the text loop and the native loop alike.

``execute(call, registry, budget)`` turns a ``ToolCall`` into an
``Observation`` and never raises for the model's mistakes. In order:

1. an exact repeat of an earlier call is refused (unless the tool's result
   depends on state);
2. an unknown tool name gets the list of real ones (never the "closest" tool);
3. the arguments are bound to the tool's parameters: the model's text for the
   text loop, a JSON object validated against the schema for the native loop;
4. a tool that has failed too often is refused (lesson 05, error spirals);
   for a side-effecting tool the model's own approval flags are dropped, every
   id in its arguments must have appeared in this run (provenance; for every
   tool with ``check_ids``), and the approval ``policy`` must say yes (lesson 06);
5. the tool runs under a time limit: its own, cut to the run's remaining time;
6. an exception, a time-out or an empty result becomes a sentence the model
   can act on (a model fills a blank with whatever it expected to see);
7. a long result is truncated with a marker that says so;
8. the budget watches for calls that make no progress (one nudge is added to
   the observation), and with ``mark_untrusted`` the result is wrapped as data.

A hand-over tool (``stopping.people_tools``) ends the run: its ``HandOver`` is
the one exception a tool may pass through.

Because every call passes here, a new rule (approval, untrusted-data marking,
a trace event) is added once. ``execute_all`` runs one turn's calls: in
parallel when every tool is read-only, one at a time otherwise.

Time limits: a tool runs in a worker thread that is abandoned past its limit
(Python cannot kill a thread). Where no thread can start (Pyodide in a
browser), a trace function raises inside the tool at the deadline instead;
that stops Python-level loops, not a long C-level computation or
``time.sleep``, and the browser says so once (``browser.cannot_enforce``).
There, too, one turn's calls run one after another.
"""

from __future__ import annotations

import json
import sys
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, Literal

from .errors import LimitReached
from .guards import Budget
from .observations import truncate
from .record import Observation, ToolCall
from .safety import Policy, check_provenance, gate, mark_untrusted, without_model_flags
from .tools.definition import Tool
from .web import browser

if TYPE_CHECKING:  # the registry calls execute for tools.run: a type, not an import, here
    from .tools.registry import ToolRegistry

TRUNCATION_TIP = "Ask for something narrower to see the rest"
_DEFAULT: Any = object()


def execute(call: ToolCall, registry: ToolRegistry, budget: Budget | None = None, *,
            policy: Policy | None = None, timeout: float | None = _DEFAULT,
            max_chars: int | None = _DEFAULT) -> Observation:
    """Run one tool call; every way it can go wrong becomes an observation."""
    refusal = admit(call, registry, budget)
    if refusal is not None:
        return refusal
    observation = _run(call, _tool(call, registry), registry, policy, _time_limit(timeout, budget), budget)
    return settle(call, observation, budget, max_chars)


def _tool(call: ToolCall, registry: ToolRegistry) -> Tool | None:
    return registry[call.name] if call.name in registry else None


def admit(call: ToolCall, registry: ToolRegistry, budget: Budget | None,
          this_turn: set[tuple[str, str]] | None = None) -> Observation | None:
    """The budget's refusal of a call before it runs (a repeat, a tool that keeps failing), or None.

    Always called on the calling thread, so the counters it changes are never raced.
    """
    if budget is None:
        return None
    tool = _tool(call, registry)
    refusal = budget.check_repeat(call, repeatable=bool(tool and tool.repeatable), this_turn=this_turn)
    if refusal:
        return Observation(call.id, refusal, "repeat")
    refusal = budget.check_tool_errors(call)
    if refusal:
        return Observation(call.id, refusal, "refused")
    return None


def settle(call: ToolCall, observation: Observation, budget: Budget | None,
           max_chars: int | None = _DEFAULT) -> Observation:
    """After a call ran: truncate its result, then let the budget record it (calling thread)."""
    if max_chars is _DEFAULT:
        max_chars = budget.limits.max_observation_chars if budget else None
    if max_chars is not None:
        observation = Observation(call.id, truncate(observation.text, max_chars, tip=TRUNCATION_TIP),
                                  observation.error)
    if budget is not None:
        budget.record_call(call, observation)
        observation = _after(call, observation, budget)
    return observation


def _after(call: ToolCall, observation: Observation, budget: Budget) -> Observation:
    """The budget's look at the result: a nudge when no progress was made, and the untrusted wrapper."""
    nudge = budget.note_observation(call, observation)
    text = observation.text
    if budget.limits.mark_untrusted and observation.error is None:
        text = mark_untrusted(text, call.name)
    if nudge:
        text = f"{text}\n{nudge}"
    return Observation(call.id, text, observation.error)


def execute_all(calls: Sequence[ToolCall], registry: ToolRegistry, budget: Budget | None = None, *,
                policy: Policy | None = None) -> list[Observation]:
    """One turn's calls, each with its observation, in order: in parallel only if all are read-only.

    In parallel, every decision that counts is made on the calling thread: which calls
    may run (repeats within the turn or before it, tools that keep failing) before any
    body starts, and each result's recording, in the calls' order, after all finish.
    Only the tool bodies run in the worker threads.
    """
    read_only = all(c.name in registry and not registry[c.name].side_effects for c in calls)
    if len(calls) < 2 or not read_only or not _threads_work():
        return [execute(c, registry, budget, policy=policy) for c in calls]
    this_turn: set[tuple[str, str]] = set()
    decided = [admit(c, registry, budget, this_turn) for c in calls]
    to_run = [c for c, refusal in zip(calls, decided, strict=True) if refusal is None]

    def body(call: ToolCall) -> Observation:
        return _run(call, _tool(call, registry), registry, policy, _time_limit(_DEFAULT, budget), budget)

    with ThreadPoolExecutor(max_workers=min(8, max(1, len(to_run)))) as pool:
        ran = iter(list(pool.map(body, to_run)))  # every body has finished here, in the calls' order
    observations = []
    for call, refusal in zip(calls, decided, strict=True):  # recorded on this thread, in order
        observations.append(refusal if refusal is not None else settle(call, next(ran), budget))
    return observations


def _run(call: ToolCall, tool: Tool | None, registry: ToolRegistry, policy: Policy | None,
         timeout: float | None, budget: Budget | None = None) -> Observation:
    if tool is None:
        return Observation(call.id, registry.unknown_tool_message(call.name), "unknown_tool")
    if tool.side_effects:
        call = without_model_flags(call)  # the model cannot approve its own call
    try:
        kwargs = _bind(tool, call.arguments)
    except ValueError as error:
        return Observation(call.id, f"Bad input for {tool.signature}: {error} {tool.description}",
                           "bad_input")
    refusal = _refusal(call, tool, policy, budget)
    if refusal:
        return Observation(call.id, refusal, "refused")
    try:
        result = run_with_time_limit(lambda: tool.call(kwargs), timeout)
    except ToolTimeout:
        return Observation(call.id, f"{tool.name} did not finish within {timeout:g} s; the program "
                                    "stopped waiting (the call may still complete in the background). "
                                    "Try a simpler input or another tool.", "tool_timeout")
    except LimitReached:
        raise  # a hand-over tool ends the run
    except Exception as error:
        return Observation(call.id, f"{tool.name} failed with {type(error).__name__}: {error}. "
                                    "Check the input against the tool description and try again.",
                           "tool_error")
    if _is_empty(result):
        return Observation(call.id, f"{tool.name} returned no result for {_shown(call.arguments)}.",
                           "empty_result")
    return Observation(call.id, result if isinstance(result, str) else str(result))


def _refusal(call: ToolCall, tool: Tool, policy: Policy | None, budget: Budget | None) -> str | None:
    """Provenance of the arguments, then approval of a side effect (lesson 06); None to go ahead."""
    checked = tool.side_effects or bool(budget and budget.limits.check_ids)
    if checked and budget is not None and budget.question:
        unseen = check_provenance(call.arguments, budget.seen)
        if unseen:
            return f"{tool.name} was not run. {unseen}"
    if tool.side_effects:
        reason = gate(call, tool, policy)
        if reason:
            return f"{tool.name} was not run: it changes things and needs approval ({reason})."
    return None


def _bind(tool: Tool, arguments: str | dict[str, Any]) -> dict[str, Any]:
    """The model's text (text loop) or JSON arguments (native loop) as keyword arguments."""
    return tool.bind(arguments) if isinstance(arguments, str) else tool.validate(arguments)


def _time_limit(timeout: float | None, budget: Budget | None) -> float | None:
    """A tool's own limit, cut to what is left of the run."""
    if timeout is _DEFAULT:
        timeout = budget.limits.tool_timeout if budget else None
    left = budget.remaining_seconds() if budget else None
    if left is None:
        return timeout
    return left if timeout is None else min(timeout, left)


def _shown(arguments: str | dict[str, Any]) -> str:
    return repr(arguments) if isinstance(arguments, str) else json.dumps(arguments, ensure_ascii=False)


def _is_empty(result: Any) -> bool:
    """None, a blank string or an empty container: nothing a model can read.

    >>> [_is_empty(x) for x in (None, "  ", {}, [], 0, "0")]
    [True, True, True, True, False, False]
    """
    if isinstance(result, str):
        return not result.strip()
    return result is None or (isinstance(result, dict | list | tuple | set) and not result)


class ToolTimeout(BaseException):
    """Our own signal that a tool ran past its limit (a tool's own TimeoutError is a tool error).

    A BaseException, so that a tool's ``except Exception`` cannot swallow it.
    """


# What the trace deadline cannot stop, said once per kind of call, the first time a call overran.
_WEAKER = {
    "tool": ("a tool's time limit on a call that waits in C code (time.sleep, a blocking read, one "
             "huge computation)", "no thread can start in a tab, so the limit is checked between Python "
             "lines: a tool looping in Python is still stopped, such a call is not"),
    "model": ("the run's max_seconds while a model call waits for its reply",
              "no thread can start in a tab, so a request waiting on the network is not cut short; "
              "the run's time is checked again before the next call"),
}


def run_with_time_limit(function: Callable[[], Any], timeout: float | None,
                        kind: Literal["tool", "model"] = "tool") -> Any:
    """Call ``function``; past ``timeout`` seconds raise ``ToolTimeout`` (None: no limit).

    ``kind`` says what is being called, for the browser's note on what its limit cannot stop.
    """
    if timeout is None:
        return function()
    if timeout <= 0:
        raise ToolTimeout
    if not _threads_work():
        started = time.monotonic()
        try:
            return _traced(function, timeout)
        finally:  # said only when it mattered: the call ran past its limit, unstopped
            if time.monotonic() - started > timeout * 1.5:
                browser.cannot_enforce(*_WEAKER[kind])
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["result"] = function()
        except BaseException as error:  # handed back to the caller below
            box["error"] = error

    worker = threading.Thread(target=target, daemon=True, name="react-course-tool")
    worker.start()
    worker.join(timeout)
    if worker.is_alive():
        raise ToolTimeout
    if "error" in box:
        raise box["error"]
    return box.get("result")


def _traced(function: Callable[[], Any], timeout: float) -> Any:
    """Where threads cannot start: a trace function raises inside the call at the deadline."""
    deadline = time.monotonic() + timeout

    def tracer(frame: Any, event: str, arg: Any) -> Any:
        if time.monotonic() > deadline:
            raise ToolTimeout
        return tracer

    previous = sys.gettrace()
    sys.settrace(tracer)
    try:
        return function()
    finally:
        sys.settrace(previous)


def _threads_work() -> bool:
    """Whether a thread can start here (not in Pyodide): ``browser.threads_work``."""
    return browser.threads_work()
