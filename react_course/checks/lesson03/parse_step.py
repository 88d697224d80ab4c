"""Check 03.parse_step: read a reply into ``Action``, ``FinalAnswer`` or ``ParseError``.

The cases are replies real models write (spacing, case, numbering, markdown,
multi-line inputs, brackets, chatter, invented observations), so a parser that
passes them can be trusted in the loop. Each case checks one behaviour and its
hint names the fix. How a step is judged and shown lives in ``common.py``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .. import exercise
from ..framework import Case, describe
from .common import INVENTED, expect_step, show_step, shown_expected, step_types
from .generated_replies import PARSE

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
     "thought: look up the order\nACTION: get_order\naction input: 88213",
     ("action", "get_order", "88213"),
     "Match keywords case-insensitively (re.IGNORECASE, or compare .lower())."),
    ("FINAL ANSWER in capitals",
     "Thought: I have both heights.\nFINAL ANSWER: 237 m",
     ("final", "237 m"),
     "Every keyword may come in any case, Final Answer included: match with re.IGNORECASE."),
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
    ("an input with paragraphs: blank lines kept",
     "Action: send_reply\nAction Input: Hello Asha,\n\nYour refund of 25 INR is on its way.\n\n"
     "The support team",
     ("action", "send_reply", "Hello Asha,\n\nYour refund of 25 INR is on its way.\n\nThe support team"),
     "A blank line does not end the input: it runs to the next keyword line, blank lines included, "
     "so a message with paragraphs arrives whole. Do not split at '\\n\\n'."),
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
    ("two actions: the first one counts",
     "Thought: I need both heights.\nAction: search[Eiffel Tower]\nAction: search[Statue of Liberty]",
     ("action", "search", "Eiffel Tower"),
     "Walk the segments from the top and stop at the first Action or Final Answer: a later Action "
     "line was written before the first one's observation existed."),
    ("two two-line actions: the first one counts",
     "Action: search\nAction Input: Eiffel Tower\nAction: calculate\nAction Input: 330 - 93",
     ("action", "search", "Eiffel Tower"),
     "The first Action line decides, and its input is the Action Input line right after it."),
    ("the paper's capitalised Finish[answer]",
     "Thought 3: I have both heights.\nAction 3: Finish[237 m]",
     ("final", "237 m"),
     "The paper writes Finish[answer] with a capital F: compare tool.lower() == 'finish'."),
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
    ("an observation, then an action",
     "Thought: Let me recall.\nObservation: The tower is 500 m tall.\nAction: search[Eiffel Tower]",
     ("error",),
     "An Observation line before the first Action is the model writing the program's part: return a "
     "ParseError, even though an action follows (do not just drop the line)."),
    ("an empty Final Answer",
     "Thought: I know this.\nFinal Answer:",
     ("error",),
     "A Final Answer line with nothing after it is no answer: return a ParseError that shows the format."),
    ("an Action Input with no Action",
     "Action Input: Eiffel Tower",
     ("error",),
     "Without an Action line there is no tool to run: return a ParseError."),
    ("an Action with no Action Input line",
     "Thought: I need the height.\nAction: search\nObservation: The Eiffel Tower is 500 m tall.",
     ("error",),
     "A bare tool name takes its input from the next segment only if that segment is an Action "
     "Input. Here it is an invented Observation, not an input: return a ParseError that asks for "
     "the Action Input line."),
    ("a thought between Action and Action Input",
     "Action: search\nThought: I should be precise.\nAction Input: Eiffel Tower",
     ("error",),
     "The input must be on the line right after the Action line: look only at the next segment, and "
     "return a ParseError when it is not an Action Input."),
    ("an Action Input above its Action does not count",
     "Action Input: Eiffel Tower\nAction: search",
     ("error",),
     "The input is the Action Input line right AFTER the Action line; one above it, or anywhere else, "
     "is not the input: return a ParseError."),
    ("a keyword inside a sentence does not start a segment",
     "Thought: The paper writes Action: tool[input] on one line.\nAction: search[Eiffel Tower]",
     ("action", "search", "Eiffel Tower"),
     "Only a line that STARTS with a keyword (after optional markdown) starts a segment: anchor the "
     "regex at the start of the line (^, re.MULTILINE) instead of searching anywhere."),
    ("odd replies never raise",
     "",
     ("any",),
     "Every reply gives a step: guard each regex match (it may be None) and each index."),
)

# Wrong steps a case's reply invites, and what each one means: (case name, wrong step, message).
KNOWN_MISTAKES: tuple[tuple[str, tuple[str, ...], str], ...] = (
    ("two actions: the first one counts", ("action", "search", "Statue of Liberty"),
     "that is the LAST Action line: the first one decides, and the later one was written before the "
     "first one's observation existed"),
    ("two two-line actions: the first one counts", ("action", "calculate", "330 - 93"),
     "that is the LAST Action line: the first one decides"),
    ("the paper's capitalised Finish[answer]", ("action", "Finish", "237 m"),
     "Finish[...] was read as a tool: finish ends the run in any case (the paper writes Finish)"),
    ("finish[answer] is a final answer", ("action", "finish", "237 m"),
     "finish[...] was read as a tool: it is the paper's final answer"),
    ("action, invented observation, final answer", ("final", "The Eiffel Tower is 500 m tall."),
     "that answer rests on an invented observation: the first move, the action, decides"),
    ("a keyword inside a sentence does not start a segment", ("action", "tool", "input"),
     "that is the 'Action: tool[input]' quoted inside the thought: only a line that starts with a "
     "keyword starts a segment"),
    ("chatter with no keywords",
     ("final", "The Eiffel Tower is about 330 m tall, so the difference is 237 m."),
     "a reply without a Final Answer line is not an answer: the model may not be done, so return a "
     "ParseError that shows the format"),
)


def _case_test(name: str, expected: tuple[str, ...]) -> Callable[[Any], bool | str]:
    """The case's test, naming the known mistake when the wrong step is one of them."""
    test = expect_step(expected)
    mistakes = [(expect_step(wrong), why) for case, wrong, why in KNOWN_MISTAKES if case == name]

    def judge(got: Any) -> bool | str:
        verdict = test(got)
        if verdict is True:
            return True
        return next((why for wrong, why in mistakes if wrong(got) is True), verdict)

    return judge


