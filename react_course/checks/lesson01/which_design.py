"""01.which_design as a spec (``checks/quiz.py``): name the design of six short system descriptions.

Labels are forgiven their case, spacing and underscores ("Plan and execute"); a
wrong label gets a question to ask of the description, not the right label.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..quiz import quiz
from ..spec import Fault, Rule

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
ONE_OF = "Label each system with one of"

RULES = (
    Rule(ONE_OF, tuple(f"system {system}" for system in SYSTEMS)),
    Rule("passes every message through the same three steps, in the same order", ("system A",)),
    Rule("a model first writes a list of five searches", ("system B",)),
    Rule("It has no tools.", ("system C",)),
    Rule("Before each tool call, the model writes a sentence about what it knows", ("system D",)),
    Rule("one tool call per turn and no other text", ("system E",)),
    Rule("before each shell command it runs, what it expects the command to show", ("system F",)),
)


def label(got: Any) -> Any:
    """A label as the check reads it: case, spaces and underscores forgiven.

    >>> label(" Plan and_execute "), label(3)
    ('plan-and-execute', 3)
    """
    return "-".join(got.lower().replace("_", " ").split()) if isinstance(got, str) else got


def _design(right: str, why: str) -> Callable[[Any], bool | str]:
    def test(got: Any) -> bool | str:
        if label(got) not in DESIGNS:
            return f"use one of {', '.join(map(repr, DESIGNS))}, not {got!r}"
        return True if label(got) == right else f"not {got!r}: {why}"

    return test


FAULTS = (Fault(ONE_OF, "A label is one of the five the exercise names, spelt as it spells them.",
                found=lambda args, want, got: label(got) not in DESIGNS),)

SPEC = quiz(
    "01.which_design", "name the design of six systems", "labels",
    {system: right for system, (right, _) in SYSTEMS.items()},
    {system: _design(right, why) for system, (right, why) in SYSTEMS.items()},
    {system: f"the design of system {system}" for system in SYSTEMS},
    dict.fromkeys(SYSTEMS, "Reread the description: which of the three questions in the hints does it "
                           "answer yes to?"), RULES, FAULTS, named=lambda system: f"system {system}",
    general=(
        "Ask three questions: does it use tools? is there a loop that reads each result before "
        "deciding the next step? is there a written thought before each action?",
        "Tools but no loop: a workflow (fixed steps) or plan-and-execute (the model plans all the "
        "steps first). No tools: reason-only.",
        "A loop with tools and no thoughts is act-only; with a thought before every action, ReAct.",
    ))
__all__ = ["DESIGNS", "SPEC", "SYSTEMS"]
