"""Lesson 03: stop sequences, a tolerant parser, and recording what was cut.

Four exercises:

- ``03.cut_at_stop``: keep the text before the earliest stop sequence;
- ``03.parse_step``: read a reply into ``Action``, ``FinalAnswer`` or ``ParseError``;
- ``03.call_with_stops``: send at most four stops *and* cut on the client side;
- ``03.read_reply``: cut, parse, and keep everything the program threw away.

The parser's cases are replies real models write (spacing, case, numbering,
markdown, multi-line inputs, brackets, chatter, invented observations), so a
parser that passes them can be trusted in the loop. Each case checks one
behaviour and its hint names the fix.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from . import exercise
from .framework import Case, describe

OBS = "\nObservation"
INVENTED = (
    "Thought: I need the height of the Eiffel Tower.\n"
    "Action: search\n"
    "Action Input: Eiffel Tower\n"
    "Observation: The Eiffel Tower is 500 m tall.\n"
    "Thought: I now know the answer.\n"
    "Final Answer: The Eiffel Tower is 500 m tall."
)
KEPT = "Thought: I need the height of the Eiffel Tower.\nAction: search\nAction Input: Eiffel Tower"
QUESTION = "Question: How tall is the Eiffel Tower?"


class _Shown:
    """A value shown in feedback exactly as written (no quotes around it)."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return self.text


def _step_types():
    from ..parsing import Action, FinalAnswer, ParseError

    return Action, FinalAnswer, ParseError


def show_step(value: Any) -> str:
    """A step as the feedback shows it: only the fields the check compares."""
    action, final, error = _step_types()
    if isinstance(value, action):
        return f"Action(tool={value.tool!r}, input={value.input!r})"
    if isinstance(value, final):
        return f"FinalAnswer(answer={value.answer!r})"
    if isinstance(value, error):
        return f"ParseError(message={describe(value.message, 160)})"
    return describe(value)


def _same_text(got: Any, want: str) -> bool:
    """Exact for one line; for several lines, the same lines (indentation may differ)."""
    if not isinstance(got, str):
        return False
    if "\n" not in want:
        return got == want

    def lines(text: str) -> list[str]:
        return [line.strip() for line in text.strip().splitlines()]

    return got == got.strip() and lines(got) == lines(want)


# ---------------------------------------------------------------- 03.cut_at_stop


def _cut_test(text: str, stops: Sequence[str] | None, expected: str) -> Callable[[Any], bool | str]:
    """Compare with the right cut, and name the usual mistakes when they show."""

    def test(got: Any) -> bool | str:
        if got == expected:
            return True
        if not isinstance(got, str):
            return f"return the kept text (a str), not {type(got).__name__}"
        if got.strip() == expected.strip():
            return "the whitespace around the kept text changed: return it exactly, without strip()"
        live = [s for s in (stops or ()) if s]
        if any(got == expected + s for s in live):
            return "the stop sequence itself was kept: cut just before it"
        if len(text) > 1 and got == text[:-1]:
            return ("the last character was dropped: str.find gives -1 for a stop that does not "
                    "occur, and text[:-1] is not 'no cut'")
        if got == "" and expected:
            return "everything was cut: is an empty stop, or a find() that gave -1 or 0, treated as a match?"
        later = [text.find(s) for s in live if s in text and text.find(s) > len(expected)]
        if any(got == text[:at] for at in later) or any(got == text[: text.rfind(s)] for s in live):
            return "it cut at a later stop: the cut belongs at the earliest place any stop occurs"
        return False

    return test


def _cut_case(cut: Callable, name: str, text: str, stops: Any, expected: str, hint: str) -> Case:
    return Case(name, lambda: cut(text, stops), expected=expected, test=_cut_test(text, stops, expected),
                given=f"cut_at_stop({text!r}, {stops!r})", hint=hint)


