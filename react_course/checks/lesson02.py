"""Lesson 02: a scripted model, one step of the loop, the loop with its limit.

Every loop check hands the student's code a ``GuardedModel``: a loop that
forgets its step limit fails with a clear message instead of hanging.
The tools are small registries that log their calls, so a check can tell
whether a tool ran, how often and on what input.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..calculator import calculate
from ..demo import demo_model
from ..models import ReactiveModel, ScriptedModel
from ..parsing import parse_step
from ..prompts import build_prompt
from ..tools import ToolRegistry, shop_tools
from . import exercise
from .framework import Case, describe
from .guards import GuardedModel

QUESTION = "What do 3 notebooks and 2 pens cost?"
STOP = ["\nObservation"]
PRICES = {"notebook": 4, "pen": 2}

ASK_NOTEBOOK = "Thought: I need the price of a notebook.\nAction: price\nAction Input: notebook"
ASK_PEN = "Thought: A notebook costs 4. Now I need the price of a pen.\nAction: price\nAction Input: pen"
ADD_UP = "Thought: Now I add it up.\nAction: calculate\nAction Input: 3 * 4 + 2 * 2"
ANSWER = "Thought: I now know the answer\nFinal Answer: 3 notebooks and 2 pens cost 16."
INVENTED = "\nObservation: A pen costs 99.\nThought: So 2 pens cost 198.\nFinal Answer: 198"
UNREADABLE = "I think the total is 16."


# ---------------------------------------------------------------- helpers


class Text(str):
    """A description shown as is in the feedback (a plain ``str`` would be shown quoted)."""

    def __repr__(self) -> str:
        return str(self)


def logged_tools(log: list[tuple[str, str]]) -> ToolRegistry:
    """``price`` and ``calculate``, each call appended to ``log`` as (tool, input)."""

    def price(item: str) -> str:
        """Return the price of one item in the shop. Example input: pen"""
        log.append(("price", item))
        name = item.strip().lower()
        if name in PRICES:
            return f"A {name} costs {PRICES[name]}."
        return f"The shop has no item called {item.strip()!r}. Items: notebook, pen."

    def calc(expression: str) -> str:
        """Evaluate arithmetic such as 3 * 4 + 2 * 2. Example input: 2 * 3"""
        log.append(("calculate", expression))
        return calculate(expression)

    return ToolRegistry({"price": price, "calculate": calc})


def never_answers() -> ReactiveModel:
    """A model that asks for a new price on every call and never gives a final answer."""
    return ReactiveModel(respond=lambda pad: (
        f"Thought: I still need more prices.\nAction: price\nAction Input: item {len(pad.steps) + 1}"))


def stop_was_sent(stop: Any) -> bool:
    return any("Observation" in s for s in (stop or ()))


def _prompt(tools: ToolRegistry) -> str:
    return build_prompt(QUESTION, tools.describe(), tools.names)


def calls(n: int) -> str:
    """``calls(1)`` is '1 model call', ``calls(3)`` is '3 model calls'."""
    return f"{n} model call{'s' * (n != 1)}"


def _lines(text: str) -> list[str]:
    return [line.strip() for line in text.strip().splitlines() if line.strip()]


# ---------------------------------------------------------------- 02.scripted_model


OBS_REPLY = ("Thought: I need the price of a pen.\nAction: price\nAction Input: pen\n"
             "Observation: A pen costs 99.")
CUT_REPLY = "Thought: I need the price of a pen.\nAction: price\nAction Input: pen"


def _cut_test(got: Any) -> bool | str:
    if got == CUT_REPLY:
        return True
    if isinstance(got, str) and got.startswith(CUT_REPLY + "\nObservation") and "99" not in got:
        return "the stop sequence itself was kept: cut just before it, so it is not returned"
    if got == OBS_REPLY:
        return "the reply was not cut: everything from the stop sequence on must go"
    return False


def _after_last_reply(make: Callable, replies: list[str]) -> BaseException | tuple[str, Any]:
    """Use up ``replies``, then call once more: the exception raised, or ('returned', value)."""
    model = make(replies)
    for number in range(len(replies)):
        model(f"p{number + 1}")
    try:
        return "returned", model("one call too many")
    except NotImplementedError:
        raise  # a stub inside the model: "not attempted", not a verdict
    except Exception as error:  # which exception it is, is what the case checks
        return error


def _raises_runtime_error(got: BaseException | tuple[str, Any]) -> bool | str:
    if isinstance(got, tuple):
        return (f"the call returned {describe(got[1], 80)} instead of raising: a silent value "
                "hides a script that ran out")
    if isinstance(got, RuntimeError):
        return True
    return (f"it raised {type(got).__name__}; raise RuntimeError with a message that says "
            "the replies ran out")


def _show_raised(got: BaseException | tuple[str, Any]) -> str:
    if isinstance(got, tuple):
        return f"returned {describe(got[1], 80)}"
    return f"raised {type(got).__name__}: {describe(str(got), 120)[1:-1]}"


def _in_order(make: Callable) -> list[Any]:
    model = make(["one", "two", "three"])
    return [model("p1"), model("p2"), model("p3")]


def _prompts_recorded(make: Callable) -> tuple[Any, Any]:
    model = make(["one", "two"])
    before = list(model.prompts)
    model("p1")
    model("p2")
    return before, list(model.prompts)


def _make_twice(make: Callable) -> tuple[list[str], list[Any], list[Any]]:
    a, b = make(["a1", "a2"]), make(["b1"])
    replies = [a("prompt for a"), b("prompt for b"), a("second prompt for a")]
    return replies, list(a.prompts), list(b.prompts)


def _kept_apart(got: tuple[list, list, list]) -> bool | str:
    replies, a_prompts, b_prompts = got
    if replies != ["a1", "b1", "a2"]:
        return "the two models took replies from each other (or in the wrong order)"
    if a_prompts != ["prompt for a", "second prompt for a"] or b_prompts != ["prompt for b"]:
        return "the two models share one list of prompts"
    return True


def _caller_list_kept(make: Callable) -> list[str]:
    script = ["first reply", "second reply"]
    model = make(script)
    model("p")
    return script


@exercise(
    "02.scripted_model",
    "a scripted model",
    hints=(
        "Copy the replies into a list of your own inside make_scripted_model, define model() "
        "inside it, and attach the list of prompts to it: model.prompts = [].",
        "Take replies from the front (pop(0) or an index that goes up). To cut, find every stop "
        "that occurs in the reply and keep reply[:smallest index].",
        "Check for 'nothing left' before taking a reply, and raise RuntimeError(...) yourself; "
        "popping from an empty list raises IndexError, which says nothing useful.",
    ),
)
def scripted_model_cases(make: Callable) -> Any:
    yield Case(
        "replies come back in order (first in, first out)",
        lambda: _in_order(make),
        expected=["one", "two", "three"],
        given='model = make_scripted_model(["one", "two", "three"]); three calls',
        hint="The first reply in the list is the first one returned: take from the front, not the end.",
    )
    yield Case(
        "with no stop, the whole reply comes back",
        lambda: make([OBS_REPLY])("prompt"),
        expected=OBS_REPLY,
        given=f"make_scripted_model([{OBS_REPLY!r}])('prompt')",
        hint="stop defaults to None, and None means: return the reply unchanged.",
    )
    yield Case(
        "the reply is cut just before the stop sequence",
        lambda: make([OBS_REPLY])("prompt", stop=["\nObservation"]),
        expected=CUT_REPLY,
        test=_cut_test,
        given=f"make_scripted_model([{OBS_REPLY!r}])('prompt', stop=['\\nObservation'])",
        hint="Find where the stop begins (reply.find(stop)) and return reply[:that index].",
    )
    yield Case(
        "stop passed by position, as a loop passes it",
        lambda: make([OBS_REPLY])("prompt", ["\nObservation"]),
        expected=CUT_REPLY,
        test=_cut_test,
        given=f"make_scripted_model([{OBS_REPLY!r}])('prompt', ['\\nObservation'])",
        hint="Define the model as def model(prompt, stop=None): so stop works by position and by name.",
    )
    two_stops = CUT_REPLY + "\nQuestion: And a ruler?\nObservation: A pen costs 99."
    yield Case(
        "several stops: cut at the one that comes first in the reply",
        lambda: make([two_stops])("prompt", ["\nObservation", "\nQuestion"]),
        expected=CUT_REPLY,
        given=f"make_scripted_model([{two_stops!r}])('prompt', ['\\nObservation', '\\nQuestion'])",
        hint="'\\nQuestion' is second in the list but first in the reply. Cut at the smallest "
             "index over all the stops found, not at the first stop in the list.",
    )
    yield Case(
        "a stop that is not in the reply changes nothing",
        lambda: make([CUT_REPLY])("prompt", ["\nObservation"]),
        expected=CUT_REPLY,
        given=f"make_scripted_model([{CUT_REPLY!r}])('prompt', ['\\nObservation'])",
        hint="reply.find(stop) is -1 when the stop does not occur: skip that stop, do not cut at -1.",
    )
    yield Case(
        "model.prompts records every prompt, in order",
        lambda: _prompts_recorded(make),
        expected=([], ["p1", "p2"]),
        given='model = make_scripted_model(["one", "two"]); model.prompts before and after '
              'model("p1"), model("p2")',
        hint="Start with model.prompts = [] and append the prompt (not the reply) on every call.",
    )
    yield Case(
        "running out raises RuntimeError",
        lambda: _after_last_reply(make, ["only"]),
        test=_raises_runtime_error,
        show=_show_raised,
        expected=Text("raises RuntimeError"),
        given='model = make_scripted_model(["only"]); model("p1"); model("one call too many")',
        hint="Before taking a reply, check whether any are left; if not, "
             "raise RuntimeError('the script has no replies left').",
    )
    yield Case(
        "an empty script raises on its first call",
        lambda: _after_last_reply(make, []),
        test=_raises_runtime_error,
        show=_show_raised,
        expected=Text("raises RuntimeError"),
        given='make_scripted_model([])("one call too many")',
        hint="The same check: no reply left means RuntimeError, even on the first call.",
    )
    yield Case(
        "two models keep their own replies and prompts",
        lambda: _make_twice(make),
        expected=(["a1", "b1", "a2"], ["prompt for a", "second prompt for a"], ["prompt for b"]),
        test=_kept_apart,
        given='a = make_scripted_model(["a1", "a2"]); b = make_scripted_model(["b1"]); '
              'a(...), b(...), a(...); then a.prompts, b.prompts',
        hint="Keep the replies and the prompts inside make_scripted_model (a new list per call), "
             "not in a module-level list or a mutable default argument such as prompts=[].",
    )
    yield Case(
        "the caller's list of replies is left unchanged",
        lambda: _caller_list_kept(make),
        expected=["first reply", "second reply"],
        given='script = ["first reply", "second reply"]; model = make_scripted_model(script); '
              'model("p"); script',
        hint="Copy the list first (remaining = list(replies)): the caller may reuse the same "
             "script to build a fresh model for the next run.",
    )


# ---------------------------------------------------------------- 02.one_step


def _step(one_step: Callable, reply: str) -> dict[str, Any]:
    """Run one_step on a fresh history with a scripted model that has ``reply`` to give."""
    log: list[tuple[str, str]] = []
    tools = logged_tools(log)
    history = _prompt(tools)
    model = ScriptedModel([reply])
    got = one_step(history, model, tools)
    return {"got": got, "history": history, "calls": model.calls, "log": log}


def _appends(reply: str, observation: str,
             tools_used: list[tuple[str, str]]) -> Callable[[dict[str, Any]], bool | str]:
    """The test for a step that must append ``reply`` and ``observation`` to the history."""

    def test(run: dict[str, Any]) -> bool | str:
        got, history = run["got"], run["history"]
        if not (isinstance(got, tuple | list) and len(got) == 2):
            return "return a tuple (new_history, answer)"
        new, answer = got
        if answer is not None:
            return f"the answer must be None when the loop goes on, not {describe(answer, 80)}"
        if not isinstance(new, str) or not new.startswith(history):
            return "the new history must start with the whole history you were given"
        added = _lines(new[len(history):])
        if any("99" in line for line in added):
            return ("the history holds the model's invented observation ('A pen costs 99.'): "
                    "send stop=STOP so that the reply ends before it")
        if run["log"] != tools_used:
            return f"the tools were called as {run['log']}, expected {tools_used}"
        if not any(line.startswith("Observation:") for line in added):
            return "no 'Observation: ...' line was appended: the model would never see the result"
        if _lines(reply)[-1] not in added:
            return "the model's reply was not appended before the observation"
        if added != _lines(reply) + _lines("Observation: " + observation):
            return "append '\\n' + reply + '\\nObservation: ' + observation, and nothing else"
        return True

    return test


def _show_step(run: dict[str, Any]) -> str:
    got = run["got"]
    if not (isinstance(got, tuple | list) and len(got) == 2):
        return describe(got, 200)
    new, answer = got
    if new == run["history"]:
        new = "history"
    elif isinstance(new, str) and new.startswith(run["history"]):
        new = "history + " + describe(new[len(run["history"]):], 300)
    else:
        new = describe(new, 120)
    return f"({new}, {describe(answer, 80)}); tools called: {run['log']}"


def _want(reply: str, observation: str, tools_used: list[tuple[str, str]]) -> str:
    added = "\n" + reply + "\nObservation: " + observation
    return Text(f"(history + {describe(added, 300)}, None); tools called: {tools_used}")


def _final_is(expected: str) -> Callable[[dict[str, Any]], bool | str]:
    def test(run: dict[str, Any]) -> bool | str:
        got = run["got"]
        if run["log"]:
            return f"a tool ran on a final answer ({run['log']}): return the answer and run nothing"
        if not (isinstance(got, tuple | list) and len(got) == 2):
            return "return a tuple (history, answer)"
        return got[1] == expected or f"the answer part should be {expected!r}"

    return test


def _sent_right(run: dict[str, Any]) -> bool | str:
    call = run["calls"][0] if run["calls"] else None
    if call is None:
        return "the model was never called"
    if call.prompt != run["history"]:
        return "the prompt was not the whole history: the model needs everything so far"
    return stop_was_sent(call.stop) or "the call had no '\\nObservation' stop sequence"


def _show_sent(run: dict[str, Any]) -> str:
    if not run["calls"]:
        return "no call"
    call = run["calls"][0]
    same = "the whole history" if call.prompt == run["history"] else describe(call.prompt, 120)
    return f"prompt: {same}; stop: {call.stop!r}"


@exercise(
    "02.one_step",
    "one step of the loop",
    hints=(
        "Three outcomes of rc.parse_step(reply): rc.FinalAnswer (return history, step.answer), "
        "rc.Action (observation = tools.run(step.tool, step.input)), rc.ParseError "
        "(observation = step.message).",
        "Call the model as model(history, STOP): the whole history is the prompt, and the stop "
        "keeps the model from writing an Observation of its own.",
        "For an action or a parse error return "
        "(history + '\\n' + reply + '\\nObservation: ' + observation, None).",
    ),
)
def one_step_cases(one_step: Callable) -> Any:
    given = ("history = rc.build_prompt(question, tools.describe(), tools.names); "
             "one_step(history, model, tools)")
    yield Case(
        "an action runs the tool and appends the reply and the observation",
        lambda: _step(one_step, ASK_PEN),
        test=_appends(ASK_PEN, "A pen costs 2.", [("price", "pen")]),
        expected=_want(ASK_PEN, "A pen costs 2.", [("price", "pen")]),
        show=_show_step,
        given=f"{given}, with the model replying {ASK_PEN!r}",
        hint="Return (history + '\\n' + reply + '\\nObservation: ' + observation, None), where "
             "observation = tools.run(step.tool, step.input).",
    )
    yield Case(
        "the whole history is the prompt, sent with the stop sequence",
        lambda: _step(one_step, ASK_PEN),
        test=_sent_right,
        expected=Text("prompt: the whole history; stop: ('\\nObservation',)"),
        show=_show_sent,
        given=given + "; what the model received",
        hint="Call model(history, STOP) with STOP = ['\\nObservation']: the model needs everything "
             "so far, and the stop keeps it from writing the observation itself.",
    )
    yield Case(
        "the model's invented observation never reaches the history",
        lambda: _step(one_step, ASK_PEN + INVENTED),
        test=_appends(ASK_PEN, "A pen costs 2.", [("price", "pen")]),
        expected=_want(ASK_PEN, "A pen costs 2.", [("price", "pen")]),
        show=_show_step,
        given=f"{given}, with a model whose reply goes on: {(ASK_PEN + INVENTED)!r}",
        hint="Pass STOP to the model: a model that honours it returns only the text before "
             "'\\nObservation', and your observation is the tool's real result.",
    )
    yield Case(
        "a final answer is returned and no tool runs",
        lambda: _step(one_step, ANSWER),
        test=_final_is("3 notebooks and 2 pens cost 16."),
        expected=Text("(history, '3 notebooks and 2 pens cost 16.'); tools called: []"),
        show=_show_step,
        given=f"{given}, with the model replying {ANSWER!r}",
        hint="When parse_step gives an rc.FinalAnswer, return (history, step.answer) at once.",
    )
    finish = "Thought: I know it now.\nAction: finish[16]"
    yield Case(
        "the paper's finish[...] is a final answer too",
        lambda: _step(one_step, finish),
        test=_final_is("16"),
        expected=Text("(history, '16'); tools called: []"),
        show=_show_step,
        given=f"{given}, with the model replying {finish!r}",
        hint="Decide by the type parse_step returns (isinstance(step, rc.FinalAnswer)), not by "
             "looking for the words 'Final Answer' in the text.",
    )
    error = parse_step(UNREADABLE).message
    yield Case(
        "a reply that cannot be read becomes the observation",
        lambda: _step(one_step, UNREADABLE),
        test=_appends(UNREADABLE, error, []),
        expected=_want(UNREADABLE, error, []),
        show=_show_step,
        given=f"{given}, with the model replying {UNREADABLE!r}",
        hint="An rc.ParseError is not the end: its .message (which shows the right format) is "
             "the observation, and the loop goes on.",
    )
    wrong_tool = "Thought: I need the price of a pen.\nAction: cost\nAction Input: pen"
    unknown = "Unknown tool 'cost'. Available tools: price, calculate."
    yield Case(
        "an unknown tool name becomes an observation, not a crash",
        lambda: _step(one_step, wrong_tool),
        test=_appends(wrong_tool, unknown, []),
        expected=_want(wrong_tool, unknown, []),
        show=_show_step,
        given=f"{given}, with the model replying {wrong_tool!r}",
        hint="Run tools with tools.run(step.tool, step.input): it turns an unknown name or a "
             "failing tool into an observation instead of raising.",
    )
    yield Case(
        "the tool gets the parsed input",
        lambda: _step(one_step, ADD_UP),
        test=_appends(ADD_UP, "16", [("calculate", "3 * 4 + 2 * 2")]),
        expected=_want(ADD_UP, "16", [("calculate", "3 * 4 + 2 * 2")]),
        show=_show_step,
        given=f"{given}, with the model replying {ADD_UP!r}",
        hint="Pass step.input (the text after 'Action Input:'), not the whole reply.",
    )


# ---------------------------------------------------------------- 02.react_loop


def _loop(react_loop: Callable, model: Any, tools: ToolRegistry, max_calls: int,
          **options: Any) -> tuple[Any, GuardedModel]:
    guarded = GuardedModel(model, max_calls=max_calls)
    return react_loop(QUESTION, guarded, tools, **options), guarded


def _hand_over(max_steps: int) -> Callable[[tuple[Any, GuardedModel]], bool | str]:
    def test(got: tuple[Any, GuardedModel]) -> bool | str:
        answer, guarded = got
        if guarded.calls != max_steps:
            return (f"your loop made {calls(guarded.calls)}; with max_steps={max_steps} it "
                    f"should make exactly {calls(max_steps)}, then hand over")
        if answer is None:
            return "the loop returned None at the step limit: return a hand-over text instead"
        if not (isinstance(answer, str) and answer.startswith("Could not finish")):
            return ("at the step limit return a text that starts with 'Could not finish', "
                    f"not {describe(answer, 120)}")
        return True

    return test


def _answers(expected: str, expected_calls: int) -> Callable[[tuple[Any, GuardedModel]], bool | str]:
    def test(got: tuple[Any, GuardedModel]) -> bool | str:
        answer, guarded = got
        if answer != expected:
            return f"returned {describe(answer, 120)}"
        if guarded.calls != expected_calls:
            return f"your loop made {calls(guarded.calls)}, expected {calls(expected_calls)}"
        return True

    return test


def _show_answer(got: tuple[Any, GuardedModel]) -> str:
    return f"{describe(got[0], 200)} after {calls(got[1].calls)}"


def _prompts(react_loop: Callable, script: list[str]) -> list[Any]:
    """The calls a loop with default options makes; spare replies catch a loop that goes on."""
    spare = [f"Thought: More.\nAction: price\nAction Input: spare {n}" for n in range(5)]
    model = ScriptedModel(script + spare[: 5 - len(script)])
    _loop(react_loop, model, logged_tools([]), max_calls=5)
    return model.calls


def _stopped_after(records: list[Any], expected: int) -> bool | str:
    if len(records) == expected:
        return True
    if len(records) > expected:
        return (f"your loop made {calls(len(records))}; reply {expected} was the final answer, "
                "so it should have stopped there")
    return f"your loop stopped after {calls(len(records))}, expected {calls(expected)}"


def _fed_back(records: list[Any]) -> bool | str:
    if len(records) >= 2 and "A notebook costs 4." not in records[1].prompt:
        return "the second prompt does not hold the first observation ('A notebook costs 4.')"
    if len(records) >= 3 and ("A pen costs 2." not in records[2].prompt
                              or ASK_NOTEBOOK.splitlines()[1] not in records[2].prompt):
        return "the third prompt lost earlier steps: keep appending to one history"
    return _stopped_after(records, 3)


def _every_stop(records: list[Any]) -> bool | str:
    missing = [i + 1 for i, call in enumerate(records) if not stop_was_sent(call.stop)]
    return True if records and not missing else f"no '\\nObservation' stop on call(s) {missing}"


def _first_prompt(records: list[Any]) -> bool | str:
    prompt = records[0].prompt if records else ""
    missing = [word for word in (QUESTION, "price", "calculate") if word not in prompt]
    return True if not missing else f"the first prompt does not mention {missing}"


def _reads_on(records: list[Any], text: str) -> bool | str:
    if len(records) >= 2 and text not in records[1].prompt:
        return f"the second prompt does not contain {text!r}"
    return _stopped_after(records, 2)


@exercise(
    "02.react_loop",
    "the loop with its step limit",
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
    shop = "tools = a price/calculate registry"
    yield Case(
        "solves the shop question with the course's scripted model",
        lambda: _loop(react_loop, demo_model(), shop_tools(), max_calls=5),
        test=_answers("3 notebooks and 2 pens cost 16.", 4),
        expected=Text("'3 notebooks and 2 pens cost 16.' after 4 model calls"),
        show=_show_answer,
        given=f"react_loop({QUESTION!r}, rc.demo_model(), rc.shop_tools())",
        hint="The course model reads the observations in its prompt: append each reply and its "
             "'Observation: ...' line to the history you send next.",
    )
    yield Case(
        "a first reply that is a final answer ends the loop",
        lambda: _loop(react_loop, ScriptedModel([ANSWER, ASK_NOTEBOOK, ASK_PEN, ADD_UP, ANSWER]),
                      logged_tools([]), max_calls=5),
        test=_answers("3 notebooks and 2 pens cost 16.", 1),
        expected=Text("'3 notebooks and 2 pens cost 16.' after 1 model call"),
        show=_show_answer,
        given=f"react_loop(question, model, tools), the model's first reply being {ANSWER!r}",
        hint="As soon as parse_step gives an rc.FinalAnswer, return its .answer: do not call the "
             "model again.",
    )
    yield Case(
        "each observation is in the next prompt",
        lambda: _prompts(react_loop, [ASK_NOTEBOOK, ASK_PEN, ANSWER]),
        test=_fed_back,
        expected=Text("call 2 sees 'A notebook costs 4.', call 3 sees both prices"),
        show=lambda records: calls(len(records)),
        given=f"react_loop(question, model, tools), {shop}, the model asking for the notebook, "
              "then the pen, then answering",
        hint="Keep one history string and add '\\n' + reply + '\\nObservation: ' + observation "
             "to it on every step; send the whole of it each time.",
    )
    yield Case(
        "every call sends the stop sequence",
        lambda: _prompts(react_loop, [ASK_NOTEBOOK, ASK_PEN, ANSWER]),
        test=_every_stop,
        expected=Text("stop=['\\nObservation'] on every call"),
        show=lambda records: str([call.stop for call in records]),
        given="react_loop(question, model, tools); the stop sent with each call",
        hint="Call model(history, STOP) on every step, not model(history).",
    )
    yield Case(
        "the first prompt holds the tools and the question",
        lambda: _prompts(react_loop, [ANSWER]),
        test=_first_prompt,
        expected=Text("the question and the names price, calculate"),
        show=lambda records: describe(records[0].prompt[-200:] if records else None, 240),
        given="react_loop(question, model, tools); the first prompt",
        hint="Start from rc.build_prompt(question, tools.describe(), tools.names).",
    )
    yield Case(
        "stops after max_steps calls and hands over",
        lambda: _loop(react_loop, never_answers(), logged_tools([]), max_calls=3, max_steps=3),
        test=_hand_over(3),
        expected=Text("a text starting 'Could not finish' after exactly 3 model calls"),
        show=_show_answer,
        given="react_loop(question, model, tools, max_steps=3), with a model that never answers",
        hint="Loop with for _ in range(max_steps); after the loop, return a hand-over text.",
    )
    yield Case(
        "the default limit is 5 steps",
        lambda: _loop(react_loop, never_answers(), logged_tools([]), max_calls=5),
        test=_hand_over(5),
        expected=Text("a text starting 'Could not finish' after exactly 5 model calls"),
        show=_show_answer,
        given="react_loop(question, model, tools), with a model that never answers",
        hint="Keep the signature react_loop(question, model, tools, max_steps=5).",
    )
    yield Case(
        "max_steps=1 allows one call",
        lambda: _loop(react_loop, never_answers(), logged_tools([]), max_calls=1, max_steps=1),
        test=_hand_over(1),
        expected=Text("a text starting 'Could not finish' after exactly 1 model call"),
        show=_show_answer,
        given="react_loop(question, model, tools, max_steps=1), with a model that never answers",
        hint="range(max_steps) gives max_steps turns; count model calls, not tool calls.",
    )
    yield Case(
        "a final answer on the last allowed step counts",
        lambda: _loop(react_loop, ScriptedModel([ASK_NOTEBOOK, ASK_PEN, ANSWER, ADD_UP]),
                      logged_tools([]), max_calls=3, max_steps=3),
        test=_answers("3 notebooks and 2 pens cost 16.", 3),
        expected=Text("'3 notebooks and 2 pens cost 16.' after 3 model calls"),
        show=_show_answer,
        given="react_loop(question, model, tools, max_steps=3), the third reply being the answer",
        hint="Read every reply before checking the limit: the answer in call max_steps is a "
             "real answer.",
    )
    yield Case(
        "a reply that cannot be read does not end the loop",
        lambda: _prompts(react_loop, [UNREADABLE, ANSWER]),
        test=lambda records: _reads_on(records, "Could not read your reply"),
        expected=Text("a second call whose prompt holds the parse error's message"),
        show=lambda records: calls(len(records)),
        given=f"react_loop(question, model, tools), the first reply being {UNREADABLE!r}",
        hint="For an rc.ParseError, the observation is step.message; append it like any other "
             "and go on.",
    )
    yield Case(
        "an unknown tool does not crash the loop",
        lambda: _prompts(react_loop, ["Thought: I need a price.\nAction: cost\nAction Input: pen",
                                      ANSWER]),
        test=lambda records: _reads_on(records, "Unknown tool 'cost'"),
        expected=Text("a second call whose prompt says the tool is unknown"),
        show=lambda records: calls(len(records)),
        given="react_loop(question, model, tools), the first reply asking for a tool 'cost'",
        hint="Run tools with tools.run(step.tool, step.input): an unknown name comes back as text.",
    )


# ---------------------------------------------------------------- 02.predict_calls


def _calls_test(got: Any) -> bool | str:
    calls = got[0] if isinstance(got, tuple | list) and got else got
    if calls == 4:
        return True
    if calls == 3:
        return "3 is the step limit; at the limit run_react makes one more call, asking for a final answer"
    if calls == 2:
        return "the unreadable third reply still cost a model call: it counts as a step"
    return False


def _reason_test(got: Any) -> bool | str:
    reason = got[1] if isinstance(got, tuple | list) and len(got) > 1 else None
    if reason == "step_limit":
        return True
    if reason == "final_answer":
        return ("the final answer came in the extra call made after the limit, so the run "
                "ended by its step limit and the answer is labelled best effort")
    return False


@exercise(
    "02.predict_calls",
    "predict a run at its step limit",
    hints=(
        "Go through the replies one by one with max_steps=3: which step does each one take, and "
        "what does the program write back?",
        "An unreadable reply still uses up a step: the program answers it with a parse-error "
        "observation.",
        "After max_steps calls without an answer, run_react makes one more call that may only "
        "answer, and labels that answer best effort.",
    ),
)
def predict_calls_cases(answer: Any) -> Any:
    shape = "write a tuple: (model calls, end reason), e.g. (5, 'final_answer')"
    yield Case(
        "it is a (model calls, end reason) pair",
        lambda: answer,
        test=lambda got: (isinstance(got, tuple | list) and len(got) == 2) or shape,
        expected=Text("a tuple of two items"),
        given="answer",
        hint=shape,
    )
    yield Case(
        "number of model calls",
        lambda: answer,
        test=_calls_test,
        expected=Text("4 (first item)"),
        given="answer[0]",
        hint="Count the replies the run uses, including the extra one at the step limit.",
    )
    yield Case(
        "end reason",
        lambda: answer,
        test=_reason_test,
        expected=Text("'step_limit' (second item)"),
        given="answer[1]",
        hint="The end reasons are listed in rc.END_REASONS; which one fits a run that used up its steps?",
    )
