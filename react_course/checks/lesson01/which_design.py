"""Check ``01.which_design``: name the design of six short system descriptions.

Labels are forgiven their case and spacing ("Plan and execute"); a wrong
label gets a question to ask of the description, not the right label.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .. import exercise
from ..framework import Case
from .common import answer_for

DESIGNS = ("react", "reason-only", "act-only", "plan-and-execute", "workflow")

SYSTEMS: dict[str, tuple[str, str]] = {
    "A": ("workflow", "Who decides what happens next? Here nobody does: the same steps run in the "
                      "same order for every message, and no step depends on a model's choice."),
    "B": ("plan-and-execute", "Look at when the searches are chosen: all of them before any "
                              "result has been seen, and no result changes them."),
    "C": ("reason-only", "Does it use any tool? Every fact it uses comes from the model's memory, "
                         "however careful its written reasoning is."),
    "D": ("react", "It writes a thought before every tool call and reads each result before "
                   "its next thought."),
    "E": ("act-only", "It is a loop with tools, so it is an agent; but what does it write (or "
                      "think, hidden) before each call?"),
    "F": ("react", "Before every command it says what it expects (a thought), runs one command "
                   "(an action), reads the output (an observation) and decides again."),
}


RULES = {
    "Label each system with one of": tuple(f"system {key}" for key in SYSTEMS),
    "passes every message through the same three steps, in the same order": ("system A",),
    "a model first writes a list of five searches": ("system B",),
    "It has no tools.": ("system C",),
    "Before each tool call, the model writes a sentence about what it knows": ("system D",),
    "one tool call per turn and no other text": ("system E",),
    "before each shell command it runs, what it expects the command to show": ("system F",),
}


@exercise(
    "01.which_design",
    "name the design of six systems",
    rules=RULES,
    hints=(
        "Ask three questions: does it use tools? is there a loop that reads each result before "
        "deciding the next step? is there a written thought before each action?",
        "Tools but no loop: a workflow (fixed steps) or plan-and-execute (the model plans all the "
        "steps first). No tools: reason-only.",
        "A loop with tools and no thoughts is act-only; with a thought before every action, ReAct.",
    ),
)
def which_design_cases(labels: Any):
    if isinstance(labels, dict) and labels and all(v is Ellipsis for v in labels.values()):
        raise NotImplementedError("every label is still ...")
    if not isinstance(labels, dict):
        yield Case("labels is a dict", lambda: labels, test=lambda got: "labels must be a dict",
                   hint="Fill in the dict the exercise starts with; keep its keys.")
        return
    for key, (right, why) in SYSTEMS.items():
        yield Case(f"system {key}", lambda key=key: answer_for(labels, key), test=_design(right, why),
                   given=f"labels[{key!r}]: the design of system {key}",
                   hint="Reread the description: which of the three questions in the hints does "
                        "it answer yes to?")


def _design(right: str, why: str) -> Callable[[Any], bool | str]:
    def test(got: Any) -> bool | str:
        # Forgive case and spacing ("Plan and execute"); the label itself must be right.
        label = "-".join(got.lower().replace("_", " ").split()) if isinstance(got, str) else got
        if label not in DESIGNS:
            return f"use one of {', '.join(map(repr, DESIGNS))}, not {got!r}"
        return True if label == right else f"not {got!r}: {why}"

    return test
