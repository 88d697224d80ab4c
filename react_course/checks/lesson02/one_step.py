"""02.one_step as a spec: one turn of the loop, ``one_step(history, model, tools)``.

The arguments are plain data: the history and the one reply the model has to give.
``observe`` hands the student's step an ``rc.ScriptedModel`` with that reply (it
honours stops, as an API does) and tools that log their calls (``common.logged_tools``),
and reports, as plain data, what came back (the new history as "history + what was
added"), what the model was sent, and which tools ran on what input.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...models import ScriptedModel
from ...parsing import Action, FinalAnswer, ParseError, parse_step
from ..generated import Draw
from ..lesson03.replies import any_reply
from ..plain import Opaque, Raised
from ..spec import GENERATED, Example, Fault, Rule, Spec, define
from ..values import describe
from .common import ADD_UP, ANSWER, ASK_PEN, INVENTED, PROMPT, STOP, UNREADABLE, logged_tools, sent_value


def key(history: str, model: Callable, tools: Any) -> tuple[str, str | None]:
    """The answer key: one call with STOP; an answer stops; anything else adds an observation."""
    reply = model(history, STOP)
    step = parse_step(reply)
    if isinstance(step, FinalAnswer):
        return history, step.answer
    observation = tools.run(step.tool, step.input) if isinstance(step, Action) else step.message
    return history + "\n" + reply + "\nObservation: " + observation, None


def grown(history: str, new: Any) -> Any:
    """A returned history as plain data: "history", "history + '...'", or the text itself.

    >>> grown("Q", "Q"), grown("Q", "Q\\nA"), grown("Q", "X")
    ('history', "history + '\\\\nA'", 'X')
    """
    if not isinstance(new, str):
        return Opaque(describe(new))
    if new == history:
        return "history"
    return f"history + {new[len(history) :]!r}" if new.startswith(history) else new


def observe(one_step: Callable[..., Any], args: tuple) -> dict[str, Any]:
    history, reply = args
    log: list = []
    model = ScriptedModel([reply])
    got = one_step(history, model, logged_tools(log))
    if isinstance(got, tuple) and len(got) == 2:
        returned: Any = (grown(history, got[0]),
                         got[1] if isinstance(got[1], str | None) else Opaque(describe(got[1])))
    else:
        returned = Opaque(describe(got))
    sent = [["the history" if c.prompt == history else c.prompt, sent_value(c.stop)] for c in model.calls]
    return {"returned": returned, "the model was sent": sent, "tools ran": [list(entry) for entry in log]}


def compare(args: tuple, want: dict, got: Any) -> bool | str:
    if got == want:
        return True
    if isinstance(got, Raised):
        return f"one_step {got}: a tool's failure and an unreadable reply are observations, not errors"
    field = next(name for name in want if got[name] != want[name])
    return f"{field}: {got[field]!r}, expected {want[field]!r}"


def _step(args: tuple) -> Any:
    return parse_step(args[1].split(STOP[0], 1)[0])


def _answer(got: dict) -> Any:
    return got["returned"][1] if isinstance(got["returned"], tuple) else Opaque("")


def _raised(kind: str) -> Callable[[tuple, Any, Any], bool]:
    return lambda args, want, got: isinstance(got, Raised) and kind in got


SENT = "Call the model with the whole history and the stop sequence"
PARSE = "Read the reply with `rc.parse_step(reply)`"
FINAL = "An `rc.FinalAnswer`: return `(history, step.answer)`"
NO_TOOL = "No tool runs."
ACTION = "An `rc.Action`: the observation is `tools.run(step.tool, step.input)`"
UNKNOWN = "an unknown tool comes back as text"
ERROR = "An `rc.ParseError`: the observation is `step.message`"
RETURN = 'Return `(history + "\\n" + reply + "\\nObservation: " + observation, None)`'
NONE = "`answer` is `None` when the loop should go on"
TUPLE = "the return value is always a tuple `(new_history, answer)`"
FAULTS = (
    Fault(TUPLE, "Return a tuple of two: (new_history, answer), e.g. return history, step.answer.",
          found=lambda args, want, got: not isinstance(got, Raised)
          and not isinstance(got["returned"], tuple)),
    Fault(UNKNOWN, "Run tools with tools.run(step.tool, step.input): it turns an unknown name or a failing "
          "tool into an observation instead of raising.", found=_raised("KeyError")),
    Fault(ERROR, "An rc.ParseError is not the end: its .message (which shows the right format) is the "
          "observation, and the loop goes on.", found=lambda args, want, got: (
          isinstance(_step(args), ParseError) and (isinstance(got, Raised) or _answer(got) is not None))),
    Fault(SENT, "Pass stop=STOP to the model: without it the reply goes on with an invented observation "
          "(a pen at 99), and the history holds it.", found=lambda args, want, got: any(
          c[1] != want["the model was sent"][0][1] for c in got["the model was sent"])),
    Fault(SENT,
          "The prompt is the whole history: the model needs everything so far. Call model(history, STOP).",
          found=lambda args, want, got: got["the model was sent"] != want["the model was sent"]),
    Fault(NO_TOOL, "On a final answer return (history, step.answer) at once: no tool runs.",
          found=lambda args, want, got: _answer(want) is not None and bool(got["tools ran"])),
    Fault(NONE, "To go on, the answer part is None (not '' or False): the loop tests `answer is None`.",
          found=lambda args, want, got: (
          _answer(want) is None and _answer(got) is not None and got["returned"][0] == want["returned"][0])),
    Fault(PARSE, "Decide by the type parse_step returns (isinstance(step, rc.FinalAnswer)), not by looking "
          "for the words 'Final Answer' in the text: the paper's finish[...] is an answer too, and the words "
          "inside a thought are not.",
          found=lambda args, want, got: ((_answer(want) is not None) if isinstance(got, Raised)
          else (_answer(want) is None) != (_answer(got) is None))),
    Fault(FINAL, "On a final answer return (history, step.answer): the history you were given, unchanged, "
          "and the answer's text, not the whole reply.",
          found=lambda args, want, got: _answer(want) is not None),
    Fault(ACTION, "Pass step.tool and step.input (the text after 'Action Input:'), not the whole reply.",
          found=lambda args, want, got: got["tools ran"] != want["tools ran"]),
    Fault(ERROR, "For an rc.ParseError the observation is step.message, word for word: it shows the model "
          "the format to use.", found=lambda args, want, got: isinstance(_step(args), ParseError)),
    Fault(UNKNOWN, "For an unknown tool the observation is what tools.run says (it names the tools there "
          "are): call tools.run(step.tool, step.input) for every action.",
          found=lambda args, want, got: isinstance(_step(args), Action) and not got["tools ran"]),
    Fault(RETURN, "Append '\\n' + reply + '\\nObservation: ' + observation to the history, and nothing "
          "else: the reply first, each on a line of its own.",
          found=lambda args, want, got: _answer(want) is None),
)


def _example(name: str, reply: str, hint: str) -> Example:
    return Example(name, (PROMPT, reply), hint)


UNKNOWN_TOOL = "Thought: I need the price of a pen.\nAction: cost\nAction Input: pen"
EXAMPLES = (
    _example("an action runs the tool and appends the reply and the observation", ASK_PEN,
             "Return (history + '\\n' + reply + '\\nObservation: ' + observation, None), where observation = "
             "tools.run(step.tool, step.input)."),
    _example("the whole history is the prompt, sent with the stop sequence", ASK_PEN,
             "Call model(history, STOP) with STOP = ['\\nObservation']."),
    _example("the model's invented observation never reaches the history", ASK_PEN + INVENTED,
             "Pass STOP to the model: a model that honours it returns only the text before "
             "'\\nObservation'."),
    _example("a final answer is returned and no tool runs", ANSWER,
             "When parse_step gives an rc.FinalAnswer, return (history, step.answer) at once."),
    _example("on a final answer the history comes back unchanged", ANSWER,
             "Return (history, step.answer): the loop ends here, so nothing is appended."),
    _example("the paper's finish[...] is a final answer too", "Thought: I know it now.\nAction: finish[16]",
             "Decide by the type parse_step returns, not by looking for the words 'Final Answer'."),
    _example("a reply that cannot be read becomes the observation", UNREADABLE,
             "An rc.ParseError is not the end: its .message is the observation, and the loop goes on."),
    _example("an unknown tool name becomes an observation, not a crash", UNKNOWN_TOOL,
             "Run tools with tools.run(step.tool, step.input): an unknown name comes back as text."),
    _example("the tool gets the parsed input", ADD_UP, "Pass step.input, not the whole reply."),
)
HIDDEN = (
    Example("a failing tool's error is an observation", ("", "Thought: Divide.\nAction: calculate\n"
            "Action Input: 1 / 0"), "tools.run turns a tool's error into text: it is the observation."),
    Example("an answer after an invented observation is not the step's",
            ("Question: ?", ASK_PEN + "\nObservation: 9\nFinal Answer: 9"),
            "With STOP the reply ends before the invented observation: the step is the action."),
)
HISTORIES = (PROMPT, "Question: What do 3 notebooks and 2 pens cost?", "", "Frage: Preis? ✓\n")
REPLIES = (ASK_PEN, ASK_PEN + INVENTED, ANSWER, UNREADABLE, UNKNOWN_TOOL, ADD_UP, "Action: finish[16]",
           "Thought: x\nAction: price\nAction Input: notebook\nObservation: A notebook costs 1.")


def _replies(draw: Draw) -> tuple:
    return draw.pick(HISTORIES), draw.pick(REPLIES) if draw.below(2) else any_reply(draw)


def _is(kind: type, test: Callable[[Any], bool] = lambda step: True) -> Callable[[tuple], bool]:
    return lambda args: isinstance(_step(args), kind) and test(_step(args))


RULES = (
    Rule(SENT, ("the whole history is the prompt, sent with the stop sequence",
         "the model's invented observation never reaches the history", GENERATED),
         edge=lambda args: STOP[0] in args[1]),
    Rule(PARSE, ("the paper's finish[...] is a final answer too", GENERATED),
         edge=lambda args: isinstance(_step(args), FinalAnswer) and "Final Answer" not in args[1]),
    Rule(FINAL,
         ("a final answer is returned and no tool runs", "on a final answer the history comes back unchanged",
         GENERATED), edge=_is(FinalAnswer)),
    Rule(NO_TOOL, ("a final answer is returned and no tool runs",)),
    Rule(ACTION, ("an action runs the tool and appends the reply and the observation",
         "the tool gets the parsed input", GENERATED),
         edge=_is(Action, lambda step: step.tool in ("price", "calculate"))),
    Rule(UNKNOWN, ("an unknown tool name becomes an observation, not a crash", GENERATED),
         edge=_is(Action, lambda step: step.tool not in ("price", "calculate"))),
    Rule(ERROR, ("a reply that cannot be read becomes the observation", GENERATED), edge=_is(ParseError)),
    Rule(RETURN, ("an action runs the tool and appends the reply and the observation", GENERATED),
         edge=lambda args: args[0] == ""),
    Rule(TUPLE, ("an action runs the tool and appends the reply and the observation",
         "a final answer is returned and no tool runs", GENERATED)),
    Rule(NONE, ("an action runs the tool and appends the reply and the observation",
         "a reply that cannot be read becomes the observation")),
)


def _show(args: tuple) -> str:
    built = "rc.build_prompt(QUESTION, tools.describe(), tools.names)"
    history = built if args[0] == PROMPT else repr(args[0])
    return (f"one_step(history, model, tools), history = {history}, the model replying {args[1]!r}, "
            "tools = price and calculate")


SPEC = define(Spec(
    "02.one_step", "one step of the loop", "one_step", key, EXAMPLES, _replies, RULES, faults=FAULTS,
    observe=observe, compare=compare, show=_show, count=200, time_limit=30.0, hidden=HIDDEN,
    hints=(
        "Three outcomes of rc.parse_step(reply): rc.FinalAnswer (return history, step.answer), rc.Action "
        "(observation = tools.run(step.tool, step.input)), rc.ParseError (observation = step.message).",
        "Call the model as model(history, STOP): the whole history is the prompt, and the stop keeps the "
        "model from writing an Observation of its own.",
        "For an action or a parse error return (history + '\\n' + reply + '\\nObservation: ' + observation, "
        "None).",
    ),
    generated_hint="(history, answer) for a final answer; otherwise (history + '\\n' + reply + "
                   "'\\nObservation: ' + observation, None), the observation from tools.run or the "
                   "ParseError's message."))
__all__ = ["SPEC", "key"]
