"""Check ``02.react_loop``: the loop with its step limit, ``react_loop(question, model, tools)``.

Every case hands the student's loop a ``GuardedModel``: a loop that forgets
its step limit fails with a clear message instead of hanging. The cases look
at the answer, the number of model calls, and what each prompt held.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from ...demo import demo_model
from ...models import ScriptedModel
from ...tools import shop_tools
from .. import exercise
from ..framework import Case, describe
from ..guards import GuardedModel
from .common import ADD_UP, ANSWER, ASK_NOTEBOOK, ASK_PEN, QUESTION, UNREADABLE, Text, logged_tools
from .generated_runs import REACT_LOOP
from .loop_prompts import (
    calls,
    every_stop,
    fed_back,
    first_prompt,
    reads_on,
    replies_kept,
    show_scratchpads,
)
from .loop_runs import always, answers, hand_over, never_answers, prompts, run_loop, show_answer

GENERATED = REACT_LOOP.name
RULES = {
    "start the history with `rc.build_prompt(question, tools.describe(), tools.names)`": (
        "the first prompt holds the tools and the question", "each call starts a new history"),
    "use only the `model` and `tools` your function is given": (
        "runs the tools it is given", "the first prompt holds the tools and the question"),
    "take steps as in exercise 2.2": (
        "a reply that cannot be read does not end the loop", "an unknown tool does not crash the loop"),
    "at most `max_steps` times": (
        "stops after max_steps calls and hands over", "max_steps=1 allows one call"),
    "every call counts as a step, whatever the reply": (
        "replies that cannot be read count as steps", "calls to unknown tools count as steps", GENERATED),
    "always with `STOP`": ("every call sends the stop sequence",),
    "append each reply and then its observation to the history": (
        "each observation is in the next prompt", "the model's own replies are in the next prompt",
        GENERATED),
    "return the answer's text as soon as a reply is a final answer": (
        "a first reply that is a final answer ends the loop",
        "a final answer on the last allowed step counts",
        "solves the shop question with the course's scripted model"),
    "return a hand-over text that starts with `\"Could not finish\"`": (
        "stops after max_steps calls and hands over",),
    "Never `None`.": ("stops after max_steps calls and hands over",),
    "`react_loop(question, model, tools, max_steps=5)`": ("the default limit is 5 steps",),
}


@exercise(
    "02.react_loop",
    "the loop with its step limit",
    rules=RULES,
    hints=(
        "for _ in range(max_steps): ... one step ... ; after the for loop, return "
        "f'Could not finish within {max_steps} steps ...'. A for loop cannot forget its limit.",
        "Start with history = rc.build_prompt(question, tools.describe(), tools.names). Each step: "
        "reply = model(history, STOP); step = rc.parse_step(reply); return step.answer for an "
        "rc.FinalAnswer.",
        "Otherwise observation = tools.run(step.tool, step.input) (or step.message for an "
        "rc.ParseError) and history += '\\n' + reply + '\\nObservation: ' + observation.",
    ),
)
def react_loop_cases(react_loop: Callable) -> Any:
    yield from _answer_cases(react_loop)
    yield from _prompt_cases(react_loop)
    yield from _request_cases(react_loop)
    yield from _limit_cases(react_loop)
    yield from _counted_cases(react_loop)
    yield from _reply_cases(react_loop)
    yield REACT_LOOP.case(react_loop)


def _answer_cases(react_loop: Callable) -> Iterator[Case]:
    """A final answer is returned at once, after as many calls as it took."""
    yield Case(
        "solves the shop question with the course's scripted model",
        lambda: run_loop(react_loop, demo_model(), shop_tools(), max_calls=5),
        test=answers("3 notebooks and 2 pens cost 16.", 4),
        expected=Text("'3 notebooks and 2 pens cost 16.' after 4 model calls"),
        show=show_answer,
        given=f"react_loop({QUESTION!r}, rc.demo_model(), rc.shop_tools())",
        hint="The course model reads the observations in its prompt: append each reply and its "
             "'Observation: ...' line to the history you send next.",
    )
    yield Case(
        "a first reply that is a final answer ends the loop",
        lambda: run_loop(react_loop, ScriptedModel([ANSWER, ASK_NOTEBOOK, ASK_PEN, ADD_UP, ANSWER]),
                      logged_tools([]), max_calls=5),
        test=answers("3 notebooks and 2 pens cost 16.", 1),
        expected=Text("'3 notebooks and 2 pens cost 16.' after 1 model call"),
        show=show_answer,
        given=f"react_loop(question, model, tools), the model's first reply being {ANSWER!r}",
        hint="As soon as parse_step gives an rc.FinalAnswer, return its .answer: do not call the "
             "model again.",
    )


def _prompt_cases(react_loop: Callable) -> Iterator[Case]:
    """The run so far in every prompt: each observation and each of the model's replies."""
    shop = "tools = a price/calculate registry"
    yield Case(
        "each observation is in the next prompt",
        lambda: prompts(react_loop, [ASK_NOTEBOOK, ASK_PEN, ANSWER]),
        test=fed_back,
        expected=Text("call 2 sees 'A notebook costs 4.', call 3 sees both prices"),
        show=lambda records: calls(len(records)),
        given=f"react_loop(question, model, tools), {shop}, the model asking for the notebook, "
              "then the pen, then answering",
        hint="Keep one history string and add '\\n' + reply + '\\nObservation: ' + observation "
             "to it on every step; send the whole of it each time.",
    )
    yield Case(
        "the model's own replies are in the next prompt",
        lambda: prompts(react_loop, [ASK_NOTEBOOK, ASK_PEN, ANSWER]),
        test=replies_kept,
        expected=Text("after the question, call 2 sees reply 1 (Thought, Action, Action Input) "
                      "then 'A notebook costs 4.'; call 3 sees replies 1 and 2, each before its "
                      "observation"),
        show=show_scratchpads,
        given=f"react_loop(question, model, tools), {shop}, the model replying {ASK_NOTEBOOK!r}, "
              "then asking for the pen, then answering",
        hint="Append the reply itself, then its observation: history += '\\n' + reply + "
             "'\\nObservation: ' + observation. With the observation alone the model cannot "
             "see what it asked for, so it may ask again or lose its plan.",
    )