@exercise(
    "03.cut_at_stop",
    "keep the text before the earliest stop sequence",
    hints=(
        "For each stop, text.find(stop) gives where it starts, or -1 when it does not occur.",
        "Collect the positions that are not -1 (and skip empty stops); the smallest one is the cut.",
        "No position at all means no cut: return the text unchanged. Otherwise return text[:smallest].",
    ),
)
def cut_at_stop_cases(cut: Callable[[str, Any], str]):
    yield _cut_case(cut, "cuts just before the stop", INVENTED, [OBS], KEPT,
                    "Return text[:position], where position is where the stop begins.")
    yield _cut_case(cut, "no stop in the text: unchanged",
                    "Thought: I now know the answer\nFinal Answer: 330 m", [OBS],
                    "Thought: I now know the answer\nFinal Answer: 330 m",
                    "When no stop occurs, return the text as it is.")
    yield _cut_case(cut, "a stop that does not occur is skipped", INVENTED, ["\nQuestion:", OBS], KEPT,
                    "text.find gives -1 for a stop that is absent: leave it out before taking the smallest.")
    yield _cut_case(cut, "earliest occurrence wins, whatever the order of the stops",
                    "Final Answer: 330 m\nQuestion: How tall is the Statue of Liberty?\nObservation: 93 m",
                    [OBS, "\nQuestion:"], "Final Answer: 330 m",
                    "Do not stop at the first stop of the list that occurs: find every stop's position "
                    "and cut at the smallest.")
    yield _cut_case(cut, "the first of two occurrences",
                    "Action 1: Search[Eiffel Tower]\nObservation 1: 500 m\nThought 2: done\n"
                    "Action 2: Finish[500 m]\nObservation 2: finished", [OBS],
                    "Action 1: Search[Eiffel Tower]",
                    "Use text.find (the first occurrence), not text.rfind (the last).")
    yield _cut_case(cut, "stops=None: unchanged", KEPT, None, KEPT,
                    "Treat None like an empty list: `for stop in stops or ():`.")
    yield _cut_case(cut, "no stops: unchanged", KEPT, [], KEPT,
                    "With no stops there is nothing to cut: return the text.")
    yield _cut_case(cut, "an empty stop is skipped", INVENTED, ["", OBS], KEPT,
                    "'' occurs everywhere (text.find('') is 0): skip empty stops, as an API ignores them.")
    yield _cut_case(cut, "whitespace before the stop is kept",
                    "Action: calculate\nAction Input: 330 - 93  \n\nObservation: 237", [OBS],
                    "Action: calculate\nAction Input: 330 - 93  \n",
                    "Return exactly the text before the stop; leave stripping to whoever reads it.")
    yield _cut_case(cut, "a stop at the very start leaves nothing", "Observation: 500 m",
                    ["Observation:"], "",
                    "A stop found at position 0 is a match: test `position >= 0` (or `!= -1`), not `> 0`.")
    yield _cut_case(cut, "a tuple of stops works; the numbered form is cut too",
                    "Thought 2: Now the statue.\nAction 2: Search[Statue of Liberty]\n"
                    "Observation 2: It is 93 m tall.", ("\nObservation",),
                    "Thought 2: Now the statue.\nAction 2: Search[Statue of Liberty]",
                    "stops may be any sequence (a list or a tuple): just loop over it.")


# ---------------------------------------------------------------- 03.parse_step

