"""08.compress_messages as a spec: a shorter native conversation that an API still accepts.

The key is built on the library's ``rc.context.split_turns``, which
``rc.context.compress_messages`` uses too (that one also writes the summary with a model
and returns its cost): the head up to the question, one summary message, the last whole
turns. What is compared is what the student's function returned and whether it handed
back or changed the list it was given (``observe``). The conversations are order-refund
runs (``conversation.py``), with ``keep_last`` from 0 past the turns there are.
"""

from __future__ import annotations

import copy
import dataclasses
from typing import Any

from ...context_cost.context import split_turns, tool_pairs_intact
from ..generated import same_value
from ..plain import Opaque, Raised, is_plain
from ..spec import GENERATED, Example, Fault, Rule, Spec, define
from ..values import describe
from .conversation import NOTE, QUESTION, SUMMARY, SYSTEM, TURNS, any_conversation, conversation

GAVE_BACK, CHANGED = "returned the list it was given", "changed the list it was given"


def key(messages: list[dict[str, Any]], summary: str, keep_last: int) -> list[dict[str, Any]]:
    """The answer key: the head up to the question, the summary, then the last whole turns."""
    split = split_turns(messages, keep_last)
    if split is None:
        return list(messages)
    head, _, kept = split
    return [*head, {"role": "user", "content": summary}, *(m for turn in kept for m in turn)]


def observe(function: Any, args: tuple) -> dict[str, Any]:
    messages, summary, keep_last = args
    before = copy.deepcopy(messages)
    got = function(messages, summary, keep_last)
    seen: dict[str, Any] = {"messages": got if is_plain(got) else Opaque(describe(got))}
    return seen | ({GAVE_BACK: True} if got is messages else {}) | (
        {CHANGED: True} if messages != before else {})


def _messages(value: Any) -> list:
    return value["messages"] if isinstance(value, dict) and isinstance(value["messages"], list) else []


def _roles(messages: list) -> list:
    return [m.get("role") if isinstance(m, dict) else type(m).__name__ for m in messages]


def compare(args: tuple, expected: dict, got: Any) -> bool | str:
    if same_value(expected, got):
        return True
    if isinstance(got, Raised):
        return False
    if got.get(GAVE_BACK) or got.get(CHANGED):
        return f"it {'returned' if got.get(GAVE_BACK) else 'changed'} the list it was given: build a new list"
    want, have = expected["messages"], got["messages"]
    if not isinstance(have, list):
        return f"return a list of messages, not {have}"
    where = next((i for i, (a, b) in enumerate(zip(want, have, strict=False)) if a != b),
                 min(len(want), len(have)))
    shown = describe(have[where], 160) if where < len(have) else "nothing"
    return (f"{len(have)} messages (roles {_roles(have)}), expected {len(want)} (roles {_roles(want)}); "
            f"the first difference is message {where}: {shown}")


def _show(args: tuple) -> str:
    messages, summary, keep_last = args
    return f"compress_messages({_roles(messages)} (the roles), {describe(summary, 60)}, {keep_last=})"


def _head(messages: list) -> list:
    roles = _roles(messages)
    return messages[:roles.index("user") + 1] if "user" in roles else []


def _no_user(args: tuple) -> bool:
    return "user" not in _roles(args[0])


def _later_system(args: tuple) -> bool:
    roles = _roles(args[0])
    return "user" in roles and "system" in roles[roles.index("user"):]


def _summarised(args: tuple) -> bool:
    return split_turns(args[0], args[2]) is not None


def _extra_key(args: tuple, expected: Any, got: Any) -> bool:
    at = len(_head(args[0]))
    have = _messages(got)[at:at + 1]
    return _summarised(args) and bool(have) and isinstance(have[0], dict) and \
        have[0].get("content") == args[1] and have[0].keys() > {"role", "content"}


HEAD = ("keep every message before the first user message (the system messages) and the first user "
        "message (the question) at the start")
LATER = "a system message later in the conversation is a turn like any other"
NO_USER, SUMMARY_MESSAGE = "A conversation with no user message", "then one user message holding the summary"
ONLY, TAIL = "no other key", "then the last `keep_last` turns, unchanged"
WHOLE, OWN = "never separate them", "Any other message is a turn of its own"
SHORT, NEW = "comes back unchanged (no summary)", "returns a new list"
KEEP = "Do not change the list you are given"


def _on_a_result(found: Any) -> Any:
    return lambda args, want, got: isinstance(got, dict) and found(args, want, got)


def _summary_at(args: tuple, got: Any) -> int | None:
    """Where the summary message, exactly as the statement writes it, is in what came back."""
    messages = _messages(got)
    return next((i for i, m in enumerate(messages) if m == {"role": "user", "content": args[1]}), None)


