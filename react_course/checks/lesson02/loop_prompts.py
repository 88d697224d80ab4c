"""What a loop's prompts must hold: tests on the model calls a student's loop made.

``02.react_loop`` runs the student's loop on a ``ScriptedModel`` and hands its
record of calls (``model.calls``) to these tests: every observation and every
earlier reply in the next prompt, the stop on every call, the question and the
tools in the first prompt, and no call after the final answer.
"""

from __future__ import annotations

from typing import Any

from ...parsing import parse_step
from ..framework import describe
from .common import ASK_NOTEBOOK, ASK_PEN, QUESTION, stop_was_sent


def calls(n: int) -> str:
    """The number of model calls, in words for a message.

    >>> calls(1), calls(3)
    ('1 model call', '3 model calls')
    """
    return f"{n} model call{'s' * (n != 1)}"


def stopped_after(records: list[Any], expected: int) -> bool | str:
    if len(records) == expected:
        return True
    if len(records) > expected:
        return (f"your loop made {calls(len(records))}; reply {expected} was the final answer, "
                "so it should have stopped there")
    return f"your loop stopped after {calls(len(records))}, expected {calls(expected)}"


def fed_back(records: list[Any]) -> bool | str:
    if len(records) >= 2 and "A notebook costs 4." not in records[1].prompt:
        return "the second prompt does not hold the first observation ('A notebook costs 4.')"
    if len(records) >= 2 and "\nObservation: A notebook costs 4." not in records[1].prompt:
        return ("the first observation is in the second prompt, but not on a line of its own "
                "after 'Observation: ' (with the space), as exercise 2.2 writes it")
    third = records[2].prompt.replace(ASK_PEN.splitlines()[0], "") if len(records) >= 3 else ""
    if third and ("A pen costs 2." not in third or "A notebook costs 4." not in third):
        return "the third prompt lost an earlier observation: keep appending to one history"
    return stopped_after(records, 3)


def reply_lines(reply: str) -> list[str]:
    """What must be left of an action reply in later prompts, as written or as rendered.

    >>> reply_lines(ASK_NOTEBOOK)
    ['I need the price of a notebook.', 'Action: price', 'Action Input: notebook']
    """
    step = parse_step(reply)
    return [step.thought, f"Action: {step.tool}", f"Action Input: {step.input}"]


def after_question(prompt: str) -> str:
    """The prompt from the question on: the scratchpad, where the run so far belongs."""
    return prompt[max(prompt.rfind("Question: " + QUESTION), 0):]


def replies_kept(records: list[Any]) -> bool | str:
    """Prompts 2 and 3 hold every earlier reply after the question, each before its observation."""
    earlier = [(ASK_NOTEBOOK, "A notebook costs 4."), (ASK_PEN, "A pen costs 2.")]
    for number, call in enumerate(records[1:3], start=2):
        scratchpad = after_question(call.prompt)
        for reply_number, (reply, observation) in enumerate(earlier[: number - 1], start=1):
            lines = reply_lines(reply)
            missing = [line for line in lines if line not in scratchpad]
            if missing:
                fix = ": keep appending to one history" if reply_number < number - 1 else ""
                return (f"prompt {number} does not hold the model's reply {reply_number} (no "
                        f"{missing[0]!r} after the question): the model never sees its own "
                        f"earlier thoughts and actions{fix}")
            if f"\nThought: {lines[0]}" not in scratchpad:
                return (f"in prompt {number}, the model's reply {reply_number} does not start on a "
                        "line of its own: append '\\n' + reply, as exercise 2.2 does")
            if -1 < scratchpad.find(observation) < scratchpad.find(lines[-1]):
                return (f"in prompt {number}, the observation comes before the reply it answers: "
                        "append the reply first, then 'Observation: ...'")
    return stopped_after(records, 3)


def show_scratchpads(records: list[Any]) -> str:
    """What prompts 2 and 3 held after the question."""
    shown = [f"prompt {number}: " + describe(after_question(call.prompt), 220)
             for number, call in enumerate(records[1:3], start=2)]
    return "; ".join(shown) or calls(len(records))


def every_stop(records: list[Any]) -> bool | str:
    missing = [i + 1 for i, call in enumerate(records) if not stop_was_sent(call.stop)]
    return True if records and not missing else f"no '\\nObservation' stop on call(s) {missing}"


def first_prompt(records: list[Any]) -> bool | str:
    prompt = records[0].prompt if records else ""
    missing = [word for word in (QUESTION, "price", "calculate") if word not in prompt]
    if missing:
        return f"the first prompt does not mention {missing}"
    others = [name for name in ("search", "lookup", "get_order") if f"- {name}(" in prompt]
    return True if not others else (
        f"the first prompt lists tools the loop was not given ({', '.join(others)}): describe "
        "the tools argument, tools.describe()")


def reads_on(records: list[Any], text: str) -> bool | str:
    if len(records) >= 2 and text not in records[1].prompt:
        return f"the second prompt does not contain {text!r}"
    return stopped_after(records, 2)