# (case name, reply, expected, hint). Expected: ("action", tool, input), ("final", answer),
# ("error",) for a ParseError that shows the format, or ("any",) for "a step, never an exception".
PARSE_CASES: tuple[tuple[str, str, tuple[str, ...], str], ...] = (
    ("two-line format",
     "Thought: I need the order's details.\nAction: get_order\nAction Input: 88213",
     ("action", "get_order", "88213"),
     "Read the tool from the Action line and the input from the Action Input line."),
    ("the paper's format: tool[input]",
     "Thought: I need the height of the Eiffel Tower.\nAction: search[Eiffel Tower]",
     ("action", "search", "Eiffel Tower"),
     "After the tool name, an opening [ starts the input; its matching ] ends it."),
    ("final answer",
     "Thought: I now know the answer\nFinal Answer: The Eiffel Tower is 237 m taller.",
     ("final", "The Eiffel Tower is 237 m taller."),
     "A Final Answer line ends the run: return rc.FinalAnswer(the text after the colon)."),
    ("finish[answer] is a final answer",
     "Thought: I have both heights.\nAction: finish[237 m]",
     ("final", "237 m"),
     "The paper ends with the action finish[answer]: return rc.FinalAnswer(answer), not an Action."),
    ("numbered keywords (the paper's Action 2:)",
     "Thought 2: Now I need the statue.\nAction 2: Search[Statue of Liberty]",
     ("action", "Search", "Statue of Liberty"),
     "Allow an optional number between the keyword and the colon: r'Action\\s*\\d*\\s*:'. "
     "Keep the tool name as written."),
    ("keywords in any case",
     "thought: look up the order\naction: get_order\naction input: 88213",
     ("action", "get_order", "88213"),
     "Match keywords case-insensitively (re.IGNORECASE, or compare .lower())."),
    ("extra spaces",
     "Action :  search  \nAction Input :   Eiffel Tower  ",
     ("action", "search", "Eiffel Tower"),
     "Allow spaces before and after the colon, and strip the tool name and the input."),
    ("markdown bold",
     "**Thought:** I need the height.\n**Action:** search\n**Action Input:** Eiffel Tower",
     ("action", "search", "Eiffel Tower"),
     "Skip ** (and *, _) around a keyword and after its colon before matching."),
    ("input on the next line",
     "Action: search\nAction Input:\n  Eiffel Tower",
     ("action", "search", "Eiffel Tower"),
     "When the Action Input line is empty after the colon, the input is on the lines that follow."),
    ("multi-line input",
     'Thought: I need the order.\nAction: get_order\nAction Input: {\n  "order_id": 88213\n}',
     ("action", "get_order", '{\n  "order_id": 88213\n}'),
     "The input runs over every line up to the next keyword line (or the end), newlines kept."),
    ("multi-line final answer",
     "Thought: I have the policy.\nFinal Answer: Refund 25 INR:\n- the delivery fee (62 minutes late)\n"
     "- not the item price",
     ("final", "Refund 25 INR:\n- the delivery fee (62 minutes late)\n- not the item price"),
     "A final answer, like an input, runs over every line up to the next keyword line."),
    ("brackets inside the input",
     "Action: search[Eiffel Tower [Paris]]",
     ("action", "search", "Eiffel Tower [Paris]"),
     "Count brackets: [ adds one, ] takes one away; the input ends where the count returns to 0. "
     "A lazy regex (.*?) stops at the first ]."),
    ("trailing text after the closing bracket",
     "Action: search[Eiffel Tower] (then I will lookup[height] on that page)",
     ("action", "search", "Eiffel Tower"),
     "The input ends at the ] that matches the first [: a greedy regex (.*) runs on to the last ]."),
    ("action, invented observation, final answer",
     INVENTED,
     ("action", "search", "Eiffel Tower"),
     "The first Action or Final Answer line counts. The answer below the action was written before "
     "the tool ran, from an invented observation: run the action, ignore the rest. Also end the "
     "input at the next keyword line (here, Observation)."),
    ("invented observation with brackets, after tool[input]",
     "Action: search[Eiffel Tower]\nObservation: [Eiffel Tower] It is 500 m tall.\nFinal Answer: 500 m",
     ("action", "search", "Eiffel Tower"),
     "The first action wins, and its input ends at the matching ]: a regex with re.DOTALL and (.*) "
     "swallows the invented observation."),
    ("an action, then an answer (no observation between)",
     "Thought: I will check.\nAction: search[Eiffel Tower]\nFinal Answer: 330 m",
     ("action", "search", "Eiffel Tower"),
     "Look for the FIRST Action or Final Answer line, not for a Final Answer anywhere in the reply."),
    ("final answer in bold",
     "**Final Answer:** 237 m",
     ("final", "237 m"),
     "Strip markdown ** around the keyword and after the colon."),
    ("empty reply",
     "  \n",
     ("error",),
     "Return rc.ParseError(message) for an empty reply; the message shows the format to use."),
    ("chatter with no keywords",
     "The Eiffel Tower is about 330 m tall, so the difference is 237 m.",
     ("error",),
     "No Action and no Final Answer line: return rc.ParseError with a message that shows both forms."),
    ("an observation before any action",
     "Observation: The tower is 330 m tall.\nFinal Answer: 330 m",
     ("error",),
     "Only the program writes observations. An Observation line before any action means the answer "
     "rests on an invented result: return a ParseError that says so."),
    ("an Action Input with no Action",
     "Action Input: Eiffel Tower",
     ("error",),
     "Without an Action line there is no tool to run: return a ParseError."),
    ("odd replies never raise",
     "",
     ("any",),
     "Every reply gives a step: guard each regex match (it may be None) and each index."),
)

