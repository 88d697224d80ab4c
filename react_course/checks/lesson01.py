"""Lesson 01: reading traces, writing one, the paper's numbers, and telling designs apart.

Four exercises:

- ``01.who_wrote``: label every line of a text trace "model" or "program";
- ``01.render_trace``: write the classic trace from plain data;
- ``01.paper_facts``: a quiz on the ReAct paper's results and their caveats;
- ``01.which_design``: name the design of six short system descriptions.

The quizzes never show the right answer: a wrong one gets a hint that says
which caveat it fell into (a number from another table, another model, the
other direction of the switch), so the student goes back to the lesson.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import exercise
from .framework import Case

QUESTION = "How tall is the tower in Paris that opened in 1889?"
NO_PAGE = ("No page matches 'Paris tower 1889'. search finds pages by the name of their subject: "
           "try the exact name of the person, place, company or thing, not a description.")
EIFFEL = ("[Eiffel Tower] The Eiffel Tower is a wrought-iron lattice tower in Paris. "
          "With the broadcasting antennas on its top it is 330 m tall.")


# ---------------------------------------------------------------- 01.who_wrote

def _labels(text: str) -> Callable[[Any], bool | str]:
    """A test that compares a list of labels with the right ones, line by line."""
    lines = text.splitlines()

    def test(got: Any) -> bool | str:
        if not isinstance(got, list):
            return f"return a list with one label per line, not {type(got).__name__}"
        if len(got) != len(lines):
            return f"the trace has {len(lines)} lines but you returned {len(got)} labels"
        wrong = [i for i, label in enumerate(got) if label not in ("model", "program")]
        if wrong:
            return f"each label is the text 'model' or 'program'; label {wrong[0] + 1} is {got[wrong[0]]!r}"
        right = _reference_labels(text)
        for number, (line, mine, yours) in enumerate(zip(lines, right, got, strict=True), 1):
            if mine != yours:
                shown = f"({line[:60]!r})" if line.strip() else "(a blank line)"
                return f"line {number} {shown} was written by the {mine}, you said {yours!r}"
        return True

    return test


def _reference_labels(text: str) -> list[str]:
    import re

    keyword = re.compile(r"\s*(question|observation|thought|action(?:\s+input)?|final\s+answer)"
                         r"(?:\s*\d+)?\s*:", re.IGNORECASE)
    labels, author = [], "program"
    for line in text.splitlines():
        found = keyword.match(line)
        if found:
            author = "program" if found[1].lower() in ("question", "observation") else "model"
        elif line.lstrip().startswith("["):
            author = "program"
        labels.append(author)
    return labels


def _library_run(kind: str):
    """A real run of the course's loop: the ReAct one, or an act-only one that hits the limit."""
    import react_course as rc

    if kind == "react":
        return rc.run_react(QUESTION, rc.demo_model(), rc.default_tools())
    replies = [f"Action: search\nAction Input: {query}"
               for query in ("Paris tower 1889", "Paris tower 1889 height", "Paris tower")]
    return rc.run_react(QUESTION, rc.ScriptedModel([*replies, "Final Answer: 210 m"]),
                        rc.default_tools(), max_steps=3)


def _library_case(name: str, kind: str, student: Callable, hint: str) -> Case:
    text = _library_run(kind).transcript
    return Case(name, lambda: student(text), test=_labels(text), hint=hint,
                given=f"who_wrote(result.transcript) for this run:\n{text}")


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
        "Maybe it needs the tower's name, not a description.\n"
        "Action: search\n"
        "Action Input: Eiffel Tower",
        "A line without a keyword continues the line before it: the second line of a "
        "thought is still the model's.",
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


