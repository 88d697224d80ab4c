"""How ``02.scripted_model`` drives a student's model: the runs its cases make, and their tests.

Each helper takes ``make`` (the student's ``make_scripted_model``) and returns
what a case compares: replies, recorded prompts, or the exception raised.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..framework import describe, error_text

OBS_REPLY = ("Thought: I need the price of a pen.\nAction: price\nAction Input: pen\n"
             "Observation: A pen costs 99.")
CUT_REPLY = "Thought: I need the price of a pen.\nAction: price\nAction Input: pen"
SPACED = "  Thought: I need a price.  \n"
SPACED_BEFORE_STOP = "Action: price\nAction Input: pen  \nObservation: A pen costs 99."
TWICE_REPLY = (CUT_REPLY + "\nObservation: A pen costs 99.\nThought: So 2 pens cost 198."
               "\nObservation: 198 is right.")


def cut_test(got: Any) -> bool | str:
    if got == CUT_REPLY:
        return True
    if not (isinstance(got, str) and got.startswith(CUT_REPLY + "\nObservation")):
        return False
    if got in (OBS_REPLY, TWICE_REPLY):
        return "the reply was not cut: everything from the stop sequence on must go"
    if "99" not in got:
        return "the stop sequence itself was kept: cut just before it, so it is not returned"
    return ("the reply was cut at a later '\\nObservation', so the invented observation "
            "before it was kept: cut where the stop first occurs")


def after_last_reply(make: Callable, replies: list[str]) -> BaseException | tuple[str, Any]:
    """Use up ``replies``, then call once more: the exception raised, or ('returned', value)."""
    model = make(replies)
    for number in range(len(replies)):
        model(f"p{number + 1}")
    try:
        return "returned", model("one call too many")
    except NotImplementedError:
        raise  # a stub inside the model: "not attempted", not a verdict
    except Exception as error:  # which exception it is, is what the case checks
        return error


def raises_runtime_error(got: BaseException | tuple[str, Any]) -> bool | str:
    if isinstance(got, tuple):
        return (f"the call returned {describe(got[1], 80)} instead of raising: a silent value "
                "hides a script that ran out")
    if isinstance(got, RuntimeError):
        return True if str(got).strip() else (
            "it raised RuntimeError with no message: say that the script has no reply left")
    return (f"it raised {type(got).__name__}; raise RuntimeError with a message that says "
            "the replies ran out")


def show_raised(got: BaseException | tuple[str, Any]) -> str:
    if isinstance(got, tuple):
        return f"returned {describe(got[1], 80)}"
    return f"raised {error_text(got, 120)}"


def in_order(make: Callable) -> list[Any]:
    model = make(["one", "two", "three"])
    return [model("p1"), model("p2"), model("p3")]


def prompts_recorded(make: Callable) -> tuple[Any, Any]:
    model = make(["one", "two"])
    before = list(model.prompts)
    model("p1")
    model("p2")
    return before, list(model.prompts)


def as_written(make: Callable) -> list[Any]:
    model = make([SPACED, SPACED_BEFORE_STOP])
    return [model("p1"), model("p2", ["\nObservation"])]


SPECIAL = "Thought: I will send the price.\nAction: price\nAction Input: pen<|end|>Observation: 99"
STARRED = CUT_REPLY + "\n**Observation:** A pen costs 99."


def plain_stops(make: Callable) -> list[Any]:
    model = make([SPECIAL, STARRED])
    return [model("p1", ["<|end|>"]), model("p2", ["\n**Observation:**"])]


def prompts_after_running_out(make: Callable) -> list[Any]:
    model = make(["only"])
    model("p1")
    try:
        model("p2: one call too many")
    except NotImplementedError:
        raise
    except Exception:  # the case checks the record, not the error
        pass
    return list(model.prompts)


def make_twice(make: Callable) -> tuple[list[str], list[Any], list[Any]]:
    a, b = make(["a1", "a2"]), make(["b1"])
    replies = [a("prompt for a"), b("prompt for b"), a("second prompt for a")]
    return replies, list(a.prompts), list(b.prompts)


def kept_apart(got: tuple[list, list, list]) -> bool | str:
    replies, a_prompts, b_prompts = got
    if replies != ["a1", "b1", "a2"]:
        return "the two models took replies from each other (or in the wrong order)"
    if a_prompts != ["prompt for a", "second prompt for a"] or b_prompts != ["prompt for b"]:
        return "the two models share one list of prompts"
    return True


def caller_list_kept(make: Callable) -> list[str]:
    script = ["first reply", "second reply"]
    model = make(script)
    model("p")
    return script
