"""02.scripted_model as a spec: a model that plays back its replies, honours stops, records prompts.

The arguments are plain data: one or two scripts of replies, and the calls to make,
each ``[which model, prompt, stop, how]`` where ``how`` says whether ``stop`` is left
out, passed by position (as a loop passes it) or by name. ``observe`` builds the
models with the student's ``make_scripted_model`` and reports, as plain data, what
each call gave (a reply, or which error it raised and whether it said anything),
``model.prompts`` at the start and at the end, and the caller's lists afterwards.

The key is the library's ``rc.ScriptedModel`` (what the lesson says the exercise
rebuilds) with the prompts recorded (``model_runs.py``, with ``observe``). Left out of
the inputs, because the statement does not settle it: an empty string among the stops
(the library skips it).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from ..generated import Draw
from ..plain import Opaque, Raised
from ..spec import GENERATED, Example, Fault, Rule, Spec, define
from .model_runs import key, observe


def compare(args: tuple, want: dict, got: Any) -> bool | str:
    if got == want:
        return True
    if not isinstance(got, dict):
        return f"make_scripted_model {got}"
    field = next(name for name in want if got[name] != want[name])
    return f"{field}: {got[field]!r}, expected {want[field]!r}"


def sent(args: tuple) -> list[tuple[str | None, Any]]:
    """(the reply each call should get, or None past the script's end; its stop), call by call."""
    taken = [0] * len(args[0])
    out = []
    for which, _, stop, _ in args[1]:
        script = args[0][which]
        out.append((script[taken[which]] if taken[which] < len(script) else None, stop))
        taken[which] += 1
    return out


def _per_call(test: Callable[[str, list, str, str], bool]) -> Callable[[tuple, Any, Any], bool]:
    """A fault seen in one call that got a reply: ``test(reply, stops, expected, got)``."""
    return lambda args, want, got: any(
        reply is not None and _text(g) and _text(w) and w != g and test(reply, stop or [], w, g)
        for (reply, stop), w, g in zip(sent(args), want["replies"], got["replies"], strict=True)
    )


def _text(value: Any) -> bool:
    """A reply that came back (a ``Raised`` or ``Opaque`` is text too, but not a reply)."""
    return isinstance(value, str) and not isinstance(value, Raised | Opaque)


def _cut(reply: str, at: int) -> str:
    return reply if at < 0 else reply[:at]


def _shared(args: tuple, want: dict, got: dict) -> bool:
    """Two models: one gave a reply of the other's script, or recorded the other's prompts."""
    if len(args[0]) < 2:
        return False
    theirs = [set(args[0][1 - which]) - set(args[0][which]) for which in (0, 1)]
    prompts = [[p for w, p, _, _ in args[1] if w == which] for which in (0, 1)]
    return any(g in theirs[which] for (which, *_), g in zip(args[1], got["replies"], strict=True)) or any(
        isinstance(got["model.prompts"][which], list)
        and set(prompts[1 - which]) & set(got["model.prompts"][which]) for which in (0, 1)
    )


def _ran_out(args: tuple, want: dict, got: dict, test: Callable[[Any], bool]) -> bool:
    return any(reply is None and test(g) for (reply, _), g in zip(sent(args), got["replies"], strict=True))


IN_ORDER = "it returns the replies in order, first in, first out"
STOP_GIVEN = "when `stop` (a list of strings, or `None`) is given"
CUT = "it cuts the reply just before the"
EARLIEST = "whichever stop that is"
PLAIN = "place where any of the stop sequences occurs in it"
FIRST = "even if it occurs again later"
NOT_RETURNED = "the stop text and everything after it are not returned"
AS_WRITTEN = "apart from that cut, each reply comes back exactly as written"
RECORDS = "it records every prompt it is sent in `model.prompts`, a list that starts empty"
RUN_OUT_RECORDED = "the prompt of a call that finds no reply left too"
RAISES = "when no reply is left, it raises `RuntimeError`"
SAYS = "with a message saying so"
CALLERS = "it leaves the caller's list unchanged"
APART = "two models never share replies or prompts"
FAULTS = (
    Fault(APART, "Keep the replies and the prompts inside make_scripted_model (a new list per call), not in "
          "a module-level list or a mutable default argument such as prompts=[].", found=_shared),
    Fault(SAYS, "Say why: raise RuntimeError('the script has no replies left').",
          found=lambda args, want, got: "raised RuntimeError, no message" in got["replies"]),
    Fault(RAISES, "Before taking a reply, check whether any are left; if not, raise RuntimeError(...) "
          "yourself: popping from an empty list raises IndexError, and a silent value hides a script "
          "that ran out.", found=lambda args, want, got: _ran_out(
          args, want, got, lambda g: not str(g).startswith("raised RuntimeError"))),
    Fault(PLAIN, "Look for the stop as plain text (reply.find(stop)): re.split('|'.join(stops), ...) reads "
          "'|' and '*' as regular-expression syntax, and raises on some.",
          found=lambda args, want, got: any(isinstance(g, Raised) and _text(w) and "error" in g
          for w, g in zip(want["replies"], got["replies"], strict=True))),
    Fault(STOP_GIVEN, "Define the model as def model(prompt, stop=None): stop may come by position or by "
          "name, and None means: nothing to cut.", found=lambda args, want, got: any(
          isinstance(g, Raised) and _text(w) for w, g in zip(want["replies"], got["replies"], strict=True))),
    Fault(CALLERS, "Copy the list first (remaining = list(replies)): the caller may reuse the same script "
          "to build a fresh model for the next run.",
          found=lambda args, want, got: got["the caller's lists"] != want["the caller's lists"]),
    Fault(RECORDS, "Start with model.prompts = [] inside make_scripted_model and append the prompt (not "
          "the reply) on every call.", found=lambda args, want, got: (
          got["model.prompts at the start"] != want["model.prompts at the start"]
          or any(isinstance(p, Opaque) for p in got["model.prompts"])
          or any(set(p) & set(r for s in args[0] for r in s) for p in got["model.prompts"]
          if isinstance(p, list)))),
    Fault(RUN_OUT_RECORDED, "Append the prompt first, then check whether a reply is left: the call that "
          "runs out was still sent a prompt.",
          found=lambda args, want, got: got["model.prompts"] != want["model.prompts"]),
    Fault(AS_WRITTEN, "Return reply[:cut] (or the whole reply) and nothing else: no strip(). A loop must see "
          "exactly what the model wrote.", found=_per_call(lambda r, s, w, g: g.strip() == w.strip())),
    Fault(NOT_RETURNED, "The stop sequence itself was kept: cut just before it, reply[:reply.find(stop)].",
          found=_per_call(lambda r, s, w, g: any(g == w + stop for stop in s))),
    Fault(CUT, "The reply was not cut: find where the stop begins (reply.find(stop)) and return "
          "reply[:that index].", found=_per_call(lambda r, s, w, g: g == r)),
    Fault(FIRST, "The reply was cut at a later occurrence, so the invented text before it was kept: cut "
          "where the stop first occurs (reply.find, not rfind or rsplit).",
          found=_per_call(lambda r, s, w, g: any(
          g == _cut(r, r.rfind(stop)) and r.rfind(stop) != r.find(stop) for stop in s if stop))),
    Fault(EARLIEST, "Cut at the smallest index over all the stops found, not at the first stop in the list "
          "that occurs.", found=_per_call(lambda r, s, w, g: any(g == _cut(r, r.find(stop)) for stop in s))),
    Fault(PLAIN, "Look for the stop as plain text (reply.find(stop)); re.split('|'.join(stops), ...) reads "
          "'|' and '*' as regular-expression syntax and cuts in the wrong place.",
          found=_per_call(lambda r, s, w, g: g == re.split("|".join(s), r)[0])),
    Fault(STOP_GIVEN,
          "reply.find(stop) is -1 when the stop does not occur: skip that stop, do not cut at -1.",
          found=_per_call(lambda r, s, w, g: g == r[:-1])),
    Fault(PLAIN, "Cut only where a stop occurs exactly as written (case and all): reply.find(stop), the "
          "smallest index over the stops that occur.", found=_per_call(lambda r, s, w, g: w.startswith(g))),
    Fault(IN_ORDER,
          "The first reply in the list is the first one returned: take from the front, not the end.",
          found=lambda args, want, got: got["replies"] != want["replies"]),
)

CUT_REPLY = "Thought: I need the price of a pen.\nAction: price\nAction Input: pen"
OBS_REPLY = CUT_REPLY + "\nObservation: A pen costs 99."
SPACED = "  Thought: I need a price.  \n"
SPACED_BEFORE_STOP = "Action: price\nAction Input: pen  \nObservation: A pen costs 99."
TWICE = CUT_REPLY + "\nObservation: A pen costs 99.\nThought: So 2 pens cost 198.\nObservation: 198 is right."
SPECIAL = "Thought: I will send the price.\nAction: price\nAction Input: pen<|end|>Observation: 99"
STARRED = CUT_REPLY + "\n**Observation:** A pen costs 99."
TWO_STOPS = CUT_REPLY + "\nQuestion: And a ruler?\nObservation: A pen costs 99."
OBS = ["\nObservation"]


def _example(name: str, scripts: list, calls: list, hint: str) -> Example:
    """``calls``: a prompt alone (the first model, no stop), or ``(prompt, stop, how[, which model])``."""
    made = [[0, c, None, "none"] if isinstance(c, str) else [c[3] if len(c) > 3 else 0, *c[:3]]
            for c in calls]
    return Example(name, (scripts, made), hint)


EXAMPLES = (
    _example("replies come back in order (first in, first out)", [["one", "two", "three"]],
             ["p1", "p2", "p3"],
             "The first reply in the list is the first one returned: take from the front, not the end."),
    _example("a reply comes back exactly as written, spaces and newlines included",
             [[SPACED, SPACED_BEFORE_STOP]], ["p1", ("p2", OBS, "position")],
             "Return reply[:cut] (or the whole reply) and nothing else: no strip()."),
    _example("with no stop, the whole reply comes back", [[OBS_REPLY]], ["prompt"],
             "stop defaults to None, and None means: return the reply unchanged."),
    _example("the reply is cut just before the stop sequence", [[OBS_REPLY]], [("prompt", OBS, "keyword")],
             "Find where the stop begins (reply.find(stop)) and return reply[:that index]."),
    _example("stop passed by position, as a loop passes it", [[OBS_REPLY]], [("prompt", OBS, "position")],
             "Define the model as def model(prompt, stop=None): so stop works by position and by name."),
    _example("several stops: cut at the one that comes first in the reply", [[TWO_STOPS]],
             [("prompt", ["\nObservation", "\nQuestion"], "position")],
             "'\\nQuestion' is second in the list but first in the reply: cut at the smallest index."),
    _example("a stop is plain text, even with | or * in it", [[SPECIAL, STARRED]],
             [("p1", ["<|end|>"], "position"), ("p2", ["\n**Observation:**"], "position")],
             "Look for the stop as plain text (reply.find(stop)), not as a regular expression."),
    _example("a stop that occurs twice: cut at its first occurrence", [[TWICE]], [("prompt", OBS, "keyword")],
             "reply.find(stop) gives the first occurrence; rfind and rsplit give the last."),
    _example("a stop that is not in the reply changes nothing", [[CUT_REPLY]], [("prompt", OBS, "keyword")],
             "reply.find(stop) is -1 when the stop does not occur: skip that stop, do not cut at -1."),
    _example("model.prompts records every prompt, in order", [["one", "two"]], ["p1", "p2"],
             "Start with model.prompts = [] and append the prompt (not the reply) on every call."),
    _example("the call that runs out is recorded too", [["only"]], ["p1", "p2: one call too many"],
             "Append the prompt first, then check whether a reply is left."),
    _example("running out raises RuntimeError", [["only"]], ["p1", "one call too many"],
             "Before taking a reply, check whether any are left; if not, raise RuntimeError('...')."),
    _example("an empty script raises on its first call", [[]], ["one call too many"],
             "The same check: no reply left means RuntimeError, even on the first call."),
    _example("two models keep their own replies and prompts", [["a1", "a2"], ["b1"]],
             ["prompt for a", ("prompt for b", None, "none", 1), "second prompt for a"],
             "Keep the replies and the prompts inside make_scripted_model, a new list per model."),
    _example("the caller's list of replies is left unchanged", [["first reply", "second reply"]], ["p"],
             "Copy the list first: remaining = list(replies)."),
)
HIDDEN = (
    _example("a stop at the very start leaves nothing", [["\nObservation: 99", "b"]],
             [("p1", OBS, "position"), ("p2", [], "keyword")], "Cut at index 0: the reply is ''."),
    _example("two models, called in turn, each with its stops", [[TWO_STOPS, "x"], [TWICE]],
             [("b1", OBS, "position", 1), ("a1", ["\nQuestion", "\nObservation"], "keyword"),
              ("b2", None, "none", 1), "a2"],
             "Each model plays its own script and records its own prompts; the one that runs out raises."),
)
REPLIES = ("\nObservation: 99", OBS_REPLY, TWICE, SPECIAL, STARRED, TWO_STOPS, "Final Answer: 4", "",
           "  spaced  \n",
           "Zürich ✓\nObservation", "a\nObservation\nb\nObservation", "x|y*z\nb",
           "Action: price\nobservation: 7\nObservation: 8")
STOPS = (None, OBS, ["Observation", "\nb"], [], ["b", "\nObservation"], ["\nQuestion", "\nObservation"],
         ["<|end|>"], ["\n**Observation:**"], ["|y*"], ["✓", "\nObservation"])


def _scripts(draw: Draw) -> tuple:
    scripts = [draw.many(lambda d: d.pick(REPLIES), 4) for _ in range(1 + draw.below(2))]
    calls = []
    for number in range(1, 1 + draw.below(8)):
        stop = draw.pick(STOPS)
        how = "none" if stop is None and draw.below(2) else draw.pick(("position", "keyword"))
        calls.append([draw.below(len(scripts)), f"prompt {number} ✓", stop, how])
    return scripts, calls


def _each(test: Callable[[str | None, Any], bool]) -> Callable[[tuple], bool]:
    return lambda args: any(test(reply, stop) for reply, stop in sent(args))


def _occurs(reply: str | None, stop: str) -> bool:
    return reply is not None and bool(stop) and stop in reply


RULES = (
    Rule(IN_ORDER, ("replies come back in order (first in, first out)", GENERATED),
         edge=lambda args: sum(reply is not None for reply, _ in sent(args)) >= 2),
    Rule(STOP_GIVEN,
         ("with no stop, the whole reply comes back", "stop passed by position, as a loop passes it",
         "a stop that is not in the reply changes nothing"), edge=_each(lambda r, s: s is None)),
    Rule(CUT, ("the reply is cut just before the stop sequence", GENERATED),
         edge=_each(lambda r, s: any(_occurs(r, x) and r.find(x) == 0 for x in s or ()))),
    Rule(EARLIEST, ("several stops: cut at the one that comes first in the reply", GENERATED),
         edge=_each(lambda r, s: (
         len(s or ()) > 1 and _occurs(r, s[0]) and _occurs(r, s[1]) and r.find(s[1]) < r.find(s[0])))),
    Rule(PLAIN, ("a stop is plain text, even with | or * in it", GENERATED),
         edge=_each(lambda r, s: any(_occurs(r, x) and set(x) & set("|*") for x in s or ()))),
    Rule(FIRST, ("a stop that occurs twice: cut at its first occurrence", GENERATED),
         edge=_each(lambda r, s: any(_occurs(r, x) and r.count(x) > 1 for x in s or ()))),
    Rule(NOT_RETURNED, ("the reply is cut just before the stop sequence", GENERATED),
         edge=_each(lambda r, s: any(_occurs(r, x) for x in s or ()))),
    Rule(AS_WRITTEN, ("a reply comes back exactly as written, spaces and newlines included", GENERATED),
         edge=_each(lambda r, s: r is not None and r != r.strip())),
    Rule(RECORDS, ("model.prompts records every prompt, in order",)),
    Rule(RUN_OUT_RECORDED, ("the call that runs out is recorded too", GENERATED),
         edge=_each(lambda r, s: r is None)),
    Rule(RAISES, ("running out raises RuntimeError", "an empty script raises on its first call", GENERATED),
         edge=lambda args: [] in args[0] and bool(args[1])),
    Rule(SAYS, ("running out raises RuntimeError",)),
    Rule(CALLERS, ("the caller's list of replies is left unchanged",)),
    Rule(APART, ("two models keep their own replies and prompts", GENERATED),
         edge=lambda args: len(args[0]) > 1),
)


def _show(args: tuple) -> str:
    names = ["model", "other"] if len(args[0]) > 1 else ["model"]
    made = "; ".join(f"{n} = make_scripted_model({s!r})" for n, s in zip(names, args[0], strict=True))
    calls = [f"{names[w]}({p!r})" if how == "none" else f"{names[w]}({p!r}, {s!r})" if how == "position"
             else f"{names[w]}({p!r}, stop={s!r})" for w, p, s, how in args[1]]
    return f"{made}; then {', '.join(calls) or 'no call'}"


SPEC = define(Spec(
    "02.scripted_model", "a scripted model", "make_scripted_model", key, EXAMPLES, _scripts, RULES,
    faults=FAULTS, observe=observe, compare=compare, show=_show, count=200, time_limit=30.0, hidden=HIDDEN,
    hints=(
        "Copy the replies into a list of your own inside make_scripted_model, define model() inside it, "
        "and attach the list of prompts to it: model.prompts = [].",
        "Take replies from the front (pop(0) or an index that goes up). To cut, find every stop that "
        "occurs in the reply and keep reply[:smallest index].",
        "Check for 'nothing left' before taking a reply, and raise RuntimeError(...) yourself; popping "
        "from an empty list raises IndexError, which says nothing useful.",
    ),
    generated_hint="Replies in order from a copy of the list; each cut at the earliest stop found in it; "
                   "every prompt recorded, the one that finds no reply too; RuntimeError after."))
__all__ = ["SPEC", "key"]
