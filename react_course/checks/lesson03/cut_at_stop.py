"""03.cut_at_stop as a spec: keep the text before the earliest stop sequence.

The key is the library's ``rc.cut_at_stop``. The faults are the usual mistakes,
each recognised by what it returns: the stop kept, a strip() of the result or of
the stops, a -1 from str.find taken as a position, an empty stop that matches
everywhere, a stop used as a regular expression, a later stop than the earliest.
"""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Sequence
from typing import Any

from ...stops import cut_at_stop
from ..generated import Draw
from ..plain import Raised
from ..spec import GENERATED, Example, Fault, Rule, Spec, define
from .replies import INVENTED, KEPT, OBS, STOPS, any_reply, any_stops


def _live(stops: Any) -> list[str]:
    return [stop for stop in stops or () if stop]


def _as_regex(text: str, stops: Any) -> str:
    return re.split("|".join(_live(stops)), text, maxsplit=1)[0] if _live(stops) else text


def _first_listed(text: str, stops: Any) -> str:
    return next((text[: text.find(s)] for s in _live(stops) if s in text), text)


def _last_occurrence(text: str, stops: Any) -> str:
    found = [text.rfind(s) for s in _live(stops) if s in text]
    return text[: min(found)] if found else text


def _zero_is_no_match(text: str, stops: Any) -> str:
    found = [text.find(s) for s in _live(stops) if text.find(s) > 0]
    return text[: min(found)] if found else text


def _one_at_a_time(text: str, stops: Any) -> str:
    """Cutting at each stop in turn: wrong where a stop listed first sits inside a later one."""
    for stop in _live(stops):
        text = text.split(stop, 1)[0]
    return text


def _inside_another(args: tuple) -> bool:
    """A stop listed earlier first occurs inside the earliest occurrence of a stop listed later."""
    text, live = args[0], [s for s in _live(args[1]) if s in args[0]]
    return any(text.find(b) < text.find(a) < text.find(b) + len(b)
               for i, a in enumerate(live) for b in live[i + 1:])


def _earliest_not_first(args: tuple) -> bool:
    text, live = args[0], [s for s in _live(args[1]) if s in args[0]]
    return any(text.find(a) > text.find(b) for a, b in itertools.pairwise(live))


def _only_by_form(args: tuple) -> bool:
    """A stop absent as given but present stripped or in another case."""
    text = args[0]
    return any(s not in text and (s.strip() in text or s.lower() in text.lower()) for s in _live(args[1]))


EXACT = "matched exactly as given, newlines and case included"
EARLIEST = "Earliest means earliest in the text, not first in the list"
NO_STRIP = "Keep the text exactly as it is (no stripping)"
WHOLE = "the whole text when none occurs"
BEFORE = "before the earliest place where any of the stops occurs"

RULES = (
    Rule(BEFORE, ("cuts just before the stop", "earliest occurrence wins, whatever the order of the stops",
                  GENERATED),
         edge=lambda a: sum(s in a[0] for s in _live(a[1])) >= 2),
    Rule("the stop itself is not kept", ("cuts just before the stop",
        "a stop at the very start leaves nothing"),
         edge=lambda a: any(a[0].startswith(s) for s in _live(a[1]))),
    Rule(NO_STRIP, ("whitespace before the stop is kept", "leading spaces and trailing newlines are kept"),
         edge=lambda a: (kept := cut_at_stop(*a)) != kept.strip()),
    Rule(EARLIEST, ("earliest occurrence wins, whatever the order of the stops",
                    "the first of two occurrences",
                    "a stop inside a longer one: the one that starts first wins", GENERATED),
         edge=lambda a: _earliest_not_first(a) and _inside_another(a)),
    Rule(WHOLE, ("no stop in the text: unchanged", "a stop that does not occur is skipped"),
         edge=lambda a: bool(_live(a[1])) and not any(s in a[0] for s in _live(a[1]))),
    Rule(EXACT, ("the stop's newline is part of it", "a stop matches only in its own case"),
        edge=_only_by_form),
    Rule("plain text, not a regular expression", ("a stop with | in it is plain text",
                                                  "a stop with ** in it is plain text"),
         edge=lambda a: any(re.escape(s) != s and s in a[0] for s in _live(a[1]))),
    Rule("may be empty or `None`", ("stops=None: unchanged", "no stops: unchanged"), edge=lambda a: not a[1]),
    Rule("`stops` is a list or tuple of strings", ("a tuple of stops works; the numbered form is cut too",),
         edge=lambda a: isinstance(a[1], tuple) and bool(a[1])),
    Rule("Skip empty strings", ("an empty stop is skipped", GENERATED), edge=lambda a: "" in (a[1] or ())),
)

