"""A judge model: another model reads a run's transcript and grades it against the rubric.

The rubric's string checks (``trajectory.py``) are blind to meaning; a judge
model reads meaning, in words, at the price of a model call per run and of
its biases. ``judge(run, model)`` sends ``judge_prompt`` (the rubric, the
question, the transcript) and reads back one JSON verdict, one line per rule;
a reply it cannot read is a ``Verdict`` whose ``error`` says so, never a pass.

Offline the judge is ``ScriptedJudge``: it answers from the rubric's own
checks, so it agrees with them by construction, and shows only the plumbing.
With ``REACT_COURSE_MODEL`` set, ``course_judge()`` is the real model. What a
real judge brings, measured in the literature (Zheng et al. 2023, "Judging
LLM-as-a-Judge with MT-Bench and Chatbot Arena", arXiv 2306.05685; Panickssery
et al. 2024, "LLM Evaluators Recognize and Favor Their Own Generations",
arXiv 2404.13076), and what to do about each:

- position: comparing two answers, it prefers one place (often the first).
  Ask both orders (``pairwise`` does) and count only verdicts that agree;
- verbosity: it prefers the longer answer, even when it adds nothing.
  Grade against a rubric, not "which is better", and compare lengths;
- self-preference: it rates its own model's (or family's) output higher.
  Judge with a model from another family than the agent's;
- leniency and confidence: a confident, fluent wrong answer passes more often
  than a hesitant right one. Give it the gold answer and the observations;
- and it is itself a model: check a sample of its verdicts by hand before
  trusting its numbers (agreement with a person, not with itself).

What it leaves out: calibrating a judge against human labels (it needs them).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from .metrics import EvalRun
from .trajectory import RULES, grade_trajectory, transcript

RUBRIC_TEXT = {
    "no_calls_after_answer": "no tool was called after an observation already held the answer",
    "supported_answer": "every fact in the final answer appears in the question or an observation",
    "right_tools": "every call used a tool suited to the question",
}


@dataclass(frozen=True)
class Verdict:
    """A judge's reading of one run: pass or fail per rule, a reason, or why it could not be read."""

    rules: dict[str, bool] = field(default_factory=dict)
    reason: str = ""
    error: str = ""

    @property
    def score(self) -> float | None:
        """The share of rules passed; None when the reply could not be read (not 0: not a grade)."""
        return None if self.error else sum(self.rules.values()) / len(RULES)


def judge_prompt(run: EvalRun) -> str:
    """What the judge reads: the rubric, the question and its gold, and the run's transcript."""
    rubric = "\n".join(f"- {rule}: {text}" for rule, text in RUBRIC_TEXT.items())
    gold = run.task.final or "(no gold answer)"
    return (f"You grade an agent's run against a rubric. For each rule, say true (kept) or false.\n"
            f"Rubric:\n{rubric}\n\nQuestion: {run.task.question}\nA correct answer: {gold}\n\n"
            f"The run:\n{transcript(run)}\n\n"
            'Reply with one JSON object and nothing else, e.g. {"no_calls_after_answer": true, '
            '"supported_answer": false, "right_tools": true, "reason": "..."}')


def parse_verdict(reply: str) -> Verdict:
    """Read a judge's reply: the first JSON object in it, every rule a true or false.

    >>> parse_verdict('Sure! {"no_calls_after_answer": true, "supported_answer": false, '
    ...               '"right_tools": true, "reason": "330 was never seen"}').score
    0.666...
    >>> parse_verdict("It looks fine to me.").error
    'no JSON object in the reply'
    """
    found = re.search(r"\{.*\}", reply, re.DOTALL)
    if found is None:
        return Verdict(error="no JSON object in the reply")
    try:
        data = json.loads(found.group(0))
    except ValueError as error:
        return Verdict(error=f"the JSON could not be read ({error})")
    missing = [rule for rule in RULES if not isinstance(data.get(rule), bool)]
    if missing:
        return Verdict(error=f"no true/false for {', '.join(missing)}")
    return Verdict({rule: data[rule] for rule in RULES}, str(data.get("reason", "")))


class ScriptedJudge:
    """The offline judge: it reads the transcript back out of the prompt's run and answers from the
    rubric's checks. It agrees with ``grade_trajectory`` by construction; a real judge need not."""

    model = "scripted-judge"

    def __init__(self, runs: list[EvalRun]) -> None:
        self.by_prompt = {judge_prompt(run): run for run in runs}

    def __call__(self, prompt: str, stop: Any = None) -> str:
        run = self.by_prompt.get(prompt)
        if run is None:
            return "I can only judge the runs I was given."
        grade = grade_trajectory(run)
        verdict = {rule: rule in grade.passed for rule in RULES}
        reason = "; ".join(f.message for f in grade.findings) or "every rule kept"
        return json.dumps({**verdict, "reason": reason})


def judge(run: EvalRun, model: Any) -> Verdict:
    """Ask ``model`` (a text model, ``model(prompt, stop)``) to grade ``run``; a failed call is an error
    verdict, so one bad call does not stop a whole evaluation's grading."""
    try:
        reply = model(judge_prompt(run), None)
    except Exception as error:  # the judge's call failed: say so in the verdict, grade nothing
        return Verdict(error=f"the judge's call failed: {type(error).__name__}: {error}")
    return parse_verdict(reply)


def course_judge(runs: list[EvalRun]) -> Any:
    """The judge the course's setting names: the scripted judge offline, the real model when set."""
    from ..backends.providers import course_model

    return course_model(scripted=ScriptedJudge(runs))


def pairwise_prompt(question: str, first: str, second: str) -> str:
    return (f"Question: {question}\nAnswer A: {first}\nAnswer B: {second}\n"
            "Which answer is better? Reply with the single letter A or B.")


def pairwise(question: str, one: str, other: str, model: Any) -> str:
    """Compare two answers in both orders: "one", "other", or "inconsistent" (a position bias).

    >>> first_always = lambda prompt, stop=None: "A"
    >>> pairwise("How tall?", "330 m", "About 330 metres, as the page says.", first_always)
    'inconsistent'
    """
    def pick(first: str, second: str) -> str:
        reply = model(pairwise_prompt(question, first, second), None).strip().upper()
        return reply[:1] if reply[:1] in ("A", "B") else "?"

    forward, backward = pick(one, other), pick(other, one)
    if (forward, backward) == ("A", "B"):
        return "one"
    if (forward, backward) == ("B", "A"):
        return "other"
    return "inconsistent"
