"""03.call_with_stops as a spec: send at most four stops *and* cut on the client side.

The student's function gets a scripted model that records what it was sent and
either honours stops, as an API does, or ignores them, as some models and servers
do. The arguments are plain data (the reply, the stops, whether the model ignores
them); ``observe`` builds the model and reports, as plain data, what it was sent
and what came back. The key is the library's two halves: ``rc.stops.api_stops``
for what to send and ``rc.cut_at_stop`` for the cut.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...models import ScriptedModel
from ...stops import api_stops, cut_at_stop
from ..generated import Draw
from ..plain import Opaque
from ..spec import GENERATED, Example, Fault, Rule, Spec, define
from ..values import describe
from .replies import INVENTED, OBS, QUESTION, STOPS, any_reply, any_stops

SIX_STOPS = ["\nObservation", "\nQuestion:", "\nHuman:", "\nAssistant:", "\nUser:", "<|end|>"]
FINAL = "Thought: I now know the answer\nFinal Answer: 330 m"
CHATTY = FINAL + "\nUser: Thanks! And the Statue of Liberty?"
SPACED_KEPT = "  Thought: I need the height.\nAction: search[Eiffel Tower]  \n"
BOTH = "Final Answer: 330 m\nQuestion: How tall is the Statue of Liberty?\nObservation: 93 m"


def key(model: Callable[..., str], prompt: str, stops: Any) -> str:
    return cut_at_stop(model(prompt, stop=api_stops(stops)), stops)


def observe(function: Callable[..., Any], args: tuple) -> dict[str, Any]:
    """Call ``function`` with a recording model; what it sent and returned, as plain data."""
    reply, stops, ignores = args
    model, calls = ScriptedModel([reply] * 3, ignore_stops=ignores), []

    def recording(prompt: Any, stop: Any = None) -> str:
        calls.append([prompt, list(stop) if isinstance(stop, list | tuple) else stop])
        return model(prompt, stop=stop)

    returned = function(recording, QUESTION, stops)
    shown = returned if isinstance(returned, str) else Opaque(describe(returned))
    return {"returned": shown, "calls": [c if isinstance(c[1], list | None) else [c[0],
        Opaque(describe(c[1]))]
                                         for c in calls]}


def compare(args: tuple, want: dict[str, Any], got: dict[str, Any]) -> bool | str:
    if got == want:
        return True
    if len(got["calls"]) != 1:
        return f"the model was called {len(got['calls'])} times: call it once, with the stops"
    (prompt, stop), = got["calls"]
    if prompt != QUESTION:
        return f"the model was sent the prompt {describe(prompt, 80)}: send the prompt unchanged"
    sent = want["calls"][0][1]
    if stop != sent:
        return (f"the model was sent stop={stop!r}; send {sent!r} (the first four stops, None when "
                "there are none)")
    if not isinstance(got["returned"], str):
        return f"return the reply (a str), not {got['returned']}"
    return False


def _sent(args: tuple, got: dict[str, Any]) -> Any:
    return got["calls"][0][1] if len(got["calls"]) == 1 else None


CUT = "cuts the reply on the client side with all the stops"
FOUR = "sends the first four stops"
FAULTS = (
    Fault("calls the model once", "Call the model once: model(prompt, stop=stops[:4]).",
          found=lambda args, want, got: len(got["calls"]) > 1),
    Fault("with the prompt unchanged", "Send the prompt exactly as given: the loop built it.",
          found=lambda args, want, got: got["calls"][0][0] != QUESTION),
    Fault("when there are no stops it sends `None`", "With no stops, send stop=None (not []): "
          "list(stops)[:4] or None.", found=lambda args, want, got: not args[1] and _sent(args, got) == []),
    Fault(FOUR, "Send at most four: the OpenAI API rejects a request with more than four stops.",
          found=lambda args, want, got: len(_sent(args, got) or ()) > 4),
    Fault(FOUR, "No stop sequences reached the model: pass them, model(prompt, stop=list(stops)[:4]).",
          found=lambda args, want, got: bool(args[1]) and _sent(args, got) is None),
    Fault(FOUR, "Send the FIRST four stops, in their order: stops[:4].",
          found=lambda args, want, got: _sent(args, got) != want["calls"][0][1]),
    Fault("returns the cut reply, exactly as it is", "Return what rc.cut_at_stop keeps, spaces and newlines "
          "included: no strip().",
          found=lambda args, want, got: got["returned"].strip() == want["returned"].strip()),
    Fault(CUT, "The model may ignore stops, and only four can be sent: cut the reply yourself with every "
               "stop, rc.cut_at_stop(reply, stops).",
          found=lambda args, want, got: len(got["returned"]) > len(want["returned"])),
)


def _call(name: str, reply: str, stops: Any, ignores: bool, hint: str) -> Example:
    note = f"# the model {'ignores' if ignores else 'honours'} stops and replies {reply!r}"
    return Example(name, (reply, stops, ignores), hint, note)


EXAMPLES = (
    _call("sends the stop and returns the reply", INVENTED, [OBS], False,
          "Call the model once: model(prompt, stop=stops[:4])."),
    _call("cuts when the model ignores stops", INVENTED, [OBS], True,
          "Never trust the API to have cut: apply rc.cut_at_stop to the reply yourself."),
    _call("sends only the first four of six stops", FINAL, SIX_STOPS, False,
          "Send stops[:4]: the OpenAI API rejects a request with more than four."),
    _call("a stop that could not be sent still cuts", CHATTY, SIX_STOPS, False,
          "'\\nUser:' is the fifth stop, so the API never saw it: cut with every stop."),
    _call("cuts at the earliest of the stops", BOTH, [OBS, "\nQuestion:"], True,
          "Cut with all the stops at once, at the earliest one that occurs."),
    _call("a reply with no stop in it comes back whole", FINAL, [OBS], True,
          "Return the reply unchanged when no stop occurs in it (no strip, no extra text)."),
    _call("the kept text comes back exactly as it is", SPACED_KEPT + "\nObservation: 330 m", [OBS], True,
          "Return what rc.cut_at_stop keeps, spaces and newlines included: no strip()."),
    _call("no stops: None sent, nothing cut", FINAL, [], True,
          "With no stops, send stop=None (not []) and return the reply as it is: list(stops)[:4] or None."),
    _call("one stop of a tuple is sent", INVENTED, ("\nObservation",), True,
          "stops may be a tuple: send its first four as a list (list(stops)[:4])."),
)
RULES = (
    Rule("calls the model once", ("sends the stop and returns the reply",
        "sends only the first four of six stops")),
    Rule("with the prompt unchanged", ("sends the stop and returns the reply",)),
    Rule(FOUR, ("sends only the first four of six stops", "one stop of a tuple is sent", GENERATED),
         edge=lambda a: len(a[1]) > 4),
    Rule("when there are no stops it sends `None`", ("no stops: None sent, nothing cut",),
        edge=lambda a: not a[1]),
    Rule(CUT, ("cuts when the model ignores stops", "a stop that could not be sent still cuts",
               "cuts at the earliest of the stops"),
         edge=lambda a: any(s in cut_at_stop(a[0], a[1][:4]) for s in a[1][4:] if s)),
    Rule("returns the cut reply, exactly as it is", ("a reply with no stop in it comes back whole",
                                                      "the kept text comes back exactly as it is"),
         edge=lambda a: (kept := cut_at_stop(a[0], a[1])) != kept.strip()),
)


def _inputs(draw: Draw) -> tuple:
    return any_reply(draw), draw.pick((list, tuple))(any_stops(draw, STOPS[:5], 7)), draw.boolean()


SPEC = define(Spec(
    "03.call_with_stops", "send at most four stops, and cut on the client too", "call_with_stops", key,
    EXAMPLES, _inputs, RULES, faults=FAULTS, observe=observe, compare=compare,
    show=lambda args: f"call_with_stops(model, {QUESTION!r}, {args[1]!r})",
    hints=(
        "Two things: model(prompt, stop=the first four stops), then cut what comes back.",
        "Send list(stops)[:4], or None when there are none (not []). APIs such as OpenAI's reject "
        "more than four.",
        "Cut the reply with ALL the stops, not only the four you sent: rc.cut_at_stop(reply, stops).",
    ),
    generated_hint="One call with the first four stops as a list (None when there are none), then a cut "
                   "of the reply with every stop, exactly as it is."))
__all__ = ["SPEC"]
