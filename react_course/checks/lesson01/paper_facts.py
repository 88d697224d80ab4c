"""01.paper_facts as a spec (``checks/quiz.py``): a quiz on the ReAct paper's results and their caveats.

A wrong answer is never told the right one: its message names the trap it
fell into (a number from another table, another model, the other direction
of the switch), so the student goes back to the lesson.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..quiz import quiz
from ..spec import Fault, Rule

CLOSE = 0.5  # a number within half a point of the answer is the answer, rounded (70.9 or 71)


def _number(right: float, wrong: dict[float, str], generic: str) -> Callable[[Any], bool | str]:
    """A test for a number: the answer rounded is fine; a trap gets its own message.

    No trap may lie within ``CLOSE`` of the answer (the tests check this), so
    accepting a rounded answer never accepts a trap.
    """

    def test(got: Any) -> bool | str:
        if isinstance(got, bool) or not isinstance(got, int | float):
            return f"write a number such as 12.5, not {type(got).__name__} {got!r}"
        if abs(got - right) <= CLOSE + 1e-9:
            return True
        for value, why in wrong.items():
            if abs(got - value) < 1e-9:
                return why
        if 0 < got < 1 and abs(got * 100 - right) <= CLOSE + 1e-9:
            return "Write it in percent, as a number of percent (12 for 12%), not as a fraction."
        return generic

    test.traps = dict(wrong)  # the tests check that no trap is accepted
    test.kind, test.right = "number", right
    return test


def _yes_no(right: bool, why: str) -> Callable[[Any], bool | str]:
    def test(got: Any) -> bool | str:
        if not isinstance(got, bool):
            return f"write True or False, not {got!r}"
        return True if got is right else why

    test.kind, test.right = "yes/no", right
    return test


def _letter(right: str, wrong: dict[str, str]) -> Callable[[Any], bool | str]:
    def test(got: Any) -> bool | str:
        letter = got.strip().upper().rstrip(").") if isinstance(got, str) else None
        if letter not in ("A", "B", "C", "D"):
            return f"write one letter, A, B, C or D, not {got!r}"
        return True if letter == right else wrong[letter]

    test.kind, test.right = "letter", right
    return test


TABLE = "Look again at the table of HotpotQA and FEVER results in the lesson (PaLM-540B, Table 1)."

PAPER_QUESTIONS: dict[str, tuple[Callable[[Any], bool | str], str]] = {
    "hotpotqa_react": (
        _number(27.4, {
            30.4: "30.4 is a re-run with GPT-3 on 500 dev questions, from the authors' code "
                  "repository: another model and another sample. The question asks for the paper's "
                  "PaLM-540B table.",
            29.4: "29.4 is CoT's score in that table (and ReAct's in an appendix comparison on 500 "
                  "random validation questions, against GPT-3's 30.8): not ReAct's in the main table.",
            30.8: "30.8 is GPT-3's score in an appendix comparison on 500 random validation "
                  "questions: another model and another sample, not the main table.",
            35.1: "35.1 is the best combination, ReAct→CoT-SC, not ReAct alone.",
            34.2: "34.2 is the combination CoT-SC→ReAct, not ReAct alone.",
            25.7: "25.7 is Act (actions without thoughts), not ReAct.",
            28.7: "28.7 is Standard prompting (no thoughts, no actions), not ReAct.",
        }, "That number is not ReAct's HotpotQA exact match in the paper's main table."),
        "ReAct's HotpotQA exact match with PaLM-540B, from the paper's main table.",
    ),
    "best_hotpotqa": (
        _letter("D", {
            "A": "CoT-SC alone beats ReAct alone on HotpotQA, but both combinations beat CoT-SC.",
            "B": "ReAct alone scores below CoT on HotpotQA, so it cannot be the best.",
            "C": "CoT-SC→ReAct is close, but the other direction of the switch scores higher.",
        }),
        TABLE,
    ),
    "react_beats_cot_hotpotqa": (
        _yes_no(False, "Compare the ReAct and CoT rows in the HotpotQA column: ReAct alone loses. "
                       "Its gains there are fewer hallucinated facts and traces you can check."),
        TABLE,
    ),
    "react_beats_cot_fever": (
        _yes_no(True, "Compare the ReAct and CoT rows in the FEVER column: there the order is the "
                      "other way round from HotpotQA."),
        TABLE,
    ),
    "reasoning_error_share": (
        _number(47, {
            23: "23% is the share where the search returned nothing useful. Reasoning errors, "
                "repetitive loops among them, were the largest share.",
            29: "29% is label ambiguity: answers right in substance that did not match the "
                "dataset's label exactly. The question asks about reasoning errors.",
            56: "56% is chain of thought's largest failure, hallucination: the question asks "
                "about ReAct's failures.",
            0: "0% is ReAct's share of hallucination, not of reasoning errors.",
        }, "That is not the share the error analysis gives for reasoning errors."),
        "Reread the error analysis in the lesson: the largest group of ReAct's HotpotQA failures.",
    ),
    "switch_trigger": (
        _letter("B", {
            "A": "That is the other direction, CoT-SC→ReAct: it backs off to ReAct when the "
                 "samples do not agree.",
            "C": "An empty search is not the trigger: ReAct is left to recover from it (the Paris "
                 "run did). The switch looks at whether ReAct answered at all.",
            "D": "The switch is mechanical: it never reads the thoughts. It only looks at whether "
                 "ReAct answered.",
        }),
        "Why is the step limit part of the method? Reread the caveats about the combinations.",
    ),
    "alfworld_react": (
        _number(71, {
            57: "57% is ReAct's average over its 6 trials; the headline figure (and the +34) "
                "takes the best of the 6.",
            45: "45% is Act, the same prompts without thoughts.",
            37: "37% is BUTLER, the imitation-learning baseline.",
            34: "34 is the gain in points over BUTLER, not the success rate.",
        }, "That is not ReAct's headline ALFWorld success rate."),
        "Reread the decision-making results: ALFWorld, as the abstract's +34 points counts it.",
    ),
}


# What each answer is about, shown with a wrong one (a bare "got: 5" says nothing).
ABOUT = {
    "hotpotqa_react": "ReAct's HotpotQA exact match (PaLM-540B, main table)",
    "best_hotpotqa": "the method with the best HotpotQA exact match (a letter)",
    "react_beats_cot_hotpotqa": "does ReAct alone beat chain of thought on HotpotQA? (True/False)",
    "react_beats_cot_fever": "does ReAct alone beat chain of thought on FEVER? (True/False)",
    "reasoning_error_share": "the percentage of ReAct's HotpotQA failures that were reasoning errors",
    "switch_trigger": "when ReAct→CoT-SC switches to CoT-SC (a letter)",
    "alfworld_react": "ReAct's ALFWorld success rate in percent, as the abstract's +34 counts it",
}

RIGHT = {question: test.right for question, (test, _) in PAPER_QUESTIONS.items()}  # the key
PERCENT = ("hotpotqa_react", "reasoning_error_share", "alfworld_react")  # an exact match is one too
NUMBERS = "Numbers are Python numbers"
PERCENTS = "percentages are numbers of percent"
YES_NO = "yes/no answers are `True` or `False`"
LETTERS = "choices are one letter"


def _kind(question: str) -> str:
    return PAPER_QUESTIONS[question][0].kind


def _a_number(got: Any) -> bool:
    return isinstance(got, int | float) and not isinstance(got, bool)


RULES = (
    Rule("`hotpotqa_react`: ReAct's HotpotQA exact match", ("hotpotqa_react",)),
    Rule("`best_hotpotqa`: which method had the best HotpotQA exact match?", ("best_hotpotqa",)),
    Rule("does ReAct alone beat chain of thought on HotpotQA?", ("react_beats_cot_hotpotqa",)),
    Rule("does ReAct alone beat chain of thought on FEVER?", ("react_beats_cot_fever",)),
    Rule("what percentage of ReAct's HotpotQA failures were reasoning errors", ("reasoning_error_share",)),
    Rule("when does ReAct→CoT-SC switch to CoT-SC?", ("switch_trigger",)),
    Rule("ReAct's ALFWorld success rate, in percent, as the abstract's +34 points counts it",
         ("alfworld_react",)),
    Rule(NUMBERS, ("hotpotqa_react", "alfworld_react"), edge=lambda a: _kind(a[0]) == "number"),
    Rule(PERCENTS, ("reasoning_error_share", "alfworld_react"), edge=lambda a: a[0] in PERCENT),
    Rule(YES_NO, ("react_beats_cot_hotpotqa", "react_beats_cot_fever"),
         edge=lambda a: _kind(a[0]) == "yes/no"),
    Rule(LETTERS, ("best_hotpotqa", "switch_trigger"), edge=lambda a: _kind(a[0]) == "letter"),
)

FAULTS = (
    Fault(NUMBERS, "Write the number itself (27.0, not '27.0' or '27%'); rounded to a whole number is fine.",
          found=lambda args, want, got: _kind(args[0]) == "number" and not _a_number(got)),
    Fault(PERCENTS, "Write a percentage as a number of percent: 12 for 12%, not 0.12.",
          found=lambda args, want, got: _kind(args[0]) == "number" and _a_number(got) and 0 < got < 1),
    Fault(YES_NO, "A yes/no answer is a Python bool (the value, not its name in quotes, nor 1 or 0).",
          found=lambda args, want, got: _kind(args[0]) == "yes/no" and not isinstance(got, bool)),
    Fault(LETTERS, "Write one letter, A, B, C or D: the letter of the choice, not its name.",
          found=lambda args, want, got: _kind(args[0]) == "letter" and not (
              isinstance(got, str) and got.strip().upper().rstrip(").") in ("A", "B", "C", "D"))),
)

SPEC = quiz(
    "01.paper_facts", "the ReAct paper's numbers and their caveats", "answers", RIGHT,
    {question: test for question, (test, _) in PAPER_QUESTIONS.items()}, ABOUT,
    {question: hint for question, (_, hint) in PAPER_QUESTIONS.items()}, RULES, FAULTS,
    general=(
        "Every answer is in the lesson's section on the paper's results (PaLM-540B, few-shot): "
        "the HotpotQA and FEVER table, the error analysis and the decision-making results.",
        "A number that appears elsewhere (a re-run with another model, an appendix, another row) "
        "is a trap: the failed case says which one you picked.",
        "Numbers are Python numbers (12.5, not '12.5'; rounded to a whole number is fine), yes/no "
        "answers are True or False, choices are one letter.",
    ))
__all__ = ["PAPER_QUESTIONS", "RIGHT", "SPEC"]
