"""Check 03.read_reply: cut, parse, and keep everything the program threw away.

Two things can be thrown away: what the parser ignored after an action
(``Action.discarded``) and the text after the stop. The cut is exactly what the
library's loop records in ``step.cut``: those two, in that order, each as it is
(the text after the stop begins with the stop, newline included), the
non-empty ones joined with a newline. The tests hold every expected cut here
to the loop's own.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .. import exercise
from ..framework import Case, describe, nonblank_lines
from .common import INVENTED, KEPT, OBS, Shown, expect_step, show_step, shown_expected
from .generated_replies import READ

# (case name, reply, stops, expected step, expected cut, hint)
READ_CASES: tuple[tuple[str, str, list[str], tuple[str, ...], str, str], ...] = (
    ("a clean action: nothing cut", KEPT, [OBS], ("action", "search", "Eiffel Tower"), "",
     "When nothing was thrown away, the cut is ''."),
    ("an invented observation is cut and recorded", INVENTED, [OBS],
     ("action", "search", "Eiffel Tower"),
     "\nObservation: The Eiffel Tower is 500 m tall.\nThought: I now know the answer.\n"
     "Final Answer: The Eiffel Tower is 500 m tall.",
     "Cut at the stop first (kept = rc.cut_at_stop(raw, stops)); the text after it, raw[len(kept):], "
     "goes into the record as it is, starting with the stop's newline."),
    ("an answer written after the action is recorded",
     "Thought: I will check.\nAction: search[Eiffel Tower]\nFinal Answer: 330 m", [OBS],
     ("action", "search", "Eiffel Tower"), "Final Answer: 330 m",
     "No stop occurs here, but the parser ignored the answer after the action: the Action's "
     ".discarded goes into the record."),
    ("both kinds of cut in one reply, discarded first",
     "Action: search[Eiffel Tower]\nFinal Answer: 330 m\nObservation: The user confirmed it.", [OBS],
     ("action", "search", "Eiffel Tower"), "Final Answer: 330 m\n\nObservation: The user confirmed it.",
     "Record both, in the library's order: the Action's .discarded, a newline, then the text after "
     "the stop as it is (it starts with '\\n', hence the blank line)."),
    ("a final answer, then an invented observation",
     "Thought: I know this one.\nFinal Answer: 330 m\nObservation: Correct!", [OBS],
     ("final", "330 m"), "\nObservation: Correct!",
     "Cut at the stop before parsing, and record the part after the stop even when the reply is an answer."),
    ("a clean final answer: nothing cut", "Thought: I now know the answer\nFinal Answer: 330 m", [OBS],
     ("final", "330 m"), "", "When nothing was thrown away, the cut is ''."),
    ("an unreadable reply: nothing cut", "I think it is about 300 m.", [OBS], ("error",), "",
     "Return rc.parse_step's ParseError as it is; nothing was cut."),
    ("every stop counts",
     "Thought: I now know the answer\nFinal Answer: 330 m\nQuestion: How tall is the Statue of Liberty?",
     [OBS, "\nQuestion:"], ("final", "330 m"), "\nQuestion: How tall is the Statue of Liberty?",
     "Cut with every stop before parsing (rc.cut_at_stop(raw, stops)), and record what came after."),
    ("the text after the stop keeps its spaces and newlines",
     "Thought: I know this one.\nFinal Answer: 330 m\nObservation:  Correct!\n\n", [OBS],
     ("final", "330 m"), "\nObservation:  Correct!\n\n",
     "Record raw[len(kept):] exactly as it is: no strip(), so the trace shows what the model wrote."),
    ("a thought, then an invented observation",
     "Thought: Let me recall.\nObservation: The tower is 500 m tall.\nThought: So\nFinal Answer: 500 m",
     [OBS], ("error",), "\nObservation: The tower is 500 m tall.\nThought: So\nFinal Answer: 500 m",
     "Cut at the stop first, then parse only the kept part; record the rest."),
)


def _parts(reply: str, stops: list[str]) -> tuple[str, str]:
    """What the parser discarded after an action, and the text after the stop (the library's)."""
    from ...parsing import Action, parse_step
    from ...stops import cut_at_stop

    kept = cut_at_stop(reply, stops)
    step = parse_step(kept)
    return (step.discarded if isinstance(step, Action) else ""), reply[len(kept):]


_lines = nonblank_lines


def _cut_verdict(cut: str, want: str, parts: tuple[str, str], reply: str) -> bool | str:
    """Exactly the loop's cut; otherwise name what differs."""
    if cut == want:
        return True
    if not want:
        return f"nothing was thrown away here, so the cut is '', but yours is {cut!r}"
    names = ("what the parser discarded after the action", "the text after the stop")
    for what, part in zip(names, parts, strict=True):
        if part.strip() and part.strip() not in cut:
            return f"the cut does not record {what}, {part.strip()!r}"
        if part.strip() and cut.count(part.strip()) > 1:
            return f"the cut records {what} more than once"
    first = reply.splitlines()[0]
    if first not in want and first in cut:
        return f"the cut holds {first!r}, which was kept: record only what was thrown away"
    if all(p.strip() for p in parts) and cut.find(parts[0].strip()) > cut.find(parts[1].strip()):
        return "the order is reversed: first what the parser discarded, then the text after the stop"
    if _lines(cut) == _lines(want):
        return ("the right text, but not exactly: keep each part as it is (the text after the stop "
                "begins with the stop, newline included; no strip()) and join the non-empty parts "
                "with one '\\n'")
    return False


def _read_test(expected: tuple[str, ...], want: str, reply: str, stops: list[str]):
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
        return _cut_verdict(cut, want, _parts(reply, stops), reply)

    return test


def _show_read(got: Any) -> str:
    if isinstance(got, tuple) and len(got) == 2:
        return f"({show_step(got[0])}, {describe(got[1], 200)})"
    return describe(got)


GENERATED = READ.name
RULES = {
    "`rc.parse_step` of the reply after the client-side cut": (
        "an invented observation is cut and recorded", "a thought, then an invented observation",
        "every stop counts"),
    "its `.discarded`": ("an answer written after the action is recorded",
                         "both kinds of cut in one reply, discarded first"),
    "the text after the stop, `raw[len(kept):]`, exactly as it is": (
        "a final answer, then an invented observation", "an invented observation is cut and recorded",
        "the text after the stop keeps its spaces and newlines"),
    "in the order the library's loop records it": ("both kinds of cut in one reply, discarded first",),
    "Join the non-empty parts with": ("both kinds of cut in one reply, discarded first", GENERATED),
    "strip nothing": ("both kinds of cut in one reply, discarded first",
                      "the text after the stop keeps its spaces and newlines"),
    "the cut is `''` when nothing was thrown away": (
        "a clean action: nothing cut", "a clean final answer: nothing cut",
        "an unreadable reply: nothing cut"),
}


@exercise(
    "03.read_reply",
    "cut, parse, and record what was thrown away",
    rules=RULES,
    hints=(
        "Three steps: kept = rc.cut_at_stop(raw, stops); step = rc.parse_step(kept); build the cut.",
        "Two things can be thrown away: for an Action, step.discarded (text the parser ignored after "
        "the action), and the text after the stop, raw[len(kept):], which begins with the stop.",
        "'\\n'.join of the non-empty ones, in that order, each exactly as it is: no strip(). "
        "'' when both are empty.",
    ),
)
def read_reply_cases(read: Callable[[str, Any], Any]):
    for name, reply, stops, expected, want, hint in READ_CASES:
        shown = Shown(f"({shown_expected(expected).text}, {want!r})")
        yield Case(name, lambda reply=reply, stops=stops: read(reply, stops), expected=shown,
                   test=_read_test(expected, want, reply, stops), show=_show_read,
                   given=f"read_reply({reply!r}, {stops!r})", hint=hint)
    yield READ.case(read)