ODD_REPLIES = ("Action:", "Action: [x]", "Action: search[Eiffel Tower", "]]] [[[", "Final Answer:",
               "Observation:", "Action Input:", "Action: search\nAction Input:", "**", "Thought:\n\n\n")


def _expect(expected: tuple[str, ...]) -> Callable[[Any], bool | str]:
    """A test for one parsed step: the right type, tool and input, answer, or a message with the format."""
    action, final, error = _step_types()
    kinds = {action: "Action", final: "FinalAnswer", error: "ParseError"}

    def test(got: Any) -> bool | str:
        if expected[0] == "any":
            return got == "every reply gave a step" or str(got)
        if not isinstance(got, tuple(kinds)):
            return (f"return rc.Action(tool, input), rc.FinalAnswer(answer) or rc.ParseError(message) "
                    f"(the library's classes), not {type(got).__name__}")
        name = kinds[type(got)] if type(got) in kinds else type(got).__name__
        if expected[0] == "error":
            if not isinstance(got, error):
                return f"this reply cannot be run or trusted, but you returned {name}: return a ParseError"
            if not _shows_format(got.message):
                return ("the message goes back to the model as its observation, so it must show the "
                        "format: an Action line with its input (Action Input: ... or tool[input]) "
                        "and a Final Answer: line")
            return True
        if expected[0] == "final":
            if not isinstance(got, final):
                return f"this reply ends the run: expected a FinalAnswer, got {name}"
            if not _same_text(got.answer, expected[1]):
                return f"answer {got.answer!r}, expected {expected[1]!r}"
            return True
        tool, want = expected[1], expected[2]
        if isinstance(got, error):
            return f"this reply asks for {tool}[{want}], but you returned a ParseError"
        if not isinstance(got, action):
            return f"this reply's first move is an action ({tool}), but you returned {name}"
        if got.tool != tool:
            return f"tool {got.tool!r}, expected {tool!r} (as written in the reply)"
        if not _same_text(got.input, want):
            return f"input {got.input!r}, expected {want!r}"
        return True

    return test


def _shows_format(message: Any) -> bool:
    """Does a corrective message show both forms: how to act (with an input) and how to answer?"""
    if not isinstance(message, str):
        return False
    shows_input = "Action Input:" in message or re.search(r"Action:\s*\S+\[", message) is not None
    return shows_input and "Action:" in message and "Final Answer:" in message


def _run_odd(parse: Callable[[str], Any]) -> Any:
    action, final, error = _step_types()
    for reply in ODD_REPLIES:
        try:
            got = parse(reply)
        except NotImplementedError:
            raise
        except Exception as problem:
            return f"parse_step({reply!r}) raised {type(problem).__name__}: {problem}"
        if not isinstance(got, action | final | error):
            return f"parse_step({reply!r}) returned {describe(got, 80)}, not a step"
    return "every reply gave a step"


def _shown_expected(expected: tuple[str, ...]) -> _Shown:
    if expected[0] == "action":
        return _Shown(f"Action(tool={expected[1]!r}, input={expected[2]!r})")
    if expected[0] == "final":
        return _Shown(f"FinalAnswer(answer={expected[1]!r})")
    if expected[0] == "error":
        return _Shown("ParseError(message=...a message that shows the Action and Final Answer format...)")
    return _Shown("an Action, a FinalAnswer or a ParseError for each, never an exception")


