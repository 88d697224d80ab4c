"""03.parse_step as a spec: read a reply into ``Action``, ``FinalAnswer`` or ``ParseError``.

The key is the library's ``rc.parse_step``. The examples are replies real models
write (spacing, case, numbering, markdown, multi-line inputs, brackets, chatter,
invented observations), each with the hint that names its fix; a step is compared
as plain data (``replies.step_value``), so the thought and discarded fields are
the student's to fill or leave empty, as the statement says.
"""

from __future__ import annotations

from typing import Any

from ...parsing import parse_step
from ..plain import Raised
from ..spec import GENERATED, Fault, Rule, Spec, define
from .parse_step_cases import EXAMPLES, ODD
from .replies import INVENTED, any_reply, show_step, step_value


def _same_text(got: Any, want: str) -> bool:
    """Exact for one line; for several lines, the same lines (indentation may differ)."""
    if not isinstance(got, str) or "\n" not in want:
        return got == want

    def lines(text: str) -> list[str]:
        return [line.strip() for line in text.strip().splitlines()]

    return got == got.strip() and lines(got) == lines(want)


KIND = {"action": "an Action", "final": "a FinalAnswer", "error": "a ParseError"}


def compare(args: tuple, want: tuple, got: Any) -> bool | str:
    """The type, the tool and input or the answer, and that a ParseError's message shows the format."""
    if got == want:
        return True
    if isinstance(got, Raised):
        return "parse_step must never raise: every reply gives a step"
    if got[0] not in KIND:
        return "return rc.Action(tool, input), rc.FinalAnswer(answer) or rc.ParseError(message)"
    if want[0] == "error":
        if got[0] == "error":
            return ("the message goes back to the model as its observation, so it must show the format: "
                    "an Action line with its input and a Final Answer: line")
        return f"this reply cannot be run or trusted, but you returned {KIND[got[0]]}: return a ParseError"
    if want[0] != got[0]:
        return f"expected {KIND[want[0]]}, got {KIND[got[0]]}"
    if want[0] == "final":
        return _same_text(got[1], want[1]) or f"answer {got[1]!r}, expected {want[1]!r}"
    if got[1] != want[1]:
        return f"tool {got[1]!r}, expected {want[1]!r} (as written in the reply)"
    return _same_text(got[2], want[2]) or f"input {got[2]!r}, expected {want[2]!r}"


def _gives(reply: str, step: tuple) -> Any:
    """A fault found when this reply (a worked example) gives this wrong step."""
    return lambda args, want, got: args[0] == reply and got == step


FIRST = "The first `Action` or `Final Answer` line decides"
FINISH = "the paper's `finish[...]` in any case"
TWO_LINE_FINISH = "`Action: finish` with an `Action Input` line"


def _finish_as_tool(want: tuple, got: Any) -> bool:
    return want[0] == "final" and got[0] == "action" and got[1].lower() == "finish"


FAULTS = (
    Fault("Never raise.", "Every reply gives a step: guard each regex match (it may be None) and each index.",
          found=lambda args, want, got: isinstance(got, Raised)),
    Fault("It returns one of the library's three classes", "Return the library's classes: rc.Action(tool, "
          "input), rc.FinalAnswer(answer), rc.ParseError(message); not tuples or dicts.",
          found=lambda args, want, got: got[0] == "not a step"),
    Fault("whose message shows the format", "End every ParseError's message with FORMAT: the loop sends it "
          "back to the model, which needs to see both forms.",
          found=lambda args, want, got: got == ("error", False)),
    Fault("Keep the tool name as written", "Keep the tool name as written (Search stays Search).",
          found=lambda args, want, got: want[0] == got[0] == "action"
              and got[1] == want[1].lower() != want[1]),
    Fault(FIRST, "That is the LAST Action line: the first one decides, and the later one was written before "
          "the first one's observation existed.",
          found=lambda args, want, got: args[0].startswith(("Thought: I need both",
              "Action: search\nAction I"))
          and got in (("action", "search", "Statue of Liberty"), ("action", "calculate", "330 - 93"))),
    Fault(FINISH, "Finish[...] was read as a tool: finish ends the run in any case (the paper writes "
          "Finish).",
          found=lambda args, want, got: _finish_as_tool(want, got) and "finish[" in args[0].lower()),
    Fault(TWO_LINE_FINISH, "Action: finish with an Action Input line was read as a tool: finish ends the run "
          "in both formats.", found=lambda args, want, got: _finish_as_tool(want, got)),
    Fault("or over several lines", "The input runs up to the next keyword line (Observation, Action, "
          "Final Answer...), not to the end of the reply.",
          found=lambda args, want, got: want[0] == got[0] == "action" and got[2].startswith(want[2] + "\n")),
    Fault("Anything after an action was written before its observation existed",
          "That answer rests on an invented observation: the first move, the action, decides.",
          found=_gives(INVENTED, ("final", "The Eiffel Tower is 500 m tall."))),
    Fault("a line that starts with a keyword", "That is the 'Action: tool[input]' quoted inside the thought: "
          "only a line that starts with a keyword starts a segment.",
          found=lambda args, want, got: got == ("action", "tool", "input")),
    Fault("a reply with neither keyword", "A reply without a Final Answer line is not an answer: the model "
          "may not be done, so return a ParseError that shows the format.",
          found=lambda args, want, got: want[0] == "error" and got == ("final", args[0].strip()) != want
          and bool(args[0].strip())),
    Fault("an empty reply", "An empty reply is no answer: return a ParseError that shows the format.",
          found=lambda args, want, got: not args[0].strip() and got[0] != "error"),
)


