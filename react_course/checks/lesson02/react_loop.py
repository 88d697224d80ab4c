"""02.react_loop as a spec: the loop with its step limit, ``react_loop(question, model, tools)``.

The arguments are plain data: one run or two in a row, each ``[question, the model's
replies (or "the course's demo model"), max_steps]`` (``None``: the default). ``observe``
hands the loop tools that log their calls and a ``GuardedModel`` that raises
``CallBudgetExceeded`` on the call after the limit, so a loop without a limit fails on
a count, never on a clock. The script is padded with actions, so it never runs out
first. What is compared, per run, is what the run did: the answer (a hand-over by its
start, "Could not finish"), the number of model calls, the calls sent without
``STOP``, the first prompt, what each later prompt added (the reply, as written or
rendered anew, then its observation), and the tools that ran.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...parsing import Action, FinalAnswer, ParseError, parse_step
from ...prompts import build_prompt
from ..generated import Draw
from ..lesson03.replies import any_reply
from ..plain import Raised
from ..spec import GENERATED, Example, Fault, Rule, Spec, define
from .common import (
    ADD_UP,
    ANSWER,
    ASK_NOTEBOOK,
    ASK_PEN,
    QUESTION,
    STOP,
    UNREADABLE,
)
from .loop_runs import DEMO, HANDED_OVER
from .loop_runs import run_loop as _run
from .one_step import key as one_step


def key(question: str, model: Callable, tools: Any, max_steps: int = 5) -> str:
    """The answer key: at most max_steps calls, each a step of 2.2; then a hand-over."""
    history = build_prompt(question, tools.describe(), tools.names)
    for _ in range(max_steps):
        history, answer = one_step(history, model, tools)
        if answer is not None:
            return answer
    return f"Could not finish within {max_steps} steps. Hand this to a person: {question}"


def observe(loop: Callable[..., Any], args: tuple) -> list[dict[str, Any]]:
    return [_run(loop, *run) for run in args[0]]


def compare(args: tuple, want: list, got: Any) -> bool | str:
    if got == want:
        return True
    number, mine, yours = next((n, w, g) for n, (w, g) in enumerate(zip(want, got, strict=True), 1) if w != g)
    field = next(name for name in mine if yours[name] != mine[name])
    run = f"run {number}: " if len(want) > 1 else ""
    return f"{run}{field}: {yours[field]!r}, expected {mine[field]!r}"


def _budget(args: tuple, got: list) -> list[tuple[list, dict]]:
    """The runs the guard stopped, with their arguments."""
    return [(run, seen) for run, seen in zip(args[0], got, strict=True)
            if isinstance(seen["answer"], Raised) and "more than" in seen["answer"]]


def _readable_actions(run: list) -> bool:
    steps = [parse_step(reply) for reply in run[1][:_limit(run)]] if run[1] != DEMO else []
    return all(isinstance(s, Action) and s.tool in ("price", "calculate") for s in steps)


def _any(test: Callable[[list, dict, dict], bool]) -> Callable[[tuple, Any, Any], bool]:
    return lambda args, want, got: any(test(run, w, g) for run, w, g in zip(args[0], want, got, strict=True))


START = "start the history with `rc.build_prompt(question, tools.describe(), tools.names)`"
GIVEN = "use only the `model` and `tools` your function is given"
STEPS = "take steps as in exercise 2.2"
AT_MOST = "at most `max_steps` times"
EVERY = "every call counts as a step, whatever the reply"
WITH_STOP = "always with `STOP`"
APPEND = "append each reply and then its observation to the history"
ANSWERED = "return the answer's text as soon as a reply is a final answer"
HAND_OVER = 'return a hand-over text that starts with `"Could not finish"`'
NEVER_NONE = "Never `None`."
DEFAULT = "`react_loop(question, model, tools, max_steps=5)`"
FAULTS = (
    Fault(DEFAULT, "The limit is the keyword argument max_steps: react_loop(question, model, tools, "
          "max_steps=5).",
          found=_any(lambda run, w, g: isinstance(g["answer"], Raised) and "max_steps" in g["answer"])),
    Fault(DEFAULT,
          "Keep the signature react_loop(question, model, tools, max_steps=5): the default limit is 5.",
          found=lambda args, want, got: any(run[2] is None for run, _ in _budget(args, got))),
    Fault(AT_MOST, "Call the model once per step (each call is a step), and append the reply and its "
          "observation before the next call.",
          found=lambda args, want, got: any("same prompt" in seen["answer"]
                                            for _, seen in _budget(args, got))),
    Fault(AT_MOST, "Loop with for _ in range(max_steps): one model call per turn, max_steps turns at most.",
          found=lambda args, want, got: any(_readable_actions(run) for run, _ in _budget(args, got))),
    Fault(EVERY, "max_steps counts model calls, whatever the reply: a loop that counts only tool calls never "
          "stops when a model never writes a readable reply or names a real tool.",
          found=lambda args, want, got: bool(_budget(args, got))),
    Fault(STEPS,
          "Run tools with tools.run(step.tool, step.input): an unknown name comes back as text, and an "
          "rc.ParseError's message is an observation too.",
          found=_any(lambda run, w, g: isinstance(g["answer"], Raised))),
    Fault(WITH_STOP, "Call model(history, STOP) on every step, not model(history).",
          found=_any(lambda run, w, g: bool(g["calls sent without STOP"]))),
    Fault(GIVEN, "Run tools.run(step.tool, step.input) on the tools your function was given, never on "
          "rc.default_tools() or tools of your own.",
          found=_any(lambda run, w, g: bool(w["tools ran"]) and not g["tools ran"])),
    Fault(START, "history = rc.build_prompt(question, tools.describe(), tools.names), inside react_loop on "
          "every call: never a global or a default argument that keeps the last run's steps.",
          found=_any(lambda run, w, g: g["first prompt"] != w["first prompt"])),
    Fault(NEVER_NONE, "At the step limit return a hand-over text, never None.",
          found=_any(lambda run, w, g: w["answer"] == HANDED_OVER and g["answer"] is None)),
    Fault(AT_MOST, "range(max_steps) gives max_steps turns; count model calls, not tool calls.",
          found=_any(lambda run, w, g: (
          w["answer"] == g["answer"] == HANDED_OVER and w["model calls"] != g["model calls"]))),
    Fault(HAND_OVER,
          "After max_steps calls without an answer, return a text that starts with 'Could not finish'.",
          found=_any(lambda run, w, g: (
          w["answer"] == HANDED_OVER != g["answer"] and g["model calls"] == w["model calls"]))),
    Fault(STEPS, "For an rc.ParseError, the observation is step.message; append it like any other and go on.",
          found=_any(lambda run, w, g: g["model calls"] < w["model calls"])),
    Fault(ANSWERED,
          "As soon as parse_step gives an rc.FinalAnswer, return its .answer: do not call the model again.",
          found=_any(lambda run, w, g: w["answer"] != HANDED_OVER and g["model calls"] > w["model calls"])),
    Fault(APPEND,
          "Append the reply itself, then its observation: history += '\\n' + reply + '\\nObservation: "
          "' + observation, to one history you send whole each time.", found=_any(
          lambda run, w, g: g["each later prompt"] != w["each later prompt"][: len(g["each later prompt"])])),
    Fault(ANSWERED,
          "Read every reply: as soon as parse_step gives an rc.FinalAnswer, return its .answer, even "
          "on the last allowed step, and do not call the model again.",
          found=_any(lambda run, w, g: w["answer"] != HANDED_OVER)),
)


def _example(name: str, script: Any, hint: str, max_steps: int | None = 5, then: list | None = None
) -> Example:
    return Example(name, ([[QUESTION, script, max_steps], *([then] if then else [])],), hint)


NEVER = [f"Thought: I still need more prices.\nAction: price\nAction Input: item {n}" for n in range(1, 7)]
COST = "Thought: I need a price.\nAction: cost\nAction Input: pen"
RUN = [ASK_NOTEBOOK, ASK_PEN, ANSWER]
EXAMPLES = (
    _example("solves the shop question with the course's scripted model", DEMO,
             "The course model reads the observations in its prompt: append each reply and its "
             "'Observation: ...' line to the history you send next.", None),
    _example("a first reply that is a final answer ends the loop", [ANSWER, *RUN],
             "As soon as parse_step gives an rc.FinalAnswer, return its .answer: do not call the model "
             "again."),
    _example("each observation is in the next prompt", RUN,
             "Keep one history string and add '\\n' + reply + '\\nObservation: ' + observation to it."),
    _example("the model's own replies are in the next prompt", RUN,
             "Append the reply itself, then its observation: the model must see what it asked for."),
    _example("every call sends the stop sequence", RUN, "Call model(history, STOP) on every step."),
    _example("the first prompt holds the tools and the question", [ANSWER],
             "Start from rc.build_prompt(question, tools.describe(), tools.names)."),
    _example("each call starts a new history", [ASK_NOTEBOOK, ANSWER],
             "history = rc.build_prompt(...) inside react_loop, on every call.", 5,
             ["What do 2 pens cost?", ["Thought: I now know the answer\nFinal Answer: 4"], 5]),
    _example("runs the tools it is given", [ASK_NOTEBOOK, ANSWER],
             "Run tools.run(step.tool, step.input) on the tools your function was given."),
    _example("stops after max_steps calls and hands over", NEVER,
             "Loop with for _ in range(max_steps); after the loop, return a hand-over text.", 3),
    _example("the default limit is 5 steps", NEVER,
             "Keep the signature react_loop(question, model, tools, max_steps=5).", None),
    _example("max_steps=1 allows one call", NEVER, "range(max_steps) gives max_steps turns.", 1),
    _example("replies that cannot be read count as steps", [UNREADABLE] * 3,
             "max_steps counts model calls, whatever the reply.", 3),
    _example("calls to unknown tools count as steps", [COST] * 3,
             "Count every model call as a step, including the ones whose tool did not run.", 3),
    _example("a final answer on the last allowed step counts", [ASK_NOTEBOOK, ASK_PEN, ANSWER, ADD_UP],
             "Read every reply before checking the limit: the answer in call max_steps is a real answer.", 3),
    _example("a reply that cannot be read does not end the loop", [UNREADABLE, ANSWER],
             "For an rc.ParseError, the observation is step.message; append it like any other and go on."),
    _example("an unknown tool does not crash the loop", [COST, ANSWER],
             "Run tools with tools.run(step.tool, step.input): an unknown name comes back as text."),
)
HIDDEN = (
    _example("max_steps=0 makes no call", NEVER, "range(0) is empty: no call, then the hand-over.", 0),
    _example("an answer after a parse error and an unknown tool", [UNREADABLE, COST, ANSWER],
             "Every reply is a step; the third one answers within max_steps=3.", 3),
)
SHOP = (ASK_NOTEBOOK, ASK_PEN, ADD_UP, ANSWER, UNREADABLE, COST, "Final Answer: 16",
        ASK_PEN + "\nObservation: A pen costs 99.")


def _runs(draw: Draw) -> tuple:
    def run(question: str) -> list:
        replies = draw.many(lambda d: d.pick(SHOP) if d.below(2) else any_reply(d), 5)
        return [question, replies, draw.pick((5, 1, 2, 0, 3, 4, None))]

    first = run(QUESTION)
    return ([first, run("What do 2 pens cost?")] if draw.below(4) == 0 else [first],)


def _limit(run: list) -> int:
    return 5 if run[2] is None else run[2]


def _steps(run: list) -> list:
    return [parse_step(reply.split(STOP[0], 1)[0]) for reply in run[1][:_limit(run)]]


def _edge(test: Callable[[list], bool]) -> Callable[[tuple], bool]:
    return lambda args: any(test(run) for run in args[0] if run[1] != DEMO)


RULES = (
    Rule(START,
         ("the first prompt holds the tools and the question", "each call starts a new history", GENERATED),
         edge=lambda args: len(args[0]) > 1),
    Rule(GIVEN, ("runs the tools it is given", "the first prompt holds the tools and the question")),
    Rule(STEPS,
         ("a reply that cannot be read does not end the loop", "an unknown tool does not crash the loop")),
    Rule(AT_MOST, ("stops after max_steps calls and hands over", "max_steps=1 allows one call", GENERATED),
         edge=_edge(lambda run: run[2] == 0)),
    Rule(EVERY,
         ("replies that cannot be read count as steps", "calls to unknown tools count as steps", GENERATED),
         edge=_edge(lambda run: any(isinstance(s, ParseError) for s in _steps(run)))),
    Rule(WITH_STOP, ("every call sends the stop sequence", GENERATED),
         edge=_edge(lambda run: any(STOP[0] in reply for reply in run[1][:_limit(run)]))),
    Rule(APPEND, ("each observation is in the next prompt", "the model's own replies are in the next prompt",
                  GENERATED), edge=_edge(lambda run: sum(isinstance(s, Action) for s in _steps(run)) > 1)),
    Rule(ANSWERED, ("a first reply that is a final answer ends the loop",
         "a final answer on the last allowed step counts",
         "solves the shop question with the course's scripted model", GENERATED), edge=_edge(lambda run: (
         bool(run[2]) and len(_steps(run)) == run[2] and isinstance(_steps(run)[-1], FinalAnswer)))),
    Rule(HAND_OVER, ("stops after max_steps calls and hands over", GENERATED),
         edge=_edge(lambda run: not any(isinstance(s, FinalAnswer) for s in _steps(run)))),
    Rule(NEVER_NONE, ("stops after max_steps calls and hands over",)),
    Rule(DEFAULT, ("the default limit is 5 steps", GENERATED), edge=_edge(lambda run: run[2] is None)),
)


def _show(args: tuple) -> str:
    def one(question: str, script: Any, max_steps: int | None) -> str:
        model = DEMO if script == DEMO else f"a model that replies {script!r}"
        limit = "" if max_steps is None else f", max_steps={max_steps}"
        return f"react_loop({question!r}, {model}, tools{limit})"

    return "; then ".join(one(*run) for run in args[0]) + ", tools = price and calculate, logged"


SPEC = define(Spec(
    "02.react_loop", "the loop with its step limit", "react_loop", key, EXAMPLES, _runs, RULES, faults=FAULTS,
    observe=observe, compare=compare, show=_show, count=150, time_limit=60.0, hidden=HIDDEN,
    hints=(
        "for _ in range(max_steps): ... one step ... ; after the for loop, return "
        "f'Could not finish within {max_steps} steps ...'. A for loop cannot forget its limit.",
        "Start with history = rc.build_prompt(question, tools.describe(), tools.names). Each step: reply = "
        "model(history, STOP); step = rc.parse_step(reply); return step.answer for an rc.FinalAnswer.",
        "Otherwise observation = tools.run(step.tool, step.input) (or step.message for an rc.ParseError) "
        "and history += '\\n' + reply + '\\nObservation: ' + observation.",
    ),
    generated_hint="Every call is a step, whatever the reply; each reply and its observation go into the "
                   "next prompt; the first final answer ends the loop; after max_steps calls, hand over."))
__all__ = ["SPEC", "key"]