@exercise(
    "03.parse_step",
    "a tolerant parser for text ReAct replies",
    hints=(
        "Go line by line. A line that starts with a keyword (after optional markdown such as ** or #) "
        "begins a new segment; any other line continues the segment above it.",
        "One regex per line does it: r'^[\\s*#>_`-]*(thought|action\\s*input|action|final\\s*answer|"
        "observation)\\s*\\d*\\s*[*_]*\\s*:[*_]*\\s*(.*)$' with re.IGNORECASE.",
        "Then walk the segments in order: the first Action or Final Answer decides; an Observation "
        "before them is an error. For tool[input], count brackets to find the matching ].",
    ),
)
def parse_step_cases(parse: Callable[[str], Any]):
    for name, reply, expected, hint in PARSE_CASES:
        if expected[0] == "any":
            yield Case(name, lambda: _run_odd(parse), expected=_shown_expected(expected),
                       test=_expect(expected), show=lambda got: "",
                       given="; ".join(f"parse_step({r!r})" for r in ODD_REPLIES), hint=hint)
            continue
        yield Case(name, lambda reply=reply: parse(reply), expected=_shown_expected(expected),
                   test=_expect(expected), show=show_step,
                   given=f"parse_step({reply!r})", hint=hint)


# ---------------------------------------------------------------- 03.call_with_stops

SIX_STOPS = ["\nObservation", "\nQuestion:", "\nHuman:", "\nAssistant:", "\nUser:", "<|end|>"]


def _model(reply: str, ignore_stops: bool):
    from ..models import ScriptedModel

    return ScriptedModel([reply], ignore_stops=ignore_stops)


def _call(call: Callable, reply: str, stops: Any, ignore_stops: bool) -> dict[str, Any]:
    model = _model(reply, ignore_stops)
    returned = call(model, QUESTION, stops)
    return {"returned": returned, "calls": [(c.prompt, c.stop) for c in model.calls]}


def _show_call(got: Any) -> str:
    if not isinstance(got, dict):
        return describe(got)
    sent = [stop for _, stop in got["calls"]]
    shown = describe(sent[0] if len(sent) == 1 else sent, 200)
    return f"returned {describe(got['returned'], 200)}; stop sent to the model: {shown}"


def _call_test(expected: str, stops: Any) -> Callable[[Any], bool | str]:
    def test(got: dict[str, Any]) -> bool | str:
        calls = got["calls"]
        if len(calls) != 1:
            return f"the model was called {len(calls)} times: call it once, with the stops"
        prompt, stop = calls[0]
        if prompt != QUESTION:
            return f"the model was sent the prompt {describe(prompt, 80)}: send the prompt unchanged"
        want = tuple(stops[:4]) if stops else None
        if stop != want:
            if stop is None:
                return "no stop sequences reached the model: pass them, model(prompt, stop=...)"
            if len(stop) > 4:
                return f"{len(stop)} stops were sent: OpenAI's API takes at most 4, send the first 4"
            return f"the model was sent {stop!r}; send the first four stops, {want!r}"
        returned = got["returned"]
        if returned == expected:
            return True
        if not isinstance(returned, str):
            return f"return the reply (a str), not {type(returned).__name__}"
        if OBS in returned or "\nUser:" in returned or "\nQuestion:" in returned:
            return ("the reply still holds text after a stop: the model may ignore stops, and only four "
                    "can be sent, so cut the reply yourself with every stop")
        return False

    return test


