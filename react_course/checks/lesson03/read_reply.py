"""03.read_reply as a spec: cut, parse, and keep everything the program threw away.

Two things can be thrown away: what the parser ignored after an action
(``Action.discarded``) and the text after the stop. The cut is what the library's
loop records in ``step.cut`` (``loop.read_reply``): those two, in that order, each
as it is, the non-empty ones joined with a newline. The key is built from the
library's ``cut_at_stop`` and ``parse_step`` (the loop's own ``read_reply`` also cuts
end-of-turn markers and reasoning, which this exercise leaves out); the tests hold
every example's cut to the loop's.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ...parsing import Action, parse_step
from ...stops import cut_at_stop
from ..generated import Draw
from ..plain import Opaque
from ..spec import GENERATED, Example, Fault, Rule, Spec, define
from ..values import describe, nonblank_lines
from . import parse_step as parsing
from .replies import INVENTED, KEPT, OBS, STOPS, any_reply, any_stops, show_step, step_value


def _discarded(step: Any) -> str:
    return step.discarded if isinstance(step, Action) else ""


def key(raw: str, stops: Sequence[str]) -> tuple[Any, str]:
    kept = cut_at_stop(raw, stops)
    step = parse_step(kept)
    discarded = step.discarded if isinstance(step, Action) else ""
    return step, "\n".join(part for part in (discarded, raw[len(kept):]) if part)


def parts(raw: str, stops: Sequence[str]) -> tuple[str, str]:
    """What the parser discarded after an action, and the text after the stop."""
    kept = cut_at_stop(raw, stops)
    step = parse_step(kept)
    return (step.discarded if isinstance(step, Action) else ""), raw[len(kept):]


def observe(function: Callable[..., Any], args: tuple) -> Any:
    got = function(*args)
    if not (isinstance(got, tuple) and len(got) == 2):
        return Opaque(f"{describe(got)}, not a pair (step, cut)")
    return step_value(got[0]), got[1] if isinstance(got[1], str) else Opaque(describe(got[1]))


def compare(args: tuple, want: tuple, got: Any) -> bool | str:
    if isinstance(got, Opaque) or not isinstance(got, tuple):
        return "return a pair: (the parsed step, the text that was cut)"
    verdict = parsing.compare(args[:1], want[0], got[0])
    if verdict is not True:
        return f"the step: {verdict}"
    if isinstance(got[1], Opaque):
        return f"the cut is text (a str, '' when nothing was cut), not {got[1]}"
    return got[1] == want[1] or f"the cut should be {want[1]!r}"


def _show(value: Any) -> str:
    return f"({show_step(value[0])}, {value[1]!r})" if isinstance(value, tuple) else str(value)


def _both(args: tuple) -> bool:
    return all(p.strip() for p in parts(*args))


def _cut_of(got: Any) -> str:
    return got[1] if isinstance(got, tuple) and isinstance(got[1], str) else ""


ORDER = "in the order the library's loop records it"
CLIENT_CUT = "`rc.parse_step` of the reply after the client-side cut"
FAULTS = (
    Fault(CLIENT_CUT, "Cut at the stop first (kept = rc.cut_at_stop(raw, stops)), then parse only the kept "
          "part, and record the text after the stop.",
          found=lambda args, want, got: _cut_of(got) == _discarded(parse_step(args[0])) != want[1]),
    Fault(CLIENT_CUT, "Cut with every stop, at the earliest one that occurs: rc.cut_at_stop(raw, stops).",
          like=lambda raw, stops: key(raw, stops[:1])),
    Fault("the cut is `''` when nothing was thrown away",
        "When nothing was thrown away, the cut is '' (a str), "
          "not None.", found=lambda args, want, got: want[1] == "" and isinstance(got, tuple)
              and got[1] != ""),
    Fault(CLIENT_CUT, "Cut at the stop first (kept = rc.cut_at_stop(raw, stops)), then parse only the "
          "kept part.", found=lambda args, want, got: got[0] == step_value(parse_step(args[0])) != want[0]),
    Fault(ORDER, "The order is reversed: first what the parser discarded, then the text after the stop.",
          found=lambda args, want, got: _both(args) and _cut_of(got) == "\n".join(reversed(parts(*args)))),
    Fault("its `.discarded`", "The parser ignored text after the action: the Action's .discarded goes into "
          "the record.", found=lambda args, want, got: bool(parts(*args)[0].strip())
          and parts(*args)[0].strip() not in _cut_of(got)),
    Fault("strip nothing", "Keep each part as it is (the text after the stop begins with the stop, newline "
          "included): no strip().",
          found=lambda args, want, got: nonblank_lines(_cut_of(got)) == nonblank_lines(want[1]) != []
          and "".join(_cut_of(got).split()) == "".join(want[1].split())),
    Fault("Join the non-empty parts with", "Join the non-empty parts with one '\\n', in that order.",
          found=lambda args, want, got: _both(args) and _cut_of(got) in ("".join(parts(*args)),
              *parts(*args))),
    Fault("the text after the stop, `raw[len(kept):]`, exactly as it is", "The text after the stop, "
          "raw[len(kept):], goes into the record as it is.",
          found=lambda args, want, got: bool(parts(*args)[1].strip()) and parts(*args)[1].strip()
          not in _cut_of(got)),
)
EXAMPLES = (
    Example('a clean action: nothing cut',
            (KEPT, [OBS]),
            "When nothing was thrown away, the cut is ''."),
    Example('an invented observation is cut and recorded',
            (INVENTED, [OBS]),
            'Cut at the stop first (kept = rc.cut_at_stop(raw, stops)); the text after it, '
            "raw[len(kept):], goes into the record as it is, starting with the stop's newline."),
    Example('an answer written after the action is recorded',
            ('Thought: I will check.\nAction: search[Eiffel Tower]\nFinal Answer: 330 m', [OBS]),
            "No stop occurs here, but the parser ignored the answer after the action: the Action's "
            '.discarded goes into the record.'),
    Example('both kinds of cut in one reply, discarded first',
            ('Action: search[Eiffel Tower]\nFinal Answer: 330 m\nObservation: The user confirmed it.', [OBS]),
            "Record both, in the library's order: the Action's .discarded, a newline, then the text "
            "after the stop as it is (it starts with '\\n', hence the blank line)."),
    Example('a final answer, then an invented observation',
            ('Thought: I know this one.\nFinal Answer: 330 m\nObservation: Correct!', [OBS]),
            'Cut at the stop before parsing, and record the part after the stop even when the reply is '
            'an answer.'),
    Example('a clean final answer: nothing cut',
            ('Thought: I now know the answer\nFinal Answer: 330 m', [OBS]),
            "When nothing was thrown away, the cut is ''."),
    Example('an unreadable reply: nothing cut',
            ('I think it is about 300 m.', [OBS]),
            "Return rc.parse_step's ParseError as it is; nothing was cut."),
    Example('every stop counts',
            ('Thought: I now know the answer\nFinal Answer: 330 m\nQuestion: How tall is the Statue of '
             'Liberty?', [OBS, '\nQuestion:']),
            'Cut with every stop before parsing (rc.cut_at_stop(raw, stops)), and record what came '
            'after.'),
    Example('the text after the stop keeps its spaces and newlines',
            ('Thought: I know this one.\nFinal Answer: 330 m\nObservation:  Correct!\n\n', [OBS]),
            'Record raw[len(kept):] exactly as it is: no strip(), so the trace shows what the model '
            'wrote.'),
    Example('a thought, then an invented observation',
            ('Thought: Let me recall.\nObservation: The tower is 500 m tall.\nThought: So\n'
             'Final Answer: 500 m', [OBS]),
            'Cut at the stop first, then parse only the kept part; record the rest.'),
)
RULES = (
    Rule(CLIENT_CUT, (
        "an invented observation is cut and recorded", "a thought, then an invented observation",
        "every stop counts"), edge=lambda a: step_value(parse_step(a[0])) != step_value(key(*a)[0])),
    Rule("its `.discarded`", ("an answer written after the action is recorded",
                              "both kinds of cut in one reply, discarded first"),
         edge=lambda a: bool(parts(*a)[0])),
    Rule("the text after the stop, `raw[len(kept):]`, exactly as it is", (
        "a final answer, then an invented observation", "an invented observation is cut and recorded",
        "the text after the stop keeps its spaces and newlines"), edge=lambda a: bool(parts(*a)[1])),
    Rule(ORDER, ("both kinds of cut in one reply, discarded first",), edge=_both),
    Rule("Join the non-empty parts with", ("both kinds of cut in one reply, discarded first", GENERATED),
         edge=_both),
    Rule("strip nothing", ("both kinds of cut in one reply, discarded first",
                           "the text after the stop keeps its spaces and newlines"),
         edge=lambda a: any(p != p.strip() for p in parts(*a) if p)),
    Rule("the cut is `''` when nothing was thrown away", (
        "a clean action: nothing cut", "a clean final answer: nothing cut",
            "an unreadable reply: nothing cut"),
        edge=lambda a: not key(*a)[1]),
)


def _inputs(draw: Draw) -> tuple:
    return any_reply(draw), any_stops(draw, STOPS[:5], 3)


SPEC = define(Spec(
    "03.read_reply", "cut, parse, and record what was thrown away", "read_reply", key, EXAMPLES, _inputs,
    RULES, faults=FAULTS, observe=observe, compare=compare, show_value=_show,
    hints=(
        "Three steps: kept = rc.cut_at_stop(raw, stops); step = rc.parse_step(kept); build the cut.",
        "Two things can be thrown away: for an Action, step.discarded (text the parser ignored after "
        "the action), and the text after the stop, raw[len(kept):], which begins with the stop.",
        "'\\n'.join of the non-empty ones, in that order, each exactly as it is: no strip(). "
        "'' when both are empty.",
    ),
    generated_hint="Cut, parse what is left, then join the parser's discarded text and the text after the "
                   "stop (the non-empty ones, in that order) with a newline, stripping nothing."))
__all__ = ["SPEC"]
