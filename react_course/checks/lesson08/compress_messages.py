"""Check 08.compress_messages: a shorter native conversation that an API still accepts.

The conversation is an order-refund run in the Chat Completions shape, with
turns of one and of two tool calls; the cases vary ``keep_last`` so that
counting messages instead of turns cuts a tool result from its call.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from ...context import tool_pairs_intact
from .. import exercise
from ..framework import Case, describe
from ..generated import Comparison, Draw, same_value
from ..lesson05.faults import Diagnosed, Fault

GENERATED = "agrees with the answer key on generated inputs"
RULES = {
    "a system message later in the conversation is a turn like any other": (
        "a later system message is a turn", GENERATED),
    "A conversation with no user message": ("no user message: unchanged", GENERATED),
    "keep every message before the first user message (the system messages) and the first user "
    "message (the question) at the start": (
        "the system message stays", "the question stays", "the question stays without a system message",
        "two system messages stay"),
    "then one user message holding the summary": ("the summary follows the question",),
    "then the last `keep_last` turns, unchanged": ("keeps the last 2 turns", "keeps the last turn",
                                                   "keep_last=0 keeps no turn", GENERATED),
    "never separate them": ("a tool result keeps its call", "a turn with two tool calls stays whole",
                            GENERATED),
    "comes back unchanged (no summary)": ("a short conversation is unchanged",),
    "Do not change the list you are given": ("the given list is not changed",),
    "returns a new list": ("a new list, even when nothing changes", GENERATED),
}

SUMMARY = "Findings: order 5101 owes 60 INR; order 5102 owes 30 INR. Failed attempts: none."
SYSTEM = {"role": "system", "content": "You answer questions about food orders with tools."}
QUESTION = {"role": "user", "content": "What is the total refund owed for orders 5101 to 5104?"}


def _calls(*ids: str) -> dict[str, Any]:
    calls = [{"id": i, "type": "function",
              "function": {"name": "order_record", "arguments": f'{{"order_id": "{i[-4:]}"}}'}}
             for i in ids]
    return {"role": "assistant", "content": None, "tool_calls": calls}


def _result(call_id: str) -> dict[str, Any]:
    return {"role": "tool", "tool_call_id": call_id, "content": f"Order {call_id[-4:]}: refund owed 30 INR."}


TURNS = [
    [_calls("call_5101"), _result("call_5101")],
    [_calls("call_5102", "call_5103"), _result("call_5102"), _result("call_5103")],
    [{"role": "assistant", "content": "I still need order 5104."}],
    [_calls("call_5104", "call_6104"), _result("call_5104"), _result("call_6104")],
]


NOTE = {"role": "system", "content": "Refunds are in INR."}


def conversation(system: bool = True, turns: int = len(TURNS), note: bool = False) -> list[dict[str, Any]]:
    head = [SYSTEM, *([NOTE] if note else []), QUESTION] if system else [QUESTION]
    return copy.deepcopy(head + [m for turn in TURNS[:turns] for m in turn])


def _tail(keep: int) -> list[dict[str, Any]]:
    return [m for turn in TURNS[len(TURNS) - keep:] for m in turn]


def _run(function: Callable, messages: list, keep_last: int) -> Callable[[], Any]:
    return lambda: function(copy.deepcopy(messages), SUMMARY, keep_last)


def _part(start: int, stop: int | None, expected: list) -> Callable[[Any], bool | str]:
    def test(got: Any) -> bool | str:
        if not isinstance(got, list):
            return f"return a list of messages, not {type(got).__name__}"
        return got[start:stop] == expected or (f"messages [{start}:{'' if stop is None else stop}] should "
                                              f"be {expected!r}, got {got[start:stop]!r}")
    return test


def _intact(got: Any) -> bool | str:
    return (isinstance(got, list) and tool_pairs_intact(got)) or (
        "a tool message lost its call, or a call its result: keep a turn whole")


@exercise(
    "08.compress_messages",
    "a shorter conversation that keeps the question and every tool call with its result",
    hints=(
        "First group the messages after the question into turns: an assistant message with "
        "tool_calls starts a turn, and the tool messages after it join that turn.",
        "Then keep head + [summary message] + the messages of the last keep_last turns.",
        "Build a new list; never del, pop or assign into the list you were given.",
    ),
    rules=RULES,
)
def compress_cases(compress_messages: Callable):
    full = conversation()
    given = "compress_messages(conversation(), SUMMARY, keep_last={})"
    yield Case("the system message stays", _run(compress_messages, full, 2), test=_part(0, 1, [SYSTEM]),
               given=given.format(2), hint="The system message is pinned first, as it was.")
    yield Case("the question stays", _run(compress_messages, full, 2), test=_part(1, 2, [QUESTION]),
               given=given.format(2),
               hint="The question is never summarised: it stays right after the system message.")
    yield Case("the question stays without a system message",
               _run(compress_messages, conversation(system=False), 1), test=_part(0, 1, [QUESTION]),
               given="compress_messages(conversation(system=False), SUMMARY, keep_last=1)",
               hint="Without a system message the question comes first.")
    yield Case("two system messages stay", _run(compress_messages, conversation(note=True), 1),
               test=_part(0, 3, [SYSTEM, NOTE, QUESTION]),
               given="compress_messages(conversation() with a second system message, SUMMARY, keep_last=1)",
               hint="Keep everything up to and including the first user message, however many system "
                    "messages come before it.")
    yield Case("the summary follows the question", _run(compress_messages, full, 2),
               test=_part(2, 3, [{"role": "user", "content": SUMMARY}]), given=given.format(2),
               hint='One message, {"role": "user", "content": summary}, right after the question.')
    yield Case("keeps the last 2 turns", _run(compress_messages, full, 2), test=_part(3, None, _tail(2)),
               given=given.format(2), hint="Count turns, not messages: the last turn has three messages.")
    yield Case("keeps the last turn", _run(compress_messages, full, 1), test=_part(3, None, _tail(1)),
               given=given.format(1),
               hint="keep_last=1 keeps the whole last turn: its call and both results.")
    yield Case("keep_last=0 keeps no turn", _run(compress_messages, full, 0),
               test=_part(3, None, []), given=given.format(0),
               hint="turns[-0:] is every turn, not none: slice with turns[len(turns) - keep_last:].")
    yield Case("a tool result keeps its call", _run(compress_messages, full, 1), test=_intact,
               given=given.format(1),
               hint="A tool message whose assistant message was summarised away is an API error.")
    yield Case("a turn with two tool calls stays whole", _run(compress_messages, full, 3),
               test=_part(3, None, _tail(3)), given=given.format(3),
               hint="The second turn has one assistant message and two tool messages: keep all three.")
    yield Case("a short conversation is unchanged", _run(compress_messages, conversation(turns=2), 2),
               expected=conversation(turns=2),
               given="compress_messages(conversation(turns=2), SUMMARY, keep_last=2)",
               hint="With keep_last turns or fewer there is nothing to summarise: return them as they are.")
    later = [SYSTEM, QUESTION, *TURNS[0], NOTE, *TURNS[2]]
    yield Case("a later system message is a turn", _run(compress_messages, later, 2),
               expected=[SYSTEM, QUESTION, {"role": "user", "content": SUMMARY}, NOTE, *TURNS[2]],
               given="compress_messages([system, question, turn 1, a system note, turn 3], SUMMARY, 2)",
               hint="Only what comes before the question is pinned; a system message after it is a turn.")
    yield Case("no user message: unchanged", _run(compress_messages, [SYSTEM, *TURNS[2]], 0),
               expected=[SYSTEM, *TURNS[2]], given="compress_messages([system, assistant], SUMMARY, 0)",
               hint="Without a question there is nothing to pin and nothing to summarise.")
    yield COMPARISON.case(compress_messages)
    yield Case("a new list, even when nothing changes", lambda: _a_new_list(compress_messages),
               test=lambda verdict: verdict, show=lambda _: "the list it was given",
               given="messages = conversation(turns=2); "
               "compress_messages(messages, SUMMARY, 2) is not messages",
               hint="Return list(messages) when nothing changes: a caller who appends to the result "
                    "must not change the conversation it passed in.")
    yield Case("the given list is not changed", lambda: _unchanged(compress_messages), expected=True,
               given="messages = conversation(); compress_messages(messages, SUMMARY, 1); "
                     "messages == conversation()",
               hint="Build and return a new list.")


def _a_new_list(compress_messages: Callable) -> bool | str:
    messages = conversation(turns=2)
    got = compress_messages(messages, SUMMARY, 2)
    return got is not messages or "the list you were given came back: return a new list (list(messages))"


def _unchanged(compress_messages: Callable) -> bool:
    messages = conversation()
    compress_messages(messages, SUMMARY, 1)
    return messages == conversation()


def key(messages: list[dict[str, Any]], summary: str, keep_last: int) -> list[dict[str, Any]]:
    """The answer key: the head up to the question, the summary, then the last whole turns."""
    start = next((i + 1 for i, m in enumerate(messages) if m["role"] == "user"), None)
    if start is None:
        return list(messages)
    turns: list[list[dict[str, Any]]] = []
    for message in messages[start:]:
        if message["role"] == "tool" and turns:
            turns[-1].append(message)
        else:
            turns.append([message])
    if len(turns) <= keep_last:
        return list(messages)
    kept = [m for turn in turns[len(turns) - keep_last:] for m in turn]
    return [*messages[:start], {"role": "user", "content": summary}, *kept]


def _turn(draw: Draw, number: int) -> list[dict[str, Any]]:
    kind = draw.below(5)
    if kind == 0:
        ids = [f"call_{number}_{k}" for k in range(1 + draw.below(3))]
        return [_calls(*ids), *(_result(i) for i in ids)]
    return [draw.pick(({"role": "assistant", "content": f"Next: order {number}."},
                       {"role": "user", "content": f"Und Bestellung {number}? ✓"}, NOTE,
                       {"role": "assistant", "content": ""}))]


def _inputs(draw: Draw) -> tuple:
    head = draw.pick(([SYSTEM, QUESTION], [QUESTION], [SYSTEM, NOTE, QUESTION], [SYSTEM], []))
    numbers = iter(range(5101, 5200))
    turns = draw.many(lambda d: _turn(d, next(numbers)), 7)
    messages = copy.deepcopy([*head, *(m for turn in turns for m in turn)])
    return messages, draw.pick((SUMMARY, "", "Résumé : 2 commandes, ₹90.")), draw.pick((1, 0, 2, 3, 6))


def _compare(args: tuple, expected: list, got: Any) -> bool | str:
    if same_value(expected, got):
        return True
    if not isinstance(got, list):
        return f"return a list of messages, not {type(got).__name__}"
    roles = [m.get("role") if isinstance(m, dict) else m for m in got]
    where = next((i for i, (a, b) in enumerate(zip(expected, got, strict=False)) if a != b),
                 min(len(expected), len(got)))
    return (f"{len(got)} messages (roles {roles}), expected {len(expected)} (roles "
            f"{[m['role'] for m in expected]}); the first difference is message {where}")


def _no_user(args: tuple, expected: Any, got: Any) -> bool:
    return not any(m["role"] == "user" for m in args[0])


def _later_system(args: tuple, expected: Any, got: Any) -> bool:
    roles = [m["role"] for m in args[0]]
    return "user" in roles and "system" in roles[roles.index("user"):]


FAULTS = (
    Fault("A conversation with no user message", "no user message", _no_user,
          "No user message, no question to keep: return the messages unchanged, in a new list."),
    Fault("then the last `keep_last` turns, unchanged", "keep_last=0",
          lambda args, expected, got: args[2] == 0,
          "keep_last=0 keeps no turn: turns[-0:] is every turn; slice with turns[len(turns) - keep_last:]."),
    Fault("a system message later in the conversation is a turn like any other", "a later system message",
          _later_system,
          "Pin only what comes up to the first user message; a later system message is a turn."),
    Fault("never separate them", "a turn with tool calls",
          lambda args, expected, got: any(m["role"] == "tool" for m in args[0]),
          "An assistant message with tool_calls and the tool messages after it are one turn: count "
          "and keep them together."),
)

def _head(messages: list) -> list:
    roles = [m.get("role") if isinstance(m, dict) else None for m in messages]
    return messages[:roles.index("user") + 1] if "user" in roles else []


def _short(args: tuple, expected: Any, got: Any) -> bool:
    return expected == args[0] and got != expected


FAULTS += (
    Fault("comes back unchanged (no summary)", "a conversation short enough", _short,
          "With keep_last turns or fewer after the question there is nothing to summarise: return "
          "the messages unchanged (in a new list)."),
    Fault("keep every message before the first user message (the system messages) and the first user "
          "message (the question) at the start", "the head",
          lambda args, expected, got: _head(got) != _head(expected),
          "Keep every message up to and including the first user message, as it is, at the start."),
    Fault("returns a new list", "messages from an earlier call",
          lambda args, expected, got: len(got) > len(args[0]) + 1,
          "More messages than the conversation holds: build a new list each call (a default list "
          "argument keeps what earlier calls put in it)."),
)

COMPARISON = Diagnosed(Comparison(
    "08.compress_messages", key, _inputs, _compare,
    lambda args: (f"compress_messages({describe([m['role'] for m in args[0]])} (the roles), "
                  f"{args[1]!r}, keep_last={args[2]})"),
    hint="Pin only what comes up to the first user message; group the rest into turns (tool messages "
         "join the turn before); keep the last keep_last whole turns, all of them."), FAULTS,
    raised="compress_messages must not raise: a conversation with no user message, or with keep_last "
           "turns or fewer, comes back unchanged (in a new list).")
