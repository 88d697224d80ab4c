"""The loop from memory against the answer key, on seeded generated scripts.

The hand-written cases end where their author's imagination ends. Here the
shared ``generated.Comparison`` draws sixty short scripts over the statement's
space (valid actions, repeated ones, unknown tools, unreadable replies, a tool
that raises, a thought that mentions an Observation, a model that ignores the
stop and writes its own observation, final answers, step limits of 1 to 5),
runs the student's loop and ``reference_run`` on each, and shrinks the first
difference to a small script. The same seed gives the same verdict every run.

What is compared is behaviour, not wording (``outcome``): the end reason, the
answer (or that a hand-over starts with "Could not finish"), the number of
model calls, the tool calls made, whether an invented observation reached a
prompt, and what the history holds: the first prompt, the stop sent, and after
each reply (cut at the stop) the observation the program wrote, judged by its
kind (a parse error's whole message, the tools named, the error's text, the
tool's result).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import pairwise
from typing import Any

from ...models import ScriptedModel
from ...parsing import FinalAnswer, ParseError, parse_step
from ...stops import cut_at_stop
from ..framework import CallBudgetExceeded, describe, error_text
from ..generated import Comparison, Draw
from ..guards import GuardedModel
from ..lesson05.faults import Diagnosed, Fault
from .hostile import (
    ADD_UP,
    ASK_NOTEBOOK,
    ASK_PEN,
    ASK_RULER,
    INVENTED,
    MENTIONS_OBSERVATION,
    QUESTION,
    STOP,
    UNKNOWN,
    UNREADABLE,
    WRITES_OWN,
    first_prompt,
    logged_tools,
    prompts_of,
    reference_run,
    spare,
)

COUNT = 60
NAME = "the answer key and your loop agree on generated scripts"
NOT_THE_REPLY = "not the reply (cut at the stop), then '\\nObservation: '"
POOL = (ASK_NOTEBOOK, ASK_PEN, ASK_RULER, ADD_UP, UNKNOWN, UNREADABLE, WRITES_OWN, MENTIONS_OBSERVATION,
        "Thought: Done.\nFinal Answer: 16")


def script(draw: Draw) -> tuple:
    """(replies, max_steps, ignore_stops): the model's replies in turn, the limit, its stops."""
    replies = tuple(draw.many(lambda d: d.pick(POOL), 6))
    return replies, draw.integer(1, 5), draw.boolean()


def show(args: tuple) -> str:
    replies, max_steps, ignore_stops = args
    stops = "ignores the stop" if ignore_stops else "honours the stop"
    return (f"max_steps={max_steps}, a model that {stops}, replying in turn: "
            + (" | ".join(describe(r, 90) for r in replies) or "(only spare actions)"))


def outcome(loop: Callable[..., Any], replies: Sequence[str], max_steps: int,
            ignore_stops: bool) -> tuple[Any, ...]:
    """What a loop did on one script, in the terms the comparison uses."""
    log: list[tuple[str, str]] = []
    sent = [*replies, *spare(max_steps + 1)]
    model = ScriptedModel(sent, ignore_stops=ignore_stops)
    guarded = GuardedModel(model, max_calls=max_steps)
    try:
        got = loop(QUESTION, guarded, logged_tools(log), max_steps=max_steps)
    except NotImplementedError:
        raise
    except CallBudgetExceeded:
        return ("called the model more than max_steps times",)
    except Exception as error:  # the student's loop crashed: that is its outcome
        return ("raised " + error_text(error, 120),)
    invented = any(INVENTED in prompt for prompt in prompts_of(model))
    return (summary(got), guarded.calls, tuple(log), invented, history(model, sent))


def summary(got: Any) -> Any:
    if not (isinstance(got, tuple) and len(got) == 2):
        return ("returned", describe(got, 80))
    answer, reason = got
    if reason == "step_limit":
        return ("step_limit", isinstance(answer, str) and answer.startswith("Could not finish"))
    return (reason, answer)


def history(model: ScriptedModel, sent: Sequence[str]) -> tuple[str, ...]:
    """What the prompts show: the first prompt, the stops, and what followed each reply."""
    calls = model.calls
    if not calls:
        return ()
    first = "the first prompt" if calls[0].prompt == first_prompt(QUESTION, logged_tools([])) else \
        "another first prompt"
    stops = "STOP on every call" if all(list(c.stop or ()) == STOP for c in calls) else "another stop"
    steps = (after_reply(a.prompt, b.prompt, sent[n]) for n, (a, b) in enumerate(pairwise(calls)))
    return (first, stops, *steps)


