"""Context control: keep a long run's prompts short without losing what it found.

Three places to cut, from the cheapest:

- at the tool: return the smallest useful result (a tool's own business);
- at the runtime: ``fit_observation`` cuts each observation to a token budget,
  with a marker that says so;
- at the trajectory: ``compress_history`` replaces older steps with a summary
  of findings and failed attempts, written by a model, and keeps the last few
  steps verbatim. The question, the tool list and the open items stay pinned:
  they are never summarised. In a native conversation an assistant turn with
  tool calls and its tool results are one unit: an API rejects a tool result
  whose call is gone, so they are kept or summarised together. A Responses
  history keeps its own units (``items.py``: a reasoning item with the item
  after it, a ``function_call`` with its output); ``compress_messages`` takes either.

``Compressor`` plugs ``compress_history`` into the text loop
(``run_react(..., history=Compressor(summariser))``): it waits until the
history passes a token threshold, summarises once, and then lets the history
grow again, so the prompt's prefix stays stable (and cacheable) between
compressions. The summariser's own tokens are counted in ``.usage``.

A summary is held to its budget (``SUMMARY_TOKENS`` unless told): a
summariser that takes ``max_tokens`` (the real models do) is given it as its
output limit, and the reply is cut to it on our side as well, since a base
model may run on (or echo the prompt) until the server's own limit.

``ExtractiveSummariser`` is the scripted summariser used offline: it copies the
facts out of the step lines it is shown. ``Router`` sends simple steps to a
cheaper model.

What it leaves out: semantic retrieval of old steps, summaries of summaries
beyond folding the previous one in, and vendors' server-side compaction.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..models import takes
from ..record import Usage
from ..tokens import count_tokens
from ..transcript import scratchpad

# tool_pairs_intact and tool_turns: lesson 08 reads them here, beside compress_messages
from .items import item_line, split_turns, tool_pairs_intact, tool_turns  # noqa: F401

SUMMARY_TOKENS = 300  # the most tokens one summary may add to the history
SUMMARY_HEADER = "Summary of the earlier steps (replaced to save tokens):"
SUMMARY_PROMPT = """\
You keep the notes of an agent that answers a question with tools. Summarise the
steps below for the agent itself, in two lists:
Findings: each fact the steps established, with the call that gave it.
Failed attempts: each call that did not work, and why, so that it is not repeated.
Copy numbers, names and ids exactly. Do not answer the question.