@exercise(
    "03.call_with_stops",
    "send at most four stops, and cut on the client too",
    hints=(
        "Two things: model(prompt, stop=the first four stops), then cut what comes back.",
        "Send stops[:4] (or None when there are none). APIs such as OpenAI's reject more than four.",
        "Cut the reply with ALL the stops, not only the four you sent: rc.cut_at_stop(reply, stops).",
    ),
)
def call_with_stops_cases(call: Callable[[Any, str, Any], str]):
    after = INVENTED
    yield Case("sends the stop and returns the reply", lambda: _call(call, after, [OBS], False),
               expected=KEPT, test=_call_test(KEPT, [OBS]), show=_show_call,
               given=f"call_with_stops(model, {QUESTION!r}, [{OBS!r}])  # a model that honours stops",
               hint="Call the model once: model(prompt, stop=stops[:4]).")
    yield Case("cuts when the model ignores stops", lambda: _call(call, after, [OBS], True),
               expected=KEPT, test=_call_test(KEPT, [OBS]), show=_show_call,
               given=f"call_with_stops(model, {QUESTION!r}, [{OBS!r}])  # the model ignores stops "
                     f"and replies {after!r}",
               hint="Never trust the API to have cut: apply rc.cut_at_stop to the reply yourself.")
    final = "Thought: I now know the answer\nFinal Answer: 330 m"
    yield Case("sends only the first four of six stops",
               lambda: _call(call, final, SIX_STOPS, False),
               expected=final, test=_call_test(final, SIX_STOPS), show=_show_call,
               given=f"call_with_stops(model, {QUESTION!r}, {SIX_STOPS!r})",
               hint="Send stops[:4]: the OpenAI API rejects a request with more than four.")
    chatty = final + "\nUser: Thanks! And the Statue of Liberty?"
    yield Case("a stop that could not be sent still cuts",
               lambda: _call(call, chatty, SIX_STOPS, False),
               expected=final, test=_call_test(final, SIX_STOPS), show=_show_call,
               given=f"call_with_stops(model, {QUESTION!r}, {SIX_STOPS!r})  # the model replies "
                     f"{chatty!r}",
               hint="'\\nUser:' is the fifth stop, so the API never saw it: cut with every stop, "
                    "not just the four you sent.")
    both = "Final Answer: 330 m\nQuestion: How tall is the Statue of Liberty?\nObservation: 93 m"
    yield Case("cuts at the earliest of the stops",
               lambda: _call(call, both, [OBS, "\nQuestion:"], True),
               expected="Final Answer: 330 m", test=_call_test("Final Answer: 330 m", [OBS, "\nQuestion:"]),
               show=_show_call,
               given=f"call_with_stops(model, {QUESTION!r}, [{OBS!r}, '\\nQuestion:'])  # the model "
                     f"ignores stops and replies {both!r}",
               hint="Cut with all the stops at once, at the earliest one that occurs.")
    yield Case("a reply with no stop in it comes back whole",
               lambda: _call(call, final, [OBS], True),
               expected=final, test=_call_test(final, [OBS]), show=_show_call,
               given=f"call_with_stops(model, {QUESTION!r}, [{OBS!r}])  # the model replies {final!r}",
               hint="Return the reply unchanged when no stop occurs in it (no strip, no extra text).")
    yield Case("no stops: nothing sent, nothing cut",
               lambda: _call(call, final, [], True),
               expected=final, test=_call_test(final, []), show=_show_call,
               given=f"call_with_stops(model, {QUESTION!r}, [])",
               hint="With no stops, send stop=None (or an empty list) and return the reply as it is.")


# ---------------------------------------------------------------- 03.read_reply

