"""01.who_wrote as a spec: label every line of a text trace "model" or "program".

The traces cover what trips a first attempt up: the question is the program's,
Action Input is the model's, a line without a keyword keeps the author of the
line before it, keywords may be numbered or in any case. Two more examples are
transcripts of the course's own loop, whose labels the tests hold to the
library's (``result.render(authors=True)``).

Generated traces: keyword lines (numbered, in any case, indented), notes in
brackets, continuation and blank lines, and words that look like keywords but
are not (``Observations so far:``). Left out, because the docstring does not
settle them: a number glued to its keyword (``Thought2:``) and spaces before
the colon.
"""

from __future__ import annotations

import re
from typing import Any

from ..generated import Draw
from ..spec import GENERATED, Example, Rule, Spec, define
from .common import EIFFEL, QUESTION

KEYWORD = re.compile(r"\s*(question|observation|thought|action\s+input|action|final\s+answer)\s*\d*\s*:",
                     re.IGNORECASE)


def who_wrote_key(transcript: str) -> list[str]:
    """The answer key: each keyword line sets the author; a note is the program's; the rest continue."""
    labels, author = [], "program"
    for line in transcript.splitlines():
        found = KEYWORD.match(line)
        if found:
            author = "program" if found[1].lower() in ("question", "observation") else "model"
        elif line.lstrip().startswith("["):
            author = "program"
        labels.append(author)
    return labels


def compare(args: tuple, want: list[str], got: Any) -> bool | str:
    """Line by line, naming the first line whose author is wrong."""
    if got == want:
        return True
    lines = args[0].splitlines()
    if not isinstance(got, list):
        return f"return a list with one label per line, not {type(got).__name__}"
    if len(got) != len(lines):
        return f"the trace has {len(lines)} lines but you returned {len(got)} labels"
    wrong = [i for i, label in enumerate(got) if label not in ("model", "program")]
    if wrong:
        return f"each label is the text 'model' or 'program'; label {wrong[0] + 1} is {got[wrong[0]]!r}"
    number, line, mine, yours = next((n, line, m, y) for n, (line, m, y)
                                     in enumerate(zip(lines, want, got, strict=True), 1) if m != y)
    shown = f"({line[:60]!r})" if line.strip() else "(a blank line)"
    return f"line {number} {shown} was written by the {mine}, you said {yours!r}"


def _library_run(kind: str):
    """A real run of the course's loop: the ReAct one, or an act-only one that hits the limit."""
    import react_course as rc

    if kind == "react":
        return rc.run_react(QUESTION, rc.demo_model(), rc.default_tools())
    replies = [f"Action: search\nAction Input: {query}"
               for query in ("Paris tower 1889", "Paris tower 1889 height", "Paris tower")]
    return rc.run_react(QUESTION, rc.ScriptedModel([*replies, "Final Answer: 210 m"]),
                        rc.default_tools(), max_steps=3)


