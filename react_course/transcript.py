"""A run record as text and as chat messages.

Three views of the same ``RunResult``:

- the scratchpad the text loop sends back to the model (``scratchpad``), and on
  long runs the same with the goal restated at its end (``reminding``, lesson 06);
- the trace a person reads, with who wrote each line (``trace_lines``);
- chat messages (``text_messages`` / ``native_messages``): observations are
  user turns in the text format, ``tool`` messages linked by call id in the
  native one (an API rejects a tool message that answers no call).

What it leaves out: structured step events and HTML (lesson 09).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .observations import short
from .prompts import render_action, render_final

if TYPE_CHECKING:
    from .record import RunResult, Step

MAX_MODEL_TEXT = 2_000  # characters of one reply kept in the scratchpad
MAX_UNREADABLE = 300  # an unreadable reply goes back as a short excerpt: it is the model's mistake


def model_text(step: Step) -> str:
    """What the model wrote, in the canonical format (an excerpt, if unreadable)."""
    action, parsed = step.action, step.parsed
    if action is not None:
        return render_action(short(action.thought, MAX_MODEL_TEXT), action.tool,
                             short(action.input, MAX_MODEL_TEXT))
    if step.format == "text" and step.answer is not None:
        return render_final(short(getattr(parsed, "thought", ""), MAX_MODEL_TEXT), step.answer)
    if step.format == "native":
        lines = [short(step.text, MAX_MODEL_TEXT)] if step.text else []
        lines += [f"Action: {c.name}[{_arguments(c.arguments)}]" for c in step.calls]
        if step.answer is not None and not step.text:
            lines.append(f"Final Answer: {step.answer}")
        return "\n".join(lines) or "(empty reply)"
    return short(step.text, MAX_UNREADABLE) or "(empty reply)"


def render_step(step: Step) -> str:
    """The step as the model sees it in later prompts."""
    text = model_text(step)
    return f"{text}\nObservation: {step.observation}" if step.observations else text


def scratchpad(steps: list[Step]) -> str:
    """The text loop's history: every step whose model call came back."""
    return "\n".join(render_step(s) for s in steps if not s.model_failed)


def goal_reminder(question: str, open_items: Iterable[str], step: int, max_steps: int = 0) -> str:
    """Restated near the end of the prompt on long runs, so the goal is never far back.

    >>> print(goal_reminder("Refund order 88213?", ["the late-delivery policy"], 5, 8))
    Reminder (step 5 of 8): the question is 'Refund order 88213?'. Still open: the late-delivery policy.
    """
    items = "; ".join(open_items) or "nothing: give your Final Answer"
    of = f" of {max_steps}" if max_steps else ""
    return f"Reminder (step {step}{of}): the question is {question!r}. Still open: {items}."


def reminding(open_items: Callable[[list], Iterable[str]], after: int = 3) -> Callable[[str, list], str]:
    """A ``history`` for ``run_react``: the scratchpad, with the goal restated at its end on long runs.

    ``open_items(steps)`` says what is still open; from step ``after`` on, the reminder is
    the last thing the model reads before it writes its next thought.
    """
    def history(question: str, steps: list) -> str:
        pad = scratchpad(steps)
        if len(steps) < after:
            return pad
        return f"{pad}\n{goal_reminder(question, list(open_items(steps)), len(steps) + 1, 0)}"
    return history


def trace_lines(result: RunResult) -> list[tuple[str, str]]:
    """Each line of the trace with its author: "model" or "program"."""
    lines = [("program", f"Question: {result.question}")]
    for step in result.steps:
        if step.forced:
            lines.append(("program", "[step limit reached: the model is asked for a final answer]"))
        if step.model_failed:
            lines.append(("program", f"[model call {step.number} failed: {step.observation}]"))
            continue
        lines += [("model", line) for line in model_text(step).splitlines()]
        if step.cut:
            lines.append(("program", f"[discarded by the program: {short(step.cut, 80)!r}]"))
        if step.forced and step.calls and not step.observations:
            lines.append(("program", "[not run: no steps left]"))
        for observation in step.observations:
            lines += [("program", line) for line in f"Observation: {observation.text}".splitlines()]
    calls = result.model_calls
    lines.append(("program", f"[ended: {result.end_reason} after {calls} model call{'s' * (calls != 1)}]"))
    if result.end_reason != "final_answer":
        lines.append(("program", f"Answer: {result.answer}"))
    return lines