# (case name, reply, stops, expected step, pieces the cut must hold once each, hint)
READ_CASES: tuple[tuple[str, str, list[str], tuple[str, ...], tuple[str, ...], str], ...] = (
    ("a clean action: nothing cut", KEPT, [OBS], ("action", "search", "Eiffel Tower"), (),
     "When nothing was thrown away, the cut is ''."),
    ("an invented observation is cut and recorded", INVENTED, [OBS],
     ("action", "search", "Eiffel Tower"),
     ("Observation: The Eiffel Tower is 500 m tall.", "Final Answer: The Eiffel Tower is 500 m tall."),
     "Cut at the stop first (kept = rc.cut_at_stop(raw, stops)); the text after it, raw[len(kept):], "
     "goes into the record."),
    ("an answer written after the action is recorded",
     "Thought: I will check.\nAction: search[Eiffel Tower]\nFinal Answer: 330 m", [OBS],
     ("action", "search", "Eiffel Tower"), ("Final Answer: 330 m",),
     "No stop occurs here, but the parser ignored the answer after the action: add the Action's "
     ".discarded to the record."),
    ("both kinds of cut in one reply",
     "Action: search[Eiffel Tower]\nFinal Answer: 330 m\nObservation: The user confirmed it.", [OBS],
     ("action", "search", "Eiffel Tower"), ("Final Answer: 330 m", "Observation: The user confirmed it."),
     "Record both: the Action's .discarded AND the text after the stop."),
    ("a final answer, then an invented observation",
     "Thought: I know this one.\nFinal Answer: 330 m\nObservation: Correct!", [OBS],
     ("final", "330 m"), ("Observation: Correct!",),
     "Cut at the stop before parsing, and record the part after the stop even when the reply is an answer."),
    ("a clean final answer: nothing cut", "Thought: I now know the answer\nFinal Answer: 330 m", [OBS],
     ("final", "330 m"), (), "When nothing was thrown away, the cut is ''."),
    ("an unreadable reply: nothing cut", "I think it is about 300 m.", [OBS], ("error",), (),
     "Return rc.parse_step's ParseError as it is; nothing was cut."),
    ("every stop counts",
     "Thought: I now know the answer\nFinal Answer: 330 m\nQuestion: How tall is the Statue of Liberty?",
     [OBS, "\nQuestion:"], ("final", "330 m"), ("Question: How tall is the Statue of Liberty?",),
     "Cut with every stop before parsing (rc.cut_at_stop(raw, stops)), and record what came after."),
    ("a thought, then an invented observation",
     "Thought: Let me recall.\nObservation: The tower is 500 m tall.\nThought: So\nFinal Answer: 500 m",
     [OBS], ("error",), ("Observation: The tower is 500 m tall.", "Final Answer: 500 m"),
     "Cut at the stop first, then parse only the kept part; record the rest."),
)


def _read_test(expected: tuple[str, ...], pieces: tuple[str, ...], reply: str):
    step_test = _expect(expected)

    def test(got: Any) -> bool | str:
        if not (isinstance(got, tuple) and len(got) == 2):
            return "return a pair: (the parsed step, the text that was cut)"
        step, cut = got
        verdict = step_test(step)
        if verdict is not True:
            return f"the step: {verdict}"
        if not isinstance(cut, str):
            return f"the cut is text (a str, '' when nothing was cut), not {type(cut).__name__}"
        if not pieces:
            return cut.strip() == "" or f"nothing was thrown away here, but the cut is {cut!r}"
        for piece in pieces:
            if cut.count(piece) == 0:
                return f"the cut does not record {piece!r}"
            if cut.count(piece) > 1:
                return f"the cut records {piece!r} more than once"
        first = reply.splitlines()[0]
        if first in cut:
            return f"the cut holds {first!r}, which was kept: record only what was thrown away"
        return True

    return test


def _show_read(got: Any) -> str:
    if isinstance(got, tuple) and len(got) == 2:
        return f"({show_step(got[0])}, {describe(got[1], 200)})"
    return describe(got)


@exercise(
    "03.read_reply",
    "cut, parse, and record what was thrown away",
    hints=(
        "Three steps: kept = rc.cut_at_stop(raw, stops); step = rc.parse_step(kept); build the cut.",
        "Two things can be thrown away: the text after the stop, raw[len(kept):], and, for an Action, "
        "step.discarded (text the parser ignored after the action).",
        "Join the non-empty parts with a newline; '' when both are empty.",
    ),
)
def read_reply_cases(read: Callable[[str, Any], Any]):
    for name, reply, stops, expected, pieces, hint in READ_CASES:
        shown = _shown_expected(expected).text + (f", a cut holding {', '.join(map(repr, pieces))}"
                                                  if pieces else ", '' (nothing cut)")
        yield Case(name, lambda reply=reply, stops=stops: read(reply, stops), expected=_Shown(f"({shown})"),
                   test=_read_test(expected, pieces, reply), show=_show_read,
                   given=f"read_reply({reply!r}, {stops!r})", hint=hint)