WHO_WROTE_TRACES = {
    "the question is the program's": (
        f"Question: {QUESTION}\n"
        "Thought: I remember this one.\n"
        "Final Answer: 324 m",
        "The program puts the question into the prompt: the model never wrote it. "
        "Label Question lines 'program'.",
    ),
    "one full step, in the canonical format": (
        f"Question: {QUESTION}\n"
        "Thought: I need the tower's name first.\n"
        "Action: search\n"
        "Action Input: Eiffel Tower\n"
        f"Observation: {EIFFEL}\n"
        "Thought: I now know the answer\n"
        "Final Answer: 330 m",
        "Thought, Action, Action Input and Final Answer come from the model; "
        "Question and Observation from the program.",
    ),
    "a multi-line observation": (
        f"Question: {QUESTION}\n"
        "Thought: Let me search.\n"
        "Action: search\n"
        "Action Input: Paris tower\n"
        "Observation: Could not find 'Paris tower'. Similar:\n"
        "\n"
        "1. Paris\n"
        "2. Tour Montparnasse\n"
        "Thought: I should search for the name.",
        "A line without a keyword continues the line before it, and has the same author: "
        "the lines after 'Observation:' (a blank one too) are still the program's, "
        "until the next keyword line.",
    ),
    "a multi-line thought": (
        f"Question: {QUESTION}\n"
        "Thought: The search found nothing.\n"
        "\n"
        "Maybe it needs the tower's name, not a description.\n"
        "Action: search\n"
        "Action Input: Eiffel Tower",
        "A line without a keyword continues the line before it, a blank one too: every line "
        "of a thought, until the next keyword, is still the model's.",
    ),
    "Action Input is the model's": (
        "Question: What do 3 notebooks and 2 pens cost?\n"
        "Thought: I need the price of a notebook.\n"
        "Action: price\n"
        "Action Input: notebook\n"
        "Observation: A notebook costs 4.",
        "The model writes the tool's input as part of its action: 'Action Input' lines are the "
        "model's. Only Question and Observation lines are the program's.",
    ),
    "the paper's numbered format": (
        f"Question: {QUESTION}\n"
        "Thought 1: I need to search for the tower.\n"
        "Action 1: Search[Paris tower 1889]\n"
        "Observation 1: Could not find [Paris tower 1889].\n"
        "Thought 2: I should search for the Eiffel Tower by name.\n"
        "Action 2: Search[Eiffel Tower]\n"
        "Observation 2: The Eiffel Tower is 330 m tall.\n"
        "Thought 3: It is 330 m.\n"
        "Action 3: Finish[330 m]",
        "The paper numbers its keywords: 'Thought 2:', 'Observation 2:'. Allow an optional "
        "number between the keyword and the colon.",
    ),
    "keywords in any case": (
        f"question: {QUESTION}\n"
        "THOUGHT: I need the height.\n"
        "action: search\n"
        "Action input: Eiffel Tower\n"
        f"OBSERVATION: {EIFFEL}\n"
        "final answer: 330 m",
        "Real models write 'THOUGHT:' or 'action input:'. Compare keywords without regard "
        "to case (for example, lower-case the line first).",
    ),
    "spaces before a keyword": (
        f"Question: {QUESTION}\n"
        "  Thought: I need the tower's height.\n"
        "  Action: search\n"
        "  Action Input: Eiffel Tower\n"
        f"  Observation: {EIFFEL}\n"
        "  Thought: I now know the answer\n"
        "  Final Answer: 330 m",
        "A trace copied from a log is often indented. Spaces before the keyword are allowed: "
        "match with r'\\s*' before it, or look at line.lstrip().",
    ),
    "lines before the first keyword": (
        "Answer the question by thinking step by step and using tools.\n"
        "- search(query: str): Find a page by the name of its subject.\n"
        "\n"
        f"Question: {QUESTION}\n"
        "Thought: I should search for the name.\n"
        "Action: search\n"
        "Action Input: Eiffel Tower",
        "A prompt starts with the program's instructions, before any keyword. Lines before the "
        "first keyword are the program's: start with the author 'program'.",
    ),
    "a keyword in the middle of a line": (
        f"Question: {QUESTION}\n"
        "Thought: The search found nothing.\n"
        "So its Observation: line was no help; I will search for the name.\n"
        "Action: search\n"
        "Action Input: Eiffel Tower\n"
        "Observation: [Eiffel Tower] A page that quotes a Final Answer: 330 m.",
        "Only a keyword at the start of a line (after optional spaces) counts: use re.match or "
        "line.lstrip().startswith, not re.search or 'in', which find a keyword anywhere.",
    ),
    "a trace that ends with a newline": (
        f"Question: {QUESTION}\n"
        "Thought: I remember this one.\n"
        "Final Answer: 324 m\n",
        "Split with transcript.splitlines(): split('\\n') gives one more, empty, item after "
        "a final newline, and the labels no longer match the lines.",
    ),
    "a word that only starts like a keyword": (
        f"Question: {QUESTION}\n"
        "Thought: I have searched twice.\n"
        "Observations so far: nothing useful, so I will try the name.\n"
        "Actions that failed: Paris tower 1889.\n"
        "Action: search\n"
        "Action Input: Eiffel Tower",
        "A keyword counts only as a whole word followed by an optional number and a colon: "
        "'Observations so far:' is a line of the model's thought, not an observation.",
    ),
}

LIBRARY = (("agrees with the library on a real ReAct run", "react",
            "Compare with result.render(authors=True) in the lesson."),
           ("the program's notes in brackets", "act_only",
            "Lines such as '[step limit reached: ...]' and '[ended: ...]' are notes the program adds, "
            "and the 'Answer:' line after '[ended: ...]' continues that note."))
