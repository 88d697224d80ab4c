"""Lesson 01's answer keys, and the generated traces and steps their checkers compare on.

- ``01.who_wrote``: traces of keyword lines (numbered, in any case, indented),
  notes in brackets, continuation and blank lines, and words that look like
  keywords but are not (``Observations so far:``). Left out, because the
  docstring does not settle them: a number glued to its keyword (``Thought2:``)
  and spaces before the colon.
- ``01.render_trace``: runs of 0 to 4 steps, with and without thoughts,
  observations over several lines (without blank lines, which the format
  forbids), answers that are None, empty or text, and final thoughts.
"""

from __future__ import annotations

import re

from ..generated import Comparison, Draw, call_text, register, same_value

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


WORDS = ("Question", "Thought", "Action", "Action Input", "Observation", "Final Answer")
OTHER = ("1. Paris", "", "   ", "Observations so far: none", "Thoughtful remark", "[ended: step_limit]",
         "  [note: a repeat]", "Zürich ✓", "The answer: 330 m", "Action Inputs: none")


def _line(draw: Draw) -> str:
    if draw.below(3) == 0:
        return draw.pick(OTHER)
    word = draw.pick(WORDS)
    word = draw.pick((word, word.lower(), word.upper()))
    return f"{draw.pick(('', '  ', chr(9)))}{word}{draw.pick(('', ' 2', ' 13'))}: {draw.pick(OTHER[:3])}"


WHO_WROTE = register(Comparison(
    "01.who_wrote", who_wrote_key,
    lambda draw: ("\n".join(draw.many(_line, 8)) + draw.pick(("", "\n")),),
    lambda args, expected, got: same_value(expected, got), call_text("who_wrote"),
    hint="One label per line of transcript.splitlines(); a keyword (whole word, any case, optional "
         "number, then ':') sets the author; '[' starts a program's note; any other line continues."))


def render_key(question: str, steps: list[dict], answer: str | None,
               final_thought: str = "I now know the answer") -> str:
    """The answer key: the lines of the trace, joined with newlines."""
    lines = [f"Question: {question}"]
    for step in steps:
        if step.get("thought"):
            lines.append(f"Thought: {step['thought']}")
        lines += [f"Action: {step['tool']}", f"Action Input: {step['input']}",
                  f"Observation: {step['observation']}"]
    if answer is not None:
        if final_thought:
            lines.append(f"Thought: {final_thought}")
        lines.append(f"Final Answer: {answer}")
    return "\n".join(lines)


def _step(draw: Draw) -> dict[str, str]:
    step = {"tool": draw.pick(("search", "price", "calculate")),
            "input": draw.pick(("Eiffel Tower", "pen", "330 - 93", "東京")),
            "observation": draw.pick(("A pen costs 2.", "line one\nline two", "  spaced  ", "Zürich ✓"))}
    thought = draw.below(3)
    if thought:
        step["thought"] = ("", "I need the price of a pen.")[thought - 1]
    return step


def _runs(draw: Draw) -> tuple:
    question = draw.pick(("What do 2 pens cost?", "", "Wie hoch ist der Eiffelturm?"))
    steps = draw.many(_step, 4)
    answer = draw.pick(("4", None, "", "330 m\n(with antennas)"))
    if draw.boolean():
        return question, steps, answer
    return question, steps, answer, draw.pick(("", "I now know the answer", "Done ✓"))


RENDER = register(Comparison(
    "01.render_trace", render_key, _runs, lambda args, expected, got: same_value(expected, got),
    call_text("render_trace"),
    hint="A list of lines: the question, then each step (its Thought only when there is one), then the "
         "final Thought (unless empty) and Final Answer unless answer is None; '\\n'.join(lines)."))