@exercise(
    "01.who_wrote",
    "label each line of a trace: model or program",
    hints=(
        "Walk through the lines keeping the current author. A line that starts with a keyword "
        "sets the author; any other line keeps it.",
        "Question and Observation lines are the program's; Thought, Action, Action Input and "
        "Final Answer lines are the model's; a line starting with '[' is a note by the program.",
        "A regular expression such as r'\\s*(question|observation|thought|action(\\s+input)?|"
        "final\\s+answer)(\\s*\\d+)?\\s*:' with re.IGNORECASE matches the keywords, numbered or not.",
    ),
)
def who_wrote_cases(who_wrote: Any):
    for name, (text, hint) in WHO_WROTE_TRACES.items():
        yield Case(name, lambda text=text: who_wrote(text), test=_labels(text), hint=hint,
                   given=f"who_wrote(trace), where trace is:\n{text}")
    yield _library_case(
        "agrees with the library on a real ReAct run", "react", who_wrote,
        "Compare with result.render(authors=True) in the lesson.")
    yield _library_case(
        "the program's notes in brackets", "act_only", who_wrote,
        "Lines such as '[step limit reached: ...]' and '[ended: ...]' are notes the program adds, "
        "and the 'Answer:' line after '[ended: ...]' continues that note.")


# ------------------------------------------------------------ 01.render_trace

def _same_text(expected: str) -> Callable[[Any], bool | str]:
    """A test that points at the first line that differs."""

    def test(got: Any) -> bool | str:
        if not isinstance(got, str):
            return f"return the trace as one string, not {type(got).__name__}"
        if got == expected:
            return True
        if got.endswith("\n") and got.rstrip("\n") == expected:
            return "the trace ends with a newline; end it with its last line"
        want, have = expected.split("\n"), got.split("\n")
        for number, (line, yours) in enumerate(zip(want, have, strict=False), 1):
            if line != yours:
                return f"line {number} should be {line[:90]!r} but is {yours[:90]!r}"
        if len(have) < len(want):
            return (f"the trace stops after line {len(have)}; "
                    f"line {len(have) + 1} should be {want[len(have)][:90]!r}")
        return (f"the trace should end after line {len(want)}, "
                f"but it goes on with {have[len(want)][:90]!r}")

    return test


def _step(thought: str, tool: str, text: str, observation: str) -> dict[str, str]:
    return {"thought": thought, "tool": tool, "input": text, "observation": observation}


def _paris_run_data() -> tuple[str, list[dict[str, str]], str, str]:
    """The demo model's Paris run as plain data, and the library's transcript of it."""
    import react_course as rc

    result = rc.run_react(QUESTION, rc.demo_model(), rc.default_tools())
    steps = [_step(s.thought, s.action.tool, s.action.input, s.observation)
             for s in result.steps if s.action]
    transcript = result.transcript.rsplit("\n", 1)[0]  # without the program's "[ended: ...]" note
    return QUESTION, steps, result.answer, transcript


SHOP_Q = "What do 3 notebooks and 2 pens cost?"
NOTEBOOK = _step("I need the price of a notebook.", "price", "notebook", "A notebook costs 4.")
PEN = _step("Now I need the price of a pen.", "price", "pen", "A pen costs 2.")
TOTAL = _step("Three notebooks at 4 and two pens at 2.", "calculate", "3 * 4 + 2 * 2", "16")


