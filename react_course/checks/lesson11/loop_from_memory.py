"""11.loop_from_memory as a spec: ``run(question, model, tools, max_steps=6)`` on hostile scripts.

The arguments are plain data: the model's replies in turn, ``max_steps`` (``None``:
the call leaves it out, so the default is used) and whether the model ignores the
stop. ``hostile.watch`` runs the loop on that script and returns what it did: the
returned pair (a hand-over read by its start), the model calls, the tools run, the
first prompt, the stops sent, what followed each reply in the history, and whether
a model's invented observation reached a prompt. A loop without a limit is ended by
a count of calls, never by a clock. How the code is written is never looked at.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import partial
from typing import Any

from ...parsing import Action, FinalAnswer, ParseError, parse_step
from ...stops import cut_at_stop
from ..plain import Raised
from ..predicates import error_saying
from ..spec import GENERATED, Example, Fault, Rule, Spec, define
from .hostile import (
    ANSWER,
    ASK_NOTEBOOK,
    ASK_PEN,
    ASK_RULER,
    MENTIONS_OBSERVATION,
    NOT_KEPT,
    NOT_THE_REPLY,
    POOL,
    STOP,
    UNKNOWN,
    UNREADABLE,
    WRITES_OWN,
    first_prompt,
    scripts,
    watch,
)


def _observe(tools: dict[str, Callable[[str], str]], tool: str, text: str) -> str:
    if tool not in tools:
        return f"Unknown tool {tool!r}. Available tools: {', '.join(tools)}."
    try:
        return str(tools[tool](text))
    except Exception as error:  # the tool failed: the model reads why and tries something else
        return f"Error from {tool}: {type(error).__name__}: {error}"


def key(question: str, model: Callable[..., str], tools: dict[str, Callable[[str], str]], max_steps: int = 6,
        *, cut_at: str = STOP[0], whole: bool = True, cache: bool = False) -> tuple[str, str]:
    """The answer key: the loop from memory, as the statement defines it.

    The keywords change one habit, to recognise a loop that has it (a fault's ``like``): a cut
    elsewhere, a parse error's first line only, a cache of results.
    """
    history, seen = first_prompt(question, tools), {}
    for _ in range(max_steps):
        reply = model(history, STOP).split(cut_at)[0]
        step = parse_step(reply)
        if isinstance(step, FinalAnswer):
            return step.answer, "final_answer"
        if isinstance(step, ParseError):
            observation = step.message if whole else step.message.splitlines()[0]
        else:
            known = cache and (step.tool, step.input) in seen
            observation = seen[step.tool, step.input] if known else _observe(tools, step.tool, step.input)
            seen[step.tool, step.input] = observation
        history += f"\n{reply}\nObservation: {observation}"
    return f"Could not finish within {max_steps} steps.", "step_limit"


def _seen(args: tuple) -> list[Any]:
    """The steps the key reads on ``args``: the script's replies up to its answer or its limit."""
    steps = []
    for reply in args[0][: 6 if args[1] is None else args[1]]:
        steps.append(parse_step(cut_at_stop(reply, STOP)))
        if isinstance(steps[-1], FinalAnswer):
            break
    return steps


def _answers(args: tuple) -> bool:
    return any(isinstance(step, FinalAnswer) for step in _seen(args))


def _actions(args: tuple) -> list[tuple[str, str]]:
    return [(s.tool, s.input) for s in _seen(args) if isinstance(s, Action)]


def _field(name: str, holds: Callable[[Any, Any], bool]) -> Callable[[tuple, Any, Any], bool]:
    return lambda args, want, got: isinstance(got, dict) and holds(want[name], got[name])


def _kind(kind: str) -> Callable[[tuple, Any, Any], bool]:
    return _field("after each reply", lambda want, got: kind in got and kind not in want)


START = "Start the history with `first_prompt(question, tools)`"
STOPS = "call `model(history, STOP)` with the stop sequence on every call"
CUT = "cut the reply yourself at the first `\"\\nObservation\"`"
APPEND = "append it, then `\"\\nObservation: \"` and the observation your program wrote"
UNKNOWN_TOOL = "an unknown tool name becomes an observation that names the tools you have"
PARSE = "a reply that cannot be read becomes the parse error's message"
RAISES = "a tool that raises becomes an observation with the error"
EVERY = "every model call is a step, whatever the reply"
AT_MOST = "make at most `max_steps` model calls"
FINAL = "return `(answer, \"final_answer\")` as soon as a reply is a final answer"
LIMIT = "return `(hand-over text, \"step_limit\")`, the text starting with `\"Could not finish\"`"
ONCE = "each action runs its tool once, even one asked before"


def _more_calls_after_bad_replies(args: tuple, want: Any, got: Any) -> bool:
    return isinstance(got, dict) and got["model calls"] > want["model calls"] and any(
        not isinstance(s, Action) or s.tool not in ("price", "calculate") for s in _seen(args))


def _stopped_after(bad: Callable[[Any], bool]) -> Callable[[tuple, Any, Any], bool]:
    """Did the loop stop early, right after a step that ``bad`` recognises?"""
    def found(args: tuple, want: Any, got: Any) -> bool:
        calls, seen = got["model calls"], _seen(args)
        return 0 < calls < want["model calls"] and calls <= len(seen) and bad(seen[calls - 1])
    return found


FAULTS = (
    Fault(RAISES, "price raised (the shop sells no such item) and your loop let the error out: wrap the tool "
          "call in try/except Exception and make the error's text the observation.",
          found=lambda args, want, got: error_saying(got, "NoSuchItem")),
    Fault(UNKNOWN_TOOL, "A KeyError: was an unknown tool name looked up in tools? Check `step.tool in tools` "
          "first, and make 'Unknown tool ...' with the tools you have the observation.",
          found=lambda args, want, got: error_saying(got, "KeyError")),
    Fault(PARSE, "rc.parse_step gave an rc.ParseError (it has .message, not .tool): make step.message the "
          "observation and go on.", found=lambda args, want, got: error_saying(got, "ParseError")),
    Fault(AT_MOST, "Keep the signature run(question, model, tools, max_steps=6): the check passes max_steps "
          "by name.", found=lambda args, want, got: error_saying(got, "TypeError", "max_steps")),
    Fault(AT_MOST, "Your loop never stopped calling the model: for _ in range(max_steps), one call per step.",
          found=lambda args, want, got: error_saying(got, "CallBudgetExceeded")),
    Fault(START, "The first prompt is first_prompt(question, tools) itself, and every later prompt starts "
          "with the one before: keep one history and add to it.",
          found=lambda args, want, got: _field("first prompt", lambda w, g: None is not w != g is not None)(
              args, want, got) or _kind(NOT_KEPT)(args, want, got)),
    Fault(STOPS, "Send STOP itself, ['\\nObservation'] with its line break, on every call.",
          found=_field("stops sent", lambda want, got: [] != want != got != [])),
    Fault(CUT, "Cut at '\\nObservation' before you parse the reply and before you append it.",
          found=_field("an invented observation reached a prompt", lambda want, got: got and not want)),
    Fault(CUT, "Cut at '\\nObservation', the line break included (a thought may say the word), and keep "
          "everything before it as it is.", like=partial(key, cut_at="Observation")),
    Fault(PARSE, "The observation is step.message, all its lines.", like=partial(key, whole=False)),
    Fault(PARSE, "The observation is step.message, all its lines.",
          found=_kind("a parse error, in other words")),
    Fault(APPEND, "history += '\\n' + reply + '\\nObservation: ' + observation, the reply as cut.",
          found=_kind(NOT_THE_REPLY)),
    Fault(UNKNOWN_TOOL, "For a tool that is not in tools, write an observation that names every tool you "
          "have.",
          found=_kind("an unknown tool: not every tool named")),
    Fault(RAISES, "When the tool raises, the observation holds the error's text.",
          found=_kind("a tool's error, text lost")),
    Fault(PARSE, "A reply that cannot be read is no reason to stop: its parse error is the observation, and "
          "the loop goes on.", found=_stopped_after(lambda step: isinstance(step, ParseError))),
    Fault(UNKNOWN_TOOL, "An unknown tool is no reason to stop: the observation names the tools you have, and "
          "the loop goes on.", found=_stopped_after(lambda s: isinstance(s, Action) and s.tool not in (
              "price", "calculate"))),
    Fault(EVERY, "Count model calls, not tool calls: a reply that cannot be read or names no tool is a step.",
          found=_more_calls_after_bad_replies),
    Fault(AT_MOST, "for _ in range(max_steps): read every reply up to the limit, and no more.",
          found=_field("model calls", lambda want, got: want != got)),
    Fault(ONCE, "Run the tool for every action, even one asked before: no cache of results.",
          like=partial(key, cache=True)),
    Fault(ONCE, "Run the tool for every action, even one asked before: no cache of results.",
          found=_field("tools run", lambda want, got: want != got)),
    Fault(FINAL, "Return the pair (step.answer, 'final_answer') at once.",
          found=lambda args, want, got: isinstance(got, dict) and want["returned"][1] == "final_answer"
          and got["returned"] != want["returned"]),
    Fault(LIMIT, "At the step limit return the pair (a text starting 'Could not finish', 'step_limit').",
          found=_field("returned", lambda want, got: want != got)),
)


def _example(name: str, replies: list[str], hint: str, max_steps: int | None = None,
             ignore_stops: bool = False) -> Example:
    return Example(name, (tuple(replies), max_steps, ignore_stops), hint)


EXAMPLES = (
    _example("a final answer ends the run at once", [ASK_NOTEBOOK, ANSWER],
             "When rc.parse_step gives an rc.FinalAnswer, return (step.answer, 'final_answer')."),
    _example("an answer on the last allowed step counts", [ASK_NOTEBOOK, ASK_PEN, ANSWER],
             "Read every reply before giving up: range(max_steps), not range(max_steps - 1).", 3),
    _example("a model that never answers: exactly max_steps calls", [],
             "After max_steps calls return ('Could not finish ...', 'step_limit').", 3),
    _example("the default limit is 6 steps", [],
             "Keep the signature run(question, model, tools, max_steps=6)."),
    _example("unreadable replies count as steps", [UNREADABLE] * 3,
             "Count model calls, not tool calls: a reply that cannot be read is a step too.", 3),
    _example("unknown tools count as steps", [UNKNOWN] * 3,
             "Count model calls, not tool calls: an action naming no tool is a step too.", 3),
    _example("the first prompt is first_prompt(question, tools)", [ANSWER],
             "history = first_prompt(question, tools); send it as it is on the first call."),
    _example("a thought that says the word Observation is not cut", [MENTIONS_OBSERVATION, ANSWER],
             "Cut at '\\nObservation', the line break included: a thought may say the word."),
    _example("every call sends the stop sequence", [ASK_NOTEBOOK, ASK_PEN, ANSWER],
             "Call model(history, STOP) on every step."),
    _example("each reply and its observation are in the next prompt", [ASK_NOTEBOOK, ASK_PEN, ANSWER],
             "history += '\\n' + reply + '\\nObservation: ' + observation, every step."),
    _example("a model that ignores the stop: its own observation never reaches a prompt",
             [WRITES_OWN, ANSWER],
             "Cut the reply at the first '\\nObservation' yourself, before you parse it and append it.",
             ignore_stops=True),
    _example("an unknown tool: an observation naming the real tools, and the loop goes on", [UNKNOWN, ANSWER],
             "if step.tool not in tools: observation = f'Unknown tool ... Available tools: "
             "{\", \".join(tools)}'"),
    _example("an unreadable reply: the parse error is the observation, and the loop goes on",
             [UNREADABLE, ANSWER], "For an rc.ParseError, observation = step.message; append it and go on."),
    _example("a tool that raises: its error is the observation, and the loop goes on", [ASK_RULER, ANSWER],
             "try: observation = tools[step.tool](step.input) except Exception as error: "
             "observation = f'Error: {error}'"),
    _example("an action asked twice runs its tool twice", [ASK_PEN, ASK_PEN, ANSWER],
             "Run the tool for every action: the shop's prices may have changed."),
)

RULES = (
    Rule(START, ("the first prompt is first_prompt(question, tools)", "each reply and its observation are in "
                 "the next prompt", GENERATED), edge=lambda a: len(_seen(a)) == 1 and _answers(a)),
    Rule(STOPS, ("every call sends the stop sequence", GENERATED), edge=lambda a: a[2] and len(_seen(a)) > 1),
    Rule(CUT, ("a model that ignores the stop: its own observation never reaches a prompt",
               "a thought that says the word Observation is not cut", GENERATED),
         edge=lambda a: a[2] and any(WRITES_OWN == r for r in a[0][: len(_seen(a))])),
    Rule(APPEND, ("each reply and its observation are in the next prompt", GENERATED),
         edge=lambda a: len(_actions(a)) >= 2),
    Rule(UNKNOWN_TOOL, ("an unknown tool: an observation naming the real tools, and the loop goes on",
                        GENERATED),
         edge=lambda a: any(tool not in ("price", "calculate") for tool, _ in _actions(a))),
    Rule(PARSE, ("an unreadable reply: the parse error is the observation, and the loop goes on", GENERATED),
         edge=lambda a: any(isinstance(s, ParseError) for s in _seen(a))),
    Rule(RAISES, ("a tool that raises: its error is the observation, and the loop goes on", GENERATED),
         edge=lambda a: ("price", "ruler") in _actions(a)),
    Rule(EVERY, ("unreadable replies count as steps", "unknown tools count as steps"),
         edge=lambda a: not _answers(a) and len(_actions(a)) < len(_seen(a))),
    Rule(AT_MOST, ("a model that never answers: exactly max_steps calls", "the default limit is 6 steps",
                   "an answer on the last allowed step counts", GENERATED), edge=lambda a: a[1] == 0),
    Rule(FINAL, ("a final answer ends the run at once", "an answer on the last allowed step counts",
                 GENERATED),
         edge=lambda a: _answers(a) and len(_seen(a)) == (6 if a[1] is None else a[1])),
    Rule(LIMIT, ("a model that never answers: exactly max_steps calls", GENERATED),
         edge=lambda a: not _answers(a) and a[1] is None),
    Rule(ONCE, ("an action asked twice runs its tool twice", GENERATED),
         edge=lambda a: len(set(_actions(a))) < len(_actions(a))),
)

def _hidden() -> tuple[Example, ...]:
    rng = random.Random(1111)
    return tuple(_example(f"hidden script {n + 1}", rng.choices(POOL, k=rng.randint(2, 7)),
                          "Replay the script by hand and compare each prompt with the rules.",
                          rng.choice((None, 2, 4)), rng.random() < 0.5) for n in range(5))


def _show(args: tuple) -> str:
    replies, max_steps, ignore_stops = args
    limit = "" if max_steps is None else f", max_steps={max_steps}"
    stops = "ignores the stop" if ignore_stops else "honours the stop"
    said = " | ".join(repr(reply) for reply in replies) or "(only spare actions)"
    return f"run(question, model, tools{limit}), a model that {stops}, replying in turn: {said}"


def _compare(args: tuple, want: Any, got: Any) -> bool | str:
    if got == want and type(got) is type(want):
        return True
    if not isinstance(got, dict):
        return f"your loop {got}" if isinstance(got, Raised) else f"got {got!r}"
    field = next(name for name in want if got[name] != want[name])
    return f"{field}: {got[field]!r}, expected {want[field]!r}"


SPEC = define(Spec(
    "11.loop_from_memory", "the loop from memory", "run", key, EXAMPLES, scripts, RULES, faults=FAULTS,
    hidden=_hidden(), observe=lambda loop, args: watch(loop, *args), compare=_compare, show=_show,
    count=60, seed=11, time_limit=60.0,
    hints=(
        "for _ in range(max_steps): reply = cut(model(history, STOP)); step = rc.parse_step(reply) "
        "... after the loop: return 'Could not finish ...', 'step_limit'.",
        "Cut with reply.split('\\nObservation')[0] (or rc.cut_at_stop(reply, STOP)) before parsing "
        "and before appending: the model's own observation must never reach the history.",
        "Three kinds of bad step become observations: step.message for rc.ParseError; "
        "'Unknown tool ... Available tools: ...' for a name not in tools; the error's text when "
        "the tool raises (try/except Exception).",
    ),
    generated_hint="Replay the script shown by hand with rc.ScriptedModel(replies, ignore_stops=...) and "
                   "compare each prompt with the rules."))
__all__ = ["SPEC", "key"]