Question: {question}
Steps:
{steps}"""


def fit_observation(text: str, max_tokens: int, encoding: str = "o200k_base") -> str:
    """Cut ``text`` to at most ``max_tokens`` tokens, marker included, keeping its beginning.

    >>> fit_observation(" ".join(f"word{i}" for i in range(30)), 16)
    'word0 word1\\n[cut: 28 of 30 words]'
    >>> fit_observation("short", 8)
    'short'
    """
    if count_tokens(text, encoding) <= max_tokens:
        return text
    words = text.split(" ")
    low, high = 0, len(words)  # the most words whose text and marker fit
    while low < high:
        mid = (low + high + 1) // 2
        fits = count_tokens(_cut(words, mid), encoding) <= max_tokens
        low, high = (mid, high) if fits else (low, mid - 1)
    return _cut(words, low)


def _cut(words: list[str], keep: int) -> str:
    return " ".join(words[:keep]) + f"\n[cut: {len(words) - keep} of {len(words)} words]"


def step_line(step: Any) -> str:
    """The step for the summariser: one line per call, whether it worked, and what came back.

    >>> from react_course.record import Observation, Step, ToolCall
    >>> step = Step(3, calls=[ToolCall("c", "price", "pen")],
    ...             observations=[Observation("c", "A pen costs 2.")])
    >>> step_line(step)
    'Step 3: price[pen] -> ok: A pen costs 2.'
    """
    if not step.calls:
        observation = step.observations[0].text if step.observations else step.text
        return f"Step {step.number}: (no tool call) -> failed ({step.error}): {_one_line(observation)}"
    lines = []
    for call, seen in zip(step.calls, step.observations, strict=False):
        arguments = call.arguments if isinstance(call.arguments, str) else _kv(call.arguments)
        status = "ok" if seen.error is None else f"failed ({seen.error})"
        result = f"{status}: {_one_line(seen.text)}"
        lines.append(f"Step {step.number}: {call.name}[{_one_line(arguments)}] -> {result}")
    return "\n".join(lines)


def _kv(arguments: dict) -> str:
    return ", ".join(f"{k}={v}" for k, v in arguments.items())


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


@dataclass
class History:
    """A compressed history: the summary, the steps kept verbatim, and what the summary cost."""

    summary: str
    kept: list[Any]
    replaced: int  # how many steps the summary stands for
    usage: Usage = field(default_factory=Usage)
    open_items: tuple[str, ...] = ()

    def text(self) -> str:
        """The scratchpad the model reads: the pinned open items and summary, then the kept steps."""
        head = [SUMMARY_HEADER, self.summary.strip()] if self.summary else []
        head += [f"Still open: {item}" for item in self.open_items]
        return "\n".join([*head, scratchpad(self.kept)] if self.kept else head)


def summarise_within(summarise: Callable[..., str], prompt: str, budget: int = SUMMARY_TOKENS) -> str:
    """The summariser's reply to ``prompt``, at most ``budget`` tokens: asked for, and cut to, that.

    >>> summarise_within(lambda prompt, stop: "fact " * 500, "Steps: ...", 20).splitlines()
    ['fact fact fact fact fact fact fact fact fact', '[cut: 491 of 500 words]']
    """
    extra = {"max_tokens": budget} if takes(summarise, "max_tokens") else {}
    return fit_observation((summarise(prompt, None, **extra) or "").strip(), budget)


def compress_history(question: str, steps: Sequence[Any], summarise: Callable[..., str], *,
                     keep_last: int = 3, open_items: Sequence[str] = (), previous: str = "",
                     summary_tokens: int = SUMMARY_TOKENS) -> History:
    """Replace all but the last ``keep_last`` steps by a summary that ``summarise`` (a model) writes.

    ``previous`` is an earlier summary: the new notes are appended to it, not
    merged into it, so the prompt's prefix up to there stays the same (and
    cached) and the summariser reads each step once. The question and the
    tool list are not part of ``steps`` (the prompt pins them); ``open_items``
    are kept word for word. A text step holds its call and its observation,
    so they are never separated. Each new note is at most ``summary_tokens``.
    """
    old, kept = steps[: max(0, len(steps) - keep_last)], steps[max(0, len(steps) - keep_last):]
    if not old:
        return History(previous, kept, 0, Usage(), tuple(open_items))
    prompt = SUMMARY_PROMPT.format(question=question, steps="\n".join(step_line(s) for s in old))
    reply = summarise_within(summarise, prompt, summary_tokens)
    summary = "\n".join(filter(None, [previous, reply]))
    return History(summary, kept, len(old), _usage(summarise, prompt, reply), tuple(open_items))


def _usage(model: Any, prompt: str, reply: str) -> Usage:
    """The summariser call's tokens: the API's count when the model reports one, else exact counts."""
    reported = getattr(model, "last_usage", None)
    sent, received = getattr(reported, "prompt_tokens", None), getattr(reported, "completion_tokens", None)
    if isinstance(sent, int) and isinstance(received, int):
        return Usage(sent, received)
    return Usage(count_tokens(prompt), count_tokens(reply))


class Compressor:
    """The text loop's history, compressed when its verbatim steps pass ``threshold`` tokens.

    Use as ``run_react(..., history=Compressor(summariser))``; the summaries'
    own tokens are in ``usage``. Notes are appended, never rewritten, and the
    threshold counts the verbatim steps only, so the notes' slow growth does
    not set off a summary per step. Between two compressions the history only
    grows, so a provider's prompt cache keeps working; each compression
    changes the prefix once.
    """

    def __init__(self, summarise: Callable[..., str], *, threshold: int = 1_500, keep_last: int = 3,
                 open_items: Sequence[str] = (), encoding: str = "o200k_base",
                 summary_tokens: int = SUMMARY_TOKENS) -> None:
        self.summarise, self.threshold, self.keep_last = summarise, threshold, keep_last
        self.summary_tokens = summary_tokens
        self.open_items, self.encoding = tuple(open_items), encoding
        self.summary, self.folded = "", 0  # the notes so far, and how many steps they stand for
        self.usage = Usage()  # the summariser's tokens, to add to the run's
        self.compressions: list[tuple[int, int, int]] = []  # (steps so far, tokens before, after)
        self.failures: list[str] = []  # summariser calls that failed (the history was sent whole)

    def __call__(self, question: str, steps: Sequence[Any]) -> str:
        text = self._text(steps[self.folded:])
        before = count_tokens(text, self.encoding)
        verbatim = count_tokens(scratchpad(list(steps[self.folded:])), self.encoding)
        if verbatim > self.threshold and len(steps) - self.folded > self.keep_last:
            try:
                history = compress_history(question, steps[self.folded:], self.summarise,
                                           keep_last=self.keep_last, open_items=self.open_items,
                                           previous=self.summary, summary_tokens=self.summary_tokens)
            except Exception as error:  # a failed summary must not end the run: send it all
                self.failures.append(f"{type(error).__name__}: {error}")
                return text
            self.summary, self.folded = history.summary, self.folded + history.replaced
            self.usage += history.usage
            text = history.text()
            self.compressions.append((len(steps), before, count_tokens(text, self.encoding)))
        return text

    def _text(self, live: Sequence[Any]) -> str:
        return History(self.summary, list(live), self.folded, open_items=self.open_items).text()


Message = dict[str, Any]


def compress_messages(messages: Sequence[Message], summarise: Callable[..., str], *,
                      keep_last: int = 3, open_items: Sequence[str] = (),
                      summary_tokens: int = SUMMARY_TOKENS) -> tuple[list[Message], Usage]:
    """A native conversation with older turns replaced by one summary message, and that summary's cost.

    The leading system messages and the first user message (the question)
    stay; the tool list travels outside the messages and is untouched. An
    assistant message with ``tool_calls`` and the tool messages answering it
    form one turn; the last ``keep_last`` turns stay verbatim. With ``keep_last``
    turns or fewer after the question, or no question at all, nothing is summarised.
    """
    split = split_turns(messages, keep_last)
    if split is None:
        return list(messages), Usage()
    head, old, kept = split
    question = head[-1].get("content", "")
    prompt = SUMMARY_PROMPT.format(question=question,
                                   steps="\n".join(_turn_line(n, t) for n, t in enumerate(old, 1)))
    reply = summarise_within(summarise, prompt, summary_tokens)
    pinned = [f"Still open: {item}" for item in open_items]
    note = {"role": "user", "content": "\n".join([SUMMARY_HEADER, reply, *pinned])}
    return head + [note] + [m for turn in kept for m in turn], _usage(summarise, prompt, reply)


def _turn_line(number: int, turn: list[Message]) -> str:
    """A native turn in ``step_line``'s shape: one line per call (a tool message carries no error kind)."""
    if "type" in turn[0]:  # a Responses item (reasoning, function_call, message)
        return item_line(number, turn, _one_line)
    first = turn[0]
    results = {m.get("tool_call_id"): m.get("content", "") for m in turn[1:]}
    lines = [f"Step {number}: ({first.get('role')} said) -> ok: {_one_line(first['content'])}"
             ] if first.get("content") else []
    for call in first.get("tool_calls") or ():
        result = _one_line(results.get(call.get("id"), "(no result)"))
        lines.append(f"Step {number}: {_call_name(call)} -> ok: {result}")
    return "\n".join(lines)