def _has(pattern: str) -> Any:
    """An edge: some line of the generated reply matches ``pattern`` (any case)."""
    import re

    return lambda args: re.search(pattern, args[0], re.IGNORECASE | re.MULTILINE) is not None


def _key(reply: str) -> tuple:
    return step_value(parse_step(reply))


def _first_move_after_observation(args: tuple) -> bool:
    kinds = [line.split(":")[0].strip("* ").lower() for line in args[0].splitlines() if ":" in line]
    return "observation" in kinds and _key(args[0])[0] == "error" and any(k.startswith(("action", "final"))
                                                                         for k in kinds)


RULES = (
    Rule("It returns one of the library's three classes", ("two-line format", "final answer",
                                                          "chatter with no keywords")),
    Rule("`Action: search` + `Action Input: Eiffel Tower` on two lines", ("two-line format",),
         edge=_has(r"^\W*action\W*\d*\W*:\W*\w+\n\W*action input")),
    Rule("the paper's `Action: search[Eiffel Tower]`", ("the paper's format: tool[input]",),
        edge=_has(r"\w\[")),
    Rule("gives the answer (`Final Answer: ...`", ("final answer", "final answer in bold"),
         edge=lambda a: _key(a[0])[0] == "final"),
    Rule(FINISH, ("finish[answer] is a final answer", "the paper's capitalised Finish[answer]"),
         edge=lambda a: "Finish[" in a[0]),
    Rule(TWO_LINE_FINISH, ("finish on two lines is a final answer",),
         edge=_has(r"^\W*action\W*\d*\W*:\W*finish\n\W*action input")),
    Rule("numbered keywords", ("numbered keywords (the paper's Action 2:)",), edge=_has(r"^\W*action \d+")),
    Rule("any case (`action input:`)", ("keywords in any case", "FINAL ANSWER in capitals", GENERATED),
         edge=lambda a: "action input" in a[0] or "FINAL ANSWER" in a[0]),
    Rule("extra spaces", ("extra spaces",), edge=lambda a: " :  " in a[0]),
    Rule("markdown bold", ("markdown bold", "final answer in bold"), edge=lambda a: "**" in a[0]),
    Rule("the input on the next line", ("input on the next line",), edge=_has(r"action input\W*\d*\W*:\W*$")),
    Rule("or over several lines", ("multi-line input", "multi-line final answer"),
         edge=lambda a: "\n" in str(_key(a[0])[-1])),
    Rule("newlines and blank lines kept", ("an input with paragraphs: blank lines kept",),
         edge=lambda a: "\n\n" in str(_key(a[0])[-1])),
    Rule("brackets inside the input", ("brackets inside the input",), edge=lambda a: "[Paris]]" in a[0]),
    Rule("text after the closing bracket", ("trailing text after the closing bracket",),
         edge=lambda a: "] to find" in a[0]),
    Rule("the input ends at the `]` that matches the first `[`", (
        "brackets inside the input", "trailing text after the closing bracket",
        "invented observation with brackets, after tool[input]"), edge=lambda a: "[Paris]] to" in a[0]),
    Rule(FIRST, (GENERATED, "action, invented observation, final answer",
                 "an action, then an answer (no observation between)", "two actions: the first one counts",
                 "two two-line actions: the first one counts"),
         edge=lambda a: len([1 for k in ("action", "final answer") for _ in _lines_of(a[0], k)]) >= 2),
    Rule("Anything after an action was written before its observation existed", (
        "action, invented observation, final answer", "invented observation with brackets, after tool[input]",
        "an action, then an answer (no observation between)"),
        edge=lambda a: _key(a[0])[0] == "action" and "Observation" in a[0].split("\n", 2)[-1]),
    Rule("An `Observation` line *before* any action", ("an observation before any action",
                                                       "an observation, then an action"),
         edge=_first_move_after_observation),
    Rule("a `Final Answer:` with nothing after it", ("an empty Final Answer",),
         edge=_has(r"^\W*final answer\W*\d*\W*:\W*$")),
    Rule("an empty reply", ("empty reply",), edge=lambda a: not a[0].strip()),
    Rule("an `Action Input` with no `Action`", ("an Action Input with no Action",),
         edge=lambda a: "Action Input: 5" in a[0] and not _lines_of(a[0], "action")),
    Rule("skipped, like a thought", ("an Action Input before the Final Answer is skipped",),
         edge=lambda a: a[0].startswith("Action Input: 5\n") and _key(a[0])[0] == "final"),
    Rule("neither `[input]` nor an `Action Input` line right after it", (
        "an Action with no Action Input line", "an Action Input above its Action does not count",
        "a thought between Action and Action Input"),
            edge=_has(r"^\W*action\W*\d*\W*:\W*\w+\W*$(?!\n\W*action in)")),
    Rule("a line that starts with a keyword", ("a keyword inside a sentence does not start a segment",
                                               "markdown bold", "numbered keywords (the paper's Action 2:)"),
         edge=lambda a: "Thought: Observation: is a word." in a[0]),
    Rule("a reply with neither keyword", ("chatter with no keywords",),
         edge=lambda a: bool(a[0].strip()) and not _lines_of(a[0], "action") and not _lines_of(a[0],
             "final answer")),
    Rule("whose message shows the format", ("empty reply", "chatter with no keywords",
                                            "an observation before any action"),
         edge=lambda a: _key(a[0])[0] == "error"),
    Rule("Keep the tool name as written", ("numbered keywords (the paper's Action 2:)",),
         edge=lambda a: _key(a[0])[:2] == ("action", "Search")),
    Rule("Never raise.", ODD),
)