def _request_cases(react_loop: Callable) -> Iterator[Case]:
    """The rest of each request: the stop on every call, the tools and question in the first."""
    yield Case(
        "every call sends the stop sequence",
        lambda: prompts(react_loop, [ASK_NOTEBOOK, ASK_PEN, ANSWER]),
        test=every_stop,
        expected=Text("stop=['\\nObservation'] on every call"),
        show=lambda records: str([call.stop for call in records]),
        given="react_loop(question, model, tools); the stop sent with each call",
        hint="Call model(history, STOP) on every step, not model(history).",
    )
    yield Case(
        "the first prompt holds the tools and the question",
        lambda: prompts(react_loop, [ANSWER]),
        test=first_prompt,
        expected=Text("the question and the names price, calculate"),
        show=lambda records: describe(records[0].prompt[-200:] if records else None, 240),
        given="react_loop(question, model, tools); the first prompt",
        hint="Start from rc.build_prompt(question, tools.describe(), tools.names).",
    )
    yield Case(
        "each call starts a new history",
        lambda: _second_prompt(react_loop),
        test=_fresh,
        expected=Text(f"a prompt that ends with 'Question: {PENS}'"),
        show=lambda prompt: describe(prompt[-160:] if isinstance(prompt, str) else prompt, 200),
        given=f"react_loop(question, ...) on the shop question, then react_loop({PENS!r}, ...); "
              "the end of the second run's first prompt",
        hint="history = rc.build_prompt(...) inside react_loop, on every call: never a global or a "
             "default argument that keeps the last run's steps.",
    )
    yield Case(
        "runs the tools it is given",
        lambda: _tools_run(react_loop),
        expected=[("price", "notebook")],
        given=f"react_loop(question, model, tools), tools = a registry that logs its calls, the "
              f"model replying {ASK_NOTEBOOK!r}, then answering; the calls logged",
        hint="Run tools.run(step.tool, step.input) on the tools your function was given, never "
             "on rc.default_tools() or tools of your own.",
    )


PENS = "What do 2 pens cost?"


def _second_prompt(react_loop: Callable) -> Any:
    """The first prompt of a second run, after a first run on another question."""
    spare = [f"Thought: More.\nAction: price\nAction Input: spare {n}" for n in range(3)]
    run_loop(react_loop, ScriptedModel([ASK_NOTEBOOK, ANSWER, *spare]), logged_tools([]), max_calls=5)
    second = ScriptedModel(["Thought: I now know the answer\nFinal Answer: 4", *spare])
    react_loop(PENS, GuardedModel(second, max_calls=5), logged_tools([]))
    return second.calls[0].prompt if second.calls else None


def _fresh(prompt: Any) -> bool | str:
    if not isinstance(prompt, str):
        return "the second run never called the model"
    if not prompt.rstrip().endswith(f"Question: {PENS}"):
        return ("the second run's first prompt does not end with its question: it still holds "
                "the first run's steps. Start a new history on every call, inside the function")
    return True


def _tools_run(react_loop: Callable) -> list[tuple[str, str]]:
    log: list[tuple[str, str]] = []
    spare = [f"Thought: More.\nAction: price\nAction Input: spare {n}" for n in range(3)]
    run_loop(react_loop, ScriptedModel([ASK_NOTEBOOK, ANSWER, *spare]), logged_tools(log), max_calls=5)
    return log