FAULTS = (
    # first: on a stop inside a longer one, stripping the stops can give the same text
    Fault(EARLIEST, "Cutting at each stop in turn goes wrong when one stop sits inside another "
                    "('Observation' inside '\\nObservation'): find every stop's position in the whole "
                    "text first, then cut once at the smallest.", like=_one_at_a_time),
    Fault(EXACT, "A stop is matched exactly as given: the newline in front is what keeps a thought that "
                 "mentions the word from being cut. Do not strip() the stops.",
          like=lambda text, stops: cut_at_stop(text, [s.strip() for s in stops or ()])),
    Fault(EXACT, "Match each stop exactly as given, case included: text.find(stop), not a search in "
                 "text.lower().",
          like=lambda text, stops: text[: len(cut_at_stop(text.lower(), [s.lower() for s in stops or ()]))]),
    Fault("plain text, not a regular expression",
          "The stops were used as a regular expression, where | means 'or' and * repeats. A stop is plain "
          "text: use text.find(stop) (or re.escape).", like=_as_regex),
    Fault("plain text, not a regular expression",
          "A stop is plain text: as a regular expression '**' is an error and '<|end|>' means '<' or 'end' "
          "or '>'. Use text.find(stop).",
          found=lambda args, want, got: isinstance(got, Raised) and "error" in got.lower()
          and any(re.escape(s) != s for s in _live(args[1]))),
    Fault("may be empty or `None`", "Treat None like an empty list: `for stop in stops or ():`.",
          found=lambda args, want, got: args[1] is None and isinstance(got, Raised)),
    Fault("`stops` is a list or tuple of strings",
        "stops may be any sequence (a list or a tuple): loop over it.",
          found=lambda args, want, got: isinstance(args[1], tuple) and got == args[0] != want),
    Fault(EARLIEST, "Do not stop at the first stop of the list that occurs: find every stop's position and "
                    "cut at the smallest.", like=_first_listed),
    Fault(EARLIEST, "Use text.find (the first occurrence), not text.rfind (the last).",
        like=_last_occurrence),
    Fault(NO_STRIP, "Return text[:position] exactly: no strip() of the result, not even of the newlines.",
          found=lambda args, want, got: isinstance(got, str) and got.strip() == want.strip()),
    Fault("the stop itself is not kept", "The stop sequence itself was kept: cut just before it.",
          found=lambda args, want, got: any(got == want + s for s in _live(args[1]))),
    Fault(WHOLE, "str.find gives -1 for a stop that does not occur, and text[:-1] is not 'no cut': leave "
                 "absent stops out before taking the smallest position.",
          found=lambda args, want, got: want == args[0] != "" and got == args[0][:-1]),
    Fault("Skip empty strings", "'' occurs everywhere (text.find('') is 0): skip empty stops, as an API "
                                "ignores them.",
          found=lambda args, want, got: got == "" != want and "" in (args[1] or ())),
    Fault(BEFORE, "A stop found at position 0 is a match: test `position >= 0` (or `!= -1`), not `> 0`.",
          like=_zero_is_no_match),
)


def _cut(text: str, stops: Sequence[str] | None, name: str, hint: str) -> Example:
    return Example(name, (text, stops), hint)