def _pinned_too_much(args: tuple, want: Any, got: Any) -> bool:
    at, h = _summary_at(args, got), len(_head(args[0]))
    return at is not None and (at != h or _messages(got)[:h] != args[0][:h])


def _later_pinned(args: tuple, want: Any, got: Any) -> bool:
    """A later system message pinned before the summary, or not counted (nothing summarised)."""
    at = _summary_at(args, got)
    if not _later_system(args):
        return False
    if at is None:
        return _messages(got) == args[0] and _summarised(args)
    return _roles(_messages(got)[:at]).count("system") > _roles(_head(args[0])).count("system")


def _head_changed(args: tuple, want: Any, got: Any) -> bool:
    h = len(_head(args[0]))
    have = _messages(got)[:h]
    return _roles(have) == _roles(args[0][:h]) and have != args[0][:h]


def _turns_at_assistants(messages: list, summary: str, keep_last: int) -> list:
    """A wrong grouping: a turn starts only at an assistant message; anything else joins the one before."""
    h = len(_head(messages))
    turns: list[list] = []
    for message in messages[h:]:
        if message["role"] == "assistant" or not turns:
            turns.append([message])
        else:
            turns[-1].append(message)
    if not h or len(turns) <= keep_last:
        return list(messages)
    kept = (m for turn in turns[len(turns) - keep_last:] for m in turn)
    return [*messages[:h], {"role": "user", "content": summary}, *kept]


def _last_question(messages: list, summary: str, keep_last: int) -> list:
    """A wrong head: the last user message taken as the question, and everything before it pinned."""
    users = [i for i, m in enumerate(messages) if m["role"] == "user"]
    last = users[-1] if users else 0
    return [*messages[:last], *key(messages[last:], summary, keep_last)]


FAULTS = (
    Fault(KEEP, "Build and return a new list: never del, pop, insert or assign into the list you were "
                "given.",
          found=lambda args, want, got: bool(got.get(CHANGED))),
    Fault(NEW, "The list you were given came back: return a new list (list(messages)), even when nothing "
               "changes.", found=lambda args, want, got: bool(got.get(GAVE_BACK))),
    Fault(NEW, "More messages than the conversation holds: build a new list each call (a default list "
               "argument keeps what earlier calls put in it).",
          found=lambda args, want, got: len(_messages(got)) > len(args[0]) + 1),
    Fault(NO_USER, "No user message, no question to keep: return the messages unchanged, in a new list.",
          found=lambda args, want, got: _no_user(args)),
    Fault(ONLY, 'The summary message is exactly {"role": "user", "content": summary}: no other key.',
          found=_extra_key),
    Fault(HEAD, "Keep the head as it is: every key of the system messages and the question, not only "
                "role and content.", found=_head_changed),
    Fault(SHORT, "With keep_last turns or fewer after the question there is nothing to summarise: return "
                 "the messages unchanged (in a new list).",
          found=lambda args, want, got: not _summarised(args)),
    Fault(LATER, "Pin only what comes up to the first user message; a later system message is a turn.",
          found=_later_pinned),
    Fault(HEAD, "Keep every message up to and including the first user message, as it is, at the start, "
                "and put the summary right after it.", found=_pinned_too_much),
    Fault(HEAD, "Only the first user message is the question; a later one is a turn like the others.",
          like=_last_question),
    Fault(SUMMARY_MESSAGE, 'Right after the question comes one message, {"role": "user", "content": '
                           'summary}, the summary exactly as given.',
          found=lambda args, want, got: _summary_at(args, got) is None),
    Fault(OWN, "Only tool messages join the turn before; a later user or system message is a turn of its "
               "own.",
          like=_turns_at_assistants),
    Fault(WHOLE, "An assistant message with tool_calls and the tool messages after it are one turn: count "
                 "and keep them together.",
          found=lambda args, want, got: not tool_pairs_intact(_messages(got)[len(_head(args[0])) + 1:])),
    Fault(TAIL, "keep_last=0 keeps no turn: turns[-0:] is every turn; slice with "
                "turns[len(turns) - keep_last:].",
          found=lambda args, want, got: args[2] == 0),
    Fault(TAIL, "Keep the last keep_last turns, whole and unchanged: count turns, not messages, from the "
                "end.",
          found=lambda args, want, got: True),
)

# A raised error is recognised by no fault but the missing question's: elsewhere the failed case's
# own hint and rules show.
FAULTS = tuple(dataclasses.replace(f, found=_on_a_result(f.found)) if f.found and f.rule != NO_USER else f
               for f in FAULTS)


