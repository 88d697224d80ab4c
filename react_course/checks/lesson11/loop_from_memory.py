"""Check ``11.loop_from_memory``: ``run(question, model, tools, max_steps=6)`` on hostile models.

Every case hands the loop a ``GuardedModel`` (a loop without a limit fails
instead of hanging) and looks only at behaviour: what came back, how many
calls were made, which tools ran, and what each prompt held. How the code is
written is never looked at: an interviewer removes the stop sequence and
watches what happens, and so does this checker.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from ...models import ReactiveModel, ScriptedModel
from ...parsing import parse_step
from .. import exercise
from ..framework import Case, describe
from ..guards import GuardedModel
from ..values import Shown
from .generated import COMPARISON, NAME
from .hostile import (
    ANSWER,
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
    hinted,
    logged_tools,
    observation_after,
    prompts_of,
    spare,
)

RULES = {
    "Start the history with `first_prompt(question, tools)`": (
        "the first prompt is first_prompt(question, tools)", NAME),
    "call `model(history, STOP)` with the stop sequence on every call": (
        "every call sends the stop sequence", NAME),
    "cut the reply yourself at the first `\"\\nObservation\"`": (
        "a model that ignores the stop: its own observation never reaches a prompt",
        "a thought that says the word Observation is not cut", NAME),
    "append it, then `\"\\nObservation: \"` and the observation your program wrote": (
        "each reply and its observation are in the next prompt", NAME),
    "an unknown tool name becomes an observation that names the tools you have": (
        "an unknown tool: an observation naming the real tools, and the loop goes on", NAME),
    "a reply that cannot be read becomes the parse error's message": (
        "an unreadable reply: the parse error is the observation, and the loop goes on", NAME),
    "a tool that raises becomes an observation with the error": (
        "a tool that raises: its error is the observation, and the loop goes on", NAME),
    "every model call is a step, whatever the reply": (
        "unreadable replies count as steps", "unknown tools count as steps"),
    "make at most `max_steps` model calls": (
        "a model that never answers: exactly max_steps calls", "the default limit is 6 steps"),
    "return `(answer, \"final_answer\")` as soon as a reply is a final answer": (
        "a final answer ends the run at once", "an answer on the last allowed step counts"),
    "return `(hand-over text, \"step_limit\")`, the text starting with `\"Could not finish\"`": (
        "a model that never answers: exactly max_steps calls",),
    "each action runs its tool once, even one asked before": (NAME,),
}

Run = tuple[Any, GuardedModel, ScriptedModel | ReactiveModel, list[tuple[str, str]]]


def run(loop: Callable, replies: list[str] | None = None, max_steps: int | None = None,
        ignore_stops: bool = False, model: Any = None) -> Run:
    """The loop on a scripted model (spare replies catch a loop that goes on) and logged tools."""
    log: list[tuple[str, str]] = []
    steps = 6 if max_steps is None else max_steps
    model = model or ScriptedModel([*(replies or []), *spare(steps + 1)], ignore_stops=ignore_stops)
    guarded = GuardedModel(model, max_calls=steps)
    options = {} if max_steps is None else {"max_steps": max_steps}
    return loop(QUESTION, guarded, logged_tools(log), **options), guarded, model, log


def never_answers() -> ReactiveModel:
    return ReactiveModel(respond=lambda pad: (
        f"Thought: I still need more.\nAction: price\nAction Input: pen {len(pad.steps) + 1}"))


def ended(reason: str, calls: int, answer: str | None = None) -> Callable[[Run], bool | str]:
    def test(got: Run) -> bool | str:
        value, guarded = got[0], got[1]
        if not (isinstance(value, tuple) and len(value) == 2):
            return f"return a pair (answer, end_reason), not {describe(value, 100)}"
        if value[1] != reason:
            return f"the end reason is {value[1]!r}, expected {reason!r}"
        if guarded.calls != calls:
            return f"your loop made {guarded.calls} model calls, expected {calls}"
        if answer is not None and value[0] != answer:
            return f"the answer is {describe(value[0], 100)}, expected {answer!r}"
        if reason == "step_limit" and not str(value[0]).startswith("Could not finish"):
            return f"the hand-over text must start with 'Could not finish', not {describe(value[0], 80)}"
        return True
    return test


def shown(got: Run) -> str:
    return f"{describe(got[0], 160)} after {got[1].calls} model calls; tools run: {got[3]}"


def goes_on(reply: str, want: Callable[[str], bool | str]) -> Callable[[Run], bool | str]:
    """The observation written after ``reply`` passes ``want``, and a second call was made."""
    def test(got: Run) -> bool | str:
        prompts = prompts_of(got[2])
        if len(prompts) < 2:
            return "the loop stopped after that reply; write an observation and go on"
        seen = observation_after(prompts[1], reply)
        if seen is None:
            return "the next prompt does not hold that reply followed by '\\nObservation: ...'"
        return want(seen)
    return test


@exercise(
    "11.loop_from_memory",
    "the loop from memory",
    rules=RULES,
    hints=(
        "for _ in range(max_steps): reply = cut(model(history, STOP)); step = rc.parse_step(reply) "
        "... after the loop: return 'Could not finish ...', 'step_limit'.",
        "Cut with reply.split('\\nObservation')[0] (or rc.cut_at_stop(reply, STOP)) before parsing "
        "and before appending: the model's own observation must never reach the history.",
        "Three kinds of bad step become observations: step.message for rc.ParseError; "
        "'Unknown tool ... Available tools: ...' for a name not in tools; the error's text when "
        "the tool raises (try/except Exception).",
    ),
)
def loop_cases(loop: Callable) -> Iterator[Case]:
    for case in (*_answer_cases(loop), *_limit_cases(loop), *_prompt_cases(loop), *_bad_step_cases(loop)):
        yield hinted(case)
    yield COMPARISON.case(loop)


def _answer_cases(loop: Callable) -> Iterator[Case]:
    yield Case("a final answer ends the run at once",
               lambda: run(loop, [ASK_NOTEBOOK, ANSWER]),
               test=ended("final_answer", 2, "3 notebooks and 2 pens cost 16."), show=shown,
               expected=Shown("('3 notebooks and 2 pens cost 16.', 'final_answer') after 2 calls"),
               given="run(question, model, tools), the model asking for the notebook, then answering",
               hint="When rc.parse_step gives an rc.FinalAnswer, return (step.answer, 'final_answer').")
    yield Case("an answer on the last allowed step counts",
               lambda: run(loop, [ASK_NOTEBOOK, ASK_PEN, ANSWER], max_steps=3),
               test=ended("final_answer", 3, "3 notebooks and 2 pens cost 16."), show=shown,
               expected=Shown("the answer, 'final_answer', after 3 calls"),
               given="run(..., max_steps=3), the third reply being the final answer",
               hint="Read every reply before giving up: range(max_steps), not range(max_steps - 1).")


def _limit_cases(loop: Callable) -> Iterator[Case]:
    given = "a model that never answers"
    yield Case("a model that never answers: exactly max_steps calls",
               lambda: run(loop, max_steps=3, model=never_answers()),
               test=ended("step_limit", 3), show=shown,
               expected=Shown("('Could not finish ...', 'step_limit') after exactly 3 calls"),
               given=f"run(..., max_steps=3), {given}",
               hint="for _ in range(max_steps): a for loop cannot forget its limit.")
    yield Case("the default limit is 6 steps",
               lambda: run(loop, model=never_answers()),
               test=ended("step_limit", 6), show=shown,
               expected=Shown("'step_limit' after exactly 6 calls"),
               given=f"run(question, model, tools), {given}",
               hint="Keep the signature run(question, model, tools, max_steps=6).")
    for name, reply in (("unreadable replies", UNREADABLE), ("unknown tools", UNKNOWN)):
        yield Case(f"{name} count as steps",
                   lambda reply=reply: run(loop, [reply] * 3, max_steps=3),
                   test=ended("step_limit", 3), show=shown,
                   expected=Shown("'step_limit' after exactly 3 calls"),
                   given=f"run(..., max_steps=3), the model always replying {reply!r}",
                   hint="Count model calls, not tool calls: a model that never writes a good "
                        "action must still reach the limit.")


def _prompt_cases(loop: Callable) -> Iterator[Case]:
    yield Case("the first prompt is first_prompt(question, tools)", lambda: run(loop, [ANSWER]),
               test=lambda got: prompts_of(got[2])[:1] == [first_prompt(QUESTION, logged_tools([]))] or
               "the first prompt is not first_prompt(question, tools)",
               show=lambda got: describe(prompts_of(got[2])[:1], 200),
               expected=Shown("first_prompt(question, tools), as it is"),
               given="run(question, model, tools), the model answering at once",
               hint="history = first_prompt(question, tools); send it as it is on the first call.")
    yield Case("a thought that says the word Observation is not cut",
               lambda: run(loop, [MENTIONS_OBSERVATION, ANSWER]), test=_word_kept, show=shown,
               expected=Shown("price('pen') runs, and prompt 2 holds the whole reply"),
               given=f"run(...), the model first replying {MENTIONS_OBSERVATION!r}",
               hint="Cut at '\\nObservation', the line break included: a thought may say the word.")
    yield Case("every call sends the stop sequence",
               lambda: run(loop, [ASK_NOTEBOOK, ASK_PEN, ANSWER]),
               test=lambda got: _stops(got[2]), show=lambda got: str([c.stop for c in got[2].calls]),
               expected=Shown("stop=['\\nObservation'] on every call"),
               given="run(question, model, tools); the stop sent with each call",
               hint="Call model(history, STOP) on every step.")
    yield Case("each reply and its observation are in the next prompt",
               lambda: run(loop, [ASK_NOTEBOOK, ASK_PEN, ANSWER]),
               test=_kept, show=lambda got: describe(prompts_of(got[2])[-1:], 300),
               expected=Shown("prompt 3 holds reply 1, 'A notebook costs 4.', reply 2, "
                              "'A pen costs 2.', in that order"),
               given="run(question, model, tools), the model asking for the notebook, the pen, "
                     "then answering",
               hint="history += '\\n' + reply + '\\nObservation: ' + observation, every step.")
    yield Case("a model that ignores the stop: its own observation never reaches a prompt",
               lambda: run(loop, [WRITES_OWN, ANSWER], ignore_stops=True),
               test=_not_invented, show=shown,
               expected=Shown("price('pen') runs, prompt 2 holds 'A pen costs 2.', never '99'"),
               given=f"run(...) with a model that ignores stops and first replies {WRITES_OWN!r}",
               hint="Cut the reply at the first '\\nObservation' yourself, before you parse it "
                    "and before you append it.")


def _stops(model: Any) -> bool | str:
    missing = [n for n, call in enumerate(model.calls, 1) if list(call.stop or ()) != STOP]
    return True if model.calls and not missing else f"not STOP (['\\nObservation']) on call(s) {missing}"


def _word_kept(got: Run) -> bool | str:
    prompts = prompts_of(got[2])
    if ("price", "pen") not in got[3]:
        return "price('pen') never ran: the reply was cut inside its thought"
    return (len(prompts) > 1 and MENTIONS_OBSERVATION in prompts[1]) or "prompt 2 lacks the whole reply"


def _kept(got: Run) -> bool | str:
    prompts = prompts_of(got[2])
    if len(prompts) < 3:
        return f"the loop made {len(prompts)} calls, expected 3"
    last = prompts[2]
    order = [ASK_NOTEBOOK, "\nObservation: A notebook costs 4.", ASK_PEN, "\nObservation: A pen costs 2."]
    places = [last.find(part) for part in order]
    if -1 in places:
        return f"prompt 3 lacks {describe(order[places.index(-1)], 90)}"
    return True if places == sorted(places) else "prompt 3 holds them out of order"


def _not_invented(got: Run) -> bool | str:
    prompts, log = prompts_of(got[2]), got[3]
    if any(INVENTED in p for p in prompts):
        return "the model's own 'Observation: A pen costs 99.' reached a prompt: cut the reply"
    if ("price", "pen") not in log:
        return "price('pen') never ran: the program, not the model, writes the observation"
    if not (isinstance(got[0], tuple) and got[0][0] == "3 notebooks and 2 pens cost 16."):
        return f"the run returned {describe(got[0], 80)}; the model's invented answer must not count"
    return True


def _bad_step_cases(loop: Callable) -> Iterator[Case]:
    yield Case("an unknown tool: an observation naming the real tools, and the loop goes on",
               lambda: run(loop, [UNKNOWN, ANSWER]),
               test=goes_on(UNKNOWN, _names_tools), show=shown,
               expected=Shown("an observation that mentions 'price' and 'calculate'"),
               given=f"run(...), the model first replying {UNKNOWN!r}",
               hint="if step.tool not in tools: observation = f'Unknown tool ... Available tools: "
                    "{\", \".join(tools)}'")
    yield Case("an unreadable reply: the parse error is the observation, and the loop goes on",
               lambda: run(loop, [UNREADABLE, ANSWER]),
               test=_whole_parse_error, show=shown,
               expected=Shown("an observation that is the rc.ParseError's whole message, every line"),
               given=f"run(...), the model first replying {UNREADABLE!r}",
               hint="For an rc.ParseError, observation = step.message; append it and go on.")
    yield Case("a tool that raises: its error is the observation, and the loop goes on",
               lambda: run(loop, [ASK_RULER, ANSWER]),
               test=goes_on(ASK_RULER, lambda seen: True if "ruler" in seen else
                            f"the observation was {seen!r}; include the error's message"),
               show=shown, expected=Shown("an observation holding the error's message"),
               given=f"run(...), the model asking {ASK_RULER!r}; price raises NoSuchItem (a KeyError) "
                     "for a ruler",
               hint="try: observation = tools[step.tool](step.input) except Exception as error: "
                    "observation = f'Error: {error}'")


def _whole_parse_error(got: Run) -> bool | str:
    prompts, message = prompts_of(got[2]), parse_step(UNREADABLE).message
    if len(prompts) < 2:
        return "the loop stopped after that reply; write an observation and go on"
    if prompts[1].endswith(f"{UNREADABLE}\nObservation: {message}"):
        return True
    seen = observation_after(prompts[1], UNREADABLE)
    return f"the observation was {describe(seen, 120)}; use the rc.ParseError's whole message"


def _names_tools(seen: str) -> bool | str:
    missing = [name for name in ("price", "calculate") if name not in seen]
    return True if not missing else f"the observation {seen!r} does not name {missing}"