@exercise(
    "01.render_trace",
    "write the classic text trace from plain data",
    hints=(
        "Build a list of lines and join it with '\\n' at the end: no blank lines, no newline "
        "after the last line.",
        "For each step: 'Thought: ...' (only when the step has a thought), 'Action: tool', "
        "'Action Input: input', then 'Observation: ...'.",
        "After the steps, only when answer is not None: 'Thought: <final_thought>' (only when it "
        "is not empty) and 'Final Answer: <answer>'.",
    ),
)
def render_trace_cases(render_trace: Any):
    def case(name: str, args: tuple, expected: str, hint: str, given: str = "") -> Case:
        return Case(name, lambda: render_trace(*args), expected=expected, test=_same_text(expected),
                    given=given or _call(args), hint=hint)

    yield case(
        "one step and an answer", (SHOP_Q, [NOTEBOOK], "A notebook costs 4."),
        f"Question: {SHOP_Q}\nThought: I need the price of a notebook.\nAction: price\n"
        "Action Input: notebook\nObservation: A notebook costs 4.\n"
        "Thought: I now know the answer\nFinal Answer: A notebook costs 4.",
        "Question first; then Thought, Action, Action Input and Observation for the step; "
        "then the final Thought and the Final Answer.",
    )
    yield case(
        "three steps, every one kept, in order", (SHOP_Q, [NOTEBOOK, PEN, TOTAL], "16"),
        "\n".join([f"Question: {SHOP_Q}",
                   *(f"Thought: {s['thought']}\nAction: {s['tool']}\nAction Input: {s['input']}\n"
                     f"Observation: {s['observation']}" for s in (NOTEBOOK, PEN, TOTAL)),
                   "Thought: I now know the answer", "Final Answer: 16"]),
        "Render every step, the last one too, in the order given; the observation comes after "
        "the action that produced it.",
    )
    question, steps, answer, transcript = _paris_run_data()
    yield case(
        "agrees with the library's transcript of a real run", (question, steps, answer), transcript,
        "Compare with result.transcript in the lesson (without its last '[ended: ...]' line).",
        given="render_trace(question, steps, answer) with the question, steps and answer of the "
              "demo model's Paris run (as in the lesson)",
    )
    yield case(
        "a step without a thought (act-only)",
        (QUESTION, [_step("", "search", "Eiffel Tower", EIFFEL)], "330 m"),
        f"Question: {QUESTION}\nAction: search\nAction Input: Eiffel Tower\nObservation: {EIFFEL}\n"
        "Thought: I now know the answer\nFinal Answer: 330 m",
        "When a step's thought is empty, write no Thought line for it (not an empty 'Thought: ').",
    )
    no_key = {"tool": "search", "input": "Paris tower 1889", "observation": NO_PAGE}
    yield case(
        "a step with no 'thought' key at all", (QUESTION, [no_key], None),
        f"Question: {QUESTION}\nAction: search\nAction Input: Paris tower 1889\nObservation: {NO_PAGE}",
        "Read the thought with step.get('thought', ''): an act-only step may have no such key.",
    )
    yield case(
        "no steps: a reason-only answer",
        (QUESTION, [], "324 m", "It is the Eiffel Tower, 324 m tall."),
        f"Question: {QUESTION}\nThought: It is the Eiffel Tower, 324 m tall.\nFinal Answer: 324 m",
        "With no steps, the trace is the question, the final thought you were given and the answer.",
    )
    yield case(
        "no answer: the run ended without one",
        (QUESTION, [_step("I need to search.", "search", "Paris tower 1889", NO_PAGE)], None),
        f"Question: {QUESTION}\nThought: I need to search.\nAction: search\n"
        f"Action Input: Paris tower 1889\nObservation: {NO_PAGE}",
        "answer=None means the run stopped without a final answer: end with the last observation, "
        "and write no final Thought and no 'Final Answer: None'.",
    )
    multi = "Could not find 'Paris tower'. Similar:\n1. Paris\n2. Tour Montparnasse"
    yield case(
        "a multi-line observation, kept as it is",
        (QUESTION, [_step("Search.", "search", "Paris tower", multi)], None),
        f"Question: {QUESTION}\nThought: Search.\nAction: search\nAction Input: Paris tower\n"
        f"Observation: {multi}",
        "Write 'Observation: ' and then the observation exactly as the tool returned it.",
    )


def _call(args: tuple) -> str:
    """How the case called render_trace, with its data laid out to read."""
    from pprint import pformat

    names = ("question", "steps", "answer", "final_thought")
    shown = "\n".join(f"{name} = {pformat(value, width=100, sort_dicts=False)}"
                      for name, value in zip(names, args, strict=False))
    call = "render_trace(question, steps, answer" + (", final_thought)" if len(args) == 4 else ")")
    return f"{call} with\n{shown}"


# ------------------------------------------------------------- 01.paper_facts

def _number(right: float, wrong: dict[float, str], generic: str) -> Callable[[Any], bool | str]:
    def test(got: Any) -> bool | str:
        if isinstance(got, bool) or not isinstance(got, int | float):
            return f"write a number such as 12.5, not {type(got).__name__} {got!r}"
        if abs(got - right) < 1e-9:
            return True
        for value, why in wrong.items():
            if abs(got - value) < 1e-9:
                return why
        return generic

    return test