def _ex(name: str, messages: list, keep_last: int, hint: str) -> Example:
    return Example(name, (messages, SUMMARY, keep_last), hint)


EXAMPLES = (
    _ex("keeps the last 2 turns", conversation(), 2,
        "The system message and the question stay, then the summary, then the last two whole turns "
        "(the last one has three messages)."),
    _ex("keeps the last turn", conversation(), 1, "keep_last=1 keeps the whole last turn: its call and both "
        "results."),
    _ex("the question stays without a system message", conversation(system=False), 1,
        "Without a system message the question comes first."),
    _ex("two system messages stay", conversation(note=True), 1,
        "Keep everything up to and including the first user message, however many system messages come "
        "before it."),
    _ex("keep_last=0 keeps no turn", conversation(), 0,
        "turns[-0:] is every turn, not none: slice with turns[len(turns) - keep_last:]."),
    _ex("a turn with two tool calls stays whole", conversation(), 3,
        "The second turn has one assistant message and two tool messages: keep all three."),
    _ex("a short conversation is unchanged", conversation(turns=2), 2,
        "With keep_last turns or fewer there is nothing to summarise: return them as they are, in a new "
        "list."),
    _ex("a later system message is a turn", [SYSTEM, QUESTION, *TURNS[0], NOTE, *TURNS[2]], 2,
        "Only what comes before the question is pinned; a system message after it is a turn."),
    _ex("a follow-up question is a turn", [SYSTEM, QUESTION, *TURNS[0], {"role": "user", "content": "And "
        "5102?"}, *TURNS[1]], 0, "Only the first user message is the question; a later one is a turn."),
    _ex("no user message: unchanged", [SYSTEM, *TURNS[2], *TURNS[0]], 0,
        "Without a question there is nothing to pin and nothing to summarise."),
)

HIDDEN = (
    _ex("hidden case: a follow-up question is a turn", [QUESTION, *TURNS[0], {"role": "user", "content":
        "And 5102?"}, *TURNS[1], *TURNS[2]], 1, "Only the first user message is the question."),
    _ex("hidden case: keep more turns than there are", conversation(note=True), 9,
        "Nothing to summarise: the conversation comes back unchanged, in a new list."),
)


RULES = (
    Rule(LATER, ("a later system message is a turn", GENERATED), edge=_later_system),
    Rule(NO_USER, ("no user message: unchanged", GENERATED),
         edge=lambda a: _no_user(a) and len(a[0]) > a[2]),
    Rule(HEAD, ("keeps the last 2 turns", "the question stays without a system message",
                "two system messages stay", "a follow-up question is a turn"),
         edge=lambda a: _summarised(a) and len(_head(a[0])) > 2),
    Rule(SUMMARY_MESSAGE, ("keeps the last 2 turns",), edge=_summarised),
    Rule(ONLY, ("keeps the last 2 turns", GENERATED), edge=_summarised),
    Rule(TAIL, ("keeps the last 2 turns", "keeps the last turn", "keep_last=0 keeps no turn", GENERATED),
         edge=lambda a: _summarised(a) and a[2] == 0),
    Rule(OWN, ("a later system message is a turn", "a follow-up question is a turn", GENERATED),
         edge=lambda a: _summarised(a) and "user" in _roles(a[0])[len(_head(a[0])):]),
    Rule(WHOLE, ("keeps the last turn", "a turn with two tool calls stays whole", GENERATED),
         edge=lambda a: _summarised(a) and any(len(turn) > 2 for turn in split_turns(a[0], a[2])[2])),
    Rule(SHORT, ("a short conversation is unchanged",),
         edge=lambda a: not _summarised(a) and a[2] > 0 and split_turns(a[0], a[2] - 1) is not None),
    Rule(KEEP, ("keeps the last turn", GENERATED)),
    Rule(NEW, ("a short conversation is unchanged", GENERATED), edge=lambda a: not _summarised(a)),
)

SPEC = define(Spec(
    "08.compress_messages",
    "a shorter conversation that keeps the question and every tool call with its result",
    "compress_messages", key, EXAMPLES, any_conversation, RULES, faults=FAULTS, hidden=HIDDEN,
    observe=observe, compare=compare, show=_show,
    hints=("First group the messages after the question into turns: an assistant message with tool_calls "
           "starts a turn, and the tool messages after it join that turn.",
           "Then keep head + [summary message] + the messages of the last keep_last turns.",
           "Build a new list; never del, pop or assign into the list you were given."),
    generated_hint="Pin only what comes up to the first user message; group the rest into turns (tool "
                   "messages join the turn before); keep the last keep_last whole turns, all of them."))
__all__ = ["SPEC", "SUMMARY", "conversation", "key"]  # the notebook imports SUMMARY, conversation
