"""Check 03.call_with_stops: send at most four stops *and* cut on the client side.

The student's function gets a ``ScriptedModel`` that records what it was sent,
and that either honours stops, as an API does, or ignores them, as some
models and servers do. Only four stops can be sent (OpenAI's limit), so the
cut on the client must use all of them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .. import exercise
from ..framework import Case, describe
from .common import INVENTED, KEPT, OBS, QUESTION
from .generated_replies import CALL

# Each case hands the student its own copy (list(SIX_STOPS)): a solution that edits its argument
# in place must not change what later cases send.
SIX_STOPS = ["\nObservation", "\nQuestion:", "\nHuman:", "\nAssistant:", "\nUser:", "<|end|>"]
FINAL = "Thought: I now know the answer\nFinal Answer: 330 m"
CHATTY = FINAL + "\nUser: Thanks! And the Statue of Liberty?"
SPACED_KEPT = "  Thought: I need the height.\nAction: search[Eiffel Tower]  \n"
SPACED = SPACED_KEPT + "\nObservation: 330 m"
BOTH = "Final Answer: 330 m\nQuestion: How tall is the Statue of Liberty?\nObservation: 93 m"


class _Recording:
    """A scripted model that records the ``stop`` argument exactly as it was passed.

    (The library's ``ScriptedModel`` records ``[]`` as ``None``; this check must tell them apart.)
    """

    def __init__(self, reply: str, ignore_stops: bool) -> None:
        from ...models import ScriptedModel

        self._model = ScriptedModel([reply], ignore_stops=ignore_stops)
        self.calls: list[tuple[Any, Any]] = []

    def __call__(self, prompt: str, stop: Any = None) -> str:
        self.calls.append((prompt, list(stop) if isinstance(stop, list) else stop))
        return self._model(prompt, stop=stop)


def _call(call: Callable, reply: str, stops: Any, ignore_stops: bool) -> dict[str, Any]:
    model = _Recording(reply, ignore_stops)
    returned = call(model, QUESTION, stops)
    return {"returned": returned, "calls": model.calls}


def _show_call(got: Any) -> str:
    if not isinstance(got, dict):
        return describe(got)
    sent = [stop for _, stop in got["calls"]]
    shown = describe(sent[0] if len(sent) == 1 else sent, 200)
    return f"returned {describe(got['returned'], 200)}; stop sent to the model: {shown}"


def _call_test(expected: str, stops: Any) -> Callable[[Any], bool | str]:
    def test(got: dict[str, Any]) -> bool | str:
        calls = got["calls"]
        if len(calls) != 1:
            return f"the model was called {len(calls)} times: call it once, with the stops"
        prompt, stop = calls[0]
        if prompt != QUESTION:
            return f"the model was sent the prompt {describe(prompt, 80)}: send the prompt unchanged"
        verdict = _stop_verdict(stop, stops)
        if verdict is not True:
            return verdict
        returned = got["returned"]
        if returned == expected:
            return True
        if not isinstance(returned, str):
            return f"return the reply (a str), not {type(returned).__name__}"
        if OBS in returned or "\nUser:" in returned or "\nQuestion:" in returned:
            return ("the reply still holds text after a stop: the model may ignore stops, and only four "
                    "can be sent, so cut the reply yourself with every stop")
        return False

    return test


def _stop_verdict(stop: Any, stops: list[str]) -> bool | str:
    """Were the first four stops sent, as a list or tuple, and None when there are none?"""
    if not stops:
        if stop is None:
            return True
        return (f"with no stops, the model was sent stop={stop!r}: send None, as the statement says "
                "(None means 'no stop sequences'; rc.stops.api_stops([]) is None too)")
    want = list(stops[:4])
    if stop is None:
        return "no stop sequences reached the model: pass them, model(prompt, stop=...)"
    if not isinstance(stop, list | tuple):
        return f"send the stops as a list (or tuple) of strings, not {type(stop).__name__}"
    if list(stop) == want:
        return True
    if len(stop) > 4:
        return f"{len(stop)} stops were sent: OpenAI's API takes at most 4, send the first 4"
    return f"the model was sent {list(stop)!r}; send the first four stops, {want!r}"


def _call_case(name: str, run: Callable[[], dict[str, Any]], expected: str, stops: list[str],
               note: str, hint: str) -> Case:
    """One case: ``run`` calls the student's function; ``stops`` (what it is given) sets the test."""
    return Case(name, run, expected=expected, test=_call_test(expected, stops), show=_show_call,
                given=f"call_with_stops(model, {QUESTION!r}, {stops!r}){note}", hint=hint)


GENERATED = CALL.name
RULES = {
    "calls the model once": ("sends the stop and returns the reply",
                             "sends only the first four of six stops"),
    "with the prompt unchanged": ("sends the stop and returns the reply",),
    "sends the first four stops": ("sends only the first four of six stops", "one stop of a tuple is sent",
                                    GENERATED),
    "when there are no stops it sends `None`": ("no stops: None sent, nothing cut",),
    "cuts the reply on the client side with all the stops": (
        "cuts when the model ignores stops", "a stop that could not be sent still cuts",
        "cuts at the earliest of the stops"),
    "returns the cut reply, exactly as it is": ("a reply with no stop in it comes back whole",
                                                 "the kept text comes back exactly as it is"),
}


@exercise(
    "03.call_with_stops",
    "send at most four stops, and cut on the client too",
    rules=RULES,
    hints=(
        "Two things: model(prompt, stop=the first four stops), then cut what comes back.",
        "Send list(stops)[:4], or None when there are none (not []). APIs such as OpenAI's reject "
        "more than four.",
        "Cut the reply with ALL the stops, not only the four you sent: rc.cut_at_stop(reply, stops).",
    ),
)
def call_with_stops_cases(call: Callable[[Any, str, Any], str]):
    yield _call_case("sends the stop and returns the reply",
                     lambda: _call(call, INVENTED, [OBS], False), KEPT, [OBS],
                     "  # a model that honours stops",
                     "Call the model once: model(prompt, stop=stops[:4]).")
    yield _call_case("cuts when the model ignores stops",
                     lambda: _call(call, INVENTED, [OBS], True), KEPT, [OBS],
                     f"  # the model ignores stops and replies {INVENTED!r}",
                     "Never trust the API to have cut: apply rc.cut_at_stop to the reply yourself.")
    yield _call_case("sends only the first four of six stops",
                     lambda: _call(call, FINAL, list(SIX_STOPS), False), FINAL, SIX_STOPS, "",
                     "Send stops[:4]: the OpenAI API rejects a request with more than four.")
    yield _call_case("a stop that could not be sent still cuts",
                     lambda: _call(call, CHATTY, list(SIX_STOPS), False), FINAL, SIX_STOPS,
                     f"  # the model replies {CHATTY!r}",
                     "'\\nUser:' is the fifth stop, so the API never saw it: cut with every stop, "
                     "not just the four you sent.")
    yield _call_case("cuts at the earliest of the stops",
                     lambda: _call(call, BOTH, [OBS, "\nQuestion:"], True), "Final Answer: 330 m",
                     [OBS, "\nQuestion:"], f"  # the model ignores stops and replies {BOTH!r}",
                     "Cut with all the stops at once, at the earliest one that occurs.")
    yield _call_case("a reply with no stop in it comes back whole",
                     lambda: _call(call, FINAL, [OBS], True), FINAL, [OBS],
                     f"  # the model replies {FINAL!r}",
                     "Return the reply unchanged when no stop occurs in it (no strip, no extra text).")
    yield _call_case("the kept text comes back exactly as it is",
                     lambda: _call(call, SPACED, [OBS], True), SPACED_KEPT, [OBS],
                     f"  # the model ignores stops and replies {SPACED!r}",
                     "Return what rc.cut_at_stop keeps, spaces and newlines included: no strip().")
    yield _call_case("no stops: None sent, nothing cut",
                     lambda: _call(call, FINAL, [], True), FINAL, [], "",
                     "With no stops, send stop=None (not []) and return the reply as it is: "
                     "list(stops)[:4] or None.")
    yield _call_case("one stop of a tuple is sent",
                     lambda: _call(call, INVENTED, ("\nObservation",), True), KEPT, ("\nObservation",),
                     f"  # the model ignores stops and replies {INVENTED!r}",
                     "stops may be a tuple: send its first four as a list (list(stops)[:4]).")
    yield CALL.case(call)
