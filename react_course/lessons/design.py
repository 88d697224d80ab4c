"""Lesson 11's system-design prompt and its rubric, and the course's glossary.

The rubric is a list of areas (tools, limits, approval, escalation,
evaluation, cost), each with what a strong answer names; ``grade_design``
ticks the areas the student says they covered, so the notebook can show
what is missing without grading prose.

Left out: a model-graded answer (the student marks their own), and terms the
course never uses.
"""

from __future__ import annotations

from collections.abc import Iterable

PROMPT = "Design an AI customer-support agent for an online shop."

RUBRIC: dict[str, tuple[str, ...]] = {
    "tools": ("read-only tools first (get_order, get_policy), typed and documented",
              "a short tool list: every extra tool is a chance to pick the wrong one"),
    "limits": ("a step limit, a money and time budget per conversation",
               "repeat detection, and one end reason logged per run"),
    "approval": ("refunds and other side effects behind an approval gate in code, not a prompt",
                 "a refund limit and an idempotency key so a retry never pays twice"),
    "escalation": ("a hand-over to a person with a summary of what was found",
                   "hand over on low confidence, an angry customer, or a limit"),
    "evaluation": ("a fixed evaluation set of real tickets, run before every change",
                   "success rate over several runs (pass^k), tool errors, cost per ticket"),
    "cost": ("tokens per ticket grow with the steps squared: keep observations short",
             "a workflow for the fixed cases (order status), the agent for the rest"),
}


def grade_design(covered: Iterable[str]) -> tuple[int, list[str]]:
    """How many rubric areas the answer covered, and the ones it missed.

    >>> grade_design(["tools", "limits", "approval"])
    (3, ['escalation', 'evaluation', 'cost'])
    """
    said = set(covered)
    unknown = said - set(RUBRIC)
    if unknown:
        raise ValueError(f"the rubric's areas are {list(RUBRIC)}; not {sorted(unknown)}")
    return len(said), [area for area in RUBRIC if area not in said]


GLOSSARY: dict[str, str] = {
    "ReAct": "reasoning and acting interleaved: a loop of thought, action and observation",
    "thought": "the model's note on what to do next; it changes nothing outside the run",
    "action": "a tool name and its input, chosen by the model, run by the program",
    "observation": "the tool's result, written into the history by the program, never by the model",
    "scratchpad": "the run so far (thoughts, actions, observations) that each call resends",
    "stop sequence": "text at which the API stops generating, so the model cannot write the "
                     "observation; the program cuts there too",
    "multi-hop question": "a question whose answer needs one fact to find the next",
    "final answer": "the reply that ends the run with an answer for the user",
    "end reason": "why a run ended: final_answer, step_limit, budget, time_limit, repeating, "
                  "hand_over, interrupted or error",
    "step limit": "the most model calls a run may make; checked in code, never left to the model",
    "hand-over": "ending a run on purpose and passing a summary to a person",
    "budget": "the limits a run may spend: steps, tokens, money, time, repeats",
    "approval gate": "code that must approve a side effect (a refund) before the tool runs",
    "idempotency key": "an id that makes a repeated side effect happen once",
    "hallucinated tool": "a tool name the model invents; answered with an error observation",
    "native tool calling": "actions sent as structured tool calls by the API, not parsed from text",
    "pass^k": "the chance that all of k runs of the same task succeed; reliability, not luck",
}


def glossary_markdown() -> str:
    """The glossary as a two-column markdown table, in the order above."""
    rows = [f"| {term} | {meaning} |" for term, meaning in GLOSSARY.items()]
    return "\n".join(["| term | meaning |", "|---|---|", *rows])
