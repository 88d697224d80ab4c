"""Lesson 08's conversations: the one the notebook prints and the checker uses, and generated ones.

``conversation()`` is an order-refund run in the Chat Completions shape, with turns of one
and of two tool calls; ``any_conversation(draw)`` draws others for the generated
comparison: turns of one to three tool calls, an assistant message with ``tool_calls: []``,
later user and system messages, a question with a ``name``, or no question at all.
"""

from __future__ import annotations

import copy
from typing import Any

from ..generated import Draw

SUMMARY = "Findings: order 5101 owes 60 INR; order 5102 owes 30 INR. Failed attempts: none."
SYSTEM = {"role": "system", "content": "You answer questions about food orders with tools."}
QUESTION = {"role": "user", "content": "What is the total refund owed for orders 5101 to 5104?"}
NOTE = {"role": "system", "content": "Refunds are in INR."}


def _calls(*ids: str) -> dict[str, Any]:
    calls = [{"id": i, "type": "function",
              "function": {"name": "order_record", "arguments": f'{{"order_id": "{i[-4:]}"}}'}} for i in ids]
    return {"role": "assistant", "content": None, "tool_calls": calls}


def _result(call_id: str) -> dict[str, Any]:
    return {"role": "tool", "tool_call_id": call_id, "content": f"Order {call_id[-4:]}: refund owed 30 INR."}


TURNS = [
    [_calls("call_5101"), _result("call_5101")],
    [_calls("call_5102", "call_5103"), _result("call_5102"), _result("call_5103")],
    [{"role": "assistant", "content": "I still need order 5104.\n"}],  # kept as it is, newline too
    [_calls("call_5104", "call_6104"), _result("call_5104"), _result("call_6104")],
]


def conversation(system: bool = True, turns: int = len(TURNS), note: bool = False) -> list[dict[str, Any]]:
    """The checker's conversation: a system message, the question, then ``turns`` turns."""
    head = [SYSTEM, *([NOTE] if note else []), QUESTION] if system else [QUESTION]
    return copy.deepcopy(head + [m for turn in TURNS[:turns] for m in turn])


def _turn(draw: Draw, number: int) -> list[dict[str, Any]]:
    """One turn: an assistant message with one to three tool calls and their results, or one message."""
    if draw.below(5) == 0:
        ids = [f"call_{number}_{k}" for k in range(1 + draw.below(3))]
        return [_calls(*ids), *(_result(i) for i in ids)]
    return [draw.pick(({"role": "assistant", "content": f"Next: order {number}.\n"},
                       {"role": "user", "content": f"Und Bestellung {number}? ✓"}, NOTE,
                       {"role": "assistant", "content": ""},
                       {"role": "assistant", "content": f"Order {number} done.", "tool_calls": []}))]


def any_conversation(draw: Draw) -> tuple:
    """(messages, summary, keep_last): up to seven turns after any head, keep_last from 0 to 6."""
    named = {**QUESTION, "name": "customer_5101"}  # a message kept as it is keeps its other keys too
    head = draw.pick(([SYSTEM, QUESTION], [QUESTION], [SYSTEM, NOTE, QUESTION], [SYSTEM], [],
                      [SYSTEM, named]))
    numbers = iter(range(5101, 5200))
    turns = draw.many(lambda d: _turn(d, next(numbers)), 7)
    messages = copy.deepcopy([*head, *(m for turn in turns for m in turn)])
    return messages, draw.pick((SUMMARY, "", "Résumé : 2 commandes, ₹90.")), draw.pick((1, 0, 2, 3, 6))