EXAMPLES = (*(Example(name, (text,), hint) for name, (text, hint) in WHO_WROTE_TRACES.items()),
            *(Example(name, (_library_run(kind).transcript,), hint) for name, kind, hint in LIBRARY))
WORDS = ("Question", "Thought", "Action", "Action Input", "Observation", "Final Answer")
OTHER = ("1. Paris", "", "   ", "Observations so far: none", "Thoughtful remark", "[ended: step_limit]",
         "  [note: a repeat]", "Zürich ✓", "The answer: 330 m", "Action Inputs: none")


def _line(draw: Draw) -> str:
    if draw.below(3) == 0:
        return draw.pick(OTHER)
    word = draw.pick(WORDS)
    word = draw.pick((word, word.lower(), word.upper()))
    return f"{draw.pick(('', '  ', chr(9)))}{word}{draw.pick(('', ' 2', ' 13'))}: {draw.pick(OTHER[:3])}"


def _lines_like(pattern: str) -> Any:
    """An edge: some line of the generated trace matches ``pattern``."""
    return lambda args: any(re.match(pattern, line) for line in args[0].splitlines())


TABLE = {
    "one label per line": ("a multi-line observation", "a multi-line thought"),
    "Split the transcript with transcript.splitlines()": ("a trace that ends with a newline",),
    "A line that starts with a keyword": ("a keyword in the middle of a line",),
    "Question and Observation lines are the program's": (
        "the question is the program's", "one full step, in the canonical format"),
    "Thought, Action, Action Input and Final Answer lines are the model's": (
        "one full step, in the canonical format", "Action Input is the model's"),
    "then an optional step number": ("the paper's numbered format",),
    "spaces before the keyword are allowed": ("spaces before a keyword",),
    "Keywords may be in any case": ("keywords in any case", GENERATED),
    "count only as whole words": ("a word that only starts like a keyword", GENERATED),
    'A line that starts with "[" is a note by the program': ("the program's notes in brackets",),
    "continues the line before it and has the same author": (
        "a multi-line observation", "a multi-line thought", "the program's notes in brackets"),
    "Lines before the first keyword are the program's": ("lines before the first keyword",),
}
EDGES = {
    "one label per line": _lines_like(r"\s*$"),
    "Split the transcript with transcript.splitlines()": lambda args: args[0].endswith("\n"),
    "then an optional step number": _lines_like(r"\s*[A-Za-z ]+ \d+:"),
    "spaces before the keyword are allowed": _lines_like(r"\s+\w"),
    "Keywords may be in any case": _lines_like(r"\s*(THOUGHT|question|ACTION INPUT)"),
    "count only as whole words": _lines_like(r"(Observations so far|Thoughtful|Action Inputs)"),
    'A line that starts with "[" is a note by the program': _lines_like(r"\s*\["),
    "continues the line before it and has the same author": _lines_like(r"(1\. Paris|Zürich)"),
    "Lines before the first keyword are the program's": lambda args: bool(args[0])
    and KEYWORD.match(args[0].splitlines()[0]) is None,
}
SPEC = define(Spec(
    "01.who_wrote", "label each line of a trace: model or program", "who_wrote", who_wrote_key, EXAMPLES,
    lambda draw: ("\n".join(draw.many(_line, 8)) + draw.pick(("", "\n")),),
    tuple(Rule(rule, tuple(cases), EDGES.get(rule)) for rule, cases in TABLE.items()), compare=compare,
    show=lambda args: f"who_wrote(trace), where trace is:\n{args[0]}",
    hints=(
        "Walk through the lines keeping the current author. A line that starts with a keyword "
        "sets the author; any other line keeps it.",
        "Question and Observation lines are the program's; Thought, Action, Action Input and "
        "Final Answer lines are the model's; a line starting with '[' is a note by the program.",
        "A regular expression such as r'\\s*(question|observation|thought|action(\\s+input)?|"
        "final\\s+answer)(\\s*\\d+)?\\s*:' with re.IGNORECASE matches the keywords, numbered or not.",
    ),
    generated_hint="One label per line of transcript.splitlines(); a keyword (whole word, any case, "
                   "optional number, then ':') sets the author; '[' starts a program's note; any other "
                   "line continues."))
__all__ = ["SPEC", "who_wrote_key"]