EXAMPLES = (
    _cut(INVENTED, [OBS], "cuts just before the stop", "Return text[:position], where position is where "
         "the stop begins."),
    _cut("Thought: I now know the answer\nFinal Answer: 330 m", [OBS], "no stop in the text: unchanged",
         "When no stop occurs, return the text as it is."),
    _cut(INVENTED, ["\nQuestion:", OBS], "a stop that does not occur is skipped",
         "text.find gives -1 for a stop that is absent: leave it out before taking the smallest."),
    _cut("Final Answer: 330 m\nQuestion: How tall is the Statue of Liberty?\nObservation: 93 m",
         [OBS, "\nQuestion:"], "earliest occurrence wins, whatever the order of the stops",
         "Find every stop's position and cut at the smallest."),
    _cut(INVENTED, ["Observation", OBS], "a stop inside a longer one: the one that starts first wins",
         "Find where every stop starts in the whole text, then cut once at the smallest position."),
    _cut("Action 1: Search[Eiffel Tower]\nObservation 1: 500 m\nThought 2: done\nAction 2: Finish[500 m]\n"
         "Observation 2: finished", [OBS], "the first of two occurrences",
         "Use text.find (the first occurrence), not text.rfind (the last)."),
    _cut(KEPT, None, "stops=None: unchanged", "Treat None like an empty list: `for stop in stops or ():`."),
    _cut(KEPT, [], "no stops: unchanged", "With no stops there is nothing to cut: return the text."),
    _cut(INVENTED, ["", OBS], "an empty stop is skipped", "'' occurs everywhere: skip empty stops."),
    _cut("Action: calculate\nAction Input: 330 - 93  \n\nObservation: 237", [OBS],
         "whitespace before the stop is kept", "Return exactly the text before the stop: no strip()."),
    _cut("Observation: 500 m", ["Observation:"], "a stop at the very start leaves nothing",
         "A stop found at position 0 is a match: test `position >= 0`, not `> 0`."),
    _cut("  Action: search[Eiffel Tower]\n\n\nObservation: 330 m", [OBS],
         "leading spaces and trailing newlines are kept", "Return text[:position] exactly: no strip()."),
    _cut("Thought: From the first Observation: 330 m. Now the statue.\nAction: search[Statue of Liberty]",
         [OBS], "the stop's newline is part of it",
         "'\\nObservation' occurs only where a line starts with the word: do not strip the stops."),
    _cut("Action: search\nAction Input: Eiffel Tower\nobservation deck hours\nObservation: 9:30", [OBS],
         "a stop matches only in its own case", "Match each stop exactly as given, case included."),
    _cut("Thought: That is the end of the search.\nFinal Answer: 330 m<|end|>\nUser: thanks", ["<|end|>"],
         "a stop with | in it is plain text", "A stop is plain text: find it with text.find(stop)."),
    _cut("**Action:** search\n**Action Input:** Eiffel Tower\n**Observation:** 500 m", ["\n**Observation:**"],
         "a stop with ** in it is plain text", "A stop is plain text: find it with text.find(stop)."),
    _cut("Thought 2: Now the statue.\nAction 2: Search[Statue of Liberty]\nObservation 2: It is 93 m tall.",
         ("\nObservation",), "a tuple of stops works; the numbered form is cut too",
         "stops may be any sequence (a list or a tuple): just loop over it."),
)


def _hidden() -> tuple[Example, ...]:
    """Seeded texts the notebook never shows: three stops, repeated, at both ends."""
    rng = random.Random(3)
    pieces = ["Thought: a", "\nAction: b", "\nObservation: c", "\nQuestion: d", " e ", "\n"]
    stops = ["\nObservation:", "\nQuestion:", "</s>"]
    made = []
    for number in range(6):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 7))) + ("</s>" if number % 2 else "")
        made.append(_cut(text, rng.sample(stops, rng.randint(1, 3)), f"hidden case {number + 1}",
                         "Cut at the earliest place any stop occurs, exactly as given."))
    return tuple(made)


def _inputs(draw: Draw) -> tuple:
    """A reply and stops, with some of the stops also written into the reply (so they overlap)."""
    stops, text = any_stops(draw), any_reply(draw)
    for stop in draw.many(lambda d: d.pick(stops), 2) if stops else ():
        at = draw.integer(0, len(text))
        text = text[:at] + stop + text[at:]
    return text, draw.pick((stops, tuple(stops), None if not stops else stops))


SPEC = define(Spec(
    "03.cut_at_stop", "keep the text before the earliest stop sequence", "cut_at_stop", cut_at_stop,
    EXAMPLES, _inputs, RULES, faults=FAULTS, hidden=_hidden(),
    hints=("For each stop, text.find(stop) gives where it starts, or -1 when it does not occur.",
           "Collect the positions that are not -1 (and skip empty stops); the smallest one is the cut.",
           "No position at all means no cut: return the text unchanged. Otherwise return text[:smallest]."),
    generated_hint="Find every non-empty stop with text.find, exactly as given, and cut at the smallest "
                   "position; no stop found, no cut; never strip."))
__all__ = ["SPEC", "STOPS"]