def _yes_no(right: bool, why: str) -> Callable[[Any], bool | str]:
    def test(got: Any) -> bool | str:
        if not isinstance(got, bool):
            return f"write True or False, not {got!r}"
        return True if got is right else why

    return test


def _letter(right: str, wrong: dict[str, str]) -> Callable[[Any], bool | str]:
    def test(got: Any) -> bool | str:
        letter = got.strip().upper().rstrip(").") if isinstance(got, str) else None
        if letter not in ("A", "B", "C", "D"):
            return f"write one letter, A, B, C or D, not {got!r}"
        return True if letter == right else wrong[letter]

    return test


TABLE = "Look again at the table of HotpotQA and FEVER results in the lesson (PaLM-540B, Table 1)."

PAPER_QUESTIONS: dict[str, tuple[Callable[[Any], bool | str], str]] = {
    "hotpotqa_react": (
        _number(27.4, {
            30.4: "30.4 is a re-run with GPT-3 on 500 dev questions, from the authors' code "
                  "repository: another model and another sample. The question asks for the paper's "
                  "PaLM-540B table.",
            29.4: "29.4 is CoT's score in that table (and the number an appendix gives for another "
                  "subset): not ReAct's in the main table.",
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
            0.47: "Write the share in percent, as a number of percent (12 for 12%), not as a fraction.",
            23: "23% is the next group: searches that returned nothing useful. Reasoning errors, "
                "repetitive loops among them, were the largest group.",
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


@exercise(
    "01.paper_facts",
    "the ReAct paper's numbers and their caveats",
    hints=(
        "Every answer is in the lesson's section on the paper's results; the numbers are from "
        "its main table (PaLM-540B, few-shot).",
        "A number that appears elsewhere (a re-run with another model, an appendix, another row) "
        "is a trap: the failed case says which one you picked.",
        "Numbers are Python numbers (27.4, not '27.4'), yes/no answers are True or False, "
        "choices are one letter.",
    ),
)
def paper_facts_cases(answers: Any):
    yield from _quiz(answers, PAPER_QUESTIONS)


def _quiz(answers: Any, questions: dict[str, tuple[Callable[[Any], bool | str], str]]):
    if isinstance(answers, dict) and answers and all(v is Ellipsis for v in answers.values()):
        raise NotImplementedError("every answer is still ...")
    if not isinstance(answers, dict):
        yield Case("answers is a dict", lambda: answers, test=lambda got: "answers must be a dict",
                   hint="Fill in the dict the exercise starts with; keep its keys.")
        return
    for key, (test, hint) in questions.items():
        yield Case(key, lambda key=key: _answer(answers, key), test=test, hint=hint,
                   given=f"answers[{key!r}]")


def _answer(answers: dict, key: str) -> Any:
    if key not in answers:
        raise KeyError(f"answers has no key {key!r}; keep the keys the exercise gives")
    if answers[key] is Ellipsis:
        raise NotImplementedError(f"answers[{key!r}] is still ...")
    return answers[key]


# ------------------------------------------------------------ 01.which_design

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
    "E": ("act-only", "It is a loop with tools, so it is an agent; but what does it write before "
                      "each call?"),
    "F": ("react", "Before every command it says what it expects (a thought), runs one command "
                   "(an action), reads the output (an observation) and decides again."),
}


@exercise(
    "01.which_design",
    "name the design of six systems",
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
        yield Case(f"system {key}", lambda key=key: _answer(labels, key), test=_design(right, why),
                   given=f"labels[{key!r}]", hint="Reread the description: which of the three "
                   "questions in the hints does it answer yes to?")


def _design(right: str, why: str) -> Callable[[Any], bool | str]:
    def test(got: Any) -> bool | str:
        # Forgive case and spacing ("Plan and execute"); the label itself must be right.
        label = "-".join(got.lower().replace("_", " ").split()) if isinstance(got, str) else got
        if label not in DESIGNS:
            return f"use one of {', '.join(map(repr, DESIGNS))}, not {got!r}"
        return True if label == right else f"not {got!r}: {why}"

    return test
