"""Grading a trajectory, not only its answer: a rubric checked against a run's steps.

The scorer (``score.py``) asks one question: is the final answer right? Two
runs with the same right answer can differ in everything else: one looked the
answer up and stopped, the other kept calling tools after the answer was on
the page, or wrote a number no tool ever returned and was lucky. The rubric
here reads the steps, and each rule says where it failed:

- ``no_calls_after_answer``: no tool call in a step after the one that made
  the plan's last call, when the observations held all the answer needs
  (``answer_seen_at``);
- ``supported_answer``: every number and every capitalised name in the final
  answer appears in the question or in an observation (a claim the run never
  saw is unsupported, however right it happens to be);
- ``right_tools``: every call names a tool the task's plan uses (an unknown
  tool, or the shop's price list for an encyclopedia question, is a wrong tool).

``grade_trajectory(run)`` returns a ``TrajectoryGrade``: the findings, one per
failed rule, and the share of rules passed. The rules are plain string checks,
so they are cheap, repeatable and blind to meaning: "three hundred and thirty"
is not 330 to them, and a name spelled differently is unsupported. A judge
model (``judge.py``) reads meaning, and brings its own biases. What it leaves
out: partial credit within a rule, and efficiency beyond calls after the answer.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from .metrics import EvalRun, argument_text

RULES = ("no_calls_after_answer", "supported_answer", "right_tools")
_NAME = re.compile(r"(?<![.!?:]\s)\b[A-Z][a-zA-Z]+")
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")


@dataclass(frozen=True)
class Finding:
    """One failed rule: which, at which step (0: the final answer), and what was seen."""

    rule: str
    step: int
    message: str


@dataclass
class TrajectoryGrade:
    """The rubric's verdict on one run."""

    task: str
    findings: list[Finding] = field(default_factory=list)

    @property
    def passed(self) -> list[str]:
        failed = {f.rule for f in self.findings}
        return [rule for rule in RULES if rule not in failed]

    @property
    def score(self) -> float:
        return len(self.passed) / len(RULES)

    def __str__(self) -> str:
        lines = [f"{self.task}: {len(self.passed)}/{len(RULES)} rules passed"]
        lines += [f"  {f.rule} (step {f.step}): {f.message}" for f in self.findings]
        return "\n".join(lines)


def claims(answer: str) -> list[str]:
    """The checkable claims of an answer: its numbers, and its capitalised words that do not start
    a sentence (names, word by word: "Los Angeles Games" is supported by "Los Angeles" and "Games").

    >>> claims("The Eiffel Tower is 330 m tall. It beats the Statue of Liberty (93 m).")
    ['Eiffel', 'Tower', 'Statue', 'Liberty', '330', '93']
    """
    names = [m.group(0) for m in _NAME.finditer(answer) if m.start() > 0]
    return names + _NUMBER.findall(answer)


def unsupported(answer: str, seen: list[str]) -> list[str]:
    """The claims of ``answer`` found in none of the texts ``seen`` (numbers compared without commas).

    >>> unsupported("It is 1,083 ft, says Wikipedia.", ["height: 1083 ft"])
    ['Wikipedia']
    """
    text = " ".join(seen)
    plain = text.replace(",", "")
    return [c for c in claims(answer) if c not in text and c.replace(",", "") not in plain]


def answer_seen_at(run: EvalRun) -> int | None:
    """The step after which the run had what it needed: the plan's last call made (0 for a task
    whose plan makes no call); None if it never made them all.

    Not "the gold appears in an observation": the gold's words often appear a hop early (the
    SpaceX page names Elon Musk before the Tesla page confirms him), and its numbers by chance
    (the "3" of "3 more sentences on this page").
    """
    planned, made = set(run.task.calls), set()
    if not planned:
        return 0
    for step in run.result.steps:
        made |= {(c.name, argument_text(c.arguments)) for c, o in zip(step.calls, step.observations,
                                                                      strict=False) if o.error is None}
        if planned <= made:
            return step.number
    return None


def calls_after_answer(run: EvalRun) -> list[Finding]:
    known = answer_seen_at(run)
    if known is None:
        return []
    later = [s for s in run.result.steps if s.number > known and not s.forced]
    return [Finding("no_calls_after_answer", s.number, f"called {c.name} after step {known} had made the "
                    "plan's last call") for s in later for c in s.calls]


def answer_support(run: EvalRun) -> list[Finding]:
    answer = run.result.answer if run.result.end_reason == "final_answer" else None
    if not answer:
        return []
    seen = [run.task.question, *(o.text for s in run.result.steps for o in s.observations)]
    missing = unsupported(answer, seen)
    return [Finding("supported_answer", 0, "in the answer but in neither the question nor any observation: "
                    + ", ".join(repr(c) for c in missing))] if missing else []


def wrong_tools(run: EvalRun) -> list[Finding]:
    planned = {tool for tool, _ in run.task.calls}
    found = []
    for step in run.result.steps:
        for call, obs in zip(step.calls, step.observations, strict=False):
            if obs.error == "unknown_tool" or (planned and call.name not in planned):
                want = ", ".join(sorted(planned)) or "none"
                found.append(Finding("right_tools", step.number,
                                     f"called {call.name} (the plan uses: {want})"))
    return found


def grade_trajectory(run: EvalRun) -> TrajectoryGrade:
    """Every rule of the rubric against one run's steps."""
    return TrajectoryGrade(run.task.id, [*calls_after_answer(run), *answer_support(run), *wrong_tools(run)])


def rubric_table(runs: list[EvalRun]) -> dict[str, float]:
    """For each rule, the share of runs that pass it (a trajectory's view of a whole evaluation)."""
    grades = [grade_trajectory(run) for run in runs]
    return {rule: sum(rule in g.passed for g in grades) / len(grades) if grades else 0.0 for rule in RULES}


def transcript(run: EvalRun | Any) -> str:
    """A run's steps as plain text, numbered, for a judge (or a person) to read."""
    result = run.result if isinstance(run, EvalRun) else run
    lines = []
    for step in result.steps:
        for call, obs in zip(step.calls, step.observations, strict=False):
            lines.append(f"Step {step.number}: {call.name}({call.arguments}) -> {obs.text}")
        if not step.calls and step.answer is None:
            lines.append(f"Step {step.number}: (no call) {step.observation}")
    lines.append(f"Final answer: {result.answer or '(none: ' + result.end_reason + ')'}")
    return "\n".join(lines)
