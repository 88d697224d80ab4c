"""Check ``01.render_trace``: write the classic text trace from plain data.

A failed case points at the first line that differs, so the student sees
where their trace and the expected one part ways, not two walls of text.
"""

from __future__ import annotations

from typing import Any

from ..spec import GENERATED, Example, Rule, Spec, define
from .common import EIFFEL, NO_PAGE, QUESTION
from .generated_traces import render_key, runs


def compare(args: tuple, expected: str, got: Any) -> bool | str:
    """Equal texts; otherwise point at the first line that differs."""
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
    return f"the trace should end after line {len(want)}, but it goes on with {have[len(want)][:90]!r}"


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
NOTEBOOK_Q = "What does one notebook cost?"
NOTEBOOK = _step("I need the price of a notebook.", "price", "notebook", "A notebook costs 4.")
PEN = _step("Now I need the price of a pen.", "price", "pen", "A pen costs 2.")
TOTAL = _step("Three notebooks at 4 and two pens at 2.", "calculate", "3 * 4 + 2 * 2", "16")



TABLE = {
    "Question: <question>": ("one step and an answer", "no steps: a reason-only answer"),
    "then for each step": ("three steps, every one kept, in order", GENERATED),
    "(left out when the thought is empty or missing)": (
        "a step without a thought (act-only)", "a step with no 'thought' key at all", GENERATED),
    'Action Input: <step["input"]>': ("one step and an answer",
                                      "agrees with the library's transcript of a real run"),
    "exactly as given, even over several lines": (
        "a multi-line observation, kept as it is", "spaces around an observation are kept"),
    "unless answer is None": ("no answer: the run ended without one",
                              "an empty answer is still an answer"),
    "Thought: <final_thought>": ("no steps: a reason-only answer",),
    "(left out when final_thought is empty)": ("an empty final thought: no final Thought line",),
    "No blank lines, and no newline after the last line": (
        "one step and an answer", "three steps, every one kept, in order"),
}
EDGES = {
    "then for each step": lambda a: len(a[1]) >= 2,
    "(left out when the thought is empty or missing)": lambda a: any("thought" not in s for s in a[1])
    and any(s.get("thought") == "" for s in a[1]),
    "exactly as given, even over several lines": lambda a: any("\n" in s["observation"] for s in a[1]),
    "unless answer is None": lambda a: a[2] is None,
    "Thought: <final_thought>": lambda a: len(a) == 4 and a[3] not in ("", "I now know the answer"),
    "(left out when final_thought is empty)": lambda a: len(a) == 4 and a[3] == "" and a[2] is not None,
}


def _shop_rows() -> list[tuple]:
    """The shop question: one step, then three."""
    return [(
        "one step and an answer", (NOTEBOOK_Q, [NOTEBOOK], "4"),
        f"Question: {NOTEBOOK_Q}\nThought: I need the price of a notebook.\nAction: price\n"
        "Action Input: notebook\nObservation: A notebook costs 4.\n"
        "Thought: I now know the answer\nFinal Answer: 4",
        "Question first; then Thought, Action, Action Input and Observation for the step; "
        "then the final Thought and the Final Answer.",
    ), (
        "three steps, every one kept, in order", (SHOP_Q, [NOTEBOOK, PEN, TOTAL], "16"),
        "\n".join([f"Question: {SHOP_Q}",
                   *(f"Thought: {s['thought']}\nAction: {s['tool']}\nAction Input: {s['input']}\n"
                     f"Observation: {s['observation']}" for s in (NOTEBOOK, PEN, TOTAL)),
                   "Thought: I now know the answer", "Final Answer: 16"]),
        "Render every step, the last one too, in the order given; the observation comes after "
        "the action that produced it.",
    )]


def _library_rows() -> list[tuple]:
    """A real run of the course's loop, compared with the library's transcript."""
    question, steps, answer, transcript = _paris_run_data()
    return [(
        "agrees with the library's transcript of a real run", (question, steps, answer), transcript,
        "Compare with result.transcript in the lesson (without its last '[ended: ...]' line).",
        "render_trace(question, steps, answer) with the question, steps and answer of the "
        "demo model's Paris run (as in the lesson)",
    )]


