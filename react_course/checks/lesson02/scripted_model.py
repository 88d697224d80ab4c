"""Check ``02.scripted_model``: a model that plays back a script of replies.

The cases check the order of the replies, the cut at the stop sequences
(where a stop first occurs in the reply, whichever stop that is, and without
the stop itself), the record of prompts, a clear RuntimeError when the script
runs out, and that two models share nothing with each other or with the
caller's list.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from .. import exercise
from ..framework import Case, describe, error_text
from .common import Text

OBS_REPLY = ("Thought: I need the price of a pen.\nAction: price\nAction Input: pen\n"
             "Observation: A pen costs 99.")
CUT_REPLY = "Thought: I need the price of a pen.\nAction: price\nAction Input: pen"
SPACED = "  Thought: I need a price.  \n"
SPACED_BEFORE_STOP = "Action: price\nAction Input: pen  \nObservation: A pen costs 99."
TWICE_REPLY = (CUT_REPLY + "\nObservation: A pen costs 99.\nThought: So 2 pens cost 198."
               "\nObservation: 198 is right.")


def _cut_test(got: Any) -> bool | str:
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


def _after_last_reply(make: Callable, replies: list[str]) -> BaseException | tuple[str, Any]:
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


def _raises_runtime_error(got: BaseException | tuple[str, Any]) -> bool | str:
    if isinstance(got, tuple):
        return (f"the call returned {describe(got[1], 80)} instead of raising: a silent value "
                "hides a script that ran out")
    if isinstance(got, RuntimeError):
        return True if str(got).strip() else (
            "it raised RuntimeError with no message: say that the script has no reply left")
    return (f"it raised {type(got).__name__}; raise RuntimeError with a message that says "
            "the replies ran out")


def _show_raised(got: BaseException | tuple[str, Any]) -> str:
    if isinstance(got, tuple):
        return f"returned {describe(got[1], 80)}"
    return f"raised {error_text(got, 120)}"


def _in_order(make: Callable) -> list[Any]:
    model = make(["one", "two", "three"])
    return [model("p1"), model("p2"), model("p3")]


def _prompts_recorded(make: Callable) -> tuple[Any, Any]:
    model = make(["one", "two"])
    before = list(model.prompts)
    model("p1")
    model("p2")
    return before, list(model.prompts)


def _as_written(make: Callable) -> list[Any]:
    model = make([SPACED, SPACED_BEFORE_STOP])
    return [model("p1"), model("p2", ["\nObservation"])]


SPECIAL = "Thought: I will send the price.\nAction: price\nAction Input: pen<|end|>Observation: 99"
STARRED = CUT_REPLY + "\n**Observation:** A pen costs 99."


def _plain_stops(make: Callable) -> list[Any]:
    model = make([SPECIAL, STARRED])
    return [model("p1", ["<|end|>"]), model("p2", ["\n**Observation:**"])]


def _prompts_after_running_out(make: Callable) -> list[Any]:
    model = make(["only"])
    model("p1")
    try:
        model("p2: one call too many")
    except NotImplementedError:
        raise
    except Exception:  # the case checks the record, not the error
        pass
    return list(model.prompts)


def _make_twice(make: Callable) -> tuple[list[str], list[Any], list[Any]]:
    a, b = make(["a1", "a2"]), make(["b1"])
    replies = [a("prompt for a"), b("prompt for b"), a("second prompt for a")]
    return replies, list(a.prompts), list(b.prompts)


def _kept_apart(got: tuple[list, list, list]) -> bool | str:
    replies, a_prompts, b_prompts = got
    if replies != ["a1", "b1", "a2"]:
        return "the two models took replies from each other (or in the wrong order)"
    if a_prompts != ["prompt for a", "second prompt for a"] or b_prompts != ["prompt for b"]:
        return "the two models share one list of prompts"
    return True


def _caller_list_kept(make: Callable) -> list[str]:
    script = ["first reply", "second reply"]
    model = make(script)
    model("p")
    return script


RULES = {
    "it returns the replies in order, first in, first out": (
        "replies come back in order (first in, first out)",),
    "when `stop` (a list of strings, or `None`) is given": (
        "with no stop, the whole reply comes back", "stop passed by position, as a loop passes it",
        "a stop that is not in the reply changes nothing"),
    "it cuts the reply just before the": ("the reply is cut just before the stop sequence",),
    "whichever stop that is": ("several stops: cut at the one that comes first in the reply",),
    "place where any of the stop sequences occurs in it": (
        "a stop is plain text, even with | or * in it",),
    "even if it occurs again later": ("a stop that occurs twice: cut at its first occurrence",),
    "the stop text and everything after it are not returned": (
        "the reply is cut just before the stop sequence",),
    "apart from that cut, each reply comes back exactly as written": (
        "a reply comes back exactly as written, spaces and newlines included",),
    "it records every prompt it is sent in `model.prompts`, a list that starts empty": (
        "model.prompts records every prompt, in order",),
    "the prompt of a call that finds no reply left too": ("the call that runs out is recorded too",),
    "when no reply is left, it raises `RuntimeError`": (
        "running out raises RuntimeError", "an empty script raises on its first call"),
    "with a message saying so": ("running out raises RuntimeError",),
    "it leaves the caller's list unchanged": ("the caller's list of replies is left unchanged",),
    "two models never share replies or prompts": ("two models keep their own replies and prompts",),
}


@exercise(
    "02.scripted_model",
    "a scripted model",
    rules=RULES,
    hints=(
        "Copy the replies into a list of your own inside make_scripted_model, define model() "
        "inside it, and attach the list of prompts to it: model.prompts = [].",
        "Take replies from the front (pop(0) or an index that goes up). To cut, find every stop "
        "that occurs in the reply and keep reply[:smallest index].",
        "Check for 'nothing left' before taking a reply, and raise RuntimeError(...) yourself; "
        "popping from an empty list raises IndexError, which says nothing useful.",
    ),
)
def scripted_model_cases(make: Callable) -> Any:
    yield from _reply_cases(make)
    yield from _stop_cases(make)
    yield from _where_cases(make)
    yield from _record_cases(make)
    yield from _isolation_cases(make)


def _reply_cases(make: Callable) -> Iterator[Case]:
    """Replies come back in order, whole when there is no stop."""
    yield Case(
        "replies come back in order (first in, first out)",
        lambda: _in_order(make),
        expected=["one", "two", "three"],
        given='model = make_scripted_model(["one", "two", "three"]); three calls',
        hint="The first reply in the list is the first one returned: take from the front, not the end.",
    )
    yield Case(
        "a reply comes back exactly as written, spaces and newlines included",
        lambda: _as_written(make),
        expected=[SPACED, "Action: price\nAction Input: pen  "],
        given=f"model = make_scripted_model([{SPACED!r}, {SPACED_BEFORE_STOP!r}]); "
              "model('p1'); model('p2', ['\\nObservation'])",
        hint="Return reply[:cut] (or the whole reply) and nothing else: no strip(). A loop must "
             "see exactly what the model wrote.",
    )
    yield Case(
        "with no stop, the whole reply comes back",
        lambda: make([OBS_REPLY])("prompt"),
        expected=OBS_REPLY,
        given=f"make_scripted_model([{OBS_REPLY!r}])('prompt')",
        hint="stop defaults to None, and None means: return the reply unchanged.",
    )


def _stop_cases(make: Callable) -> Iterator[Case]:
    """The reply is cut just before the stop, passed by name or by position."""
    yield Case(
        "the reply is cut just before the stop sequence",
        lambda: make([OBS_REPLY])("prompt", stop=["\nObservation"]),
        expected=CUT_REPLY,
        test=_cut_test,
        given=f"make_scripted_model([{OBS_REPLY!r}])('prompt', stop=['\\nObservation'])",
        hint="Find where the stop begins (reply.find(stop)) and return reply[:that index].",
    )
    yield Case(
        "stop passed by position, as a loop passes it",
        lambda: make([OBS_REPLY])("prompt", ["\nObservation"]),
        expected=CUT_REPLY,
        test=_cut_test,
        given=f"make_scripted_model([{OBS_REPLY!r}])('prompt', ['\\nObservation'])",
        hint="Define the model as def model(prompt, stop=None): so stop works by position and by name.",
    )


def _where_cases(make: Callable) -> Iterator[Case]:
    """Where to cut: the first place any stop occurs, and nowhere if none does."""
    two_stops = CUT_REPLY + "\nQuestion: And a ruler?\nObservation: A pen costs 99."
    yield Case(
        "several stops: cut at the one that comes first in the reply",
        lambda: make([two_stops])("prompt", ["\nObservation", "\nQuestion"]),
        expected=CUT_REPLY,
        given=f"make_scripted_model([{two_stops!r}])('prompt', ['\\nObservation', '\\nQuestion'])",
        hint="'\\nQuestion' is second in the list but first in the reply. Cut at the smallest "
             "index over all the stops found, not at the first stop in the list.",
    )
    yield Case(
        "a stop is plain text, even with | or * in it",
        lambda: _plain_stops(make),
        expected=["Thought: I will send the price.\nAction: price\nAction Input: pen", CUT_REPLY],
        given=f"model = make_scripted_model([{SPECIAL!r}, {STARRED!r}]); "
              "model('p1', ['<|end|>']); model('p2', ['\\n**Observation:**'])",
        hint="Look for the stop as plain text (reply.find(stop)); re.split('|'.join(stops), ...) "
             "reads '|' and '*' as regular-expression syntax and cuts in the wrong place.",
    )
    yield Case(
        "a stop that occurs twice: cut at its first occurrence",
        lambda: make([TWICE_REPLY])("prompt", ["\nObservation"]),
        expected=CUT_REPLY,
        test=_cut_test,
        given=f"make_scripted_model([{TWICE_REPLY!r}])('prompt', ['\\nObservation'])",
        hint="reply.find(stop) gives the first occurrence; reply.rfind(stop) and "
             "reply.rsplit(stop, 1) give the last, and keep everything the model invented "
             "between the two.",
    )
    yield Case(
        "a stop that is not in the reply changes nothing",
        lambda: make([CUT_REPLY])("prompt", ["\nObservation"]),
        expected=CUT_REPLY,
        given=f"make_scripted_model([{CUT_REPLY!r}])('prompt', ['\\nObservation'])",
        hint="reply.find(stop) is -1 when the stop does not occur: skip that stop, do not cut at -1.",
    )


def _record_cases(make: Callable) -> Iterator[Case]:
    """Every prompt is recorded; running out of replies raises RuntimeError."""
    yield Case(
        "model.prompts records every prompt, in order",
        lambda: _prompts_recorded(make),
        expected=([], ["p1", "p2"]),
        given='model = make_scripted_model(["one", "two"]); model.prompts before and after '
              'model("p1"), model("p2")',
        hint="Start with model.prompts = [] and append the prompt (not the reply) on every call.",
    )
    yield Case(
        "the call that runs out is recorded too",
        lambda: _prompts_after_running_out(make),
        expected=["p1", "p2: one call too many"],
        given='model = make_scripted_model(["only"]); model("p1"); model("p2: one call too '
              'many") (it raises); then model.prompts',
        hint="Append the prompt first, then check whether a reply is left: the call that runs "
             "out was still sent a prompt, and a test reading model.prompts must see it.",
    )
    yield Case(
        "running out raises RuntimeError",
        lambda: _after_last_reply(make, ["only"]),
        test=_raises_runtime_error,
        show=_show_raised,
        expected=Text("raises RuntimeError"),
        given='model = make_scripted_model(["only"]); model("p1"); model("one call too many")',
        hint="Before taking a reply, check whether any are left; if not, "
             "raise RuntimeError('the script has no replies left').",
    )
    yield Case(
        "an empty script raises on its first call",
        lambda: _after_last_reply(make, []),
        test=_raises_runtime_error,
        show=_show_raised,
        expected=Text("raises RuntimeError"),
        given='make_scripted_model([])("one call too many")',
        hint="The same check: no reply left means RuntimeError, even on the first call.",
    )


def _isolation_cases(make: Callable) -> Iterator[Case]:
    """Two models share nothing, and the caller's list is left as it was."""
    yield Case(
        "two models keep their own replies and prompts",
        lambda: _make_twice(make),
        expected=(["a1", "b1", "a2"], ["prompt for a", "second prompt for a"], ["prompt for b"]),
        test=_kept_apart,
        given='a = make_scripted_model(["a1", "a2"]); b = make_scripted_model(["b1"]); '
              'a(...), b(...), a(...); then a.prompts, b.prompts',
        hint="Keep the replies and the prompts inside make_scripted_model (a new list per call), "
             "not in a module-level list or a mutable default argument such as prompts=[].",
    )
    yield Case(
        "the caller's list of replies is left unchanged",
        lambda: _caller_list_kept(make),
        expected=["first reply", "second reply"],
        given='script = ["first reply", "second reply"]; model = make_scripted_model(script); '
              'model("p"); script',
        hint="Copy the list first (remaining = list(replies)): the caller may reuse the same "
             "script to build a fresh model for the next run.",
    )