def _limit_cases(react_loop: Callable) -> Iterator[Case]:
    """A model that never answers: exactly max_steps calls, then a hand-over text."""
    yield Case(
        "stops after max_steps calls and hands over",
        lambda: run_loop(react_loop, never_answers(), logged_tools([]), max_calls=3, max_steps=3),
        test=hand_over(3),
        expected=Text("a text starting 'Could not finish' after exactly 3 model calls"),
        show=show_answer,
        given="react_loop(question, model, tools, max_steps=3), with a model that never answers",
        hint="Loop with for _ in range(max_steps); after the loop, return a hand-over text.",
    )
    yield Case(
        "the default limit is 5 steps",
        lambda: run_loop(react_loop, never_answers(), logged_tools([]), max_calls=5),
        test=hand_over(5),
        expected=Text("a text starting 'Could not finish' after exactly 5 model calls"),
        show=show_answer,
        given="react_loop(question, model, tools), with a model that never answers",
        hint="Keep the signature react_loop(question, model, tools, max_steps=5).",
    )
    yield Case(
        "max_steps=1 allows one call",
        lambda: run_loop(react_loop, never_answers(), logged_tools([]), max_calls=1, max_steps=1),
        test=hand_over(1),
        expected=Text("a text starting 'Could not finish' after exactly 1 model call"),
        show=show_answer,
        given="react_loop(question, model, tools, max_steps=1), with a model that never answers",
        hint="range(max_steps) gives max_steps turns; count model calls, not tool calls.",
    )


def _counted_cases(react_loop: Callable) -> Iterator[Case]:
    """Every model call is a step, whatever the reply: unreadable replies and unknown tools too."""
    yield Case(
        "replies that cannot be read count as steps",
        lambda: run_loop(react_loop, always(UNREADABLE), logged_tools([]), max_calls=3, max_steps=3),
        test=hand_over(3),
        expected=Text("a text starting 'Could not finish' after exactly 3 model calls"),
        show=show_answer,
        given=f"react_loop(question, model, tools, max_steps=3), the model always replying "
              f"{UNREADABLE!r}",
        hint="max_steps counts model calls, whatever the reply: a loop that counts only tool "
             "calls never stops when a model never writes a readable reply.",
    )
    unknown = "Thought: I need a price.\nAction: cost\nAction Input: pen"
    yield Case(
        "calls to unknown tools count as steps",
        lambda: run_loop(react_loop, always(unknown), logged_tools([]), max_calls=3, max_steps=3),
        test=hand_over(3),
        expected=Text("a text starting 'Could not finish' after exactly 3 model calls"),
        show=show_answer,
        given=f"react_loop(question, model, tools, max_steps=3), the model always replying "
              f"{unknown!r}",
        hint="Count every model call as a step, including the ones whose tool did not run.",
    )


def _reply_cases(react_loop: Callable) -> Iterator[Case]:
    """Every reply is read: an answer on the last step counts, a bad reply is an observation."""
    yield Case(
        "a final answer on the last allowed step counts",
        lambda: run_loop(react_loop, ScriptedModel([ASK_NOTEBOOK, ASK_PEN, ANSWER, ADD_UP]),
                      logged_tools([]), max_calls=3, max_steps=3),
        test=answers("3 notebooks and 2 pens cost 16.", 3),
        expected=Text("'3 notebooks and 2 pens cost 16.' after 3 model calls"),
        show=show_answer,
        given="react_loop(question, model, tools, max_steps=3), the third reply being the answer",
        hint="Read every reply before checking the limit: the answer in call max_steps is a "
             "real answer.",
    )
    yield Case(
        "a reply that cannot be read does not end the loop",
        lambda: prompts(react_loop, [UNREADABLE, ANSWER]),
        test=lambda records: reads_on(records, "Could not read your reply"),
        expected=Text("a second call whose prompt holds the parse error's message"),
        show=lambda records: calls(len(records)),
        given=f"react_loop(question, model, tools), the first reply being {UNREADABLE!r}",
        hint="For an rc.ParseError, the observation is step.message; append it like any other "
             "and go on.",
    )
    yield Case(
        "an unknown tool does not crash the loop",
        lambda: prompts(react_loop, ["Thought: I need a price.\nAction: cost\nAction Input: pen",
                                      ANSWER]),
        test=lambda records: reads_on(records, "Unknown tool 'cost'"),
        expected=Text("a second call whose prompt says the tool is unknown"),
        show=lambda records: calls(len(records)),
        given="react_loop(question, model, tools), the first reply asking for a tool 'cost'",
        hint="Run tools with tools.run(step.tool, step.input): an unknown name comes back as text.",
    )