ODD_REPLIES = ("Action:", "Action: [x]", "Action: search[Eiffel Tower", "]]] [[[", "Final Answer:",
               "Observation:", "Action Input:", "Action: search\nAction Input:", "**", "Thought:\n\n\n")


def _run_odd(parse: Callable[[str], Any]) -> Any:
    action, final, error = step_types()
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


GENERATED = PARSE.name
RULES = {
    "It returns one of the library's three classes": ("two-line format", "final answer",
                                                      "chatter with no keywords"),
    "`Action: search` + `Action Input: Eiffel Tower` on two lines": ("two-line format",),
    "the paper's `Action: search[Eiffel Tower]`": ("the paper's format: tool[input]",),
    "gives the answer (`Final Answer: ...`": ("final answer", "final answer in bold"),
    "the paper's `finish[...]` in any case": ("finish[answer] is a final answer",
                                              "the paper's capitalised Finish[answer]"),
    "numbered keywords": ("numbered keywords (the paper's Action 2:)",),
    "any case (`action input:`)": ("keywords in any case", "FINAL ANSWER in capitals", GENERATED),
    "extra spaces": ("extra spaces",),
    "markdown bold": ("markdown bold", "final answer in bold"),
    "the input on the next line": ("input on the next line",),
    "or over several lines": ("multi-line input", "multi-line final answer"),
    "newlines and blank lines kept": ("an input with paragraphs: blank lines kept",),
    "brackets inside the input": ("brackets inside the input",),
    "text after the closing bracket": ("trailing text after the closing bracket",),
    "the input ends at the `]` that matches the first `[`": (
        "brackets inside the input", "trailing text after the closing bracket",
        "invented observation with brackets, after tool[input]"),
    "The first `Action` or `Final Answer` line decides": (
        GENERATED, "action, invented observation, final answer",
        "an action, then an answer (no observation between)",
        "two actions: the first one counts", "two two-line actions: the first one counts"),
    "Anything after an action was written before its observation existed": (
        "action, invented observation, final answer",
        "invented observation with brackets, after tool[input]",
        "an action, then an answer (no observation between)"),
    "An `Observation` line *before* any action": ("an observation before any action",
                                                   "an observation, then an action"),
    "a `Final Answer:` with nothing after it": ("an empty Final Answer",),
    "an empty reply": ("empty reply",),
    "an `Action Input` with no `Action`": ("an Action Input with no Action",),
    "neither `[input]` nor an `Action Input` line right after it": (
        "an Action with no Action Input line", "an Action Input above its Action does not count",
        "a thought between Action and Action Input"),
    "a line that starts with a keyword": ("a keyword inside a sentence does not start a segment",
                                          "markdown bold", "numbered keywords (the paper's Action 2:)"),
    "a reply with neither keyword": ("chatter with no keywords",),
    "whose message shows the format": ("empty reply", "chatter with no keywords",
                                       "an observation before any action"),
    "Keep the tool name as written": ("numbered keywords (the paper's Action 2:)",),
    "Never raise.": ("odd replies never raise",),
}


@exercise(
    "03.parse_step",
    "a tolerant parser for text ReAct replies",
    rules=RULES,
    hints=(
        "Go line by line. A line that starts with a keyword (after optional markdown such as ** or #) "
        "begins a new segment; any other line continues the segment above it.",
        "One regex per line does it: r'^[\\s*#>_`-]*(thought|action\\s*input|action|final\\s*answer|"
        "observation)\\s*\\d*\\s*[*_]*\\s*:[*_]*\\s*(.*)$' with re.IGNORECASE.",
        "Then walk the segments in order: the first Action or Final Answer decides; an Observation "
        "before them is an error. For tool[input], count brackets to find the matching ]; "
        "finish[...], in any case, is a FinalAnswer.",
    ),
)
def parse_step_cases(parse: Callable[[str], Any]):
    for name, reply, expected, hint in PARSE_CASES:
        if expected[0] == "any":
            yield Case(name, lambda: _run_odd(parse), expected=shown_expected(expected),
                       test=expect_step(expected), show=lambda got: "",
                       given="; ".join(f"parse_step({r!r})" for r in ODD_REPLIES), hint=hint)
            continue
        yield Case(name, lambda reply=reply: parse(reply), expected=shown_expected(expected),
                   test=_case_test(name, expected), show=show_step,
                   given=f"parse_step({reply!r})", hint=hint)
    yield PARSE.case(parse)
