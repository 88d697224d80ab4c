"""Check 03.read_reply: cut, parse, and keep everything the program threw away.

Two things can be thrown away: the text after the stop, and what the parser
ignored after an action (``Action.discarded``). The cut must record each
exactly once, and nothing that was kept.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .. import exercise
from ..framework import Case, describe
from .common import INVENTED, KEPT, OBS, Shown, expect_step, show_step, shown_expected

# (case name, reply, stops, expected step, pieces the cut must hold once each, hint)
READ_CASES: tuple[tuple[str, str, list[str], tuple[str, ...], tuple[str, ...], str], ...] = (
    ("a clean action: nothing cut", KEPT, [OBS], ("action", "search", "Eiffel Tower"), (),
     "When nothing was thrown away, the cut is ''."),
    ("an invented observation is cut and recorded", INVENTED, [OBS],
     ("action", "search", "Eiffel Tower"),
     ("Observation: The Eiffel Tower is 500 m tall.", "Final Answer: The Eiffel Tower is 500 m tall."),
     "Cut at the stop first (kept = rc.cut_at_stop(raw, stops)); the text after it, raw[len(kept):], "
     "goes into the record."),
    ("an answer written after the action is recorded",
     "Thought: I will check.\nAction: search[Eiffel Tower]\nFinal Answer: 330 m", [OBS],
     ("action", "search", "Eiffel Tower"), ("Final Answer: 330 m",),
     "No stop occurs here, but the parser ignored the answer after the action: add the Action's "
     ".discarded to the record."),
    ("both kinds of cut in one reply",
     "Action: search[Eiffel Tower]\nFinal Answer: 330 m\nObservation: The user confirmed it.", [OBS],
     ("action", "search", "Eiffel Tower"), ("Final Answer: 330 m", "Observation: The user confirmed it."),
     "Record both: the Action's .discarded AND the text after the stop."),
    ("a final answer, then an invented observation",
     "Thought: I know this one.\nFinal Answer: 330 m\nObservation: Correct!", [OBS],
     ("final", "330 m"), ("Observation: Correct!",),
     "Cut at the stop before parsing, and record the part after the stop even when the reply is an answer."),
    ("a clean final answer: nothing cut", "Thought: I now know the answer\nFinal Answer: 330 m", [OBS],
     ("final", "330 m"), (), "When nothing was thrown away, the cut is ''."),
    ("an unreadable reply: nothing cut", "I think it is about 300 m.", [OBS], ("error",), (),
     "Return rc.parse_step's ParseError as it is; nothing was cut."),
    ("every stop counts",
     "Thought: I now know the answer\nFinal Answer: 330 m\nQuestion: How tall is the Statue of Liberty?",
     [OBS, "\nQuestion:"], ("final", "330 m"), ("Question: How tall is the Statue of Liberty?",),
     "Cut with every stop before parsing (rc.cut_at_stop(raw, stops)), and record what came after."),
    ("a thought, then an invented observation",
     "Thought: Let me recall.\nObservation: The tower is 500 m tall.\nThought: So\nFinal Answer: 500 m",
     [OBS], ("error",), ("Observation: The tower is 500 m tall.", "Final Answer: 500 m"),
     "Cut at the stop first, then parse only the kept part; record the rest."),
)


def _read_test(expected: tuple[str, ...], pieces: tuple[str, ...], reply: str):
    step_test = expect_step(expected)

    def test(got: Any) -> bool | str:
        if not (isinstance(got, tuple) and len(got) == 2):
            return "return a pair: (the parsed step, the text that was cut)"
        step, cut = got
        verdict = step_test(step)
        if verdict is not True:
            return f"the step: {verdict}"
        if not isinstance(cut, str):
            return f"the cut is text (a str, '' when nothing was cut), not {type(cut).__name__}"
        if not pieces:
            return cut.strip() == "" or f"nothing was thrown away here, but the cut is {cut!r}"
        for piece in pieces:
            if cut.count(piece) == 0:
                return f"the cut does not record {piece!r}"
            if cut.count(piece) > 1:
                return f"the cut records {piece!r} more than once"
        first = reply.splitlines()[0]
        if first in cut:
            return f"the cut holds {first!r}, which was kept: record only what was thrown away"
        return True

    return test


def _show_read(got: Any) -> str:
    if isinstance(got, tuple) and len(got) == 2:
        return f"({show_step(got[0])}, {describe(got[1], 200)})"
    return describe(got)


@exercise(
    "03.read_reply",
    "cut, parse, and record what was thrown away",
    hints=(
        "Three steps: kept = rc.cut_at_stop(raw, stops); step = rc.parse_step(kept); build the cut.",
        "Two things can be thrown away: the text after the stop, raw[len(kept):], and, for an Action, "
        "step.discarded (text the parser ignored after the action).",
        "Join the non-empty parts with a newline; '' when both are empty.",
    ),
)
def read_reply_cases(read: Callable[[str, Any], Any]):
    for name, reply, stops, expected, pieces, hint in READ_CASES:
        shown = shown_expected(expected).text + (f", a cut holding {', '.join(map(repr, pieces))}"
                                                 if pieces else ", '' (nothing cut)")
        yield Case(name, lambda reply=reply, stops=stops: read(reply, stops), expected=Shown(f"({shown})"),
                   test=_read_test(expected, pieces, reply), show=_show_read,
                   given=f"read_reply({reply!r}, {stops!r})", hint=hint)