def _edge_rows() -> list[tuple]:
    """No thought, no 'thought' key, no final thought, no steps, no answer, a multi-line observation."""
    no_key = {"tool": "search", "input": "Eiffel Tower", "observation": EIFFEL}
    multi = "Could not find 'Paris tower'. Similar:\n1. Paris\n2. Tour Montparnasse"
    by_name = _step("The tower of 1889 is the Eiffel Tower: search for it by name.", "search",
                    "Eiffel Tower", EIFFEL)
    return [(
        "a step without a thought (act-only)",
        (QUESTION, [_step("", "search", "Eiffel Tower", EIFFEL)], "330 m"),
        f"Question: {QUESTION}\nAction: search\nAction Input: Eiffel Tower\nObservation: {EIFFEL}\n"
        "Thought: I now know the answer\nFinal Answer: 330 m",
        "When a step's thought is empty, write no Thought line for it (not an empty 'Thought: ').",
    ), (
        "a step with no 'thought' key at all", (QUESTION, [no_key], "330 m"),
        f"Question: {QUESTION}\nAction: search\nAction Input: Eiffel Tower\nObservation: {EIFFEL}\n"
        "Thought: I now know the answer\nFinal Answer: 330 m",
        "Read the thought with step.get('thought', ''): an act-only step may have no such key.",
    ), (
        "an empty final thought: no final Thought line",
        (QUESTION, [by_name], "330 m", ""),
        f"Question: {QUESTION}\nThought: {by_name['thought']}\nAction: search\n"
        f"Action Input: Eiffel Tower\nObservation: {EIFFEL}\nFinal Answer: 330 m",
        "When final_thought is empty, write no final 'Thought: ' line: the Final Answer line "
        "comes straight after the last observation.",
    ), (
        "no steps: a reason-only answer",
        (QUESTION, [], "324 m", "It is the Eiffel Tower, 324 m tall."),
        f"Question: {QUESTION}\nThought: It is the Eiffel Tower, 324 m tall.\nFinal Answer: 324 m",
        "With no steps, the trace is the question, the final thought you were given and the answer.",
    ), (
        "no answer: the run ended without one",
        (QUESTION, [_step("I need to search.", "search", "Paris tower 1889", NO_PAGE)], None),
        f"Question: {QUESTION}\nThought: I need to search.\nAction: search\n"
        f"Action Input: Paris tower 1889\nObservation: {NO_PAGE}",
        "answer=None means the run stopped without a final answer: end with the last observation, "
        "and write no final Thought and no 'Final Answer: None'.",
    ), (
        "an empty answer is still an answer",
        (QUESTION, [by_name], ""),
        f"Question: {QUESTION}\nThought: {by_name['thought']}\nAction: search\n"
        f"Action Input: Eiffel Tower\nObservation: {EIFFEL}\n"
        "Thought: I now know the answer\nFinal Answer: ",
        "Only answer=None means 'no answer'. An empty string is an answer (the model wrote "
        "'Final Answer:' with nothing after it): test 'answer is not None', not 'if answer'.",
    ), (
        "spaces around an observation are kept",
        (NOTEBOOK_Q, [{**NOTEBOOK, "observation": "  A notebook costs 4.  "}], "4"),
        f"Question: {NOTEBOOK_Q}\nThought: I need the price of a notebook.\nAction: price\n"
        "Action Input: notebook\nObservation:   A notebook costs 4.  \n"
        "Thought: I now know the answer\nFinal Answer: 4",
        "Write the observation exactly as the tool returned it, spaces included: no strip(). "
        "The trace is a record of what the program saw.",
    ), (
        "a multi-line observation, kept as it is",
        (QUESTION, [_step("Search.", "search", "Paris tower", multi), by_name], "330 m"),
        f"Question: {QUESTION}\nThought: Search.\nAction: search\nAction Input: Paris tower\n"
        f"Observation: {multi}\nThought: {by_name['thought']}\nAction: search\n"
        f"Action Input: Eiffel Tower\nObservation: {EIFFEL}\n"
        "Thought: I now know the answer\nFinal Answer: 330 m",
        "The first observation has three lines: write 'Observation: ' and then the tool's text "
        "exactly as given, its newlines included (no stripping, splitting or indenting), and go "
        "on with the next step after its last line.",
    )]


def _call(args: tuple) -> str:
    """How the case called render_trace, with its data laid out to read."""
    from pprint import pformat

    names = ("question", "steps", "answer", "final_thought")
    shown = "\n".join(f"{name} = {pformat(value, width=100, sort_dicts=False)}"
                      for name, value in zip(names, args, strict=False))
    call = "render_trace(question, steps, answer" + (", final_thought)" if len(args) == 4 else ")")
    return f"{call} with\n{shown}"


SPEC = define(Spec(
    "01.render_trace", "write the classic text trace from plain data", "render_trace", render_key,
    tuple(Example(row[0], row[1], row[3]) for rows in (_shop_rows, _library_rows, _edge_rows)
          for row in rows()),
    runs, tuple(Rule(rule, tuple(cases), EDGES.get(rule)) for rule, cases in TABLE.items()), compare=compare,
    show=_call,
    hints=(
        "Build a list of lines and join it with '\\n' at the end: no blank lines, no newline "
        "after the last line.",
        "For each step: 'Thought: ...' (only when the step has a thought), 'Action: tool', "
        "'Action Input: input', then 'Observation: ...'.",
        "After the steps, only when answer is not None: 'Thought: <final_thought>' (only when it "
        "is not empty) and 'Final Answer: <answer>'.",
    ),
    generated_hint="A list of lines: the question, then each step (its Thought only when there is one), "
                   "then the final Thought (unless empty) and Final Answer unless answer is None; "
                   "'\\n'.join(lines)."))
__all__ = ["SPEC"]