def _call_name(call: dict[str, Any]) -> str:
    function = call.get("function", call)
    return f"{function.get('name')}[{_one_line(function.get('arguments', ''))}]"


class ExtractiveSummariser:
    """The scripted summariser: copies each step's call and the facts of its result, no model needed.

    It keeps the first sentence of each result (up to ``max_chars``), which is
    where a well-made tool puts its gist, and the reason of each failed call.
    A real model can judge what matters; this one cannot, and costs nothing.
    """

    def __init__(self, max_chars: int = 160) -> None:
        self.max_chars = max_chars
        self.calls: list[tuple[str, str]] = []

    def __call__(self, prompt: str, stop: Sequence[str] | None = None) -> str:
        found, failed = [], []
        for line in prompt.partition("\nSteps:\n")[2].splitlines():
            call, _, result = re.sub(r"^Step \d+: ", "", line).partition(" -> ")
            status, _, text = result.partition(": ")
            if status == "ok":
                found.append(f"- {call}: {self._facts(text)}")
            else:
                failed.append(f"- {call} {status}: {text[:80]}")
        reply = "\n".join(["Findings:", *found, *(["Failed attempts:", *failed] if failed else [])])
        self.calls.append((prompt, reply))
        return reply

    def _facts(self, text: str) -> str:
        first = re.split(r"(?<=[.!?])\s+", text, maxsplit=1)[0]
        return first if len(first) <= self.max_chars else first[: self.max_chars] + "..."
