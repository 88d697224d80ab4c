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
from ..framework import Case
from .common import Text
from .generated_runs import SCRIPTED
from .scripted_runs import (
    CUT_REPLY,
    OBS_REPLY,
    SPACED,
    SPACED_BEFORE_STOP,
    SPECIAL,
    STARRED,
    TWICE_REPLY,
    after_last_reply,
    as_written,
    caller_list_kept,
    cut_test,
    in_order,
    kept_apart,
    make_twice,
    plain_stops,
    prompts_after_running_out,
    prompts_recorded,
    raises_runtime_error,
    show_raised,
)

GENERATED = SCRIPTED.name
RULES = {
    "it returns the replies in order, first in, first out": (
        "replies come back in order (first in, first out)", GENERATED),
    "when `stop` (a list of strings, or `None`) is given": (
        "with no stop, the whole reply comes back", "stop passed by position, as a loop passes it",
        "a stop that is not in the reply changes nothing"),
    "it cuts the reply just before the": ("the reply is cut just before the stop sequence",),
    "whichever stop that is": ("several stops: cut at the one that comes first in the reply", GENERATED),
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
    yield SCRIPTED.case(make)


def _reply_cases(make: Callable) -> Iterator[Case]:
    """Replies come back in order, whole when there is no stop."""
    yield Case(
        "replies come back in order (first in, first out)",
        lambda: in_order(make),
        expected=["one", "two", "three"],
        given='model = make_scripted_model(["one", "two", "three"]); three calls',
        hint="The first reply in the list is the first one returned: take from the front, not the end.",
    )
    yield Case(
        "a reply comes back exactly as written, spaces and newlines included",
        lambda: as_written(make),
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
        test=cut_test,
        given=f"make_scripted_model([{OBS_REPLY!r}])('prompt', stop=['\\nObservation'])",
        hint="Find where the stop begins (reply.find(stop)) and return reply[:that index].",
    )
    yield Case(
        "stop passed by position, as a loop passes it",
        lambda: make([OBS_REPLY])("prompt", ["\nObservation"]),
        expected=CUT_REPLY,
        test=cut_test,
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
        lambda: plain_stops(make),
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
        test=cut_test,
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
        lambda: prompts_recorded(make),
        expected=([], ["p1", "p2"]),
        given='model = make_scripted_model(["one", "two"]); model.prompts before and after '
              'model("p1"), model("p2")',
        hint="Start with model.prompts = [] and append the prompt (not the reply) on every call.",
    )
    yield Case(
        "the call that runs out is recorded too",
        lambda: prompts_after_running_out(make),
        expected=["p1", "p2: one call too many"],
        given='model = make_scripted_model(["only"]); model("p1"); model("p2: one call too '
              'many") (it raises); then model.prompts',
        hint="Append the prompt first, then check whether a reply is left: the call that runs "
             "out was still sent a prompt, and a test reading model.prompts must see it.",
    )
    yield Case(
        "running out raises RuntimeError",
        lambda: after_last_reply(make, ["only"]),
        test=raises_runtime_error,
        show=show_raised,
        expected=Text("raises RuntimeError"),
        given='model = make_scripted_model(["only"]); model("p1"); model("one call too many")',
        hint="Before taking a reply, check whether any are left; if not, "
             "raise RuntimeError('the script has no replies left').",
    )
    yield Case(
        "an empty script raises on its first call",
        lambda: after_last_reply(make, []),
        test=raises_runtime_error,
        show=show_raised,
        expected=Text("raises RuntimeError"),
        given='make_scripted_model([])("one call too many")',
        hint="The same check: no reply left means RuntimeError, even on the first call.",
    )


def _isolation_cases(make: Callable) -> Iterator[Case]:
    """Two models share nothing, and the caller's list is left as it was."""
    yield Case(
        "two models keep their own replies and prompts",
        lambda: make_twice(make),
        expected=(["a1", "b1", "a2"], ["prompt for a", "second prompt for a"], ["prompt for b"]),
        test=kept_apart,
        given='a = make_scripted_model(["a1", "a2"]); b = make_scripted_model(["b1"]); '
              'a(...), b(...), a(...); then a.prompts, b.prompts',
        hint="Keep the replies and the prompts inside make_scripted_model (a new list per call), "
             "not in a module-level list or a mutable default argument such as prompts=[].",
    )
    yield Case(
        "the caller's list of replies is left unchanged",
        lambda: caller_list_kept(make),
        expected=["first reply", "second reply"],
        given='script = ["first reply", "second reply"]; model = make_scripted_model(script); '
              'model("p"); script',
        hint="Copy the list first (remaining = list(replies)): the caller may reuse the same "
             "script to build a fresh model for the next run.",
    )
