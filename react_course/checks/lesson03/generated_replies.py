"""Lesson 03's answer keys, and the generated replies and stops their checkers compare on.

Replies are built from the statement's own pieces: keyword lines in both formats,
numbered, in any case, with extra spaces or markdown bold; inputs on the same
line, on the next, or over several lines; brackets inside brackets; invented
observations and answers after an action; junk and blank lines. Left out, because
the statement does not settle them: an unclosed bracket, a tool name that is not
ASCII letters, digits and ``_``, and spaces at the ends of an input.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ...models import ScriptedModel
from ...parsing import Action, FinalAnswer, parse_step
from ...stops import cut_at_stop
from ..generated import Comparison, Draw, call_text, register, same_value
from .common import expect_step

STOPS = ("\nObservation", "\nQuestion:", "<|end|>", "Observation", "\n**Observation:**", "", "a|b",
         "\nobservation", "User:", "Ж")


def cut_key(text: str, stops: Sequence[str] | None) -> str:
    """The answer key: the text before the earliest non-empty stop, else the whole text."""
    positions = [text.find(stop) for stop in stops or () if stop and stop in text]
    return text[: min(positions)] if positions else text


KEYWORDS = ("Thought", "Action", "Action Input", "Final Answer", "Observation")


def _keyword(draw: Draw, word: str) -> str:
    """A keyword line's start as models write it: numbered, any case, spaced, or in bold."""
    word = draw.pick((word, word.lower(), word.upper()))
    number = draw.pick(("", " 2", " 12"))
    return draw.pick((f"{word}{number}: ", f"{word}{number} :  ", f"**{word}{number}:** "))


INPUTS = ("Eiffel Tower", "Tour Eiffel [Paris]", '{"item": "pen", "count": 2}', "東京", "330 - 93",
          "line one\n\nline three")
TOOLS = ("search", "Search", "price", "calculate", "finish", "Finish")


def _action(draw: Draw) -> list[str]:
    tool, given = draw.pick(TOOLS), draw.pick(INPUTS)
    form = draw.below(3)
    if form == 0:
        return [f"{_keyword(draw, 'Action')}{tool}[{given}]" + draw.pick(("", " to find its height"))]
    if form == 1:
        return [f"{_keyword(draw, 'Action')}{tool}",
                _keyword(draw, "Action Input") + draw.pick(("", "\n")) + given]
    return [f"{_keyword(draw, 'Action')}{tool}"]  # no input: a ParseError


def _segment(draw: Draw) -> list[str]:
    kind = draw.below(6)
    if kind in (0, 1):
        return _action(draw)
    if kind == 2:
        return [_keyword(draw, "Thought") + draw.pick(("I need the height.", "Observation: is a word."))]
    if kind == 3:
        return [_keyword(draw, "Final Answer") + draw.pick(("330 m", "", "- 16\n- 12", "Zürich ✓"))]
    if kind == 4:
        return [_keyword(draw, "Observation") + "500 m"]
    return [draw.pick(("I think it is 330 m.", "", "Observations so far: none", "Action Input: 5"))]


def any_reply(draw: Draw) -> str:
    return "\n".join(line for _ in range(draw.below(5)) for line in _segment(draw))


def _as_expected(step: Any) -> tuple[str, ...]:
    if isinstance(step, Action):
        return ("action", step.tool, step.input)
    if isinstance(step, FinalAnswer):
        return ("final", step.answer)
    return ("error",)


def parse_key(text: str) -> tuple[str, ...]:
    """The answer key, as what the check compares: the library's parser, which the lesson teaches."""
    return _as_expected(parse_step(text))


def _stops(draw: Draw) -> Any:
    stops = draw.many(lambda d: d.pick(STOPS), 6)
    return draw.pick((stops, tuple(stops), None if not stops else stops))


CUT = register(Comparison(
    "03.cut_at_stop", cut_key, lambda draw: (any_reply(draw), _stops(draw)),
    lambda args, expected, got: same_value(expected, got), call_text("cut_at_stop"),
    hint="Find every non-empty stop with text.find, exactly as given, and cut at the smallest "
         "position; no stop found, no cut; never strip."))


PARSE = register(Comparison(
    "03.parse_step", parse_key, lambda draw: (any_reply(draw),),
    lambda args, expected, got: expect_step(expected)(got), call_text("parse_step"),
    hint="The first Action or Final Answer line decides; read both formats in every variant the "
         "statement lists; anything else becomes a ParseError that shows the format."))


def call_key(reply: str, stops: Sequence[str], ignores: bool) -> tuple[Any, str]:
    """What the model is sent, and what comes back, for the answer key."""
    model = ScriptedModel([reply], ignore_stops=ignores)
    kept = cut_at_stop(model("prompt", stop=list(stops)[:4] or None), stops)
    return model.calls[0].stop, kept


def _call_student(student: Callable, args: tuple) -> tuple[Any, str]:
    reply, stops, ignores = args
    model = ScriptedModel([reply], ignore_stops=ignores)
    got = student(model, "prompt", stops)
    sent = [call.stop for call in model.calls]
    return (sent[0] if len(sent) == 1 else f"{len(sent)} model calls"), got


CALL = register(Comparison(
    "03.call_with_stops", call_key,
    lambda draw: (any_reply(draw), draw.pick((list, tuple))(draw.many(lambda d: d.pick(STOPS[:5]), 7)),
                  draw.boolean()),
    lambda args, expected, got: same_value(expected, got) or (
        "the model was sent other stops" if expected[0] != got[0] else "the reply came back cut otherwise"),
    lambda args: (f"call_with_stops(model, 'prompt', {args[1]!r}) with a model that "
                  f"{'ignores' if args[2] else 'honours'} stops and replies {args[0]!r}"),
    call=_call_student,
    hint="One call with the first four stops as a list (None when there are none), then a cut of the "
         "reply with every stop, exactly as it is."))


def read_key(raw: str, stops: Sequence[str]) -> tuple[tuple[str, ...], str]:
    kept = cut_at_stop(raw, stops)
    step = parse_step(kept)
    discarded = step.discarded if isinstance(step, Action) else ""
    return _as_expected(step), "\n".join(part for part in (discarded, raw[len(kept):]) if part)


def _read_compare(args: tuple, expected: tuple, got: Any) -> bool | str:
    if not (isinstance(got, tuple) and len(got) == 2):
        return "return a pair: (the parsed step, the text that was cut)"
    verdict = expect_step(expected[0])(got[0])
    if verdict is not True:
        return f"the step: {verdict}"
    return got[1] == expected[1] or f"the cut should be {expected[1]!r}"


READ = register(Comparison(
    "03.read_reply", read_key, lambda draw: (any_reply(draw), draw.many(lambda d: d.pick(STOPS[:5]), 3)),
    _read_compare, call_text("read_reply"),
    hint="Cut, parse what is left, then join the parser's discarded text and the text after the stop "
         "(the non-empty ones, in that order) with a newline, stripping nothing."))