def after_reply(before: str, after: str, sent: str) -> str:
    """The kind of what the program appended to the history after one reply.

    >>> after_reply("Q", "Q\\nI think.\\nObservation: " + parse_step("I think.").message, "I think.")
    "a parse error's whole message"
    """
    if not after.startswith(before):
        return "the history was not kept"
    reply, rest = cut_at_stop(sent, STOP), after[len(before):]
    rest = rest[1:] if rest.startswith("\n") else rest  # the line break before the reply is optional
    if not rest.startswith(reply + "\nObservation: "):
        return NOT_THE_REPLY
    seen, step = rest[len(reply + "\nObservation: "):], parse_step(reply)
    if isinstance(step, ParseError):
        return "a parse error's whole message" if seen == step.message else "a parse error, in other words"
    if isinstance(step, FinalAnswer):
        return "a final answer, and the run went on"
    tools = logged_tools([])
    if step.tool not in tools:
        named = all(name in seen for name in tools)
        return "an unknown tool: the tools named" if named else "an unknown tool: not every tool named"
    try:
        result = str(tools[step.tool](step.input))
    except Exception as error:
        kept = str(error).strip("'\"") in seen
        return "a tool's error, with its text" if kept else "a tool's error, text lost"
    return "the tool's result" if seen.strip() == result.strip() else "not the tool's result"


def _in_history(kind: str) -> Callable[[tuple, Any, Any], bool]:
    return lambda args, expected, got: len(got) == 5 and kind in got[4] and kind not in expected[4]


def _raised(word: str) -> Callable[[tuple, Any, Any], bool]:
    return lambda args, expected, got: len(got) == 1 and got[0].startswith(f"raised {word}")


def _cut_elsewhere(args: tuple, expected: Any, got: Any) -> bool:
    """A reply that says "Observation" in the script, and a history or a run that differs."""
    mentioned = MENTIONS_OBSERVATION in args[0] or any("Observation" in reply for reply in args[0])
    return mentioned and (len(got) < 5 or NOT_THE_REPLY in got[4] or got[2] != expected[2])


FAULTS = (
    Fault("a tool that raises becomes an observation with the error", "a tool's error let through",
          _raised("NoSuchItem"), "price raised, and your loop let the error out: wrap the tool call "
          "in try/except Exception and make the error's text the observation."),
    Fault("an unknown tool name becomes an observation that names the tools you have",
          "an unknown tool looked up", _raised("KeyError"),
          "A tool name that is not in tools raised a KeyError: check `step.tool in tools` first."),
    Fault("make at most `max_steps` model calls", "too many model calls",
          lambda args, expected, got: got == ("called the model more than max_steps times",),
          "for _ in range(max_steps): one model call per step, every step."),
    Fault("Start the history with `first_prompt(question, tools)`", "another first prompt",
          _in_history("another first prompt"), "The first prompt is first_prompt(question, tools) itself."),
    Fault("call `model(history, STOP)` with the stop sequence on every call", "another stop",
          _in_history("another stop"), "Send STOP itself, ['\\nObservation'] with its line break."),
    Fault("cut the reply yourself at the first `\"\\nObservation\"`", "an invented observation kept",
          lambda args, expected, got: len(got) == 5 and got[3],
          "Cut at '\\nObservation' before you parse the reply and before you append it."),
    Fault("cut the reply yourself at the first `\"\\nObservation\"`", "a cut elsewhere", _cut_elsewhere,
          "Cut at '\\nObservation', the line break included (a thought may say the word), and keep "
          "everything before it as it is."),
    Fault("a reply that cannot be read becomes the parse error's message", "a parse error cut short",
          _in_history("a parse error, in other words"), "The observation is step.message, all its lines."),
    Fault("append it, then `\"\\nObservation: \"` and the observation your program wrote",
          "the history", _in_history(NOT_THE_REPLY),
          "history += '\\n' + reply + '\\nObservation: ' + observation, the reply as cut."),
    Fault("every model call is a step, whatever the reply", "another number of model calls",
          lambda args, expected, got: len(got) == 5 and got[1] != expected[1],
          "Count every model call as a step, a reply that cannot be read or names no tool too."),
    Fault("each action runs its tool once, even one asked before", "other tool calls",
          lambda args, expected, got: len(got) == 5 and got[2] != expected[2],
          "Run the tool for every action, even one asked before: no cache of results."),
)

FAULTS += (
    Fault("an unknown tool name becomes an observation that names the tools you have",
          "an unknown tool's observation", _in_history("an unknown tool: not every tool named"),
          "For a tool that is not in tools, write an observation that names every tool you have."),
    Fault("return `(answer, \"final_answer\")` as soon as a reply is a final answer",
          "a final answer returned",
          lambda args, expected, got: len(got) == 5 and expected[0][0] == "final_answer"
          and got[0] != expected[0],
          "Return the pair (step.answer, 'final_answer') at once."),
    Fault("return `(hand-over text, \"step_limit\")`, the text starting with `\"Could not finish\"`",
          "the step limit's return", lambda args, expected, got: len(got) == 5 and got[0] != expected[0],
          "At the step limit return the pair (a text starting 'Could not finish', 'step_limit')."),
)

COMPARISON = Diagnosed(Comparison(
    "11.loop_from_memory", lambda *args: outcome(reference_run, *args), script,
    lambda args, expected, got: expected == got, show, count=COUNT, seed=11, name=NAME,
    call=lambda loop, args: outcome(loop, *args),
    hint="Replay the script shown by hand with rc.ScriptedModel(replies, ignore_stops=...) and compare "
         "each prompt with the rules."), FAULTS)