def _lines_of(reply: str, keyword: str) -> list[str]:
    """The lines of ``reply`` that start with ``keyword`` (after markdown, numbered, any case)."""
    import re

    pattern = rf"^[\s*#>_`-]*{keyword}\s*\d*\s*[*_]*\s*:"
    return [line for line in reply.splitlines() if re.match(pattern, line, re.IGNORECASE)
            and not (keyword == "action" and re.match(r"^[\s*#>_`-]*action\s*input", line, re.IGNORECASE))]


SPEC = define(Spec(
    "03.parse_step", "a tolerant parser for text ReAct replies", "parse_step", parse_step, EXAMPLES,
    lambda draw: (any_reply(draw),), RULES, faults=FAULTS, compare=compare,
    observe=lambda parse, args: step_value(parse(*args)), show_value=show_step,
    hints=(
        "Go line by line. A line that starts with a keyword (after optional markdown such as ** or #) "
        "begins a new segment; any other line continues the segment above it.",
        "One regex per line does it: r'^[\\s*#>_`-]*(thought|action\\s*input|action|final\\s*answer|"
        "observation)\\s*\\d*\\s*[*_]*\\s*:[*_]*\\s*(.*)$' with re.IGNORECASE.",
        "Then walk the segments in order: the first Action or Final Answer decides; an Observation "
        "before them is an error. For tool[input], count brackets to find the matching ]; "
        "finish[...], in any case, is a FinalAnswer.",
    ),
    generated_hint="The first Action or Final Answer line decides; read both formats in every variant the "
                   "statement lists; anything else becomes a ParseError that shows the format."))
__all__ = ["SPEC"]
