"""01.render_trace's answer key, and the runs its generated inputs are drawn from.

- ``01.render_trace``: runs of 0 to 4 steps, with and without thoughts,
  observations over several lines (without blank lines, which the format
  forbids), answers that are None, empty or text, and final thoughts.
"""

from __future__ import annotations

from ..generated import Draw


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


def runs(draw: Draw) -> tuple:
    question = draw.pick(("What do 2 pens cost?", "", "Wie hoch ist der Eiffelturm?"))
    steps = draw.many(_step, 4)
    answer = draw.pick(("4", None, "", "330 m\n(with antennas)"))
    if draw.boolean():
        return question, steps, answer
    return question, steps, answer, draw.pick(("", "I now know the answer", "Done ✓"))