def text_messages(result: RunResult) -> list[dict[str, Any]]:
    """A text run as chat turns: the model's replies, and observations as user turns."""
    messages: list[dict[str, Any]] = [{"role": "user", "content": f"Question: {result.question}"}]
    for step in result.steps:
        if step.model_failed:
            continue
        messages.append({"role": "assistant", "content": model_text(step)})
        if step.observations:
            messages.append({"role": "user", "content": f"Observation: {step.observation}"})
    return messages


def native_messages(result: RunResult) -> list[dict[str, Any]]:
    """A native run as Chat Completions messages: tool results linked to their calls by id."""
    messages: list[dict[str, Any]] = [{"role": "user", "content": result.question}]
    for step in result.steps:
        if step.model_failed:
            continue
        messages.append(step.message or _assistant_message(step))
        messages += [{"role": "tool", "tool_call_id": o.call_id, "content": o.text}
                     for o in step.observations if o.call_id]
    return messages


def _assistant_message(step: Step) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": step.text or None}
    if step.calls:
        message["tool_calls"] = [{"id": c.id, "type": "function",
                                  "function": {"name": c.name, "arguments": _arguments(c.arguments)}}
                                 for c in step.calls]
    return message


def _arguments(arguments: str | dict[str, Any]) -> str:
    return arguments if isinstance(arguments, str) else json.dumps(arguments, ensure_ascii=False)


@dataclass(frozen=True)
class BrokenLink:
    """Where a Chat Completions conversation breaks the rule that links results to calls.

    ``stray`` is the ``tool_call_id`` of a tool message that answers no open call;
    otherwise ``unanswered`` lists the calls still waiting when another message came.
    """

    index: int
    stray: str | None = None
    unanswered: tuple[str, ...] = ()


def broken_link(messages: Sequence[dict[str, Any]], *, complete: bool = True) -> BrokenLink | None:
    """The first break of the protocol's rule, or None: every tool message answers a call of
    the assistant message before it, and every call is answered before the next other message.

    The one statement of the rule: the scripted server refuses what breaks it, lesson 08's
    compression keeps it, lesson 07's checks look for it. ``complete=False`` allows calls
    still waiting at the end (a conversation being built).

    >>> call = {"role": "assistant", "tool_calls": [{"id": "c1"}]}
    >>> broken_link([call, {"role": "tool", "tool_call_id": "c1", "content": "4"}]) is None
    True
    >>> broken_link([{"role": "user", "content": "?"}, {"role": "tool", "tool_call_id": "c9"}])
    BrokenLink(index=1, stray='c9', unanswered=())
    >>> broken_link([call, {"role": "user", "content": "?"}])
    BrokenLink(index=1, stray=None, unanswered=('c1',))
    """
    waiting: list[str] = []
    for index, message in enumerate(messages):
        if message.get("role") == "tool":
            call_id = message.get("tool_call_id")
            if call_id not in waiting:
                return BrokenLink(index, stray=str(call_id))
            waiting.remove(call_id)
            continue
        if waiting:
            return BrokenLink(index, unanswered=tuple(waiting))
        # a call may be an SDK object appended as is, which the API reads like its dict
        waiting = [call.get("id") if isinstance(call, dict) else getattr(call, "id", None)
                   for call in message.get("tool_calls") or ()]
    if waiting and complete:
        return BrokenLink(len(messages), unanswered=tuple(waiting))
    return None
